"""Killer Sudoku's facts (killer_sudoku.lp) and data (killer_sudoku.mzn), from the dict
its Prolog module reads (`KillerSudoku.prolog_data`)."""

from __future__ import annotations

from typing import Any

from .terms import Fact, cage_grid, given_grid


def asp_facts(data: dict) -> list[Fact]:
    """The facts killer_sudoku.lp documents."""
    height, width = data["box"]
    facts: list[Fact] = [("size", (data["size"],)), ("box", (height, width))]
    for k, cage in enumerate(data["cages"]):
        facts.append(("cage", (k, cage["sum"])))
        facts += [("in", (k, r, c)) for r, c in cage["cells"]]
    return facts + [("given", tuple(given)) for given in data["givens"]]


def mzn_data(data: dict) -> dict[str, Any]:
    """The data killer_sudoku.mzn documents."""
    size = data["size"]
    cage_of, given = cage_grid(size, data["cages"]), given_grid(size, data["givens"])
    height, width = data["box"]
    return {"size": size, "box_rows": height, "box_cols": width, "cages": len(data["cages"]),
            "cage_of": cage_of, "total": [cage["sum"] for cage in data["cages"]], "given": given}


def objective_candidates(data: dict) -> None:
    """A Killer Sudoku has no objective."""
    return None
