"""KenKen's facts (kenken.lp) and data (kenken.mzn), from the dict its Prolog module
reads (`KenKen.prolog_data`)."""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from .terms import INT32, Fact, cage_grid, given_grid

NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "=": "one"}  # kenken.lp's operations
NUMBERS = {"+": 1, "-": 2, "*": 3, "/": 4, "=": 5}  # kenken.mzn's


def _checked(data: dict) -> dict:
    """`data`, unless a product cage's target is beyond what 32-bit integers multiply
    safely (UsageError)."""
    for cage in data["cages"]:
        if abs(cage["target"]) * data["size"] > INT32:
            raise UsageError(f"a cage's target, {cage['target']}, times a digit, as a product on its way "
                             "may be, is beyond the 32-bit integers clingo and Gecode compute with")
    return data


def asp_facts(data: dict) -> list[Fact]:
    """The facts kenken.lp documents."""
    data = _checked(data)
    facts: list[Fact] = [("size", (data["size"],))]
    for k, cage in enumerate(data["cages"]):
        facts.append(("cage", (k, NAMES[str(cage["op"])], cage["target"])))
        facts += [("in", (k, i, r, c)) for i, (r, c) in enumerate(cage["cells"])]
    return facts + [("given", tuple(given)) for given in data["givens"]]


def mzn_data(data: dict) -> dict[str, Any]:
    """The data kenken.mzn documents."""
    data = _checked(data)
    size = data["size"]
    cage_of, given = cage_grid(size, data["cages"]), given_grid(size, data["givens"])
    return {"size": size, "cages": len(data["cages"]), "cage_of": cage_of,
            "op": [NUMBERS[str(cage["op"])] for cage in data["cages"]],
            "target": [cage["target"] for cage in data["cages"]], "given": given}


def objective_candidates(data: dict) -> None:
    """A KenKen has no objective."""
    return None
