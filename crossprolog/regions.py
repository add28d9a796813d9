"""Grids cut into connected regions: at random (KenKen's cages, Number Sums' regions), and
the places a region reaches."""

from __future__ import annotations

import heapq
import random
from typing import Callable, Collection, Iterable, Mapping, Sequence

Place = tuple[int, int]  # (row, column), 0-based


def random_partition(height: int, width: int, sizes: Mapping[int, int],
                     rng: random.Random) -> list[list[Place]]:
    """The grid cut into connected regions: each grows from the first free cell in
    reading order to a size drawn from `sizes` (size: weight), one random free
    neighbour at a time."""
    order = [(r, c) for r in range(height) for c in range(width)]
    free = set(order)
    regions = []
    first = 0  # the first free cell is at or past order[first]
    while free:
        while order[first] not in free:
            first += 1
        region = [order[first]]
        free.discard(region[0])
        [wanted] = rng.choices(list(sizes), weights=list(sizes.values()))
        while len(region) < wanted and (room := sorted(neighbours(region, free))):
            cell = rng.choice(room)
            region.append(cell)
            free.discard(cell)
        regions.append(region)
    return regions


def joined(regions: Sequence[Sequence[Place]], most: int) -> list[list[Place]]:
    """`regions` (connected, apart, covering a grid) joined until there are at most
    `most`: the smallest (the first of `regions` among equals) into its smallest
    neighbour, again and again; each still connected, in the reading order of their
    first cells.  As many as `most` or fewer are given back as they are."""
    if len(regions) <= most:
        return [list(region) for region in regions]
    members = {k: list(region) for k, region in enumerate(regions)}
    owner = {place: k for k, region in members.items() for place in region}
    queue = [(len(region), k) for k, region in members.items()]
    heapq.heapify(queue)
    while len(members) > most and queue:
        size, k = heapq.heappop(queue)
        if len(members.get(k, ())) != size:
            continue  # joined since, or grown: its entry is stale
        around = {owner[place] for place in neighbours(members[k], owner.keys())} - {k}
        if not around:  # alone in its part of the grid: nothing to join it to
            continue
        into = min(around, key=lambda j: (len(members[j]), j))
        for place in members[k]:
            owner[place] = into
        members[into] += members.pop(k)
        heapq.heappush(queue, (len(members[into]), into))
    return sorted((sorted(region) for region in members.values()), key=lambda region: region[0])


def neighbours(cells: Sequence[Place], free: Collection[Place]) -> set[Place]:
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
