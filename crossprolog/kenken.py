"""KenKen (also called Calcudoku): an NxN grid holding 1..N once in every row and
column, cut into cages; the digits of each cage combine to its target under its
operation.

A cage's operation is `+` or `*` (any number of cells), `-` or `/` (two cells:
the larger less, or divided by, the smaller), or none for a one-cell cage,
which is a given.  The model keeps the cages apart from how they were drawn
(the letter each carries), so a solution is drawn in the layout the puzzle
came in.  Digits a solver has already placed are `givens`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from . import making, solving
from .drawing import checked_format
from .errors import InvalidValue, UsageError
from .answers import NO_MARKS, Solution
from .caged import CagedGrid, cage_cells
from .explain import Explainable
from .puzzle import clue_number, integer
from .regions import random_partition
from .scene import (UNMARKED, Aligned, Markable, Scene, Square, Token, Walled, given_or_solved,
                    marking)

Digit = int
Place = tuple[int, int]  # (row, column), 0-based
SIZES = range(3, 10)
GIVEN = "="  # the operation of a one-cell cage written as its number alone


def combined(op: str, digits: Sequence[Digit]) -> int | None:
    """What `digits` make under `op`; None when `op` cannot combine them (a `/` that
    leaves a remainder, a two-cell operation on another number of digits)."""
    if op == "+":
        return sum(digits)
    if op == "*":
        return math.prod(digits)
    if op == GIVEN:
        return digits[0] if len(digits) == 1 else None
    if len(digits) != 2:
        return None
    low, high = sorted(digits)
    if op == "-":
        return high - low
    return high // low if high % low == 0 else None


OPERATIONS = ("+", "-", "*", "/", GIVEN)
TWO_CELLS = ("-", "/")
# How people write each operation in a clue, its own sign first (`12x` is `12*`).
SPELLINGS = {"+": ("+",), "-": ("-", "−"), "*": ("*", "x", "X", "×"), "/": ("/", "÷"), GIVEN: ("",)}


@dataclass(frozen=True)
class Cage:
    """Cells in reading order, the target their digits make, and the operation (GIVEN
    for a one-cell cage written as its number alone).  `name` is its letter in the
    layout ("" until drawn); `clue_at` the cell its clue stands in, when drawn in
    another than its first; `written` the operation as typed (one of its
    SPELLINGS: `x` for `*`), "" for its own sign."""

    cells: tuple[Place, ...]
    target: int
    op: str
    name: str = field(default="", compare=False)
    clue_at: Place | None = field(default=None, compare=False)
    written: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        """Refuse, with InvalidValue, a cage that cannot be: cells that are not pairs of
        integers, an unknown operation, a two-cell operation on another number of
        cells, a target that is not a positive integer."""
        object.__setattr__(self, "cells", cage_cells(self.cells))
        object.__setattr__(self, "target", clue_number(self.target, "a cage's target"))
        if self.target < 1:
            raise InvalidValue(f"a cage's target is a positive integer, not {self.target}")
        if self.op not in OPERATIONS:
            raise InvalidValue(f"a cage's operation is one of {' '.join(OPERATIONS)}, not {self.op!r}")
        if self.op in TWO_CELLS and len(self.cells) != 2:
            raise InvalidValue(f"a {self.op} cage has two cells")
        if self.op == GIVEN and len(self.cells) != 1:
            raise InvalidValue("only a one-cell cage may give its number alone")
        if self.written and self.written not in SPELLINGS[self.op]:
            raise InvalidValue(f"a {self.op} cage's operation is written {' or '.join(SPELLINGS[self.op])}, "
                               f"not {self.written!r}")
        if self.clue_at is not None:
            object.__setattr__(self, "clue_at", cage_cells((self.clue_at,))[0])
            if self.clue_at not in self.cells:
                raise InvalidValue(f"a cage's clue stands in one of its cells, not at {self.clue_at}")

    @property
    def clue_cell(self) -> Place:
        """The cell the clue stands in: where it was drawn, else the first."""
        return self.clue_at or self.cells[0]

    def holds(self, digits: Sequence[Digit]) -> bool:
        """Whether `digits` (one per cell, in the cage's order) make the target."""
        return self.made(digits) == self.target

    def made(self, digits: Sequence[Digit]) -> int | None:
        """The target `digits` (one per cell, in order) make under the cage's operation."""
        return combined(self.op, digits)

    @property
    def clue(self) -> str:
        """The clue as written: `12*` (or `12x`, as typed), `2/`, or the number alone for
        a given."""
        return f"{self.target}{self.written or SPELLINGS[self.op][0]}"


@dataclass(frozen=True)
class KenKen(CagedGrid, Explainable):
    """A `size`×`size` grid cut into `cages`, and the digits already placed (`givens`,
    a grid of Digit or None; all unknown when left out).  A cell in no cage is
    bound by the rows and columns alone (as when a cage is left out to see
    what the others force)."""

    cage_number = "target"

    size: int
    cages: tuple[Cage, ...]
    givens: tuple[tuple[Digit | None, ...], ...] = None  # type: ignore[assignment]
    layout: str = field(default="text", compare=False)
    drawn: bool = field(default=False, compare=False)  # cages walled in, not lettered
    compact: bool = field(default=False, compare=False)  # a row's letters written together
    below: tuple[tuple[str, str], ...] = field(default=(), compare=False)  # as typed: CagedGrid.clue_lines

    family = "kenken"

    def __post_init__(self) -> None:
        """Refuse, with InvalidValue, what cannot be a KenKen: a size outside 3-9,
        cages outside the grid or overlapping, givens of another shape or outside
        1..size (any integer type is taken)."""
        object.__setattr__(self, "size", integer(self.size, "a KenKen's size"))
        if self.size not in SIZES:
            raise InvalidValue(f"a KenKen is 3x3 to 9x9, not {self.size}x{self.size}")
        self.check_cages_and_givens(Cage)
        checked_format(self.layout)

    def prolog_data(self) -> dict:
        return {"size": self.size,
                "cages": [{"cells": [list(p) for p in cage.cells], "op": cage.op,
                           "target": cage.target} for cage in self.cages],
                "givens": [[r, c, d] for r, row in enumerate(self.givens)
                           for c, d in enumerate(row) if d is not None]}

    def holds(self, grid: Sequence[Sequence[Digit]]) -> bool:
        """Whether `grid` is a solution: a Latin square whose cages make their targets,
        agreeing with the givens."""
        digits = set(range(1, self.size + 1))
        return (all(set(row) == digits for row in grid)
                and all(set(column) == digits for column in zip(*grid))
                and all(cage.holds([grid[r][c] for r, c in cage.cells]) for cage in self.cages)
                and all(g is None or g == d for grow, row in zip(self.givens, grid)
                        for g, d in zip(grow, row)))

    # Drawing

    def drawn_scene(self, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
        """The grid, its cages walled and each cage's clue in its `clue_cell`.  As text:
        the grid of cage letters, each with its digit when known (`a4`), apart or
        together as the puzzle was written, then one clue line per cage, in the order
        they were typed in, with the comments and blank lines typed among them
        (`clue_lines`); or, for a puzzle read in the drawn form, the cages walled in
        again.  A cell of a marked cage is marked too."""
        marked = marking(marks)
        digits = solution.values if solution is not None else self.givens
        of_clues = marked.clue_cells()
        letters = self.letters()
        corners = {cage.clue_cell: Token(cage.clue, marked.clue_of("cage", name=letters[cage.cells[0]]))
                   for cage in self.cages}

        def square(r: int, c: int, digit: str, given: bool) -> Square:
            marks = given_or_solved(given, bool(digit))
            if marked:
                marks |= marked.cell((r, c)) | of_clues.get((r, c), UNMARKED)
            return Square((r, c), digit, marks, self.walled_text((r, c), digit, letters) if self.drawn
                          else letters.get((r, c), ".") + digit,
                          corners.get((r, c)))

        squares = tuple(square(r, c, "" if d is None else str(d), g is not None)
                        for r, (row, givens) in enumerate(zip(digits, self.givens))
                        for c, (d, g) in enumerate(zip(row, givens)))
        clues = self.clue_lines(letters, marked) if not self.drawn else ()
        directives = self.directives()
        return Scene(self.family, self.size, self.size, squares,
                     regions=tuple(frozenset(cage.cells) for cage in self.cages),
                     before=tuple(map(Token, directives)), after=clues,
                     caption=tuple(line.removeprefix("# ") for line in directives),
                     layout=Walled() if self.drawn else Aligned(left=True, compact=self.compact))

    # For explanations: the rules as the techniques read them, and how a cage is named.

    def statement(self, *, timeout: float | None = None) -> solving.Statement:
        return solving.kernel_statement(self, 1, self.size, timeout)

    def cell_name(self, cell: tuple[int, int]) -> str:
        """`row 2, column 3 (cage b)`, or for cages walled in, the cage's clue."""
        cage = next((cage for cage in self.cages if tuple(cell) in cage.cells), None)
        where = f"row {cell[0] + 1}, column {cell[1] + 1}"
        if cage is None:
            return where
        return f"{where} ({cage.clue} cage)" if self.drawn else f"{where} (cage {self.letters()[cage.cells[0]]})"

    def cage_called(self, cage: Cage, letter: str) -> str:
        """How an explanation names `cage`: by its letter, or where its clue stands when
        the cages are drawn with walls."""
        if self.drawn:
            row, column = cage.clue_cell
            return f"the {cage.clue} cage at row {row + 1}, column {column + 1}"
        return f"cage {letter} ({cage.clue})"

    def open_cells(self) -> list[tuple[int, int]]:
        """The cells with no digit placed, outside one-cell cages (which are givens)."""
        given = {cage.cells[0] for cage in self.cages if len(cage.cells) == 1}
        return [(r, c) for r, row in enumerate(self.givens) for c, d in enumerate(row)
                if d is None and (r, c) not in given]


# Random puzzles


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[KenKen]:
    """`n` random `rows`×`cols` KenKens (rows = cols), each from a random Latin
    square cut into random cages.  Deterministic for a given seed."""
    if rows != cols or rows not in SIZES:
        raise UsageError(f"a KenKen is square, 3x3 to 9x9: not {rows}x{cols}")
    rng = random.Random(seed)
    for _ in range(n):
        yield random_puzzle(rows, rng)


def well_formed_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[KenKen]:
    """`n` KenKens with exactly one solution: random cages cut from a random Latin
    square, cut again until the square is their only solution."""
    if rows != cols or rows not in SIZES:
        raise UsageError(f"a KenKen is square, 3x3 to 9x9: not {rows}x{cols}")
    rng = random.Random(seed)
    for _ in range(n):
        square = latin_square(rows, rng)
        yield from making.made_puzzles(lambda: unique(caged(square, rng)), 1, f"{rows}x{rows} KenKen")


def unique(puzzle: KenKen) -> KenKen | None:
    """`puzzle` when it has exactly one solution, else None."""
    return puzzle if puzzle.count(2) == 1 else None


def random_puzzle(size: int, rng: random.Random) -> KenKen:
    return caged(latin_square(size, rng), rng)


def caged(square: list[list[Digit]], rng: random.Random) -> KenKen:
    """`square` cut into random cages, each with an operation its digits fit."""
    return KenKen(len(square), tuple(random_cage(cells, [square[r][c] for r, c in cells], rng)
                                     for cells in random_partition(len(square), len(square),
                                                                   CAGE_SIZES, rng)))


def latin_square(size: int, rng: random.Random) -> list[list[Digit]]:
    """A random Latin square: the cyclic one with its rows, columns and digits shuffled."""
    rows, columns, digits = (rng.sample(range(size), size) for _ in range(3))
    return [[digits[(r + c) % size] + 1 for c in columns] for r in rows]


# Cage sizes, weighted as published puzzles have them: mostly two or three cells.
CAGE_SIZES = {1: 1, 2: 5, 3: 4, 4: 2}


def random_cage(cells: list[Place], digits: list[Digit], rng: random.Random) -> Cage:
    """A cage over `cells` whose digits are `digits`, with an operation that fits them:
    `-` or `/` on two cells, `+` or `*` on more (products kept to readable sizes)."""
    if len(cells) == 1:
        return Cage(tuple(cells), digits[0], GIVEN)
    choices = ["+", "*"] + (["-", "-", "/"] if len(cells) == 2 else [])
    ops = [op for op in choices if combined(op, digits) is not None
           and (op != "*" or math.prod(digits) <= 1000)]
    op = rng.choice(ops)
    return Cage(tuple(cells), combined(op, digits), op)
