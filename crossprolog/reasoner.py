"""Questions about one puzzle asked of Prolog within one time budget, and the
minimal sets of clues that answer them: what hints, conflicts and typos share.

- `Deadline`: one time budget for the many searches of one question.
- `Reasoner`: propagation, probing and search on a puzzle, each a question
  to the family's encodings, within a deadline.
- `minimal`: a minimal subset of clues for which a test holds (QuickXplain,
  Junker 2004: about k·log(n/k) tests for k clues of n, where dropping one
  clue at a time would take n); `without_unneeded`, the deletion filter,
  for when most clues are needed.
- `listed`: clues named in a sentence.
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

from . import engine, paradigms, searches
from .answers import Cell, Clue, Search
from .errors import NoDomains, TimeLimitExceeded
from .puzzle import Puzzle


class Deadline:
    """A time budget shared by the many searches of one question."""

    def __init__(self, seconds: float | None):
        """InvalidValue unless `seconds` is None or as a search's timeout may be."""
        self.seconds = seconds if seconds is None else engine.seconds(seconds)
        self.end = None if seconds is None else time.perf_counter() + self.seconds

    def left(self) -> float | None:
        """Seconds left; TimeLimitExceeded when none are."""
        if self.end is None:
            return None
        left = self.end - time.perf_counter()
        if left <= 0:
            raise TimeLimitExceeded(self.seconds)
        return left


class Reasoner:
    """Questions about one puzzle, asked of Prolog within one deadline.

    Propagation and probing run the family's reasoning encoding (one that
    posts CLP(FD) constraints: `Family.reasoning`); search, the default."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline, encoding: str | None = None):
        self.puzzle, self.deadline, self.encoding = puzzle, deadline, encoding
        self.reasoning = encoding or puzzle.record.reasoning

    def consequences(self, puzzle: Puzzle, probe: bool = True) -> dict:
        try:
            found = searches.consequences(puzzle.record.prolog, puzzle.prolog_data(), [],
                                        shape=puzzle.answer_shape(), probe=probe,
                                        timeout=self.deadline.left(), encoding=self.reasoning)
        except NoDomains as error:
            family = puzzle.record.reasoning
            raise NoDomains(f"encoding {self.reasoning}: {error}" + (
                f"; leave the encoding out, and hints reason with {family}" if family else "")) from None
        if found["status"] == "timeout":
            raise TimeLimitExceeded(self.deadline.seconds)
        return found

    def solutions(self, puzzle: Puzzle, cells: Sequence = (), limit: int = 1) -> Search:
        found = searches.restricted(puzzle.record.prolog, puzzle.prolog_data(), list(cells),
                                  shape=puzzle.answer_shape(), limit=limit,
                                  timeout=self.deadline.left(), encoding=self.encoding)
        if found["status"] == "timeout":
            raise TimeLimitExceeded(self.deadline.seconds)
        return Search.of(found, puzzle.family, puzzle._solution)

    def unsolvable(self, puzzle: Puzzle) -> bool:
        """No solution: refuted by propagation, or else by search.  An encoding of another
        paradigm (a user's ASP program, say) has no propagation to ask: its solver searches."""
        if paradigms.owns(self.encoding):
            found = puzzle.search(limit=1, timeout=self.deadline.left(), encoding=self.encoding, keep=False)
            if found.status == "timeout":
                raise TimeLimitExceeded(self.deadline.seconds)
            return not found.count
        return (self.consequences(puzzle, probe=False)["status"] == "inconsistent"
                or not self.solutions(puzzle).solutions)

    def domain(self, domains: list, cell: Cell) -> list[int]:
        for index in self.puzzle.cell_path(cell):
            domains = domains[index]
        return domains

    def forced_at(self, level: str, puzzle: Puzzle, cell: Cell, value: int) -> bool:
        """Whether `level` of reasoning alone shows `cell` is `value` in `puzzle`."""
        if level == "search":
            path = puzzle.cell_path(cell)
            return not self.solutions(puzzle, [[path, "\\=", value]]).solutions
        found = self.consequences(puzzle, probe=level == "probing")
        return found["status"] == "inconsistent" or self.domain(found["probed"], cell) == [value]


def without_unneeded(clues: list[Clue], enough: Callable[[list[Clue]], bool]) -> list[Clue]:
    """`clues` less each clue `enough` holds without (a deletion filter): one test per
    clue, the way to go when most of them are needed."""
    kept = list(clues)
    for clue in clues:
        rest = [c for c in kept if c != clue]
        if enough(rest):
            kept = rest
    return kept


def minimal(clues: list[Clue], enough: Callable[[list[Clue]], bool]) -> list[Clue]:
    """A minimal subset of `clues` for which `enough` holds, given that it holds for
    all of them and that adding clues never makes it fail (QuickXplain).  Earlier
    clues are preferred.  `enough` is asked of proper subsets only."""
    if enough([]):
        return []

    def explain(background: list[Clue], added: bool, candidates: list[Clue]) -> list[Clue]:
        if added and enough(background):
            return []
        if len(candidates) == 1:
            return candidates
        half = len(candidates) // 2
        first, second = candidates[:half], candidates[half:]
        from_second = explain(background + first, bool(first), second)
        from_first = explain(background + from_second, bool(from_second), first)
        return from_first + from_second

    return explain([], False, clues)


def listed(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c` (and `nothing` for no items)."""
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
