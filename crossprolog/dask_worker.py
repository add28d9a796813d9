"""What runs on a Dask worker for crossprolog.cluster: the plugin that starts
Prolog once per worker process, and a chunk's work."""

from __future__ import annotations

import time
from typing import Any, Callable

from distributed.diagnostics.plugin import WorkerPlugin

engine_starts = 0  # how many times PrologEngine started Prolog in this process (tests read it)


class PrologEngine(WorkerPlugin):
    """Starts Prolog in a worker's process when the worker joins, once: every task it
    runs after uses that engine (crossprolog.engine keeps it, and each family's
    module once loaded, for the life of the process)."""

    def setup(self, worker) -> None:
        global engine_starts
        from . import engine

        engine.prolog_version()
        engine_starts += 1


def run_chunk(work: Callable[[Any], Any], items: list) -> tuple[list, float]:
    """work(item) for each item of a chunk, and the seconds they took."""
    started = time.perf_counter()
    done = [work(item) for item in items]
    return done, time.perf_counter() - started


def starts() -> int:
    """`engine_starts` of this worker's process (for Client.run)."""
    return engine_starts
