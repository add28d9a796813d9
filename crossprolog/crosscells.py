"""CrossCells: switch cells on or off so that every constrained line adds up.

Each cell holds an operation (`+3`, `*2`, `-1`, `/2`) and maybe the letters
of the groups it belongs to (`*2a`, `*2ab`).  A line's value starts at 0 and
every ON cell applies its operation to it, in the order the line is read;
OFF cells are skipped.  A total (`=24`) fixes that value, a count (`#1`) the
number of ON cells.  Rows, columns and groups (cells sharing a letter) carry
constraints.  Variants of the rules are options of the puzzle: the first ON
cell may seed the value with its number (`first_cell="seeds"`), and `*` and
`/` may bind tighter than `+` and `-` (`precedence="standard"`).  Sumplete
and Number Sums are CrossCells games whose cells all add (`game`).

What an operator is and does is one row of OPERATORS: the grammar, the
model and the generator all read it there (and prolog/crosscells.pl has the
one table of its own, operator/6).

The model keeps what the puzzle means (cells, the rows and columns they form,
the constraints) apart from how it was drawn (where each token stood), so a
solution is drawn in the layout the puzzle came in, and two drawings of the
same puzzle compare equal.
"""

from __future__ import annotations

import random
import string
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from itertools import groupby
from typing import Callable, Collection, Iterator, Mapping, Sequence

from . import making
from .regions import random_partition
from .drawing import aligned, bracketed, checked_format, fenced
from .errors import InvalidValue
from .answers import NO_MARKS, Clue, Marks, Solution
from .explain import Explainable
from .puzzle import integer, items, rows_of

TOTAL, COUNT = "=", "#"
FIRST_CELL_RULES = ("zero", "seeds")  # a line starts at 0, or its first ON cell seeds it
PRECEDENCES = ("left-to-right", "standard")  # one operation after another, or * / before + -
SUMPLETE, NUMBER_SUMS = "sumplete", "number-sums"
GAMES = ("crosscells", SUMPLETE, NUMBER_SUMS)  # Sumplete and Number Sums: every cell adds its number
SUM, PRODUCT = "sum", "product"  # how tightly an operator binds under standard precedence


@dataclass(frozen=True)
class Operator:
    """One row of the operator table: all that crossprolog's Python knows of an operator.

    `symbol` names it in the model and in Prolog; `aliases` are other ways to
    type it.  `apply(value, n)` is the value after the operation, None where
    it has none (a division that is not exact).  `tier` is SUM for an
    operator that adds what it gives 0 (under standard precedence it starts
    a new term), PRODUCT for one that binds tighter.  A `positive` operator
    needs a number above 0, since its `name` by 0 has no value.  The
    generator deals it by `weight` (0: never), with a number from `numbers`.
    """

    symbol: str
    aliases: tuple[str, ...]
    apply: Callable[[int, int], int | None]
    tier: str
    name: str = ""
    positive: bool = False
    weight: int = 0
    numbers: range = range(0)


def exact_division(value: int, n: int) -> int | None:
    """value / n when n divides value, else None."""
    return value // n if value % n == 0 else None


# Multiplication and division keep to small numbers so that totals stay readable.
OPERATORS = {operator.symbol: operator for operator in [
    Operator("+", (), lambda value, n: value + n, SUM, weight=4, numbers=range(1, 10)),
    Operator("-", ("−",), lambda value, n: value - n, SUM, weight=3, numbers=range(1, 10)),
    Operator("*", ("x", "×"), lambda value, n: value * n, PRODUCT, weight=2, numbers=range(2, 4)),
    Operator("/", ("÷",), exact_division, PRODUCT, "division", positive=True, weight=1,
             numbers=range(2, 4)),
    # The remainder keeps the sign of the value (-7 % 3 is -1), as C and Prolog's `rem` do.
    Operator("%", (), lambda value, n: abs(value) % n * (-1 if value < 0 else 1), PRODUCT,
             "remainder of a division", positive=True),
]}
OnOff = int  # 1: on, 0: off
PLACEHOLDERS = 0xF0000  # private-use characters: one stands in for each cell in drawing_template
Ons = Sequence[OnOff]  # one per cell, in reading order


@dataclass(frozen=True)
class Place:
    """Where a token was drawn: its 0-based text line and character column."""

    line: int
    column: int


DECIDED = {1: "!", 0: "~"}  # the mark after a cell a solver has decided: ON, OFF


@dataclass(frozen=True)
class Cell:
    """An operation, such as `*` 2, the letters of the groups it belongs to, in order ("" for
    none), and whether a solver has decided it already (1 on, 0 off, None not yet)."""

    op: str
    number: int
    group: str = ""
    place: Place | None = field(default=None, compare=False)
    text: str = field(default="", compare=False)  # as typed: `x2a` for * 2 in group a
    decided: OnOff | None = None

    def __post_init__(self) -> None:
        if self.op not in OPERATORS:
            raise InvalidValue(f"a cell's operator is one of {' '.join(OPERATORS)}, not {self.op!r}")
        object.__setattr__(self, "number", integer(self.number, "a cell's number"))
        if self.number < 0 or (OPERATORS[self.op].positive and self.number == 0):
            raise InvalidValue(f"{self.op}{self.number} is not a valid cell: numbers are 0 or more, "
                               f"and a {self.op} cell's above 0" if OPERATORS[self.op].positive
                               else f"{self.op}{self.number} is not a valid cell: numbers are 0 or more")
        if not isinstance(self.group, str):
            raise InvalidValue(f"a cell's group is letters or '', not {self.group!r}")
        object.__setattr__(self, "group", "".join(sorted(set(self.group))))
        if not self.text:
            object.__setattr__(self, "text", f"{self.op}{self.number}{self.group}"
                                             f"{DECIDED.get(self.decided, '')}")

    def applied(self, value: int) -> int | None:
        """`value` with this cell's operation applied; None when it has none."""
        return OPERATORS[self.op].apply(value, self.number)


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
        return value_of(on_cells, puzzle.first_cell, puzzle.precedence) == self.constraint.value


def value_of(on_cells: Sequence[Cell], first_cell: str = "zero",
             precedence: str = "left-to-right") -> int | None:
    """The value ON cells give, read in order; None when an operation has none.

    The value is the sum of the finished terms and the current one.  Under
    standard precedence a SUM operator finishes the term and starts the next
    with what it gives 0; every other operation applies to the current term.
    Left to right, every operation applies to the term, which is then the
    whole value.
    """
    done, term = 0, 0
    for n, cell in enumerate(on_cells):
        operator = OPERATORS[cell.op]
        if n == 0 and first_cell == "seeds":
            term = cell.number
        elif precedence == "standard" and operator.tier == SUM:
            done, term = done + term, operator.apply(0, cell.number)
        else:
            term = operator.apply(term, cell.number)
        if term is None:
            return None
    return done + term


@dataclass(frozen=True)
class CrossCells(Explainable):
    """Cells in reading order (text line by line, left to right), the rows and
    columns they form, the constraints of groups, and the rules: the first-cell
    rule, the precedence, and the game (whose layout the puzzle is drawn in).

    Columns are kept in a canonical order (by their cells), so equal puzzles
    compare equal however they were drawn.  `layout` ("text" or "markdown":
    the text inside a fenced code block) says how to draw it by default.
    """

    cells: tuple[Cell, ...]
    rows: tuple[Line, ...]
    columns: tuple[Line, ...] = ()
    groups: tuple[Constraint, ...] = ()
    first_cell: str = "zero"
    precedence: str = "left-to-right"
    game: str = "crosscells"
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
        if self.precedence not in PRECEDENCES:
            raise InvalidValue(f"precedence must be one of {PRECEDENCES}")
        if self.game not in GAMES:
            raise InvalidValue(f"game must be one of {GAMES}")
        adds = self.first_cell == "zero" and all(OPERATORS[c.op].tier == SUM for c in self.cells)
        if self.game in (SUMPLETE, NUMBER_SUMS) and not adds:
            raise InvalidValue(f"a {self.game} puzzle adds its numbers from 0: + and - cells only")
        if self.game == SUMPLETE and self.groups:
            raise InvalidValue("a sumplete puzzle has no regions")
        checked_format(self.layout)
        if sorted(i for row in self.rows for i in row.cells) != list(range(len(self.cells))):
            raise InvalidValue("every cell must be in exactly one row")
        in_columns = [i for column in self.columns for i in column.cells]
        if len(set(in_columns)) < len(in_columns) or not set(in_columns) <= set(range(len(self.cells))):
            raise InvalidValue("a column names a cell that is not there, or a cell in another column")
        for constraint in self.groups:
            if len(constraint.group) != 1:
                raise InvalidValue(f"a group constraint names one group, not {constraint.group!r}")
            if not self.group_cells(constraint.group):
                raise InvalidValue(f"group {constraint.group!r} has no cells")

    @classmethod
    def from_table(cls, table: Sequence[Sequence[Cell]],
                   row_constraints: Sequence[Constraint | None],
                   column_constraints: Sequence[Constraint | None],
                   first_cell: str = "zero", groups: Sequence[Constraint] = ()) -> CrossCells:
        """The rectangular puzzle of `table`, drawn as a grid: row constraints at
        the right ends, column constraints below, then the group constraints.
        InvalidValue for a ragged table, or a constraint too few or too many."""
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
        tokens += [g.text for g in groups]
        stride = max(map(len, tokens), default=1) + 1
        cells = [replace(cell, place=Place(r, c * stride)) for r, row in enumerate(table)
                 for c, cell in enumerate(row)]  # cell (r, c) is number r * width + c
        rows = [Line(tuple(r * width + c for c in range(width)),
                     tail=constraint and replace(constraint, place=Place(r, width * stride + 1)))
                for r, constraint in enumerate(row_constraints)]
        columns = [Line(tuple(r * width + c for r in range(height)),
                        tail=constraint and replace(constraint, place=Place(height, c * stride)))
                   for c, constraint in enumerate(column_constraints)]
        placed = [replace(g, place=Place(height + 1, k * stride)) for k, g in enumerate(groups)]
        return cls(tuple(cells), tuple(rows), tuple(columns), tuple(placed), first_cell=first_cell)

    def group_cells(self, group: str) -> tuple[int, ...]:
        """The cells of `group`, in reading order."""
        return tuple(i for i, cell in enumerate(self.cells) if group in cell.group)

    def readings(self) -> list[Reading]:
        """Every constraint of the puzzle with the cells it reads, in reading order."""
        lines = [r for line in self.rows + self.columns for r in line.readings()]
        return lines + [Reading(self.group_cells(g.group), g) for g in self.groups]

    def holds(self, ons: Ons) -> bool:
        """Whether `ons` (one 0/1 per cell) meets every constraint."""
        return all(reading.holds(self, ons) for reading in self.readings())

    # Crossing into Prolog

    def prolog_data(self) -> dict:
        decided = [{"cells": [i], "kind": COUNT, "value": cell.decided}
                   for i, cell in enumerate(self.cells) if cell.decided is not None]
        return {"cells": [[cell.op, cell.number] for cell in self.cells],
                "lines": [{"cells": list(r.cells), "kind": r.constraint.kind,
                           "value": r.constraint.value} for r in self.readings()] + decided,
                "first_cell": self.first_cell, "precedence": self.precedence}

    def solution_values(self, answer) -> tuple[tuple[OnOff, ...], ...]:
        """Prolog's 0/1 per cell, as one tuple per row."""
        return tuple(tuple(answer[i] for i in row.cells) for row in self.rows)

    def answer_shape(self) -> tuple[int]:
        """One 0/1 per cell, in reading order."""
        return (len(self.cells),)

    def ons(self, solution: Solution) -> list[OnOff]:
        """The solution as one 0/1 per cell, in reading order (for `holds`)."""
        flat = [0] * len(self.cells)
        for row, values in zip(self.rows, solution.values):
            for i, on in zip(row.cells, values):
                flat[i] = on
        return flat

    # What an exported program needs

    def drawing_template(self) -> list[list[str | dict]]:
        """The drawing of a solution as `render` gives it, each cell {"on": i, "text": its
        text marked ON, "off": its text marked OFF}: an exported program prints the one
        its value says."""
        solved = self.placing({cell: 1 for cell in self.open_cells()})
        stand_ins = replace(solved, cells=tuple(
            replace(cell, text=chr(PLACEHOLDERS + i) * len(cell.text))
            for i, cell in enumerate(solved.cells)))
        return [[self._segment("".join(run)) for _, run in groupby(line, self._placeholder)]
                for line in stand_ins.render().split("\n")]

    def _placeholder(self, char: str) -> int | None:
        """The cell `char` stands in for in drawing_template, if any."""
        index = ord(char) - PLACEHOLDERS
        return index if 0 <= index < len(self.cells) else None

    def _segment(self, run: str) -> str | dict:
        index = self._placeholder(run[0])
        if index is None:
            return run
        text = unmarked(self.cells[index].text)
        return {"on": index, "text": text + DECIDED[1], "off": text + DECIDED[0]}

    def variable_names(self) -> list[str]:
        """R2C3 for the cell in row 2 (top to bottom) and column 3 (left to right, as
        drawn), one per cell in reading order."""
        column = {i: k for k, line in enumerate(self.columns_left_to_right(), 1) for i in line.cells}
        if len(column) < len(self.cells):  # a puzzle built without columns: number the cells
            column = {i: k for row in self.rows for k, i in enumerate(row.cells, 1)}
        row = {i: r for r, line in enumerate(self.rows, 1) for i in line.cells}
        return [f"R{row[i]}C{column[i]}" for i in range(len(self.cells))]

    # Drawing

    def render(self, solution: Solution | None = None, format: str | None = None,
               marks: Marks = NO_MARKS) -> str:
        """The puzzle as drawn, below its directives; solved by `solution`, every cell
        marked as a solver decides it (`+2a!` ON, `+2a~` OFF), so that it reads back
        in as the puzzle with every cell decided.  Markdown is the same drawing in a
        fenced code block, which keeps the columns aligned.  A marked cell or
        constraint stands in brackets."""
        format = checked_format(format or self.layout)
        if solution is not None:
            return self.placing({(r, k): on for r, values in enumerate(solution.values)
                                 for k, on in enumerate(values)}).render(format=format, marks=marks)
        marked_cells = {self.rows[r].cells[i] for r, i in marks.cells}
        marked_constraints = {id(c) for clue in marks.clues for c in self._constraints_of(clue)}
        constraints = self.constraints()
        items = [drawn(cell, i in marked_cells) for i, cell in enumerate(self.cells)]
        items += [drawn(c, id(c) in marked_constraints) for c in constraints]
        if marks == NO_MARKS and all(cell.decided is None for cell in self.cells):
            drawing = draw(items)  # as it was typed
        elif self.game != "crosscells":
            drawing = self.grid_drawing({id(self.cells[i]) for i in marked_cells} | marked_constraints)
        else:
            column_of = self.columns_of_tokens()
            drawing = draw(self.spread(items, [column_of.get(i) for i in range(len(self.cells))]
                                       + [column_of.get(id(c)) for c in constraints]))
        drawing = "\n".join(self.directives() + [drawing])
        return fenced(drawing) if format == "markdown" else drawing

    def grid_drawing(self, marked: Collection[int]) -> str:
        """A Sumplete or Number Sums drawing laid out anew, its numbers right-aligned in
        columns of one width: those games read a row's numbers in order, so where
        they were typed (tabs, ragged blanks) need not be kept, and marks get room.
        `marked` holds the ids of the tokens (cells, constraints) to draw in brackets."""
        def text(token: Cell | Constraint | None) -> list[str]:
            return [] if token is None else [bracketed(token.text, id(token) in marked)]

        rows = [[t for i in row.cells for t in text(self.cells[i])] + text(row.tail)
                for row in self.rows]
        columns = self.columns_left_to_right()
        head = any(column.head for column in columns)
        targets = [t for column in columns for t in text(column.head if head else column.tail)]
        lines = [targets] + rows if head else rows + [targets]
        width = max((len(t) for line in lines for t in line), default=1)
        grid = [" ".join(t.rjust(width) for t in line) for line in lines]
        regions = [" ".join(t for group in self.groups for t in text(group))] if self.groups else []
        return "\n".join(grid + regions)

    def columns_of_tokens(self) -> dict[int, int]:
        """The column (counted left to right) each cell (by index) and each column
        constraint (by id) belongs to."""
        found: dict[int, int] = {}
        for k, line in enumerate(self.columns_left_to_right()):
            found.update(dict.fromkeys(line.cells, k))
            found.update((id(end), k) for end in (line.head, line.tail) if end)
        return found

    def spread(self, items: Sequence[Item], members: Sequence[int | None]) -> list[Item]:
        """`items` moved apart just enough that brackets, or a decided cell's mark, never
        run two tokens together: the tokens of a column (`members`: the column of
        each item, None for a row's or group's) move with it, and so does any
        other token that overlaps it (so it still does); each column far enough
        right of the one before, any other token far enough right of the column
        before it, and of the token before it on its line.  Where a token of a
        column would still touch the one before it, its column moves further
        right, and the drawing is laid out again."""
        extents = [(min(self.cells[i].place.column for i in line.cells),
                    max(self.cells[i].place.column + len(self.cells[i].text) for i in line.cells))
                   for line in self.columns_left_to_right()]

        def overlapped(place: Place, text: str) -> int | None:
            end = place.column + len(anchored(text))
            return next((k for k, (low, high) in enumerate(extents)
                         if low < end and place.column < high), None)

        members = [overlapped(place, text) if member is None else member
                   for (place, text, _), member in zip(items, members)]
        extra = [0] * len(extents)  # how much further right each column must stand
        for _ in range(len(items) + 1):  # each round moves a column: at most one per token
            starts = self._spread_starts(items, members, extents, extra)
            pushed = _first_touching(items, members, starts)
            if pushed is None:
                break
            column, by = pushed
            extra[column] += by
        return [(Place(place.line, start + marked), text, marked)
                for (place, text, marked), start in zip(items, starts)]

    @staticmethod
    def _spread_starts(items: Sequence[Item], members: Sequence[int | None],
                       extents: Sequence[tuple[int, int]], extra: Sequence[int]) -> list[int]:
        """Where each item of `spread` starts (its bracket included), each column `extra`
        further right than it needs to be; a token of no column right of the column
        before it (by where their numbers stand: `anchored`)."""
        def span(place: Place, text: str, marked: bool) -> tuple[int, int]:
            return place.column - marked, place.column + len(anchored(text)) + marked

        spans = [span(*item) for item in items]
        shifts, reach = [], 0  # reach: the first free place right of the columns so far
        for k in range(len(extents)):
            low = min((start for (start, _), member in zip(spans, members) if member == k),
                      default=extents[k][0])
            high = max((end for (_, end), member in zip(spans, members) if member == k),
                       default=low)
            shifts.append(max(shifts[-1] if shifts else 0, reach + (k > 0) - low) + extra[k])
            reach = high + shifts[-1]
        column_starts = [low for low, _ in extents]

        def shift(item: Item, member: int | None, start: int) -> int:
            if member is not None:
                return shifts[member]
            before = bisect_right(column_starts, item[0].column) - 1
            if before < 0:
                return max(0, -start)
            after = max((end + shifts[before] for (_, end), m in zip(spans, members) if m == before),
                        default=0)
            return max(shifts[before], after + 1 - start)

        return [start + shift(item, member, start)
                for item, member, (start, _) in zip(items, members, spans)]

    def constraints(self) -> list[Constraint]:
        """Every constraint token of the drawing."""
        ends = [end for line in self.rows + self.columns for end in (line.head, line.tail) if end]
        return ends + list(self.groups)

    # Clues and cells, for explanations: a clue is a line or a group, with all its
    # constraints; a cell is (row, index within the row), as JSON has it.

    def columns_left_to_right(self) -> list[Line]:
        """The columns in the order the drawing shows them, leftmost first."""
        def left(line: Line) -> int:
            return min((self.cells[i].place.column for i in line.cells if self.cells[i].place),
                       default=0)
        return sorted(self.columns, key=lambda line: (left(line), line.cells))

    def clues(self) -> tuple[Clue, ...]:
        rows = [Clue("row", f"row {r + 1} ({', '.join(e.text for e in ends(line))})", index=r,
                     cells=self._json_cells(line.cells))
                for r, line in enumerate(self.rows) if ends(line)]
        columns = [Clue("column", f"column {k + 1} ({', '.join(e.text for e in ends(line))})",
                        index=k, cells=self._json_cells(line.cells))
                   for k, line in enumerate(self.columns_left_to_right()) if ends(line)]
        names = dict.fromkeys(g.group for g in self.groups)
        groups = [Clue("group", f"group {name} ({', '.join(g.text for g in self.groups if g.group == name)})",
                       name=name, cells=self._json_cells(self.group_cells(name)))
                  for name in names]
        return tuple(rows + columns + groups)

    def _json_cells(self, indices: Sequence[int]) -> frozenset[tuple[int, int]]:
        where = {i: (r, k) for r, row in enumerate(self.rows) for k, i in enumerate(row.cells)}
        return frozenset(where[i] for i in indices)

    def _constraints_of(self, clue: Clue) -> list[Constraint]:
        if clue.kind == "group":
            return [g for g in self.groups if g.group == clue.name]
        lines = self.rows if clue.kind == "row" else tuple(self.columns_left_to_right())
        return ends(lines[clue.index])

    def keeping(self, clues: Collection[Clue]) -> CrossCells:
        kept = set(clues)
        columns = self.columns_left_to_right()

        def line(kind: str, index: int, line: Line) -> Line:
            return line if Clue(kind, "", index=index) in kept else replace(line, head=None, tail=None)

        return replace(self, rows=tuple(line("row", r, row) for r, row in enumerate(self.rows)),
                       columns=tuple(line("column", k, column) for k, column in enumerate(columns)),
                       groups=tuple(g for g in self.groups if Clue("group", "", name=g.group) in kept))

    def open_cells(self) -> list[tuple[int, int]]:
        return [(r, k) for r, row in enumerate(self.rows) for k, i in enumerate(row.cells)
                if self.cells[i].decided is None]

    def placing(self, values: Mapping[tuple[int, int], int]) -> CrossCells:
        """The puzzle with the cells of `values` decided ON (1) or OFF (0)."""
        decided = {self.rows[r].cells[k]: on for (r, k), on in values.items()}
        return replace(self, cells=tuple(
            replace(cell, decided=decided[i], text=unmarked(cell.text) + DECIDED[decided[i]])
            if i in decided else cell
            for i, cell in enumerate(self.cells)))

    def additions(self, solution: list, cells: Sequence[tuple[int, int]]) -> Iterator[tuple[str, CrossCells]]:
        """One more line constraint that `solution` meets: on a row or column through
        `cells` with an end free, the count, then the total, it gives there."""
        ons = {self.rows[r].cells[k]: on for r, row in enumerate(solution) for k, on in enumerate(row)}
        touched = {self.rows[r].cells[k] for r, k in cells}
        columns = self.columns_left_to_right()
        lines = [("row", r, line) for r, line in enumerate(self.rows)] + \
                [("column", k, line) for k, line in enumerate(columns)]
        for kind, index, line in lines:
            if not touched & set(line.cells) or (line.head and line.tail):
                continue
            end = "tail" if line.tail is None else "head"
            reading = line.cells if end == "tail" else line.cells[::-1]
            on_cells = [self.cells[i] for i in reading if ons[i]]
            for constraint in (Constraint(COUNT, len(on_cells)),
                               Constraint(TOTAL, value_of(on_cells, self.first_cell,
                                                          self.precedence))):
                if constraint.value is None:
                    continue
                where = {("row", "tail"): "after", ("row", "head"): "before",
                         ("column", "tail"): "below", ("column", "head"): "above"}[kind, end]
                lines_of = list(self.rows if kind == "row" else columns)
                lines_of[index] = replace(line, **{end: constraint})
                yield (f"add {constraint.text} {where} {kind} {index + 1}",
                       replace(self, **{"rows" if kind == "row" else "columns": tuple(lines_of)}))

    def cell_path(self, cell: tuple[int, int]) -> list[int]:
        return [self.rows[cell[0]].cells[cell[1]]]

    def cell_name(self, cell: tuple[int, int]) -> str:
        """A cell as a solver names it: its token and row, or in the games whose numbers
        add (every row as long as the grid is wide), the number at its row and column."""
        token = self.cells[self.cell_path(cell)[0]]
        if self.game == "crosscells":
            return f"{unmarked(token.text)} (row {cell[0] + 1})"
        number = -token.number if token.op == "-" else token.number
        return f"the {number} at row {cell[0] + 1}, column {cell[1] + 1}"

    def value_name(self, cell: tuple[int, int], value: int) -> str:
        if self.game == "crosscells":
            return f"{self.cell_name(cell)} only {'ON' if value else 'OFF'}"
        return f"{self.cell_name(cell)} {'kept' if value else 'deleted'}"


def unmarked(text: str) -> str:
    """A cell's text without a solver's mark."""
    return text.rstrip("".join(DECIDED.values()))


def anchored(text: str) -> str:
    """What of a token's text stands under its column: all of it, but of a constraint
    in words only its number (the `24` of `24 total`, the `[6]` of `[6] tiles`)."""
    return text.split(" ")[0] if text.strip() else text


def ends(line: Line) -> list[Constraint]:
    """The constraints at a line's ends, head first."""
    return [end for end in (line.head, line.tail) if end]


Item = tuple[Place, str, bool]  # where a token starts, its text, whether it is marked


def drawn(token: Cell | Constraint, marked: bool) -> Item:
    """What to draw for `token`: its place and text."""
    if token.place is None:
        raise InvalidValue("a token has no place to be drawn: build puzzles with "
                         "CrossCells.from_table or parse them from text")
    return token.place, token.text, marked


def _first_touching(items: Sequence[Item], members: Sequence[int | None],
                    starts: list[int]) -> tuple[int, int] | None:
    """The first token, line by line and left to right, that would touch (or overlap) the
    one before it on its line at `starts`: None when none does; else, when it belongs to
    a column, that column and how far it must move right.  A token of no column is
    moved in `starts` itself, there being nothing else to keep in line with it."""
    order = sorted(range(len(items)), key=lambda n: (items[n][0].line, items[n][0].column))
    for n, previous in zip(order[1:], order):
        if items[n][0].line != items[previous][0].line:
            continue
        free = starts[previous] + len(items[previous][1]) + 2 * items[previous][2] + 1
        if starts[n] < free:
            if members[n] is not None:
                return members[n], free - starts[n]
            starts[n] = free
    return None


def draw(items: Sequence[Item]) -> str:
    """The text with every item's text at its place, a marked one in brackets that open
    one place before it; lines with nothing left out."""
    lines: dict[int, list[str]] = {}
    for place, text, marked in sorted(items, key=lambda item: (item[0].line, item[0].column)):
        column = place.column - marked
        chars = lines.setdefault(place.line, [])
        chars.extend(" " * (column - len(chars)))
        text = f"[{text}]" if marked else text
        chars[column:column + len(text)] = text
    return "\n".join("".join(lines[n]).rstrip() for n in sorted(lines))


# Random puzzles


Rules = dict  # the options of a puzzle: game, first_cell, precedence (by model keyword)


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None,
                   **rules: str) -> Iterator[CrossCells]:
    """`n` random rows × cols puzzles, every row and column constrained, under
    `rules` (game, first_cell, precedence; the defaults when left out).

    Each puzzle is made from a random table of operations (of numbers, for
    Sumplete and Number Sums) and a random on/off table; each line is then
    given the total or the count that the table gives it (a Sumplete or
    Number Sums line, and region, its total).  Deterministic for a given seed.
    """
    rng = random.Random(seed)
    for _ in range(n):
        yield random_solved(rows, cols, rng, **rules)[0]


def well_formed_puzzles(rows: int, cols: int, n: int, seed: int | None = None,
                        **rules: str) -> Iterator[CrossCells]:
    """`n` puzzles with exactly one solution: from a random table and a random choice
    of ON cells, line constraints shown (and groups made where lines cannot tell
    two solutions apart) until the solution is unique, then every constraint not
    needed hidden (`making.well_formed`).  Sumplete and Number Sums show every
    line's and region's total, as the games do: such a puzzle is drawn anew
    until its solution is unique."""
    rng = random.Random(seed)
    made = 0
    while made < n:
        full, on = random_solved(rows, cols, rng, **rules)
        if full.game != "crosscells":
            puzzle = full if making.other_solution(full, on) is None else None
        else:
            puzzle = making.well_formed(full, on, rng, new_clue=group_apart)
        if puzzle:
            made += 1
            yield puzzle


GROUP_LETTERS = string.ascii_letters  # a to z, then A to Z: the letters the grammar reads as groups


def group_apart(full: CrossCells, intended: list, other: list) -> tuple[CrossCells, Clue] | None:
    """`full` with a new group that `other` breaks and `intended` keeps: the first cell
    (in reading order, in no group yet) where they differ, with up to two free
    neighbours, and the count (or else the total) `intended` gives it."""
    table = [[full.cells[i] for i in row.cells] for row in full.rows]
    free = {(r, c) for r, row in enumerate(table) for c, cell in enumerate(row) if not cell.group}
    apart = [cell for cell in sorted(free) if intended[cell[0]][cell[1]] != other[cell[0]][cell[1]]]
    used = {letter for row in table for cell in row for letter in cell.group}
    letters = [letter for letter in GROUP_LETTERS if letter not in used]
    if not apart or not letters:
        return None
    r, c = apart[0]
    near = [(r, c + 1), (r + 1, c), (r, c + 2)]
    for members in ([(r, c)] + [m for m in near if m in free][:2], [(r, c)]):
        constraint = telling_apart(members, table, intended, other, full)
        if constraint:
            break
    group = replace(constraint, group=letters[0], text="")
    grouped = [[replace(cell, group=letters[0], text="", place=None) if (i, j) in members else
                replace(cell, place=None) for j, cell in enumerate(row)] for i, row in enumerate(table)]
    made = CrossCells.from_table(grouped, [row.tail for row in full.rows],
                                 [column.tail for column in full.columns_left_to_right()],
                                 full.first_cell, [*full.groups, group])
    return replace(made, precedence=full.precedence), Clue("group", "", name=letters[0])


def telling_apart(members: list[tuple[int, int]], table, intended: list, other: list,
                  rules: CrossCells) -> Constraint | None:
    """The count, or else the total (under the `rules` of that puzzle), of `members`
    (in reading order) that `intended` gives and `other` does not."""
    def ons(grid: list) -> list[Cell]:
        return [table[r][c] for r, c in sorted(members) if grid[r][c]]

    def total(cells: list[Cell]) -> int | None:
        return value_of(cells, rules.first_cell, rules.precedence)

    for kind, measure in ((COUNT, len), (TOTAL, total)):
        mine, theirs = measure(ons(intended)), measure(ons(other))
        if mine is not None and mine != theirs:
            return Constraint(kind, mine)
    return None


def random_puzzle(height: int, width: int, rng: random.Random) -> CrossCells:
    return random_solved(height, width, rng)[0]


def random_solved(height: int, width: int, rng: random.Random, game: str = "crosscells",
                  first_cell: str = "zero", precedence: str = "left-to-right"
                  ) -> tuple[CrossCells, list[list[int]]]:
    """A random puzzle with every line constrained, and the on/off table it was made
    from (one of its solutions, 1 for on)."""
    if game != "crosscells":
        return random_sums(height, width, rng, game)
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
        total = value_of(on_cells, first_cell, precedence)
        if kind == COUNT or total is None:  # no total where these rules divide inexactly
            return Constraint(COUNT, len(on_cells))
        return Constraint(TOTAL, total)

    puzzle = CrossCells.from_table(table, [constraint(row, k) for row, k in zip(rows, row_kinds)],
                                   [constraint(col, k) for col, k in zip(columns, column_kinds)],
                                   first_cell)
    return replace(puzzle, precedence=precedence), [[int(on_cell) for on_cell in row] for row in on]


# Sumplete: numbers 1-9, a few of them negative; Number Sums adds regions of two to five.
NEGATIVE_SHARE = 0.1
REGION_SIZES = {2: 2, 3: 3, 4: 3, 5: 2}


def random_sums(height: int, width: int, rng: random.Random,
                game: str) -> tuple[CrossCells, list[list[int]]]:
    """A random Sumplete or Number Sums puzzle and its kept/deleted table (1 kept):
    written as the game shows it, and read by the grammar, which owns that layout."""
    from .registry import parse  # the registry imports this module: import it late

    numbers = [[rng.randint(1, 9) * (-1 if rng.random() < NEGATIVE_SHARE else 1)
                for _ in range(width)] for _ in range(height)]
    kept = [[int(rng.random() < 0.5) for _ in range(width)] for _ in range(height)]
    regions = random_partition(height, width, REGION_SIZES, rng) if game == NUMBER_SUMS else []
    letter = {place: GROUP_LETTERS[k] for k, region in enumerate(regions) for place in region}

    def total(places) -> int:
        return sum(numbers[r][c] for r, c in places if kept[r][c])

    rows = [[f"{numbers[r][c]}{letter.get((r, c), '')}" for c in range(width)]
            + [str(total((r, c) for c in range(width)))] for r in range(height)]
    columns = [str(total((r, c) for r in range(height))) for c in range(width)]
    targets = [" ".join(f"{GROUP_LETTERS[k]}={total(region)}" for k, region in enumerate(regions))]
    text = "\n".join([f"# game: {game}"] + aligned(rows + [columns]) + targets[:bool(regions)])
    return parse(text), kept


def random_cell(rng: random.Random) -> Cell:
    """A cell of an operator the generator deals, by the weights of the table."""
    dealt = [operator for operator in OPERATORS.values() if operator.weight]
    [operator] = rng.choices(dealt, weights=[operator.weight for operator in dealt])
    return Cell(operator.symbol, rng.choice(operator.numbers))


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
