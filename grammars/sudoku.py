"""The Sudoku layouts: directive lines, then a 9×9 grid, written as people write it.

    # digits: 0-9 choose 9
    # maximize: gcd(rows)
    . . . | . . . | . 2 .
    . . . | . 2 . | . . 5
    ...
    ------+-------+------

A cell is a digit (given) or `.`, `_`, `?` or `0` (unknown; `0` only where 0 is
not one of the digits in use, else it is the digit 0).  A row is nine cells,
apart (`1 . . 7`) or together (`1....7.9.`, the .sdk files' way), and the
whole grid may be one line of 81 cells.  Box marks are ignored: `|` between
cells, lines made of `-`, `+` and `|`, and a markdown table's alignment and
empty header lines.  Blank lines are ignored.  A line of 81 cells per puzzle
(the .sdm files' way) is several puzzles: see `split`.

Directives are `#` lines above the grid that start with a word and a colon:

    # digits: LOW-HIGH [choose 9]     the digits in use (default 1-9); a range
                                      of ten, like 0-9, needs `choose 9`: one
                                      digit is left out, the same in every unit
    # maximize: gcd(rows)             the grid whose row numbers (9 digits,
    # maximize: gcd(cols)             leading zeros allowed) or column numbers
                                      have the greatest common divisor

Every other `#` line is a comment, and so are the .sdk files' header lines
(`#A author`, `#Uhttp://...`: see `is_header`).  Directive lines are read for
every family alike (`common.split_directives`): above the grid `# word:` must
be a known directive, below it only comments.  Below a markdown table, the
notes line that `render` writes (`*digits: 0-9 choose 9* · ...`) states the
same options, for what the directives above do not.
"""

from __future__ import annotations

import re
from typing import Sequence

import pyparsing as pp

from ..family import STRONG, Claim, NONE, OptionError
from ..puzzle import unchecked
from ..sudoku import OBJECTIVES, SIZE, DigitSet, Sudoku
from . import one_pass
from .common import Line, Token, entire, error_at, is_blank, is_comment, located, number

# The grid

UNKNOWN = "._?"
CELLS = re.compile(r"[0-9._?]+")  # a token of cells written together
NO_CELL = re.compile(r"[^0-9._?]+")
CELL_WHAT = "a digit, '.', '_' or '?'"
TOKEN = re.compile(r"[^\s|]+")
BOX_RULE = re.compile(r"[\s|]*[-+][-+|\s]*")
TABLE_RULE = re.compile(r"[\s|:-]*")  # a markdown table's alignment line, or its empty header
ALIGNMENT = re.compile(r"\s*\|(?:\s*:?-+:?\s*\|){9}\s*")
NOTE = re.compile(r"\*([A-Za-z][\w-]*)\s*:([^*]*)\*")  # `*digits: 0-9 choose 9*` in a notes line
SDK_HEADER = re.compile(r"#[ABCDLSU]\S")

# Directive values

single_digit = located(pp.Regex(r"[0-9](?![0-9])").set_parse_action(lambda t: int(t[0]))).set_name("a digit")
count = located(number()).set_name("a count")
digits_value = (single_digit + pp.Suppress("-") + single_digit
                + pp.Optional(pp.Suppress(pp.CaselessKeyword("choose")) + count))
DIGITS_WHAT = "a digit range like 1-9 or 0-9 choose 9"


def read_digit_set(text: str) -> DigitSet:
    """The digit set a `digits:` value names (`1-9`, `0-9 choose 9`).  Raises OptionError."""
    try:
        low, high, *choose = entire(digits_value).parse_string(text)
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


def is_header(line: Line) -> bool:
    """An .sdk file's header line: `#`, the letter of what it says (Author, Description,
    Comment, B date, Source, Level, Url), then the text at once (`#ARuud`)."""
    return bool(SDK_HEADER.match(line.text.lstrip()))


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for a grid with '.' or '_' cells (as strong as its lines are rows of
    cells), for lines of 81 cells (a puzzle each), or for nine rows of nine cells
    (digits, or '?', which is also CrossProduct's unknown: the shape tells them apart,
    as a CrossProduct's product line is a token short)."""
    lined = [line for line in lines if line_kind(line) == "row"]
    rows = [cells for line in lined if (cells := cell_texts(line))]
    if not rows:
        return NONE
    if any(cell in (".", "_") for row in rows for cell in row):
        # As strong as the rows are many: a KenKen's row of cells in no cage is `. . . .`
        return Claim(STRONG * len(rows) / len(lined), "'.' or '_' cells")
    if all(len(row) == SIZE * SIZE for row in rows):
        return Claim(STRONG, "lines of 81 cells")
    if len(rows) == SIZE and all(len(row) == SIZE for row in rows):
        return Claim(STRONG, "nine rows of nine cells" if any("?" in row for row in rows)
                     else "nine rows of nine digits")
    return NONE


def cell_texts(line: Line) -> list[str]:
    """The cells of a row line, as texts; none if it holds anything else."""
    tokens = TOKEN.findall(line.text)
    if not all(CELLS.fullmatch(token) for token in tokens):
        return []
    return tokens if all(len(token) == 1 for token in tokens) else list("".join(tokens))


def line_kind(line: Line) -> str:
    """One of "blank", "comment", "rule" (a box rule, a markdown table's alignment
    line or empty header), "note" (the notes line under a markdown table) or "row"."""
    if is_blank(line):
        return "blank"
    if is_comment(line):
        return "comment"
    if BOX_RULE.fullmatch(line.text) or TABLE_RULE.fullmatch(line.text):
        return "rule"
    if line.text.lstrip().startswith("*"):
        return "note"
    return "row"


def split(lines: Sequence[Line]) -> list[list[Line]]:
    """The lines of each puzzle `lines` hold: one per line of 81 characters when there
    are several such lines and no other rows (the .sdm files' way), each with the
    lines above the first (directives, comments); else all of them, as one."""
    rows = [n for n, line in enumerate(lines) if line_kind(line) == "row"]
    if len(rows) < 2 or any(len(lines[n].text.strip()) != SIZE * SIZE or " " in lines[n].text.strip()
                            for n in rows):
        return [list(lines)]
    return [list(lines[:rows[0]]) + [lines[n]] for n in rows]


def parse(lines: Sequence[Line], *, digits: DigitSet | None = None,
          objective: str | None = None) -> Sudoku:
    """The Sudoku drawn in `lines`.  Raises ParseError at the first problem.

    `digits` and `objective` are what the directives (or the command line) set;
    None for not set, when a markdown notes line may set them (else 1-9, none).
    """
    notes = _notes([line for line in lines if line_kind(line) == "note"])
    digits = digits or notes.get("digits") or DigitSet()
    objective = objective or notes.get("maximize")
    row_lines = [line for line in lines if line_kind(line) == "row"]
    rows = _rows(row_lines)
    if not rows:
        raise error_at("no grid here: expected 9 rows of 9 cells (digits, '.', '_' or '?')",
                       lines[-1] if lines else Line(1, ""), 1)
    if len(rows) < SIZE:
        last, cells = rows[-1]
        raise error_at(f"the grid ends after {len(rows)} row{'s' * (len(rows) != 1)}; "
                       f"a sudoku has {SIZE}", last, cells[-1].end)
    rows = [(line, [_known(token, digits) for token in cells]) for line, cells in rows]
    _check_givens(rows, digits)
    givens = tuple(tuple(token.value for token in cells) for _, cells in rows)
    unknowns = {token.text for _, cells in rows for token in cells if token.value is None}
    return Sudoku(givens, digits, objective,
                  layout="markdown" if any(ALIGNMENT.fullmatch(line.text) for line in lines) else "text",
                  unknown=next((mark for mark in (".", "_", "?", "0") if mark in unknowns), "."),
                  boxes=any("|" in line.text for line in row_lines) or any(
                      line_kind(line) == "rule" for line in lines),
                  written=_written(row_lines))


def _written(row_lines: list[Line]) -> str:
    cells = cell_texts(row_lines[0])
    if len(cells) == SIZE * SIZE:
        return "line"
    return "spaced" if len(TOKEN.findall(row_lines[0].text)) == len(cells) else "compact"


def _rows(row_lines: list[Line]) -> list[tuple[Line, list[Token]]]:
    """The grid's rows with their cells: a line each, or nine from a line of 81 cells.
    ParseError for a tenth row or a row of another length."""
    rows = [(line, row_cells(line)) for line in row_lines]
    if rows and len(rows[0][1]) == SIZE * SIZE:
        if len(rows) > 1:
            raise error_at("a line of 81 cells is a whole puzzle, and this is another row: "
                           "give each puzzle its own line of 81 cells (several puzzles)",
                           rows[1][0], rows[1][1][0].column)
        line, cells = rows[0]
        return [(line, cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
    for n, (line, cells) in enumerate(rows):
        if n == SIZE:
            raise error_at(f"a sudoku has {SIZE} rows; this would be row {SIZE + 1}",
                           line, cells[0].column)
        if len(cells) > SIZE:
            raise error_at(f"this row has {len(cells)} cells; a sudoku row has {SIZE}",
                           line, cells[SIZE].column)
        if len(cells) < SIZE:
            raise error_at(f"this row has {len(cells)} cell{'s' * (len(cells) != 1)}; "
                           f"a sudoku row has {SIZE}", line, cells[-1].end)
    return rows


def row_cells(line: Line) -> list[Token]:
    """The cells of a row line, apart or together, each a Token whose value is its digit
    (None for '.', '_' or '?').  ParseError at what is no cell, or at a run of cells in a row
    whose other cells stand apart."""
    tokens = [(match.group(), match.start()) for match in TOKEN.finditer(line.text)]
    for text, start in tokens:
        if bad := NO_CELL.search(text):
            raise error_at(f"expected {CELL_WHAT}, found {bad.group()[:20]!r}", line, start + bad.start() + 1)
    if any(len(text) == 1 for text, _ in tokens) and (run := next(
            ((text, start) for text, start in tokens if len(text) > 1), None)):
        raise error_at(f"expected {CELL_WHAT}, found {run[0][:20]!r} (the other cells of this row "
                       "stand apart)", line, run[1] + 1)
    return [Token(char, None if char in UNKNOWN else int(char), start + n + 1)
            for text, start in tokens for n, char in enumerate(text)]


def _known(token: Token, digits: DigitSet) -> Token:
    """The cell with 0 read as unknown, where 0 is not one of `digits`."""
    return token._replace(value=None) if token.value == 0 and 0 not in digits else token


def _notes(lines: list[Line]) -> dict[str, object]:
    """The options a markdown notes line states (`*digits: 0-9 choose 9* · *maximize: gcd(rows)*`),
    by directive name.  ParseError at an unknown one or a value that does not read."""
    readers = {"digits": read_digit_set, "maximize": read_objective}
    options: dict[str, object] = {}
    for line in lines:
        for match in NOTE.finditer(line.text):
            word = match.group(1).lower()
            if word not in readers:
                raise error_at(f"unknown option {word!r} in the notes (known: {', '.join(readers)})",
                               line, match.start(1) + 1)
            value = match.group(2)
            try:
                options[word] = readers[word](value)
            except OptionError as error:
                blanks = len(value) - len(value.lstrip())
                raise error_at(str(error), line, match.start(2) + blanks + error.offset + 1) from None
    return options


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
                    zero = (f" (with the digits {digits}, 0 is a digit, not an unknown: mark "
                            "unknown cells with '.' or '_')" if token.value == 0 else "")
                    raise error_at(f"{token.value} is already given in this {unit}, at row "
                                   f"{earlier[0] + 1}, column {earlier[1] + 1}{zero}", line, token.column)


# A whole text of Sudokus read in one pass (see grammars/one_pass.py): rows of cells
# (digits, '.', '_', '?'), apart or together, maybe with `|` between boxes and box rules
# between, or lines of 81 cells, a puzzle each.
ONE_PASS_ROW = r" *(?:\| *)?[0-9._?][0-9._?| ]*"
ONE_PASS_RULE = r" *[|]?[-+][-+| ]*"
CELLS_LINE = re.compile(r"[0-9._?]{81}")
UNKNOWN_MARKS = (".", "_", "?", "0")  # by preference, as `parse` picks the one to write


def read_all(text: str, separator: str, *, digits: DigitSet | None = None,
             objective: str | None = None) -> list[Sudoku] | None:
    """Every Sudoku of `text`, read in one pass, when the text holds only Sudokus of the
    digits 1-9 in the plain layout (no directive, no markdown), each well-formed, apart
    by blank lines, comments and lines that fully match `separator`; None for any other
    text, which `parse` then reads piece by piece and refuses where it must.  A grid of
    nine rows needs a '.' or '_' cell, so that guessing gives it this family.  The
    puzzles are those `parse` gives."""
    if digits not in (None, DigitSet()):
        return None
    found = one_pass.read_pieces(text, one_pass.whole_text(separator, ONE_PASS_ROW, ONE_PASS_RULE))
    puzzles = [puzzle for lines in found or () for puzzle in _one_pass_puzzles(lines, objective)]
    return None if not puzzles or None in puzzles else puzzles


def _one_pass_puzzles(lines: list[str], objective: str | None) -> list[Sudoku | None]:
    """The Sudokus of one piece's lines (several for lines of 81 cells, as `split` has
    it), None where `parse` would refuse one or guessing give it another family."""
    rows = [line for line in lines if "-" not in line and "+" not in line]  # the others are box rules
    if any(ALIGNMENT.fullmatch(line) for line in lines if line[0] == "|"):
        return [None]  # a markdown table: read piece by piece
    if len(rows) > 1 and all(CELLS_LINE.fullmatch(row) for row in rows):
        if len(rows) < len(lines):  # rules beside lines of 81 cells: read piece by piece
            return [None]
        return [_one_pass_puzzle([row[n:n + SIZE] for n in range(0, SIZE * SIZE, SIZE)], objective,
                                 boxes=False, written="line") for row in rows]
    cells = ["".join(TOKEN.findall(row)) for row in rows]
    if len(cells) == 1 and len(cells[0]) == SIZE * SIZE:
        cells, written = [cells[0][n:n + SIZE] for n in range(0, SIZE * SIZE, SIZE)], "line"
    elif not any("." in row or "_" in row for row in cells):
        return [None]
    else:
        written = "spaced" if len(TOKEN.findall(rows[0])) == len(cells[0]) else "compact"
    if len(cells) != SIZE or any(len(row) != SIZE for row in cells) or any(
            1 in (lengths := set(map(len, TOKEN.findall(row)))) and len(lengths) > 1 for row in rows):
        return [None]  # not nine rows of nine, or a row whose cells stand apart and together
    boxes = len(rows) < len(lines) or any("|" in row for row in rows)
    return [_one_pass_puzzle(cells, objective, boxes=boxes, written=written)]


def _one_pass_puzzle(cells: list[str], objective: str | None, *, boxes: bool,
                     written: str) -> Sudoku | None:
    """The Sudoku of nine rows of nine cells, or None for one whose givens repeat in a
    row, a column or a box."""
    seen: set[tuple[int, int, str]] = set()
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if cell not in UNKNOWN_MARKS:
                for unit in ((0, r, cell), (1, c, cell), (2, 3 * (r // 3) + c // 3, cell)):
                    if unit in seen:
                        return None
                    seen.add(unit)
    givens = tuple(tuple(None if cell in UNKNOWN_MARKS else int(cell) for cell in row) for row in cells)
    written_marks = set().union(*cells)
    unknown = next((mark for mark in UNKNOWN_MARKS if mark in written_marks), ".")
    return unchecked(Sudoku, givens=givens, objective=objective, boxes=boxes, written=written,
                     unknown=unknown)
