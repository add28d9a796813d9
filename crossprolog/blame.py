"""Which clue is mistyped: for a puzzle without solution, the fewest clues whose removal
leaves it a solution (a minimal correction), with what each should read.

A conflict (explain.conflict) names clues that cannot hold together; a typo is
better found the other way round: a wrong given or product is the clue without
which the puzzle is solvable again.  Single clues are tried first, then pairs
(a row and a column product both mistyped), each candidate puzzle searched in
one crossing into Prolog for all of them (`search_many`).  The solver's own
entries, when the puzzle marks them (`entries`), are tried before the printed
clues and blamed first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from .answers import Clue
from .engine import EncodingError
from .errors import TimeLimitExceeded
from .explain import minimal
from .puzzle import Puzzle, search_many

PAIRS = 4000  # the most pairs of clues tried, in one crossing
TELLING = 3  # the most corrections leaving several solutions worth naming (more tell nothing)
EACH = 0.02
CHUNK = 16  # candidate puzzles searched in one crossing, the deadline looked at between  # the least seconds each candidate puzzle's search is given


@dataclass(frozen=True)
class Typo:
    """Clues that, left out together, leave the puzzle a solution; `readings` what they say
    in it; `unique` whether the puzzle has exactly one solution with them corrected so
    (givens) or left out (lines, cages: no reading is certain otherwise)."""

    clues: tuple[Clue, ...]
    unique: bool
    readings: tuple[str, ...] | None = None

    @property
    def reading(self) -> str | None:
        return None if self.readings is None else ", ".join(self.readings)

    @property
    def plausible(self) -> bool:
        """Whether each clue reads as a typo of what the solution has: its digits at most two
        edits apart (a given's digit, a product's digit or two); True when the family
        cannot tell what they would read."""
        return self.readings is None or all(
            distance(digits(clue.text), digits(read)) <= 2 for clue, read in zip(self.clues, self.readings))

    def to_json(self) -> dict:
        return {"clues": [clue.to_json() for clue in self.clues], "unique": self.unique,
                "reading": self.reading}


def typos(puzzle: Puzzle, *, entries: Sequence[Clue] = (), timeout: float | None = None,
          encoding: str | None = None) -> tuple[Typo, ...]:
    """The smallest sets of clues (one, else two) whose removal leaves `puzzle` (known to
    have no solution) exactly one solution, as the puzzle was meant to have: `entries`
    alone first when there are some, then every clue; each set holds every clue that
    has no solution even alone.  When none leaves one solution,
    the single clues (else pairs) whose removal leaves several, if there are at most
    TELLING of them, from a search that decided every candidate.  Empty when none is
    found; raises TimeLimitExceeded when `timeout` seconds pass before it is known."""
    end = None if timeout is None else time.perf_counter() + timeout
    clues = list(puzzle.clues())
    pools = [list(entries)] if entries else []
    pools.append(list(entries) + [clue for clue in clues if clue not in entries])
    fallback: list[Typo] = []
    alone = impossible_alone(puzzle, pools[-1], end, encoding)
    digits = digits_of(puzzle)
    if len(alone) > 2:
        return ()
    core = set(clues)  # every correction holds a clue of it: narrowed for pairs only (singles are few)
    for pool in pools:
        for size in (1, 2):
            if size == 2 and core == set(clues):
                core = set(alone) or set(conflict_core(puzzle, pools[-1], end, encoding) or clues)
            candidates = [group for group in combinations(pool, size)
                          if set(alone) <= set(group) and core & set(group)][:PAIRS]
            # a typo in each of two clues leaves each alone unsolvable when dropped: the pairs
            # of such clues first, then those holding a clue whose removal alone left solutions
            loose = {typo.clues[0] for typo in fallback if len(typo.clues) == 1}
            found, complete = [], True
            for tier in ([g for g in candidates if not loose & set(g)], [g for g in candidates if loose & set(g)]):
                try:
                    more, done = solvable_without(puzzle, clues, tier, end, encoding, digits)
                except EncodingError:
                    more, done = [], False
                found, complete = found + more, complete and done
                unique = [typo for typo in found if typo.unique and typo.plausible]
                if unique:
                    return tuple(unique)
                if not done:
                    break
            if not complete:  # what a partial search left with several solutions tells nothing
                if fallback and len(fallback) <= TELLING:
                    return tuple(fallback)
                raise TimeLimitExceeded(timeout or 0)
            fallback = fallback or found
    return tuple(fallback) if len(fallback) <= TELLING else ()


def impossible_alone(puzzle: Puzzle, clues: list[Clue], end: float | None,
                     encoding: str | None) -> list[Clue]:
    """The clues that have no solution even alone (a product with a prime factor above 7,
    a cage no digits make): every correction drops them.  Read from the family's
    statement (a cage or line without fillings), else asked of Prolog clue by clue."""
    statement = puzzle.statement() if hasattr(puzzle, "statement") else None
    if statement is not None:
        digits = [set(statement.digits) for _ in statement.places]
        return [table.clue for table in statement.tables
                if table.clue in clues and table.fitting(digits)[1] == 0]
    left = None if end is None else end - time.perf_counter()
    each = None if left is None else max(EACH, left / 4 / max(1, len(clues)))
    found = search_many([puzzle.keeping([clue]) for clue in clues], limit=1, timeout=each, encoding=encoding)
    return [clue for clue, search in zip(clues, found) if search.status == "complete" and not search.solutions]


def conflict_core(puzzle: Puzzle, clues: list[Clue], end: float | None,
                  encoding: str | None) -> list[Clue] | None:
    """A minimal set of `clues` with no solution (QuickXplain, explain.minimal), within a
    quarter of the time left: every correction holds one of them, so only the pairs
    holding one are searched.  None when a search runs out of its time first."""
    stop = None if end is None else time.perf_counter() + (end - time.perf_counter()) / 4
    unknown = []

    def unsolvable(kept: list[Clue]) -> bool:
        left = None if stop is None else stop - time.perf_counter()
        if unknown or (left is not None and left <= 0):
            unknown.append(True)
            return True
        (search,) = search_many([puzzle.keeping(kept)], limit=1, timeout=left, encoding=encoding)
        if search.status == "timeout" and not search.solutions:
            unknown.append(True)
        return not search.solutions

    try:
        core = minimal(clues, unsolvable)
    except EncodingError:
        return None
    return None if unknown else core


def solvable_without(puzzle: Puzzle, clues: list[Clue], candidates: list[tuple[Clue, ...]],
                     end: float | None, encoding: str | None,
                     digits: Sequence[int]) -> tuple[list[Typo], bool]:
    """The candidates whose removal leaves `puzzle` a solution, searched a chunk at a time
    (one crossing each) until `end`, and whether every candidate was decided in time.
    A candidate whose search runs out of its share of the time is passed over, not the
    rest: a slow proof that one pair leaves no solution must not hide the pair that does."""
    found: list[Typo] = []
    complete = True
    for start in range(0, len(candidates), CHUNK):
        left = None if end is None else end - time.perf_counter()
        if left is not None and left <= 0:
            return found, False
        chunk = candidates[start:start + CHUNK]
        reduced = [puzzle.keeping([clue for clue in clues if clue not in dropped]) for dropped in chunk]
        each = None if left is None else max(EACH, left / (len(candidates) - start))
        searches = search_many(reduced, limit=2, timeout=each, encoding=encoding)
        solvable = [(dropped, less, search) for dropped, less, search in zip(chunk, reduced, searches)
                    if search.solutions]
        found += corrections(puzzle, solvable, end, encoding, digits)
        if any(typo.unique and typo.plausible for typo in found):
            return found, True  # the smallest corrections are as likely: the first found is named
        complete = complete and not any(search.status == "timeout" and not search.solutions
                                        for search in searches)
    return found, complete


def corrections(puzzle: Puzzle, solvable: list, end: float | None, encoding: str | None,
                digits: Sequence[int]) -> list[Typo]:
    """Each solvable removal (dropped clues, the puzzle without them, its search) as a Typo:
    a lone given tried at every digit (the first leaving one solution is its reading),
    other clues read off the first solution found."""
    tried = []  # (dropped, the puzzle corrected, what the dropped clues would read)
    for dropped, less, search in solvable:
        if len(dropped) == 1 and dropped[0].kind == "given":
            cell = dropped[0].cell
            tried += [(dropped, less.placing({cell: digit}), (puzzle.given_name(cell, digit),))
                      for digit in digits]
        else:
            solution = search.solutions[0]
            tried.append((dropped, corrected(less, dropped, solution), reading(puzzle, dropped, solution)))
    each = None if end is None or not tried else max(EACH, (end - time.perf_counter()) / len(tried))
    checks = search_many([fixed for _, fixed, _ in tried], limit=2, timeout=each, encoding=encoding)
    found: dict[tuple[Clue, ...], Typo] = {}
    for (dropped, _, readings), check in zip(tried, checks):
        unique = check.count == 1 and check.status != "timeout"
        if unique and not found.get(dropped, Typo((), False)).unique:
            found[dropped] = Typo(dropped, True, readings)
        elif check.solutions and dropped not in found:
            found[dropped] = Typo(dropped, False, readings)
    return list(found.values())


def digits_of(puzzle: Puzzle) -> tuple[int, ...]:
    """The digits a given may be: the family's statement's, else 1-9."""
    statement = puzzle.statement() if hasattr(puzzle, "statement") else None
    return statement.digits if statement is not None else tuple(range(1, 10))


def corrected(less: Puzzle, dropped: Sequence[Clue], solution) -> Puzzle:
    """The puzzle `less` (without the `dropped` clues) with the dropped givens put back as
    `solution` has them: what the puzzle would be had they been typed right."""
    grid = solution.to_json()
    givens = {clue.cell: grid[clue.cell[0]][clue.cell[1]] for clue in dropped if clue.kind == "given"}
    return less.placing(givens) if givens else less


def reading(puzzle: Puzzle, dropped: Sequence[Clue], solution) -> tuple[str, ...] | None:
    """What the dropped clues say in `solution`, as the family writes them:
    `row 4 (40320)`, `the 6 at row 3, column 5`, when it can tell."""
    said = [puzzle.clue_reading(clue, solution) for clue in dropped]
    return None if None in said else tuple(said)


def digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit() or ch == "-")


def distance(a: str, b: str) -> int:
    """The edit distance of two texts (insertions, deletions, changes of a character)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]
