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

Every other `#` line is a comment.  Above the grid, `# word:` must be a
known directive (a misspelt one would otherwise be silently ignored); below
the grid, `#` lines are comments, except that a known directive there is an
error, since directives belong above the grid.
"""

from __future__ import annotations

import re

import pyparsing as pp

from ..sudoku import SIZE, DigitSet, Sudoku
from .common import Line, Token, error_at, is_blank, located, number, parse_line, source_lines

# The grid

unknown = pp.Regex(r"[._](?![^\s|])").set_parse_action(lambda: [None])
given = pp.Regex(r"\d(?![^\s|])").set_parse_action(lambda t: int(t[0]))
cell = located(unknown | given).set_name("a digit, '.' or '_'")
box_bar = pp.Suppress("|")
grid_row = pp.ZeroOrMore(box_bar) + pp.OneOrMore(cell + pp.ZeroOrMore(box_bar))
box_rule = re.compile(r"[\s|]*[-+][-+|\s]*")

# Directives

directive_head = re.compile(r"#\s*([A-Za-z][\w-]*)\s*:")
single_digit = located(pp.Regex(r"\d(?!\d)").set_parse_action(lambda t: int(t[0]))).set_name("a digit")
count = located(number()).set_name("a count")
digits_value = (single_digit + pp.Suppress("-") + single_digit
                + pp.Optional(pp.Suppress(pp.CaselessKeyword("choose")) + count))
objective_value = pp.Combine(pp.CaselessKeyword("gcd") + "(" + pp.one_of("rows cols", caseless=True)
                             + ")", adjacent=False)("objective")


def directive(key: str, value: pp.ParserElement) -> pp.ParserElement:
    """The whole line `# key: value`."""
    return pp.Suppress("#") + pp.Suppress(pp.CaselessKeyword(key)) + pp.Suppress(":") + value


DIRECTIVES = {
    "digits": (directive("digits", digits_value), "a digit range like 1-9 or 0-9 choose 9"),
    "maximize": (directive("maximize", objective_value), "gcd(rows) or gcd(cols)"),
}


def looks_like(text: str) -> bool:
    """True when `text` could be a Sudoku: a known directive, or an unknown cell `.` or `_`,
    or nine rows of nine single digits."""
    lines = source_lines(text)
    if any(directive_key(line) in DIRECTIVES for line in lines):
        return True
    rows = [line.text.replace("|", " ").split() for line in lines if line_kind(line) == "row"]
    tokens = [token for row in rows for token in row]
    if any(token in (".", "_") for token in tokens):
        return True
    return len(rows) == SIZE and all(len(row) == SIZE for row in rows) and all(
        len(token) == 1 and token.isdigit() for token in tokens)


def directive_key(line: Line) -> str | None:
    """The lower-cased word of a `# word:` line, or None for any other line."""
    match = directive_head.match(line.text.lstrip())
    return match.group(1).lower() if match else None


def line_kind(line: Line) -> str:
    """One of "blank", "comment" (directives too), "rule" (a box rule) or "row"."""
    if is_blank(line):
        return "blank"
    if line.text.lstrip().startswith("#"):
        return "comment"
    if box_rule.fullmatch(line.text):
        return "rule"
    return "row"


def parse(text: str) -> Sudoku:
    """The Sudoku drawn in `text`.  Raises ParseError at the first problem."""
    lines = source_lines(text)
    options: dict[str, object] = {}
    rows: list[tuple[Line, list[Token]]] = []
    for line in lines:
        kind = line_kind(line)
        if kind == "comment" and directive_key(line) is not None:
            _read_directive(line, options, grid_started=bool(rows))
        elif kind == "row":
            rows.append((line, _row_cells(line, len(rows))))
    if not rows:
        raise error_at("no grid here: expected 9 rows of 9 cells (digits, '.' or '_')",
                       lines[-1], 1)
    if len(rows) < SIZE:
        last, cells = rows[-1]
        raise error_at(f"the grid ends after {len(rows)} row{'s' * (len(rows) != 1)}; "
                       f"a sudoku has {SIZE}", last, cells[-1].end)
    digits = options.get("digits", DigitSet())
    _check_givens(rows, digits)
    givens = tuple(tuple(token.value for token in cells) for _, cells in rows)
    tokens = [token.text for _, cells in rows for token in cells]
    return Sudoku(givens, digits, options.get("maximize"),
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


def _read_directive(line: Line, options: dict[str, object], grid_started: bool) -> None:
    """Record the directive on `line` in `options`, checking it is known, once, and above the grid."""
    key = directive_key(line)
    column = line.text.index("#") + 1
    if key not in DIRECTIVES:
        if grid_started:
            return  # a comment below the grid
        raise error_at(f"unknown directive {key!r} (known: {', '.join(DIRECTIVES)}); "
                       "write free comments without 'word:' at their start", line, column)
    if grid_started:
        raise error_at(f"the {key!r} directive must come above the grid", line, column)
    if key in options:
        raise error_at(f"the {key!r} directive is given twice", line, column)
    grammar, what = DIRECTIVES[key]
    value = parse_line(grammar, line, what)
    options[key] = _digit_set(value, line) if key == "digits" else value["objective"].lower()


def _digit_set(value: pp.ParseResults, line: Line) -> DigitSet:
    """The digit set a `digits:` directive names; ParseError unless it makes nine digits."""
    low, high, *choose = value
    size = high.value - low.value + 1
    if choose and choose[0].value != SIZE:
        raise error_at(f"a unit holds {SIZE} digits: write 'choose {SIZE}'", line, choose[0].column)
    if size < SIZE:
        raise error_at(f"{low.text}-{high.text} has {max(size, 0)} digits; a unit needs {SIZE}",
                       line, low.column)
    if size > SIZE and not choose:
        raise error_at(f"{low.text}-{high.text} has {size} digits but a unit holds {SIZE}: "
                       f"write '{low.text}-{high.text} choose {SIZE}'", line, low.column)
    return DigitSet(low.value, high.value)


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
