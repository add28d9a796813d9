"""A user's file as every reader takes it: its bytes up to a cap, and its text as UTF-8
(a byte-order mark allowed), a byte that is not UTF-8 placed by line and column.
Puzzle files (cli/inputs.py, grammars/common.py) and encoding files
(encoding_files.py) are read so, each with its own limit and words."""

from __future__ import annotations


class NotUtf8(ValueError):
    """Bytes that are not UTF-8 text: the first bad `byte`, at `line` and `column`
    (1-based; columns count characters)."""

    def __init__(self, byte: int, line: int, column: int):
        super().__init__(f"byte 0x{byte:02x} is not UTF-8 text")
        self.byte, self.line, self.column = byte, line, column


def capped_bytes(path: str, most: int) -> bytes:
    """The bytes of the file at `path`, but no more than `most` + 1 of them: more than
    `most` means the file is too big, and reading no further keeps a link to /dev/zero
    from filling the memory.  Raises OSError."""
    with open(path, "rb") as file:
        return file.read(most + 1)


def utf8_text(data: bytes) -> str:
    """`data` as UTF-8 text, a leading byte-order mark dropped; NotUtf8 where it is not."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = data[:error.start]
        line = before.count(b"\n") + 1
        column = len(before.rsplit(b"\n", 1)[-1].decode("utf-8", "replace")) + 1
        raise NotUtf8(data[error.start], line, column) from None
