"""The CrossCells layout: cells and constraints typed where they stand in the grid.

    +1a  +2a  *4a  +2      =4
     =6  =12   #1  =6
    a#6

A cell is an operator (`+ - * /`, or `x`/`×` for `*`), a number and maybe a
group letter: `+3`, `x2`, `*2a`.  A constraint is maybe a group letter, then
`=N` (a total, N may be negative) or `#N` (a count of ON cells).

- A row is the cells of one line.  A constraint after its last cell reads it
  left to right; one before its first cell reads it right to left.
- Cells of different lines whose tokens overlap horizontally share a column,
  so rows may be ragged and offset (a tab reaches the next multiple of 8
  columns, as a terminal shows it).  A constraint on a line below the grid
  reads the column it overlaps top to bottom; above the grid, bottom to top.
- A group constraint (`a#6`, `a=12`) may stand anywhere outside the cells;
  a group total reads the group's cells in reading order.
- `#` then a space (or nothing) at the start of a line is a comment; blank
  lines are ignored, and so are ``` fence lines: the drawing may sit in a
  markdown code block.

Directive (above the puzzle): `# first-cell: seeds` (or `zero`, the default).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import NamedTuple, Sequence

import pyparsing as pp

from ..crosscells import COUNT, Cell, Constraint, CrossCells, Place
from ..crosscells import Line as CellLine
from ..drawing import FENCE
from ..family import STRONG, WEAK, Claim, NONE
from .common import MAX_DIGITS, Line, Token, error_at, is_blank, located, parse_line

WHAT = "a cell like +3 or *2a, or a constraint like =24, #1 or a#6"

# The pieces of a token, as regular expressions with named groups.
END = r"(?!\S)"  # tokens are separated by blanks
OPERATOR = r"[-+*/x×]"
LETTER = r"[A-Za-z]"
CELL_PATTERN = rf"(?P<op>{OPERATOR})(?P<number>\d+)(?P<group>{LETTER}?)"
TOTAL_PATTERN = rf"(?P<group>{LETTER}?)(?P<kind>=)(?P<value>-?\d+)"
COUNT_PATTERN = rf"(?P<group>{LETTER}?)(?P<kind>#)(?P<value>\d+)"
MULTIPLY = {"x": "*", "×": "*"}


def _number(text: str, loc: int, digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise pp.ParseFatalException(text, loc, f"numbers have at most {MAX_DIGITS:,} digits")
    return int(digits)


def _cell(text: str, loc: int, t: pp.ParseResults) -> Cell:
    op = MULTIPLY.get(t["op"], t["op"])
    number = _number(text, loc, t["number"])
    if op == "/" and number == 0:
        raise pp.ParseFatalException(text, loc, "division by 0: a / cell needs a number above 0")
    return Cell(op, number, t["group"], text=t[0])


def _constraint(text: str, loc: int, t: pp.ParseResults) -> Constraint:
    return Constraint(t["kind"], _number(text, loc, t["value"]), t["group"], text=t[0])


cell = pp.Regex(CELL_PATTERN + END).set_name("cell").set_parse_action(_cell)
total = pp.Regex(TOTAL_PATTERN + END).set_name("total").set_parse_action(_constraint)
count = pp.Regex(COUNT_PATTERN + END).set_name("count").set_parse_action(_constraint)
constraint = total | count
token_line = pp.OneOrMore(located((cell | constraint).set_name(WHAT))).parse_with_tabs()

COMMENT = re.compile(r"\s*#(\s|$)")
FENCE_LINE = re.compile(r"\s*" + FENCE)
CELL_TOKEN = re.compile(rf"{OPERATOR}\d+{LETTER}?")
CONSTRAINT_TOKEN = re.compile(rf"{LETTER}?(?:=-?\d+|#\d+)")


class TextLine(NamedTuple):
    """A line of the puzzle, its cells, and the constraints before and after them."""

    source: Line
    cells: list[Cell]
    before: list[Constraint]
    after: list[Constraint]


def is_comment(line: Line) -> bool:
    """`#` then a blank, or alone, opens a comment (`#6` is a count); fence lines are skipped."""
    return bool(COMMENT.match(line.text) or FENCE_LINE.match(line.text))


def claim(lines: Sequence[Line]) -> Claim:
    """Strong when the text has cells (`+3`, `*2a`) and every token is a cell or a
    constraint; weaker as other tokens mix in."""
    tokens = [token for line in puzzle_lines(lines) for token in line.text.split()]
    cells = sum(bool(CELL_TOKEN.fullmatch(token)) for token in tokens)
    if not cells:
        return NONE
    ours = cells + sum(bool(CONSTRAINT_TOKEN.fullmatch(token)) for token in tokens)
    if ours == len(tokens):
        return Claim(STRONG, "cells like +3 and constraints like =24")
    return Claim(WEAK * ours / len(tokens), f"{ours} of {len(tokens)} tokens are cells or constraints")


def puzzle_lines(lines: Sequence[Line]) -> list[Line]:
    """The lines that draw the puzzle: no blanks, comments or code fences."""
    return [line for line in lines if not (is_blank(line) or is_comment(line))]


def parse(lines: Sequence[Line], *, first_cell: str = "zero") -> CrossCells:
    """The CrossCells drawn in `lines`.  Raises ParseError at the first problem."""
    drawn = [text_line(line) for line in puzzle_lines(lines)]
    row_lines = [line for line in drawn if line.cells]
    if not row_lines:
        raise error_at("no cells here: a cell is an operator and a number, like +3 or *2a",
                       drawn[0].source if drawn else Line(1, ""), 1)
    layout = "markdown" if any(FENCE_LINE.match(line.text) for line in lines) else "text"
    cells = [c for line in row_lines for c in line.cells]
    index = {c.place: i for i, c in enumerate(cells)}
    rows = [row_of(line, index) for line in row_lines]
    columns = columns_of(cells, index, drawn, row_lines)
    groups = group_constraints(drawn, cells)
    return CrossCells(tuple(cells), tuple(rows), tuple(columns), tuple(groups),
                      first_cell=first_cell, layout=layout)


def text_line(line: Line) -> TextLine:
    """A line's cells and the constraints on either side of them, placed where they stand.

    A line with no cells has all its constraints `before`.
    """
    tokens = [placed(token, line) for token in line_tokens(line)]
    at_cells = [n for n, token in enumerate(tokens) if isinstance(token, Cell)]
    first, last = (at_cells[0], at_cells[-1]) if at_cells else (len(tokens), len(tokens))
    inside = tokens[first:last + 1]
    if stray := next((t for t in inside if isinstance(t, Constraint)), None):
        raise error_at("a constraint stands before the first cell of its line or after the last, "
                       "not between cells", line, stray.place.column + 1)
    return TextLine(line, inside, tokens[:first], tokens[last + 1:])


def line_tokens(line: Line) -> list[Token]:
    """The tokens of one line.  ParseError at the first that is neither a cell
    nor a constraint, or is one that cannot be (`/0`)."""
    try:
        return list(token_line.parse_string(line.text, parse_all=True))
    except pp.ParseFatalException as error:
        raise error_at(error.msg, line, error.loc + 1) from None
    except pp.ParseException:
        return list(parse_line(token_line, line, WHAT))  # raises its located "expected ..." error


def placed(token: Token, line: Line) -> Cell | Constraint:
    return replace(token.value, place=Place(line.number - 1, token.column - 1))


def span(token: Cell | Constraint) -> tuple[int, int]:
    """The character columns a token covers: [start, end)."""
    return token.place.column, token.place.column + len(token.text)


def row_of(line: TextLine, index: dict[Place, int]) -> CellLine:
    """The row a line's cells form, with the constraint at either end."""
    head = one_end(line.before, line.source, "this row already has a constraint at its left end")
    tail = one_end(line.after, line.source, "this row already has a constraint at its right end")
    return CellLine(tuple(index[c.place] for c in line.cells), head, tail)


def one_end(constraints: list[Constraint], line: Line, second: str) -> Constraint | None:
    """The line constraint (no group letter) among `constraints`; ParseError at a second one."""
    ungrouped = [c for c in constraints if not c.group]
    if len(ungrouped) > 1:
        raise error_at(second, line, ungrouped[1].place.column + 1)
    return ungrouped[0] if ungrouped else None


def columns_of(cells: list[Cell], index: dict[Place, int], lines: list[TextLine],
               row_lines: list[TextLine]) -> list[CellLine]:
    """The columns of the grid, with the constraints above and below them."""
    clusters = overlapping(cells)
    check_one_cell_per_row(clusters, cells, row_lines)
    extents = [(span(cluster[0])[0], max(span(c)[1] for c in cluster)) for cluster in clusters]
    ends: dict[tuple[int, str], Constraint] = {}
    top, bottom = row_lines[0].source.number, row_lines[-1].source.number
    for line in (line for line in lines if not line.cells):
        for constraint in (c for c in line.before if not c.group):
            if top < line.source.number < bottom:
                raise error_at("a column constraint stands above or below the grid; between rows "
                               "only group constraints like a#6 may stand", line.source,
                               constraint.place.column + 1)
            end = "head" if line.source.number < top else "tail"
            column = column_under(constraint, extents, line.source)
            if (column, end) in ends:
                where = "above" if end == "head" else "below"
                raise error_at(f"this column already has a constraint {where} it (line "
                               f"{ends[column, end].place.line + 1})", line.source,
                               constraint.place.column + 1)
            ends[column, end] = constraint
    return [CellLine(tuple(sorted(index[c.place] for c in cluster)), ends.get((k, "head")),
                     ends.get((k, "tail")))
            for k, cluster in enumerate(clusters)]


def overlapping(cells: list[Cell]) -> list[list[Cell]]:
    """Cells grouped by horizontal overlap, directly or through other cells; left to right."""
    clusters: list[list[Cell]] = []
    reach = None
    for cell in sorted(cells, key=lambda c: span(c)):
        start, end = span(cell)
        if reach is None or start >= reach:
            clusters.append([])
            reach = end
        clusters[-1].append(cell)
        reach = max(reach, end)
    return clusters


def check_one_cell_per_row(clusters: list[list[Cell]], cells: list[Cell],
                           row_lines: list[TextLine]) -> None:
    """ParseError when a column would take two cells of one row."""
    source = {line.source.number - 1: line.source for line in row_lines}
    for cluster in clusters:
        seen: dict[int, Cell] = {}
        for cell in sorted(cluster, key=lambda c: span(c)):
            other = seen.setdefault(cell.place.line, cell)
            if other is not cell:
                raise error_at(f"this cell and {other.text!r} at column {other.place.column + 1} "
                               "fall in one column: tokens above or below overlap both",
                               source[cell.place.line], cell.place.column + 1)


def column_under(constraint: Constraint, extents: list[tuple[int, int]], line: Line) -> int:
    """The one column a constraint overlaps horizontally; ParseError for none or several."""
    start, end = span(constraint)
    first = bisect_right([hi for _, hi in extents], start)
    after_last = bisect_left([lo for lo, _ in extents], end)
    if after_last - first == 1:
        return first
    problem = "overlaps no column of cells" if after_last <= first else "overlaps two columns"
    raise error_at(f"this column constraint {problem}; put it right above or below one column",
                   line, constraint.place.column + 1)


def group_constraints(lines: list[TextLine], cells: list[Cell]) -> list[Constraint]:
    """The group constraints, wherever they stand; ParseError for a group with no
    cells, or a second total or count for one group."""
    groups = {c.group for c in cells}
    found: dict[tuple[str, str], Constraint] = {}
    for line in lines:
        for constraint in line.before + line.after:
            if not constraint.group:
                continue
            where = constraint.place.column + 1
            if constraint.group not in groups:
                raise error_at(f"no cell is in group {constraint.group!r}", line.source, where)
            key = (constraint.group, constraint.kind)
            if key in found:
                what = "count" if constraint.kind == COUNT else "total"
                raise error_at(f"group {constraint.group!r} already has a {what} (line "
                               f"{found[key].place.line + 1})", line.source, where)
            found[key] = constraint
    return list(found.values())
