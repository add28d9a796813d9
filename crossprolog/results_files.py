"""Results files: written as work finishes, whole or not at all, never lost.

A command's `--out` (records, pictures, pages, plots) goes through `Output`
or `write_text`; `check_writable` refuses a path before any work is done.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import stat
import tempfile
from typing import Sequence

from .errors import UsageError, printable


class Output:
    """A file written as work finishes: each `write` reaches it at once.

    What `path` names decides how:

    - one of this process's open files, named as /dev/stdout, /dev/stderr,
      /dev/fd/N or /proc/self/fd/N (or a symlink to one): written through
      that descriptor, where it stands: a pipe, a terminal, a socket, or a
      file the shell opened;
    - anything else that is not a regular file (a device, a FIFO): opened
      for writing as it is, never truncated, seeked or replaced;
    - a regular file, or a path where there is none yet (a symlink is
      followed, the link kept): written to a temporary file of this run's
      own beside it, then put in place by `close` (see `_put_in_place`): a
      reader never sees half of it, two runs writing the same file never
      mix their records, and what was written survives a crash there.

    Any error is a UsageError saying what happened and where the records
    written so far are.
    """

    def __init__(self, path: str):
        self.path = path
        self.target = os.path.realpath(path)
        if os.path.isdir(self.target):
            raise UsageError(f"cannot write {printable(path)}: it is a directory")
        self.replacing = False  # whether `close` puts a temporary file in place
        self.partial = self.target  # where the records are until then
        self.written = 0  # texts (records) written whole
        self.end = 0  # where the last of them ends
        try:
            self.file = self._opened()
        except OSError as error:
            raise UsageError(f"cannot write {printable(path)}: {error.strerror}") from None

    def _opened(self):
        descriptor = _descriptor(self.path)
        if descriptor is not None:
            return os.fdopen(os.dup(descriptor), "w", encoding="utf-8")
        if _is_special(self.path):
            return os.fdopen(os.open(self.path, os.O_WRONLY), "w", encoding="utf-8")
        directory, name = os.path.split(self.target)
        try:
            handle, self.partial = tempfile.mkstemp(prefix=f"{name}.", suffix=".partial", dir=directory)
        except OSError as error:
            raise UsageError(_no_file_in(self.path, directory, error)) from None
        self.replacing = True
        return os.fdopen(handle, "w", encoding="utf-8")

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
            self.file.flush()
        except OSError as error:
            self.abandon()
            if isinstance(error, BrokenPipeError):  # the reader took what it wanted: as on
                raise  # standard output, the command ends quietly (output.failed)
            raise UsageError(f"cannot write {printable(self.path)}: {error.strerror}"
                             f"{self._kept()}") from None
        self.written += 1
        self.end = self.file.tell() if self.replacing else 0

    def close(self) -> None:
        """Put the file in place (for a regular file: all at once)."""
        try:
            self.file.close()
            if self.replacing:
                _put_in_place(self.partial, self.target)
        except OSError as error:
            raise UsageError(f"cannot write {printable(self.path)}: {error.strerror}{self._kept()}") from None

    def abandon(self) -> None:
        """Stop writing, leaving what was written whole where `_kept` says (and no
        half-written text after it, nor an empty file)."""
        try:
            self.file.close()
        except OSError:
            pass
        if not self.replacing:
            return
        try:
            if self.written:
                os.truncate(self.partial, self.end)
            else:
                os.unlink(self.partial)
        except OSError:
            pass

    def _kept(self) -> str:
        if not self.replacing or not self.written:
            return ""
        return f"; the {self.written} records written before are in {printable(self.partial)}"


def _put_in_place(partial: str, target: str) -> None:
    """Make the temporary file `partial` the file `target`.

    A new file gets the mode the umask leaves.  An existing one is replaced
    at once (os.replace), the replacement keeping its mode and, when we may
    give it away (as root), its owner; but one with other hard links is
    written over in place, so that they still name it (not at once: it is
    the only way to keep them).  The temporary file stays where it is if
    this fails.
    """
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        os.chmod(partial, 0o666 & ~_umask())
        os.replace(partial, target)
        return
    if existing.st_nlink > 1:
        with open(partial, "rb") as source, open(target, "wb") as destination:
            shutil.copyfileobj(source, destination)
        os.unlink(partial)
        return
    if (existing.st_uid, existing.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.chown(partial, existing.st_uid, existing.st_gid)
        except PermissionError:  # not root: the file becomes ours, as an editor would leave it
            pass
    os.chmod(partial, stat.S_IMODE(existing.st_mode))  # after chown, which may clear set-id bits
    os.replace(partial, target)


# /dev/stdout, /dev/fd/3, /proc/self/fd/3, /proc/PID/fd/3, /proc/self/task/TID/fd/3
_DESCRIPTOR = re.compile(r"/(?:dev|proc/(?:self|thread-self|(\d+))(?:/task/\d+)?)/fd/(\d+)")
_STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _descriptor(path: str) -> int | None:
    """The descriptor of this process that `path` names, itself or through symlinks, or None.

    Such a path cannot be reopened as a file (a pipe's is `pipe:[123]`; a
    socket's cannot be opened at all), and must not be replaced.
    """
    path = os.path.abspath(path)
    for _ in range(40):  # as many links as the kernel follows
        if path in _STANDARD:
            return _STANDARD[path]
        match = _DESCRIPTOR.fullmatch(path)
        if match and match[1] in (None, str(os.getpid())):
            return int(match[2])
        try:
            link = os.readlink(path)
        except OSError:
            return None
        path = os.path.normpath(os.path.join(os.path.dirname(path), link))
    return None


def _is_special(path: str) -> bool:
    """Whether `path` is (or leads to) neither a regular file nor a directory: a device,
    a FIFO, a socket.  Written to, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def write_jsonl(output: Output, record: dict) -> None:
    import json  # for --out only: a start that prints text does not load it

    output.write(json.dumps(record) + "\n")


def write_text(path: str, text: str) -> None:
    """Write `text` to `path` as Output does: whole or not at all for a regular file."""
    output = Output(path)
    output.write(text)
    output.close()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_writable(path: str, inputs: Sequence[str] = (), found: Sequence[str] = ()) -> None:
    """Raise UsageError unless a file can be written at `path` and it is none of
    `inputs`, the files the command reads (it would replace them), nor one of `found`,
    the puzzle files of the input directories, unless crossprolog wrote it (a run's
    records before, which reading them skips): say so before the work, not after."""
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise UsageError(f"cannot write {printable(path)}: it is a directory")
    if any(same_file(path, given) for given in inputs):
        raise UsageError(f"cannot write {printable(path)}: it is one of the inputs, which it would replace")
    if any(same_file(path, file) for file in found) and not written_here(path):
        raise UsageError(f"cannot write {printable(path)}: it is a puzzle file of an input directory, "
                         "which it would replace")
    descriptor = _descriptor(path)
    if descriptor is not None:
        try:
            writable = (fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_ACCMODE) in (os.O_WRONLY, os.O_RDWR)
        except OSError as error:
            raise UsageError(f"cannot write {printable(path)}: {error.strerror}") from None
        if not writable:
            raise UsageError(f"cannot write {printable(path)}: it is not open for writing")
        return
    if _is_special(path):
        if not os.access(path, os.W_OK):
            raise UsageError(f"cannot write {printable(path)}: Permission denied")
        return
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise UsageError(f"cannot write {printable(path)}: Permission denied")
    try:
        with tempfile.TemporaryFile(dir=os.path.dirname(target)):
            pass
    except OSError as error:
        raise UsageError(_no_file_in(path, os.path.dirname(target), error)) from None


def _no_file_in(path: str, directory: str, error: OSError) -> str:
    """What stops `path` from being written: the file that takes the records until the
    end cannot be made in its `directory` (which is missing, say, or is /proc, whose
    files exist but where none can be made)."""
    return f"cannot write {printable(path)}: cannot make a file in {printable(directory)}: {error.strerror}"


# How what crossprolog writes into a file begins: records (JSON lines), pages, PDF books.
WRITTEN_HERE = (b'{"', b"<!DOCTYPE html>", b"%PDF-")


def written_here(path: str, empty: bool = True) -> bool:
    """Whether the file at `path` begins as crossprolog's outputs do (no puzzle's text
    does), or is empty (when `empty`: a file that holds nothing loses nothing)."""
    try:
        with open(path, "rb") as file:
            start = file.read(64)
    except OSError:
        return False
    return (empty and not start) or start.startswith(WRITTEN_HERE)


def same_file(path: str, other: str) -> bool:
    """Whether `path` and `other` name one existing regular file (a terminal both read
    and written is not replaced); `other` may be `-`, standard input, which is that
    file when the shell opened it there (`- < file`)."""
    try:
        if path == "-" or not os.path.isfile(path):
            return False
        if other == "-":
            given = os.fstat(0)
            return stat.S_ISREG(given.st_mode) and os.path.samestat(os.stat(path), given)
        return os.path.samefile(path, other)
    except (OSError, ValueError):
        return False


__all__ = ["Output", "check_writable", "same_file", "write_jsonl", "write_text", "written_here"]
