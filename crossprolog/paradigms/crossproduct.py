"""CrossProduct's facts (crossproduct.lp) and data (crossproduct.mzn), from the dict
its Prolog module reads (`CrossProduct.prolog_data`).

Products can be any size, clingo's and Gecode's integers 32 bits: a product
crosses as its exponents of 2, 3, 5 and 7 (every digit's primes), or as
"zero" or "another prime factor" (then no filling has it).
"""

from __future__ import annotations

from typing import Any

from .terms import Fact

PRIMES = (2, 3, 5, 7)
UNKNOWN, ZERO, FACTORED, UNFACTORED = 0, 1, 2, 3  # a line's kind, as crossproduct.mzn reads it


def factored(product: int | None) -> tuple[int, list[int]]:
    """A product's kind and its exponents of 2, 3, 5 and 7 (zeros unless FACTORED)."""
    if product is None:
        return UNKNOWN, [0] * 4
    if product == 0:
        return ZERO, [0] * 4
    exponents = []
    for prime in PRIMES:
        n = 0
        while product % prime == 0:
            product, n = product // prime, n + 1
        exponents.append(n)
    return (FACTORED, exponents) if product == 1 else (UNFACTORED, [0] * 4)


def _lines(data: dict) -> list[tuple[tuple, int | None]]:
    return ([(("row", r), p) for r, p in enumerate(data["rows"])]
            + [(("col", c), p) for c, p in enumerate(data["columns"])])


def asp_facts(data: dict) -> list[Fact]:
    """The facts crossproduct.lp documents."""
    facts: list[Fact] = [("size", (len(data["rows"]), len(data["columns"]))), ("low", (data["low"],))]
    facts += [("given", tuple(given)) for given in data["givens"]]
    for line, product in _lines(data):
        kind, exponents = factored(product)
        if kind == ZERO:
            facts.append(("zero", (line,)))
        elif kind == UNFACTORED:
            facts.append(("unfactored", (line,)))
        elif kind == FACTORED:
            facts += [("factor", (line, prime, n)) for prime, n in zip(PRIMES, exponents)]
    return facts


def mzn_data(data: dict) -> dict[str, Any]:
    """The data crossproduct.mzn documents."""
    height, width = len(data["rows"]), len(data["columns"])
    given = [[-1] * width for _ in range(height)]
    for r, c, digit in data["givens"]:
        given[r][c] = digit
    rows = [factored(p) for p in data["rows"]]
    columns = [factored(p) for p in data["columns"]]
    return {"height": height, "width": width, "low": data["low"], "given": given,
            "row_kind": [kind for kind, _ in rows], "row_exponents": [e for _, e in rows],
            "col_kind": [kind for kind, _ in columns], "col_exponents": [e for _, e in columns]}


def objective_candidates(data: dict) -> None:
    """A CrossProduct has no objective."""
    return None
