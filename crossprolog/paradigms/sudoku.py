"""Sudoku's facts (sudoku.lp) and data (sudoku.mzn), from the dict its Prolog module
reads (`Sudoku.prolog_data`), and the GCD objective's candidates."""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from .terms import Fact, given_grid

LARGEST = 987654321  # no line of nine distinct digits spells more
REPUNIT = 111111111  # the nine line numbers add up to the digit sum times this
LINES = {"none": 0, "gcd(rows)": 1, "gcd(cols)": 2}


def asp_facts(data: dict) -> list[Fact]:
    """The facts sudoku.lp documents."""
    facts: list[Fact] = [("digits", (data["low"], data["high"]))]
    facts += [("given", tuple(given)) for given in data["givens"]]
    objective = str(data["objective"])
    if objective != "none":
        facts.append(("objective", ("rows" if objective == "gcd(rows)" else "cols",)))
    return facts


def mzn_data(data: dict) -> dict[str, Any]:
    """The data sudoku.mzn documents (`objective_candidates` empty: the runner gives them)."""
    given = given_grid(9, data["givens"], empty=-1)  # a Sudoku's digits may include 0
    return {"low": data["low"], "high": data["high"], "given": given,
            "objective_lines": LINES[str(data["objective"])],
            "objective_candidates": {"set": []}}


def objective_candidates(data: dict) -> list[int] | None:
    """The values the GCD may take, largest first (None: no objective).  Every column
    holds each digit in use once, so the line numbers add up to S × 111111111, S the
    sum of the nine digits: the GCD divides that, and is at most LARGEST."""
    if str(data["objective"]) == "none":
        return None
    return _candidates(data["low"], data["high"])


@cache
def _candidates(low: int, high: int) -> list[int]:
    sums = {sum(nine) for nine in itertools.combinations(range(low, high + 1), 9)}
    found = {d for s in sums for d in _divisors(s * REPUNIT) if d <= LARGEST}
    return sorted(found, reverse=True)


def _divisors(n: int) -> list[int]:
    """Every divisor of the positive integer n."""
    small = [d for d in range(1, int(n ** 0.5) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))
