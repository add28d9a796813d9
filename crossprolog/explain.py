"""Why a puzzle is what it is, for stuck solvers and puzzle makers, in every family.

- `hint`: a cell whose value is the same in every solution, and why: the
  easiest step of a person's techniques (solving.py, techniques.py) when one
  applies, else the clues that force it by propagation alone, then probing
  (trying each value and seeing propagation fail), then search; past its time
  limit, the best found so far.
- `conflict`: for a puzzle without solution, a minimal set of clues (lines,
  groups, cages, givens) that cannot hold together: alone they have no
  solution, and without any one of them they have one.
- `ambiguity`: for a puzzle with several solutions, two of them, where they
  differ, and one more clue that would make the solution unique.

Everything here speaks of a family only through its model's clues and cells
(`Puzzle.clues`, `keeping`, `open_cells`, `placing`, `cell_path`...), so every
family gets it.  Minimal sets come from QuickXplain (Junker, 2004): about
k·log(n/k) tests for k clues of n, where dropping one clue at a time would
take n.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from . import engine
from .answers import Cell, Clue, Search, Solution
from .errors import NoDomains, TimeLimitExceeded
from .puzzle import Puzzle
from .scene import DIFFERS, Marking

if TYPE_CHECKING:
    from . import solving

LEVELS = ("propagation", "probing", "search")
HINT_SECONDS = 0.8  # a hint's time limit when none is given (then the best found so far): within 1 s


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


class Reasoner:
    """Questions about one puzzle, asked of Prolog within one deadline.

    Propagation and probing run the family's reasoning encoding (one that
    posts CLP(FD) constraints: `Family.reasoning`); search, the default."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline, encoding: str | None = None):
        self.puzzle, self.deadline, self.encoding = puzzle, deadline, encoding
        self.reasoning = encoding or puzzle.record.reasoning

    def consequences(self, puzzle: Puzzle, probe: bool = True) -> dict:
        try:
            found = engine.consequences(puzzle.record.prolog, puzzle.prolog_data(), [],
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
        found = engine.restricted(puzzle.record.prolog, puzzle.prolog_data(), list(cells),
                                  shape=puzzle.answer_shape(), limit=limit,
                                  timeout=self.deadline.left(), encoding=self.encoding)
        if found["status"] == "timeout":
            raise TimeLimitExceeded(self.deadline.seconds)
        return Search.of(found, puzzle.family, puzzle._solution)

    def unsolvable(self, puzzle: Puzzle) -> bool:
        """No solution: refuted by propagation, or else by search."""
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


# Hints


@dataclass(frozen=True)
class Hint:
    """What `hint` found: status "hint" (with `cells`), "stuck" (no cell is forced),
    "solved" (nothing left to find) or "unsolvable"."""

    status: str
    cells: tuple[Forced, ...] = ()


def hint(puzzle: Puzzle, *, every: bool = False, timeout: float | None = None,
         encoding: str | None = None) -> Hint:
    """The forced cell a person finds most easily: the easiest named technique's, with the
    fewest clues; when none applies, the one needing the least reasoning (propagation
    before probing before search, then the fewest clues).  Past `timeout` seconds
    (HINT_SECONDS when None), the best found so far.  With `every`, every forced cell
    (TimeLimitExceeded past `timeout`)."""
    if every or not puzzle.open_cells():
        return reasoned_hint(puzzle, every=every, timeout=timeout, encoding=encoding)
    deadline = Deadline(HINT_SECONDS if timeout is None else timeout)
    search = puzzle.search(limit=2, timeout=deadline.left(), encoding=encoding)
    if search.status != "timeout" and not search.solutions:
        return Hint("unsolvable")
    known = search.solutions[0].to_json() if search.solutions and search.status != "timeout" else None
    statement = puzzle.statement()
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
    open cell for a family without a statement)."""
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
    if every or not candidates:
        left = [cell for cell in open_cells if cell not in candidates]
        candidates |= {cell: forced for forced in searched(reasoner, first[0], left, every)
                       for cell in [forced[1]]}
    if not candidates:
        return Hint("stuck")
    if every:
        return Hint("hint", tuple(explained_cell(reasoner, *c) for c in candidates.values()))
    return Hint("hint", (easiest(reasoner, list(candidates.values())),))


def easiest(reasoner: Reasoner, candidates: list[tuple[str, Cell, int]]) -> Forced:
    """The forced cell of the lowest level whose own clues (its lines, cages...) force
    it alone, if one does; else the first of the lowest level."""
    lowest = min(LEVELS.index(level) for level, _, _ in candidates)
    first = [c for c in candidates if LEVELS.index(c[0]) == lowest]
    for candidate in first:
        if forced := explained_cell(reasoner, *candidate, own_only=True):
            return forced
    return explained_cell(reasoner, *first[0])


def searched(reasoner: Reasoner, first: Solution, cells: list[Cell],
             every: bool) -> list[tuple[str, Cell, int]]:
    """The cells of `cells` that search shows forced: no solution gives them another
    value than `first` does (all of them with `every`, else the first found)."""
    grid = first.to_json()
    forced = []
    for cell in cells:
        value = grid[cell[0]][cell[1]]
        if reasoner.forced_at("search", reasoner.puzzle, cell, value):
            forced.append(("search", cell, value))
            if not every:
                break
    return forced


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


# Conflicts


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


# Several solutions


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
    time is up first."""
    deadline = Deadline(timeout)
    shown, cells = (first, second), difference(first, second)
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
        found = engine.find(stricter.record.prolog, stricter.prolog_data(),
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


def listed(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c` (and `nothing` for no items)."""
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def conflict_sentence(clues: Sequence[Clue]) -> str:
    """What a conflict means, in one sentence.  No clues: the encoding has no solution
    even without them (a user's model/3 that fails, say)."""
    if not clues:
        return "no clue is to blame: the encoding finds no solution even with every clue left out"
    if len(clues) == 1:
        return f"{clues[0].text} cannot hold, whatever the other clues say"
    return f"{listed([clue.text for clue in clues])} cannot hold together"


class Explainable(Puzzle):
    """A puzzle that answers the questions of stuck solvers and puzzle makers: every
    family's model is one."""

    def hint(self, *, timeout: float | None = None, encoding: str | None = None) -> Hint:
        """One cell whose value is the same in every solution, and why: the easiest named
        technique's, with the fewest clues, else the one needing the least reasoning;
        past `timeout` (HINT_SECONDS) the best found so far.  `Hint.status` says "hint",
        "stuck" (no cell is forced), "solved" (nothing left open) or "unsolvable"."""
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

    def statement(self) -> solving.Statement | None:
        """The puzzle's rules as data for a person's techniques (`techniques.Statement`),
        or None for a family that states none (then hints reason by propagation)."""
        return None

    def forced_cells(self, *, timeout: float | None = None,
                     encoding: str | None = None) -> tuple[Forced, ...]:
        """Every cell whose value is the same in every solution, each with its reason
        (none for a puzzle without solution)."""
        return hint(self, every=True, timeout=timeout, encoding=encoding).cells

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
