"""Many puzzles in one command: inputs named by directories, and worker processes.

The files the results go to are `results_files`'.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Sequence, TypeVar

from . import giving_up
from .errors import CrossprologError
from .results_files import same_file, written_here

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

Item = TypeVar("Item")
Result = TypeVar("Result")

PUZZLE_SUFFIXES = (".txt", ".md")


def expand(paths: Sequence[str], suffixes: Sequence[str] = PUZZLE_SUFFIXES,
           written: str | None = None) -> list[str]:
    """The inputs `paths` name: a directory names its puzzle files, every other path itself.

    A directory's puzzle files are those with one of `suffixes`, in it and its
    subdirectories, in sorted order; hidden ones are skipped, and so are the file the
    command writes (`written`) and what crossprolog wrote there before (records and
    pages of other runs, which are no puzzles: results_files.written_here).  A
    directory with none stays as it is, for the reader to report.
    """
    inputs = []
    for path in paths:
        found = _puzzle_files(Path(path), suffixes) if path != "-" and os.path.isdir(path) else []
        found = [file for file in found if not (written and same_file(str(file), written))
                 and not written_here(str(file), empty=False)]
        inputs += [str(file) for file in found] or [path]
    return inputs


def _puzzle_files(directory: Path, suffixes: Sequence[str]) -> list[Path]:
    return sorted(file for file in directory.rglob("*")
                  if file.suffix.lower() in suffixes and file.is_file()
                  and not any(part.startswith(".") for part in file.relative_to(directory).parts))


# Worker processes


class WorkerDied(CrossprologError):
    """The worker process working on an item ended without a result (killed, out of memory)."""

    exit_code = 3


def results(work: Callable[[Item], Result], items: Sequence[Item], jobs: int = 1,
            isolated: bool = False, cluster: str | None = None
            ) -> Iterator[tuple[int, Result | WorkerDied]]:
    """(index, work(item)) for every item, in the order they finish.

    The one place that decides where work runs.  With `cluster` (a --cluster
    address), on a Dask cluster, in chunks (crossprolog.cluster).  With jobs > 1, or `isolated` (for a watchdog that may end a worker: see
    `last_result`), the work runs in that many worker processes (at least
    one; at most one an item, and one a core: see `cores`), spawned, not
    forked (a forked copy of a running Prolog is not safe).  `work` must be picklable: a module-level function or a partial
    of one.  An item whose worker dies (killed, out of memory) gets a
    WorkerDied for its result, and a fresh worker takes the next, as after a
    worker's last result.  Workers end with their parent, whatever kills it;
    closing the iterator early (on Ctrl-C, say) ends them at once.
    """
    if cluster is not None:
        from . import cluster as dask_cluster  # asyncio and Dask's client: only for a cluster

        yield from dask_cluster.results(work, items, cluster, died=WorkerDied, guarded=isolated)
        return
    jobs = min(jobs, cores())
    if (jobs <= 1 and not isolated) or len(items) <= 1:
        for index, item in enumerate(items):
            yield index, work(item)
        return
    import multiprocessing  # only for workers: a lone process starts faster without it

    context = multiprocessing.get_context("spawn")
    waiting = list(enumerate(items))[::-1]  # popped from the end: first item first
    busy: dict[Any, tuple[Any, Connection, deque]] = {}  # sentinel -> (process, pipe, (index, item) sent)
    try:
        while waiting or busy:
            while waiting and len(busy) < jobs:
                process, pipe = _started(context, work)
                busy[process.sentinel] = (process, pipe, deque())
                _fed(pipe, busy[process.sentinel][2], waiting, jobs)
            yield from _finished(busy, waiting, jobs)
    finally:
        for process, pipe, _ in [*busy.values(), *((p, pipe, None) for p, pipe in _prepared)]:
            process.kill()
            pipe.close()
        _prepared.clear()


QUEUED_BYTES = 16 * 1024  # an item queued behind the one at work is at most this big (see _fed)


def _fed(pipe: Connection, sent: deque, waiting: list, jobs: int) -> None:
    """Send a worker the next waiting item, and while more than `jobs` others wait, one
    more to queue behind it: its next item is in its pipe when it sends a result, so it
    never waits for this process to read that result (on a machine this process
    shares, it may wait for a core first).  The last `jobs` items each go to a free
    worker, none behind another's long search.  A queued item is small (the pipe's
    buffer holds it: the worker and this process never both block writing)."""
    from multiprocessing.reduction import ForkingPickler

    while waiting and (not sent or (len(sent) == 1 and len(waiting) > jobs)):
        index, item = waiting[-1]
        data = ForkingPickler.dumps(item)
        if sent and len(data) > QUEUED_BYTES:
            return
        try:
            pipe.send_bytes(data)
        except OSError:  # the worker has died: _finished finds out, the item still waits
            return
        waiting.pop()
        sent.append((index, item))


def _finished(busy: dict, waiting: list, jobs: int) -> Iterator[tuple[int, Any]]:
    """The results that are ready (after waiting for one), feeding or ending their workers.
    A worker's results come in the order its items were sent: the first of them is
    the one it was at work on when it died (or ended after its last result), and
    those queued behind it go back to wait for another worker."""
    from multiprocessing.connection import wait

    ready = wait([pipe for _, pipe, _ in busy.values()] + list(busy))
    for sentinel, (process, pipe, sent) in list(busy.items()):
        if pipe not in ready and sentinel not in ready:
            continue
        result = _received(pipe)
        index, _ = sent.popleft()
        last = isinstance(result, _Last)
        if last:
            result = result.result
        if result is not NOTHING and not last:  # the worker (and its warm Prolog) takes the next
            _fed(pipe, sent, waiting, jobs)
        if result is NOTHING or last or not sent:
            waiting.extend(reversed(sent))
            del busy[sentinel]
            pipe.close()
            process.join()
        yield index, WorkerDied(_death(process.exitcode)) if result is NOTHING else result


NOTHING = object()  # what a worker that died sent


@dataclass(frozen=True)
class _Last:
    """A worker's last result: it ends after sending it."""

    result: Any


_parent_pipe: Connection | None = None  # in a worker process: its pipe to the parent


def in_worker() -> bool:
    """Whether this process is a worker of `results`, or a Dask worker at work on
    items that a watchdog may give up on (crossprolog.giving_up)."""
    return _parent_pipe is not None or giving_up.taker() is not None


def last_result(result: Any) -> NoReturn:
    """In a worker, from any thread: send `result` for the item at work as this worker's
    last, and end the process at once (its search will not stop: a watchdog's way out).
    The parent takes it as the item's result and goes on with a fresh worker.  On a
    Dask worker (crossprolog.giving_up), hand it over and block this thread for good
    instead: the process holds other tasks' results, and the client ends it after."""
    take = giving_up.taker()
    if take is not None:
        take(result)
        threading.Event().wait()
    _parent_pipe.send(_Last(result))
    os._exit(0)


def _received(pipe: Connection) -> Any:
    try:
        return pipe.recv() if pipe.poll() else NOTHING
    except (EOFError, OSError):
        return NOTHING


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name
        cause = ": out of memory?" if exitcode == -signal.SIGKILL else ""
        return f"the worker process solving it was killed ({name}{cause})"
    return f"the worker process solving it ended without an answer (exit code {exitcode})"


def _worker(context) -> tuple[Any, Connection]:
    """A worker process, started: it waits for its work (see _serve) on the pipe returned."""
    parent_end, child_end = context.Pipe()
    process = context.Process(target=_serve, args=(child_end, os.getpid()), daemon=True)
    process.start()
    child_end.close()
    _remember(process)
    return process, parent_end


_workers: list = []  # the workers started and not yet seen ended, killed at exit if alive


def _remember(process) -> None:
    """Have `process` killed at exit should it still run then.  Python's multiprocessing
    ends the workers left at exit with SIGTERM, which they ignore (see _serve), then
    waits for them: a command stopped before `results` took its prepared workers
    waited for good.  Registered after multiprocessing's, the kill runs before it."""
    if not _workers:
        import atexit

        atexit.register(_workers_killed)
    _workers[:] = [worker for worker in _workers if worker.exitcode is None] + [process]


def _workers_killed() -> None:
    for worker in _workers:
        if worker.exitcode is None:
            worker.kill()


def _started(context, work: Callable) -> tuple[Any, Connection]:
    """A worker given `work`: one that `prepare` started, else a new one."""
    process, pipe = _prepared.pop() if _prepared else _worker(context)
    pipe.send(work)
    return process, pipe


_prepared: list[tuple[Any, Connection]] = []  # workers `prepare` started, not yet given work


def prepare(jobs: int, cluster: str | None, items: Callable[[int], int]) -> None:
    """Start what `results` will run a batch on, while the caller reads its items: its
    worker processes (their Python starts, their imports), or the --cluster,
    connected to in a thread of its own (crossprolog.cluster.prepare).

    `items(most)` guesses how many items the batch holds, counting no further than
    `most`.  A lone item runs in this process, and needs neither; else as many
    workers start as `results` will run: `jobs`, but no more than the items or
    the cores (an item more than guessed gets a worker `results` starts).
    """
    if cluster is not None:
        if items(2) > 1:
            from . import cluster as dask_cluster

            dask_cluster.prepare(cluster)
        return
    jobs = min(jobs, cores())
    workers = min(jobs, items(jobs)) if jobs > 1 else 0
    if workers <= 1:
        return
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    _prepared.extend(_worker(context) for _ in range(workers - len(_prepared)))


def cores() -> int:
    """The cores this process may run on: the most workers worth running.  Searches
    are CPU-bound, so a worker more only shares the cores, with a Prolog of its own in
    memory and its items' --timeout running while it waits."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no CPU affinity (macOS, Windows)
        return os.cpu_count() or 1


def spawned(work: Callable) -> tuple[Any, Connection]:
    """A worker process of the kind `results` runs (spawned, ending with its parent, its
    watchdog's `last_result` honoured), for a caller that hands it items one at a time
    (the web server): its process, and the pipe to send it items on.  Once the pipe or
    the process is ready (multiprocessing.connection.wait), `answer_of` takes the answer."""
    import multiprocessing

    process, pipe = _worker(multiprocessing.get_context("spawn"))
    pipe.send(work)
    return process, pipe


def answer_of(process, pipe: Connection) -> tuple[Any, bool]:
    """What the worker of `spawned` answered for its item, and whether it takes more: a
    WorkerDied (and False) when it ended without an answer."""
    result = _received(pipe)
    if result is NOTHING or isinstance(result, _Last):
        process.join()
        return (WorkerDied(_death(process.exitcode)) if result is NOTHING else result.result), False
    return result, True


def _serve(pipe: Connection, parent: int) -> None:
    """A worker's life: its work, then items in and results out, until the pipe closes or
    the parent is gone."""
    # Ctrl-C reaches the whole process group, and so does SIGTERM from timeout(1);
    # the parent alone decides what happens (it ends the workers, with SIGKILL), so
    # workers neither print tracebacks nor die with puzzles the parent would report.
    global _parent_pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    _parent_pipe = pipe
    try:
        work = pipe.recv()
        while True:
            pipe.send(work(pipe.recv()))
    except (EOFError, OSError, KeyboardInterrupt):
        pass


def _end_with(parent: int) -> None:
    """End this process once `parent` is gone (it was killed, say): its orphan has nobody to answer."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


__all__ = ["WorkerDied", "answer_of", "cores", "expand", "in_worker", "last_result", "prepare", "results",
           "spawned"]
