"""A solver program run as a child process, ended with everything it started.

`minizinc` starts its solver (`fzn-gecode`) in a process group of its own,
so ending minizinc's group leaves the solver running, an orphan, for good.
A program `start`s here in a session of its own (Ctrl-C at the terminal
reaches crossprolog only, which decides), and `end` ends it as minizinc
asks to be ended, with SIGTERM (it then ends its solver and removes its
temporary files), then kills with SIGKILL whatever is left in its session:
the session holds the solver whatever group it made.  On Linux the program
also gets SIGTERM when the thread that started it dies, however it dies
(SIGTERM or SIGKILL to crossprolog, a worker process killed by its parent,
a watchdog's os._exit): nothing it started outlives crossprolog.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Callable, Sequence

ENDING = 2.0  # seconds a program may take to end on SIGTERM (minizinc gives its solver 1) before SIGKILL
PR_SET_PDEATHSIG = 1  # prctl(2)


def start(command: Sequence[str], **options) -> subprocess.Popen:
    """subprocess.Popen(command, **options) in a session of its own, sent SIGTERM when
    the thread that started it dies (Linux)."""
    return subprocess.Popen(command, start_new_session=True, preexec_fn=_ending_with_parent(), **options)


def _ending_with_parent() -> Callable[[], None] | None:
    """What the child runs before its program: ask for SIGTERM when its parent dies,
    and end at once if it died already.  None where prctl(2) is not (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
        death = ctypes.c_ulong(int(signal.SIGTERM))
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def child() -> None:
        # A batch's worker ignores Ctrl-C and SIGTERM (its parent decides), and a
        # program inherits what is ignored: this one must end on SIGTERM.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        prctl(PR_SET_PDEATHSIG, death)
        if os.getppid() != parent:
            os._exit(1)

    return child


def end(process: subprocess.Popen, ending: float = ENDING) -> None:
    """End `process` (`start`ed, not yet reaped) and every process in its session: SIGTERM
    to its group, `ending` seconds to end, then SIGKILL to what is left of its session.
    It is left for its caller to reap (its session's number stays its own until then)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + ending
    while not _exited(process.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    for _ in range(500):
        left = session(process.pid)
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.01)


def _exited(pid: int) -> bool:
    """Whether the child `pid` has ended (it is not reaped here)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def session(sid: int) -> list[int]:
    """The processes of session `sid` that still run (none known without Linux's /proc)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    members = []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                stat = file.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()  # state ppid pgrp session ...
        if fields[0] not in (b"Z", b"X") and int(fields[3]) == sid:
            members.append(int(name))
    return members
