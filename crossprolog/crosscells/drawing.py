"""How a CrossCells puzzle is drawn: in the layout it was typed in, solved cells
marked as a solver marks them, marked tokens in brackets, columns spread apart
just enough to keep them apart; and the template an exported program fills in.

Each function takes the `puzzle` (a crosscells.model.CrossCells) first; the
model's `scene` calls here, so this module does not import it back."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from itertools import groupby
from typing import Sequence

from ..answers import NO_MARKS, Clue, Solution
from ..errors import InvalidValue
from ..scene import (CIRCLED, CROSSED, GIVEN, OFF, ON, POINTED, SOLVED, Label, Markable, Placed,
                     Scene, Square, Token, Uniform, marking)
from .rules import DECIDED, NUMBER_SUMS, SUMPLETE, Cell, Constraint, Line, Place, ends, unmarked

LEGEND = "legend"

PLACEHOLDERS = 0xF0000  # private-use characters: one stands in for each cell in drawing_template


def drawing_template(puzzle) -> list[list[str | dict]]:
    """The drawing of a solution as `render` gives it, each cell {"on": i, "text": its
    text marked ON, "off": its text marked OFF}: an exported program prints the one
    its value says."""
    solved = puzzle.placing({cell: 1 for cell in puzzle.open_cells()})
    stand_ins = replace(solved, cells=tuple(
        replace(cell, text=chr(PLACEHOLDERS + i) * len(cell.text))
        for i, cell in enumerate(solved.cells)))
    def cell_of(char: str) -> int | None:
        return _placeholder(puzzle, char)

    return [[_segment(puzzle, "".join(run)) for _, run in groupby(line, cell_of)]
            for line in stand_ins.render().split("\n")]


def _placeholder(puzzle, char: str) -> int | None:
    """The cell `char` stands in for in drawing_template, if any."""
    index = ord(char) - PLACEHOLDERS
    return index if 0 <= index < len(puzzle.cells) else None


def _segment(puzzle, run: str) -> str | dict:
    index = _placeholder(puzzle, run[0])
    if index is None:
        return run
    text = unmarked(puzzle.cells[index].text)
    return {"on": index, "text": text + DECIDED[1], "off": text + DECIDED[0]}


def scene(puzzle, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
    """The puzzle's drawing, below its directives; solved by `solution`, every cell
    marked as a solver decides it (`+2a!` ON, `+2a~` OFF), so that it reads back
    in as the puzzle with every cell decided.  As text: as it was typed when
    nothing is decided or marked; else a Sumplete or Number Sums grid laid out
    anew, or the typed layout spread apart just enough for the marks (a marked
    token stands in brackets).  Markdown is the text in a fenced code block.  As
    a picture: a grid of the cells, each row's constraints at its ends, each
    column's above and below, the groups' in a legend below; a deleted Sumplete
    number crossed out, a kept Number Sums number circled."""
    typed = puzzle
    if solution is not None:
        puzzle = puzzle.placing({(r, k): on for r, values in enumerate(solution.values)
                                 for k, on in enumerate(values)})
    marked = marking(marks)
    json_cell = {i: (r, k) for r, row in enumerate(puzzle.rows) for k, i in enumerate(row.cells)}
    columns = puzzle.columns_left_to_right()
    clue_of = _clues_of_constraints(puzzle, columns)
    constraints = puzzle.constraints()
    cell_marks = [marked.cell(json_cell[i]) for i in range(len(puzzle.cells))]
    constraint_marks = [marked.clue(clue_of[id(c)]) for c in constraints]
    items = [drawn(cell, bool(tags & POINTED)) for cell, tags in zip(puzzle.cells, cell_marks)]
    items += [drawn(c, bool(tags & POINTED)) for c, tags in zip(constraints, constraint_marks)]
    pointed = any(tags & POINTED for tags in cell_marks + constraint_marks)
    if not pointed and all(cell.decided is None for cell in puzzle.cells):
        layout, places = Placed(), [place for place, _, _ in items]  # as it was typed
    elif puzzle.game != "crosscells":
        layout, places = Uniform(), [None] * len(items)
    else:
        column_of = columns_of_tokens(puzzle)
        layout, places = Placed(), [place for place, _, _ in spread(
            puzzle, items, [column_of.get(i) for i in range(len(puzzle.cells))]
            + [column_of.get(id(c)) for c in constraints])]
    at, rows, cols = _grid_places(puzzle, columns)
    corners = _corners(puzzle)
    squares = tuple(Square(at[i], _value(puzzle, cell), tags | _decided(puzzle, typed, i),
                           text=cell.text, corner=corners.get(i), place=place)
                    for i, (cell, tags, place) in enumerate(zip(puzzle.cells, cell_marks, places)))
    labels = tuple(Label(at[id(c)], c.text, _side(puzzle, c), tags, place=place)
                   for c, tags, place in zip(constraints, constraint_marks, places[len(puzzle.cells):]))
    regions = (tuple(frozenset(at[i] for i in puzzle.group_cells(g)) for g in _group_names(puzzle))
               if puzzle.game == NUMBER_SUMS else ())
    directives = puzzle.directives()
    return Scene(puzzle.family, rows, cols, squares, labels, regions,
                 before=tuple(map(Token, directives)),
                 caption=tuple(line.removeprefix("# ") for line in directives), layout=layout)


def _value(puzzle, cell: Cell) -> str:
    """What a picture writes in a cell: its token, or in the games whose numbers add,
    its number alone (its sign kept)."""
    if puzzle.game == "crosscells":
        return unmarked(cell.text)
    return str(-cell.number if cell.op == "-" else cell.number)


def _decided(puzzle, typed, index: int) -> frozenset[str]:
    """ON or OFF for a decided cell, given or solved, drawn as its game draws it."""
    on = puzzle.cells[index].decided
    if on is None:
        return frozenset()
    drawn_as = {SUMPLETE: {0: CROSSED}, NUMBER_SUMS: {1: CIRCLED}}.get(puzzle.game, {})
    source = GIVEN if typed.cells[index].decided is not None else SOLVED
    return frozenset({ON if on else OFF, source} | ({drawn_as[on]} if on in drawn_as else set()))


def _corners(puzzle) -> dict[int, Token]:
    """A Number Sums region's letter, in the corner of its first cell: by cell."""
    if puzzle.game != NUMBER_SUMS:
        return {}
    return {puzzle.group_cells(g)[0]: Token(g) for g in _group_names(puzzle)}


def _group_names(puzzle) -> list[str]:
    return list(dict.fromkeys(letter for cell in puzzle.cells for letter in cell.group))


def _side(puzzle, constraint: Constraint) -> str:
    """Where a constraint stands: at a row's "left" or "right" end, above ("top") or below
    ("bottom") a column, or a group's in the "legend"."""
    for line, (head, tail) in [(line, ("left", "right")) for line in puzzle.rows] + \
            [(line, ("top", "bottom")) for line in puzzle.columns]:
        if constraint is line.head or constraint is line.tail:
            return head if constraint is line.head else tail
    return LEGEND


def _clues_of_constraints(puzzle, columns: Sequence[Line]) -> dict[int, Clue]:
    """The clue (row, column or group) each constraint token (by id) belongs to."""
    found = {id(end): Clue("row", "", index=r) for r, line in enumerate(puzzle.rows) for end in ends(line)}
    found.update((id(end), Clue("column", "", index=k))
                 for k, line in enumerate(columns) for end in ends(line))
    found.update((id(g), Clue("group", "", name=g.group)) for g in puzzle.groups)
    return found


def _grid_places(puzzle, columns: Sequence[Line]) -> tuple[dict[int, tuple[int, int]], int, int]:
    """Where a picture draws each cell (by index) and constraint (by id), and the grid's
    size: a row of the puzzle is a row of the grid, a column one of its columns; a
    cell in no column stands beside its row's neighbours; the constraints of a row
    at its ends, of a column above and below it, of the groups in a legend below."""
    column_of = {i: k for k, line in enumerate(columns) for i in line.cells}
    col: dict[int, int] = {}
    for row in puzzle.rows:
        anchored = [(n, column_of[i]) for n, i in enumerate(row.cells) if i in column_of]
        for n, i in enumerate(row.cells):
            if i in column_of:
                col[i] = column_of[i]
            else:
                near = min(anchored, key=lambda a: abs(a[0] - n), default=(0, 0))
                col[i] = near[1] + n - near[0]
    low = min([col[i] for i in col] or [0])
    at: dict[int, tuple[int, int]] = {i: (r, col[i] - low) for r, row in enumerate(puzzle.rows)
                                      for i in row.cells}
    height = len(puzzle.rows)
    width = max((c + 1 for _, c in at.values()), default=0)
    for r, line in enumerate(puzzle.rows):
        columns = [at[i][1] for i in line.cells] or [0]
        if line.head:
            at[id(line.head)] = (r, min(columns) - 1)
        if line.tail:
            at[id(line.tail)] = (r, max(columns) + 1)
    for line in puzzle.columns:
        k = at[line.cells[0]][1] if line.cells else 0
        if line.head:
            at[id(line.head)] = (-1, k)
        if line.tail:
            at[id(line.tail)] = (height, k)
    for n, group in enumerate(puzzle.groups):
        at[id(group)] = (height + 1, n)
    return at, height, width


def columns_of_tokens(puzzle) -> dict[int, int]:
    """The column (counted left to right) each cell (by index) and each column
    constraint (by id) belongs to."""
    found: dict[int, int] = {}
    for k, line in enumerate(puzzle.columns_left_to_right()):
        found.update(dict.fromkeys(line.cells, k))
        found.update((id(end), k) for end in (line.head, line.tail) if end)
    return found


def spread(puzzle, items: Sequence[Item], members: Sequence[int | None]) -> list[Item]:
    """`items` moved apart just enough that brackets, or a decided cell's mark, never
    run two tokens together: the tokens of a column (`members`: the column of
    each item, None for a row's or group's) move with it, and so does any
    other token that overlaps it (so it still does); each column far enough
    right of the one before, any other token far enough right of the column
    before it, and of the token before it on its line.  Where a token of a
    column would still touch the one before it, its column moves further
    right, and the drawing is laid out again."""
    extents = [(min(puzzle.cells[i].place.column for i in line.cells),
                max(puzzle.cells[i].place.column + len(puzzle.cells[i].text) for i in line.cells))
               for line in puzzle.columns_left_to_right()]

    def overlapped(place: Place, text: str) -> int | None:
        end = place.column + len(anchored(text))
        return next((k for k, (low, high) in enumerate(extents)
                     if low < end and place.column < high), None)

    members = [overlapped(place, text) if member is None else member
               for (place, text, _), member in zip(items, members)]
    extra = [0] * len(extents)  # how much further right each column must stand
    for _ in range(len(items) + 1):  # each round moves a column: at most one per token
        starts = _spread_starts(items, members, extents, extra)
        pushed = _first_touching(items, members, starts)
        if pushed is None:
            break
        column, by = pushed
        extra[column] += by
    return [(Place(place.line, start + marked), text, marked)
            for (place, text, marked), start in zip(items, starts)]


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

def anchored(text: str) -> str:
    """What of a token's text stands under its column: all of it, but of a constraint
    in words only its number (the `24` of `24 total`, the `[6]` of `[6] tiles`)."""
    return text.split(" ")[0] if text.strip() else text


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
