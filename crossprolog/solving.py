"""A person's way through a puzzle: the easiest next step, the whole path, a grade.

The techniques are in `techniques.py`; the rules they reason over come from
the family (`Explainable.statement`): read from its grid-kernel statement
(`kernel_statement`) for Sudoku, KenKen and every family stated on the
kernel, or stated by the model for CrossProduct and CrossCells.

When no pattern applies, a step tries candidates and follows their singles
(forcing.py: a Nishio contradiction, then cell and unit forcing chains);
past that, the solution's own value (`search`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from . import engine
from .answers import Cell, Clue
from .errors import TimeLimitExceeded
from .grades import grade_name
from .forcing import NISHIO, forcing_chains, nishio
from .hard_techniques import (fish, single_digit_wings, unique_rectangles, w_wings, x_chains, xy_chains,
                              xy_wings, xyz_wings)
from .techniques import (Index, Marks, Statement, Step, Table, Unit, cage_lines, full_houses,
                         hidden_singles, locked_candidates, naked_singles, subsets, table_steps)
from .unit_totals import innies_and_outies

PROBING, SEARCH = NISHIO, 9.0

# Easiest first, by rating: a person tries each in turn, and takes the first that gives a step.
LADDER: tuple[Callable[[Marks], Iterator[Step]], ...] = (
    full_houses, hidden_singles, naked_singles, table_steps, locked_candidates, innies_and_outies, cage_lines,
    subsets(2, False), fish(2), subsets(2, True), subsets(3, False), fish(3), subsets(3, True),
    single_digit_wings, xy_wings, xyz_wings, w_wings, unique_rectangles, subsets(4, False), fish(4),
    subsets(4, True), x_chains, xy_chains)
SINGLES = (full_houses, hidden_singles, naked_singles, table_steps)


def next_steps(m: Marks, every_placement: bool = False) -> list[Step]:
    """The steps of the easiest rating the first rungs of the ladder give, placements
    before removals (every placement found, with `every_placement`): a harder technique
    is looked for only when no easier one applies."""
    found: list[Step] = []
    for technique in LADDER:
        found.extend(technique(m))
        placements = [step for step in found if step.placed]
        if placements and (technique is SINGLES[-1] or not every_placement):
            return placements if every_placement else easiest(placements)
        if found and technique not in SINGLES:
            break
    return easiest(found)


def easiest(steps: list[Step]) -> list[Step]:
    lowest = min((step.rating for step in steps), default=None)
    return [step for step in steps if step.rating == lowest]


def kernel_statement(puzzle, low: int, high: int, timeout: float | None = None) -> Statement:
    """The statement of a family stated on the grid kernel (`module:module/3`, as
    sudoku:sudoku/3 and kenken:kenken/3), with digits `low`..`high`; TimeLimitExceeded
    when Prolog takes over `timeout` seconds to state it (listing the fillings of a
    huge Kakuro's runs takes minutes)."""
    family = puzzle.record.prolog
    engine.encodings(family)  # loads the family's module
    # Within Prolog's own time limit, as a search is: an alarm of Python's would break Prolog
    data = engine.call("catch(crossprolog_runs:within(T, statement:statement(M, P, L, H, S)), "
                       "time_limit_exceeded, S = timeout)",
                       {"M": family, "P": puzzle.prolog_data(), "L": low, "H": high,
                        "T": engine.seconds(timeout)}, module="statement")["S"]
    if data == "timeout":
        raise TimeLimitExceeded(timeout)
    places = tuple(tuple(place) for place in data["cells"])
    clues = puzzle.clues()
    by_cells = {frozenset(clue.cells): clue for clue in clues if clue.kind != "given"}
    givens = {clue.cell: clue for clue in clues if clue.kind == "given"}
    units = tuple(named_units(places, [tuple(u) for u in data["units"]]))
    tables = []
    for table in data["tables"]:
        cells = tuple(table["cells"])
        clue = by_cells.get(frozenset(places[i] for i in cells))
        name = clue.text if clue else f"the cage at {short(places[cells[0]])}"
        if "fillings" in table:
            tables.append(Table(cells, name, clue, fillings=tuple(tuple(f) for f in table["fillings"])))
        else:  # too many fillings to list: folded, its digits different if they share a unit
            distinct = any(set(cells) <= set(unit.cells) for unit in units)
            tables.append(Table(cells, name, clue, op=table["op"], target=table["target"], distinct=distinct))
    placed = {i: d for i, d in data["givens"]}
    placed_by = {i: givens.get(places[i]) or by_cells.get(frozenset({places[i]})) for i in placed}
    return Statement(places, tuple(map(short, places)), tuple(range(low, high + 1)), units,
                     tuple(tables), placed, {i: c for i, c in placed_by.items() if c})


def short(place: Sequence[int]) -> str:
    """A cell as solvers write it: r2c3 for row 2, column 3."""
    return f"r{place[0] + 1}c{place[1] + 1}"


def named_units(places: Sequence[Cell], units: list[tuple[Index, ...]]) -> list[Unit]:
    """Units named by their geometry: a whole row or column, a run within one, or a box
    (numbered left to right, top to bottom)."""
    length = {axis: {} for axis in (0, 1)}
    for r, c in places:
        length[0][r] = length[0].get(r, 0) + 1
        length[1][c] = length[1].get(c, 0) + 1
    boxes = sorted((u for u in units if not any(len({places[i][a] for i in u}) == 1 for a in (0, 1))),
                   key=lambda u: min(places[i] for i in u))
    named = []
    for u in units:
        for axis, word in ((0, "row"), (1, "column")):
            at = {places[i][axis] for i in u}
            if len(at) == 1:
                line = next(iter(at))
                whole = len(u) == length[axis][line]
                named.append(Unit(u, f"{word} {line + 1}" if whole else
                                  f"the {len(u)}-run at {short(places[u[0]])}", word if whole else "run"))
                break
        else:
            named.append(Unit(u, f"box {boxes.index(u) + 1}", "box"))
    return named


# The path


@dataclass(frozen=True)
class Found:
    """A cell a person can place next: the step placing it, and the earlier steps (each
    removing candidates) its reason rests on."""

    step: Step
    before: tuple[Step, ...]

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.before + (self.step,)

    @property
    def rating(self) -> float:
        return max(step.rating for step in self.steps)

    @property
    def technique(self) -> str:
        return max(self.steps, key=lambda step: step.rating).technique


def chosen(steps: list[Step]) -> Step:
    """Of steps equally easy, the one with the fewest clues, then the fewest cells."""
    return min(steps, key=lambda step: (len(step.clues), len(step.cells)))


def next_placement(statement: Statement, within: Callable[[], bool] = lambda: True) -> Found | None:
    """The easiest cell to place next and why, or None when the ladder is stuck (or the
    marks are broken: no solution).  `within()` False stops the search (None)."""
    marks = Marks(statement)
    before: list[Step] = []
    while within() and not marks.broken():
        found = next_steps(marks, every_placement=True)
        placements = [step for step in found if step.placed]
        if placements:
            return min((Found(step, tuple(s for s in before if touches(s, step))) for step in placements),
                       key=lambda found: (found.rating, len(clues_of(found.steps)), len(found.steps)))
        step = chosen(found) if found else trying(marks, within)
        if step is None:
            return None
        marks.apply(step)
        before.append(step)
    return None


def touches(earlier: Step, step: Step) -> bool:
    """Whether `earlier` removed a candidate from a cell of `step`'s reason."""
    return any(i in step.cells for i, _ in earlier.removed)


def trying(marks: Marks, within: Callable[[], bool] = lambda: True) -> Step | None:
    """The easiest step that tries candidates (forcing.py): a Nishio contradiction, else a
    cell or unit forcing chain, else a Nishio following locked candidates and pairs too.  None when there is none, or `within()` turns False."""
    for technique in (nishio(within), forcing_chains(within), nishio(within, strong=True)):
        for step in technique(marks):
            return step
    return None


def path(statement: Statement, solution: Callable[[], dict[Index, int] | None],
         within: Callable[[], bool] = lambda: True,
         steps: list[Step] | None = None) -> tuple[list[Step], bool]:
    """Every step a person takes, easiest first each time, to the end: forcing chains when
    the ladder is stuck, and past that the `solution`'s value (a search).  The steps (put
    in `steps`, if given, as they are taken: a caller may tell them while this works),
    and whether the path reached the end (False: stopped by `within`, or broken marks)."""
    marks = Marks(statement)
    steps = [] if steps is None else steps
    while not marks.solved():
        if not within() or marks.broken():
            return steps, False
        found = next_steps(marks)
        step = chosen(found) if found else trying(marks, within)
        if step is None:
            known = solution() if within() else None
            if not known:
                return steps, False
            i = min((i for i in known if i not in marks.values), key=lambda i: len(marks.cands[i]))
            step = Step("search", SEARCH, statement.names[i],
                        f"{statement.names[i]} takes {known[i]}: every other value fails, case by case",
                        (i,), placed=(i, known[i]))
        marks.apply(step)
        steps.append(step)
    return steps, True


@dataclass(frozen=True)
class Grade:
    """How hard a puzzle is for a person: the grade of the hardest technique its easiest
    path needs, that technique, its rating, and the path's steps (placements and removals)."""

    grade: str
    technique: str
    rating: float
    steps: int
    placements: int

    def to_json(self) -> dict:
        return {"grade": self.grade, "technique": self.technique, "rating": self.rating,
                "steps": self.steps, "placements": self.placements}


def graded(steps: Sequence[Step]) -> Grade:
    hardest = max(steps, key=lambda step: step.rating, default=None)
    rating = hardest.rating if hardest else 0.0
    return Grade(grade_name(rating), hardest.technique if hardest else "none", rating, len(steps),
                 sum(1 for step in steps if step.placed))


def clues_of(steps: Sequence[Step]) -> tuple[Clue, ...]:
    return tuple(dict.fromkeys(clue for step in steps for clue in step.clues))


def grade_of(puzzle, within: Callable[[], bool] = lambda: True) -> tuple[Grade, bool] | None:
    """The grade of `puzzle` (an Explainable) and whether its path reached the end; None
    for a family that states no rules for techniques."""
    statement = puzzle.statement()
    if statement is None:
        return None
    known: list = []

    def solution() -> dict[Index, int] | None:
        if not known:
            found = puzzle.solve()
            grid = found.to_json() if found else None
            known.append(grid and {i: grid[r][c] for i, (r, c) in enumerate(statement.places)})
        return known[0]

    steps, done = path(statement, solution, within)
    return graded(steps), done


def of_grade(puzzles, grade: str, n: int, puzzle_of=lambda item: item):
    """The first `n` of `puzzles` whose grade is `grade` (one of grades.GRADES' names); or of any
    items, each graded by the puzzle `puzzle_of` it gives."""
    made = 0
    for puzzle in puzzles:
        found = grade_of(puzzle_of(puzzle))
        if found and found[1] and found[0].grade == grade:
            yield puzzle
            made += 1
            if made == n:
                return
