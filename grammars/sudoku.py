"""The Sudoku layout: directive lines, then a 9×9 grid.

    # digits: 0-9 choose 9
    # maximize: gcd(rows)
    . . . | . . . | . 2 .
    . . . | . 2 . | . . 5
    ...
    ------+-------+------

A row is nine cells separated by blanks: a digit (given) or `.` or `_`
(unknown).  Box marks are ignored: `|` between cells, and lines made of
`-`, `+` and `|`.  Blank lines are ignored.

Directives are `#` lines above the grid that start with a word and a colon:

    # digits: LOW-HIGH [choose 9]     the digits in use (default 1-9); a range
                                      of ten, like 0-9, needs `choose 9`: one
                                      digit is left out, the same in every unit
    # maximize: gcd(rows)             the grid whose row numbers (9 digits,
    # maximize: gcd(cols)             leading zeros allowed) or column numbers
                                      have the greatest common divisor

Every other `#` line is a comment.  Directive lines are read for every
family alike (`common.split_directives`): above the grid `# word:` must be
a known directive, below it only comments.
"""

from __future__ import annotations

import re
from typing import Sequence

import pyparsing as pp

from ..family import STRONG, Claim, NONE, OptionError
from ..sudoku import OBJECTIVES, SIZE, DigitSet, Sudoku
from .common import Line, Token, error_at, is_blank, located, number, parse_line

# The grid

unknown = pp.Regex(r"[._](?![^\s|])").set_parse_action(lambda: [None])
given = pp.Regex(r"\d(?![^\s|])").set_parse_action(lambda t: int(t[0]))
cell = located(unknown | given).set_name("a digit, '.' or '_'")
box_bar = pp.Suppress("|")
grid_row = pp.ZeroOrMore(box_bar) + pp.OneOrMore(cell + pp.ZeroOrMore(box_bar))
box_rule = re.compile(r"[\s|]*[-+][-+|\s]*")

# Directive values

single_digit = located(pp.Regex(r"\d(?!\d)").set_parse_action(lambda t: int(t[0]))).set_name("a digit")
count = located(number()).set_name("a count")
digits_value = (single_digit + pp.Suppress("-") + single_digit
                + pp.Optional(pp.Suppress(pp.CaselessKeyword("choose")) + count))
DIGITS_WHAT = "a digit range like 1-9 or 0-9 choose 9"


def read_digit_set(text: str) -> DigitSet:
    """The digit set a `digits:` value names (`1-9`, `0-9 choose 9`).  Raises OptionError."""
    try:
        low, high, *choose = digits_value.parse_string(text, parse_all=True)
    except pp.ParseFatalException as error:
        raise OptionError(error.msg, error.loc) from None
    except pp.ParseBaseException as error:
        found = text[error.loc:].split()[:1]
        raise OptionError(f"expected {DIGITS_WHAT}, found {found[0]!r}" if found
                          else f"expected {DIGITS_WHAT}", error.loc) from None
    size = high.value - low.value + 1
    if choose and choose[0].value != SIZE:
        raise OptionError(f"a unit holds {SIZE} digits: write 'choose {SIZE}'", choose[0].column - 1)
    if size < SIZE:
        raise OptionError(f"{low.text}-{high.text} has {max(size, 0)} digits; a unit needs {SIZE}",
                          low.column - 1)
    if size > SIZE and not choose:
        raise OptionError(f"{low.text}-{high.text} has {size} digits but a unit holds {SIZE}: "
                          f"write '{low.text}-{high.text} choose {SIZE}'", low.column - 1)
    return DigitSet(low.value, high.value)


def read_objective(text: str) -> str:
    """The objective a `maximize:` value names: gcd(rows) or gcd(cols).  Raises OptionError."""
    spelt = re.sub(r"\s+", "", text).lower()
    if spelt not in OBJECTIVES:
        raise OptionError(f"expected {' or '.join(OBJECTIVES)}, found {text.split()[0]!r}"
                          if text.split() else f"expected {' or '.join(OBJECTIVES)}")
    return spelt


def is_comment(line: Line) -> bool:
    return line.text.lstrip().startswith("#")


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for a grid with '.' or '_' cells, or for nine rows of nine single digits."""
    rows = [line.text.replace("|", " ").split() for line in lines if line_kind(line) == "row"]
    tokens = [token for row in rows for token in row]
    if any(token in (".", "_") for token in tokens):
        return Claim(STRONG, "'.' or '_' cells")
    if len(rows) == SIZE and all(len(row) == SIZE for row in rows) and all(
            len(token) == 1 and token.isdigit() for token in tokens):
        return Claim(STRONG, "nine rows of nine digits")
    return NONE


def line_kind(line: Line) -> str:
    """One of "blank", "comment", "rule" (a box rule) or "row"."""
    if is_blank(line):
        return "blank"
    if is_comment(line):
        return "comment"
    if box_rule.fullmatch(line.text):
        return "rule"
    return "row"


def parse(lines: Sequence[Line], *, digits: DigitSet = DigitSet(),
          objective: str | None = None) -> Sudoku:
    """The Sudoku drawn in `lines`.  Raises ParseError at the first problem."""
    rows: list[tuple[Line, list[Token]]] = []
    for line in lines:
        if line_kind(line) == "row":
            rows.append((line, _row_cells(line, len(rows))))
    if not rows:
        raise error_at("no grid here: expected 9 rows of 9 cells (digits, '.' or '_')",
                       lines[-1] if lines else Line(1, ""), 1)
    if len(rows) < SIZE:
        last, cells = rows[-1]
        raise error_at(f"the grid ends after {len(rows)} row{'s' * (len(rows) != 1)}; "
                       f"a sudoku has {SIZE}", last, cells[-1].end)
    _check_givens(rows, digits)
    givens = tuple(tuple(token.value for token in cells) for _, cells in rows)
    tokens = [token.text for _, cells in rows for token in cells]
    return Sudoku(givens, digits, objective,
                  unknown="_" if "_" in tokens and "." not in tokens else ".",
                  boxes=any("|" in line.text for line in lines) or any(
                      line_kind(line) == "rule" for line in lines))


def _row_cells(line: Line, previous_rows: int) -> list[Token]:
    """The nine cells of a grid row; ParseError for a tenth row or a row of another length."""
    cells = list(parse_line(grid_row, line, "a digit, '.' or '_'"))
    if previous_rows == SIZE:
        raise error_at(f"a sudoku has {SIZE} rows; this would be row {SIZE + 1}",
                       line, cells[0].column)
    if len(cells) > SIZE:
        raise error_at(f"this row has {len(cells)} cells; a sudoku row has {SIZE}",
                       line, cells[SIZE].column)
    if len(cells) < SIZE:
        raise error_at(f"this row has {len(cells)} cell{'s' * (len(cells) != 1)}; "
                       f"a sudoku row has {SIZE}", line, cells[-1].end)
    return cells


def _check_givens(rows: list[tuple[Line, list[Token]]], digits: DigitSet) -> None:
    """ParseError at the first given outside `digits` or repeating a given of its row, column or box."""
    seen: dict[tuple[str, int, int], tuple[int, int]] = {}
    for r, (line, cells) in enumerate(rows):
        for c, token in enumerate(cells):
            if token.value is None:
                continue
            if token.value not in digits:
                raise error_at(f"{token.value} is not one of the digits {digits}", line, token.column)
            for unit, index in (("row", r), ("column", c), ("box", 3 * (r // 3) + c // 3)):
                earlier = seen.setdefault((unit, index, token.value), (r, c))
                if earlier != (r, c):
                    raise error_at(f"{token.value} is already given in this {unit}, at row "
                                   f"{earlier[0] + 1}, column {earlier[1] + 1}", line, token.column)
