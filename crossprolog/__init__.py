"""crossprolog: arithmetic grid puzzles typed as text, solved with CLP(FD) in SWI-Prolog.

    >>> import crossprolog
    >>> puzzle = crossprolog.parse(open("examples/crossproduct/riddler-2.md").read())
    >>> print(puzzle.solve())
"""

from .crossproduct import CrossProduct
from .errors import CrossprologError, ParseError, ResourceLimit, TimeLimitExceeded, UsageError
from .registry import generate, parse
from .puzzle import Puzzle, Solution

__all__ = ["CrossProduct", "CrossprologError", "ParseError", "Puzzle", "ResourceLimit",
           "Solution", "TimeLimitExceeded", "UsageError", "generate", "parse"]
