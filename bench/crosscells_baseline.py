"""A plain-Python CrossCells solver: the baseline the CLP(FD) encodings must beat.

Cell by cell, in reading order, try OFF then ON; as soon as a cell completes a
constrained line (it is the line's last cell in reading order), check that
line, and back up when it fails.  No propagation: a line is only checked
once all its cells are set.
"""

from __future__ import annotations

from collections import defaultdict

from crossprolog.crosscells import CrossCells, Reading


def solve(puzzle: CrossCells) -> list[list[int]] | None:
    """One 0/1 list per row (1: on), or None when the puzzle has no solution."""
    completed_by = defaultdict(list)
    for reading in puzzle.readings():
        completed_by[max(reading.cells)].append(reading)
    ons = [0] * len(puzzle.cells)
    if not _search(puzzle, ons, 0, completed_by):
        return None
    return [[ons[i] for i in row.cells] for row in puzzle.rows]


def _search(puzzle: CrossCells, ons: list[int], i: int,
            completed_by: dict[int, list[Reading]]) -> bool:
    """Whether cells i.. can be set so that every line holds; sets `ons` if so."""
    if i == len(ons):
        return True
    for on in (0, 1):
        ons[i] = on
        if (all(reading.holds(puzzle.cells, ons, puzzle.first_cell, puzzle.precedence)
                for reading in completed_by[i])
                and _search(puzzle, ons, i + 1, completed_by)):
            return True
    return False
