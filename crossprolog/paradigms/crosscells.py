"""CrossCells' facts (crosscells.lp) and data (crosscells.mzn), from the dict its
Prolog module reads (`CrossCells.prolog_data`): Sumplete and Number Sums are
CrossCells puzzles there too."""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from .terms import INT32, Fact

NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem"}  # crosscells.lp's operations
NUMBERS = {"+": 1, "-": 2, "*": 3, "/": 4, "%": 5}  # crosscells.mzn's


MAX_STATES = 1_000_000  # a line that may pass through more is beyond clingo's grounding


def _bounds(data: dict, line: dict) -> list[int]:
    """For each prefix of a total's line, a bound on |the value so far| (of the sum of
    the finished terms and the current term, under standard precedence)."""
    seeds, bound, bounds = str(data["first_cell"]) == "seeds", 0, [0]
    for i in line["cells"]:
        op, n = str(data["cells"][i][0]), data["cells"][i][1]
        applied = bound + n if op in "+-" else bound * max(n, 1) if op == "*" else bound
        bound = max(applied, bound + n) if seeds else applied
        bounds.append(bound)
    return bounds


def _checked(data: dict, states: bool = False) -> dict:
    """`data`, unless a total's line could reach values beyond 32-bit integers
    (UsageError): clingo's arithmetic would wrap around, Gecode's overflow.  With
    `states`, also unless a line could pass through more than MAX_STATES states
    (each step at most doubles them), which clingo grounds all."""
    pairs = str(data.get("precedence")) == "standard"
    for line in data["lines"]:
        if str(line["kind"]) != "=":
            continue
        bounds = _bounds(data, line)
        if bounds[-1] > INT32 // 2:
            raise UsageError("a line's values may go beyond the 32-bit integers clingo and "
                             "Gecode compute with: use a Prolog encoding")
        values = [(2 * b + 1) ** (2 if pairs else 1) for b in bounds]
        if states and sum(min(2 ** k, v) for k, v in enumerate(values)) > MAX_STATES:
            raise UsageError(f"a line may pass through over {MAX_STATES:,} states, more than the "
                             "ASP encoding grounds: use a Prolog encoding")
    return data


def asp_facts(data: dict) -> list[Fact]:
    """The facts crosscells.lp documents."""
    data = _checked(data, states=True)
    facts: list[Fact] = [("cell", (i, NAMES[str(op)], n)) for i, (op, n) in enumerate(data["cells"])]
    for l, line in enumerate(data["lines"]):
        facts.append(("line", (l, "total" if str(line["kind"]) == "=" else "count", line["value"])))
        facts.append(("length", (l, len(line["cells"]))))
        facts += [("at", (l, k, i)) for k, i in enumerate(line["cells"])]
    flags = [str(data["first_cell"]) == "seeds", str(data.get("precedence")) == "standard"]
    return facts + [(name, ()) for name, on in zip(("seeds", "standard"), flags) if on]


def mzn_data(data: dict) -> dict[str, Any]:
    """The data crosscells.mzn documents."""
    data = _checked(data)
    lines, reads, starts = data["lines"], [], []
    for line in lines:
        starts.append(len(reads) + 1)
        reads += [i + 1 for i in line["cells"]]
    return {"cells": len(data["cells"]), "op": [NUMBERS[str(op)] for op, _ in data["cells"]],
            "number": [n for _, n in data["cells"]], "lines": len(lines),
            "kind": [1 if str(line["kind"]) == "=" else 2 for line in lines],
            "value": [line["value"] for line in lines], "start": starts,
            "length": [len(line["cells"]) for line in lines], "reads": reads,
            "seeds": str(data["first_cell"]) == "seeds",
            "standard": str(data.get("precedence")) == "standard"}


def objective_candidates(data: dict) -> None:
    """A CrossCells has no objective."""
    return None
