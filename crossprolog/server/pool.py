"""A bounded pool of worker processes, each with its own Prolog, answering one question
at a time for the web server's event loop.

The workers are those of `crossprolog.batch` (spawned, ended with the server,
their watchdogs' last answers honoured).  At most `size` questions are at work
and at most `queue` more wait for a worker, each as long as its asker's patience;
beyond that `ask` refuses at once, and a question whose patience runs out before a
worker is free is refused then (Busy, WaitedOut: the server says 503, try again
later).  A question whose asker goes away while it waits is dropped, never handed
to a worker.  A worker that dies, or does not
answer by its deadline, is ended and replaced by a fresh one for the next
question, and the question gets a WorkerDied; a fresh worker is started (and warmed
with the `warm` question) at once, so that the next question need not wait for it.
"""

from __future__ import annotations

import asyncio
import math
import threading
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import wait
from typing import Any, Callable

from .. import batch
from ..batch import WorkerDied


class Busy(Exception):
    """Every worker is at work and the queue is full."""


class WaitedOut(Busy):
    """Every worker stayed at work for as long as the question could wait."""


class Pool:
    """`size` worker processes running `work` on the questions `ask` hands them; `warm`, a
    question whose answer is dropped, readies a fresh worker for the others."""

    def __init__(self, work: Callable[[Any], Any], size: int, queue: int, warm: Any = None):
        self.work, self.size, self.queue, self.warm = work, size, queue, warm
        self.idle: list[tuple[Any, Any]] = []  # (process, pipe) of workers waiting for a question
        self.live: set[Any] = set()  # every worker process not yet ended
        self.lock = threading.Lock()
        self.threads = ThreadPoolExecutor(size, thread_name_prefix="crossprolog-pool")
        self.slots: asyncio.Semaphore | None = None  # made in the event loop, on first use
        self.waiting = 0  # questions waiting for a slot
        self.busy = 0  # questions at work
        self.dropped = 0  # questions whose asker went away before a worker was free
        self.replaced = 0  # workers that died or were ended, and replaced
        self.closed = False

    async def ask(self, ready: Callable[[float], tuple[Any, float]], patience: float = math.inf) -> Any:
        """What a worker answers to the question `ready(waited)` gives, with the seconds
        after which its worker is ended, once a worker is free `waited` seconds after the
        call; a WorkerDied when that worker died or had not answered by then.  Raises
        Busy when the queue is full, WaitedOut when no worker was free within `patience`
        seconds; cancelled while it waits (its asker gone), the question is dropped."""
        if self.slots is None:
            self.slots = asyncio.Semaphore(self.size)
        if self.slots.locked() and self.waiting >= self.queue:
            raise Busy
        loop = asyncio.get_running_loop()
        asked = loop.time()
        self.waiting += 1
        try:
            await asyncio.wait_for(self.slots.acquire(), None if math.isinf(patience) else patience)
        except TimeoutError:
            raise WaitedOut from None
        except asyncio.CancelledError:
            self.dropped += 1
            raise
        finally:
            self.waiting -= 1
        self.busy += 1
        try:
            question, deadline = ready(loop.time() - asked)
        except BaseException:
            self._release()
            raise
        answered = loop.run_in_executor(self.threads, self._answer, question, deadline)
        # The slot is free when the worker is, even if the request that asked went away.
        answered.add_done_callback(lambda _: self._release())
        return await asyncio.shield(answered)

    def _release(self) -> None:
        self.busy -= 1
        self.slots.release()

    def _answer(self, question: Any, deadline: float) -> Any:
        """In a thread of the pool: hand `question` to a worker and wait for its answer."""
        process, pipe = self._worker()
        try:
            pipe.send(question)
        except OSError:  # it died while idle: a fresh one takes the question
            self._ended(process, pipe)
            process, pipe = self._worker()
            try:
                pipe.send(question)
            except OSError as error:
                self._ended(process, pipe)
                return WorkerDied(f"no worker process could be started: {error}")
        if not wait([pipe, process.sentinel], timeout=deadline):
            process.kill()
            self._ended(process, pipe)
            return WorkerDied(f"the worker process solving it did not answer in {deadline:g} s "
                              "and was ended")
        answer, alive = batch.answer_of(process, pipe)
        if alive:
            self._rest(process, pipe)
        else:
            self._ended(process, pipe, replaced=not self.closed)
        return answer

    def _worker(self) -> tuple[Any, Any]:
        """An idle worker, or a new one."""
        with self.lock:
            if self.idle:
                return self.idle.pop()
        return self._spawned()

    def _spawned(self) -> tuple[Any, Any]:
        process, pipe = batch.spawned(self.work)
        with self.lock:
            self.live.add(process)
        return process, pipe

    def _rest(self, process, pipe) -> None:
        """A worker that answered waits for the next question, unless there are enough."""
        with self.lock:
            kept = not self.closed and len(self.live) <= self.size
            if kept:
                self.idle.append((process, pipe))
        if not kept:
            self._ended(process, pipe, replaced=False)

    def _spare(self) -> None:
        """In a thread of its own: a fresh worker for one that ended, warmed, waiting."""
        with self.lock:
            if self.closed or len(self.live) >= self.size:
                return
        process, pipe = self._spawned()
        if self.warm is not None:
            try:
                pipe.send(self.warm)
            except OSError:
                self._ended(process, pipe, replaced=False)
                return
            wait([pipe, process.sentinel])
            if not batch.answer_of(process, pipe)[1]:
                self._ended(process, pipe, replaced=False)
                return
        self._rest(process, pipe)

    def _ended(self, process, pipe, replaced: bool = True) -> None:
        """Forget a worker that ended (or end it: its pipe closed, it stops); start a
        fresh one in its place if it was `replaced`."""
        pipe.close()
        process.join()
        with self.lock:
            self.live.discard(process)
            self.replaced += replaced
        if replaced:
            threading.Thread(target=self._spare, daemon=True, name="crossprolog-spare").start()

    def close(self) -> None:
        """End every worker at once, idle or at work."""
        self.closed = True
        with self.lock:
            workers, self.idle = list(self.live), []
        for process in workers:
            process.kill()
        for process in workers:
            process.join()
        self.threads.shutdown(wait=False, cancel_futures=True)
