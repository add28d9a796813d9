"""Many puzzles in one command: inputs named by directories, worker processes, results files."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Sequence, TypeVar

from .errors import CrossprologError, UsageError, printable

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

Item = TypeVar("Item")
Result = TypeVar("Result")

PUZZLE_SUFFIXES = (".txt", ".md")


def expand(paths: Sequence[str], suffixes: Sequence[str] = PUZZLE_SUFFIXES) -> list[str]:
    """The inputs `paths` name: a directory names its puzzle files, every other path itself.

    A directory's puzzle files are those with one of `suffixes`, in it and its
    subdirectories, hidden ones skipped, in sorted order.  A directory with
    none stays as it is, for the reader to report.
    """
    inputs = []
    for path in paths:
        found = _puzzle_files(Path(path), suffixes) if path != "-" and os.path.isdir(path) else []
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
    one), spawned, not forked (a forked copy of a running Prolog is not
    safe).  `work` must be picklable: a module-level function or a partial
    of one.  An item whose worker dies (killed, out of memory) gets a
    WorkerDied for its result, and a fresh worker takes the next, as after a
    worker's last result.  Workers end with their parent, whatever kills it;
    closing the iterator early (on Ctrl-C, say) ends them at once.
    """
    if cluster is not None:
        from . import cluster as dask_cluster  # asyncio and Dask's client: only for a cluster

        yield from dask_cluster.results(work, items, cluster, died=WorkerDied)
        return
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
    """Whether this process is a worker of `results`."""
    return _parent_pipe is not None


def last_result(result: Any) -> NoReturn:
    """In a worker, from any thread: send `result` for the item at work as this worker's
    last, and end the process at once (its search will not stop: a watchdog's way out).
    The parent takes it as the item's result and goes on with a fresh worker."""
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
    return process, parent_end


def _started(context, work: Callable) -> tuple[Any, Connection]:
    """A worker given `work`: one that `prepare` started, else a new one."""
    process, pipe = _prepared.pop() if _prepared else _worker(context)
    pipe.send(work)
    return process, pipe


_prepared: list[tuple[Any, Connection]] = []  # workers `prepare` started, not yet given work


def prepare(jobs: int, cluster: str | None, several: Callable[[], bool]) -> None:
    """Start what `results` will run a batch on, while the caller reads its items: the
    `jobs` worker processes (their Python starts, their imports), or the --cluster,
    connected to in a thread of its own (crossprolog.cluster.prepare).  Only when
    there is one of them to start and `several()` says the batch holds several
    items: a lone item runs in this process, and needs neither."""
    if (cluster is None and jobs <= 1) or not several():
        return
    if cluster is not None:
        from . import cluster as dask_cluster

        dask_cluster.prepare(cluster)
        return
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    _prepared.extend(_worker(context) for _ in range(jobs - len(_prepared)))


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
    # Ctrl-C reaches the whole process group; the parent alone decides what
    # happens (it ends the workers), so workers do not print tracebacks.
    global _parent_pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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


# Results files


class Output:
    """A file written as work finishes: each `write` reaches it at once.

    What `path` names decides how:

    - one of this process's open files, named as /dev/stdout, /dev/stderr,
      /dev/fd/N or /proc/self/fd/N (or a symlink to one): written through
      that descriptor, where it stands: a pipe, a terminal, a socket, or a
      file the shell opened;
    - anything else that is not a regular file (a device, a FIFO): opened
      for writing as it is, never truncated, seeked or replaced;
    - a regular file, or a path where there is none yet (a symlink is
      followed, the link kept): written to a temporary file of this run's
      own beside it, then put in place by `close` (see `_put_in_place`): a
      reader never sees half of it, two runs writing the same file never
      mix their records, and what was written survives a crash there.

    Any error is a UsageError saying what happened and where the records
    written so far are.
    """

    def __init__(self, path: str):
        self.path = path
        self.target = os.path.realpath(path)
        if os.path.isdir(self.target):
            raise UsageError(f"cannot write {printable(path)}: it is a directory")
        self.replacing = False  # whether `close` puts a temporary file in place
        self.partial = self.target  # where the records are until then
        self.written = 0  # texts (records) written whole
        self.end = 0  # where the last of them ends
        try:
            self.file = self._opened()
        except OSError as error:
            raise UsageError(f"cannot write {printable(path)}: {error.strerror}") from None

    def _opened(self):
        descriptor = _descriptor(self.path)
        if descriptor is not None:
            return os.fdopen(os.dup(descriptor), "w", encoding="utf-8")
        if _is_special(self.path):
            return os.fdopen(os.open(self.path, os.O_WRONLY), "w", encoding="utf-8")
        directory, name = os.path.split(self.target)
        handle, self.partial = tempfile.mkstemp(prefix=f"{name}.", suffix=".partial", dir=directory)
        self.replacing = True
        return os.fdopen(handle, "w", encoding="utf-8")

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
            self.file.flush()
        except OSError as error:
            self.abandon()
            raise UsageError(f"cannot write {printable(self.path)}: {error.strerror}"
                             f"{self._kept()}") from None
        self.written += 1
        self.end = self.file.tell() if self.replacing else 0

    def close(self) -> None:
        """Put the file in place (for a regular file: all at once)."""
        try:
            self.file.close()
            if self.replacing:
                _put_in_place(self.partial, self.target)
        except OSError as error:
            raise UsageError(f"cannot write {printable(self.path)}: {error.strerror}{self._kept()}") from None

    def abandon(self) -> None:
        """Stop writing, leaving what was written whole where `_kept` says (and no
        half-written text after it, nor an empty file)."""
        try:
            self.file.close()
        except OSError:
            pass
        if not self.replacing:
            return
        try:
            if self.written:
                os.truncate(self.partial, self.end)
            else:
                os.unlink(self.partial)
        except OSError:
            pass

    def _kept(self) -> str:
        if not self.replacing or not self.written:
            return ""
        return f"; the {self.written} records written before are in {printable(self.partial)}"


def _put_in_place(partial: str, target: str) -> None:
    """Make the temporary file `partial` the file `target`.

    A new file gets the mode the umask leaves.  An existing one is replaced
    at once (os.replace), the replacement keeping its mode and, when we may
    give it away (as root), its owner; but one with other hard links is
    written over in place, so that they still name it (not at once: it is
    the only way to keep them).  The temporary file stays where it is if
    this fails.
    """
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        os.chmod(partial, 0o666 & ~_umask())
        os.replace(partial, target)
        return
    if existing.st_nlink > 1:
        with open(partial, "rb") as source, open(target, "wb") as destination:
            shutil.copyfileobj(source, destination)
        os.unlink(partial)
        return
    if (existing.st_uid, existing.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.chown(partial, existing.st_uid, existing.st_gid)
        except PermissionError:  # not root: the file becomes ours, as an editor would leave it
            pass
    os.chmod(partial, stat.S_IMODE(existing.st_mode))  # after chown, which may clear set-id bits
    os.replace(partial, target)


# /dev/stdout, /dev/fd/3, /proc/self/fd/3, /proc/PID/fd/3, /proc/self/task/TID/fd/3
_DESCRIPTOR = re.compile(r"/(?:dev|proc/(?:self|thread-self|(\d+))(?:/task/\d+)?)/fd/(\d+)")
_STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _descriptor(path: str) -> int | None:
    """The descriptor of this process that `path` names, itself or through symlinks, or None.

    Such a path cannot be reopened as a file (a pipe's is `pipe:[123]`; a
    socket's cannot be opened at all), and must not be replaced.
    """
    path = os.path.abspath(path)
    for _ in range(40):  # as many links as the kernel follows
        if path in _STANDARD:
            return _STANDARD[path]
        match = _DESCRIPTOR.fullmatch(path)
        if match and match[1] in (None, str(os.getpid())):
            return int(match[2])
        try:
            link = os.readlink(path)
        except OSError:
            return None
        path = os.path.normpath(os.path.join(os.path.dirname(path), link))
    return None


def _is_special(path: str) -> bool:
    """Whether `path` is (or leads to) neither a regular file nor a directory: a device,
    a FIFO, a socket.  Written to, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def write_jsonl(output: Output, record: dict) -> None:
    import json  # for --out only: a start that prints text does not load it

    output.write(json.dumps(record) + "\n")


def write_text(path: str, text: str) -> None:
    """Write `text` to `path` as Output does: whole or not at all for a regular file."""
    output = Output(path)
    output.write(text)
    output.close()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_writable(path: str) -> None:
    """Raise UsageError unless a file can be written at `path`: say so before the work, not after."""
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise UsageError(f"cannot write {printable(path)}: it is a directory")
    descriptor = _descriptor(path)
    if descriptor is not None:
        try:
            writable = (fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_ACCMODE) in (os.O_WRONLY, os.O_RDWR)
        except OSError as error:
            raise UsageError(f"cannot write {printable(path)}: {error.strerror}") from None
        if not writable:
            raise UsageError(f"cannot write {printable(path)}: it is not open for writing")
        return
    if _is_special(path):
        if not os.access(path, os.W_OK):
            raise UsageError(f"cannot write {printable(path)}: Permission denied")
        return
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise UsageError(f"cannot write {printable(path)}: Permission denied")
    try:
        with tempfile.TemporaryFile(dir=os.path.dirname(target)):
            pass
    except OSError as error:
        raise UsageError(f"cannot write {printable(path)}: {error.strerror}") from None


__all__ = ["Output", "WorkerDied", "answer_of", "check_writable", "expand", "in_worker", "last_result",
           "prepare", "results", "spawned", "write_jsonl", "write_text"]
