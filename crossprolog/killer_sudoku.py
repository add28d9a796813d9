"""Killer Sudoku: a Sudoku (every row, column and box holds 1..N once) cut into
cages; the digits of a cage are different and add up to its sum.

Grids are 4x4 (2x2 boxes), 6x6 (boxes of 2 rows by 3 columns) or 9x9 (3x3).
The model keeps the cages apart from how they were drawn (the letter each
carries), so a solution is drawn in the layout the puzzle came in.  Digits
already placed are `givens`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Iterator, Sequence

from . import making, solving
from .answers import NO_MARKS, Clue, Solution
from .drawing import checked_format
from .errors import InvalidValue, UsageError
from .caged import LETTERS, CagedGrid, cage_cells
from .explain import Explainable
from .puzzle import clue_number, integer
from .regions import neighbours
from .scene import (UNMARKED, Keyed, Markable, Scene, Square, Token, Walled, given_or_solved,
                    marking)

Digit = int
Place = tuple[int, int]  # (row, column), 0-based
Grid = tuple[tuple[Digit, ...], ...]
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}  # size: (rows, columns) of a box
GAME = "killer-sudoku"  # the value of its `# game:` directive


@cache
def sum_range(cells: int, size: int) -> range:
    """The sums `cells` different digits of 1..size can make."""
    return range(cells * (cells + 1) // 2, cells * (2 * size - cells + 1) // 2 + 1)


@dataclass(frozen=True)
class Cage:
    """Cells in reading order and the sum of their digits.  `name` is its letter in the
    layout ("" until drawn)."""

    cells: tuple[Place, ...]
    total: int
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        """Refuse, with InvalidValue, cells that are not pairs of integers, or a sum that
        is not a positive integer."""
        object.__setattr__(self, "cells", cage_cells(self.cells))
        object.__setattr__(self, "total", clue_number(self.total, "a cage's sum"))
        if self.total < 1:
            raise InvalidValue(f"a cage's sum is a positive integer, not {self.total}")

    @property
    def clue(self) -> str:
        """The sum, as its clue line writes it."""
        return str(self.total)

    def holds(self, digits: Sequence[Digit]) -> bool:
        """Whether `digits` (one per cell) are different and add up to the sum."""
        return self.made(digits) == self.total

    def made(self, digits: Sequence[Digit]) -> int | None:
        """The sum `digits` make; None when a digit repeats (no sum makes them a cage)."""
        return sum(digits) if len(set(digits)) == len(digits) else None


@dataclass(frozen=True)
class KillerSudoku(CagedGrid, Explainable):
    """A `size`×`size` Sudoku (4, 6 or 9) cut into `cages`, and the digits already placed
    (`givens`, a grid of Digit or None; all unknown when left out).  A cell in no cage
    is bound by its row, column and box alone."""

    cage_number = "total"

    size: int
    cages: tuple[Cage, ...]
    givens: tuple[tuple[Digit | None, ...], ...] = None  # type: ignore[assignment]
    layout: str = field(default="text", compare=False)
    drawn: bool = field(default=False, compare=False)  # cages walled in, not lettered
    compact: bool = field(default=False, compare=False)  # a row's letters written together
    game: str = field(default=GAME, compare=False)  # what its directive says
    below: tuple[tuple[str, str], ...] = field(default=(), compare=False)  # as typed: CagedGrid.clue_lines

    family = "killer_sudoku"

    def __post_init__(self) -> None:
        """Refuse, with InvalidValue, what cannot be a Killer Sudoku: a size other than
        4, 6 or 9, cages outside the grid or overlapping, givens of another shape or
        outside 1..size."""
        object.__setattr__(self, "size", integer(self.size, "a Killer Sudoku's size"))
        if self.size not in BOXES:
            raise InvalidValue(f"a Killer Sudoku is 4x4, 6x6 or 9x9, not {self.size}x{self.size}")
        self.check_cages_and_givens(Cage)
        checked_format(self.layout)

    @property
    def box(self) -> tuple[int, int]:
        """The rows and columns of a box."""
        return BOXES[self.size]

    def prolog_data(self) -> dict:
        return {"size": self.size, "box": list(self.box),
                "cages": [{"cells": [list(p) for p in cage.cells], "sum": cage.total}
                          for cage in self.cages],
                "givens": [[r, c, d] for r, row in enumerate(self.givens)
                           for c, d in enumerate(row) if d is not None]}

    def units(self) -> list[list[Place]]:
        """The rows, columns and boxes, each a list of places."""
        n, (height, width) = self.size, self.box
        return ([[(r, c) for c in range(n)] for r in range(n)]
                + [[(r, c) for r in range(n)] for c in range(n)]
                + [[(top + r, left + c) for r in range(height) for c in range(width)]
                   for top in range(0, n, height) for left in range(0, n, width)])

    def holds(self, grid: Sequence[Sequence[Digit]]) -> bool:
        """Whether `grid` is a solution: every unit holds 1..size, every cage its sum,
        agreeing with the givens."""
        digits = set(range(1, self.size + 1))
        return (all({grid[r][c] for r, c in unit} == digits for unit in self.units())
                and all(cage.holds([grid[r][c] for r, c in cage.cells]) for cage in self.cages)
                and all(g is None or g == d for grow, row in zip(self.givens, grid)
                        for g, d in zip(grow, row)))

    def obvious_conflict(self) -> tuple[Clue, ...] | None:
        """Every cage, when the cages cover the grid and their sums do not add up to the
        digits of all its rows."""
        covered = sum(len(cage.cells) for cage in self.cages) == self.size ** 2
        if covered and sum(cage.total for cage in self.cages) != self.size ** 2 * (self.size + 1) // 2:
            return tuple(clue for clue in self.clues() if clue.kind == "cage")
        return None

    # Drawing: the cage letters, the sums, then the digits; or the cages walled in.

    def drawn_scene(self, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
        """The grid, its boxes walled, its cages outlined, each cage's sum in its first
        cell.  As text: the directive, the grid of cage letters (apart or together, as
        written), one sum line per cage in the order they were typed in, with the
        comments and blank lines typed among them (`clue_lines`), then, when a digit
        is known, a blank line and the grid of digits (`.` unknown); or, for a puzzle
        read in the drawn form, the cages walled in again, each sum in its first cell.
        A cell of a marked cage is marked too."""
        marked = marking(marks)
        digits = solution.values if solution is not None else self.givens
        of_clues = marked.clue_cells()
        letters = self.letters()
        corners = {cage.cells[0]: Token(cage.clue, marked.clue_of("cage", name=letters[cage.cells[0]]))
                   for cage in self.cages}

        def square(r: int, c: int, digit: str, given: bool) -> Square:
            marks = given_or_solved(given, bool(digit))
            if marked:
                marks |= marked.cell((r, c)) | of_clues.get((r, c), UNMARKED)
            return Square((r, c), digit, marks, self.walled_text((r, c), digit, letters) if self.drawn
                          else letters.get((r, c), "."),
                          corners.get((r, c)))

        squares = tuple(square(r, c, "" if d is None else str(d), g is not None)
                        for r, (row, givens) in enumerate(zip(digits, self.givens))
                        for c, (d, g) in enumerate(zip(row, givens)))
        directives = self.directives()
        height, width = self.box
        boxes = tuple(frozenset((top + r, left + c) for r in range(height) for c in range(width))
                      for top in range(0, self.size, height) for left in range(0, self.size, width))
        return Scene(self.family, self.size, self.size, squares, regions=boxes,
                     cages=tuple(frozenset(cage.cells) for cage in self.cages),
                     before=tuple(map(Token, directives)),
                     caption=tuple(line.removeprefix("# ") for line in directives),
                     layout=Walled(cages=True) if self.drawn
                     else Keyed(self.clue_lines(letters, marked), self.compact))

    # For explanations: the rules as the techniques read them, and how a cage is named.

    def statement(self, *, timeout: float | None = None) -> solving.Statement:
        """Its rules as the hint techniques read them: its kernel statement."""
        return solving.kernel_statement(self, 1, self.size, timeout)

    def cage_called(self, cage: Cage, letter: str) -> str:
        """How an explanation names `cage`: by its letter and sum, or where its sum stands
        when the cages are drawn with walls."""
        if self.drawn:
            row, column = cage.cells[0]
            return f"the {cage.total} cage at row {row + 1}, column {column + 1}"
        return f"cage {letter} ({cage.total})"

    def open_cells(self) -> list[Place]:
        return [(r, c) for r, row in enumerate(self.givens) for c, d in enumerate(row) if d is None]


# Random puzzles


def checked_size(rows: int, cols: int) -> int:
    if rows != cols or rows not in BOXES:
        raise UsageError(f"a Killer Sudoku is 4x4, 6x6 or 9x9: not {rows}x{cols}")
    return rows


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[KillerSudoku]:
    """`n` random Killer Sudokus: a random full grid cut into random cages (several
    solutions possible; see `well_formed_puzzles`).  Deterministic for a given seed."""
    size = checked_size(rows, cols)
    rng = random.Random(seed)
    for _ in range(n):
        yield KillerSudoku(size, random_cages(random_grid(size, rng), rng))


def well_formed_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[KillerSudoku]:
    """`n` Killer Sudokus with exactly one solution: a random full grid cut into random
    cages, all shown, and the fewest givens its cages need (often none): givens
    revealed where a second solution differs, then each hidden when the solution stays
    unique (`making.well_formed`), so no given is to spare."""
    size = checked_size(rows, cols)
    rng = random.Random(seed)

    def drawn() -> KillerSudoku | None:
        grid = random_grid(size, rng)
        full = KillerSudoku(size, random_cages(grid, rng), grid)
        return making.well_formed(full, [list(row) for row in grid], rng)

    yield from making.made_puzzles(drawn, n, f"{size}x{size} Killer Sudoku")


def random_grid(size: int, rng: random.Random) -> Grid:
    """A random full grid: a fixed valid pattern with its digits relabelled, its rows
    shuffled within bands and its bands shuffled, the same for columns (and maybe
    transposed, when boxes are square)."""
    height, width = BOXES[size]

    def shuffled(part: int, parts: int) -> list[int]:
        return [part * group + line for group in rng.sample(range(parts), parts)
                for line in rng.sample(range(part), part)]

    digits = rng.sample(range(1, size + 1), size)
    rows, columns = shuffled(height, size // height), shuffled(width, size // width)
    grid = [[digits[(width * (r % height) + r // height + c) % size] for c in columns] for r in rows]
    if height == width and rng.random() < 0.5:
        grid = [list(column) for column in zip(*grid)]
    return tuple(map(tuple, grid))


# Cage sizes, weighted as published puzzles have them: mostly two or three cells.
CAGE_SIZES = {1: 1, 2: 6, 3: 5, 4: 2, 5: 1}


def random_cages(grid: Grid, rng: random.Random) -> tuple[Cage, ...]:
    """`grid` cut into connected cages of different digits: each grows from the first
    free cell in reading order to a size drawn from CAGE_SIZES, one random free
    neighbour (of a digit not in it yet) at a time; never more than the letters."""
    size = len(grid)
    while True:
        free = {(r, c) for r in range(size) for c in range(size)}
        cages = []
        while free:
            cells = [min(free)]
            free.discard(cells[0])
            [wanted] = rng.choices(list(CAGE_SIZES), weights=list(CAGE_SIZES.values()))
            while len(cells) < wanted and (room := sorted(
                    place for place in neighbours(cells, free)
                    if grid[place[0]][place[1]] not in {grid[r][c] for r, c in cells})):
                cells.append(rng.choice(room))
                free.discard(cells[-1])
            cages.append(Cage(tuple(cells), sum(grid[r][c] for r, c in cells)))
        if len(cages) <= len(LETTERS):
            return tuple(cages)
