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
from functools import lru_cache
from typing import Sequence

import pyparsing as pp

from ..family import STRONG, WEAK, Claim, NONE
from ..kakuro import (ACROSS, DOWN, LONGEST, Black, Cell, Kakuro, Place, Run, reach, runs_of, sum_range,
                      unled_of)
from . import one_pass
from .common import Line, Token, error_at, is_blank, is_comment, located, parse_line

WHAT_CELL = r"a cell: X, ., a digit 1-9, or clues like 16\7, 16\ or \7"
TOKEN = re.compile(r"X|\.|(?P<down>\d*)\\(?P<across>\d*)|\d+")
cell = located(pp.Regex(r"(?:X|\.|\d*\\\d*|\d+)(?!\S)")).set_name(WHAT_CELL)
row = pp.OneOrMore(cell)

CLUE = re.compile(r"\d+\\\d*|\\\d+")
LINE = re.compile(r"\s*(?:(?:X|\.|\d*\\\d*|[1-9])(?:\s+|$))+")

Rows = list[tuple[Line, list[Token]]]


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for lines of Kakuro cells with clues like 16\\7 among them (as strong as
    the share of lines that are rows of cells: a typo in one keeps the family, for the
    grammar to locate it), weak without clues."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    if not body:
        return NONE
    rows = sum(bool(LINE.fullmatch(line.text)) for line in body)
    if rows >= max(1, len(body) - 2) and any(CLUE.search(line.text) for line in body):
        return Claim(STRONG * rows / len(body), r"rows of Kakuro cells: X, ., and clues like 16\7")
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
    return Kakuro.from_checked(cells, checked_runs(cells, rows))


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
            written = ("an empty white cell is written ." if int(text) == 0
                       else f"a clue is written {text}\\ or \\{text}")
            raise error_at(f"a white cell's digit is 1-9, not {text} ({written})", line, token.column)
        return int(text)
    down, across = text.split("\\")
    if not down and not across:
        raise error_at("a clue cell needs a number: 16\\ (down), \\7 (across) or 16\\7; X is a "
                       "black cell without clue", line, token.column)
    for number, column in ((down, token.column), (across, token.column + len(down) + 1)):
        if number and int(number) == 0:
            raise error_at(f"a clue is a positive integer, not {number}", line, column)
    return Black(int(down) if down else None, int(across) if across else None)


def checked_runs(cells: tuple[tuple[Cell, ...], ...], rows: Rows) -> tuple[Run, ...]:
    """The grid's runs (`runs_of`).  ParseError, at the clue or the cell, for a clue over
    no white cell, a run of two or more white cells without a clue, a run longer than
    nine, or a sum out of reach: the first of a row, rows first, then of a column."""
    runs = runs_of(cells)
    wrong = [(reading(run.clue_at, run.direction), run) for run in runs if run_problem(run)]
    wrong += [(reading(places[0], direction), (direction, places)) for direction, places in unled_of(cells)]
    if not wrong:
        return runs
    _, first = min(wrong, key=lambda found: found[0])
    if isinstance(first, Run):
        (r, c), (message, at) = first.clue_at, run_problem(first)
        line, token = rows[r][0], rows[r][1][c]
        raise error_at(message, line, clue_column(token, first.direction) if at == "clue" else token.column)
    direction, ((r, c), *_) = first
    raise error_at(f"a run of {len(first[1])} white cells {direction} starts at the grid's edge: no "
                   "black cell before it holds its clue", rows[r][0], rows[r][1][c].column)


def reading(place: Place, direction: str) -> tuple[int, int, int]:
    """Where `place` comes when the rows are read, then the columns."""
    r, c = place
    return (0, r, c) if direction == ACROSS else (1, c, r)


def run_problem(run: Run) -> tuple[str, str] | None:
    """What is wrong with a run and where it shows ("clue": its clue's number, "cell":
    the black cell): a clue over no white cell, two or more cells without a clue,
    more than nine cells, or a sum its cells cannot make; None for a run that can be."""
    total, length, direction = run.total, len(run.cells), run.direction
    if total is not None and length == 0:
        return (f"this {direction} clue has no white cell "
                f"{'to its right' if direction == ACROSS else 'below it'}"), "clue"
    if total is None:
        example = "16\\" if direction == DOWN else "\\16"
        return (f"the run of {length} white cells {'below' if direction == DOWN else 'right of'} "
                f"this cell has no clue: write its sum here (like {example})", "cell") if length > 1 else None
    if length > LONGEST:
        return (f"this {direction} run has {length} cells; a run has at most {LONGEST} "
                "(its digits differ)"), "clue"
    possible = sum_range(length)
    if total not in possible:
        return (f"this {direction} run has {length} cell{'s' if length > 1 else ''}: different digits 1-9 "
                f"make {reach(possible)}, not {total}"), "clue"
    return None


def clue_column(token: Token, direction: str) -> int:
    """The column of a clue cell's down number (before \\) or across number (after)."""
    return token.column if direction == DOWN else token.column + token.text.index("\\") + 1


# A whole text of Kakuros read in one pass (see grammars/one_pass.py): rows of cells apart
# by blanks, clues with no leading zero.
NUMBER = r"[1-9][0-9]{0,8}"
ONE_PASS_CELL = rf"(?:X|\.|[1-9]|{NUMBER}\\(?:{NUMBER})?|\\{NUMBER})"
ONE_PASS_ROW = rf" *{ONE_PASS_CELL}(?: +{ONE_PASS_CELL})* *"
PLAIN_CELLS: dict[str, Cell] = {"X": UNCLUED, ".": None, **{str(digit): digit for digit in range(1, 10)}}


def read_all(text: str, separator: str) -> list[Kakuro] | None:
    """Every Kakuro of `text`, read in one pass, when the text holds only Kakuros in
    the plain layout, each well-formed, at least three cells wide, every row with a
    black cell and some clue (so that guessing gives them this family), apart by
    blank lines, comments and lines that fully match `separator`; None for any other
    text, which `parse` then reads piece by piece and refuses where it must.  The
    puzzles are those `parse` gives."""
    found = one_pass.read_pieces(text, one_pass.whole_text(separator, ONE_PASS_ROW))
    puzzles = [_one_pass_puzzle(lines) for lines in found or ()]
    return None if not puzzles or None in puzzles else puzzles


def _one_pass_puzzle(lines: list[str]) -> Kakuro | None:
    """The Kakuro of one piece's lines, or None where `parse` would refuse it or
    `registry.detect` give it another family: a row of white cells and digits alone
    (Sudoku's), rows that all look like a KenKen's (X X X, or X and a number)."""
    rows = [line.split() for line in lines]
    width = len(rows[0])
    if width < 3 or any(len(row) != width for row in rows) \
            or not all("X" in row or "\\" in "".join(row) for row in rows) \
            or all(row[0] == "X" and (row[1][0].isdigit() or set(row) == {"X"}) for row in rows):
        return None
    cells = tuple(tuple(PLAIN_CELLS[token] if token in PLAIN_CELLS else clue_cell(token) for token in row)
                  for row in rows)
    runs = runs_of(cells)
    if all(isinstance(cell, Black) for row in cells for cell in row) or not any(run.total for run in runs) \
            or any(map(run_problem, runs)) or unled_of(cells):
        return None
    return Kakuro.from_checked(cells, runs)


@lru_cache(maxsize=4096)
def clue_cell(text: str) -> Black:
    """The black cell a clue token (`16\\7`, `16\\`, `\\7`) stands for."""
    down, across = text.split("\\")
    return Black(int(down) if down else None, int(across) if across else None)
