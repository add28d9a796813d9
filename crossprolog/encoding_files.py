"""Reading a user's encoding file (`--encoding-file`: Prolog, ASP or MiniZinc), as
puzzle files are read: at most MAX_ENCODING_BYTES of it, UTF-8 with a byte-order
mark allowed.  Every paradigm's file is read here first, whatever reads it after
(Prolog, clingo, minizinc): a file too big (or a link to /dev/zero) is one line of
error, not a process that grows until the system ends it."""

from __future__ import annotations

from .errors import UsageError
from .text_files import NotUtf8, capped_bytes, utf8_text

MAX_ENCODING_BYTES = 4_000_000  # as a puzzle file's (cli.inputs.MAX_INPUT_BYTES)
BOM = b"\xef\xbb\xbf"  # UTF-8's byte-order mark, which Windows editors write first


def encoding_bytes(path: str) -> bytes:
    """The bytes of the encoding file at `path`: UsageError, one line naming it, for one
    that cannot be read or has more than MAX_ENCODING_BYTES (no more is read)."""
    try:
        data = capped_bytes(path, MAX_ENCODING_BYTES)
    except OSError as error:
        raise UsageError(f"{path}: cannot read the file ({error.strerror or error})") from None
    if len(data) > MAX_ENCODING_BYTES:
        raise UsageError(f"{path}: the file has more than {MAX_ENCODING_BYTES:,} bytes: too big for an encoding")
    return data


def encoding_text(path: str) -> str:
    """The text of the encoding file at `path`, a byte-order mark dropped: UsageError, one
    line naming it (and where, for bytes that are not UTF-8), as `encoding_bytes` says
    or for text that is not UTF-8."""
    return text_of(path, encoding_bytes(path))


def text_of(path: str, data: bytes) -> str:
    """`data`, the bytes of the encoding file at `path`, as text, a byte-order mark
    dropped: UsageError, one line naming it and where, for bytes that are not UTF-8."""
    try:
        return utf8_text(data)
    except NotUtf8 as error:
        raise UsageError(f"{path}:{error.line}:{error.column}: {error}") from None


def marked(path: str) -> bool:
    """Whether the file at `path` begins with a byte-order mark (False if it cannot be read)."""
    try:
        with open(path, "rb") as file:
            return file.read(len(BOM)) == BOM
    except OSError:
        return False
