"""The puzzle families crossprolog knows, and how a text finds its family."""

from __future__ import annotations

import inspect
from types import ModuleType

from .errors import ParseError, UsageError
from .grammars import crossproduct as crossproduct_grammar
from .puzzle import Puzzle

GRAMMARS: dict[str, ModuleType] = {
    "crossproduct": crossproduct_grammar,
}


def family_of(text: str) -> str:
    """The family whose layout `text` looks like; CrossProduct when none claims it."""
    for family, grammar in GRAMMARS.items():
        if grammar.looks_like(text):
            return family
    return "crossproduct"


def parse(text: str, family: str | None = None, **options) -> Puzzle:
    """The puzzle drawn in `text`.

    `family` forces a family; otherwise the layout decides.  Options a family
    does not take (`zero` is CrossProduct's) are ignored for the others.
    Raises ParseError with the line and column of the first problem.
    """
    if family is not None and family not in GRAMMARS:
        raise UsageError(f"unknown family {family!r}; choose from {', '.join(GRAMMARS)}")
    grammar = GRAMMARS[family or family_of(text)]
    accepted = inspect.signature(grammar.parse).parameters
    return grammar.parse(text, **{k: v for k, v in options.items() if k in accepted})


__all__ = ["GRAMMARS", "ParseError", "family_of", "parse"]
