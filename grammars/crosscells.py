"""The CrossCells layout: cells and constraints typed where they stand in the grid.

    +1a  +2a  *4a  +2      =4
     =6  =12   #1  =6
    a#6

A cell is an operator (a symbol or an alias of the table
`crossprolog.crosscells.OPERATORS`: `+`, `*`, `x` or `×` for `*`, ...), a
number and maybe group letters: `+3`, `x2`, `*2a`, `*2ab` (in groups a and
b).  A constraint is maybe a group letter, then `=N` (a total, N may be
negative) or `#N` (a count of ON cells); or, as the game shows them, in
words: `24 total` for `=24`, `[6] tiles` (or `tile`) for `#6`, and for a
group `a: 24 total`, `a: [6] tiles`.

- A row is the cells of one line.  A constraint after its last cell reads it
  left to right; one before its first cell reads it right to left.
- Cells of different lines whose tokens overlap horizontally share a column,
  so rows may be ragged and offset (a tab reaches the next multiple of 8
  columns, as a terminal shows it).  A constraint on a line below the grid
  reads the column it overlaps top to bottom; above the grid, bottom to top.
  For a constraint in words, its number (`24`, `[6]`) decides the column, so
  the words may reach past it, and constraints that do not fit side by side
  stand on several lines.
- A group constraint (`a#6`, `a=12`, `a: [6] tiles`) may stand anywhere
  outside the cells; a group total reads the group's cells in reading order.
- A cell a solver has decided carries a mark: `+8!` is ON, `+8~` is OFF.
- `#` then a space (or nothing) at the start of a line is a comment; blank
  lines are ignored, and so are ``` fence lines: the drawing may sit in a
  markdown code block.

Directives (above the puzzle): `# first-cell: seeds` (or `zero`, the
default), `# precedence: standard` (or `left-to-right`, the default), and
`# game: sumplete` or `# game: number-sums`, for those games' own layout:

    # game: number-sums
     3a  5a  1b   8
     2a  7b  4b  11
     6c  1c  9b   7
     8  12   5
    a=10 b=15 c=7

Every cell adds its number (negative ones too); a row's target follows its
numbers, the column targets stand on one line below the grid (or above
it), one under each column, in order.  In Number Sums a letter right after
a number puts it in a region, and lines below the grid such as `a=12` give
every region its target.

The tokens are read in `crosscells_tokens`, the games' own layout in
`crosscells_sums`; this module reads the grid layout, claims a text, and
reads a whole text of grids in one pass (`read_all`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import cache, lru_cache
from operator import ge, gt
from typing import NamedTuple, Sequence

import pyparsing as pp

from ..crosscells import (COUNT, FIRST_CELL_RULES, GAMES, PRECEDENCES, Cell, Constraint, CrossCells,
                          Place, anchored, drawn_at)
from ..crosscells import Line as CellLine
from ..errors import ParseError
from ..families import BY_NAME
from ..family import STRONG, WEAK, Claim, NONE
from ..puzzle import unchecked
from .common import Line, Token, entire, error_at, is_blank, parse_line, split_directives
from .crosscells_sums import parse_sums
from .crosscells_tokens import (CELL_PATTERN, CELL_TOKEN, CONSTRAINT_TOKEN, COUNT_PATTERN, TOKEN,
                                TOTAL_PATTERN, WHAT, cell_element, constraint_element, is_comment,
                                layout_of, placed, puzzle_lines, token_line, unnamed)


class TextLine(NamedTuple):
    """A line of the puzzle, its cells, and the constraints before and after them."""

    source: Line
    cells: list[Cell]
    before: list[Constraint]
    after: list[Constraint]


def claim(lines: Sequence[Line]) -> Claim:
    """Strong when the text has cells (`+3`, `*2a`) and every token is a cell or a
    constraint; weaker as other tokens mix in."""
    tokens = [token for line in puzzle_lines(lines) for token in TOKEN.findall(line.text)]
    cells = sum(bool(CELL_TOKEN.fullmatch(token)) for token in tokens)
    if not cells:
        return NONE
    ours = cells + sum(bool(CONSTRAINT_TOKEN.fullmatch(token)) for token in tokens)
    if ours == len(tokens):
        return Claim(STRONG, "cells like +3 and constraints like =24")
    return Claim(WEAK * ours / len(tokens), f"{ours} of {len(tokens)} tokens are cells or constraints")


def parse(lines: Sequence[Line], *, first_cell: str = "zero", precedence: str = "left-to-right",
          game: str = "crosscells") -> CrossCells:
    """The CrossCells drawn in `lines`, in the layout of its `game`.  Raises ParseError
    at the first problem."""
    if game != "crosscells":
        return parse_sums(lines, game, first_cell, precedence)
    drawn = [text_line(line) for line in puzzle_lines(lines)]
    row_lines = [line for line in drawn if line.cells]
    if not row_lines:
        raise error_at("no cells here: a cell is an operator and a number, like +3 or *2a",
                       drawn[0].source if drawn else Line(1, ""), 1)
    cells = [c for line in row_lines for c in line.cells]
    index = {c.place: i for i, c in enumerate(cells)}
    rows = [row_of(line, index) for line in row_lines]
    columns = columns_of(cells, index, drawn, row_lines)
    groups = group_constraints(drawn, cells)
    return CrossCells(tuple(cells), tuple(rows), tuple(columns), tuple(groups),
                      first_cell=first_cell, precedence=precedence, layout=layout_of(lines))


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
        return list(entire(token_line).parse_string(line.text))
    except pp.ParseFatalException as error:
        raise error_at(error.msg, line, error.loc + 1) from None
    except pp.ParseException:
        return list(parse_line(token_line, line, WHAT))  # raises its located "expected ..." error


def span(token: Cell | Constraint) -> tuple[int, int]:
    """The character columns a token covers: [start, end)."""
    return token.place.column, token.place.column + len(token.text)


def number_span(constraint: Constraint) -> tuple[int, int]:
    """The character columns of a constraint's number, which decide its column: all of
    `=24`, the `24` of `24 total`, the `[6]` of `[6] tiles`."""
    return constraint.place.column, constraint.place.column + len(anchored(constraint.text))


def row_of(line: TextLine, index: dict[Place, int]) -> CellLine:
    """The row a line's cells form, with the constraint at either end."""
    return CellLine(tuple(index[c.place] for c in line.cells), *row_ends(line))


def row_ends(line: TextLine) -> tuple[Constraint | None, Constraint | None]:
    """The constraints before and after a line's cells."""
    return (one_end(line.before, line.source, "this row already has a constraint at its left end"),
            one_end(line.after, line.source, "this row already has a constraint at its right end"))


def one_end(constraints: list[Constraint], line: Line, second: str) -> Constraint | None:
    """The line constraint (no group letter) among `constraints`; ParseError at a second one."""
    ungrouped = [c for c in constraints if not c.group] if constraints else constraints
    if len(ungrouped) > 1:
        raise error_at(second, line, ungrouped[1].place.column + 1)
    return ungrouped[0] if ungrouped else None


def columns_of(cells: list[Cell], index: dict[Place, int], lines: list[TextLine],
               row_lines: list[TextLine]) -> list[CellLine]:
    """The columns of the grid, with the constraints above and below them."""
    clusters = overlapping(cells)
    check_one_cell_per_row(clusters, cells, row_lines)
    extents = [(span(cluster[0])[0], max(span(c)[1] for c in cluster)) for cluster in clusters]
    ends = column_ends(lines, extents, row_lines)
    return [CellLine(tuple(sorted(index[c.place] for c in cluster)), ends.get((k, "head")),
                     ends.get((k, "tail")))
            for k, cluster in enumerate(clusters)]


def column_ends(lines: list[TextLine], extents: list[tuple[int, int]],
                row_lines: list[TextLine]) -> dict[tuple[int, str], Constraint]:
    """The constraints above ("head") and below ("tail") the columns whose character
    columns are `extents`, by column and end.  ParseError for one between the rows,
    under no column or two, or a second at one end of a column."""
    found: dict[tuple[int, str], Constraint] = {}
    starts, ends = [lo for lo, _ in extents], [hi for _, hi in extents]
    top, bottom = row_lines[0].source.number, row_lines[-1].source.number
    for line in (line for line in lines if not line.cells):
        for constraint in (c for c in line.before if not c.group):
            if top < line.source.number < bottom:
                raise error_at("a column constraint stands above or below the grid; between rows "
                               "only group constraints like a#6 may stand", line.source,
                               constraint.place.column + 1)
            end = "head" if line.source.number < top else "tail"
            column = column_under(constraint, starts, ends, line.source)
            if (column, end) in found:
                where = "above" if end == "head" else "below"
                raise error_at(f"this column already has a constraint {where} it (line "
                               f"{found[column, end].place.line + 1})", line.source,
                               constraint.place.column + 1)
            found[column, end] = constraint
    return found


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
            if other is cell:
                continue
            bridge = next((c for c in cluster if c.place.line != cell.place.line
                           and overlap(c, other) and overlap(c, cell)), None)
            if bridge is not None:
                raise error_at(f"this cell overlaps both {other.text!r} and {cell.text!r} of line "
                               f"{cell.place.line + 1} (columns {other.place.column + 1} and "
                               f"{cell.place.column + 1}), which then fall in one column",
                               source[bridge.place.line], bridge.place.column + 1)
            raise error_at(f"this cell and {other.text!r} at column {other.place.column + 1} "
                           "fall in one column: tokens above or below overlap both",
                           source[cell.place.line], cell.place.column + 1)


def overlap(one: Cell, other: Cell) -> bool:
    """Whether two cells overlap horizontally."""
    (start, end), (other_start, other_end) = span(one), span(other)
    return start < other_end and other_start < end


def column_under(constraint: Constraint, starts: list[int], ends: list[int], line: Line) -> int:
    """The one column a constraint's number overlaps horizontally, of those that start and
    end at `starts` and `ends` (character columns); ParseError for none or several."""
    start, end = number_span(constraint)
    first = bisect_right(ends, start)
    after_last = bisect_left(starts, end)
    if after_last - first == 1:
        return first
    problem = "overlaps no column of cells" if after_last <= first else "overlaps two columns"
    raise error_at(f"this column constraint {problem}; put it right above or below one column",
                   line, constraint.place.column + 1)


def group_constraints(lines: list[TextLine], cells: list[Cell]) -> list[Constraint]:
    """The group constraints, wherever they stand; ParseError for a group with no
    cells, or a second total or count for one group."""
    found: dict[tuple[str, str], Constraint] = {}
    groups: set[str] = set()
    for line in lines:
        for constraint in line.before + line.after:
            if not constraint.group:
                continue
            groups = groups or set("".join(c.group for c in cells))  # once, if any is needed
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


# A whole text of puzzles in one pass (see read_all): the grids `generate` writes and
# most people type, in ASCII; `parse` reads any other text piece by piece, and says
# where and why it refuses one.

BARE_TOKEN = unnamed(CELL_PATTERN, TOTAL_PATTERN, COUNT_PATTERN)
BARE_LINE = rf" *(?:{BARE_TOKEN})(?: +(?:{BARE_TOKEN}))* *"
COMMENT_LINE = r" *#(?: [ -~]*)?"  # directives too: split_directives tells them apart
OPTIONS = BY_NAME["crosscells"].options
RULES = {"game": GAMES, "first_cell": FIRST_CELL_RULES, "precedence": PRECEDENCES}


@cache
def whole_text(separator: str) -> tuple[pp.ParserElement, re.Pattern]:
    """The element that reads a whole text of bare lines (tokens without words), comments,
    blank lines and lines that fully match `separator` into its Lines; and the
    separator's pattern."""
    line = rf"(?:{BARE_LINE}|{COMMENT_LINE}|{separator}| *)"
    numbered = lambda t: [[Line(n, text) for n, text in enumerate(t[0].split("\n"), start=1)]]
    element = pp.Regex(rf"{line}(?:\n{line})*").leave_whitespace().set_parse_action(numbered)
    return element + pp.StringEnd(), re.compile(separator)


def read_all(text: str, separator: str, **options: str) -> list[CrossCells] | None:
    """Every puzzle of `text`, read in one pass, when the text holds only CrossCells
    drawn as grids (see `grid`) in bare lines of ASCII tokens (cells, `=N`, `#N`,
    `a=N`, `a#N`), with comments and directives, apart by blank lines and lines that
    fully match `separator`; None for any other text, which `parse` then reads piece
    by piece, refusing where it must.  The puzzles are those `parse` gives under
    `options` (by model keyword): a text it takes is one whose every puzzle
    `registry.detect` gives this family."""
    if not text.isascii() or "\t" in text or "\r" in text:
        return None  # source_lines would expand the tabs, split at CRs, blank wide spaces
    element, separator_line = whole_text(separator)
    try:
        lines = element.parse_string(text)[0]
    except pp.ParseBaseException:
        return None
    chunks = [Chunk([], [])]
    for line in lines:
        if separator_line.fullmatch(line.text):
            chunks.append(Chunk([], []))
        elif not is_blank(line):
            (chunks[-1].comments if is_comment(line) else chunks[-1].drawn).append(line)
    shared = chunks[0] if len(chunks) > 1 and not chunks[0].drawn else Chunk([], [])
    try:
        above = directives(shared)
        puzzles = [grid(chunk.drawn, {**above, **directives(chunk), **options})
                   for chunk in chunks if chunk.drawn]
    except ParseError:
        return None
    return None if not puzzles or None in puzzles else puzzles


class Chunk(NamedTuple):
    """The lines between two separators: those that draw a puzzle, and the comments."""

    drawn: list[Line]
    comments: list[Line]


def directives(chunk: Chunk) -> dict[str, str]:
    """The options the directives of `chunk` state, as `split_directives` reads them (from
    the lines it tells them by: the comments, and the first line drawn, above which
    directives belong).  Raises ParseError."""
    if not chunk.comments:
        return {}
    return split_directives(sorted(chunk.comments + chunk.drawn[:1]), OPTIONS, is_comment)[0]


@lru_cache(maxsize=4096)
def bare_token(text: str) -> tuple[Cell | Constraint, bool] | None:
    """The cell or constraint a token's text is, placed nowhere, as `token_line` reads
    it, and whether it is a cell; None for one it refuses (`/0`, a number too long)."""
    try:
        token = entire(constraint_element | cell_element).parse_string(text)[0]
    except pp.ParseBaseException:
        return None
    return token, type(token) is Cell


def bare_text_line(line: Line) -> tuple[TextLine, list[int], list[int]] | None:
    """What `text_line` gives for a bare line, and where its cells start and end; None
    where it refuses the line."""
    at, text = line.number - 1, line.text
    before: list[Constraint] = []
    cells: list[Cell] = []
    after: list[Constraint] = []
    starts: list[int] = []
    ends: list[int] = []
    start = 0
    for word in text.split():
        read = bare_token(word)
        if read is None:
            return None
        token, is_cell = read
        start = text.index(word, start)
        if is_cell:
            if after:
                return None  # a constraint between cells
            cells.append(drawn_at(token, at, start))
            starts.append(start)
            start += len(word)
            ends.append(start)
        else:
            (after if cells else before).append(drawn_at(token, at, start))
            start += len(word)
    return TextLine(line, cells, before, after), starts, ends


def grid(drawn: list[Line], settings: dict[str, str]) -> CrossCells | None:
    """The puzzle of the lines `drawn` under `settings`, when its cells form a grid: every
    line of cells has as many, and the k-th cells of all of them overlap one another
    and no other cells (so that `columns_of` finds them a column); None for any
    other layout, or game, and for anything `parse` refuses.  Raises ParseError
    for some of that."""
    if settings.get("game", "crosscells") != "crosscells" or any(
            value not in RULES[key] for key, value in settings.items()):
        return None  # another game's layout, or rules the model refuses
    read = list(map(bare_text_line, drawn))
    if None in read:
        return None
    lines = [line for line, _, _ in read]
    row_lines = [line for line in lines if line.cells]
    if not row_lines or len({len(line.cells) for line in row_lines}) > 1:
        return None
    starts = list(zip(*[at for line, at, _ in read if line.cells]))  # by column
    ends = list(zip(*[at for line, _, at in read if line.cells]))
    first_starts, last_ends = list(map(min, starts)), list(map(max, ends))
    if any(map(ge, map(max, starts), map(min, ends))) or any(map(gt, last_ends, first_starts[1:])):
        return None  # cells of a column with no point in common, or columns that touch
    extents = list(zip(first_starts, last_ends))
    cells = [c for line in row_lines for c in line.cells]
    width = len(extents)
    rows = [unchecked(CellLine, cells=tuple(range(r * width, (r + 1) * width)), head=head, tail=tail)
            for r, (head, tail) in enumerate(map(row_ends, row_lines))]
    at_ends = column_ends(lines, extents, row_lines)
    columns = [unchecked(CellLine, cells=tuple(range(k, len(cells), width)),
                         head=at_ends.get((k, "head")), tail=at_ends.get((k, "tail")))
               for k in range(width)]
    groups = sorted(group_constraints(lines, cells), key=lambda g: (g.group, g.kind))
    return unchecked(CrossCells, cells=tuple(cells), rows=tuple(rows), columns=tuple(columns),
                     groups=tuple(groups), **settings)
