"""Time limits of a command: for Python's own work (an alarm), a watchdog past a lone
puzzle's search, and the live count of solutions on a terminal."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from .. import batch, engine, output
from ..errors import TimeLimitExceeded
from .report import Outcome, LIMIT, NO, bar
from .state import Run


DIAGNOSIS_SECONDS = 10.0  # for why a puzzle has no solution, or several, when no --timeout is given


def remaining(timeout: float | None, started: float) -> float | None:
    """The seconds left of `timeout` from `started`; TimeLimitExceeded when none are."""
    if timeout is None:
        return None
    left = started + timeout - time.monotonic()
    if left <= 0:
        raise TimeLimitExceeded(timeout)
    return left


@contextmanager
def time_limit(timeout: float | None, started: float) -> Iterator[None]:
    """Raise TimeLimitExceeded(timeout) in this block once `timeout` seconds have passed
    since `started` (time.monotonic).

    For Python's own work (reading and parsing a puzzle), in the main thread;
    never around a call into Prolog, which an alarm would break: Prolog's
    searches have limits of their own.
    """
    if timeout is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeLimitExceeded(timeout)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, remaining(timeout, started))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


GRACE = 0.15  # seconds past its limit a lone puzzle's search may take to stop
STUCK_GRACE = 2.0  # seconds past its limit a compared run may take (a user's encoding may not stop)


@contextmanager
def watchdog(run: Run, budget: float | None, late: Callable[[], Outcome], *,
             grace: float | None = None, code: int = LIMIT) -> Iterator[None]:
    """Hold a puzzle's search to its limit, whatever Prolog does.

    Prolog stops a search at its time limit, but then may take seconds to
    unwind a huge one (or to finish a garbage collection), or never hear
    the alarm (in code that holds signals off, or a user's encoding that
    catches it).  `grace` seconds (default GRACE) past the limit, this reports the `late`
    outcome, as the command would have, and ends the process with exit
    `code`: a lone puzzle's command, or the worker process running a
    batch's puzzle (the batch goes on with a fresh one).
    """
    if budget is None or not (run.single or batch.in_worker()):
        yield
        return
    claimed = threading.Lock()

    def expire() -> None:
        if claimed.acquire(blocking=False):
            if batch.in_worker():
                batch.last_result(late())
            try:
                run.finish(late())
                output.flushed()
            except OSError as error:
                os._exit(output.failed(error))
            os._exit(code)

    timer = quiet(threading.Timer(budget + (GRACE if grace is None else grace), expire))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if not claimed.acquire(blocking=False):  # the watchdog is ending the process
            threading.Event().wait()


def quiet(thread: threading.Thread) -> threading.Thread:
    """`thread`, made to block Ctrl-C and SIGTERM: during a search Prolog takes them in
    whichever thread the kernel hands them to, and only the main thread searches.  It
    must start no process, which would inherit them blocked."""
    run = thread.run

    def blocked() -> None:
        # SIGTERM too, which Prolog takes as Ctrl-C in a search: handed to this thread,
        # it was lost (1 in 10 `solve --all --timeout` ran on to their limit).
        signal.pthread_sigmask(signal.SIG_BLOCK, engine.STOPS)
        run()

    thread.run = blocked
    thread.daemon = True
    return thread


@contextmanager
def progress(run: Run, found: Callable[[], int]) -> Iterator[Callable[[str], None]]:
    """While a lone puzzle's search runs: on a terminal, a line on standard error with
    the solutions `found` so far and the time spent, four times a second.

    Yields how to print a line of output without garbling that line.
    """
    if not (run.live and sys.stderr.isatty()):
        yield lambda text: print(text, flush=True)
        return
    counter = bar(shown=True, bar_format="{n:,} solutions so far ({elapsed})")
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(0.25):
            counter.n = found()
            counter.refresh()

    thread = quiet(threading.Thread(target=tick))
    thread.start()
    try:
        yield lambda text: counter.write(text, file=sys.stdout)
    finally:
        stop.set()
        thread.join()
        counter.close()


@contextmanager
def diagnosing(run: Run, late: Callable[[], Outcome], budget: float) -> Iterator[None]:
    """Hold what is found out of a puzzle after its search (why it has no solution, or
    two) to what is left of --timeout, as its search is held (`watchdog`): past it the
    command reports `late`.  Without --timeout, Prolog's limits hold each of its
    searches, `budget` seconds in all; past that and STUCK_GRACE, the command reports
    `late` too, in case one of them did not hear its alarm.  Either ends the process
    with exit NO, as a puzzle with no solution, or two, does."""
    if run.args.timeout is None:
        with watchdog(run, budget, late, grace=STUCK_GRACE, code=NO):
            yield
        return
    with watchdog(run, max(run.began + run.args.timeout - time.monotonic(), 0), late, code=NO):
        yield


def diagnosis_seconds(run: Run) -> float:
    """The time to find out why: what is left of --timeout (TimeLimitExceeded when
    nothing is), else DIAGNOSIS_SECONDS."""
    if run.args.timeout is None:
        return DIAGNOSIS_SECONDS
    return remaining(run.args.timeout, run.began)
