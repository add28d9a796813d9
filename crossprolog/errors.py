"""The errors crossprolog reports to its users, and the exit codes they map to."""

from __future__ import annotations

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
        """The error as `PATH:LINE:COL: error: MESSAGE`, then the line and a caret."""
        head = f"{path}:{self.line}:{self.column}: error: {self.message}{self._family_note()}"
        shown = self.text.expandtabs(1)
        if not shown.strip():
            return head
        return f"{head}\n{shown}\n{' ' * (self.column - 1)}^"


class TimeLimitExceeded(CrossprologError):
    """The search ran out of the time it was given.  `found` holds what it saw."""

    exit_code = 3

    def __init__(self, seconds: float, found=None):
        super().__init__(f"time limit of {seconds:g} s reached")
        self.seconds = seconds
        self.found = found


class ResourceLimit(CrossprologError):
    """Prolog ran out of memory or stack for this puzzle."""

    exit_code = 3


class InvalidValue(CrossprologError, ValueError):
    """A value the Python API cannot take: a float where a digit goes, a negative
    product, a ragged table, a timeout of infinity.  Raised where the value is given
    (a puzzle refuses it when it is built), never later from inside Prolog."""

    exit_code = 2


class UsageError(CrossprologError):
    """A request that makes no sense for this puzzle (an unknown encoding, say)."""

    exit_code = 2
