"""Every encoding of a family on the same puzzle: time, inferences, solutions, agreement."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Sequence

from . import engine
from .puzzle import Puzzle, Search


@dataclass
class Run:
    """One encoding's search on one puzzle."""

    encoding: str
    status: str          # complete, limit or timeout
    seconds: float       # wall time of the search in Prolog
    inferences: int      # Prolog inferences: nearly noise-free, unlike time
    solutions: int       # how many it saw (at most the limit)
    agrees: bool | None  # same solutions as the first encoding that finished; None if undecided


def compare(puzzle: Puzzle, encodings: Sequence[str] | None = None, *, limit: int = 2,
            timeout: float | None = None) -> list[Run]:
    """Run `encodings` (default: all of the family's) on `puzzle`, each up to `limit` solutions.

    With the default limit of 2 each run finds a solution and decides
    uniqueness.  Runs agree when they found the same set of solutions; a run
    stopped by the limit is compared on its count only, a timed-out one not at all.
    """
    family = puzzle.record.prolog
    names = [engine.checked_encoding(family, name) for name in (encodings or engine.encodings(family))]
    found = [puzzle.search(limit=limit, timeout=timeout, encoding=name) for name in names]
    reference = next((f for f in found if f.status != "timeout"), None)
    return [Run(search.encoding, search.status, search.seconds, search.inferences,
                len(search.solutions), _agrees(search, reference)) for search in found]


def _agrees(search: Search, reference: Search | None) -> bool | None:
    if reference is None or search.status == "timeout":
        return None
    if "limit" in (search.status, reference.status):
        return len(search.solutions) == len(reference.solutions)
    return sorted(map(repr, (s.values for s in search.solutions))) == \
        sorted(map(repr, (s.values for s in reference.solutions)))


def table(rows: list[tuple[str, Run]]) -> str:
    """The runs as an aligned text table, one line per (path, encoding)."""
    header = ("puzzle", "encoding", "status", "seconds", "inferences", "solutions", "agrees")
    lines = [header] + [(path, r.encoding, r.status, f"{r.seconds:.4f}", f"{r.inferences:,}",
                         str(r.solutions), {True: "yes", False: "NO", None: "-"}[r.agrees])
                        for path, r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(line, widths))).rstrip()
                     for line in lines)


def as_json(path: str, run: Run) -> dict:
    return {"path": path, **asdict(run)}
