"""Reading a whole text of puzzles in one pass: what the grid families' `read_all`
share (KenKen, Killer Sudoku, Kakuro).

A text of many puzzles, each after a separator line (see `registry.parse_all`),
is matched by one pyparsing element whose lines are the family's own common
layout; the pieces are then read by plain string work, and any piece that is
not well-formed makes `read_all` give up (None), so that reading piece by
piece says where and why.  Nothing here raises ParseError.

KenKen and Killer Sudoku draw a puzzle as a grid of cage letters (a row's
cells apart or written together), then one clue line per cage (`a 12*`,
`a 12`): `grid_cells`, `letter_places` and `connected` read those.
"""

from __future__ import annotations

import re
from functools import cache

import pyparsing as pp

Place = tuple[int, int]

# Lines every lettered layout may hold between its own: blanks, and comments that
# the registry also takes for comments (`#` then a blank) and that are no directive.
BLANK = r" *"
COMMENT = r" *#(?:(?! *[A-Za-z][\w-]* *:) [ -~]*)?"
CLUE = re.compile(r" *([A-Za-z])(?: *: *| +)([0-9]{1,9})(\S?) *")  # `a 12*`, `a: 12`; `\S?` the operation


@cache
def whole_text(separator: str, *lines: str, notes: bool = False) -> pp.ParserElement:
    """The element that matches a whole text of `lines` (regular expressions, each a
    whole line), blanks, comments and separator lines, giving each piece's lines as
    `pieces` does (with `notes`, its comments and blanks too)."""
    line = "(?:" + "|".join([*lines, separator, COMMENT, BLANK]) + r")(?![^\n])"  # a whole line
    return pp.Regex(rf"(?:{line})(?:\n(?:{line}))*").leave_whitespace() \
        .set_parse_action(lambda t: [pieces(t[0], notes)]) + pp.StringEnd()


def read_pieces(text: str, element: pp.ParserElement) -> list[list[str]] | None:
    """The pieces `element` (a `whole_text`) finds in `text`, or None when it does not
    match or finds none."""
    try:
        found = element.parse_string(text)[0]
    except pp.ParseBaseException:
        return None
    return found or None


def pieces(text: str, notes: bool = False) -> list[list[str]]:
    """The lines of each puzzle of a matched text, stripped: a puzzle starts at the text
    or at a separator line, blanks and comments are left out (directives kept), and a
    puzzle of no line is no puzzle, as `registry.pieces` has it.  With `notes`, its
    blanks and comments are kept too, as typed (`is_note` tells them apart): what the
    lettered layouts keep of the lines below their grids."""
    found: list[list[str]] = [[]]
    drawn = False  # whether the last puzzle has a line other than notes
    for typed in text.split("\n"):
        line = typed.strip()
        if not line or line[0] == "#" and not DIRECTIVE.match(line):
            if notes:
                found[-1].append(typed.rstrip())
        elif line[0] == "=":
            if drawn:
                found.append([])
            else:
                found[-1] = []  # notes alone are no puzzle's
            drawn = False
        else:
            found[-1].append(line)
            drawn = True
    if not drawn:
        found.pop()
    return found


def is_note(line: str) -> bool:
    """Whether a line `pieces` gives with `notes` is a blank line or a comment."""
    return not line or line.lstrip()[0] == "#" and not DIRECTIVE.match(line)


DIRECTIVE = re.compile(r"# *[A-Za-z][\w-]* *:")


def grid_cells(rows: list[str], cell: re.Pattern) -> tuple[list[list[str]], bool] | None:
    """The cells of each row (each a match of `cell`, apart or all written together),
    and whether every row was written together; None for a grid that is not square,
    or a row that mixes cells apart with cells together."""
    grid, compact = [], True
    for row in rows:
        cells = cell.findall(row)
        if len(cells) != len(rows):
            return None
        if " " in row:  # cells apart: a word each
            if len(row.split()) != len(cells):
                return None
            compact = False
        grid.append(cells)
    return grid, compact


def letter_places(grid: list[list[str]], no_cage: str = "") -> dict[str, list[Place]]:
    """The places of each cage letter (a cell's first character), in reading order of
    the cages' first cells; cells whose letter is `no_cage` are in none."""
    places: dict[str, list[Place]] = {}
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell[0] != no_cage:
                places.setdefault(cell[0], []).append((r, c))
    return places


def connected(places: list[Place]) -> bool:
    """Whether every place is reached from the first through the others, side by side."""
    if len(places) < 3:
        return len(places) == 1 or abs(places[0][0] - places[1][0]) + abs(places[0][1] - places[1][1]) == 1
    rest = {r * ROW + c for r, c in places}  # a place as one number: its neighbours are ±1, ±ROW
    frontier = [rest.pop()]
    while frontier and rest:
        here = frontier.pop()
        for near in (here + 1, here - 1, here + ROW, here - ROW):
            if near in rest:
                rest.remove(near)
                frontier.append(near)
    return not rest


ROW = 64  # wider than any grid, and more
