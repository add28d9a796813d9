"""Grids cut into connected regions: at random (KenKen's cages, Number Sums' regions), and
the places a region reaches."""

from __future__ import annotations

import random
from typing import Callable, Iterable, Mapping, Sequence

Place = tuple[int, int]  # (row, column), 0-based


def random_partition(height: int, width: int, sizes: Mapping[int, int],
                     rng: random.Random) -> list[list[Place]]:
    """The grid cut into connected regions: each grows from the first free cell in
    reading order to a size drawn from `sizes` (size: weight), one random free
    neighbour at a time."""
    free = {(r, c) for r in range(height) for c in range(width)}
    regions = []
    while free:
        region = [min(free)]
        free.discard(region[0])
        [wanted] = rng.choices(list(sizes), weights=list(sizes.values()))
        while len(region) < wanted and (room := sorted(neighbours(region, free))):
            cell = rng.choice(room)
            region.append(cell)
            free.discard(cell)
        regions.append(region)
    return regions


def neighbours(cells: Sequence[Place], free: set[Place]) -> set[Place]:
    """The cells of `free` next to one of `cells`, across a side."""
    return {(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if (r + dr, c + dc) in free}


def reached(start: Place, step: Callable[[Place], Iterable[Place]]) -> set[Place]:
    """The places reached from `start` by taking `step` (a place's next places) again
    and again, `start` included."""
    found, frontier = {start}, [start]
    while frontier:
        frontier = list({place for here in frontier for place in step(here)} - found)
        found.update(frontier)
    return found
