"""Facts as plain Python data, for clingo's symbols and for exported programs.

A fact is (name, arguments).  An argument is an int (a number), a str (a
constant: one of crossprolog's own names, never text from a puzzle), or a
tuple (name, argument...) for a compound term such as row(3).
"""

from __future__ import annotations

from typing import Any, Iterable, Union

from ..errors import UsageError

Term = Union[int, str, tuple]
Fact = tuple[str, tuple]

INT32 = 2 ** 31 - 1  # clingo's and Gecode's integers are 32 bits


def symbol(term: Term) -> Any:
    """The clingo symbol of `term`."""
    import clingo

    if isinstance(term, bool) or not isinstance(term, (int, str, tuple)):
        raise TypeError(f"not a term: {term!r}")
    if isinstance(term, int):
        return clingo.Number(small(term))
    if isinstance(term, str):
        return clingo.Function(term)
    name, *arguments = term
    return clingo.Function(name, [symbol(a) for a in arguments])


def small(number: int) -> int:
    """`number`, unless it is beyond the 32-bit integers clingo and Gecode compute with
    (UsageError)."""
    if abs(number) > INT32:
        raise UsageError(f"the puzzle's number {shortened(number)} is beyond the 32-bit integers clingo "
                         "and Gecode compute with: use a Prolog encoding")
    return number


def shortened(number: int) -> str:
    """`number` as a message shows it: whole up to 20 digits, else its ends and length."""
    text = str(number)
    digits = len(text.lstrip("-"))
    return text if digits <= 20 else f"{text[:-digits + 6]}...{text[-4:]} ({digits:,} digits)"


def small_data(data: Any) -> Any:
    """`data` (JSON-ready: numbers, lists, dicts) if every integer in it is `small`."""
    if isinstance(data, dict):
        for value in data.values():
            small_data(value)
    elif isinstance(data, list):
        for value in data:
            small_data(value)
    elif isinstance(data, int) and not isinstance(data, bool):
        small(data)
    return data


def fact_symbols(facts: Iterable[Fact]) -> list[Any]:
    """Each fact as a clingo symbol."""
    return [symbol((name, *arguments)) for name, arguments in facts]


def fact_text(facts: Iterable[Fact]) -> str:
    """The facts as ASP source, one a line, each written by clingo itself (str of its symbol)."""
    return "".join(f"{s}.\n" for s in fact_symbols(facts))


def cage_grid(size: int, cages: list[dict]) -> list[list[int]]:
    """MiniZinc's `cage_of` of a caged grid: each cell's cage, numbered from 1 in the
    order of `cages` (each with its "cells", (row, column) pairs)."""
    grid = [[0] * size for _ in range(size)]
    for k, cage in enumerate(cages, start=1):
        for r, c in cage["cells"]:
            grid[r][c] = k
    return grid


def given_grid(size: int, givens: list, empty: int = 0) -> list[list[int]]:
    """MiniZinc's `given` of a grid: each given (row, column, digit) in its place, `empty`
    elsewhere."""
    grid = [[empty] * size for _ in range(size)]
    for r, c, digit in givens:
        grid[r][c] = digit
    return grid
