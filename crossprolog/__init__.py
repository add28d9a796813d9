"""crossprolog: arithmetic grid puzzles typed as text, solved with CLP(FD) in SWI-Prolog.

    >>> import crossprolog
    >>> puzzle = crossprolog.parse(open("examples/crossproduct/riddler-2.md").read())
    >>> print(puzzle.solve())
"""

from .crossproduct import CrossProduct
from .errors import (CrossprologError, InvalidValue, ParseError, ResourceLimit, TimeLimitExceeded,
                     UsageError)
from .registry import parse
from .puzzle import Puzzle, Solution

__all__ = ["CrossProduct", "CrossprologError", "InvalidValue", "ParseError", "Puzzle",
           "ResourceLimit", "Solution", "TimeLimitExceeded", "UsageError", "parse"]
