"""The Killer Sudoku layout: its directive, a grid of cage letters, one sum line per
cage, and maybe the digits already placed.

    # game: killer-sudoku
    a a b c
    d e b c
    d e f f
    g g h h
    a 7
    b 6
    ...

    . . 4 .
    ...

The grid: one line per row (4, 6 or 9 of them), cells separated by blanks, or
all written together (`aabc`); a cell is the letter of its cage (upper and
lower case are different cages), or `.` for a cell in no cage.  Then a sum
line per cage, in any order: its letter (maybe with a colon), a blank, the
sum (`a 12`).  Then, optionally, after a blank line, the givens: a grid of
digits and `.` (or `_`, `?`, `0`) for unknown cells, apart or together.
`#` starts a comment line (a comment takes the whole line); the sum lines and
the comments and blank lines among them are kept in their order (the model's
`below`: grammars/lettered.py); ``` fence lines are ignored.

The drawn form walls the cages in as KenKen's drawn form does
(grammars/walls.py), each cage's sum in its first cell (its top-left one,
in reading order) and any placed digit after it or in the other cells; a cell
in no cage is walled in alone and holds `.`, maybe then its digit:

    # game: killer-sudoku
    +-------+-------+-------+-------+
    | 7     | 6     | 5     |       |
    ...
"""

from __future__ import annotations

import re
from typing import Sequence

import pyparsing as pp

from ..family import STRONG, Claim, NONE
from ..kakuro import reach
from ..puzzle import unchecked
from ..killer_sudoku import BOXES, Cage, KillerSudoku, Place, sum_range
from . import kenken, lettered, one_pass, walls
from .lettered import Clues, Rows
from .common import Line, Token, error_at, is_blank, is_comment, located, number, parse_line

WHAT_CELL = "a cage letter like a, or . for a cell in no cage"
WHAT_SUM = "a sum line like 'a 12': the cage's letter, then its sum"
WHAT_DIGIT = "a digit, or . for an unknown cell"
UNKNOWN = "._?0"

grid_row = pp.OneOrMore(located(pp.Regex(r"[A-Za-z.]+(?!\S)")).set_name(WHAT_CELL))
digit_row = pp.OneOrMore(located(pp.Regex(r"[0-9._?]+(?!\S)")).set_name(WHAT_DIGIT))
sum_line = (located(pp.Regex(r"[A-Za-z](?=\s|:)")) + pp.Suppress(pp.Optional(":"))
            + located(number()))

SUM = re.compile(r"\s*([A-Za-z])\s*:?\s*(\d{1,9})\s*")  # the quick way to read a sum line
SUM_LINE = re.compile(r"\s*[A-Za-z](?:\s*:\s*|\s+)\d")
LETTER_LINE = re.compile(r"\s*[A-Za-z.]+(?:\s+[A-Za-z.]+)*\s*")
STARTS_WITH_LETTER = re.compile(r"\s*[A-Za-z]")


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for a grid of cage letters whose clue lines are all bare sums (`a 12`);
    a KenKen's clues have operations.  Its directive is what usually claims it."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    grid = sum(bool(LETTER_LINE.fullmatch(line.text)) for line in body)
    sums = [line for line in body if SUM_LINE.match(line.text)]
    if grid >= 4 and sums and all(re.fullmatch(r"\s*[A-Za-z]\s*:?\s*\d+\s*", line.text) for line in sums):
        return Claim(STRONG, "a grid of cage letters and sum lines like 'a 12'")
    return NONE


def parse(lines: Sequence[Line], game: str | None = None) -> KillerSudoku:
    """The Killer Sudoku written in `lines`, in either form.  Raises ParseError at the
    first problem."""
    body = [line for line in lines if not is_comment(line)]
    drawn = [line for line in body if not is_blank(line)]
    if drawn and walls.DRAWN_START.match(drawn[0].text):
        return parse_drawn(drawn)
    rows: Rows = []
    sums: Clues = {}
    digits: Rows = []
    below: lettered.Below = []  # the lines under the last row so far, up to the givens
    for line in lines:
        if is_blank(line) or is_comment(line):
            if rows and not digits and (note := lettered.noted(line)):
                below.append(note)
        elif digits or (sums and not STARTS_WITH_LETTER.match(line.text)):  # a sum line starts with one
            digits.append((line, digit_cells(line)))
        elif sums or SUM_LINE.match(line.text):  # a sum line, or one gone wrong ('c', 'c x')
            below.append(lettered.clue_head(line, read_sum(line, sums)))
        else:
            rows.append((line, letter_cells(line)))
            below.clear()
    if not rows:
        raise error_at("no grid here: expected rows of cage letters, then sum lines like 'a 12'",
                       body[0] if body else Line(1, ""), 1)
    size = lettered.checked_size(rows, "a Killer Sudoku", BOXES, "4x4, 6x6 or 9x9")
    cells = {(r, c): token for r, (_, row) in enumerate(rows) for c, token in enumerate(row)
             if token.text != "."}
    cages = [cage(letter, places, sums, rows, cells, size)
             for letter, places in lettered.cage_places(cells).items()]
    named = {c.name for c in cages}
    if stray := next((letter for letter in sums if letter not in named), None):
        line, tokens = sums[stray]
        raise error_at(f"no cell of the grid is in cage {stray!r}", line, tokens[0].column)
    compact = all(cell.end == after.column for _, row in rows for cell, after in zip(row, row[1:]))
    return KillerSudoku.from_checked(size=size, cages=tuple(cages), compact=compact,
                                     givens=givens(digits, size) or ((None,) * size,) * size,
                                     below=lettered.kept_below(below))


def letter_cells(line: Line) -> list[Token]:
    """The cells of a grid row, apart or written together, each a Token at its column."""
    return spread(words(line, LETTERS) or list(parse_line(grid_row, line, WHAT_CELL)), line)


def digit_cells(line: Line) -> list[Token]:
    """The cells of a row of givens, apart or written together."""
    return spread(words(line, DIGITS) or list(parse_line(digit_row, line, WHAT_DIGIT)), line)


LETTERS, DIGITS = re.compile(r"[A-Za-z.]+"), re.compile(r"[0-9._?]+")


def words(line: Line, word: re.Pattern) -> list[Token]:
    """The blank-separated words of `line` as Tokens, when every one is a `word`: the
    quick way (grammar rows are hundreds of lines in a batch); [] otherwise, for the
    grammar to say what is wrong."""
    found = [Token(m.group(), None, m.start() + 1) for m in re.finditer(r"\S+", line.text)]
    return found if found and all(word.fullmatch(t.text) for t in found) else []


def spread(tokens: list[Token], line: Line) -> list[Token]:
    """One Token per character of runs written together; ParseError for a run in a row
    whose other cells stand apart."""
    if len(tokens) > 1 and (run := next((t for t in tokens if len(t.text) > 1), None)):
        raise error_at(f"expected one cell here, found {run.text[:20]!r} (the other cells of this "
                       "row stand apart)", line, run.column)
    return [Token(char, None, token.column + k) for token in tokens for k, char in enumerate(token.text)]


def read_sum(line: Line, sums: Clues) -> list[Token]:
    """Record the sum on `line` under its letter, and give its tokens; ParseError for a
    cage's second sum."""
    quick = SUM.fullmatch(line.text)
    tokens = ([Token(quick[1], None, quick.start(1) + 1), Token(quick[2], int(quick[2]), quick.start(2) + 1)]
              if quick else list(parse_line(sum_line, line, WHAT_SUM)))
    letter = tokens[0].text
    if letter in sums:
        raise error_at(f"cage {letter!r} already has a sum (line {sums[letter][0].number})",
                       line, tokens[0].column)
    sums[letter] = (line, tokens)
    return tokens


def cage(letter: str, places: list[Place], sums: Clues, rows: Rows,
         cells: dict[Place, Token], size: int) -> Cage:
    """The cage of `letter`.  ParseError for a cage without a sum, cut in two, or whose
    sum its cells cannot make."""
    line, tokens = lettered.lettered_clue(letter, places, sums, rows, cells, "sum", "10")
    return summed(f"cage {letter!r}", places, size, line, tokens[1], name=letter)


def summed(called: str, places: list[Place], size: int, line: Line, total: Token,
           name: str = "") -> Cage:
    """The cage over `places` with the sum `total`; ParseError for more cells than
    digits, or a sum its cells' different digits cannot make."""
    if problem := sum_problem(len(places), total.value, size, called):
        raise error_at(problem, line, total.column)
    return unchecked(Cage, cells=tuple(places), total=total.value, name=name)


def sum_problem(cells: int, total: int, size: int, called: str = "this cage") -> str | None:
    """What is wrong with the sum `total` of a cage of `cells` cells: more cells than
    digits, or a sum their different digits cannot make; None for a sum that can be."""
    if cells > size:
        return f"{called} has {cells} cells, more than the {size} different digits it can hold"
    possible = sum_range(cells, size)
    if total not in possible:
        return f"{called} has {cells} cells: different digits 1-{size} make {reach(possible)}, not {total}"
    return None


def givens(digits: Rows, size: int) -> tuple[tuple[int | None, ...], ...] | None:
    """The grid of digits placed, if written; ParseError for one of another shape or a
    digit outside 1..size."""
    if not digits:
        return None
    if len(digits) != size:
        line, row = digits[size] if len(digits) > size else digits[-1]
        raise error_at(f"the digits are {size} rows of {size} cells, not {len(digits)} rows", line,
                       row[0].column if len(digits) > size else row[-1].end)
    grid = []
    for line, row in digits:
        if len(row) != size:
            raise error_at(f"this row of digits has {len(row)} cells, not {size}", line,
                           row[size].column if len(row) > size else row[-1].end)
        for token in row:
            if token.text not in UNKNOWN and not 1 <= int(token.text) <= size:
                raise error_at(f"a digit is 1-{size}, not {token.text}", line, token.column)
        grid.append(tuple(None if t.text in UNKNOWN else int(t.text) for t in row))
    return tuple(grid)


# The drawn form: cages walled in as KenKen's are, each sum in its first cell.

def parse_drawn(body: Sequence[Line]) -> KillerSudoku:
    """The Killer Sudoku whose cages are walled in on `body`'s lines."""
    edges, wall_lines, rows = walls.drawn_grid(body)
    size = len(edges) - 1
    if len(rows) != size:
        raise error_at(f"the grid has {len(rows)} rows of {size} cells; a Killer Sudoku is square",
                       wall_lines[-1], edges[-1] + 1)
    if size not in BOXES:
        raise error_at(f"a Killer Sudoku is 4x4, 6x6 or 9x9, not {size}x{size}", body[0], 1)
    below = [walls.wall_segments(line, edges, outline=k in (0, size)) for k, line in enumerate(wall_lines)]
    right = [walls.partings(lines, edges) for lines in rows]
    contents = {(r, c): kenken.cell_contents(lines, edges[c], edges[c + 1])
                for r, lines in enumerate(rows) for c in range(size)}
    cages, placed = [], {}
    for places in walls.walled_cages(size, right, below):
        if (alone := kenken.in_no_cage(places, contents, size)) is not None:
            placed.update(alone)
            continue
        tokens = [(line, token) for place in places for line, held in contents[place] for token in held]
        if odd := next(((line, t) for line, t in tokens if isinstance(t.value, str)), None):
            raise error_at("a Killer Sudoku's cage has a sum, no operation", odd[0], odd[1].column)
        r, c = places[0]
        first = [(line, t) for line, held in contents[places[0]] for t in held]
        if not first:
            raise error_at("this cage has no sum: write it in its first (top-left) cell",
                           rows[r][0], edges[c] + 2)
        line, total = first[0]
        cages.append(summed("this cage", places, size, line, total))
        for place in places:
            for line, token in [(ln, t) for ln, held in contents[place] for t in held]:
                if token is total:
                    continue
                if not 1 <= token.value <= size:
                    raise error_at(f"a cell's digit is 1-{size}, not {token.value}", line, token.column)
                if place in placed:
                    raise error_at("this cell has its digit already", line, token.column)
                placed[place] = token.value
    return KillerSudoku.from_checked(size=size, cages=tuple(cages), drawn=True, givens=tuple(
        tuple(placed.get((r, c)) for c in range(size)) for r in range(size)))


# A whole text of lettered Killer Sudokus read in one pass (see grammars/one_pass.py):
# each with its directive above the grid (so that guessing gives it this family), rows
# of cage letters and `.`, apart or together, sum lines, and maybe rows of givens.
ONE_PASS_DIRECTIVE = r" *# *game *: *killer-sudoku *"
ONE_PASS_ROW = r" *[A-Za-z.]+(?: +[A-Za-z.]+)* *"
ONE_PASS_SUM = r" *[A-Za-z](?: *: *| +)[0-9]{1,9} *"
ONE_PASS_DIGITS = r" *[0-9._?]+(?: +[0-9._?]+)* *"
LETTER, DIGIT = re.compile(r"[A-Za-z.]"), re.compile(r"[0-9._?]")


def read_all(text: str, separator: str, game: str | None = None) -> list[KillerSudoku] | None:
    """Every Killer Sudoku of `text`, read in one pass, when the text holds only
    lettered Killer Sudokus, each with its `# game: killer-sudoku` directive above
    its grid and well-formed, apart by blank lines, comments and lines that fully
    match `separator`; None for any other text, which `parse` then reads piece by
    piece and refuses where it must.  The puzzles are those `parse` gives."""
    element = one_pass.whole_text(separator, ONE_PASS_DIRECTIVE, ONE_PASS_ROW, ONE_PASS_SUM,
                                  ONE_PASS_DIGITS, notes=True)
    puzzles = [_lettered_puzzle(lines) for lines in one_pass.read_pieces(text, element) or ()]
    return None if not puzzles or None in puzzles else puzzles


def _lettered_puzzle(lines: list[str]) -> KillerSudoku | None:
    """The Killer Sudoku of one piece's lines, or None where `parse` would refuse it."""
    rows, sums, digits, directives, below = [], {}, [], 0, []
    for line in lines:
        if one_pass.is_note(line):
            if rows and not digits:
                below.append(("", line))
        elif line[0] == "#":
            if rows:  # a directive belongs above the grid
                return None
            directives += 1
        elif digits:
            digits.append(line)
        elif match := one_pass.CLUE.fullmatch(line):
            if match[1] in sums:
                return None
            sums[match[1]] = int(match[2])
            below.append((match[1], line[:match.start(2)]))
        elif sums:
            digits.append(line)
        else:
            rows.append(line)
            below.clear()
    read = one_pass.grid_cells(rows, LETTER)
    if directives != 1 or read is None or len(rows) not in BOXES:
        return None
    grid, compact = read
    size = len(grid)
    places = one_pass.letter_places(grid, no_cage=".")
    if len(places) != len(sums):  # a cage without sum, or a sum without cage
        return None
    cages = []
    for letter, cells in places.items():
        if letter not in sums or not one_pass.connected(cells) or sum_problem(len(cells), sums[letter], size):
            return None
        cages.append(unchecked(Cage, cells=tuple(cells), total=sums[letter], name=letter))
    placed = _placed(digits, size)
    if placed is None:
        return None
    return KillerSudoku.from_checked(size=size, cages=tuple(cages), givens=placed, compact=compact,
                                     below=lettered.kept_below(below))


def _placed(digits: list[str], size: int) -> tuple[tuple[int | None, ...], ...] | None:
    """The givens rows of digits state (none: every cell unknown), or None where
    `givens` would refuse them."""
    if not digits:
        return ((None,) * size,) * size
    read = one_pass.grid_cells(digits, DIGIT)
    if read is None or len(digits) != size:
        return None
    if not set().union(*read[0]) <= PLACEABLE[size]:
        return None
    return tuple(tuple(None if cell in UNKNOWN else int(cell) for cell in row) for row in read[0])


PLACEABLE = {size: set(UNKNOWN) | set(map(str, range(1, size + 1))) for size in BOXES}
