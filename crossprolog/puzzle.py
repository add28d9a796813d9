"""What every puzzle family shares: solving, counting and checking through Prolog."""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Sequence

from . import engine
from .errors import Interrupted, InvalidValue, TimeLimitExceeded

if TYPE_CHECKING:
    from .family import Family


class Puzzle(ABC):
    """A puzzle of some family.

    A family's model says how it crosses into Prolog (`prolog_data`), how a
    Prolog answer comes back (`solution_values`), and draws itself
    (`render`).  Its record (`crossprolog.registry`) says the rest.
    Everything else, the search itself, lives here once.
    """

    family: ClassVar[str]
    layout: str  # the format the puzzle was written in: one of drawing.FORMATS

    @property
    def record(self) -> Family:
        """The family's record: its options, grammar, Prolog module, generator."""
        from .registry import named  # the registry imports every model: import it late

        return named(self.family)

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
        """The solution as JSON-ready data: its values, tuples as lists."""
        return json_ready(solution.values)

    def solution_extras(self, solution: Solution) -> dict[str, Any]:
        """Keys a family adds to a solved puzzle's JSON record (an objective, say)."""
        return {}

    def directives(self) -> list[str]:
        """The directive lines that state this puzzle's options, where they are not the default."""
        return [option.directive(getattr(self, option.key)) for option in self.record.options
                if getattr(self, option.key) != option.default]

    # The search: one crossing into Prolog per call.

    def search(self, *, limit: int = 0, timeout: float | None = None,
               encoding: str | None = None, keep: bool = True, progress: str = "") -> Search:
        """Run the search: up to `limit` solutions (0: all) within `timeout` seconds.

        The Search returned holds Solution objects (none with keep=False).
        `progress` is as `engine.find` takes it.  Ctrl-C raises Interrupted
        with the Search so far (status "interrupted") in its `found`.
        """
        try:
            found = engine.find(self.record.prolog, self.prolog_data(), limit=limit, timeout=timeout,
                                encoding=encoding, keep=keep, progress=progress)
        except Interrupted as stopped:
            raise Interrupted(stopped.found and Search.of(stopped.found, self.family,
                                                          self._solution)) from None
        return Search.of(found, self.family, self._solution)

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
        for answer in engine.stream(self.record.prolog, self.prolog_data(), timeout=timeout,
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


def integer(value: Any, what: str) -> int:
    """`value` as an int when it is an integer of any kind (int, numpy's, any
    numbers.Integral but bool); InvalidValue saying `what` it was otherwise."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise InvalidValue(f"{what} must be an integer, not {value!r}")


def items(values: Any, what: str) -> tuple:
    """`values` (a list, a tuple, a numpy array...) as a tuple; InvalidValue saying
    `what` they were when they are not a sequence (a string is not one here)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise InvalidValue(f"{what} must be a sequence, not {values!r}")
    return tuple(values)


def rows_of(rows: Any, what: str) -> tuple[tuple[Any, ...], ...]:
    """`rows` as a tuple of tuples; InvalidValue saying `what` they were otherwise."""
    return tuple(items(row, f"each row of {what}") for row in items(rows, what))


def json_ready(values: Any) -> Any:
    """`values` with every tuple a list, as JSON has them."""
    if isinstance(values, (tuple, list)):
        return [json_ready(v) for v in values]
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

    @classmethod
    def of(cls, found: dict, family: str, solution: Callable[[Any], Solution]) -> Search:
        """The Search an engine result stands for, its answers made Solutions by `solution`."""
        solutions = tuple(map(solution, found.get("solutions", ())))
        return cls(family, found["encoding"], str(found["status"]), solutions,
                   found.get("count", len(solutions)), found["inferences"], found["cpu"],
                   round(found["seconds"], 6))


def search_many(puzzles: Sequence[Puzzle], *, limit: int = 0, timeout: float | None = None,
                encoding: str | None = None, keep: bool = True) -> list[Search]:
    """`Puzzle.search` for every puzzle, crossing into Prolog once per family, not per puzzle.

    `timeout` bounds each puzzle's search.  Results come in the order of `puzzles`.
    """
    found: dict[int, Search] = {}
    for family in dict.fromkeys(p.family for p in puzzles):
        indices = [i for i, p in enumerate(puzzles) if p.family == family]
        batch = engine.find_many(puzzles[indices[0]].record.prolog,
                                 [puzzles[i].prolog_data() for i in indices], limit=limit,
                                 timeout=timeout, encoding=encoding, keep=keep)
        for i, result in zip(indices, batch):
            found[i] = Search.of(result, family, puzzles[i]._solution)
    return [found[i] for i in range(len(puzzles))]


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
