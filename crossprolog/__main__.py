"""`crossprolog` and `python -m crossprolog`: the command line, quiet on Ctrl-C from the start.

A Ctrl-C ends the command with `crossprolog: interrupted` and exit 130,
whenever it comes, never with a traceback.  Python takes Ctrl-C from its
first moment, while it imports its own site packages, before any code of
ours runs; so the `crossprolog` command (bin/crossprolog) starts Python with
Ctrl-C blocked, and `main` first puts its handler in place, then unblocks
it: a Ctrl-C that came meanwhile is taken there.  SIGTERM (kill, timeout) is
taken as Ctrl-C, what finished kept, and exits 143.
"""

import errno
import gc
import io
import os
import signal
import sys
import time

INTERRUPTED = 130
TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process SIGTERM ended
_done = False  # the command has its exit code: a Ctrl-C now changes nothing
_interrupted = False  # our handler raised KeyboardInterrupt
_terminated = False  # what stopped the command was SIGTERM


def _interrupt(signum, frame) -> None:
    """Ctrl-C: a KeyboardInterrupt, each time (should code swallow one, the next is
    heard); nothing once the command is done (Python's exit then runs no code of
    ours that could report it)."""
    global _interrupted
    if _done:
        return
    if _within(frame, _unraisable.__code__):  # raised there, it would only be printed
        _send_ctrl_c_again()
        return
    _interrupted = True
    raise KeyboardInterrupt


def _terminate(signum, frame) -> None:
    """SIGTERM (kill, timeout): taken as Ctrl-C, what finished kept, but exit 143."""
    _note_terminated()
    _interrupt(signum, frame)


def _note_terminated() -> None:
    global _terminated
    _terminated = _terminated or not _done


def _unraisable(unraisable) -> None:
    """sys.unraisablehook: a KeyboardInterrupt raised where Python only prints it
    (a __del__, a weakref callback) is sent again, to be raised where it counts."""
    if unraisable.exc_type is None or not issubclass(unraisable.exc_type, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)
        return
    _send_ctrl_c_again()


def _within(frame, code) -> bool:
    """Whether `frame` or a frame it was called from runs `code`."""
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False


def _send_ctrl_c_again() -> None:
    """Ctrl-C again, from another thread: it reaches the main thread (every other
    thread blocks it), in whatever it runs next."""
    import _thread

    _thread.start_new_thread(_send_ctrl_c, ())


def _send_ctrl_c() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # for the main thread, not this one
    os.kill(os.getpid(), signal.SIGINT)


def _end_now() -> None:
    """A second Ctrl-C in a search that caught the first (a user's encoding that catches
    every error): the command ends at once, what it printed so far flushed, what it
    would have printed at its end lost."""
    global _done
    _done = True
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: the exit comes all the same
            pass
    try:
        print("crossprolog: interrupted", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    os._exit(TERMINATED if _terminated else INTERRUPTED)


class _ClosedDescriptor(io.RawIOBase):
    """A standard stream the shell left closed: reading or writing it fails as on a
    closed descriptor, an OSError the command reports as it reports any failed read
    or write, in one line (Python makes it None, which fails with a traceback)."""

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def write(self, data) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def _closed_streams_replaced() -> None:
    """Standard input and output, closed (`<&-`, `>&-`), fail at their first read or
    write; standard error, closed (`2>&-`), takes what is said there nowhere, and the
    exit code still tells."""
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedDescriptor()), encoding="utf-8")
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedDescriptor()), encoding="utf-8")
        sys.stdout.closed_descriptor = True  # output.discard_stdout puts /dev/null in its place
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")


def main() -> int:
    global _done
    started = time.monotonic()  # --timeout counts from here
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _terminate)
    sys.unraisablehook = _unraisable
    _closed_streams_replaced()
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        from .cli import main as run  # the grammars, and more: a moment to load
        from .engine import end_on_second_ctrl_c, note_terminations
        from .output import finished

        end_on_second_ctrl_c(_end_now)
        note_terminations(_note_terminated)

        code = finished(run(started=started))  # what is still buffered must get out too
        _done = True
        if _interrupted and code != INTERRUPTED:  # some code took the KeyboardInterrupt in
            raise KeyboardInterrupt
    except BaseException as error:
        _done = True
        # Python 3.11 wraps a KeyboardInterrupt raised while a class is made (in
        # __set_name__, during an import) in a RuntimeError: what came was Ctrl-C.
        if not (isinstance(error, KeyboardInterrupt) or _interrupted):
            raise
        code = INTERRUPTED
        print("crossprolog: interrupted", file=sys.stderr)
    # The exit code is decided: a Ctrl-C still to come (one sent again from a thread, see
    # _send_ctrl_c_again, or the user's) would find Prolog's handlers gone at the exit and
    # kill the process by the signal, its exit code lost.  Blocked, it is dropped.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    if _terminated and code == INTERRUPTED:
        code = TERMINATED
    # Only the exit is left, and Python's last collections would look at every object
    # still alive (pyparsing's grammars, the classes): most of the exit's time, to
    # free memory the process gives back anyway.  Frozen, they are not looked at;
    # what is in no reference cycle is freed as before.
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(main())
