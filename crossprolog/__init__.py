"""crossprolog: arithmetic grid puzzles typed as text, solved with CLP(FD) in SWI-Prolog.

    >>> import crossprolog
    >>> puzzle = crossprolog.parse(open("examples/crossproduct/riddler-2.md").read())
    >>> print(puzzle.solve())

The names below are loaded on first use, so that the command line can start
(and be interrupted) before the grammars and Prolog are.
"""

from importlib import import_module

_HOMES = {"CrossProduct": "crossproduct", "Puzzle": "puzzle", "Solution": "answers",
          "generate": "registry", "parse": "registry", "parse_all": "registry",
          **dict.fromkeys(["CrossprologError", "InvalidValue", "NoDomains", "ParseError", "ResourceLimit",
                           "TimeLimitExceeded", "UsageError"], "errors")}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'crossprolog' has no attribute {name!r}")
    return getattr(import_module(f".{_HOMES[name]}", __name__), name)
