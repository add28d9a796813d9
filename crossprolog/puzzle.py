"""What every puzzle family shares: solving, counting and checking through Prolog."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Iterator, Sequence

from . import engine
from .errors import TimeLimitExceeded

FORMATS = ("text", "markdown")


class Puzzle(ABC):
    """A puzzle of some family.

    A family names its Prolog module (`family`), says how its model crosses
    into Prolog (`prolog_data`) and how a Prolog answer comes back
    (`solution_values`), and draws itself (`render`).  Everything else, the
    search itself, lives here once.
    """

    family: ClassVar[str]
    layout: str  # the format the puzzle was written in: one of FORMATS

    @abstractmethod
    def prolog_data(self) -> dict:
        """The puzzle as plain data for the family's Prolog module."""

    @abstractmethod
    def solution_values(self, answer: Any) -> Any:
        """A Prolog answer turned into the family's solution values."""

    @abstractmethod
    def render(self, solution: Solution | None = None, format: str | None = None) -> str:
        """The puzzle, solved by `solution` if given, drawn in `format` (default: its own layout)."""

    def solution_json(self, solution: Solution) -> Any:
        """The solution as JSON-ready data."""
        return solution.values

    def solution_extras(self, solution: Solution) -> dict[str, Any]:
        """Keys a family adds to a solved puzzle's JSON record (an objective, say)."""
        return {}

    # The search: one crossing into Prolog per call.

    def search(self, *, limit: int = 0, timeout: float | None = None,
               encoding: str | None = None, keep: bool = True) -> engine.Search:
        """Run the search: up to `limit` solutions (0: all) within `timeout` seconds.

        The Search returned holds Solution objects (none with keep=False).
        """
        engine.load(self.family)
        found = engine.find(self.family, self.prolog_data(), limit=limit, timeout=timeout,
                            encoding=encoding, keep=keep)
        found.solutions = [self._solution(answer) for answer in found.solutions]
        return found

    def solve(self, *, timeout: float | None = None, encoding: str | None = None) -> Solution | None:
        """The first solution found, or None when there is none.

        Raises TimeLimitExceeded when `timeout` seconds pass first.
        """
        found = self.search(limit=1, timeout=timeout, encoding=encoding)
        if found.status == "timeout":
            raise TimeLimitExceeded(timeout or 0)
        return found.solutions[0] if found.solutions else None

    def solutions(self, *, timeout: float | None = None,
                  encoding: str | None = None) -> Iterator[Solution]:
        """Every solution, lazily: the search goes only as far as the caller iterates.

        `timeout` bounds the search time in all, not counting the caller's own.
        """
        engine.load(self.family)
        for answer in engine.stream(self.family, self.prolog_data(), timeout=timeout,
                                    encoding=encoding):
            yield self._solution(answer)

    def count(self, limit: int = 0, *, timeout: float | None = None,
              encoding: str | None = None) -> int:
        """The number of solutions, counting no further than `limit` (0: no limit).

        Raises TimeLimitExceeded (with the count so far in `found`) on timeout.
        """
        found = self.search(limit=limit, timeout=timeout, encoding=encoding, keep=False)
        if found.status == "timeout":
            raise TimeLimitExceeded(timeout or 0, found.count)
        return found.count

    def well_formed(self, *, timeout: float | None = None, encoding: str | None = None) -> bool:
        """True when the puzzle has exactly one solution."""
        return self.count(2, timeout=timeout, encoding=encoding) == 1

    def _solution(self, answer: Any) -> Solution:
        return Solution(self, self.solution_values(answer))

    def __str__(self) -> str:
        return self.render()

    def _repr_markdown_(self) -> str:
        return self.render(format="markdown")


def search_many(puzzles: Sequence[Puzzle], *, limit: int = 0, timeout: float | None = None,
                encoding: str | None = None, keep: bool = True) -> list[engine.Search]:
    """`Puzzle.search` for every puzzle, crossing into Prolog once per family, not per puzzle.

    `timeout` bounds each puzzle's search.  Results come in the order of `puzzles`.
    """
    found: list[engine.Search | None] = [None] * len(puzzles)
    for family in dict.fromkeys(p.family for p in puzzles):
        indices = [i for i, p in enumerate(puzzles) if p.family == family]
        engine.load(family)
        batch = engine.find_many(family, [puzzles[i].prolog_data() for i in indices], limit=limit,
                                 timeout=timeout, encoding=encoding, keep=keep)
        for i, search in zip(indices, batch):
            search.solutions = [puzzles[i]._solution(answer) for answer in search.solutions]
            found[i] = search
    return found  # type: ignore[return-value]


@dataclass(frozen=True)
class Solution:
    """A solution of `puzzle`; prints in the puzzle's own layout."""

    puzzle: Puzzle
    values: Any

    def __str__(self) -> str:
        return self.puzzle.render(self)

    def _repr_markdown_(self) -> str:
        return self.puzzle.render(self, format="markdown")

    def to_json(self) -> Any:
        return self.puzzle.solution_json(self)
