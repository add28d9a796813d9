"""What runs on a Dask worker for crossprolog.cluster: the plugin that starts
Prolog once per worker process, and a chunk's work."""

from __future__ import annotations

import pickle
import threading
import time
from typing import Any, Callable

from distributed.diagnostics.plugin import WorkerPlugin

engine_starts = 0  # how many times PrologEngine started Prolog in this process: at most once


class PrologEngine(WorkerPlugin):
    """Starts Prolog in a worker's process when the worker joins, once: every task it
    runs after uses that engine (crossprolog.engine keeps it, and each family's
    module once loaded, for the life of the process)."""

    def setup(self, worker) -> None:
        global engine_starts
        from . import engine

        if not engine_starts:  # a plugin registered again (by each command) finds it running
            engine.prolog_version()
            engine_starts += 1


STOP_CHECK_SECONDS = 1.0  # how often a chunk asks whether its run was stopped


def run_chunk(work: Callable[[Any], Any], items: bytes, stop: str = "") -> tuple[list, float]:
    """work(item) for each item of a chunk (`items`, their list pickled: see
    crossprolog.cluster), and the seconds they took.  Between items, at
    most once every STOP_CHECK_SECONDS, the chunk asks whether the Dask Event named
    `stop` is set (the command was interrupted: Dask cancels a task only before it
    starts), and if so ends with what it has (which nobody reads).  One chunk at a
    time in a process, whatever its threads, each thread in a Prolog engine it keeps."""
    from distributed import Event

    from . import engine

    with _one_chunk_at_a_time:
        engine.hold_engine()
        started = checked = time.perf_counter()
        done = []
        for item in pickle.loads(items):
            if stop and time.perf_counter() - checked > STOP_CHECK_SECONDS:
                if Event(stop).is_set():
                    break
                checked = time.perf_counter()
            done.append(work(item))
        return done, time.perf_counter() - started


# The commands' work runs in the main thread of a process (its time limits, Ctrl-C): a
# worker started with several threads (dask worker --nthreads N) runs one chunk at a time.
_one_chunk_at_a_time = threading.Lock()


def starts() -> int:
    """`engine_starts` of this worker's process (for Client.run)."""
    return engine_starts
