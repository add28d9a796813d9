"""What runs on a Dask worker for crossprolog.cluster: the plugin that starts
Prolog once per worker process, and a chunk's work."""

from __future__ import annotations

import os
import pickle
import queue
import threading
import time
from contextlib import nullcontext
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


def run_chunk(work: Callable[[Any], Any], items: bytes, stop: str = "", guarded: bool = False
              ) -> tuple[list, float, str | None]:
    """work(item) for each item of a chunk (`items`, their list pickled: see
    crossprolog.cluster), the seconds they took, and None, or this worker's address
    when it must end.  Between items, at most once every STOP_CHECK_SECONDS,
    the chunk asks whether the Dask Event named `stop` is set (the command was
    interrupted: Dask cancels a task only before it starts), and if so ends with what
    it has (which nobody reads).  One chunk at a time in a process, whatever its
    threads, each thread in a Prolog engine it keeps.

    `guarded` work has a watchdog that may give up on an item whose search does not
    stop (a user's encoding that catches its time limit): such work runs in an item
    thread, in its own Prolog engine, which is left behind with the item the watchdog
    gave up on; the next item goes on in a new one, and this worker's address comes
    back so that the client ends the process (`end_soon`), and that search with it."""
    from distributed import Event, get_worker

    from . import engine
    from .giving_up import giving_up

    with _one_chunk_at_a_time:
        engine.hold_engine()
        started = checked = time.perf_counter()
        done = []
        left_behind = False
        with giving_up(lambda result: _worked.put((_GIVEN_UP, result))) if guarded else nullcontext():
            for item in pickle.loads(items):
                if stop and time.perf_counter() - checked > STOP_CHECK_SECONDS:
                    if Event(stop).is_set():
                        break
                    checked = time.perf_counter()
                if not guarded:
                    done.append(work(item))
                    continue
                result, given_up = _in_item_thread(work, item)
                done.append(result)
                left_behind = left_behind or given_up
        return done, time.perf_counter() - started, get_worker().address if left_behind else None


# The commands' work runs in the main thread of a process (its time limits, Ctrl-C): a
# worker started with several threads (dask worker --nthreads N) runs one chunk at a time.
_one_chunk_at_a_time = threading.Lock()

_GIVEN_UP = object()  # what the watchdog's result comes with on _worked
_worked: queue.SimpleQueue = queue.SimpleQueue()  # (True, result), (False, error) or (_GIVEN_UP, result)
_item_thread: list[queue.SimpleQueue] = []  # the inbox of the thread running guarded items, once started


def _in_item_thread(work: Callable[[Any], Any], item: Any) -> tuple[Any, bool]:
    """work(item), run in the item thread (started when there is none), and whether the
    watchdog gave up on it: then the result is the watchdog's, and the thread is left
    to its search.  An error of the work is raised here."""
    if not _item_thread:
        inbox: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=_serve_items, args=(inbox,), name="crossprolog-items", daemon=True).start()
        _item_thread.append(inbox)
    _item_thread[0].put((work, item))
    kind, result = _worked.get()
    if kind is _GIVEN_UP:
        _item_thread.clear()
        return result, True
    if kind is False:
        raise result
    return result, False


def _serve_items(inbox: queue.SimpleQueue) -> None:
    """An item thread's life: in a Prolog engine of its own, work on each item it is
    given, until a watchdog blocks it for good."""
    from . import engine

    engine.hold_engine()
    while True:
        work, item = inbox.get()
        try:
            _worked.put((True, work(item)))
        except BaseException as error:  # noqa: B036 (raised again in the chunk's thread)
            _worked.put((False, error))


def end_soon() -> None:
    """End this worker's process in a moment, once it has answered (Client.run): it
    holds a search that nothing else stops.  Its nanny, if it has one, starts another."""
    threading.Timer(END_SECONDS, os._exit, args=(0,)).start()


END_SECONDS = 0.1


def starts() -> int:
    """`engine_starts` of this worker's process (for Client.run)."""
    return engine_starts
