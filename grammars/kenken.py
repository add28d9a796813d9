"""The KenKen layout: a grid of cage letters, then one clue line per cage.

    a a b c
    d e b c
    d e f f
    g g h h
    a 12*
    b 2-
    ...

The grid: one line per row, cells separated by blanks, or all written together
(`aabc`).  A cell is the letter of its cage (upper and lower case are different
cages), or `.` for a cell in no cage, maybe with the digit a solver has already
placed there (`a4`).  Then a clue line per cage, in any order: its letter
(maybe with a colon, `a:`), a blank, the target and the operation (`11+`, `3-`,
`240*`, `2/`; `x`, `X`, `×`, `÷` and `−` are read as `*`, `/` and `-`, and drawn
back as typed: the model's SPELLINGS).  A one-cell cage may give its number
alone (`h 3`).  `#` starts a comment line (a comment takes the whole line); the
clue lines and the comments and blank lines among them are kept in their order
(the model's `below`: grammars/lettered.py); ``` fence lines are ignored.

The drawn form walls the cages in, as printed puzzles show them, the clue in
one cell of its cage and any placed digit after it:

    +-----+-----+-----+-----+
    | 12* |     | 2-  | 3/  |
    +     +-----+     +     +
    | 3/  | 6+  |     |     |
    ...

How the walls are read is grammars/walls.py's, shared with Killer Sudoku's
drawn form; what a cell holds, a clue and maybe a digit, or `.` for a cell in
no cage (walled in alone), is read here.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

import pyparsing as pp

from ..family import STRONG, WEAK, Claim, NONE
from ..kenken import GIVEN, SIZES, SPELLINGS, TWO_CELLS, Cage, Digit, KenKen, Place
from ..puzzle import unchecked
from ..errors import ParseError
from . import one_pass
from .lettered import (Below, Clues, Rows, cage_places, checked_size, clue_head, kept_below,
                       lettered_clue, noted)
from .walls import CELLS_LINE, DRAWN_START, WALL_LINE, drawn_grid, partings, wall_segments, walled_cages
from .common import Line, Token, error_at, is_blank, is_comment, located, number, parse_line

OPERATION_NAMES = {spelt: op for op, spellings in SPELLINGS.items() for spelt in spellings if spelt}
WHAT_CELL = "a cage letter like a, maybe with its digit (a4), or . for a cell in no cage"
WHAT_CLUE = "a clue like 'a 12*': the cage's letter, then its target and operation"

CELL = r"[A-Za-z.]\d?"  # `.`: a cell in no cage, as a puzzle left without some cages is written
# A token of a grid row: a cell, or a run of cells written together (`aabc`, `a4a3b2c1`).
grid_cell = located(pp.Regex(rf"(?:{CELL})+(?!\S)")).set_name(WHAT_CELL)
grid_row = pp.OneOrMore(grid_cell)
CELLS = re.compile(CELL)
operation = pp.Regex("|".join(map(re.escape, OPERATION_NAMES))).set_name("an operation")
clue = (located(pp.Regex(r"[A-Za-z](?=\s|:)")) + pp.Suppress(pp.Optional(":")) + located(number())
        + pp.Optional(located(operation)))

NO_CAGE = "."  # a walled cell in no cage, as the lettered layout writes it
cell_content = pp.Optional(located(pp.Literal(NO_CAGE)) + pp.Optional(located(number()))
                           | located(number()) + pp.Optional(located(operation)) + pp.Optional(located(number())))
WHAT_CONTENT = "a clue like 12* and maybe the cell's digit, the digit alone, or . for a cell in no cage"

CLUE_LINE = re.compile(r"\s*[A-Za-z](?:\s*:\s*|\s+)-?\d")
NEGATIVE_TARGET = re.compile(r"\s*[A-Za-z](?:\s*:\s*|\s+)(-\d+)")
LETTERS_LINE = re.compile(r"\s*[A-Za-z]\d?(?:\s+[A-Za-z]\d?)*\s*")
# Rows of cells with a cage letter among them (a row of `.` alone is any grid's), or
# written together: either counts only beside clue lines (`X . .` is a Kakuro's row).
GRID_LINE = re.compile(r"(?=.*[A-Za-z])\s*[A-Za-z.]\d?(?:\s+[A-Za-z.]\d?)*\s*")
COMPACT_LINE = re.compile(r"(?=.*[A-Za-z])\s*(?:[A-Za-z.]\d?){3,}\s*")
# A row of cells in no cage (`. . . .`, `.4.3.2.1` solved): a KenKen's beside the rows
# above, as a puzzle with cages left out is written.
UNCAGED_LINE = re.compile(r"\s*\.\d?(?:\s+\.\d?)*\s*|\s*(?:\.\d?){3,}\s*")


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for a grid of cage letters with clue lines (its rows of cells in no cage
    too), or for cages walled in with `+--+` and `|`; weak for a grid of letters apart
    by blanks alone (letters written together count only beside clue lines: any word
    looks like them)."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    if body and DRAWN_START.match(body[0].text):  # a typo further in keeps the family, to be located
        drawn = sum(bool(WALL_LINE.fullmatch(line.text) or CELLS_LINE.fullmatch(line.text))
                    for line in body)
        return Claim(STRONG * drawn / len(body), "cages walled in with +--+ and |")
    grid = sum(bool(GRID_LINE.fullmatch(line.text)) for line in body)
    clues = sum(bool(CLUE_LINE.match(line.text)) for line in body)
    compact = sum(bool(COMPACT_LINE.fullmatch(line.text)) and not GRID_LINE.fullmatch(line.text)
                  for line in body)
    uncaged = sum(bool(UNCAGED_LINE.fullmatch(line.text)) for line in body)
    if grid + compact and clues and grid + compact + uncaged >= 2:
        return Claim(STRONG * (grid + compact + uncaged + clues) / len(body),
                     "a grid of cage letters and clue lines like 'a 12*'")
    if sum(bool(LETTERS_LINE.fullmatch(line.text)) for line in body) >= 2:
        return Claim(WEAK, "a grid of letters")
    return NONE


def parse(lines: Sequence[Line]) -> KenKen:
    """The KenKen written in `lines`, in either form.  Raises ParseError at the first
    problem."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    if body and DRAWN_START.match(body[0].text):
        return parse_drawn(body)
    rows: Rows = []
    clues: Clues = {}
    below: Below = []  # the lines under the last row so far
    for line in lines:
        if is_blank(line) or is_comment(line):
            if rows and (note := noted(line)):
                below.append(note)
        elif CLUE_LINE.match(line.text):
            below.append(clue_head(line, read_clue(line, clues)))
        elif clues:
            raise error_at("the grid's rows come before the clue lines", line, 1)
        else:
            rows.append((line, row_cells(line)))
            below.clear()
    if not rows:
        raise error_at("no grid here: expected rows of cage letters, then clue lines like 'a 12*'",
                       body[0] if body else Line(1, ""), 1)
    size = checked_size(rows, "a KenKen", SIZES, "3x3 to 9x9")
    cells = {(r, c): token for r, (_, row) in enumerate(rows) for c, token in enumerate(row)}
    givens = tuple(tuple(given(token, rows[r][0], size) for token in row)
                   for r, (_, row) in enumerate(rows))
    cages = [cage(letter, places, clues, rows, cells)
             for letter, places in cage_places(cells).items()]
    if stray := next((letter for letter in clues if letter not in {c.name for c in cages}), None):
        line, tokens = clues[stray]
        raise error_at(f"no cell of the grid is in cage {stray!r}", line, tokens[0].column)
    compact = all(cell.end == after.column for _, row in rows for cell, after in zip(row, row[1:]))
    return KenKen.from_checked(size=size, cages=tuple(cages), givens=givens, compact=compact,
                               below=kept_below(below))


def row_cells(line: Line) -> list[Token]:
    """The cells of a grid row, apart or written together, each a Token at its own
    column.  ParseError at what is no cell, or at a run of cells in a row whose
    other cells stand apart."""
    tokens = list(parse_line(grid_row, line, WHAT_CELL))
    if len(tokens) > 1 and (run := next((t for t in tokens if len(CELLS.findall(t.text)) > 1), None)):
        shown = run.text if len(run.text) <= 20 else run.text[:20] + "..."
        raise error_at(f"expected {WHAT_CELL}, found {shown!r} (the other cells of this row stand "
                       "apart)", line, run.column)
    return [Token(cell.group(), None, token.column + cell.start())
            for token in tokens for cell in CELLS.finditer(token.text)]


def read_clue(line: Line, clues: Clues) -> list[Token]:
    """Record the clue on `line` under its letter, and give its tokens; ParseError for a
    second clue of a cage, or a target below 0."""
    if negative := NEGATIVE_TARGET.match(line.text):
        raise error_at(f"a cage's target is 1 or more, not {negative[1]}", line, negative.start(1) + 1)
    tokens = list(parse_line(clue, line, WHAT_CLUE))
    letter = tokens[0].text
    if letter in clues:
        raise error_at(f"cage {letter!r} already has a clue (line {clues[letter][0].number})",
                       line, tokens[0].column)
    clues[letter] = (line, tokens)
    return tokens


def given(token: Token, line: Line, size: int) -> int | None:
    """The digit placed in a grid cell, if any; ParseError outside 1..size."""
    if len(token.text) == 1:
        return None
    digit = int(token.text[1])
    if not 1 <= digit <= size:
        raise error_at(f"a cell's digit is 1-{size}, not {digit}", line, token.column + 1)
    return digit


def cage(letter: str, places: list[Place], clues: Clues, rows: Rows,
         cells: dict[Place, Token]) -> Cage:
    """The cage of `letter`: its places and its clue.  ParseError for a cage without a
    clue, cut in two, or whose clue cannot be (an operation on the wrong number of
    cells, a one-cell number outside the grid's digits)."""
    line, tokens = lettered_clue(letter, places, clues, rows, cells, "clue", "6+")
    return clued(f"cage {letter!r}", places, line, tokens[1], tokens[2] if len(tokens) > 2 else None,
                 len(rows), name=letter)


def clued(called: str, places: list[Place], line: Line, target: Token, operation: Token | None,
          size: int, name: str = "", clue_at: Place | None = None) -> Cage:
    """The cage over `places` that `target` and `operation` (None: the number alone)
    on `line` say.  ParseError for a clue the cage cannot have: no operation on
    several cells, - or / on other than two, a target below 1 (no digits 1..N make
    0), a one-cell number outside 1..size."""
    op = OPERATION_NAMES[operation.text] if operation else GIVEN
    problem = clue_problem(op, target.value, len(places), size, called, target.text)
    if problem:
        message, at = problem
        raise error_at(message, line, {"target": target.column, "end": target.end,
                                       "operation": (operation or target).column}[at])
    return unchecked(Cage, cells=tuple(places), target=target.value, op=op, name=name, clue_at=clue_at,
                     written=operation.text if operation else "")


def clue_problem(op: str, target: int, cells: int, size: int, called: str = "this cage",
                 written: str = "") -> tuple[str, str] | None:
    """What is wrong with the clue `target` `op` (as `written`) of a cage of `cells`
    cells, and where it is ("target", "end" of the target, "operation"); None for a
    clue the cage can have."""
    if target < 1 and op != GIVEN:
        return f"a cage's target is 1 or more, not {written}: no digits make it", "target"
    if op == GIVEN and cells > 1:
        return f"{called} has {cells} cells: its clue needs an operation (+ - * /)", "end"
    if op in TWO_CELLS and cells != 2:
        return f"a {op} cage has two cells; {called} has {cells}", "operation"
    if cells == 1 and not 1 <= target <= size:
        return f"{called} is one cell: its clue is a digit 1-{size}", "target"
    return None


# The drawn form: cages walled in with +--+ and |

Contents = list[tuple[Line, list[Token]]]  # what a cell holds, line by line


def parse_drawn(body: Sequence[Line]) -> KenKen:
    """The KenKen whose cages are walled in on `body`'s lines."""
    edges, walls, rows = drawn_grid(body)
    size = len(edges) - 1
    if len(rows) != size:
        raise error_at(f"the grid has {len(rows)} rows of {size} cells; a KenKen is square",
                       walls[-1], edges[-1] + 1)
    if size not in SIZES:
        raise error_at(f"a KenKen is 3x3 to 9x9, not {size}x{size}", body[0], 1)
    below = [wall_segments(line, edges, outline=k in (0, size)) for k, line in enumerate(walls)]
    right = [partings(lines, edges) for lines in rows]
    contents = {(r, c): cell_contents(lines, edges[c], edges[c + 1])
                for r, lines in enumerate(rows) for c in range(size)}
    cages, givens = [], {}
    for places in walled_cages(size, right, below):
        if (alone := in_no_cage(places, contents, size)) is not None:
            givens.update(alone)
            continue
        r, c = places[0]
        cage, digits = drawn_cage(places, contents, size, first=(rows[r][0], edges[c] + 2))
        cages.append(cage)
        givens.update(digits)
    return KenKen.from_checked(size=size, cages=tuple(cages), drawn=True, givens=tuple(
        tuple(givens.get((r, c)) for c in range(size)) for r in range(size)))


def cell_contents(lines: list[Line], left: int, right: int) -> Contents:
    """What the cell between columns `left` and `right` holds on each line that has
    something there, as tokens at their columns in the line."""
    held = []
    for line in lines:
        if line.text[left + 1:right].strip():
            try:
                tokens = parse_line(cell_content, Line(line.number, " " * (left + 1) + line.text[left + 1:right]),
                                    WHAT_CONTENT)
            except ParseError as error:
                raise replace(error, text=line.text) from None
            held.append((line, list(tokens)))
    return held


def in_no_cage(places: list[Place], contents: dict[Place, Contents], size: int) -> dict[Place, Digit] | None:
    """The digit placed in a walled cell marked `.`, in no cage ({} for none); None when
    no cell of `places` is marked so.  ParseError for such a cell joined to others, or
    holding more than a digit 1..size."""
    marked = [(line, token) for place in places for line, tokens in contents[place] for token in tokens
              if token.text == NO_CAGE]
    if not marked:
        return None
    if len(places) > 1:
        line, token = marked[0]
        raise error_at("a cell in no cage (.) is walled in alone", line, token.column)
    digits = [(line, token) for line, tokens in contents[places[0]] for token in tokens if token.text != NO_CAGE]
    if len(marked) > 1 or len(digits) > 1 or digits and not 1 <= digits[0][1].value <= size:
        line, token = (marked[1:] + digits)[-1]
        raise error_at(f"a cell in no cage (.) holds its digit 1-{size} alone", line, token.column)
    return {places[0]: digits[0][1].value} if digits else {}


def drawn_cage(places: list[Place], contents: dict[Place, Contents], size: int,
               first: tuple[Line, int]) -> tuple[Cage, dict[Place, Digit]]:
    """The cage over `places` and the digits placed in it.  A cell's tokens are a clue
    (a number and its operation, or a one-cell cage's number), then maybe its digit;
    a number alone is a digit once the cage has its clue or has several cells.
    ParseError for a cage with no clue or two, or a digit outside 1..size; `first`
    (a line and column) is where the cage's first cell is drawn."""
    clue: tuple[Line, Token, Token | None] | None = None
    clue_at = places[0]
    digits: dict[Place, Digit] = {}
    for place in places:
        for line, tokens in contents[place]:
            if len(tokens) > 1 or (len(places) == 1 and clue is None):
                if clue is not None:
                    raise error_at(f"this cage has its clue already (line {clue[0].number}, "
                                   f"column {clue[1].column})", line, tokens[0].column)
                operation = tokens[1] if len(tokens) > 1 and isinstance(tokens[1].value, str) else None
                clue, clue_at = (line, tokens[0], operation), place
                tokens = tokens[1 + bool(operation):]
            for token in tokens:
                if not 1 <= token.value <= size:
                    raise error_at(f"a cell's digit is 1-{size}, not {token.value}", line, token.column)
                digits[place] = token.value
    if clue is None:
        raise error_at("this cage has no clue: write its target and operation in one of its "
                       "cells, like 6+", *first)
    return clued("this cage", places, *clue, size, clue_at=clue_at if clue_at != places[0] else None), digits


# A whole text of lettered KenKens read in one pass (see grammars/one_pass.py): rows of
# cage letters, maybe with their digits, apart or together, and clue lines in ASCII.
ONE_PASS_ROW = r" *[A-Za-z][0-9]?(?:[A-Za-z][0-9]?)*(?: +[A-Za-z][0-9]?)* *"
ONE_PASS_CLUE = r" *[A-Za-z](?: *: *| +)[0-9]{1,9}[-+*/xX]? *"
ONE_PASS_OPERATIONS = {"": GIVEN, **{op: name for op, name in OPERATION_NAMES.items() if op.isascii()}}


def read_all(text: str, separator: str) -> list[KenKen] | None:
    """Every KenKen of `text`, read in one pass, when the text holds only lettered
    KenKens (rows of cage letters, then clue lines; no directive), each well-formed,
    apart by blank lines, comments and lines that fully match `separator`; None for
    any other text, which `parse` then reads piece by piece and refuses where it
    must.  Such a puzzle is one `registry.detect` gives to KenKen, and the puzzles
    are those `parse` gives."""
    found = one_pass.read_pieces(text, one_pass.whole_text(separator, ONE_PASS_ROW, ONE_PASS_CLUE, notes=True))
    puzzles = [_lettered_puzzle(lines) for lines in found or ()]
    return None if not puzzles or None in puzzles else puzzles


def _lettered_puzzle(lines: list[str]) -> KenKen | None:
    """The KenKen of one piece's lines, or None where `parse` would refuse it."""
    clues: dict[str, tuple[int, str]] = {}
    rows: list[str] = []
    below: Below = []
    for line in lines:
        if one_pass.is_note(line):
            if rows:
                below.append(("", line))
        elif match := one_pass.CLUE.fullmatch(line):
            letter, target, operation = match.groups()
            if letter in clues:
                return None
            clues[letter] = (int(target), operation)
            below.append((letter, line[:match.start(2)]))
        elif clues:
            return None
        else:
            rows.append(line)
            below.clear()
    read = one_pass.grid_cells(rows, CELLS)
    if read is None or len(rows) not in SIZES:
        return None
    grid, compact = read
    size = len(grid)
    givens = _placed(grid, rows)
    if givens is None:
        return None
    places = one_pass.letter_places(grid)
    if len(places) != len(clues):  # a cage without clue, or a clue without cage
        return None
    cages = []
    for letter, cells in places.items():
        if letter not in clues or not one_pass.connected(cells):
            return None
        target, written = clues[letter]
        op = ONE_PASS_OPERATIONS[written]
        if clue_problem(op, target, len(cells), size):
            return None
        cages.append(unchecked(Cage, cells=tuple(cells), target=target, op=op, name=letter, written=written))
    return KenKen.from_checked(size=size, cages=tuple(cages), givens=givens, compact=compact,
                               below=kept_below(below))


A_DIGIT = re.compile("[0-9]")


def _placed(grid: list[list[str]], rows: list[str]) -> tuple[tuple[int | None, ...], ...] | None:
    """The digits placed in a grid of cells (`a4`), or None for one outside 1..size."""
    size = len(grid)
    if not any(map(A_DIGIT.search, rows)):
        return ((None,) * size,) * size
    givens = tuple(tuple(int(cell[1]) if len(cell) > 1 else None for cell in row) for row in grid)
    return None if any(digit is not None and not 1 <= digit <= size for row in givens for digit in row) \
        else givens
