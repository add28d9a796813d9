"""crossprolog: arithmetic grid puzzles typed as text, solved with CLP(FD) in SWI-Prolog.

    >>> import crossprolog
    >>> puzzle = crossprolog.parse(open("examples/crossproduct/riddler-2.md").read())
    >>> print(puzzle.solve())

The names below, and the package's modules (`crossprolog.blame`, ...), are
loaded on first use, so that the command line can start (and be interrupted)
before the grammars and Prolog are.
"""

from importlib import import_module
from importlib.util import find_spec

_HOMES = {"CrossProduct": "crossproduct", "Puzzle": "puzzle", "Solution": "answers",
          "generate": "registry", "parse": "registry", "parse_all": "registry",
          **dict.fromkeys(["CrossprologError", "InvalidValue", "NoDomains", "ParseError", "ResourceLimit",
                           "TimeLimitExceeded", "UsageError"], "errors")}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    """A name above, or a module of the package (crossprolog.blame, ...), loaded now."""
    if name in _HOMES:
        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    if find_spec(f"{__name__}.{name}") is None:
        raise AttributeError(f"module 'crossprolog' has no attribute {name!r}")
    return import_module(f".{name}", __name__)
