"""The CrossCells model: a puzzle's cells, lines and groups under its rules, what
crosses into Prolog, and the clues and cell names explanations speak of."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain, product
from typing import TYPE_CHECKING, Collection, Iterator, Mapping, Sequence

from ..answers import NO_MARKS, Clue, Solution
from ..drawing import checked_format
from ..errors import InvalidValue
from ..explain import Explainable
from ..puzzle import items, rows_of, typable, unchecked_change
from ..scene import Markable, Scene
from . import drawing
from .rules import (COUNT, DECIDED, FIRST_CELL_RULES, GAMES, NUMBER_SUMS, OPERATORS, PRECEDENCES,
                    SUM, SUMPLETE, TOTAL, Cell, Constraint, Line, OnOff, Ons, Place, Reading,
                    ends, unmarked, value_of)

if TYPE_CHECKING:
    from .. import techniques


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
            if not set(map(type, values)) <= {kind} and (
                    wrong := next((v for v in values if not isinstance(v, kind)), None)):
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
        if self.game in (SUMPLETE, NUMBER_SUMS) and not (
                self.first_cell == "zero" and all(OPERATORS[c.op].tier == SUM for c in self.cells)):
            raise InvalidValue(f"a {self.game} puzzle adds its numbers from 0: + and - cells only")
        if self.game == SUMPLETE and self.groups:
            raise InvalidValue("a sumplete puzzle has no regions")
        checked_format(self.layout)
        if sorted(chain.from_iterable(row.cells for row in self.rows)) != list(range(len(self.cells))):
            raise InvalidValue("every cell must be in exactly one row")
        in_columns = list(chain.from_iterable(column.cells for column in self.columns))
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
        # cell (r, c) is number r * width + c; a Cell is checked as it is made, not as it is placed
        cells = [unchecked_change(cell, place=Place(r, c * stride))
                 for r, row in enumerate(table) for c, cell in enumerate(row)]
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
        return self._cells_by_group.get(group, ())

    # Worked out once a puzzle: making one asks for its groups and clues hundreds of times.
    @cached_property
    def _cells_by_group(self) -> dict[str, tuple[int, ...]]:
        by_group: dict[str, list[int]] = {}
        for i, cell in enumerate(self.cells):
            for letter in cell.group:  # each letter once: Cell sorts them apart
                by_group.setdefault(letter, []).append(i)
        return {letter: tuple(cells) for letter, cells in by_group.items()}

    def readings(self) -> list[Reading]:
        """Every constraint of the puzzle with the cells it reads, in reading order."""
        lines = [r for line in self.rows + self.columns for r in line.readings()]
        return lines + [Reading(self.group_cells(g.group), g) for g in self.groups]

    def holds(self, ons: Ons) -> bool:
        """Whether `ons` (one 0/1 per cell) meets every constraint."""
        return all(reading.holds(self.cells, ons, self.first_cell, self.precedence)
                   for reading in self.readings())

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
        return tuple(tuple(map(answer.__getitem__, row.cells)) for row in self.rows)

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

    # Drawing (crosscells.drawing)

    def drawn_scene(self, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
        return drawing.scene(self, solution, marks)

    def drawing_template(self) -> list[list[str | dict]]:
        return drawing.drawing_template(self)

    def variable_names(self) -> list[str]:
        """R2C3 for the cell in row 2 (top to bottom) and column 3 (left to right, as
        drawn), one per cell in reading order."""
        column = {i: k for k, line in enumerate(self.columns_left_to_right(), 1) for i in line.cells}
        if len(column) < len(self.cells):  # a puzzle built without columns: number the cells
            column = {i: k for row in self.rows for k, i in enumerate(row.cells, 1)}
        row = {i: r for r, line in enumerate(self.rows, 1) for i in line.cells}
        return [f"R{row[i]}C{column[i]}" for i in range(len(self.cells))]

    def constraints(self) -> list[Constraint]:
        """Every constraint token of the drawing."""
        ends = [end for line in self.rows + self.columns for end in (line.head, line.tail) if end]
        return ends + list(self.groups)

    # Clues and cells, for explanations: a clue is a line or a group, with all its
    # constraints; a cell is (row, index within the row), as JSON has it.

    def columns_left_to_right(self) -> list[Line]:
        """The columns in the order the drawing shows them, leftmost first."""
        return list(self._columns_left_to_right)

    @cached_property
    def _columns_left_to_right(self) -> tuple[Line, ...]:
        def left(line: Line) -> int:
            return min((self.cells[i].place.column for i in line.cells if self.cells[i].place),
                       default=0)
        return tuple(sorted(self.columns, key=lambda line: (left(line), line.cells)))

    def clues(self) -> tuple[Clue, ...]:
        return self._clues

    @cached_property
    def _clues(self) -> tuple[Clue, ...]:
        rows = [Clue("row", f"row {r + 1} ({', '.join(e.text for e in ends(line))})", index=r,
                     cells=self._json_cells(line.cells))
                for r, line in enumerate(self.rows) if ends(line)]
        columns = [Clue("column", f"column {k + 1} ({', '.join(e.text for e in ends(line))})",
                        index=k, cells=self._json_cells(line.cells))
                   for k, line in enumerate(self.columns_left_to_right()) if ends(line)]
        names = dict.fromkeys(g.group for g in self.groups)
        called = "region" if self.game == NUMBER_SUMS else "group"  # as each game's players say
        groups = [Clue("group", f"{called} {name} ({', '.join(g.text for g in self.groups if g.group == name)})",
                       name=name, cells=self._json_cells(self.group_cells(name)))
                  for name in names]
        decided = [Clue("given", self.given_name((r, k), self.cells[i].decided), cell=(r, k),
                        cells=frozenset({(r, k)}))
                   for r, row in enumerate(self.rows) for k, i in enumerate(row.cells)
                   if self.cells[i].decided is not None]
        return tuple(rows + columns + groups + decided)

    def clue_reading(self, clue: Clue, solution: Solution) -> str | None:
        """A line or group as `solution` switches its cells: `row 4 (=17)`, each end's
        constraint recomputed (None when an operation has no value there)."""
        if clue.kind == "given":
            return super().clue_reading(clue, solution)
        ons = self.ons(solution)
        said = []
        for constraint in self.constraints_of(clue):
            reading = next(r for r in self.readings() if r.constraint is constraint)
            on_cells = [self.cells[i] for i in reading.cells if ons[i]]
            value = (len(on_cells) if constraint.kind == COUNT
                     else value_of(on_cells, self.first_cell, self.precedence))
            if value is None:
                return None
            said.append(self._saying(constraint, value).text)
        return f"{clue.text.split(' (')[0]} ({', '.join(said)})"

    def retyped(self, clue: Clue, numbers: Sequence[int]) -> CrossCells | None:
        """The puzzle with a line's or group's constraints (head first) saying `numbers`,
        written as its game writes them (InvalidValue for a negative count)."""
        if clue.kind == "given":
            return super().retyped(clue, numbers)
        new = {id(c): self._saying(c, n) for c, n in zip(self.constraints_of(clue), numbers)}

        def line(line: Line) -> Line:
            return replace(line, head=new.get(id(line.head), line.head), tail=new.get(id(line.tail), line.tail))
        return replace(self, rows=tuple(map(line, self.rows)), columns=tuple(map(line, self.columns)),
                       groups=tuple(new.get(id(g), g) for g in self.groups))

    def _saying(self, constraint: Constraint, value: int) -> Constraint:
        """`constraint` saying `value`, written as the puzzle's game writes it: `=17`, `b#2`;
        in Sumplete and Number Sums a line's target bare, `17` (a region's `b=17`)."""
        said = replace(constraint, value=value, text="")
        bare = self.game != "crosscells" and said.kind == TOTAL and not said.group
        return replace(said, text=str(value)) if bare else said

    def given_name(self, cell: tuple[int, int], value: int) -> str:
        """A decided cell, as a hint would say it: `+2a at row 1, column 2 ON`."""
        return f"{self.cell_name(cell)} {self._decided_words[value]}"

    @property
    def _decided_words(self) -> tuple[str, str]:
        """How the game says a cell is decided OFF (0) and ON (1)."""
        return ("OFF", "ON") if self.game == "crosscells" else ("deleted", "kept")

    def _json_cells(self, indices: Sequence[int]) -> frozenset[tuple[int, int]]:
        return frozenset(self._json_places[i] for i in indices)

    @cached_property
    def _json_places(self) -> dict[int, tuple[int, int]]:
        """Each cell's (row, index within the row), by its number."""
        return {i: (r, k) for r, row in enumerate(self.rows) for k, i in enumerate(row.cells)}

    def constraints_of(self, clue: Clue) -> list[Constraint]:
        if clue.kind == "group":
            return [g for g in self.groups if g.group == clue.name]
        lines = self.rows if clue.kind == "row" else tuple(self.columns_left_to_right())
        return ends(lines[clue.index])

    def hideable(self, clue: Clue) -> bool:
        """Every clue of a CrossCells: a line's or group's total may go as a given may.
        Sumplete and Number Sums show every line's and region's total (their layouts
        have no place for one left out): only their decided cells."""
        return clue.kind == "given" or self.game not in (SUMPLETE, NUMBER_SUMS)

    def keeping(self, clues: Collection[Clue]) -> CrossCells:
        # Making a puzzle asks this of every question: hiding clues keeps what
        # __post_init__ checks, and the columns in their order, so it is not asked again
        kept = set(clues)
        shown_columns = {id(column) for k, column in enumerate(self._columns_left_to_right)
                         if Clue("column", "", index=k) in kept}

        def bare(line: Line) -> Line:
            return line if line.head is None and line.tail is None else replace(line, head=None, tail=None)

        undecided = {i for r, row in enumerate(self.rows) for k, i in enumerate(row.cells)
                     if self.cells[i].decided is not None and Clue("given", "", cell=(r, k)) not in kept}
        return unchecked_change(
            self, rows=tuple(row if Clue("row", "", index=r) in kept else bare(row)
                             for r, row in enumerate(self.rows)),
            columns=tuple(column if id(column) in shown_columns else bare(column) for column in self.columns),
            groups=tuple(g for g in self.groups if Clue("group", "", name=g.group) in kept),
            cells=tuple(replace(cell, decided=None, text=unmarked(cell.text)) if i in undecided
                        else cell for i, cell in enumerate(self.cells)))

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
        """One more clue that `solution` meets: in CrossCells, a line constraint first
        (`_constraints_added`), then, in every game, one of `cells` decided as in
        `solution`, as a solver marks it (the given digit of other families): a
        Sumplete or Number Sums has no free line end to write a clue at."""
        if self.game == "crosscells":
            yield from self._constraints_added(solution, cells)
        for r, k in cells:
            yield f"mark {self.given_name((r, k), solution[r][k])}", self.placing({(r, k): solution[r][k]})

    def _constraints_added(self, solution: list, cells: Sequence[tuple[int, int]]
                           ) -> Iterator[tuple[str, CrossCells]]:
        """On a row or column through `cells` with an end free, the count, then the
        total, that `solution` gives there (unless the total has more digits than a
        puzzle's text may have)."""
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
            for kind_of, value in ((COUNT, len(on_cells)),
                                   (TOTAL, value_of(on_cells, self.first_cell, self.precedence))):
                if value is None or not typable(value):  # undefined (a division not exact), or untypable
                    continue
                constraint = Constraint(kind_of, value)
                where = {("row", "tail"): "after", ("row", "head"): "before",
                         ("column", "tail"): "below", ("column", "head"): "above"}[kind, end]
                lines_of = list(self.rows if kind == "row" else columns)
                lines_of[index] = replace(line, **{end: constraint})
                yield (f"add {constraint.text} {where} {kind} {index + 1}",
                       replace(self, **{"rows" if kind == "row" else "columns": tuple(lines_of)}))

    def cell_path(self, cell: tuple[int, int]) -> list[int]:
        return [self.rows[cell[0]].cells[cell[1]]]

    def cell_name(self, cell: tuple[int, int]) -> str:
        """A cell as a solver names it: its token, row and column (the columns as drawn,
        leftmost first), or in the games whose numbers add, the number there."""
        i = self.cell_path(cell)[0]
        token = self.cells[i]
        where = f"row {cell[0] + 1}, column {self._drawn_column(i) + 1}"
        if self.game == "crosscells":
            return f"{unmarked(token.text)} at {where}"
        number = -token.number if token.op == "-" else token.number
        return f"the {number} at {where}"

    def _drawn_column(self, i: int) -> int:
        """The column of cell `i` among the columns as drawn (its place in its row if in none)."""
        return self._drawn_columns[i]

    # Once a puzzle: a statement names every cell, which looked through every column
    # for each took a 120x120 puzzle a second
    @cached_property
    def _drawn_columns(self) -> dict[int, int]:
        placed = {i: k for row in self.rows for k, i in enumerate(row.cells)}
        return placed | {i: k for k, column in enumerate(self.columns_left_to_right()) for i in column.cells}

    def statement(self, *, timeout: float | None = None) -> techniques.Statement:
        """Each total or count a table of the ON (1) and OFF (0) fillings of its cells (a
        reading of over 16 cells is left to propagation), the decided cells placed;
        TimeLimitExceeded past `timeout` seconds (a reading of 16 cells has 65,536 ways
        to try: a few hundred of them take a minute)."""
        from .. import techniques  # for hints and grades only
        from ..reasoner import Deadline

        deadline = Deadline(timeout)
        places = tuple((r, k) for r, row in enumerate(self.rows) for k, _ in enumerate(row.cells))
        index = {self.rows[r].cells[k]: n for n, (r, k) in enumerate(places)}
        by_cells = {clue.cells: clue for clue in self.clues()}
        tables = []
        for reading in self.readings():
            if len(reading.cells) > 16:
                continue
            deadline.left()
            clue = by_cells.get(self._json_cells(reading.cells))
            fillings = tuple(bits for bits in product((0, 1), repeat=len(reading.cells))
                             if reading.holds(self.cells, dict(zip(reading.cells, bits)),
                                             self.first_cell, self.precedence))
            tables.append(techniques.Table(tuple(index[i] for i in reading.cells),
                                           clue.text if clue else reading.constraint.text, clue, fillings))
        names = tuple(f"{unmarked(self.cells[self.rows[r].cells[k]].text)} at "
                      f"r{r + 1}c{self._drawn_column(self.rows[r].cells[k]) + 1}" for r, k in places)
        words = dict(enumerate(self._decided_words))
        return techniques.Statement(places, names, (0, 1), (), tuple(tables),
                                    {index[i]: cell.decided for i, cell in enumerate(self.cells)
                                     if cell.decided is not None}, words=words)

    def value_name(self, cell: tuple[int, int], value: int) -> str:
        if self.game == "crosscells":
            return f"{self.cell_name(cell)} only {'ON' if value else 'OFF'}"
        return self.given_name(cell, value)
