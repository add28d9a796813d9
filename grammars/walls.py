"""Grids whose cages are walled in, as printed KenKens and Killer Sudokus draw them:
the lines' geometry, shared by both families' drawn forms.

    +-----+-----+-----+-----+
    | 12* |     | 2-  | 3/  |
    +     +-----+     +     +

Wall lines start with `+` (or `|----+----|`: a `|` at either end), their `+`
marking where the columns part (the top line's `+` and ends say where every
line's must stand); `-` runs are walls, blanks are openings.  A row of cells
is one line or more between wall lines, `|` a wall and a blank an opening.
Cells joined through openings form a cage.  What a cell holds is the
family's to read.
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from ..regions import Place, reached
from .common import Line, error_at

# A wall line drawn as tables draw them, a `|` at either end: dashes, or openings
# parted by `+`, up to the next `|` (a row of cells has a clue or blanks alone there);
# what follows is the wall line's to check, as for one drawn with `+`.
WALL_LINE = re.compile(r"\s*[+|][-+ ]*-[-+ ]*[+|]\s*")
PIPED_WALL = re.compile(r"\s*\|[-+ ]*[-+][-+ ]*\|.*")
CELLS_LINE = re.compile(r"\s*\|.*")
DRAWN_START = re.compile(r"\s*[+|]-")


def column_edges(top: Line) -> list[int]:
    """Where the columns part, by the top line: its `+`, and a `|` at either end."""
    text = top.text.rstrip()
    start = len(text) - len(text.lstrip())
    return [column for column, char in enumerate(text)
            if char == "+" or (char == "|" and column in (start, len(text) - 1))]


def is_wall(line: Line) -> bool:
    """A wall line: it starts with `+`, or it is `|----+----|`, dashes and `+` between pipes."""
    return line.text.lstrip().startswith("+") or bool(PIPED_WALL.fullmatch(line.text))


def walls_and_rows(body: Sequence[Line]) -> tuple[list[Line], list[list[Line]]]:
    """The wall lines, and between each two the lines of a row of cells.  ParseError
    for a line that is neither, two walls with no row between, or no closing wall."""
    walls, rows = [], []
    for line, previous in zip(body, [None, *body]):
        after_wall = previous is not None and previous in walls
        if is_wall(line):
            if after_wall:
                raise error_at("a row of cells (| ... |) belongs between two wall lines",
                               line, len(line.text) - len(line.text.lstrip()) + 1)
            walls.append(line)
        elif CELLS_LINE.fullmatch(line.text):
            if after_wall:
                rows.append([])
            rows[-1].append(line)
        else:
            raise error_at("expected a wall line like +---+ or a row of cells between | and |",
                           line, len(line.text) - len(line.text.lstrip()) + 1)
    if body[-1] not in walls:
        last = body[-1]
        raise error_at("the grid needs a closing wall line (+---+) below this row", last,
                       len(last.text) + 1)
    return walls, rows


def drawn_grid(body: Sequence[Line]) -> tuple[list[int], list[Line], list[list[Line]]]:
    """Where the columns part (by the top line), the wall lines, and the lines of each row
    of cells.  ParseError for a line that is neither, or that stops before the grid's
    right edge (before the rows are counted: a top line drawn too wide says so there)."""
    edges = column_edges(body[0])
    walls, rows = walls_and_rows(body)
    for line in body:
        reaching(line, edges)
    return edges, walls, rows


def reaching(line: Line, edges: list[int]) -> str:
    """`line`'s text, which must reach the grid's right edge."""
    if len(line.text) <= edges[-1]:
        raise error_at(f"this line stops before the grid's right edge (column {edges[-1] + 1}, "
                       "where the top line's last + stands)", line, len(line.text) + 1)
    return line.text


def stray(line: Line, edges: list[int], mark: str) -> None:
    """ParseError for a `mark` (| or +) inside the grid where the top line has no +."""
    inside = range(edges[0], edges[-1] + 1)
    column = next((i for i in inside if line.text[i] == mark and i not in edges), None)
    if column is not None:
        raise error_at(f"a {mark} stands only where the top line's + do: columns part there",
                       line, column + 1)


def nothing_after(line: Line, edges: list[int]) -> None:
    """ParseError for anything but blanks after the grid's right edge on `line`."""
    after = line.text[edges[-1] + 1:]
    if after.strip():
        raise error_at("nothing may follow the grid's right edge", line,
                       edges[-1] + 2 + len(after) - len(after.lstrip()))


def wall_segments(line: Line, edges: list[int], outline: bool) -> list[bool]:
    """For each column, whether `line` walls it (`-`) or leaves it open (blanks);
    the top and bottom lines (`outline`) wall every column."""
    text = reaching(line, edges)
    stray(line, edges, "+")
    walled = []
    for left, right in zip(edges, edges[1:]):
        if text[left] not in "+-| ":
            raise error_at("expected + where columns part", line, left + 1)
        segment = text[left + 1:right]
        wall = set(segment) == {"-"}
        if not wall and (outline or segment.strip()):
            odd = next((i for i, char in enumerate(segment) if char != "-"), 0)
            raise error_at("the outline is a wall: expected -" if outline
                           else "expected a wall (-) or an opening (blanks) across this cell",
                           line, left + 2 + odd)
        walled.append(wall)
    if text[edges[-1]] not in "+|":
        raise error_at("expected + at the grid's right edge", line, edges[-1] + 1)
    nothing_after(line, edges)
    return walled


def partings(lines: list[Line], edges: list[int]) -> list[bool]:
    """For each column but the last of a row of cells, whether a wall (`|`) stands at
    its right on any of the row's lines; the outline must be walled on every one."""
    walled = [False] * (len(edges) - 2)
    for line in lines:
        text = reaching(line, edges)
        stray(line, edges, "|")
        for k, edge in enumerate(edges):
            outer = k in (0, len(edges) - 1)
            if text[edge] != "|" and (outer or text[edge] != " "):
                raise error_at("the outline is a wall: expected |" if outer
                               else "expected | (a wall) or a blank (an opening) where columns part",
                               line, edge + 1)
            if not outer and text[edge] == "|":
                walled[k - 1] = True
        nothing_after(line, edges)
    return walled


def walled_cages(size: int, right: list[list[bool]], below: list[list[bool]]) -> list[list[Place]]:
    """The cells joined through openings, cage by cage, each in reading order."""
    def open_neighbours(r: int, c: int) -> Iterator[Place]:
        if c + 1 < size and not right[r][c]:
            yield r, c + 1
        if c > 0 and not right[r][c - 1]:
            yield r, c - 1
        if r + 1 < size and not below[r + 1][c]:
            yield r + 1, c
        if r > 0 and not below[r][c]:
            yield r - 1, c

    seen: set[Place] = set()
    cages = []
    for start in ((r, c) for r in range(size) for c in range(size)):
        if start not in seen:
            cage = reached(start, lambda place: open_neighbours(*place))
            seen |= cage
            cages.append(sorted(cage))
    return cages
