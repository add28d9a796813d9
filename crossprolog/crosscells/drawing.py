"""How a CrossCells puzzle is drawn: in the layout it was typed in, solved cells
marked as a solver marks them, marked tokens in brackets, columns spread apart
just enough to keep them apart; and the template an exported program fills in.

Each function takes the `puzzle` (a crosscells.model.CrossCells) first; the
model's `render` calls here, so this module does not import it back."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from itertools import groupby
from typing import Collection, Sequence

from ..answers import NO_MARKS, Marks, Solution
from ..drawing import bracketed, checked_format, fenced
from ..errors import InvalidValue
from .rules import DECIDED, Cell, Constraint, Place, unmarked

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


def render(puzzle, solution: Solution | None = None, format: str | None = None,
           marks: Marks = NO_MARKS) -> str:
    """The puzzle as drawn, below its directives; solved by `solution`, every cell
    marked as a solver decides it (`+2a!` ON, `+2a~` OFF), so that it reads back
    in as the puzzle with every cell decided.  Markdown is the same drawing in a
    fenced code block, which keeps the columns aligned.  A marked cell or
    constraint stands in brackets."""
    format = checked_format(format or puzzle.layout)
    if solution is not None:
        return puzzle.placing({(r, k): on for r, values in enumerate(solution.values)
                               for k, on in enumerate(values)}).render(format=format, marks=marks)
    marked_cells = {puzzle.rows[r].cells[i] for r, i in marks.cells}
    marked_constraints = {id(c) for clue in marks.clues for c in puzzle.constraints_of(clue)}
    constraints = puzzle.constraints()
    items = [drawn(cell, i in marked_cells) for i, cell in enumerate(puzzle.cells)]
    items += [drawn(c, id(c) in marked_constraints) for c in constraints]
    if marks == NO_MARKS and all(cell.decided is None for cell in puzzle.cells):
        drawing = draw(items)  # as it was typed
    elif puzzle.game != "crosscells":
        drawing = grid_drawing(puzzle, {id(puzzle.cells[i]) for i in marked_cells} | marked_constraints)
    else:
        column_of = columns_of_tokens(puzzle)
        drawing = draw(spread(puzzle, items, [column_of.get(i) for i in range(len(puzzle.cells))]
                                   + [column_of.get(id(c)) for c in constraints]))
    drawing = "\n".join(puzzle.directives() + [drawing])
    return fenced(drawing) if format == "markdown" else drawing


def grid_drawing(puzzle, marked: Collection[int]) -> str:
    """A Sumplete or Number Sums drawing laid out anew, its numbers right-aligned in
    columns of one width: those games read a row's numbers in order, so where
    they were typed (tabs, ragged blanks) need not be kept, and marks get room.
    `marked` holds the ids of the tokens (cells, constraints) to draw in brackets."""
    def text(token: Cell | Constraint | None) -> list[str]:
        return [] if token is None else [bracketed(token.text, id(token) in marked)]

    rows = [[t for i in row.cells for t in text(puzzle.cells[i])] + text(row.tail)
            for row in puzzle.rows]
    columns = puzzle.columns_left_to_right()
    head = any(column.head for column in columns)
    targets = [t for column in columns for t in text(column.head if head else column.tail)]
    lines = [targets] + rows if head else rows + [targets]
    width = max((len(t) for line in lines for t in line), default=1)
    grid = [" ".join(t.rjust(width) for t in line) for line in lines]
    regions = [" ".join(t for group in puzzle.groups for t in text(group))] if puzzle.groups else []
    return "\n".join(grid + regions)


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
