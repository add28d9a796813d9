"""What searches and questions answer with: solutions, search results, and the clues and
cells explanations speak of.  Plain data, below the puzzles that make them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol


Cell = tuple[int, int]  # (row, column) of a solution as JSON gives it, 0-based


@dataclass(frozen=True)
class Clue:
    """One thing a puzzle states that could be left out: a line's product, total or
    count, a group's, a cage, a given digit.

    `kind` is "row", "column", "group", "cage" or "given"; rows and columns
    have their 0-based `index` in the order the layout draws them, groups and
    cages their `name`, givens their `cell`.  `text` names it for people
    ("row 3 (=24)"); `cells` are the cells it speaks of.
    """

    kind: str
    text: str = field(compare=False)
    index: int | None = None
    name: str | None = None
    cell: Cell | None = None
    cells: frozenset[Cell] = field(default=frozenset(), compare=False)

    def to_json(self) -> dict[str, Any]:
        if self.kind == "given":
            return {"kind": "given", "row": self.cell[0], "col": self.cell[1]}
        key = "name" if self.name is not None else "index"
        return {"kind": self.kind, key: self.name if self.name is not None else self.index}


@dataclass(frozen=True)
class Marks:
    """What a drawing marks (in brackets): cells, and clues."""

    cells: frozenset[Cell] = frozenset()
    clues: frozenset[Clue] = frozenset()


NO_MARKS = Marks()


def json_ready(values: Any) -> Any:
    """`values` with every tuple a list, as JSON has them."""
    if isinstance(values, (tuple, list)):
        return [json_ready(v) if isinstance(v, (tuple, list)) else v for v in values]
    return values


@dataclass(frozen=True)
class Search:
    """What one search found, and what it cost."""

    family: str
    encoding: str
    status: str  # "complete", "limit", "timeout" (or "interrupted", in Interrupted.found)
    solutions: tuple[Solution, ...] = ()
    count: int = 0
    inferences: int = 0
    cpu: float = 0.0
    seconds: float = 0.0  # wall time of the search in Prolog: posting and labeling
    best: Solution | None = None  # when the time ran out: the best found so far, not proved

    @classmethod
    def of(cls, found: dict, family: str, solution: Callable[[Any], Solution]) -> Search:
        """The Search an engine result stands for, its answers made Solutions by `solution`."""
        solutions = tuple(map(solution, found.get("solutions", ())))
        best = found.get("best")
        return cls(family, found["encoding"], str(found["status"]), solutions,
                   found.get("count", len(solutions)), found["inferences"], found["cpu"],
                   round(found["seconds"], 6),
                   None if best is None else replace(solution(best), proved=False))


@dataclass(frozen=True)
class Solution:
    """A solution of `puzzle`; prints in the puzzle's own layout.  For a puzzle with an
    objective, `proved` False marks the best answer found before the time ran out,
    not proved optimal."""

    puzzle: Drawing
    values: Any
    proved: bool = True

    def __str__(self) -> str:
        return self.puzzle.render(self)

    def _repr_markdown_(self) -> str:
        return self.puzzle.render(self, format="markdown")

    def _repr_svg_(self) -> str:
        return self.puzzle.render(self, format="svg")

    def _repr_html_(self) -> str:
        return self.puzzle.render(self, format="svg")  # inline SVG: a notebook ranks HTML above markdown

    def to_json(self) -> Any:
        return self.puzzle.solution_json(self)


class Drawing(Protocol):
    """What a solution needs of its puzzle (a crossprolog.puzzle.Puzzle): to draw the
    solution in the puzzle's layout, and to write it as JSON."""

    def render(self, solution: Solution | None = None, format: str | None = None) -> str: ...

    def solution_json(self, solution: Solution) -> Any: ...
