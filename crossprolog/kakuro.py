"""Kakuro: a grid of black and white cells; every white cell holds a digit 1-9, and
the digits of every run (the white cells right of, or below, a black cell's clue)
are different and add up to the clue.

A black cell carries a down clue (the run below it), an across clue (the run
to its right), both, or none.  Digits already placed are givens.  A solution's
grid has 0 in every black cell.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import Any, Collection, Iterator, Mapping, NamedTuple, Sequence

from . import making, solving
from .answers import NO_MARKS, Clue, Solution
from .drawing import checked_format
from .errors import InvalidValue
from .explain import Explainable
from .puzzle import clue_number, integer, rows_of
from .scene import Markable, Scene, Square, Token, given_or_solved, marking

Digit = int
Place = tuple[int, int]  # (row, column), 0-based
LONGEST = 9  # a run's digits are different digits 1-9
ACROSS, DOWN = "across", "down"
STEP = {ACROSS: (0, 1), DOWN: (1, 0)}


@cache
def sum_range(cells: int) -> range:
    """The sums `cells` different digits 1-9 can make."""
    return range(cells * (cells + 1) // 2, cells * (19 - cells) // 2 + 1)


def reach(sums: range) -> str:
    """The sums a run's (or a cage's) digits can make, in words: `only 45`, `3 to 17`."""
    return f"only {sums.start}" if len(sums) == 1 else f"{sums.start} to {sums.stop - 1}"


@dataclass(frozen=True)
class Black:
    """A black cell and its clues: the sum of the run below it (`down`) and of the run
    to its right (`across`), None where it has none."""

    down: int | None = None
    across: int | None = None

    def __post_init__(self) -> None:
        for key in ("down", "across"):
            value = getattr(self, key)
            if value is not None:
                value = clue_number(value, f"a black cell's {key} clue")
                if value < 1:
                    raise InvalidValue(f"a clue is a positive integer, not {value}")
                object.__setattr__(self, key, value)

    def clue(self, direction: str) -> int | None:
        return self.down if direction == DOWN else self.across

    @property
    def text(self) -> str:
        """As the layout writes it: `X`, `16\\`, `\\7`, `16\\7`."""
        if self.down is None and self.across is None:
            return "X"
        return f"{'' if self.down is None else self.down}\\{'' if self.across is None else self.across}"


class Run(NamedTuple):
    """The white cells after a black cell's clue, one way: where the clue stands, which
    way the run goes, its cells in order, and its sum (None: no clue)."""

    clue_at: Place
    direction: str
    cells: tuple[Place, ...]
    total: int | None

    @property
    def name(self) -> str:
        """Its name among the clues: where its clue stands, and which way (`r2c1a`)."""
        return f"r{self.clue_at[0] + 1}c{self.clue_at[1] + 1}{self.direction[0]}"

    @property
    def called(self) -> str:
        """How explanations name it: `the 16-run in row 2 (columns 3-4)`."""
        (r0, c0), (r1, c1) = self.cells[0], self.cells[-1]
        total = "" if self.total is None else f"{self.total}-"
        if self.direction == ACROSS:
            return f"the {total}run in row {r0 + 1} (columns {c0 + 1}-{c1 + 1})"
        return f"the {total}run in column {c0 + 1} (rows {r0 + 1}-{r1 + 1})"


Cell = Black | Digit | None  # None: a white cell not known yet


def runs_of(cells: Sequence[Sequence[Cell]]) -> tuple[Run, ...]:
    """Every run of a grid of cells in reading order of its clue's place, across before
    down: the white cells after each black cell that has a clue, or that starts two
    or more white cells (a run it gives no clue)."""
    rows, columns = black_lines(cells)
    height, width = len(rows), len(columns)
    found = []
    for r, line in enumerate(rows):
        c = line.find(BLACK)
        while c >= 0:
            cell = cells[r][c]
            right, below = line.find(BLACK, c + 1), columns[c].find(BLACK, r + 1)
            right, below = width if right < 0 else right, height if below < 0 else below
            if cell.across is not None or right - c > 2:
                found.append(Run((r, c), ACROSS, tuple([(r, k) for k in range(c + 1, right)]), cell.across))
            if cell.down is not None or below - r > 2:
                found.append(Run((r, c), DOWN, tuple([(k, c) for k in range(r + 1, below)]), cell.down))
            c = right if right < width else -1
    return tuple(found)


def unled_of(cells: Sequence[Sequence[Cell]]) -> list[tuple[str, tuple[Place, ...]]]:
    """The rows or columns of two or more white cells at the grid's edge, across before
    down: no black cell before them holds their clue."""
    rows, columns = black_lines(cells)
    found = []
    for direction, lines in ((ACROSS, rows), (DOWN, columns)):
        for k, line in enumerate(lines):
            length = line.find(BLACK) if BLACK in line else len(line)
            if length > 1:
                found.append((direction, tuple((k, i) if direction == ACROSS else (i, k) for i in range(length))))
    return found


BLACK = "#"


def black_lines(cells: Sequence[Sequence[Cell]]) -> tuple[list[str], list[str]]:
    """The rows and the columns of a grid as strings, BLACK for a black cell, '.' for a
    white one: where runs start and end is found by `str.find`."""
    rows = ["".join([BLACK if isinstance(cell, Black) else "." for cell in row]) for row in cells]
    return rows, ["".join(column) for column in zip(*rows)]


@dataclass(frozen=True)
class Kakuro(Explainable):
    """A grid of cells, row by row: Black cells (with their clues), and white ones, each
    a given digit or None.  Every maximal row or column of two or more white cells is
    a run, and the black cell just before it holds its clue; a clue over no white cell,
    or a run longer than nine cells, cannot be."""

    cells: tuple[tuple[Cell, ...], ...]
    layout: str = field(default="text", compare=False)

    family = "kakuro"

    def __post_init__(self) -> None:
        """Refuse, with InvalidValue, what cannot be a Kakuro: rows of different lengths,
        a white cell's digit outside 1-9, a clue with no white cell after it, a run of
        more than nine cells."""
        rows = rows_of(self.cells, "the cells")
        if not rows or not rows[0] or any(len(row) != len(rows[0]) for row in rows):
            raise InvalidValue("a Kakuro's cells are rows of the same length, at least one cell")
        object.__setattr__(self, "cells", tuple(tuple(self._cell(cell, r, c) for c, cell in enumerate(row))
                                                for r, row in enumerate(rows)))
        for run in self.runs():
            if not run.cells:
                raise InvalidValue(f"the {run.direction} clue at row {run.clue_at[0] + 1}, column "
                                   f"{run.clue_at[1] + 1} has no white cell after it")
            if len(run.cells) > LONGEST:
                raise InvalidValue(f"{run.called} has {len(run.cells)} cells; a run has at most {LONGEST}")
        checked_format(self.layout)

    @staticmethod
    def _cell(value: Any, r: int, c: int) -> Cell:
        if value is None or isinstance(value, Black):
            return value
        digit = integer(value, f"cells[{r}][{c}]")
        if not 1 <= digit <= 9:
            raise InvalidValue(f"cells[{r}][{c}] is {digit}, not a digit 1-9")
        return digit

    @property
    def height(self) -> int:
        return len(self.cells)

    @property
    def width(self) -> int:
        return len(self.cells[0])

    def is_white(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width and not isinstance(self.cells[r][c], Black)

    def runs(self) -> list[Run]:
        """Every run in reading order of its clue's place, across before down: the white
        cells after each black cell that has a clue, or that starts two or more white
        cells (a run it gives no clue)."""
        return list(self._runs)

    @cached_property
    def _runs(self) -> tuple[Run, ...]:
        return runs_of(self.cells)

    def unled(self) -> list[tuple[str, tuple[Place, ...]]]:
        """The rows or columns of two or more white cells at the grid's edge: no black
        cell before them holds their clue."""
        return unled_of(self.cells)

    @classmethod
    def from_checked(cls, cells: tuple[tuple[Cell, ...], ...], runs: tuple[Run, ...],
                     layout: str = "text") -> Kakuro:
        """The puzzle of cells already as `__post_init__` leaves them and their runs
        (`runs_of(cells)`, checked), made without computing or checking them again:
        for a grammar that has."""
        puzzle = object.__new__(cls)
        vars(puzzle).update(cells=cells, layout=layout, _runs=runs)
        return puzzle

    def prolog_data(self) -> dict:
        return {"height": self.height, "width": self.width,
                "black": [[r, c] for r, row in enumerate(self.cells) for c, cell in enumerate(row)
                          if isinstance(cell, Black)],
                "runs": [{"cells": [list(p) for p in run.cells],
                          **({} if run.total is None else {"sum": run.total})}
                         for run in self.runs()] + [{"cells": [list(p) for p in cells]}
                                                    for _, cells in self.unled()],
                "givens": [[r, c, d] for r, row in enumerate(self.cells) for c, d in enumerate(row)
                           if isinstance(d, int)]}

    def solution_values(self, answer) -> tuple[tuple[Digit, ...], ...]:
        return tuple(tuple(row) for row in answer)

    def answer_shape(self) -> tuple[int, int]:
        return self.height, self.width

    def holds(self, grid: Sequence[Sequence[Digit]]) -> bool:
        """Whether `grid` is a solution: 0 in the black cells, 1-9 in the white ones,
        agreeing with the givens, every run's digits different and adding up to its clue."""
        for r, row in enumerate(self.cells):
            for c, cell in enumerate(row):
                if (grid[r][c] != 0) if isinstance(cell, Black) else not (
                        1 <= grid[r][c] <= 9 and cell in (None, grid[r][c])):
                    return False
        lines = [run.cells for run in self.runs()] + [cells for _, cells in self.unled()]
        return (all(len({grid[r][c] for r, c in cells}) == len(cells) for cells in lines)
                and all(run.total is None or sum(grid[r][c] for r, c in run.cells) == run.total
                        for run in self.runs()))

    # Drawing: one token a cell, in columns.

    def drawn_scene(self, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
        """The grid: black cells shaded, their clues split by the diagonal, white cells
        with their digits.  As text: one line per row, cells apart in right-aligned
        columns: `X` or the clues of a black cell (`16\\7`), a white cell's digit or
        `.`; a marked cell or clue in brackets (a marked run marks the black cell
        whose clue it is)."""
        marked = marking(marks)
        values = solution.values if solution is not None else None

        def square(r: int, c: int) -> Square:
            cell = self.cells[r][c]
            if isinstance(cell, Black):
                down, across = (marked.clue_of("run", name=f"r{r + 1}c{c + 1}{way}") for way in "da")
                split = None if cell.text == "X" else (
                    Token("" if cell.down is None else str(cell.down), down),
                    Token("" if cell.across is None else str(cell.across), across))
                return Square((r, c), "", down | across, cell.text, split=split, shaded=True)
            digit = values[r][c] if values is not None else cell
            value = "" if digit is None else str(digit)
            return Square((r, c), value, given_or_solved(cell is not None, bool(value))
                          | marked.cell((r, c)), value or ".")

        directives = self.directives()
        return Scene(self.family, self.height, self.width,
                     tuple(square(r, c) for r in range(self.height) for c in range(self.width)),
                     before=tuple(map(Token, directives)),
                     caption=tuple(line.removeprefix("# ") for line in directives))

    def drawing_template(self) -> list[list[Any]]:
        """As `render` draws a solution: the black cells' text, the white cells' digits."""
        at = self.scene().square_at()
        grid = [[at[r, c].text for c in range(self.width)] for r in range(self.height)]
        widths = [max(len(row[c]) for row in grid) for c in range(self.width)]
        lines = []
        for r in range(self.height):
            parts: list[Any] = []
            for c in range(self.width):
                gap = " " if c else ""
                if isinstance(self.cells[r][c], Black):
                    parts.append(gap + grid[r][c].rjust(widths[c]))
                else:
                    parts += [gap + " " * (widths[c] - 1), {"at": [r, c]}]
            lines.append([part for part in parts if part != ""])
        return lines

    # Clues and cells, for explanations: the runs' sums and the placed digits.

    def statement(self, *, timeout: float | None = None) -> solving.Statement:
        """Its rules as the hint techniques read them: its kernel statement."""
        return solving.kernel_statement(self, 1, 9, timeout)

    def clues(self) -> tuple[Clue, ...]:
        runs = [Clue("run", run.called, name=run.name, cells=frozenset(run.cells))
                for run in self.runs() if run.total is not None]
        givens = [Clue("given", f"the {d} at row {r + 1}, column {c + 1}", cell=(r, c),
                       cells=frozenset({(r, c)}))
                  for r, row in enumerate(self.cells) for c, d in enumerate(row) if isinstance(d, int)]
        return tuple(runs + givens)

    def keeping(self, clues: Collection[Clue]) -> Kakuro:
        """Only `clues`: a run whose sum is left out keeps its digits different."""
        kept = {clue.name if clue.kind == "run" else clue.cell for clue in clues}

        def cell(r: int, c: int, value: Cell) -> Cell:
            if isinstance(value, Black):
                return Black(value.down if f"r{r + 1}c{c + 1}d" in kept else None,
                             value.across if f"r{r + 1}c{c + 1}a" in kept else None)
            return value if (r, c) in kept else None

        return replace(self, cells=tuple(tuple(cell(r, c, value) for c, value in enumerate(row))
                                         for r, row in enumerate(self.cells)))

    def stated(self, clue: Clue) -> tuple[int, ...]:
        """A run's sum (its text also names where it is), or what another clue states."""
        return (self._run(clue).total,) if clue.kind == "run" else super().stated(clue)

    def retyped(self, clue: Clue, numbers: Sequence[int]) -> Kakuro | None:
        """The puzzle with the run of `clue` summing to `numbers[0]`, or a given another digit."""
        if clue.kind != "run":
            return super().retyped(clue, numbers)
        run = self._run(clue)
        (r, c), black = run.clue_at, replace(self.cells[run.clue_at[0]][run.clue_at[1]],
                                             **{run.direction: numbers[0]})
        return replace(self, cells=tuple(tuple(black if (i, j) == (r, c) else value for j, value in enumerate(row))
                                         for i, row in enumerate(self.cells)))

    def clue_reading(self, clue: Clue, solution: Solution) -> str | None:
        """A run as `solution` fills it (`the 16-run in row 2 (columns 3-4)`; None when a
        digit repeats in it: no sum makes them a run), or a given."""
        if clue.kind != "run":
            return super().clue_reading(clue, solution)
        grid = solution.to_json()
        run = self._run(clue)
        digits = [grid[r][c] for r, c in run.cells]
        return run._replace(total=sum(digits)).called if len(set(digits)) == len(digits) else None

    def _run(self, clue: Clue) -> Run:
        return next(run for run in self.runs() if run.name == clue.name)

    def open_cells(self) -> list[Place]:
        return [(r, c) for r, row in enumerate(self.cells) for c, cell in enumerate(row) if cell is None]

    def placing(self, values: Mapping[Place, int]) -> Kakuro:
        return replace(self, cells=tuple(tuple(values.get((r, c), cell) for c, cell in enumerate(row))
                                         for r, row in enumerate(self.cells)))


# Random puzzles


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[Kakuro]:
    """`n` random `rows`×`cols` Kakuros: a random pattern of black and white cells
    (the first row and column black, every run two to nine cells), filled with random
    digits, each run's sum its clue (several solutions possible; see
    `well_formed_puzzles`).  Deterministic for a given seed."""
    making.checked_size("Kakuro", rows, cols, 3, 20)
    rng = random.Random(seed)
    for _ in range(n):
        yield clued(*random_filling(rows, cols, rng), rows, cols)


def well_formed_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[Kakuro]:
    """`n` Kakuros with exactly one solution: a random one, every clue shown, and the
    fewest givens it needs (often none): givens revealed where a second solution
    differs, then each hidden when the solution stays unique (`making.well_formed`)."""
    making.checked_size("Kakuro", rows, cols, 3, 20)
    rng = random.Random(seed)

    def drawn() -> Kakuro | None:
        white, digits = random_filling(rows, cols, rng)
        full = clued(white, digits, rows, cols).placing(digits)
        intended = [[digits.get((r, c), 0) for c in range(cols)] for r in range(rows)]
        return making.well_formed(full, intended, rng)

    yield from making.made_puzzles(drawn, n, f"{rows}x{cols} Kakuro")


def clued(white: set[Place], digits: dict[Place, Digit], rows: int, cols: int) -> Kakuro:
    """The `rows`×`cols` Kakuro whose white cells are `white`, each black cell clued with
    the sums `digits` make in the runs after it."""
    def run_sum(r: int, c: int, dr: int, dc: int) -> int | None:
        cells = lined((r + dr, c + dc), white, dr, dc) if (r + dr, c + dc) in white else []
        return sum(digits[p] for p in cells) if len(cells) > 1 else None

    return Kakuro(tuple(tuple(None if (r, c) in white else Black(run_sum(r, c, 1, 0), run_sum(r, c, 0, 1))
                              for c in range(cols)) for r in range(rows)))


def random_filling(rows: int, cols: int, rng: random.Random) -> tuple[set[Place], dict[Place, Digit]]:
    """A random pattern of white cells in a `rows`×`cols` grid, and digits for them that
    no run repeats.  The pattern reaches the last row and column, and keeps at least a
    third of the cells past the first row and column white: pruning its runs may
    leave a corner of four cells (a 5x5 of seed 1 did), no puzzle of that size."""
    while True:
        white = random_pattern(rows, cols, rng)
        if 3 * len(white) >= (rows - 1) * (cols - 1) and (digits := random_digits(white, rng)) is not None:
            if max(r for r, _ in white) == rows - 1 and max(c for _, c in white) == cols - 1:
                return white, digits


# The longest run a generated puzzle has: any the rules allow.  (It was five while
# the kernel's sums were tables of every ordering of their digits, and loose
# puzzles with longer runs took it seconds to minutes; see docs/families/kakuro.md.)
GENERATED_LONGEST = LONGEST


def random_pattern(rows: int, cols: int, rng: random.Random) -> set[Place]:
    """White cells, about four in five, none in the first row or column; then black
    again until every white cell's row and column runs have two to GENERATED_LONGEST
    cells."""
    white = {(r, c) for r in range(1, rows) for c in range(1, cols) if rng.random() < 0.8}
    while True:
        bad = [place for place in sorted(white)
               for line in (lined(place, white, 0, 1), lined(place, white, 1, 0))
               if not 2 <= len(line) <= GENERATED_LONGEST]
        if not bad:
            return white
        white.discard(rng.choice(bad))


def lined(place: Place, white: set[Place], dr: int, dc: int) -> list[Place]:
    """The run through `place` one way: the white cells joined to it in a line."""
    r, c = place
    while (r - dr, c - dc) in white:
        r, c = r - dr, c - dc
    cells = []
    while (r, c) in white:
        cells.append((r, c))
        r, c = r + dr, c + dc
    return cells


def random_digits(white: set[Place], rng: random.Random) -> dict[Place, Digit] | None:
    """Random digits for the white cells, none twice in a run (None after too long a try)."""
    order = sorted(white)
    digits: dict[Place, Digit] = {}
    tries = [0]

    def fill(k: int) -> bool:
        if k == len(order):
            return True
        tries[0] += 1
        if tries[0] > 20_000:
            return False
        place = order[k]
        taken = {digits.get(p) for p in lined(place, white, 0, 1) + lined(place, white, 1, 0)}
        for digit in rng.sample(range(1, 10), 9):
            if digit not in taken:
                digits[place] = digit
                if fill(k + 1):
                    return True
                del digits[place]
        return False

    return digits if fill(0) else None
