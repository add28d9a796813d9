"""Which clue is mistyped: for a puzzle without solution, the fewest clues whose removal
leaves it a solution (a minimal correction), with what each should read.

A conflict (diagnosis.conflict) names clues that cannot hold together; a typo is
better found the other way round: a wrong given or product is the clue without
which the puzzle is solvable again.  Single clues are tried first, then pairs
(a row and a column product both mistyped), each candidate puzzle searched in
one crossing into Prolog for all of them (`search_many`).  What a clue should
read is found by retyping it as a slip of the pen would (`slips`: a given at
every digit, a total one edit away; the family says how, `Explainable.retyped`):
the retyping that leaves one solution.  Corrections are ranked by their edits;
two as slight as can be mean the typo cannot be told.  The solver's own
entries, when the puzzle marks them (`entries`), are tried before the printed
clues and blamed first.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Sequence

from .answers import Clue
from . import engine
from .engine import EncodingError
from .errors import InvalidValue, TimeLimitExceeded
from .reasoner import Deadline, minimal
from .puzzle import Puzzle, search_many

PAIRS = 4000  # the most pairs of clues tried, in one crossing
TELLING = 3  # the most corrections leaving several solutions worth naming (more tell nothing)
EACH = 0.02  # the least seconds each candidate puzzle's search is given
CHUNK = 16  # candidate puzzles searched in one crossing, the deadline looked at between
WRAP_UP = 0.025  # the part of the time kept for what follows the last search (readying a
                 # chunk's puzzles, ranking): measured up to 9 ms past 2 s without it


@dataclass(frozen=True)
class Typo:
    """Clues that, left out together, leave the puzzle a solution; `readings` what they
    should say; `unique` whether the puzzle has exactly one solution with them so
    (else the readings are those of the first solution found)."""

    clues: tuple[Clue, ...]
    unique: bool
    readings: tuple[str, ...] | None = None
    cut_short: bool = False  # the time ran out before every other correction was tried

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

    @property
    def unchanged(self) -> tuple[Clue, ...]:
        """Its clues that would read as they do: no correction of theirs."""
        return () if self.readings is None else tuple(
            clue for clue, read in zip(self.clues, self.readings) if clue.text == read)

    @property
    def edits(self) -> int:
        """How many characters of the clues' digits the correction changes (0 when the
        family cannot tell what they would read)."""
        return 0 if self.readings is None else sum(
            max(distance(digits(clue.text), digits(read)), clue.text != read)  # ON for OFF: one
            for clue, read in zip(self.clues, self.readings))

    def to_json(self) -> dict:
        return {"clues": [clue.to_json() for clue in self.clues], "unique": self.unique,
                "reading": self.reading, **({"cut_short": True} if self.cut_short else {})}


def typos(puzzle: Puzzle, *, entries: Sequence[Clue] = (), timeout: float | None = None,
          encoding: str | None = None, unsolvable: bool = False) -> tuple[Typo, ...]:
    """The smallest sets of clues (one, else two) which, retyped as a slip of the pen would
    have them, leave `puzzle` (known to have no solution) exactly one solution, as the
    puzzle was meant to have, fewest edits first (`cut_short` when the time ran out
    before every candidate was tried): `entries` alone first when there are some, then
    every clue, givens before lines; each set holds every clue that has no solution
    even alone.  When none leaves one solution,
    the single clues (else pairs) whose removal leaves several, if there are at most
    TELLING of them, from a search that decided every candidate.  Empty when none is
    found, or when the puzzle has a solution after all (no clue is to blame: searched
    first, unless the caller says it knows the puzzle is `unsolvable`, as the command
    line does once its own search found none; a clue's removal leaving a solution that
    meets it as it stands shows it too), or when a user's `encoding` finds none even
    with no clue; raises TimeLimitExceeded when `timeout` seconds pass before it is
    known.  No correction reads a clue as it stands."""
    deadline = Deadline(None if timeout is None else engine.seconds(timeout) * (1 - WRAP_UP))
    end = deadline.end
    first = None if end is None else (end - time.perf_counter()) / 4  # cut short, it proves nothing
    if not unsolvable and puzzle.search(limit=1, timeout=first, encoding=encoding, keep=False).count:
        return ()
    if encoding is not None:  # a user's that finds no solution even with no clue: none is to blame
        bare = puzzle.keeping([]).search(limit=1, timeout=first, encoding=encoding, keep=False)
        if bare.status == "complete" and not bare.count:
            return ()
    clues = list(puzzle.clues())
    pools = [list(entries)] if entries else []
    pools.append(list(entries) + [clue for clue in clues if clue not in entries])
    fallback: list[Typo] = []
    # Stating a huge puzzle, or folding its long lines, may take minutes: within the deadline
    statement = puzzle.statement(timeout=deadline.left()) if hasattr(puzzle, "statement") else None
    alone = impossible_alone(puzzle, pools[-1], deadline, encoding, statement)
    values = statement.digits if statement is not None else tuple(range(1, 10))  # a given's
    if len(alone) > 2:
        return ()
    core = set(clues)  # every correction holds a clue of it: narrowed for pairs only (singles are few)
    for pool in pools:
        for size in (1, 2):
            if size == 2 and core == set(clues):
                core = set(alone) or set(conflict_core(puzzle, pools[-1], end, encoding) or clues)
            candidates = sorted((group for group in combinations(pool, size)
                                 if set(alone) <= set(group) and core & set(group)),
                                key=lambda group: [clue.kind != "given" for clue in group])[:PAIRS]
            # givens first: of a wrong digit or mark and a total as slightly off, the digit is named first
            # a typo in each of two clues leaves each alone unsolvable when dropped: the pairs
            # of such clues first, then those holding a clue whose removal alone left solutions
            loose = {typo.clues[0] for typo in fallback if len(typo.clues) == 1}
            found, complete = [], True
            for tier in ([g for g in candidates if not loose & set(g)], [g for g in candidates if loose & set(g)]):
                try:
                    more, done = solvable_without(puzzle, clues, tier, end, encoding, values)
                except EncodingError:
                    more, done = [], False
                if any(len(typo.unchanged) == len(typo.clues) for typo in more):
                    return ()  # a solution meeting every clue as it stands: the puzzle has one after all
                found, complete = found + [typo for typo in more if not typo.unchanged], complete and done
                unique = [typo for typo in found if typo.unique and typo.plausible]
                if unique:  # a search cut short names the best it found
                    return ranked(unique, cut_short=not done)
                if not done:
                    break
            if not complete:  # what a partial search left with several solutions tells nothing
                if fallback and len(fallback) <= TELLING:
                    return tuple(fallback)
                raise TimeLimitExceeded(timeout or 0)
            fallback = fallback or found
    return tuple(fallback) if len(fallback) <= TELLING else ()


def impossible_alone(puzzle: Puzzle, clues: list[Clue], deadline: Deadline,
                     encoding: str | None, statement=None) -> list[Clue]:
    """The clues that have no solution even alone (a product with a prime factor above 7,
    a cage no digits make): every correction drops them.  Read from the family's
    statement (a cage or line without fillings, folded without counting them: a 30-cell
    product line in a millisecond; TimeLimitExceeded once `deadline` passes), else asked
    of Prolog clue by clue."""
    if statement is not None:
        digits = [set(statement.digits) for _ in statement.places]
        return [table.clue for table in statement.tables
                if table.clue in clues and table.fitting_digits(digits, deadline) is None]
    end = deadline.end
    left = None if end is None else end - time.perf_counter()
    each = None if left is None else at_least_each(left / 4, len(clues), left)
    found = search_many([puzzle.keeping([clue]) for clue in clues], limit=1, timeout=each, encoding=encoding)
    return [clue for clue, search in zip(clues, found) if search.status == "complete" and not search.solutions]


def conflict_core(puzzle: Puzzle, clues: list[Clue], end: float | None,
                  encoding: str | None) -> list[Clue] | None:
    """A minimal set of `clues` with no solution (QuickXplain, reasoner.minimal), within a
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
                     values: Sequence[int]) -> tuple[list[Typo], bool]:
    """The candidates whose removal leaves `puzzle` a solution, each with its corrections,
    searched a chunk at a time (one crossing each) until `end`, and whether every
    candidate was decided in time.  Every candidate is searched, not only up to the first
    correction: another as plausible means the typo cannot be told (`ranked`).  A
    candidate whose search runs out of its share of the time is passed over, not the
    rest: a slow proof that one pair leaves no solution must not hide the pair that does."""
    found: list[Typo] = []
    complete, alone = True, {}  # each clue's retypings with a solution alone
    for start in range(0, len(candidates), CHUNK):
        left = None if end is None else end - time.perf_counter()
        if left is not None and left <= 0:
            return found, False
        chunk = candidates[start:start + CHUNK]
        reduced = [puzzle.keeping([clue for clue in clues if clue not in dropped]) for dropped in chunk]
        fair = None if left is None else left * len(chunk) / (len(candidates) - start)
        each = None if left is None else at_least_each(fair, len(chunk), left)
        searches = search_many(reduced, limit=2, timeout=each, encoding=encoding)
        solvable = [(dropped, less, search) for dropped, less, search in zip(chunk, reduced, searches)
                    if search.solutions]
        found += corrections(puzzle, clues, solvable, end, encoding, values, alone)
        if slightest(found) > 1:
            return found, True  # two corrections as slight as can be: which is meant cannot be told
        complete = complete and not any(search.status == "timeout" and not search.solutions
                                        for search in searches)
    return found, complete and (end is None or time.perf_counter() < end)  # corrections may have run out


def corrections(puzzle: Puzzle, clues: list[Clue], solvable: list, end: float | None,
                encoding: str | None, values: Sequence[int], alone: dict) -> list[Typo]:
    """Each solvable removal (dropped clues, the puzzle without them, its search) as a Typo:
    unique when the removal leaves one solution, or when a retyping of its clues (a given at every value, a product or total one
    edit off: `slips`) leaves one solution, the fewest edits kept; else read off the
    first solution found.  Retypings are tried clue by clue (then pair by pair) until
    two as slight as can be are found."""
    # Left one solution without its clues, a removal needs no retyping: that solution's
    # reading is the one correction (any other leaves the puzzle none)
    found = {dropped: Typo(dropped, search.count == 1 and search.status == "complete",
                           reading(puzzle, dropped, search.solutions[0]))
             for dropped, _, search in solvable}
    tried = [(dropped, corrected(less, dropped, search.solutions[0]), found[dropped].readings)
             for dropped, less, search in solvable if not found[dropped].unique]
    for dropped, _, _ in solvable:
        if len(dropped) == 1 and not found[dropped].unique:
            if slightest(found.values()) > 1:
                break
            tried += [(dropped, fixed, None) for _, fixed in retypings(puzzle, dropped[0], slips(puzzle, dropped[0], values))]
        each = share(end, 1 / 2, len(tried))
        checks = [] if each == 0 else search_many([fixed for _, fixed, _ in tried], limit=2, timeout=each,
                                                  encoding=encoding)
        for (dropped, fixed, readings), check in zip(tried, checks):
            if check.count == 1 and check.status != "timeout":
                typo = Typo(dropped, True, readings or (said(fixed, dropped[0]),))
                if better(typo, found[dropped]):
                    found[dropped] = typo
        tried = []
    pairs = [dropped for dropped, _, _ in solvable if len(dropped) == 2 and not found[dropped].unique]
    for typo in pair_corrections(puzzle, clues, pairs, end, encoding, values, alone):
        if better(typo, found[typo.clues]):
            found[typo.clues] = typo
    return list(found.values())


def slightest(typos) -> int:
    """How many of `typos` leave one solution with a single edit in each of their clues."""
    return len({typo.clues for typo in typos if typo.unique and typo.edits == len(typo.clues)})


def better(typo: Typo, than: Typo | None) -> bool:
    """Whether `typo` is the likelier correction of the same clues: one leaving one
    solution over one leaving several, then the fewer edits."""
    return than is None or (typo.unique, -typo.edits) > (than.unique, -than.edits)


def pair_corrections(puzzle: Puzzle, clues: list[Clue], pairs: list[tuple[Clue, ...]], end: float | None,
                     encoding: str | None, values: Sequence[int], alone: dict) -> list[Typo]:
    """The retypings of two clues together that leave one solution, pair by pair until
    two as slight as can be are found.  A clue's retypings are kept when they have a
    solution alone (remembered in `alone`), then with the pair's other clue left out:
    only those are combined."""
    found: list[Typo] = []
    for pair in pairs:
        if share(end, 1, 1) == 0 or slightest(found) > 1:
            break
        for clue in pair:
            if clue not in alone:
                alone[clue] = fitting_alone(puzzle, clue, values, end, encoding)
        probes = [(k, option, fixed) for k in (0, 1)
                  for option, fixed in retypings(puzzle.keeping([c for c in clues if c != pair[1 - k]]),
                                                 pair[k], alone[pair[k]])]
        each = share(end, 1 / 4, len(probes))
        if each == 0:
            break
        searches = search_many([fixed for _, _, fixed in probes], limit=1, timeout=each, encoding=encoding)
        fitting = [[option for (k, option, _), search in zip(probes, searches) if k == side and search.solutions]
                   for side in (0, 1)]
        both = [puzzle.retyped(pair[0], first).retyped(pair[1], second)
                for first in fitting[0] for second in fitting[1]]
        each = share(end, 1 / 2, len(both))
        if each == 0:
            break
        checks = search_many(both, limit=2, timeout=each, encoding=encoding)
        found += [Typo(pair, True, (said(fixed, pair[0]), said(fixed, pair[1])))
                  for fixed, check in zip(both, checks) if check.count == 1 and check.status != "timeout"]
    return found


def fitting_alone(puzzle: Puzzle, clue: Clue, values: Sequence[int], end: float | None,
                  encoding: str | None) -> list[tuple[int, ...]]:
    """The numbers `clue` may be retyped to (`retypings`) that have a solution with no
    other clue."""
    options = retypings(puzzle.keeping([clue]), clue, slips(puzzle, clue, values))
    each = share(end, 1 / 4, len(options))
    if not options or each == 0:
        return []
    searches = search_many([fixed for _, fixed in options], limit=1, timeout=each, encoding=encoding)
    return [option for (option, _), search in zip(options, searches) if search.solutions]


def at_least_each(seconds: float, searches: int, left: float) -> float:
    """Each of `searches` searches' time: their share of `seconds`, but EACH at least,
    so that each may decide something, as long as together they take no more than
    `left`: the deadline is not overrun to give it."""
    searches = max(1, searches)
    return min(max(EACH, seconds / searches), left / searches)


def share(end: float | None, part: float, searches: int) -> float | None:
    """Each of `searches` searches' time: `part` of what is left before `end`, shared; 0
    when that is too short for a search to decide anything."""
    if end is None:
        return None
    each = (end - time.perf_counter()) * part / max(1, searches)
    return each if each >= EACH / 10 else 0


def said(puzzle: Puzzle, clue: Clue) -> str:
    """How `clue` reads in `puzzle`."""
    return next(c.text for c in puzzle.clues() if c == clue)


def slips(puzzle: Puzzle, clue: Clue, values: Sequence[int]) -> list[tuple[int, ...]]:
    """What `clue` of `puzzle` may have been meant to say, as a slip of the pen would have
    it (its numbers, in order): a given at every value, a number of a line, cage or run
    one edit away (a digit changed, left out or added, a sign)."""
    if clue.kind == "given":
        return [(value,) for value in values]
    stated = puzzle.stated(clue)
    return [stated[:k] + (near,) + stated[k + 1:] for k, number in enumerate(stated) for near in one_edit(number)]


def retypings(puzzle: Puzzle, clue: Clue, options: Sequence[tuple[int, ...]]) -> list[tuple[tuple[int, ...], Puzzle]]:
    """`puzzle` with `clue` saying each of `options` instead, those the family can state
    (`Explainable.retyped`: none for a family that cannot retype the clue)."""
    found = []
    for option in options:
        try:
            fixed = getattr(puzzle, "retyped", lambda *_: None)(clue, option)
        except InvalidValue:  # what the family cannot state (a negative product or count)
            continue
        if fixed is not None:
            found.append((option, fixed))
    return found


def one_edit(number: int) -> list[int]:
    """The numbers whose decimal text is one edit from `number`'s: a character changed,
    left out or added (a digit, or a leading minus sign)."""
    text = str(number)
    spelled = {text[:k] + ch + text[k + 1:] for k in range(len(text)) for ch in "0123456789-"}
    spelled |= {text[:k] + text[k + 1:] for k in range(len(text))}
    spelled |= {text[:k] + ch + text[k:] for k in range(len(text) + 1) for ch in "0123456789-"}
    return sorted({int(t) for t in spelled if re.fullmatch(r"-?(0|[1-9][0-9]*)", t) and t != "-0"} - {number})


def ranked(found: list[Typo], cut_short: bool = False) -> tuple[Typo, ...]:
    """The corrections, fewest edits first (a correction as plausible as the first means
    the typo cannot be told from it), marked `cut_short` when not all were tried."""
    return tuple(replace(typo, cut_short=cut_short) for typo in sorted(found, key=lambda typo: typo.edits))


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
