"""A peer solver in a child process of its own, timing one repeat of a workload
each time it is asked, so that the bench can take turns between it and
crossprolog: a slow spell of the machine then falls on both alike.

The child says `ready` once it has warmed up (imports, first-call set-up),
then answers each `run` line on its standard input with one line of JSON,
and ends at the end of its input.  All it does, warm-up included, is bounded
by one budget of seconds (the time it is waited for, not the time it waits
for its next turn); past it, the child is killed.
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
import time


class OutOfBudget(Exception):
    """The peer ran out of its budget."""


class PeerProcess:
    """`command` run as a peer (see the module's docstring) within `budget` seconds."""

    def __init__(self, command: list[str], budget: float):
        self.left = budget
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self.errors, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        if self._answer() != "ready":
            raise RuntimeError(f"peer {command}: no ready line")

    def _read(self) -> None:
        for line in self.child.stdout:
            self.lines.put(line.strip())
        self.lines.put("")  # the end: the child exited

    def _answer(self) -> str:
        """The child's next line, within the budget; raises OutOfBudget past it and
        RuntimeError when the child failed."""
        asked = time.monotonic()
        try:
            line = self.lines.get(timeout=max(0.0, self.left))
            self.left -= time.monotonic() - asked
        except queue.Empty:
            self.close(kill=True)
            raise OutOfBudget from None
        if not line:
            self.child.wait()
            self.errors.seek(0)
            raise RuntimeError(f"peer exited {self.child.returncode}:\n{self.errors.read()}")
        return line

    def repeat(self) -> dict:
        """One timed repeat of the workload: the child's JSON answer."""
        self.child.stdin.write("run\n")
        self.child.stdin.flush()
        return json.loads(self._answer())

    def close(self, kill: bool = False) -> None:
        """End the child: at the end of its input, or killed."""
        if not kill and self.child.poll() is None:
            self.child.stdin.close()
            try:
                self.child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                kill = True
        if kill and self.child.poll() is None:
            self.child.kill()
        self.child.wait()
        self.errors.close()
