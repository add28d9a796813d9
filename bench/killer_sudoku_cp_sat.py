"""A CP-SAT model of Killer Sudoku (OR-Tools, one worker), reading the text itself.

Each cell is an integer variable 1..N; each row, column and box one
AddAllDifferent; each cage one AddAllDifferent and a linear sum; each given
a fixed value.  The reader knows only the pinned text form (`# game:
killer-sudoku`, letter rows, `a 12` sum lines, optional digit rows after a
blank line; puzzles after `== NAME` lines) and nothing of crossprolog.
A check asks for up to 2 solutions (see cp_sat_count).  Optional: needs
`pip install '.[bench]'`.
"""

from __future__ import annotations

import re

from ortools.sat.python import cp_model

from cp_sat_count import count_solutions

BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


class Killer:
    """A puzzle as plain data: size, cages as (cells, sum), givens as {(r, c): digit}."""

    def __init__(self, size: int, cages: list[tuple[list[tuple[int, int]], int]], givens: dict):
        self.size, self.cages, self.givens = size, cages, givens


def read(text: str) -> list[Killer]:
    """Every puzzle of `text`."""
    return [read_one(chunk) for chunk in re.split(r"(?m)^==.*$", text) if chunk.strip()]


def read_one(text: str) -> Killer:
    letters, sums, digits = [], {}, []
    for line in text.splitlines():
        words = line.split()
        if not words or line.startswith("#"):
            continue
        if len(words) == 2 and words[1].isdigit() and len(words[0]) == 1 and not digits:
            sums[words[0]] = int(words[1])
        elif sums:
            digits.append(words if len(words) > 1 else list(words[0]))
        else:
            letters.append(words if len(words) > 1 else list(words[0]))
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(letters):
        for c, letter in enumerate(row):
            if letter != ".":
                cells.setdefault(letter, []).append((r, c))
    givens = {(r, c): int(d) for r, row in enumerate(digits) for c, d in enumerate(row) if d.isdigit()}
    return Killer(len(letters), [(cells[letter], total) for letter, total in sums.items()], givens)


def count(puzzle: Killer, limit: int) -> int:
    """The number of solutions of `puzzle`, up to `limit`."""
    n, (height, width) = puzzle.size, BOXES[puzzle.size]
    model = cp_model.CpModel()
    grid = [[model.NewIntVar(1, n, "") for _ in range(n)] for _ in range(n)]
    for (r, c), digit in puzzle.givens.items():
        model.Add(grid[r][c] == digit)
    boxes = [[grid[top + i][left + j] for i in range(height) for j in range(width)]
             for top in range(0, n, height) for left in range(0, n, width)]
    for unit in grid + [list(column) for column in zip(*grid)] + boxes:
        model.AddAllDifferent(unit)
    for cells, total in puzzle.cages:
        digits = [grid[r][c] for r, c in cells]
        model.AddAllDifferent(digits)
        model.Add(sum(digits) == total)
    return count_solutions(model, limit)
