"""Why a puzzle has no solution, or more than one, in every family.

- `conflict`: for a puzzle without solution, a minimal set of clues (lines,
  groups, cages, givens) that cannot hold together: alone they have no
  solution, and without any one of them they have one.
- `ambiguity`: for a puzzle with several solutions, two of them, where they
  differ, and one more clue that would make the solution unique.

Both speak of a family only through its model's clues and cells
(`Puzzle.clues`, `keeping`, `additions`...), so every family gets them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from . import searches
from .answers import Cell, Clue, Solution
from .errors import InvalidValue, TimeLimitExceeded
from .puzzle import Puzzle
from .reasoner import Deadline, Reasoner, listed, minimal, without_unneeded
from .scene import DIFFERS, Marking


def conflict(puzzle: Puzzle, *, timeout: float | None = None,
             encoding: str | None = None) -> tuple[Clue, ...]:
    """A minimal set of clues that cannot hold together, for a puzzle known to have
    no solution: quick arithmetic checks of the family first, then QuickXplain
    over its clues."""
    reasoner = Reasoner(puzzle, Deadline(timeout), encoding)

    def unsolvable(kept: list[Clue]) -> bool:
        return reasoner.unsolvable(puzzle.keeping(kept))

    if obvious := puzzle.obvious_conflict():
        return tuple(without_unneeded(list(obvious), unsolvable))
    return tuple(minimal(list(puzzle.clues()), unsolvable))


def conflict_sentence(clues: Sequence[Clue]) -> str:
    """What a conflict means, in one sentence.  No clues: the encoding has no solution
    even without them (a user's model/3 that fails, say)."""
    if not clues:
        return "no clue is to blame: the encoding finds no solution even with every clue left out"
    if len(clues) == 1:
        return f"{clues[0].text} cannot hold, whatever the other clues say"
    return f"{listed([clue.text for clue in clues])} cannot hold together"


@dataclass(frozen=True)
class Ambiguity:
    """Two solutions of a puzzle, the cells where they differ (as JSON indexes them), and
    one more clue that would leave only one of them, if one does: what to say of it,
    and which solution (0 or 1) it leaves.  Without one, `exhaustive` tells whether
    that means no clue the puzzle's `additions` make leaves one solution (the puzzle
    has these two only), or only none that these two meet."""

    solutions: tuple[Solution, Solution]
    difference: tuple[Cell, ...]
    suggestion: str | None
    leaves: int | None = None
    exhaustive: bool = False

    def _repr_svg_(self) -> str:
        """The two solutions side by side, the cells where they differ marked."""
        from .backends import svg  # a notebook's picture: not loaded by every start
        marks = Marking({cell: frozenset({DIFFERS}) for cell in self.difference})
        return svg.document([svg.figure(s.puzzle.scene(s, marks)) for s in self.solutions],
                            [self.suggestion] if self.suggestion else [])

    def _repr_html_(self) -> str:
        return self._repr_svg_()


def ambiguity(puzzle: Puzzle, first: Solution, second: Solution, *,
              timeout: float | None = None, encoding: str | None = None) -> Ambiguity:
    """How `first` and `second` differ, and the first of the puzzle's candidate additions
    (`Puzzle.additions`) meeting one of them that makes the solution unique.  Such a
    clue must rule out the other, so it speaks of a cell where they differ.  Without
    one, `exhaustive` when the puzzle has no third solution: then every clue that
    could leave one solution meets one of these two.  (Trying the clues each other
    solution meets, up to 50 solutions, finds more, but made `check` of 300 random
    9x9 KenKens 3.1 times slower: 10.2 s against 3.3 s.)  TimeLimitExceeded when the
    time is up first; InvalidValue for solutions of another puzzle, or the same twice."""
    deadline = Deadline(timeout)
    if first is None or second is None:
        raise InvalidValue("an ambiguity is of two solutions, not None")
    shown, cells = (puzzle.own(first), puzzle.own(second)), difference(first, second)
    if not cells:
        raise InvalidValue("those two solutions are the same: an ambiguity is of two that differ")
    for leaves, solution in enumerate(shown):
        if text := unique_making(puzzle, solution.to_json(), cells, deadline, encoding):
            return Ambiguity(shown, cells, text, leaves)
    found = puzzle.search(limit=3, timeout=deadline.left(), encoding=encoding, keep=False)
    return Ambiguity(shown, cells, None, exhaustive=found.status == "complete" and found.count == 2)


def unique_making(puzzle: Puzzle, grid: list, cells: tuple[Cell, ...], deadline: Deadline,
                  encoding: str | None) -> str | None:
    """What to say of the first of the puzzle's additions meeting `grid` at `cells`
    that leaves one solution; None when none does.  TimeLimitExceeded past `deadline`."""
    for text, stricter in puzzle.additions(grid, cells):
        found = searches.find(stricter.record.prolog, stricter.prolog_data(),
                            shape=stricter.answer_shape(), limit=2, timeout=deadline.left(),
                            encoding=encoding, keep=False)
        if found["status"] == "timeout":
            raise TimeLimitExceeded(deadline.seconds)
        if found["count"] == 1:
            return text
    return None


def difference(first: Solution, second: Solution) -> tuple[Cell, ...]:
    """The cells where two solutions differ, as JSON indexes them."""
    a, b = first.to_json(), second.to_json()
    return tuple(cell for cell in cells_of(a) if a[cell[0]][cell[1]] != b[cell[0]][cell[1]])


def cells_of(grid: list[list[int]]) -> Iterator[Cell]:
    return ((r, c) for r, row in enumerate(grid) for c in range(len(row)))
