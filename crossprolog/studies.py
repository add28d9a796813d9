"""Random puzzles by the thousand, in chunks any worker can make: `stats` and `generate`.

A run's puzzles are drawn in chunks of a fixed size, each from a seed of its
own derived from the run's seed and the chunk's number (`chunk_seed`), never
from which worker makes it: the same seed gives the same puzzles and the same
table with one worker or a hundred, here (--jobs) or on a cluster (--cluster).
The first chunk's seed is the run's seed itself, so a run of one chunk draws
what the family's generator draws from that seed (`crossprolog.generate`).
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass
from typing import Any, Iterator

from .errors import CrossprologError
from .puzzle import search_many
from .registry import generate, named

STATS_CHUNK = 500         # puzzles per chunk for `stats`: searched with one crossing into Prolog
GENERATE_CHUNK = 100      # for `generate`
WELL_FORMED_CHUNK = 10    # for `generate --well-formed`, where each puzzle is many searches
CONFIDENCE_Z = 1.959964   # the normal quantile of a 95% interval


@dataclass(frozen=True)
class Chunk:
    """`count` puzzles of `family`, `rows` by `cols`, drawn from `seed` (with
    `well_formed`, each with exactly one solution); `options` the rules they follow
    (model keyword, value pairs); `solved` asks for their solutions too."""

    family: str
    rows: int
    cols: int
    count: int
    seed: int
    well_formed: bool = False
    options: tuple[tuple[str, Any], ...] = ()
    solved: bool = False


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk `index` of a run seeded `seed`: the run's own for the first,
    then one derived from both (the same on every machine and Python)."""
    if index == 0:
        return seed
    digest = hashlib.sha256(f"crossprolog chunk {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def chunks(family: str, rows: int, cols: int, n: int, seed: int | None, size: int,
           **fields: Any) -> list[Chunk]:
    """The chunks of `size` puzzles (the last may be smaller) that make `n` puzzles from
    `seed` (None: a seed drawn now, once for the whole run)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 63)
    return [Chunk(family, rows, cols, min(size, n - start), chunk_seed(seed, index), **fields)
            for index, start in enumerate(range(0, n, size))]


def made(chunk: Chunk) -> list[tuple[Any, Any]] | CrossprologError:
    """The chunk's puzzles, each with its solution when `solved` asks for it (else None);
    or the error that stopped the generator (rules it cannot make, or making.GaveUp),
    for the command to raise wherever the chunk was made, holding as `made` the
    puzzles made before it."""
    pairs: list[tuple[Any, Any]] = []
    try:
        pairs.extend(each_made(chunk))
        return pairs
    except CrossprologError as error:
        error.made = pairs
        return error


def each_made(chunk: Chunk) -> Iterator[tuple[Any, Any]]:
    """`made(chunk)`, one puzzle at a time as it is made."""
    puzzles = generate(chunk.family, chunk.rows, chunk.cols, chunk.count, chunk.seed,
                       well_formed=chunk.well_formed, **dict(chunk.options))
    return ((puzzle, puzzle.solve() if chunk.solved else None) for puzzle in puzzles)


def well_formed_count(chunk: Chunk) -> int | CrossprologError:
    """How many of the chunk's random puzzles (the family's plain generator) have
    exactly one solution; or the error that stopped it."""
    try:
        puzzles = list(named(chunk.family).generator(chunk.rows, chunk.cols, chunk.count, chunk.seed))
        return sum(found.count == 1 for found in search_many(puzzles, limit=2, keep=False))
    except CrossprologError as error:
        return error


def wilson(successes: int, trials: int, z: float = CONFIDENCE_Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion: `successes` of `trials`, at the
    confidence whose normal quantile is `z` (95% by default).  Unlike p ± z·se it stays
    within [0, 1] and is not empty at 0 or `trials` successes."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    spread = z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z / (1 + spread) * math.sqrt(share * (1 - share) / trials + spread / (4 * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def percent_decimals(trials: int) -> int:
    """Decimals a table of shares over `trials` puzzles shows: enough to tell apart
    the ends of the widest 95% interval (half-width ~98%/sqrt(trials))."""
    widest = 98 / math.sqrt(trials)
    return 0 if widest >= 1 else 1 if widest >= 0.1 else 2


def in_order(results: Iterator[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """(index, result) pairs that come in any order, given back in the order of the index."""
    waiting: dict[int, Any] = {}
    shown = 0
    for index, result in results:
        waiting[index] = result
        while shown in waiting:
            yield shown, waiting.pop(shown)
            shown += 1


__all__ = ["Chunk", "chunk_seed", "chunks", "each_made", "in_order", "made", "percent_decimals",
           "well_formed_count", "wilson"]
