"""The KenKen layout: a grid of cage letters, then one clue line per cage.

    a a b c
    d e b c
    d e f f
    g g h h
    a 12*
    b 2-
    ...

The grid: one line per row, cells separated by blanks.  A cell is the letter of
its cage (upper and lower case are different cages), maybe with the digit a
solver has already placed there (`a4`).  Then a clue line per cage, in any
order: its letter, a blank, the target and the operation (`11+`, `3-`, `240*`,
`2/`; `x`, `X`, `×`, `÷` and `−` are read as `*`, `/` and `-`).  A one-cell cage
may give its number alone (`h 3`).  `#` starts a comment line; blank lines are
ignored, and so are ``` fence lines.
"""

from __future__ import annotations

import re
from typing import Sequence

import pyparsing as pp

from ..drawing import FENCE
from ..family import STRONG, WEAK, Claim, NONE
from ..kenken import GIVEN, SIZES, Cage, KenKen, Place
from ..regions import neighbours
from .common import Line, Token, error_at, is_blank, located, number, parse_line

OPERATION_NAMES = {"+": "+", "-": "-", "−": "-", "*": "*", "x": "*", "X": "*", "×": "*",
                   "/": "/", "÷": "/"}
WHAT_CELL = "a cage letter like a, maybe with its digit (a4)"
WHAT_CLUE = "a clue like 'a 12*': the cage's letter, then its target and operation"

grid_cell = located(pp.Regex(r"[A-Za-z]\d?(?!\S)")).set_name(WHAT_CELL)
grid_row = pp.OneOrMore(grid_cell)
operation = pp.Regex("|".join(map(re.escape, OPERATION_NAMES))).set_name("an operation")
clue = (located(pp.Regex(r"[A-Za-z](?=\s)")) + located(number())
        + pp.Optional(located(operation)))

CLUE_LINE = re.compile(r"\s*[A-Za-z]\s+\d")
GRID_LINE = re.compile(r"\s*[A-Za-z]\d?(?:\s+[A-Za-z]\d?)*\s*")
FENCE_LINE = re.compile(r"\s*" + FENCE)


def is_comment(line: Line) -> bool:
    return line.text.lstrip().startswith("#") or bool(FENCE_LINE.match(line.text))


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for a grid of cage letters with clue lines; weak for the grid alone."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    grid = sum(bool(GRID_LINE.fullmatch(line.text)) for line in body)
    clues = sum(bool(CLUE_LINE.match(line.text)) for line in body)
    if grid >= 2 and clues:
        return Claim(STRONG * (grid + clues) / len(body), "a grid of cage letters and clue lines like 'a 12*'")
    if grid >= 2:
        return Claim(WEAK, "a grid of letters")
    return NONE


def parse(lines: Sequence[Line]) -> KenKen:
    """The KenKen drawn in `lines`.  Raises ParseError at the first problem."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    rows: list[tuple[Line, list[Token]]] = []
    clues: dict[str, tuple[Line, list[Token]]] = {}
    for line in body:
        if CLUE_LINE.match(line.text):
            read_clue(line, clues)
        elif clues:
            raise error_at("the grid's rows come before the clue lines", line, 1)
        else:
            rows.append((line, list(parse_line(grid_row, line, WHAT_CELL))))
    if not rows:
        raise error_at("no grid here: expected rows of cage letters, then clue lines like 'a 12*'",
                       body[0] if body else Line(1, ""), 1)
    size = checked_size(rows)
    cells = {(r, c): token for r, (_, row) in enumerate(rows) for c, token in enumerate(row)}
    givens = tuple(tuple(given(token, rows[r][0], size) for token in row)
                   for r, (_, row) in enumerate(rows))
    cages = [cage(letter, places, clues, rows, cells)
             for letter, places in cage_places(cells).items()]
    if stray := next((letter for letter in clues if letter not in {c.name for c in cages}), None):
        line, tokens = clues[stray]
        raise error_at(f"no cell of the grid is in cage {stray!r}", line, tokens[0].column)
    return KenKen(size, tuple(cages), givens)


def read_clue(line: Line, clues: dict[str, tuple[Line, list[Token]]]) -> None:
    """Record the clue on `line` under its letter; ParseError for a second clue of a cage."""
    tokens = list(parse_line(clue, line, WHAT_CLUE))
    letter = tokens[0].text
    if letter in clues:
        raise error_at(f"cage {letter!r} already has a clue (line {clues[letter][0].number})",
                       line, tokens[0].column)
    clues[letter] = (line, tokens)


def checked_size(rows: list[tuple[Line, list[Token]]]) -> int:
    """The grid's size; ParseError for a grid that is not square or not 3x3 to 9x9."""
    size = len(rows[0][1])
    for line, row in rows:
        if len(row) != size:
            column = row[size].column if len(row) > size else row[-1].end
            raise error_at(f"this row has {len(row)} cells; the first has {size}", line, column)
    if len(rows) != size:
        line, row = rows[-1]
        raise error_at(f"the grid has {len(rows)} rows of {size} cells; a KenKen is square",
                       line, row[-1].end)
    if size not in SIZES:
        raise error_at(f"a KenKen is 3x3 to 9x9, not {size}x{size}", rows[0][0], 1)
    return size


def given(token: Token, line: Line, size: int) -> int | None:
    """The digit placed in a grid cell, if any; ParseError outside 1..size."""
    if len(token.text) == 1:
        return None
    digit = int(token.text[1])
    if not 1 <= digit <= size:
        raise error_at(f"a cell's digit is 1-{size}, not {digit}", line, token.column + 1)
    return digit


def cage_places(cells: dict[Place, Token]) -> dict[str, list[Place]]:
    """The places of each letter, in reading order."""
    places: dict[str, list[Place]] = {}
    for place, token in sorted(cells.items()):
        places.setdefault(token.text[0], []).append(place)
    return places


Rows = list[tuple[Line, list[Token]]]


def cage(letter: str, places: list[Place], clues: dict[str, tuple[Line, list[Token]]], rows: Rows,
         cells: dict[Place, Token]) -> Cage:
    """The cage of `letter`: its places and its clue.  ParseError for a cage without a
    clue, cut in two, or whose clue cannot be (an operation on the wrong number of
    cells, a one-cell number outside the grid's digits)."""
    first = places[0]
    if letter not in clues:
        raise error_at(f"cage {letter!r} has no clue line (add one like '{letter} 6+')",
                       rows[first[0]][0], cells[first].column)
    apart = unconnected(places)
    if apart:
        raise error_at(f"the cells of cage {letter!r} are not connected: this one is cut off "
                       "from the first", rows[apart[0]][0], cells[apart].column)
    line, tokens = clues[letter]
    target = tokens[1]
    op = OPERATION_NAMES[tokens[2].text] if len(tokens) > 2 else GIVEN
    where = tokens[2] if len(tokens) > 2 else target
    if op == GIVEN and len(places) > 1:
        raise error_at(f"cage {letter!r} has {len(places)} cells: its clue needs an operation "
                       "(+ - * /)", line, target.end)
    if op in ("-", "/") and len(places) != 2:
        raise error_at(f"a {op} cage has two cells; cage {letter!r} has {len(places)}",
                       line, where.column)
    if len(places) == 1 and not 1 <= target.value <= len(rows):
        raise error_at(f"cage {letter!r} is one cell: its clue is a digit 1-{len(rows)}",
                       line, target.column)
    return Cage(tuple(places), target.value, op, name=letter)


def unconnected(places: list[Place]) -> Place | None:
    """The first place (in reading order) not reached from the first through the others."""
    reached, frontier = {places[0]}, [places[0]]
    rest = set(places)
    while frontier:
        step = neighbours(frontier, rest - reached)
        reached |= step
        frontier = list(step)
    return next((place for place in places if place not in reached), None)
