"""CrossCells: switch cells on or off so that every constrained line adds up.

Each cell holds an operation (`+3`, `*2`, `-1`, `/2`) and maybe a group
letter (`*2a`).  A line's value starts at 0 and every ON cell applies its
operation to it, in the order the line is read; OFF cells are skipped.  A
total (`=24`) fixes that value, a count (`#1`) the number of ON cells.  Rows,
columns and groups (cells sharing a letter) carry constraints.

The model keeps what the puzzle means (cells, the rows and columns they form,
the constraints) apart from how it was drawn (where each token stood), so a
solution is drawn in the layout the puzzle came in, and two drawings of the
same puzzle compare equal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Iterator, Sequence

from .drawing import checked_format, fenced
from .errors import InvalidValue
from .puzzle import Puzzle, Solution, integer, items, rows_of

OPERATORS = ("+", "-", "*", "/")
TOTAL, COUNT = "=", "#"
FIRST_CELL_RULES = ("zero", "seeds")  # a line starts at 0, or its first ON cell seeds it
OnOff = int  # 1: on, 0: off
Ons = Sequence[OnOff]  # one per cell, in reading order


@dataclass(frozen=True)
class Place:
    """Where a token was drawn: its 0-based text line and character column."""

    line: int
    column: int


@dataclass(frozen=True)
class Cell:
    """An operation, such as `*` 2, and the group it belongs to ("" for none)."""

    op: str
    number: int
    group: str = ""
    place: Place | None = field(default=None, compare=False)
    text: str = field(default="", compare=False)  # as typed: `x2a` for * 2 in group a

    def __post_init__(self) -> None:
        if self.op not in OPERATORS:
            raise InvalidValue(f"a cell's operator is one of {' '.join(OPERATORS)}, not {self.op!r}")
        object.__setattr__(self, "number", integer(self.number, "a cell's number"))
        if self.number < 0 or (self.op == "/" and self.number == 0):
            raise InvalidValue(f"{self.op}{self.number} is not a valid cell: numbers are 0 or more, "
                               "and a / cell's above 0")
        if not isinstance(self.group, str):
            raise InvalidValue(f"a cell's group is a letter or '', not {self.group!r}")
        if not self.text:
            object.__setattr__(self, "text", f"{self.op}{self.number}{self.group}")

    def applied(self, value: int) -> int | None:
        """`value` with this cell's operation applied; None when a division is not exact."""
        if self.op == "+":
            return value + self.number
        if self.op == "-":
            return value - self.number
        if self.op == "*":
            return value * self.number
        return value // self.number if value % self.number == 0 else None


@dataclass(frozen=True)
class Constraint:
    """A total (`=`) or a count (`#`), for a row, a column, or the cells of `group`."""

    kind: str
    value: int
    group: str = ""
    place: Place | None = field(default=None, compare=False)
    text: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", integer(self.value, "a constraint's value"))
        if self.kind not in (TOTAL, COUNT) or (self.kind == COUNT and self.value < 0):
            raise InvalidValue(f"not a constraint: {self.kind}{self.value} (a total =N, or a count #N "
                               "with N at least 0)")
        if not isinstance(self.group, str):
            raise InvalidValue(f"a constraint's group is a letter or '', not {self.group!r}")
        if not self.text:
            object.__setattr__(self, "text", f"{self.group}{self.kind}{self.value}")


@dataclass(frozen=True)
class Line:
    """A row (left to right) or column (top to bottom) of cells, by index.

    `head` stands before the first cell (left of a row, above a column) and
    reads the line backward; `tail` stands after the last and reads forward.
    """

    cells: tuple[int, ...]
    head: Constraint | None = None
    tail: Constraint | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(integer(i, "a cell index")
                                                for i in items(self.cells, "a line's cells")))
        for end in (self.head, self.tail):
            if end is not None and not isinstance(end, Constraint):
                raise InvalidValue(f"a line's head and tail are Constraints or None, not {end!r}")

    def readings(self) -> list[Reading]:
        ends = [(self.head, self.cells[::-1]), (self.tail, self.cells)]
        return [Reading(cells, constraint) for constraint, cells in ends if constraint]


@dataclass(frozen=True)
class Reading:
    """A constraint and the cells it reads, in the order it reads them."""

    cells: tuple[int, ...]
    constraint: Constraint

    def holds(self, puzzle: CrossCells, ons: Ons) -> bool:
        """Whether the constraint holds when `ons` says which cells are on."""
        on_cells = [puzzle.cells[i] for i in self.cells if ons[i]]
        if self.constraint.kind == COUNT:
            return len(on_cells) == self.constraint.value
        return value_of(on_cells, puzzle.first_cell) == self.constraint.value


def value_of(on_cells: Sequence[Cell], first_cell: str = "zero") -> int | None:
    """The value ON cells give, read in order; None when a division is not exact."""
    value: int | None = 0
    for n, cell in enumerate(on_cells):
        if n == 0 and first_cell == "seeds":
            value = cell.number
        else:
            value = cell.applied(value)
        if value is None:
            return None
    return value


@dataclass(frozen=True)
class CrossCells(Puzzle):
    """Cells in reading order (text line by line, left to right), the rows and
    columns they form, the constraints of groups, and the first-cell rule.

    Columns are kept in a canonical order (by their cells), so equal puzzles
    compare equal however they were drawn.  `layout` ("text" or "markdown":
    the text inside a fenced code block) says how to draw it by default.
    """

    cells: tuple[Cell, ...]
    rows: tuple[Line, ...]
    columns: tuple[Line, ...] = ()
    groups: tuple[Constraint, ...] = ()
    first_cell: str = "zero"
    layout: str = field(default="text", compare=False)

    family = "crosscells"

    def __post_init__(self) -> None:
        """Refuse, with InvalidValue, what cannot be a puzzle: cells in no row or two,
        columns that name cells that are not there or take one twice, groups with no cells."""
        for name, kind in (("cells", Cell), ("rows", Line), ("columns", Line), ("groups", Constraint)):
            values = items(getattr(self, name), name)
            if wrong := next((v for v in values if not isinstance(v, kind)), None):
                raise InvalidValue(f"{name} must hold {kind.__name__}s, not {wrong!r}")
            object.__setattr__(self, name, values)
        object.__setattr__(self, "columns", tuple(sorted(self.columns, key=lambda c: c.cells)))
        object.__setattr__(self, "groups", tuple(sorted(self.groups, key=lambda g: (g.group, g.kind))))
        if self.first_cell not in FIRST_CELL_RULES:
            raise InvalidValue(f"first_cell must be one of {FIRST_CELL_RULES}, not {self.first_cell!r}")
        checked_format(self.layout)
        if sorted(i for row in self.rows for i in row.cells) != list(range(len(self.cells))):
            raise InvalidValue("every cell must be in exactly one row")
        in_columns = [i for column in self.columns for i in column.cells]
        if len(set(in_columns)) < len(in_columns) or not set(in_columns) <= set(range(len(self.cells))):
            raise InvalidValue("a column names a cell that is not there, or a cell in another column")
        for constraint in self.groups:
            if not constraint.group or not self.group_cells(constraint.group):
                raise InvalidValue(f"group {constraint.group!r} has no cells")

    @classmethod
    def from_table(cls, table: Sequence[Sequence[Cell]],
                   row_constraints: Sequence[Constraint | None],
                   column_constraints: Sequence[Constraint | None],
                   first_cell: str = "zero") -> CrossCells:
        """The rectangular puzzle of `table`, drawn as a grid: row constraints at
        the right ends, column constraints below.  InvalidValue for a ragged table,
        or a constraint too few or too many."""
        table = rows_of(table, "the table")
        height, width = len(table), len(table[0]) if table else 0
        if any(len(row) != width for row in table):
            raise InvalidValue(f"the table is ragged: its rows have {sorted({len(r) for r in table})} cells")
        row_constraints = items(row_constraints, "row_constraints")
        column_constraints = items(column_constraints, "column_constraints")
        if (len(row_constraints), len(column_constraints)) != (height, width):
            raise InvalidValue(f"a {height}x{width} table takes {height} row constraints and {width} "
                               "column constraints (None for a line without one)")
        tokens = [c.text for row in table for c in row] + [c.text for c in column_constraints if c]
        stride = max(map(len, tokens), default=1) + 1
        cells = [replace(cell, place=Place(r, c * stride)) for r, row in enumerate(table)
                 for c, cell in enumerate(row)]  # cell (r, c) is number r * width + c
        rows = [Line(tuple(r * width + c for c in range(width)),
                     tail=constraint and replace(constraint, place=Place(r, width * stride + 1)))
                for r, constraint in enumerate(row_constraints)]
        columns = [Line(tuple(r * width + c for r in range(height)),
                        tail=constraint and replace(constraint, place=Place(height, c * stride)))
                   for c, constraint in enumerate(column_constraints)]
        return cls(tuple(cells), tuple(rows), tuple(columns), first_cell=first_cell)

    def group_cells(self, group: str) -> tuple[int, ...]:
        """The cells of `group`, in reading order."""
        return tuple(i for i, cell in enumerate(self.cells) if cell.group == group)

    def readings(self) -> list[Reading]:
        """Every constraint of the puzzle with the cells it reads, in reading order."""
        lines = [r for line in self.rows + self.columns for r in line.readings()]
        return lines + [Reading(self.group_cells(g.group), g) for g in self.groups]

    def holds(self, ons: Ons) -> bool:
        """Whether `ons` (one 0/1 per cell) meets every constraint."""
        return all(reading.holds(self, ons) for reading in self.readings())

    # Crossing into Prolog

    def prolog_data(self) -> dict:
        return {"cells": [[cell.op, cell.number] for cell in self.cells],
                "lines": [{"cells": list(r.cells), "kind": r.constraint.kind,
                           "value": r.constraint.value} for r in self.readings()],
                "first_cell": self.first_cell}

    def solution_values(self, answer) -> tuple[tuple[OnOff, ...], ...]:
        """Prolog's 0/1 per cell, as one tuple per row."""
        return tuple(tuple(answer[i] for i in row.cells) for row in self.rows)

    def ons(self, solution: Solution) -> list[OnOff]:
        """The solution as one 0/1 per cell, in reading order (for `holds`)."""
        flat = [0] * len(self.cells)
        for row, values in zip(self.rows, solution.values):
            for i, on in zip(row.cells, values):
                flat[i] = on
        return flat

    # Drawing

    def render(self, solution: Solution | None = None, format: str | None = None) -> str:
        """The puzzle as drawn, with OFF cells blanked when `solution` is given, below
        its directives.  Markdown is the same drawing in a fenced code block, which
        keeps the columns aligned."""
        format = checked_format(format or self.layout)
        if solution is None:
            shown = list(self.cells)
        else:
            shown = [self.cells[i] for row, ons in zip(self.rows, solution.values)
                     for i, on in zip(row.cells, ons) if on]
        drawing = "\n".join(self.directives() + [draw(shown + self.constraints())])
        return fenced(drawing) if format == "markdown" else drawing

    def constraints(self) -> list[Constraint]:
        """Every constraint token of the drawing."""
        ends = [end for line in self.rows + self.columns for end in (line.head, line.tail) if end]
        return ends + list(self.groups)


def draw(tokens: Sequence[Cell | Constraint]) -> str:
    """The text with every token at its place; lines with no token left out."""
    if any(token.place is None for token in tokens):
        raise InvalidValue("a token has no place to be drawn: build puzzles with "
                         "CrossCells.from_table or parse them from text")
    lines: dict[int, list[str]] = {}
    for token in sorted(tokens, key=lambda t: (t.place.line, t.place.column)):
        chars = lines.setdefault(token.place.line, [])
        chars.extend(" " * (token.place.column - len(chars)))
        chars[token.place.column:token.place.column + len(token.text)] = token.text
    return "\n".join("".join(lines[n]).rstrip() for n in sorted(lines))


# Random puzzles


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[CrossCells]:
    """`n` random rows × cols puzzles, every row and column constrained.

    Each puzzle is made from a random table of operations and a random on/off
    table; each line is then given, at random, the total or the count that the
    table gives it.  Deterministic for a given seed.
    """
    rng = random.Random(seed)
    for _ in range(n):
        yield random_puzzle(rows, cols, rng)


def random_puzzle(height: int, width: int, rng: random.Random) -> CrossCells:
    table = [[random_cell(rng) for _ in range(width)] for _ in range(height)]
    on = [[rng.random() < 0.5 for _ in range(width)] for _ in range(height)]
    row_kinds = [rng.choice((TOTAL, COUNT)) for _ in range(height)]
    column_kinds = [rng.choice((TOTAL, COUNT)) for _ in range(width)]
    rows = [[(r, c) for c in range(width)] for r in range(height)]
    columns = [[(r, c) for r in range(height)] for c in range(width)]
    totals = [line for line, kind in zip(rows + columns, row_kinds + column_kinds) if kind == TOTAL]
    _switch_off_inexact_divisions(table, on, totals)

    def constraint(line: list[tuple[int, int]], kind: str) -> Constraint:
        on_cells = [table[r][c] for r, c in line if on[r][c]]
        return Constraint(kind, len(on_cells) if kind == COUNT else value_of(on_cells))

    return CrossCells.from_table(table, [constraint(row, k) for row, k in zip(rows, row_kinds)],
                                 [constraint(col, k) for col, k in zip(columns, column_kinds)])


# Multiplication and division keep to small numbers so totals stay readable.
OPERATION_WEIGHTS = {"+": 4, "-": 3, "*": 2, "/": 1}
NUMBERS = {"+": range(1, 10), "-": range(1, 10), "*": range(2, 4), "/": range(2, 4)}


def random_cell(rng: random.Random) -> Cell:
    [op] = rng.choices(list(OPERATION_WEIGHTS), weights=list(OPERATION_WEIGHTS.values()))
    return Cell(op, rng.choice(NUMBERS[op]))


def _switch_off_inexact_divisions(table, on, totals) -> None:
    """Switch off ON division cells that a total line meets with a value they
    do not divide, one at a time, until there are none."""
    while inexact := next(filter(None, (_inexact_division(table, on, line) for line in totals)), None):
        r, c = inexact
        on[r][c] = False


def _inexact_division(table, on, line) -> tuple[int, int] | None:
    """The first ON division cell of `line` that does not divide the value it meets, if any."""
    value = 0
    for r, c in line:
        if on[r][c]:
            value = table[r][c].applied(value)
            if value is None:
                return r, c
    return None
