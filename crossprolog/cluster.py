"""Work on a Dask cluster: the second way `batch.results` runs many items, beside
worker processes (--jobs).

The items go to the cluster's workers in chunks, one task each; a worker runs
the work on its chunk's items one after another, in one Prolog engine that
stays loaded in its process from task to task (crossprolog.dask_worker: what
runs on a worker).  Chunks start small; once some are back, each new chunk is
sized from the measured time per item so a task takes about `TASK_SECONDS`,
against which the cluster's own cost of a task (a few milliseconds: see
docs/cluster.md) is small.  Results come back as chunks finish, and the
caller puts them in order: how the items were chunked never shows.

A chunk whose worker dies is run again by Dask on another worker (a task is
pure: its records are written by the caller, once, when its result comes);
a chunk that kills `ALLOWED_FAILURES` workers is split, and an item that
kills them alone gets a WorkerDied, as under --jobs.
"""

from __future__ import annotations

import atexit
import logging
import math
import pickle
import re
import signal
import threading
import uuid
import warnings
from concurrent import futures
from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Iterator, Sequence

from . import engine
from .errors import UsageError, printable

CONNECT_SECONDS = 5.0   # how long to try to reach a scheduler before saying it cannot be
TASK_SECONDS = 0.5      # what a chunk should take on a worker, once the items' cost is known
FIRST_CHUNK = 2         # items of each first chunk, before anything is measured
MAX_CHUNK = 1000        # items of a chunk at most: a worker lost takes at most this much again
TAIL_SHARE = 0.25       # of what is left per worker, a chunk's items at most (see chunk_size)
ALLOWED_FAILURES = 2    # workers a task may take down before it is split (Dask's own setting)
LOCAL = re.compile(r"local(?::(\d+))?")
ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://\S+|[\w.-]+:\d+|\[[0-9a-fA-F:]+\]:\d+")


def address(text: str) -> str:
    """`text` as a --cluster value: a scheduler's address (tcp://host:8786, host:8786),
    `local` (a worker per core) or `local:N`; ValueError for anything else, a
    puzzle's path say (argparse reports it)."""
    match = LOCAL.fullmatch(text)
    if match and (match[1] is None or int(match[1]) >= 1):
        return text
    if ADDRESS.fullmatch(text) and not match:
        return text
    raise ValueError(f"expected a Dask scheduler's address (tcp://HOST:PORT) or local:N, not {text!r}")


def resolved(given: str) -> str:
    """The cluster a bare `--cluster` means (given ""): the scheduler that Dask's own
    setting names (DASK_SCHEDULER_ADDRESS, or the `scheduler-address` of Dask's
    configuration), as Dask's Client() would take, else a local cluster."""
    if given:
        return given
    import dask

    return dask.config.get("scheduler-address", None) or "local"


@contextmanager
def connected(cluster: str) -> Iterator[Any]:
    """A dask.distributed Client of `cluster` (see `address`), with the PrologEngine
    plugin registered; closed at the end, the local cluster with it.  A scheduler
    that cannot be reached within CONNECT_SECONDS is a UsageError."""
    try:
        import dask
        import distributed  # noqa: F401 (its loggers have their levels: see _dask_quiet)
    except ImportError:
        raise UsageError("--cluster needs Dask: pip install 'crossprolog[cluster]'") from None
    cluster = resolved(cluster)
    dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                     # were tasks queued on the scheduler (many of them), a worker would get
                     # the next only once free; results() keeps few in flight (see _chunked)
                     "distributed.scheduler.worker-saturation": 1.0,
                     "distributed.comm.timeouts.connect": f"{CONNECT_SECONDS}s",
                     # a local cluster's workers share this machine's cores: no sampling profiler,
                     # and Dask's periodic checks of its own health less often
                     "distributed.worker.profile.enabled": False,
                     "distributed.admin.tick.interval": "500ms",
                     "distributed.admin.system-monitor.interval": "2s",
                     "distributed.worker.memory.monitor-interval": "1s"})
    with _dask_quiet():
        yield from _connected(cluster, LOCAL.fullmatch(cluster))


@contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's own log quiet in this process: what goes wrong is said by crossprolog, in
    one line (Dask logs a lost scheduler with tracebacks)."""
    names = ["distributed", *(name for name in logging.root.manager.loggerDict
                              if name.startswith("distributed."))]
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def _connected(cluster: str, local) -> Iterator[Any]:
    from dask.system import CPU_COUNT  # the cores this process may use, cgroup quotas too
    from distributed import Client, LocalCluster

    started = None
    # A local scheduler serves Dask's HTTP routes on port 8787 or, taken (another
    # cluster), another: Dask warns of it, which says nothing to a user of the command
    warnings.filterwarnings("ignore", message=r"Port \d+ is already in use", category=UserWarning)
    try:
        if local:
            workers = int(local[1] or CPU_COUNT)
            # The workers inherit what is ignored: Ctrl-C is the parent's to handle, and
            # SIGTERM stays, with which Dask's nannies end them.
            with engine.stops_ignored({signal.SIGINT}):
                started = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.CRITICAL)
            client = Client(started)
        else:
            client = Client(cluster, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, RuntimeError) as error:
        if started is not None:
            started.close()
        where = "start a local Dask cluster" if local else f"reach the Dask scheduler at {printable(cluster)}"
        raise UsageError(f"cannot {where}: {_first_line(error)}") from None
    try:
        from .dask_worker import PrologEngine

        client.register_plugin(PrologEngine(), name="crossprolog-engine")
        yield client
    finally:
        client.close()
        if started is not None:
            started.close()


def results(work: Callable[[Any], Any], items: Sequence[Any], cluster: str, *,
            died: Callable[[str], Any], guarded: bool = False) -> Iterator[tuple[int, Any]]:
    """(index, work(item)) for every item, in the order their chunks finish, the work
    done on the workers of `cluster`; died(reason) for an item that kills every worker
    that takes it.  `guarded` work has a watchdog that may give up on an item
    (batch.last_result): the worker it was given up on ends once it has answered
    (its nanny starts a new one), and the search with it.  Closing the
    iterator early (Ctrl-C, say) cancels the tasks not yet begun and stops those at
    work at their next item."""
    import asyncio  # here: the command line reads --cluster addresses at every start

    with _client(cluster) as client:
        try:
            yield from _chunked(client, work, items, died, guarded)
        except (OSError, asyncio.CancelledError, futures.CancelledError) as error:
            raise UsageError(f"lost the Dask cluster {printable(resolved(cluster))}: "
                             f"{_first_line(error)}") from None


_prepared: dict[str, tuple[threading.Thread, dict]] = {}  # cluster -> its connecting thread, what it got


def prepare(cluster: str) -> None:
    """Connect to `cluster` (start it, for a local one) in a thread of its own, while
    this one goes on (reading the inputs); `results` takes the client, or raises the
    error, when it comes.  A cluster prepared but never used is closed at exit."""
    if cluster in _prepared:
        return
    got: dict = {}

    def connect() -> None:
        # Ctrl-C is for the main thread: blocked here, in the threads Dask starts from
        # here, and (inherited) in a local cluster's worker processes
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        stack = ExitStack()
        try:
            got["client"] = stack.enter_context(connected(cluster))
            got["stack"] = stack
        except BaseException as error:  # noqa: B036 (raised again in the main thread)
            got["error"] = error

    thread = threading.Thread(target=connect, name="crossprolog-cluster", daemon=True)
    thread.start()
    _prepared[cluster] = (thread, got)
    atexit.register(_close_prepared)


@contextmanager
def _client(cluster: str) -> Iterator[Any]:
    """The client of `cluster`: the one `prepare` connected, else a new one."""
    if cluster not in _prepared:
        with connected(cluster) as client:
            yield client
        return
    thread, got = _prepared[cluster]
    thread.join()
    del _prepared[cluster]
    if "error" in got:
        raise got["error"]
    with got["stack"]:
        yield got["client"]


def _close_prepared() -> None:
    for thread, got in _prepared.values():
        thread.join()
        if "stack" in got:
            got["stack"].close()
    _prepared.clear()


def _chunked(client, work: Callable, items: Sequence[Any], died: Callable[[str], Any],
             guarded: bool = False) -> Iterator[tuple[int, Any]]:
    from distributed import Event, as_completed
    from distributed.scheduler import KilledWorker

    from .dask_worker import end_soon, run_chunk

    next_item = 0
    pending = as_completed()
    chunks: dict[Any, range] = {}  # future -> the indices of its items
    measured = [0, 0.0]  # items done, seconds they took on the workers
    stop = Event(f"crossprolog-stop-{uuid.uuid4().hex}", client=client)

    def submit(indices: range) -> None:
        # The items go as one pickle, which the scheduler only passes on: it unpickles a
        # task's arguments and pickles them again for the worker, and a local cluster's
        # runs in this process, where that doubled its event loop's CPU and the garbage
        # collections' (docs/cluster.md, "Measured")
        chunk = pickle.dumps([items[i] for i in indices], protocol=pickle.HIGHEST_PROTOCOL)
        future = client.submit(run_chunk, work, chunk, stop.name, guarded, pure=False)
        chunks[future] = indices
        pending.add(future)

    # The scheduler hands a worker each task as it comes (so few tasks are never queued
    # on the scheduler), and counts a worker's death against every task it holds.  So a
    # worker holds two tasks, one at work and one behind it (never waiting for the next
    # to come), until a worker dies; from then on one, and the items of a chunk that
    # killed its workers go one task each.  An item whose task killed its workers is
    # tried once more, alone on the cluster, before it is blamed: a task that shared
    # a dying worker with it (or a worker the scheduler had not yet seen die) is not.
    suspects: list[int] = []
    lone: list[int] = []  # items to try once more alone
    held = [2]  # tasks a worker holds
    alone = set()  # the items tried alone

    def refill() -> None:
        nonlocal next_item
        if any(chunks[future][0] in alone for future in chunks):
            return  # one alone at work: nothing beside it
        if lone and not chunks:
            index = lone.pop(0)
            alone.add(index)
            submit(range(index, index + 1))
            return
        slots = max(1, sum(client.nthreads().values()))  # workers may come and go
        while len(chunks) < held[0] * slots and (suspects or next_item < len(items)):
            if suspects:
                index = suspects.pop(0)
                submit(range(index, index + 1))
                continue
            size = chunk_size(measured, len(items) - next_item, slots)
            submit(range(next_item, min(next_item + size, len(items))))
            next_item += size

    try:
        refill()
        for future in pending:
            indices = chunks.pop(future)
            try:
                done, seconds, stuck = future.result()
            except KilledWorker:
                held[0] = 1
                if indices[0] in alone:
                    yield indices[0], died("the worker process solving it died, each time it "
                                           "was tried (on the Dask cluster)")
                elif len(indices) == 1:
                    lone.append(indices[0])
                else:
                    suspects.extend(indices)  # find the item that kills its workers
                refill()
                continue
            measured[0] += len(indices)
            measured[1] += seconds
            if stuck:  # a search left running there, which nothing else stops (gone already: so be it)
                client.run(end_soon, workers=[stuck], on_error="ignore")
            refill()
            for index, result in zip(indices, done):
                yield index, result
    finally:
        if chunks:  # stopped early: the chunks not begun are cancelled, those at work stop
            stop.set()
            client.cancel(list(chunks))


def chunk_size(measured: Sequence[float], left: int, slots: int) -> int:
    """Items for the next chunk: FIRST_CHUNK until some are measured, then enough
    for TASK_SECONDS of work, never more than MAX_CHUNK nor a `TAIL_SHARE` of what
    is `left` for each of `slots` workers: towards the end chunks shrink, the last
    ones to an item, so that the workers finish together (none waits while another
    has a long chunk to go)."""
    done, seconds = measured
    if not done:
        return FIRST_CHUNK
    wanted = TASK_SECONDS / max(seconds / done, 1e-6)
    return max(1, min(math.ceil(wanted), MAX_CHUNK, math.ceil(left * TAIL_SHARE / slots)))


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


__all__ = ["address", "chunk_size", "connected", "prepare", "resolved", "results"]
