"""What KenKen's and Killer Sudoku's lettered layouts share: a square grid of cage
letters (`.` for a cell in no cage), then one clue line per cage (`a 12*`, `a 12`).

Each family's grammar reads its own cells and clue lines into Tokens; here are
the grid's size, the places of each letter, a cage's clue line, whether a cage's
cells hold together, and the lines below the grid (clue lines, comments, blank
lines) as the models keep them to draw them back as typed.
"""

from __future__ import annotations

from typing import Collection

from ..caged import LETTERS, without_blanks_after_clues
from ..regions import Place, neighbours, reached
from .common import FENCE_LINE, Line, Token, error_at

Rows = list[tuple[Line, list[Token]]]  # each grid row's line and cells
Clues = dict[str, tuple[Line, list[Token]]]  # each letter's clue line and its tokens


def checked_size(rows: Rows, called: str, sizes: Collection[int], sizes_named: str) -> int:
    """The size of a square grid of cells, one of `sizes`; ParseError for a grid that is
    not square or of another size (`called` names the family in the message)."""
    size = len(rows[0][1])
    for line, row in rows:
        if len(row) != size:
            column = row[size].column if len(row) > size else row[-1].end
            raise error_at(f"this row has {len(row)} cells; the first has {size}", line, column)
    if len(rows) != size:
        line, row = rows[-1]
        raise error_at(f"the grid has {len(rows)} rows of {size} cells; {called} is square",
                       line, row[-1].end)
    if size not in sizes:
        raise error_at(f"{called} is {sizes_named}, not {size}x{size}", rows[0][0], 1)
    return size


def cage_places(cells: dict[Place, Token]) -> dict[str, list[Place]]:
    """The places of each letter, in reading order (`.`, no cage, left out)."""
    places: dict[str, list[Place]] = {}
    for place, token in sorted(cells.items()):
        if token.text[0] != ".":
            places.setdefault(token.text[0], []).append(place)
    return places


def lettered_clue(letter: str, places: list[Place], clues: Clues,
                  rows: Rows, cells: dict[Place, Token], what: str, example: str) -> tuple[Line, list[Token]]:
    """The line and tokens of the clue of the cage lettered `letter` (KenKen's clue,
    Killer Sudoku's sum: `what`, like `example`).  ParseError for a cage without one, or
    cut in two."""
    first = places[0]
    if letter not in clues:
        raise error_at(f"cage {letter!r} has no {what} line (add one like '{letter} {example}')",
                       rows[first[0]][0], cells[first].column)
    if apart := unconnected(places):
        raise error_at(f"the cells of cage {letter!r} are not connected: this one is cut off "
                       "from the first", rows[apart[0]][0], cells[apart].column)
    return clues[letter]


def unconnected(places: list[Place]) -> Place | None:
    """The first place (in reading order) not reached from the first through the others."""
    rest = set(places)
    joined = reached(places[0], lambda place: neighbours([place], rest))
    return next((place for place in places if place not in joined), None)


# The lines below the grid, as the models keep them (crossprolog.caged: CagedGrid.below)

Below = list[tuple[str, str]]  # (letter, what stands before its number) or ("", a comment)


def clue_head(line: Line, tokens: list[Token]) -> tuple[str, str]:
    """A clue line below the grid: its letter, and what stands before its number (`a `,
    `a: `), from its tokens (the letter, then the number)."""
    letter, number = tokens[0], tokens[1]
    return letter.text, line.text[letter.column - 1:number.column - 1]


def noted(line: Line) -> tuple[str, str] | None:
    """A comment or blank line below the grid, as typed; None for a markdown fence, which
    wraps the drawing and is not its own."""
    return None if FENCE_LINE.match(line.text) else ("", line.text.rstrip())


def kept_below(lines: Below) -> tuple[tuple[str, str], ...]:
    """The lines typed below the grid as the models keep them, from those under its last
    row (up to Killer Sudoku's givens): every clue line, comment and blank line, less
    the blank lines after the last clue line (those part it from the next puzzle, or
    from the givens, which the drawing parts anew); none when they are the clue lines
    alone, `a 12*`, in the order of the letters, as the models draw a puzzle's anyway
    (a puzzle made in Python, or generated, is read back the same)."""
    kept = tuple(without_blanks_after_clues(lines))
    letters = [letter for letter, head in kept if head == f"{letter} "]
    return () if len(letters) == len(kept) and letters == sorted(letters, key=LETTERS.index) else kept
