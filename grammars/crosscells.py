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
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from functools import cache, lru_cache
from operator import ge, gt
from typing import NamedTuple, Sequence

import pyparsing as pp

from ..crosscells import (COUNT, DECIDED, FIRST_CELL_RULES, GAMES, NUMBER_SUMS, OPERATORS,
                          PRECEDENCES, SUMPLETE, TOTAL, Cell, Constraint, CrossCells, Place,
                          anchored, drawn_at)
from ..crosscells import Line as CellLine
from ..drawing import FENCE
from ..errors import ParseError
from ..families import BY_NAME
from ..family import STRONG, WEAK, Claim, NONE
from ..puzzle import unchecked
from .common import (MAX_DIGITS, Line, Token, entire, error_at, is_blank, located, parse_line,
                     split_directives)

WHAT = "a cell like +3 or *2a, or a constraint like =24, #1 or a#6"

# The pieces of a token, as regular expressions with named groups.
END = r"(?!\S)"  # tokens are separated by blanks
SPELLINGS = {spelling: operator for operator in OPERATORS.values()
             for spelling in (operator.symbol, *operator.aliases)}
OPERATOR = f"(?:{'|'.join(map(re.escape, sorted(SPELLINGS, key=len, reverse=True)))})"
LETTER = r"[A-Za-z]"
MARKED = {mark: on for on, mark in DECIDED.items()}  # a solver's mark after a cell: ! on, ~ off
CELL_PATTERN = rf"(?P<op>{OPERATOR})(?P<number>\d+)(?P<group>{LETTER}*)(?P<decided>[!~]?)"
TOTAL_PATTERN = rf"(?P<group>{LETTER}?)=(?P<value>-?\d+)"
COUNT_PATTERN = rf"(?P<group>{LETTER}?)#(?P<value>\d+)"
# In words, as the game shows them: `24 total`, `[6] tiles`, `a: 24 total`.
GROUP_IN_WORDS = rf"(?:(?P<group>{LETTER}): *)?"
TOTAL_IN_WORDS = rf"{GROUP_IN_WORDS}(?P<value>-?\d+) +(?i:total)"
COUNT_IN_WORDS = rf"{GROUP_IN_WORDS}\[(?P<value>\d+)\] +(?i:tiles?)"


def _number(text: str, loc: int, digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise pp.ParseFatalException(text, loc, f"numbers have at most {MAX_DIGITS:,} digits")
    return int(digits)


def _cell(text: str, loc: int, t: pp.ParseResults) -> Cell:
    operator = SPELLINGS[t["op"]]
    number = _number(text, loc, t["number"])
    if operator.positive and number == 0:
        raise pp.ParseFatalException(text, loc, f"{operator.name} by 0: a {t['op']} cell needs "
                                                "a number above 0")
    return Cell(operator.symbol, number, t["group"], text=t[0], decided=MARKED.get(t["decided"]))


def _constraint(kind: str):
    """The parse action for a constraint of `kind`."""

    def constraint(text: str, loc: int, t: pp.ParseResults) -> Constraint:
        return Constraint(kind, _number(text, loc, t["value"]), t["group"] or "", text=t[0])

    return constraint


cell = pp.Regex(CELL_PATTERN + END).set_name("cell").set_parse_action(_cell)
total = pp.Regex(TOTAL_PATTERN + END).set_name("total").set_parse_action(_constraint(TOTAL))
count = pp.Regex(COUNT_PATTERN + END).set_name("count").set_parse_action(_constraint(COUNT))
in_words = (pp.Regex(TOTAL_IN_WORDS + END).set_parse_action(_constraint(TOTAL))
            | pp.Regex(COUNT_IN_WORDS + END).set_parse_action(_constraint(COUNT)))
constraint = in_words | total | count  # in words first: `-3 total` is no cell
token_line = pp.OneOrMore(located((constraint | cell).set_name(WHAT))).parse_with_tabs()

COMMENT = re.compile(r"\s*#(\s|$)")
FENCE_LINE = re.compile(r"\s*" + FENCE)


def unnamed(*patterns: str) -> str:
    """Any of `patterns`, their named groups made plain (so that they combine)."""
    return "|".join(re.sub(r"\(\?P<\w+>", "(?:", pattern) for pattern in patterns)


# What the claim counts: a constraint in words is one token.
CELL_TOKEN = re.compile(unnamed(CELL_PATTERN))
CONSTRAINT_TOKEN = re.compile(unnamed(TOTAL_PATTERN, COUNT_PATTERN, TOTAL_IN_WORDS, COUNT_IN_WORDS))
TOKEN = re.compile(rf"(?:{unnamed(TOTAL_IN_WORDS, COUNT_IN_WORDS)}){END}|\S+")


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
    tokens = [token for line in puzzle_lines(lines) for token in TOKEN.findall(line.text)]
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


def layout_of(lines: Sequence[Line]) -> str:
    return "markdown" if any(FENCE_LINE.match(line.text) for line in lines) else "text"


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


def placed(token: Token, line: Line) -> Cell | Constraint:
    return replace(token.value, place=Place(line.number - 1, token.column - 1))


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
            if other is not cell:
                raise error_at(f"this cell and {other.text!r} at column {other.place.column + 1} "
                               "fall in one column: tokens above or below overlap both",
                               source[cell.place.line], cell.place.column + 1)


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
        token = entire(constraint | cell).parse_string(text)[0]
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


# Sumplete and Number Sums: numbers to keep or delete, written as those games show them


class Number(NamedTuple):
    """A number of the grid, its region letters and a solver's mark (`!` kept, `~`
    deleted, "" none): a cell, or a target, by where it stands."""

    value: int
    group: str
    mark: str


def _grid_number(text: str, loc: int, t: pp.ParseResults) -> Number:
    return Number(_number(text, loc, t["number"]), t["group"], t["decided"])


grid_number = pp.Regex(rf"(?P<number>-?\d+)(?P<group>{LETTER}*)(?P<decided>[!~]?){END}") \
    .set_parse_action(_grid_number)
region_target = pp.Regex(rf"(?P<group>{LETTER})=(?P<value>-?\d+){END}").set_parse_action(
    _constraint(TOTAL))
SUMS_WHAT = {SUMPLETE: "a number like 5 or -3",
             NUMBER_SUMS: "a number like 5, -3 or 5a, or a region's target like a=12"}
GridLine = tuple[Line, list[Token]]
SUMS_LINES = {game: pp.OneOrMore(located((region_target | grid_number).set_name(what))).parse_with_tabs()
              for game, what in SUMS_WHAT.items()}


def parse_sums(lines: Sequence[Line], game: str, first_cell: str, precedence: str) -> CrossCells:
    """The Sumplete or Number Sums puzzle drawn in `lines`: every cell adds its number."""
    drawn = [(line, list(parse_line(SUMS_LINES[game], line, SUMS_WHAT[game])))
             for line in puzzle_lines(lines)]
    if not any(isinstance(tokens[0].value, Number) for _, tokens in drawn):
        raise error_at(f"no numbers here: a {game} row is its numbers, then its target",
                       drawn[0][0] if drawn else Line(1, ""), 1)
    if first_cell == "seeds":
        raise error_at(f"{game} adds its numbers: the first-cell rule 'seeds' does not apply",
                       drawn[0][0], 1)
    grid, region_lines = grid_and_regions(drawn, game)
    row_lines, (targets_line, targets), end = rows_and_targets(grid)
    cells: list[Cell] = []
    rows = []
    for line, tokens in row_lines:
        first = len(cells)
        cells += [grid_cell(token, line, game) for token in tokens[:-1]]
        rows.append(CellLine(tuple(range(first, len(cells))), tail=target(tokens[-1], line)))
    columns = [CellLine(tuple(row.cells[k] for row in rows), **{end: target(token, targets_line)})
               for k, token in enumerate(targets)]
    regions = region_targets(region_lines, cells)
    every_region_has_a_target(row_lines, regions)
    return CrossCells(tuple(cells), tuple(rows), tuple(columns), tuple(regions), first_cell,
                      precedence, game, layout_of(lines))


def grid_and_regions(drawn: list[GridLine], game: str) -> tuple[list[GridLine], list[GridLine]]:
    """The lines of numbers, and the lines of region targets below them.

    ParseError for region targets mixed with numbers, above the grid's last
    line, or in a game without regions."""
    grid = [(line, tokens) for line, tokens in drawn if isinstance(tokens[0].value, Number)]
    regions = [(line, tokens) for line, tokens in drawn if not isinstance(tokens[0].value, Number)]
    for line, tokens in drawn:
        kinds = [isinstance(token.value, Number) for token in tokens]
        if len(set(kinds)) > 1:
            odd = tokens[kinds.index(not kinds[0])]
            raise error_at("a region's targets stand on lines of their own, below the grid",
                           line, odd.column)
    for line, tokens in regions:
        if game != NUMBER_SUMS:
            raise error_at(f"a region's target: regions are Number Sums' (# game: {NUMBER_SUMS})",
                           line, tokens[0].column)
        if line.number < grid[-1][0].number:
            raise error_at("a region's targets stand below the grid", line, tokens[0].column)
    return grid, regions


def rows_and_targets(grid: list[GridLine]) -> tuple[list[GridLine], GridLine, str]:
    """The rows (numbers, then a target), the line of column targets, and which end of
    the columns it stands at: the last line ("tail"), or the first ("head") when the
    last has as many numbers as the longest row.  ParseError for a row without its
    target, or with a number too many or too few."""
    most = max(len(tokens) for _, tokens in grid)
    end = "tail" if len(grid[-1][1]) < most else "head"
    targets = grid[-1] if end == "tail" else grid[0]
    if len(targets[1]) == most:
        line, tokens = grid[-1]
        raise error_at("no column targets: they stand on one line below the grid (or above it), "
                       "one under each column", line, tokens[-1].end)
    rows = [drawn for drawn in grid if drawn is not targets]
    for line, tokens in rows:
        if len(tokens) == len(targets[1]):
            raise error_at("this row has no target: a row is its numbers, then its target",
                           line, tokens[-1].end)
        if len(tokens) != len(targets[1]) + 1:
            raise error_at(f"this row has {len(tokens) - 1} numbers and a target, but the column "
                           f"targets stand for {len(targets[1])} columns", line,
                           tokens[-1].end)
    return rows, targets, end


def grid_cell(token: Token, line: Line, game: str) -> Cell:
    """The cell that adds the number of `token` (`-3` is the cell -3)."""
    number = token.value
    if number.group and game != NUMBER_SUMS:
        raise error_at(f"a region letter: regions are Number Sums' (# game: {NUMBER_SUMS})",
                       line, letters_at(token))
    return Cell("-" if number.value < 0 else "+", abs(number.value), number.group,
                place=Place(line.number - 1, token.column - 1), text=token.text,
                decided=MARKED.get(number.mark))


def letters_at(token: Token) -> int:
    """The column of the region letters (or mark) of a number's token."""
    return token.end - len(token.value.group) - len(token.value.mark)


def target(token: Token, line: Line) -> Constraint:
    """The total `token` states, for the row or column it ends."""
    if token.value.group or token.value.mark:
        raise error_at("a target stands alone: no region letter, no mark", line, letters_at(token))
    return Constraint(TOTAL, token.value.value, place=Place(line.number - 1, token.column - 1),
                      text=token.text)


def region_targets(region_lines: list[GridLine], cells: list[Cell]) -> list[Constraint]:
    """The target of every region.  ParseError for a target given twice, or for a letter
    no number has."""
    found: dict[str, Constraint] = {}
    for line, tokens in region_lines:
        for token in tokens:
            constraint = placed(token, line)
            if not any(constraint.group in cell.group for cell in cells):
                raise error_at(f"no number is in region {constraint.group!r}", line, token.column)
            if constraint.group in found:
                raise error_at(f"region {constraint.group!r} already has a target (line "
                               f"{found[constraint.group].place.line + 1})", line, token.column)
            found[constraint.group] = constraint
    return list(found.values())


def every_region_has_a_target(row_lines: list[GridLine], regions: list[Constraint]) -> None:
    """ParseError at the first number in a region that has no target."""
    targets = {region.group for region in regions}
    for line, tokens in row_lines:
        for token in tokens[:-1]:
            if missing := next((g for g in token.value.group if g not in targets), None):
                raise error_at(f"region {missing!r} has no target: give it one on a line below "
                               f"the grid, like {missing}=12", line, letters_at(token))
