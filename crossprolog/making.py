"""Making well-formed puzzles: exactly one solution, and no clue to spare.

One procedure serves every family.  A family hands over a *full* puzzle (its
intended solution pinned down by clues it could show: every given digit,
every line's total...), the clues that are always shown (a CrossProduct's
products), and the clues to show at first.  Then:

1. reveal: while a second solution exists, show a hidden clue that speaks of a
   cell where the two differ (or ask the family for a new clue that tells
   them apart, as a CrossCells group), until the solution is unique;
2. hide: try each shown clue in random order and hide it when the solution
   stays unique, so that hiding any clue left would let another in.

The result is minimal, not minimum: another order may need fewer clues.
"""

from __future__ import annotations

import random
from typing import Callable, Collection

from . import engine
from .answers import Clue
from .puzzle import Puzzle

# A family's way to tell two solutions apart with a clue the full puzzle lacks:
# (full puzzle, intended solution, other solution) -> (full puzzle with it, the clue) or None.
NewClue = Callable[[Puzzle, list, list], "tuple[Puzzle, Clue] | None"]


def well_formed(full: Puzzle, intended: list, rng: random.Random, *,
                fixed: Collection[Clue] = (), shown: Collection[Clue] = (),
                new_clue: NewClue | None = None) -> Puzzle | None:
    """`full` keeping `fixed` and a minimal set of its other clues under which
    `intended` is its only solution; None when its clues cannot tell every other
    solution apart (then the family draws another puzzle)."""
    from .explain import cells_of  # loaded for the commands that need it, not at every start

    fixed, shown = set(fixed), set(shown)
    checker = Givens(full, fixed) if all(
        clue.kind == "given" for clue in full.clues() if clue not in fixed) else Reposting(full, fixed)
    with checker:
        while (other := checker.other(shown, intended)) is not None:
            apart = {cell for cell in cells_of(intended)
                     if intended[cell[0]][cell[1]] != other[cell[0]][cell[1]]}
            hidden = [clue for clue in checker.full.clues()
                      if clue not in fixed | shown and clue.cells & apart]
            if hidden:
                shown.add(rng.choice(hidden))
            elif new_clue and (made := new_clue(checker.full, intended, other)):
                checker.full, clue = made
                shown.add(clue)
            else:
                return None
        for clue in rng.sample(sorted(shown, key=repr), len(shown)):
            if checker.other(shown - {clue}, intended) is None:
                shown.discard(clue)
    return checker.full.keeping(fixed | shown)


def other_solution(puzzle: Puzzle, intended: list) -> list | None:
    """A solution of `puzzle` (as JSON has it) other than `intended`, or None when
    `intended` is its only one."""
    found = puzzle.search(limit=2)
    return next((s.to_json() for s in found.solutions if s.to_json() != intended), None)


class Reposting:
    """Asks whether clues leave a second solution by searching the puzzle they make."""

    def __init__(self, full: Puzzle, fixed: set[Clue]):
        self.full, self.fixed = full, fixed

    def other(self, shown: set[Clue], intended: list) -> list | None:
        """A solution other than `intended` under `fixed` and `shown`, or None."""
        return other_solution(self.full.keeping(self.fixed | shown), intended)

    def __enter__(self):
        return self

    def __exit__(self, *_) -> None:
        pass


class Givens(Reposting):
    """The same question when the clues to show are given cells: the puzzle without
    them is posted once (an engine.Session) and each question only restricts it."""

    def __enter__(self):
        base = self.full.keeping(self.fixed)
        self.session = engine.Session(base.record.prolog, base.prolog_data())
        self.base = base
        return self

    def other(self, shown: set[Clue], intended: list) -> list | None:
        cells = [[self.full.cell_path(clue.cell), "=", intended[clue.cell[0]][clue.cell[1]]]
                 for clue in shown]
        found = self.session.restricted(cells, limit=2)
        grids = [self.base._solution(answer).to_json() for answer in found["solutions"]]
        return next((grid for grid in grids if grid != intended), None)

    def __exit__(self, *_) -> None:
        self.session.close()
