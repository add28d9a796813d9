"""Facts as plain Python data, for clingo's symbols and for exported programs.

A fact is (name, arguments).  An argument is an int (a number), a str (a
constant: one of crossprolog's own names, never text from a puzzle), or a
tuple (name, argument...) for a compound term such as row(3).
"""

from __future__ import annotations

from typing import Any, Iterable, Union

Term = Union[int, str, tuple]
Fact = tuple[str, tuple]

INT32 = 2 ** 31 - 1  # clingo's and Gecode's integers are 32 bits


def symbol(term: Term) -> Any:
    """The clingo symbol of `term`."""
    import clingo

    if isinstance(term, bool) or not isinstance(term, (int, str, tuple)):
        raise TypeError(f"not a term: {term!r}")
    if isinstance(term, int):
        if abs(term) > INT32:
            raise ValueError(f"{term} is beyond clingo's 32-bit integers")
        return clingo.Number(term)
    if isinstance(term, str):
        return clingo.Function(term)
    name, *arguments = term
    return clingo.Function(name, [symbol(a) for a in arguments])


def fact_symbols(facts: Iterable[Fact]) -> list[Any]:
    """Each fact as a clingo symbol."""
    return [symbol((name, *arguments)) for name, arguments in facts]


def fact_text(facts: Iterable[Fact]) -> str:
    """The facts as ASP source, one a line, each written by clingo itself (str of its symbol)."""
    return "".join(f"{s}.\n" for s in fact_symbols(facts))
