"""Sudoku: every row, column and 3×3 box holds the same nine distinct digits.

The digits are 1-9 by default, or nine chosen from a range of ten (0-9: one
digit is left out, the same in every unit).  An objective asks for the grid
whose nine row (or column) numbers, read as 9-digit numbers with leading
zeros allowed, have the greatest common divisor; the solutions of such a
puzzle are exactly its optimal grids.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Collection, Iterator, Mapping, NamedTuple

from . import making, solving
from .drawing import checked_format
from .errors import InvalidValue, UsageError
from .answers import NO_MARKS, Clue, Solution
from .explain import Explainable
from .puzzle import integer, rows_of
from .scene import Boxes, Markable, Scene, Square, Table, Token, given_or_solved, marking

SIZE = 9
Digit = int
Cell = Digit | None  # None: unknown
Givens = tuple[tuple[Cell, ...], ...]
Grid = tuple[tuple[Digit, ...], ...]
OBJECTIVES = ("gcd(rows)", "gcd(cols)")
WRITTEN = ("spaced", "compact", "line")  # cells apart (1 . 3), together (1.3), or 81 on one line
BOXES = tuple(frozenset((r + i, c + j) for i in range(3) for j in range(3))
              for r in (0, 3, 6) for c in (0, 3, 6))


@dataclass(frozen=True)
class DigitSet:
    """Nine digits chosen from `low`..`high`: the whole range when it holds nine, else one left out."""

    low: int = 1
    high: int = 9

    def __post_init__(self) -> None:
        object.__setattr__(self, "low", integer(self.low, "the lowest digit"))
        object.__setattr__(self, "high", integer(self.high, "the highest digit"))
        if not 0 <= self.low <= self.high <= 9 or self.high - self.low + 1 not in (9, 10):
            raise InvalidValue("a digit set is nine or ten consecutive digits within 0-9")

    @property
    def chosen(self) -> bool:
        """Whether the grid chooses its nine digits (one of the range is left out)."""
        return self.high - self.low + 1 > SIZE

    def __contains__(self, digit: object) -> bool:
        return isinstance(digit, int) and self.low <= digit <= self.high

    def __str__(self) -> str:
        """The set as its directive writes it: `1-9`, `0-9 choose 9`."""
        return f"{self.low}-{self.high}" + (f" choose {SIZE}" if self.chosen else "")


CLASSIC = DigitSet()


class Filling(NamedTuple):
    """A solved grid, and the GCD of its lines when the puzzle has an objective (the
    search gives optimal grids only, so it is the proved optimum)."""

    grid: Grid
    gcd: int | None = None


@dataclass(frozen=True)
class Sudoku(Explainable):
    """A 9×9 grid of givens (None: unknown), its digit set and its objective.

    `objective` is None, "gcd(rows)" or "gcd(cols)".  `unknown` (the mark of
    an unknown cell), `boxes` (whether box separators are drawn) and `written`
    (one of WRITTEN: a row's cells apart, together, or all 81 on one line)
    remember how the puzzle was written, so a solution is drawn the same way.
    """

    givens: Givens
    digits: DigitSet = CLASSIC
    objective: str | None = None
    layout: str = field(default="text", compare=False)
    unknown: str = field(default=".", compare=False)
    boxes: bool = field(default=True, compare=False)
    written: str = field(default="spaced", compare=False)

    family = "sudoku"

    def __post_init__(self) -> None:
        """Refuse, with InvalidValue, what cannot be a puzzle.  A given is a digit of
        the set (numpy's integers are fine); None is unknown, and so is 0 where 0 is
        not one of the digits."""
        if not isinstance(self.digits, DigitSet):
            raise InvalidValue(f"digits must be a DigitSet, not {self.digits!r}")
        givens = rows_of(self.givens, "givens")
        if len(givens) != SIZE or any(len(row) != SIZE for row in givens):
            raise InvalidValue("a sudoku has 9 rows of 9 cells")
        object.__setattr__(self, "givens", tuple(tuple(self._given(d, r, c) for c, d in enumerate(row))
                                                 for r, row in enumerate(givens)))
        if self.objective not in (None, *OBJECTIVES):
            raise InvalidValue(f"the objective must be one of {OBJECTIVES} or None")
        checked_format(self.layout)
        if self.unknown not in self.unknown_marks():
            raise InvalidValue(f"the unknown mark is one of {self.unknown_marks()}, not {self.unknown!r}")
        if self.written not in WRITTEN:
            raise InvalidValue(f"written must be one of {WRITTEN}, not {self.written!r}")

    def _given(self, value, r: int, c: int) -> Cell:
        if value is None:
            return None
        digit = integer(value, f"givens[{r}][{c}]")
        if digit == 0 and 0 not in self.digits:
            return None
        if digit not in self.digits:
            raise InvalidValue(f"givens[{r}][{c}] is {digit}, not one of the digits {self.digits}")
        return digit

    def unknown_marks(self) -> tuple[str, ...]:
        """The marks of an unknown cell: '.', '_' and '?', and '0' where 0 is not a digit."""
        return (".", "_", "?") + (() if 0 in self.digits else ("0",))

    @classmethod
    def empty(cls, **options) -> Sudoku:
        """The puzzle with no givens."""
        return cls(((None,) * SIZE,) * SIZE, **options)

    def prolog_data(self) -> dict:
        givens = [[r, c, d] for r, row in enumerate(self.givens)
                  for c, d in enumerate(row) if d is not None]
        return {"givens": givens, "low": self.digits.low, "high": self.digits.high,
                "objective": self.objective or "none"}

    def solution_values(self, answer: list) -> Filling:
        grid = tuple(tuple(row) for row in answer)
        return Filling(grid, math.gcd(*self.line_numbers(grid)) if self.objective else None)

    def answer_shape(self) -> tuple[int, int]:
        return SIZE, SIZE

    def solution_json(self, solution: Solution) -> list[list[int]]:
        return [list(row) for row in solution.values.grid]

    def solution_extras(self, solution: Solution) -> dict:
        if self.objective is None:
            return {}
        return {"objective": {"gcd": solution.values.gcd, "optimal": solution.proved}}

    @property
    def optimizes(self) -> bool:
        return self.objective is not None

    # Clues and cells, for explanations: the clues are the givens; the units are the rules.

    def clues(self) -> tuple[Clue, ...]:
        return tuple(Clue("given", f"the {d} at row {r + 1}, column {c + 1}", cell=(r, c),
                          cells=frozenset({(r, c)}))
                     for r, row in enumerate(self.givens) for c, d in enumerate(row) if d is not None)

    def statement(self, *, timeout: float | None = None) -> solving.Statement:
        return solving.kernel_statement(self, self.digits.low, self.digits.high, timeout)

    def cell_name(self, cell: tuple[int, int]) -> str:
        """`row 2, column 3 (box 1)`: boxes numbered left to right, top to bottom."""
        return f"row {cell[0] + 1}, column {cell[1] + 1} (box {cell[0] // 3 * 3 + cell[1] // 3 + 1})"

    def keeping(self, clues: Collection[Clue]) -> Sudoku:
        kept = {clue.cell for clue in clues}
        return replace(self, givens=tuple(tuple(d if (r, c) in kept else None for c, d in enumerate(row))
                                          for r, row in enumerate(self.givens)))

    def open_cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r, row in enumerate(self.givens) for c, d in enumerate(row) if d is None]

    def placing(self, values: Mapping[tuple[int, int], int]) -> Sudoku:
        return replace(self, givens=tuple(tuple(values.get((r, c), d) for c, d in enumerate(row))
                                          for r, row in enumerate(self.givens)))

    def line_numbers(self, grid: Grid) -> list[int]:
        """The numbers the objective's lines spell in `grid`: rows, or columns top to bottom."""
        lines = grid if self.objective != "gcd(cols)" else tuple(zip(*grid))
        return [int("".join(map(str, line))) for line in lines]

    # Drawings

    def drawn_scene(self, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
        """The 9×9 grid, its boxes walled, written as the puzzle was (apart, together, on
        one line, with or without box rules); a solved objective's notes below."""
        marked = marking(marks)
        filled = solution.values.grid if solution is not None else self.givens
        squares = tuple(
            Square((r, c), "" if d is None else str(d),
                   given_or_solved(self.givens[r][c] is not None, d is not None)
                   | marked.cell((r, c)),
                   self.unknown if d is None else str(d))
            for r, row in enumerate(filled) for c, d in enumerate(row))
        notes = self._objective_lines(solution, "# ")
        layout = Boxes(apart=" " if self.written == "spaced" else "", ruled=self.boxes,
                       line=self.written == "line")
        return Scene(self.family, SIZE, SIZE, squares, regions=BOXES,
                     before=tuple(map(Token, self.directives())), after=tuple(map(Token, notes)),
                     caption=tuple(line.removeprefix("# ") for line in self.directives() + notes), layout=layout,
                     markdown=Table(blank_header=True, footer=True))

    def _objective_lines(self, solution: Solution | None, mark: str) -> list[str]:
        """What a solved objective reports: its proved GCD and the middle line's number."""
        if solution is None or self.objective is None:
            return []
        middle = self.line_numbers(solution.values.grid)[SIZE // 2]
        line = "row" if self.objective == "gcd(rows)" else "column"
        proof = "proved optimal" if solution.proved else "the best found in time, not proved optimal"
        return [f"{mark}{self.objective} = {solution.values.gcd}, {proof}",
                f"{mark}middle {line}: {middle:09d}"]


# Random puzzles (classic digits, no objective)


def random_grid(rng: random.Random) -> Grid:
    """A random full grid: a fixed valid pattern with its digits relabelled, its rows
    shuffled within bands, its bands shuffled, the same for columns, maybe transposed."""
    def shuffled_lines() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [3 * band + line for band in bands for line in rng.sample(range(3), 3)]

    digits = rng.sample(range(1, SIZE + 1), SIZE)
    rows, columns = shuffled_lines(), shuffled_lines()
    grid = [[digits[(3 * (r % 3) + r // 3 + c) % SIZE] for c in columns] for r in rows]
    if rng.random() < 0.5:
        grid = [list(column) for column in zip(*grid)]
    return tuple(map(tuple, grid))


def checked_size(rows: int, cols: int, digits: DigitSet, objective: str | None) -> None:
    """UsageError unless the generators can make such puzzles: classic 9x9 only."""
    if (rows, cols) != (SIZE, SIZE):
        raise UsageError(f"a sudoku is {SIZE}x{SIZE}: --rows {SIZE} --cols {SIZE}, not {rows}x{cols}")
    if digits != CLASSIC or objective is not None:
        raise UsageError("generated sudokus are classic: digits 1-9, no objective")


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None,
                   digits: DigitSet = CLASSIC, objective: str | None = None) -> Iterator[Sudoku]:
    """`n` random grids with each cell given at random, one in three (several solutions
    likely; see `well_formed_puzzles` for puzzles with one)."""
    checked_size(rows, cols, digits, objective)
    rng = random.Random(seed)
    for _ in range(n):
        grid = random_grid(rng)
        yield Sudoku(tuple(tuple(d if rng.random() < 1 / 3 else None for d in row) for row in grid))


def well_formed_puzzles(rows: int, cols: int, n: int, seed: int | None = None,
                        digits: DigitSet = CLASSIC, objective: str | None = None) -> Iterator[Sudoku]:
    """`n` puzzles with exactly one solution: from a random full grid, givens removed in
    random order while the solution stays unique (`making.well_formed`)."""
    checked_size(rows, cols, digits, objective)
    rng = random.Random(seed)

    def drawn() -> Sudoku | None:
        grid = random_grid(rng)
        full = Sudoku(grid)
        return making.well_formed(full, [list(row) for row in grid], rng, shown=full.clues())

    yield from making.made_puzzles(drawn, n, "Sudoku")
