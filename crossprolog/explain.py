"""Hints: why a cell is what it is, for stuck solvers, in every family; and
`Explainable`, the questions every family's model answers.

- `hint`: a cell whose value is the same in every solution, and why: the
  easiest step of a person's techniques (solving.py, techniques.py) when one
  applies, else the clues that force it by propagation alone, then probing
  (trying each value and seeing propagation fail), then search; past its time
  limit, the best found so far.  Its clues are a minimal set (reasoner.py).
- `Explainable.conflict`: the clues to blame for no solution (diagnosis.py).

Everything here speaks of a family only through its model's clues and cells
(`Puzzle.clues`, `keeping`, `open_cells`, `placing`, `cell_path`...), so every
family gets it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from itertools import chain
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from .answers import Cell, Clue, Solution
from .diagnosis import conflict
from .errors import TimeLimitExceeded
from .puzzle import Puzzle
from .reasoner import Deadline, Reasoner, listed, minimal

if TYPE_CHECKING:
    from . import solving

LEVELS = ("propagation", "probing", "search")
HINT_SECONDS = 0.8  # a hint's time limit when none is given (then the best found so far): within 1 s


@dataclass(frozen=True)
class Forced:
    """A cell whose value is the same in every solution, how much reasoning shows it
    (one of LEVELS), and a minimal set of clues whose constraints alone show it."""

    cell: Cell
    value: int
    level: str
    clues: tuple[Clue, ...]
    reason: str
    technique: str | None = None  # the hardest named technique the reason uses (level "technique")
    place: str | None = None  # the unit, cage or line its last step points at
    reason_cells: tuple[Cell, ...] = ()  # the cells the reason speaks of
    rating: float | None = None  # the technique's rating (grades.GRADES)

    def to_json(self) -> dict:
        return {"row": self.cell[0], "col": self.cell[1], "value": self.value,
                "level": self.level, "reason": self.reason, "technique": self.technique,
                "place": self.place, "reason_cells": [list(cell) for cell in self.reason_cells],
                "rating": self.rating, "clues": [clue.to_json() for clue in self.clues]}


@dataclass(frozen=True)
class Hint:
    """What `hint` found: status "hint" (with `cells`), "stuck" (no cell is forced),
    "solved" (nothing left to find), "unsolvable", or "timeout" when the time ran out
    first (for every forced cell, with `cells`, those found by then)."""

    status: str
    cells: tuple[Forced, ...] = ()


def hint(puzzle: Puzzle, *, every: bool = False, timeout: float | None = None,
         encoding: str | None = None) -> Hint:
    """The forced cell a person finds most easily: the easiest named technique's, with the
    fewest clues; when none applies, the one needing the least reasoning (propagation
    before probing before search, then the fewest clues).  Past `timeout` seconds
    (HINT_SECONDS when None), the best found so far: Hint("timeout") when none was.
    With `every`, every forced cell (TimeLimitExceeded past `timeout` before the first)."""
    if every or not puzzle.open_cells():
        return reasoned_hint(puzzle, every=every, timeout=timeout, encoding=encoding)
    deadline = Deadline(HINT_SECONDS if timeout is None else timeout)
    try:
        return best_hint(puzzle, deadline, encoding)
    except TimeLimitExceeded:
        return Hint("timeout")


def best_hint(puzzle: Puzzle, deadline: Deadline, encoding: str | None) -> Hint:
    """`hint` of one cell within `deadline`; TimeLimitExceeded when it passes before any
    is found (even before the first search: a limit of a microsecond)."""
    search = puzzle.search(limit=2, timeout=deadline.left(), encoding=encoding)
    if search.status != "timeout" and not search.solutions:
        return Hint("unsolvable")
    known = search.solutions[0].to_json() if search.solutions and search.status != "timeout" else None
    try:
        statement = puzzle.statement(timeout=deadline.left())
    except TimeLimitExceeded:  # no time for techniques: the only solution found may still tell a cell
        statement = None
    if statement and search.status != "timeout" and search.count == 1:
        statement = replace(statement, unique=True)  # a unique rectangle may be used
    within = lambda: deadline.end - time.perf_counter() > 0  # noqa: E731
    from . import solving  # a person's techniques: loaded for hints, not for every command

    if statement and (found := solving.next_placement(statement, within)):
        forced = technique_hint(puzzle, statement, found)
        if known is None or known[forced.cell[0]][forced.cell[1]] == forced.value:
            return Hint("hint", (forced,))
    try:
        found = reasoned_hint(puzzle, timeout=deadline.left(), encoding=encoding)
        return replace(found, cells=tuple(replace(forced, reason=f"no named technique applies: {forced.reason}")
                                          for forced in found.cells))
    except TimeLimitExceeded:
        if known is None or search.count != 1:
            raise
    cell = easiest_open_cell(puzzle, statement)
    return Hint("hint", (Forced(cell, known[cell[0]][cell[1]], "search", (), (
        f"no technique applies and no short reason was found in time: the only solution has "
        f"{known[cell[0]][cell[1]]} at {puzzle.cell_name(cell)}"), technique="search"),))


def easiest_open_cell(puzzle: Puzzle, statement: solving.Statement | None) -> Cell:
    """The open cell with the fewest candidates left by the placed digits (the first
    open cell without a statement: a family states none, or it took too long)."""
    if statement is None:
        return puzzle.open_cells()[0]
    from .techniques import Marks

    marks = Marks(statement)
    i = min((i for i in range(len(statement.places)) if i not in marks.values),
            key=lambda i: len(marks.cands[i]))
    return statement.places[i]


def technique_hint(puzzle: Puzzle, statement: solving.Statement, found: solving.Found) -> Forced:
    """The cell `found` places, and the steps of its reason as one line."""
    from . import solving, techniques

    cell, value = found.step.placed
    cells = sorted({statement.places[i] for step in found.steps for i in step.cells})
    reason = "; then ".join(map(techniques.told, found.steps))
    return Forced(statement.places[cell], value, "technique", solving.clues_of(found.steps), reason,
                  found.technique, found.step.place, tuple(cells), found.rating)


def reasoned_hint(puzzle: Puzzle, *, every: bool = False, timeout: float | None = None,
                  encoding: str | None = None) -> Hint:
    """`hint` by propagation, probing and search alone.

    Raises TimeLimitExceeded when `timeout` seconds pass first.
    """
    reasoner = Reasoner(puzzle, Deadline(timeout), encoding)
    open_cells = puzzle.open_cells()
    if not open_cells:  # the clues may still not hold: the digits filled in, or a line of no cells
        return Hint("solved" if reasoner.solutions(puzzle).solutions else "unsolvable")
    found = reasoner.consequences(puzzle)
    first = [] if found["status"] == "inconsistent" else reasoner.solutions(puzzle).solutions
    if not first:
        return Hint("unsolvable")
    candidates: dict[Cell, tuple[str, Cell, int]] = {}
    for level, key in (("propagation", "propagated"), ("probing", "probed")):
        for cell in open_cells:
            values = reasoner.domain(found[key], cell)
            if len(values) == 1 and cell not in candidates:
                candidates[cell] = (level, cell, values[0])
    left = [cell for cell in open_cells if cell not in candidates]
    if every:
        # lazily: those search finds come as it finds them, after the others are explained
        return every_forced(reasoner, chain(candidates.values(), searched(reasoner, first[0], left)))
    if not candidates and (found_by_search := next(searched(reasoner, first[0], left), None)):
        candidates[found_by_search[1]] = found_by_search
    if not candidates:
        return Hint("stuck")
    return Hint("hint", (easiest(reasoner, list(candidates.values())),))


def every_forced(reasoner: Reasoner, candidates: Iterable[tuple[str, Cell, int]]) -> Hint:
    """Every forced cell of `candidates` (found as they are asked for), explained; past
    the deadline, those explained by then, as status "timeout" (TimeLimitExceeded when
    there are none)."""
    cells: list[Forced] = []
    try:
        for candidate in candidates:
            cells.append(explained_cell(reasoner, *candidate))
    except TimeLimitExceeded:
        if not cells:
            raise
        return Hint("timeout", tuple(cells))
    return Hint("hint", tuple(cells)) if cells else Hint("stuck")


def easiest(reasoner: Reasoner, candidates: list[tuple[str, Cell, int]]) -> Forced:
    """The forced cell of the lowest level whose own clues (its lines, cages...) force
    it alone, if one does; else the first of the lowest level."""
    lowest = min(LEVELS.index(level) for level, _, _ in candidates)
    first = [c for c in candidates if LEVELS.index(c[0]) == lowest]
    for candidate in first:
        if forced := explained_cell(reasoner, *candidate, own_only=True):
            return forced
    return explained_cell(reasoner, *first[0])


def searched(reasoner: Reasoner, first: Solution, cells: list[Cell]) -> Iterator[tuple[str, Cell, int]]:
    """The cells of `cells` that search shows forced, as they are found: no solution
    gives them another value than `first` does."""
    grid = first.to_json()
    for cell in cells:
        value = grid[cell[0]][cell[1]]
        if reasoner.forced_at("search", reasoner.puzzle, cell, value):
            yield "search", cell, value


def explained_cell(reasoner: Reasoner, level: str, cell: Cell, value: int,
                   own_only: bool = False) -> Forced | None:
    """`cell` forced to `value`, with a minimal set of clues that force it at `level`:
    from its own clues (those that speak of it) when they are enough, else from all
    (or None with `own_only`)."""
    puzzle = reasoner.puzzle

    def enough(kept: list[Clue]) -> bool:
        return reasoner.forced_at(level, puzzle.keeping(kept), cell, value)

    own = [clue for clue in puzzle.clues() if cell in clue.cells]
    if enough(own):
        clues = own
    elif own_only:
        return None
    else:
        clues = own + [clue for clue in puzzle.clues() if cell not in clue.cells]
    needed = minimal(clues, enough)
    return Forced(cell, value, level, tuple(needed), reason(puzzle, needed, cell, value, level))


def reason(puzzle: Puzzle, clues: Sequence[Clue], cell: Cell, value: int, level: str) -> str:
    """One line: which clues force what, and how."""
    what = puzzle.value_name(cell, value)
    if not clues:
        return f"the rules alone leave {what}"
    named = listed([clue.text for clue in clues])
    verb = "leaves" if len(clues) == 1 else "leave"
    how = {"propagation": "", "probing": " (every other value fails at once)",
           "search": " (every other value fails, case by case)"}[level]
    return f"{named} {verb} {what}{how}"


class Explainable(Puzzle):
    """A puzzle that answers the questions of stuck solvers and puzzle makers: every
    family's model is one."""

    def hint(self, *, timeout: float | None = None, encoding: str | None = None) -> Hint:
        """One cell whose value is the same in every solution, and why: the easiest named
        technique's, with the fewest clues, else the one needing the least reasoning;
        past `timeout` (HINT_SECONDS) the best found so far.  `Hint.status` says "hint",
        "stuck" (no cell is forced), "solved" (nothing left open), "unsolvable" or
        "timeout" (no hint found in time)."""
        return hint(self, timeout=timeout, encoding=encoding)

    def clue_reading(self, clue: Clue, solution: Solution) -> str | None:
        """What `clue` would say of `solution`, as the layout writes it: the digit there for
        a given (None when the family cannot tell)."""
        if clue.kind != "given":
            return None
        r, c = clue.cell
        return self.given_name(clue.cell, solution.to_json()[r][c])

    def stated(self, clue: Clue) -> tuple[int, ...]:
        """The numbers `clue` states, in order, as `retyped` takes them: by default those
        its text gives after its name (`row 4 (=17, #3)`: 17, 3)."""
        return numbers(clue.text)

    def retyped(self, clue: Clue, numbers: Sequence[int]) -> Puzzle | None:
        """The puzzle with `clue` saying `numbers` (the numbers of its text, in order)
        instead: a given another digit.  None when the family cannot retype the clue
        (blame then reads corrections off solutions only)."""
        if clue.kind != "given":
            return None
        return self.placing({clue.cell: numbers[0]})

    def given_name(self, cell: Cell, value: int) -> str:
        """A given as the puzzle's clues name it: `the 7 at row 2, column 3`."""
        return f"the {value} at row {cell[0] + 1}, column {cell[1] + 1}"

    def statement(self, *, timeout: float | None = None) -> solving.Statement | None:
        """The puzzle's rules as data for a person's techniques (`techniques.Statement`),
        or None for a family that states none (then hints reason by propagation).
        TimeLimitExceeded when building it takes over `timeout` seconds (a huge puzzle's
        cages and lines may take minutes to list)."""
        return None

    def forced_cells(self, *, timeout: float | None = None,
                     encoding: str | None = None) -> tuple[Forced, ...]:
        """Every cell whose value is the same in every solution, each with its reason
        (none for a puzzle without solution); TimeLimitExceeded past `timeout`."""
        found = hint(self, every=True, timeout=timeout, encoding=encoding)
        if found.status == "timeout":
            raise TimeLimitExceeded(timeout)
        return found.cells

    def conflict(self, *, timeout: float | None = None,
                 encoding: str | None = None) -> tuple[Clue, ...] | None:
        """A minimal set of clues that cannot hold together, or None when the puzzle has
        a solution: alone they have no solution, and without any one of them they have."""
        if self.solve(timeout=timeout, encoding=encoding) is not None:
            return None
        return conflict(self, timeout=timeout, encoding=encoding)


def numbers(text: str) -> tuple[int, ...]:
    """The numbers a clue's text states after its name: `row 4 (=17, #3)` (17, 3)."""
    return tuple(int(n) for n in re.findall(r"-?\d+", text[text.find("(") + 1:]))
