"""Kakuro's facts (kakuro.lp) and data (kakuro.mzn), from the dict its Prolog module
reads (`Kakuro.prolog_data`)."""

from __future__ import annotations

from typing import Any

from .terms import Fact


def asp_facts(data: dict) -> list[Fact]:
    """The facts kakuro.lp documents."""
    facts: list[Fact] = [("size", (data["height"], data["width"]))]
    facts += [("black", tuple(place)) for place in data["black"]]
    for k, run in enumerate(data["runs"]):
        if "sum" in run:
            facts.append(("clue", (k, run["sum"])))
        facts += [("in", (k, r, c)) for r, c in run["cells"]]
    return facts + [("given", tuple(given)) for given in data["givens"]]


def mzn_data(data: dict) -> dict[str, Any]:
    """The data kakuro.mzn documents: a run's cells as indexes into the white cells."""
    black = {tuple(place) for place in data["black"]}
    whites = [(r, c) for r in range(data["height"]) for c in range(data["width"]) if (r, c) not in black]
    index = {place: k for k, place in enumerate(whites, start=1)}
    runs = data["runs"]
    longest = max((len(run["cells"]) for run in runs), default=1)
    cells = [[index[tuple(p)] for p in run["cells"]] + [0] * (longest - len(run["cells"])) for run in runs]
    given = {(r, c): digit for r, c, digit in data["givens"]}
    return {"height": data["height"], "width": data["width"], "whites": len(whites),
            "row_of": [r + 1 for r, _ in whites], "col_of": [c + 1 for _, c in whites],
            "given": [given.get(place, 0) for place in whites],
            "runs": len(runs), "longest": longest, "run_cells": cells,
            "total": [run.get("sum", 0) for run in runs]}


def objective_candidates(data: dict) -> None:
    """A Kakuro has no objective."""
    return None
