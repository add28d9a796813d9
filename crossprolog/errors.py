"""The errors crossprolog reports to its users, and the exit codes they map to."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, replace


class CrossprologError(Exception):
    """Base of every error this package raises on purpose."""

    exit_code = 2


@dataclass
class ParseError(CrossprologError):
    """A puzzle text does not follow its layout.

    `line` and `column` are 1-based; `text` is the offending line itself, so the
    message can show it with a caret under the column.
    """

    message: str
    line: int = 1
    column: int = 1
    text: str = ""
    family: str = ""  # when the family was guessed: which, and why ("" when it was named)
    path: str = ""  # the file it is in, when not the puzzle's own (an --entries file)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}{self._family_note()}"

    def assuming(self, title: str, reason: str) -> ParseError:
        """This error, saying it came from reading the text as `title`, because of `reason`."""
        return replace(self, family=f"{title}: {reason}")

    def _family_note(self) -> str:
        if not self.family:
            return ""
        return f" (read as {self.family}; name the family with --family if it is another)"

    def report(self, path: str) -> str:
        """The error as `PATH:LINE:COL: error: MESSAGE`, then the line (or, for a long
        one, the part around the column) and a caret; `path` (the error's own when it has
        one) escaped as `printable` does."""
        head = f"{printable(self.path or path)}:{self.line}:{self.column}: error: {self.message}{self._family_note()}"
        shown, column = window(self.text.expandtabs(1), self.column)
        if not shown.strip():
            return head
        return f"{head}\n{shown}\n{' ' * (column - 1)}^"


SHOWN = 40  # characters of a long line shown on either side of an error's column


def window(text: str, column: int) -> tuple[str, int]:
    """The part of `text` an error shows around `column` (1-based), marked with `...`
    where it is cut, and the column within that part."""
    start = max(0, column - 1 - SHOWN)
    end = column - 1 + SHOWN
    if start == 0 and end >= len(text):
        return text, column
    before = "..." if start else ""
    after = "..." if end < len(text) else ""
    return before + text[start:end] + after, column - start + len(before)


def shown(value) -> str:
    """`value` as an error message shows it: its repr, cut short however long or deep."""
    return reprlib.repr(value)


def printable(text: str) -> str:
    """`text` with every character a terminal would act on (a newline, an escape
    sequence) written as its Python escape, so a file name shows as itself."""
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
                   for char in text)


class TimeLimitExceeded(CrossprologError):
    """The search ran out of the time it was given.  `found` holds what it saw."""

    exit_code = 3

    def __init__(self, seconds: float, found=None):
        super().__init__(f"time limit of {seconds:g} s reached")
        self.seconds = seconds
        self.found = found


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a search.  `found` holds what it had found by then, when known
    (a Search from Puzzle.search); it is a KeyboardInterrupt all the same."""

    def __init__(self, found=None):
        super().__init__()
        self.found = found


class ResourceLimit(CrossprologError):
    """Prolog ran out of memory or stack for this puzzle.  `found` holds what the
    search had found by then, when known (as on a time limit: a count keeps its
    count so far)."""

    exit_code = 3

    def __init__(self, message: str, found=None):
        super().__init__(message)
        self.found = found


class InvalidValue(CrossprologError, ValueError):
    """A value the Python API cannot take: a float where a digit goes, a negative
    product, a ragged table, a timeout of infinity.  Raised where the value is given
    (a puzzle refuses it when it is built), never later from inside Prolog."""

    exit_code = 2


class UsageError(CrossprologError):
    """A request that makes no sense for this puzzle (an unknown encoding, say)."""

    exit_code = 2


class NoDomains(UsageError):
    """Reasoning (a hint's propagation) asked of an encoding whose cells keep no
    CLP(FD) domains to read: it searches in plain Prolog."""
