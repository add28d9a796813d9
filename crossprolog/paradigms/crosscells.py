"""CrossCells' facts (crosscells.lp) and data (crosscells.mzn), from the dict its
Prolog module reads (`CrossCells.prolog_data`): Sumplete and Number Sums are
CrossCells puzzles there too."""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from .terms import INT32, Fact

NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem"}  # crosscells.lp's operations
NUMBERS = {"+": 1, "-": 2, "*": 3, "/": 4, "%": 5}  # crosscells.mzn's


def _checked(data: dict) -> dict:
    """`data`, unless a total's line could reach values beyond 32-bit integers
    (UsageError): clingo's arithmetic would wrap around, Gecode's overflow."""
    seeds = str(data["first_cell"]) == "seeds"
    for line in data["lines"]:
        if str(line["kind"]) != "=":
            continue
        bound = 0
        for i in line["cells"]:
            op, n = str(data["cells"][i][0]), data["cells"][i][1]
            applied = bound + n if op in "+-" else bound * max(n, 1) if op == "*" else bound
            bound = max(applied, bound + n) if seeds else applied
        if bound > INT32 // 2:
            raise UsageError("a line's values may go beyond the 32-bit integers clingo and "
                             "Gecode compute with: use a Prolog encoding")
    return data


def asp_facts(data: dict) -> list[Fact]:
    """The facts crosscells.lp documents."""
    data = _checked(data)
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
