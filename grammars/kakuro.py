r"""The Kakuro layout: one line per row, cells apart by blanks.

     X   X  16\ 24\  X
     X 17\   .   .   X
    ...

A cell is `X` (a black cell without clue), `.` (a white cell), `D\A` (a black
cell whose down clue is D, the sum of the run below it, and whose across clue
is A, the sum of the run to its right), `D\` (down only), `\A` (across
only), or a digit 1-9 (a white cell whose digit is placed).  A line that
starts with `#` is a comment; blank lines and ``` fences are ignored.

Every row or column of two or more white cells is a run, and the black cell
just before it must hold its clue.
"""

from __future__ import annotations

import re
from typing import Sequence

import pyparsing as pp

from ..drawing import FENCE
from ..family import STRONG, WEAK, Claim, NONE
from ..kakuro import ACROSS, DOWN, LONGEST, Black, Cell, Kakuro, reach, sum_range
from .common import Line, Token, error_at, is_blank, located, parse_line

WHAT_CELL = r"a cell: X, ., a digit 1-9, or clues like 16\7, 16\ or \7"
TOKEN = re.compile(r"X|\.|(?P<down>\d*)\\(?P<across>\d*)|\d+")
cell = located(pp.Regex(r"(?:X|\.|\d*\\\d*|\d+)(?!\S)")).set_name(WHAT_CELL)
row = pp.OneOrMore(cell)

CLUE = re.compile(r"\d+\\\d*|\\\d+")
LINE = re.compile(r"\s*(?:(?:X|\.|\d*\\\d*|[1-9])(?:\s+|$))+")
FENCE_LINE = re.compile(r"\s*" + FENCE)

Rows = list[tuple[Line, list[Token]]]


def is_comment(line: Line) -> bool:
    return line.text.lstrip().startswith("#") or bool(FENCE_LINE.match(line.text))


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for lines of Kakuro cells with clues like 16\\7 among them, weak without."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    if not body:
        return NONE
    rows = sum(bool(LINE.fullmatch(line.text)) for line in body)
    if rows == len(body) and any(CLUE.search(line.text) for line in body):
        return Claim(STRONG, r"rows of Kakuro cells: X, ., and clues like 16\7")
    if rows == len(body) and any("X" in line.text for line in body):
        return Claim(WEAK, "rows of X and . cells")
    return NONE


def parse(lines: Sequence[Line]) -> Kakuro:
    """The Kakuro written in `lines`.  Raises ParseError at the first problem: a cell
    that is none, rows of different lengths, a clue over no white cell, a run without
    a clue, a run longer than nine cells, a sum its cells cannot make."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    if not body:
        raise error_at("no grid here: expected rows of cells like 'X 16\\ .'", Line(1, ""), 1)
    rows: Rows = [(line, words(line) or list(parse_line(row, line, WHAT_CELL))) for line in body]
    width = len(rows[0][1])
    for line, tokens in rows:
        if len(tokens) != width:
            column = tokens[width].column if len(tokens) > width else tokens[-1].end
            raise error_at(f"this row has {len(tokens)} cells; the first has {width}", line, column)
    cells = tuple(tuple(read_cell(token, line) for token in tokens) for line, tokens in rows)
    if not any(not isinstance(cell, Black) for row in cells for cell in row):
        raise error_at("no white cell here: a Kakuro has white cells (.) to fill", body[0], 1)
    checked_runs(cells, rows)
    return Kakuro(cells)


UNCLUED = Black()  # every X is the same black cell
WORD = re.compile(r"X|\.|\d*\\\d*|\d+")


def words(line: Line) -> list[Token]:
    """The cells of `line` as Tokens, the quick way (a batch reads thousands of rows),
    when every word is one; [] otherwise, for the grammar to say what is wrong."""
    found = [Token(m.group(), None, m.start() + 1) for m in re.finditer(r"\S+", line.text)]
    return found if found and all(WORD.fullmatch(t.text) for t in found) else []


def read_cell(token: Token, line: Line) -> Cell:
    """What a token stands for; ParseError for a number that is neither a digit nor a clue."""
    text = token.text
    if text == "X":
        return UNCLUED
    if text == ".":
        return None
    if "\\" not in text:
        if not (len(text) == 1 and text != "0"):
            raise error_at(f"a white cell's digit is 1-9, not {text} (a clue is written {text}\\ "
                           f"or \\{text})", line, token.column)
        return int(text)
    down, across = text.split("\\")
    if not down and not across:
        raise error_at("a clue cell needs a number: 16\\ (down), \\7 (across) or 16\\7; X is a "
                       "black cell without clue", line, token.column)
    return Black(int(down) if down else None, int(across) if across else None)


def checked_runs(cells: tuple[tuple[Cell, ...], ...], rows: Rows) -> None:
    """ParseError, at the clue or the cell, for a clue over no white cell, a run of two or
    more white cells without a clue, a run longer than nine, or a sum out of reach: each
    row, then each column, scanned once."""
    height, width = len(cells), len(cells[0])
    lines = [(ACROSS, [(r, c) for c in range(width)]) for r in range(height)] + \
            [(DOWN, [(r, c) for r in range(height)]) for c in range(width)]
    for direction, line in lines:
        k = 0
        while k < len(line):
            r, c = line[k]
            black = isinstance(cells[r][c], Black)
            end = k + black
            while end < len(line) and not isinstance(cells[line[end][0]][line[end][1]], Black):
                end += 1
            if black:
                checked_clue(cells[r][c], direction, end - k - 1, rows[r][0], rows[r][1][c])
            elif end - k > 1:
                raise error_at(f"a run of {end - k} white cells {direction} starts at the grid's "
                               "edge: no black cell before it holds its clue", rows[r][0], rows[r][1][c].column)
            k = end


def checked_clue(black: Black, direction: str, length: int, line: Line, token: Token) -> None:
    """ParseError for a run of `length` cells without clue, longer than nine, or whose
    clue its cells cannot make."""
    total = black.clue(direction)
    if total is not None and length == 0:
        raise error_at(f"this {direction} clue has no white cell "
                       f"{'to its right' if direction == ACROSS else 'below it'}",
                       line, clue_column(token, direction))
    if total is None:
        if length > 1:
            example = "16\\" if direction == DOWN else "\\16"
            raise error_at(f"the run of {length} white cells {'below' if direction == DOWN else 'right of'} "
                           f"this cell has no clue: write its sum here (like {example})", line, token.column)
        return
    column = clue_column(token, direction)
    if length > LONGEST:
        raise error_at(f"this {direction} run has {length} cells; a run has at most {LONGEST} "
                       "(its digits differ)", line, column)
    possible = sum_range(length)
    if total not in possible:
        raise error_at(f"this {direction} run has {length} cell{'s' if length > 1 else ''}: different "
                       f"digits 1-9 make {reach(possible)}, not {total}",
                       line, column)


def clue_column(token: Token, direction: str) -> int:
    """The column of a clue cell's down number (before \\) or across number (after)."""
    return token.column if direction == DOWN else token.column + token.text.index("\\") + 1
