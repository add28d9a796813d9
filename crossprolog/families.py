"""The puzzle families crossprolog knows, and how a text finds its family."""

from __future__ import annotations

import inspect
from types import ModuleType
from typing import Callable, Iterator

from . import crosscells, crossproduct
from .errors import ParseError, UsageError
from .grammars import crosscells as crosscells_grammar
from .grammars import crossproduct as crossproduct_grammar
from .grammars import sudoku as sudoku_grammar
from .puzzle import Puzzle

# Each family: its grammar module (`looks_like(text)`, `parse(text, **options)`),
# tried in this order when no family is named, so the most particular comes first.
GRAMMARS: dict[str, ModuleType] = {
    "sudoku": sudoku_grammar,
    "crosscells": crosscells_grammar,
    "crossproduct": crossproduct_grammar,
}

# Families whose random puzzles `crossprolog generate` makes:
# random_puzzles(rows, cols, n, seed) -> Iterator[Puzzle].
GENERATORS: dict[str, Callable[[int, int, int, int | None], Iterator[Puzzle]]] = {
    "crosscells": crosscells.random_puzzles,
    "crossproduct": crossproduct.random_puzzles,
}


def family_of(text: str) -> str:
    """The family whose layout `text` looks like; CrossProduct when none claims it."""
    for family, grammar in GRAMMARS.items():
        if grammar.looks_like(text):
            return family
    return "crossproduct"


def parse(text: str, family: str | None = None, **options) -> Puzzle:
    """The puzzle drawn in `text`.

    `family` forces a family; otherwise the layout decides.  Options a family's
    grammar does not take (`zero` is CrossProduct's) are ignored for it.
    Raises ParseError with the line and column of the first problem.
    """
    if family is not None and family not in GRAMMARS:
        raise UsageError(f"unknown family {family!r}; choose from {', '.join(GRAMMARS)}")
    grammar = GRAMMARS[family or family_of(text)]
    accepted = inspect.signature(grammar.parse).parameters
    return grammar.parse(text, **{k: v for k, v in options.items() if k in accepted})


__all__ = ["GENERATORS", "GRAMMARS", "ParseError", "family_of", "parse"]
