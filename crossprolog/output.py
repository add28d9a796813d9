"""Standard output, written so that a failed write is never silent.

A write to standard output can fail as a write to a file can: the disk is
full, the device is /dev/full.  The command line says so in one line and
exits non-zero (see `failed`), as it does for its results files
(results_files.Output), and leaves nothing half-reported.  A reader that closed the
pipe ends the command quietly.
"""

from __future__ import annotations

import argparse
import io
import os
import sys

from .errors import shown

OK, BAD = 0, 2  # the exit code of a write that failed (bad input or usage, as for a results file)


def checked_stdout() -> None:
    """Make every write to sys.stdout either whole or an OSError, and every character
    written, one its encoding has or escaped.

    With PYTHONUNBUFFERED (or `python -u`) the text layer writes straight to
    the raw file, and a short write (a disk with 8 KB left) drops the rest
    of the text without a word; a buffered writer retries the rest and
    raises the error.  Line buffering keeps the output as prompt.
    """
    stream = sys.stdout
    if isinstance(getattr(stream, "buffer", None), io.RawIOBase):
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(stream.buffer), encoding=stream.encoding,
                                      errors=stream.errors, line_buffering=True)
    if hasattr(sys.stdout, "reconfigure"):  # a character its encoding lacks (a − in Latin-1) is
        sys.stdout.reconfigure(errors="backslashreplace")  # escaped, as standard error escapes it


def flushed() -> None:
    """Flush standard output (and standard error); OSError if the text did not get out."""
    sys.stdout.flush()
    sys.stderr.flush()


def failed(error: OSError) -> int:
    """Report a failed write to standard output in one line on standard error; the exit
    code.  What is left unwritten is dropped, so that Python's own flush at exit
    does not fail again with a traceback.  A reader that closed the pipe (`| head`)
    took what it wanted: that is no error, and ends the command quietly, as it ends
    `cat` or `git log`."""
    discard_stdout()
    if isinstance(error, BrokenPipeError):
        return OK
    print(f"crossprolog: error: cannot write the output: {error.strerror or error}", file=sys.stderr)
    return BAD


def discard_stdout() -> None:
    """Point standard output at /dev/null: nothing buffered is written, nor fails, any more."""
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError, io.UnsupportedOperation):  # a test's capture, or a closed stdout
        if getattr(sys.stdout, "closed_descriptor", False):
            sys.stdout = open(os.devnull, "w", encoding="utf-8")
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, descriptor)
        os.close(null)
    except OSError:
        pass


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a failed write of its help or usage is an OSError, not
    silence (argparse drops it); a usage error is kept (`said`) for a JSON record."""

    said = ""

    def error(self, message: str):
        Parser.said = f"{self.prog}: {message}"
        super().error(message)

    def _check_value(self, action, value) -> None:
        """argparse's own check of a choice, the value cut short as errors show values
        (a long one, pasted, would fill the terminal)."""
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(repr, action.choices))
            raise argparse.ArgumentError(action, f"invalid choice: {shown(value)} (choose from {choices})")

    def _print_message(self, message: str, file=None) -> None:
        if message:
            file = file or sys.stderr
            file.write(message)
            file.flush()


def finished(code: int) -> int:
    """The exit code once standard output is flushed: `code`, or BAD (said on standard
    error) if the last of the output did not get out."""
    try:
        flushed()
    except OSError as error:
        failed(error)
        return BAD if code in (0, 1) else code  # a limit or an interruption says more
    return code


__all__ = ["Parser", "checked_stdout", "discard_stdout", "failed", "finished", "flushed"]
