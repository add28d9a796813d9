"""Making well-formed puzzles: exactly one solution, and no clue to spare.

One procedure serves every family.  A family hands over a *full* puzzle (its
intended solution pinned down by clues it could show: every given digit,
every line's total...), the clues that are always shown (a CrossProduct's
products), and the clues to show at first.  Then:

1. reveal: while a second solution exists, show hidden clues that speak of
   cells where the two differ, a quarter of them and at least one (or ask the
   family for a new clue that tells them apart, as a CrossCells group), until
   the solution is unique.  With few clues shown, the second solution differs
   in dozens of cells: showing one of them a search would take dozens of
   searches (each nearly a solve), a quarter a few, and the hide drops what
   is spare;
2. hide: try each shown clue in random order and hide it when the solution
   stays unique, so that hiding any clue left would let another in.

The result is minimal, not minimum: another order may need fewer clues.
"""

from __future__ import annotations

import random
import time
from contextlib import contextmanager
from typing import Callable, Collection, Iterable, Iterator

from . import searches
from .answers import Cell, Clue
from .errors import CrossprologError, TimeLimitExceeded, UsageError
from .puzzle import Puzzle

def checked_size(title: str, rows: int, cols: int, smallest: int, largest: int, why: str = "") -> None:
    """UsageError unless a generated `title` puzzle of `rows`×`cols` is within
    `smallest`×`smallest` to `largest`×`largest` (`why`, said after the bounds)."""
    if not (smallest <= rows <= largest and smallest <= cols <= largest):
        raise UsageError(f"a generated {title} is {smallest}x{smallest} to {largest}x{largest}{why}, "
                         f"not {rows}x{cols}")


TELLING_PER_REVEAL = 4  # a reveal shows one clue for every 4 that tell the two solutions apart
# The most inferences one question of a session may take: past them the puzzle is given up
# and the family draws another.  A bound in inferences, not seconds, makes the same puzzles
# on every machine.  The hardest question of the 12x12 Kakuros of seeds 1-5 took 29 M
# inferences (1.8 s); one of seed 6 took minutes.
QUESTION_INFERENCES = 60_000_000


class Undecided(Exception):
    """A question about a puzzle took more than QUESTION_INFERENCES (being made) or
    its time (`spare_clues`)."""


# A family's way to tell two solutions apart with a clue the full puzzle lacks:
# (full puzzle, intended solution, other solution) -> (full puzzle with it, the clue) or None.
NewClue = Callable[[Puzzle, list, list], "tuple[Puzzle, Clue] | None"]


# Draws in a row that a maker gives up (None) before it gives up the puzzle itself: a
# bound in draws, not seconds, as QUESTION_INFERENCES is.  One 10x10 Sumplete in 22
# is unique by its totals, one 11x11 in thousands.
DRAWS = 200


class GaveUp(CrossprologError):
    """DRAWS draws in a row made no puzzle: the size asked for makes them too seldom."""

    exit_code = 1  # as for a puzzle not well-formed


class Tally:
    """The draws given up so far in this process, for a progress line to show."""

    given_up = 0


def made_puzzles(draw: Callable[[], Puzzle | None], n: int, what: str) -> Iterator[Puzzle]:
    """`n` puzzles `draw` makes, drawing again where it gives None (a puzzle given up);
    GaveUp after DRAWS draws in a row give none, naming `what` they were ("12x12
    Sumplete")."""
    made = failed = 0
    while made < n:
        if (puzzle := draw()) is not None:
            made, failed = made + 1, 0
            yield puzzle
            continue
        failed += 1
        Tally.given_up += 1
        if failed == DRAWS:
            raise GaveUp(f"{DRAWS} draws in a row made no well-formed {what}; "
                         "a smaller size makes them more often")


def well_formed(full: Puzzle, intended: list, rng: random.Random, *,
                shown: Collection[Clue] = (), new_clue: NewClue | None = None) -> Puzzle | None:
    """`full` keeping the clues a maker may not hide (`Puzzle.hideable`) and a minimal
    set of the others under which `intended` is its only solution; None when its
    clues cannot tell every other solution apart, or a question about them takes
    more than QUESTION_INFERENCES (then the family draws another puzzle).

    The reveal asks whether the shown clues leave another solution, the hide
    the same of each shown clue's rest; one found earlier that meets them
    answers without a search (`Witnesses`), and for a given the hide's search
    looks only for a solution that breaks it.  Givens stay posted between
    questions (`Givens.push`): the reveal pushes the ones it shows, and the
    hide pushes them by halves (`hide`)."""
    fixed, shown = fixed_clues(full), set(shown)
    try:
        return _revealed_and_hidden(full, intended, rng, fixed, shown, new_clue, checker(full, fixed))
    except Undecided:
        return None


def spare_clues(puzzle: Puzzle, intended: list | None = None, timeout: float | None = None,
                encoding: str | None = None) -> list[Clue]:
    """The clues of the well-formed `puzzle` that a maker could hide each alone
    (`Puzzle.hideable`) and leave its solution the only one, in the order the layout
    draws them: none for a minimal puzzle.  `intended` is that solution as JSON has
    it, found here when not given: UsageError for a puzzle with none or several.
    TimeLimitExceeded past `timeout` seconds.  One search a clue at most (with
    `encoding`, the family's default when None), for a solution that breaks it and
    meets the rest; one found before answers for the clues it meets (`Witnesses`)."""
    deadline = time.monotonic() + timeout if timeout else None
    if intended is None:
        found = puzzle.search(limit=2, timeout=timeout, encoding=encoding)
        if found.status == "timeout":
            raise TimeLimitExceeded(timeout or 0)
        if found.count != 1:
            raise UsageError(f"the puzzle has {'no solution' if not found.count else 'more than one solution'}: "
                             "a clue is to spare in a well-formed puzzle only")
        intended = found.solutions[0].to_json()
    fixed = fixed_clues(puzzle)
    shown = set(puzzle.clues()) - fixed
    spare = []
    try:
        with checker(puzzle, fixed, deadline, inferences=0, encoding=encoding) as asking:
            witnesses = Witnesses(puzzle, intended, fixed)
            for clue in (clue for clue in puzzle.clues() if clue in shown):
                rest = shown - {clue}
                if witnesses.meeting(rest) is not None:
                    continue
                cells = witnesses.cells(clue)
                if not witnesses.added(asking.others(rest, intended, apart=cells if len(cells) == 1 else ())):
                    spare.append(clue)
    except Undecided:
        raise TimeLimitExceeded(timeout or 0) from None
    return spare


def fixed_clues(puzzle: Puzzle) -> set[Clue]:
    """The clues of `puzzle` a maker always shows: those not `hideable`."""
    return {clue for clue in puzzle.clues() if not puzzle.hideable(clue)}


def checker(full: Puzzle, fixed: set[Clue], deadline: float | None = None,
            inferences: int | None = None, encoding: str | None = None) -> Reposting:
    """What asks whether clues of `full` beside `fixed` leave a second solution: a
    session restricted by givens when only givens come and go and `full` has no
    objective (`Puzzle.optimizes`), each question bounded by `inferences` (0: none,
    None: QUESTION_INFERENCES); else a search of the puzzle they make.  Every question
    is bounded by the time to `deadline` (time.monotonic) too, when given, and
    searched with `encoding` (None: the family's default)."""
    hidden = [clue for clue in full.clues() if clue not in fixed]
    if not full.optimizes and all(clue.kind == "given" for clue in hidden):
        return Givens(full, fixed, deadline, inferences, encoding)
    return Reposting(full, fixed, deadline, encoding)


def _revealed_and_hidden(full: Puzzle, intended: list, rng: random.Random, fixed: set[Clue],
                         shown: set[Clue], new_clue: NewClue | None, checker: Reposting) -> Puzzle | None:
    """`well_formed`'s reveal and hide; Undecided when a question takes too long."""
    from .diagnosis import cells_of  # loaded for the commands that need it, not at every start

    with checker:
        witnesses = Witnesses(full, intended, fixed)
        while (other := witnesses.meeting(shown) or witnesses.added(checker.others(shown, intended))):
            apart = {cell for cell in cells_of(intended)
                     if intended[cell[0]][cell[1]] != other[cell[0]][cell[1]]}
            telling = [clue for clue in checker.full.clues()
                       if clue not in fixed | shown and clue.cells & apart]
            if telling:
                clues = set(rng.sample(telling, max(1, len(telling) // TELLING_PER_REVEAL)))
            elif new_clue and (made := new_clue(checker.full, intended, other)):
                checker.full, clue = made
                clues = {clue}
                witnesses.renew(checker.full)
            else:
                return None
            shown |= clues
            checker.push(clues, intended)
        checker.pop_all()
        hide(rng.sample(sorted(shown, key=repr), len(shown)), shown, intended, checker, witnesses)
    return checker.full.keeping(fixed | shown)


def hide(order: list[Clue], shown: set[Clue], intended: list, checker: Reposting,
         witnesses: Witnesses) -> None:
    """Hide each clue of `order` in turn from `shown` when the rest leave `intended`
    alone; what the checker holds pushed is shown and not in `order`.

    The question about each clue is the same as in a loop over `order`, but the
    clues of its second half are pushed once for all those of the first, and the
    first half's kept ones once for the second: each clue is pushed about log2
    of len(order) times, not asked with every question."""
    if len(order) > 1:
        first, second = order[:len(order) // 2], order[len(order) // 2:]
        with checker.holding(set(second), intended):
            hide(first, shown, intended, checker, witnesses)
        with checker.holding(shown & set(first), intended):
            hide(second, shown, intended, checker, witnesses)
        return
    if not order:
        return
    clue = order[0]
    rest = shown - {clue}
    if witnesses.meeting(rest) is not None:
        return  # a solution found before meets the rest: the clue is needed
    # Another solution of the rest breaks this clue, so differs from `intended` in its
    # cells: asked where that is one cell (a given); over a line's cells the
    # disjunction costs more search than it saves (measured on CrossCells 15x15).
    cells = witnesses.cells(clue)
    if not witnesses.added(checker.others(rest, intended, apart=cells if len(cells) == 1 else ())):
        shown.discard(clue)


class Witnesses:
    """The solutions other than the intended one found so far, each with the clues of
    the full puzzle it is not known to meet.

    One that meets every shown clue is a second solution without a search.  While
    the shown clues leave `intended` alone, one that meets all of them but one
    breaks that one: the clue is needed, and stays needed as others are hidden.
    Sets of clues are bits of an integer, one a clue: the hide asks `meeting` of
    every witness for each clue, hundreds of times a puzzle.
    """

    def __init__(self, full: Puzzle, intended: list, fixed: set[Clue]):
        self.intended, self.fixed = intended, fixed
        self.found: list[list] = []
        self.apart: list[set[Cell]] = []  # for each solution found, the cells where it is not `intended`
        self.unmet: list[int] = []
        self.clues: dict[Clue, Clue] = {}  # each clue that may be hidden, with its cells
        self.bits: dict[Clue, int] = {}  # each clue that may be hidden, its bit
        self.renew(full)

    def renew(self, full: Puzzle) -> None:
        """Judge the solutions found by the clues of `full` too (a family may add clues)."""
        self.full = full
        new = [clue for clue in full.clues() if clue not in self.fixed and clue not in self.clues]
        for clue in new:
            self.clues[clue] = clue
            self.bits[clue] = 1 << len(self.bits)
        self.unmet = [unmet | self.unmet_by(apart, new) for apart, unmet in zip(self.apart, self.unmet)]

    def added(self, others: list[list]) -> list | None:
        """Keep `others`, solutions other than the intended one; the first (None: none)."""
        for other in others:
            self.found.append(other)
            self.apart.append({(r, c) for r, row in enumerate(other) for c, value in enumerate(row)
                               if value != self.intended[r][c]})
            self.unmet.append(self.unmet_by(self.apart[-1], self.clues))
        return others[0] if others else None

    def meeting(self, clues: set[Clue]) -> list | None:
        """A solution found that meets every one of `clues`, or None."""
        asked = sum(self.bits.get(clue, 0) for clue in clues)
        return next((other for other, unmet in zip(self.found, self.unmet) if not unmet & asked), None)

    def cells(self, clue: Clue) -> frozenset[Cell]:
        """The cells `clue` speaks of (a clue a family made may come without them)."""
        return self.clues[clue].cells

    def unmet_by(self, apart: set[Cell], clues: Iterable[Clue]) -> int:
        """The bits of those of `clues` that a solution differing from the intended one
        in the cells `apart` is not known to meet: it fills their cells otherwise (a
        line's total may still agree: unsure)."""
        return sum(self.bits[clue] for clue in clues if not apart.isdisjoint(self.clues[clue].cells))


def other_solutions(puzzle: Puzzle, intended: list) -> list[list]:
    """The solutions of `puzzle` (as JSON has them) other than `intended` that a search
    for two finds: none when `intended` is its only one."""
    found = puzzle.search(limit=2)
    return [grid for grid in (s.to_json() for s in found.solutions) if grid != intended]


class Reposting:
    """Asks whether clues leave a second solution by searching the puzzle they make
    (within the time to `deadline`, when given)."""

    def __init__(self, full: Puzzle, fixed: set[Clue], deadline: float | None = None,
                 encoding: str | None = None):
        self.full, self.fixed, self.deadline, self.encoding = full, fixed, deadline, encoding

    def seconds(self) -> float | None:
        """The time a question may take (None: no limit); Undecided once it is up."""
        if self.deadline is None:
            return None
        if (left := self.deadline - time.monotonic()) <= 0:
            raise Undecided()
        return left

    def others(self, shown: set[Clue], intended: list, apart: Collection[Cell] = ()) -> list[list]:
        """Solutions other than `intended` under `fixed` and `shown` (differing from it in
        one of the cells `apart`, when given): those a search for two finds (for one,
        given `apart`); none when there is none."""
        puzzle = self.full.keeping(self.fixed | shown)
        if not apart or puzzle.optimizes:  # restricted, the best grids of one are others
            found = puzzle.search(limit=2, timeout=self.seconds(), encoding=self.encoding)
            return self.decided(found.status, [s.to_json() for s in found.solutions], intended)
        found = searches.restricted(puzzle.record.prolog, puzzle.prolog_data(),
                                    self.restrictions(set(), intended, apart),
                                    shape=puzzle.answer_shape(), limit=1, timeout=self.seconds(),
                                    encoding=self.encoding)
        return self.unintended(puzzle, found, intended)

    def restrictions(self, shown: set[Clue], intended: list, apart: Collection[Cell]) -> list:
        """The given cells of `shown` as `intended` has them, and the cells `apart` not
        all so, as searches.restricted takes them."""
        cells = [[self.full.cell_path(clue.cell), "=", intended[clue.cell[0]][clue.cell[1]]]
                 for clue in shown]
        if apart:
            ordered = sorted(apart)
            cells.append([[self.full.cell_path(cell) for cell in ordered], "apart",
                          [intended[r][c] for r, c in ordered]])
        return cells

    def unintended(self, puzzle: Puzzle, found: dict, intended: list) -> list[list]:
        """The solutions of a search's result other than `intended`, as JSON has them."""
        return self.decided(found["status"], [puzzle._solution(answer).to_json()
                                              for answer in found["solutions"]], intended)

    @staticmethod
    def decided(status: str, grids: list[list], intended: list) -> list[list]:
        """Those of `grids`, a search's solutions, other than `intended`; Undecided when
        there is none and the search stopped short (found only `intended`, or nothing,
        in its time or inferences): it might have found one."""
        others = [grid for grid in grids if grid != intended]
        if status == "timeout" and not others:
            raise Undecided()
        return others

    def push(self, clues: set[Clue], intended: list) -> None:
        """Note that `clues` will be shown in the questions until `pop` (reposting
        shows every clue again anyway)."""

    def pop(self) -> None:
        """Forget the last `push`."""

    def pop_all(self) -> None:
        """Forget every `push`."""

    @contextmanager
    def holding(self, clues: set[Clue], intended: list) -> Iterator[None]:
        """`clues` pushed for the questions of the block (none: nothing pushed).  Left
        pushed when the block raises: the checker is then closed, its session with it."""
        if not clues:
            yield
            return
        self.push(clues, intended)
        yield
        self.pop()

    def __enter__(self):
        return self

    def __exit__(self, *_) -> None:
        pass


class Givens(Reposting):
    """The same question when the clues to show are given cells: the puzzle without
    them is posted once (a searches.Session) and each question only restricts it,
    by the givens not pushed already (see `push`), within `inferences` (0: no bound;
    None: QUESTION_INFERENCES)."""

    def __init__(self, full: Puzzle, fixed: set[Clue], deadline: float | None = None,
                 inferences: int | None = None, encoding: str | None = None):
        super().__init__(full, fixed, deadline, encoding)
        self.inferences = QUESTION_INFERENCES if inferences is None else inferences

    def __enter__(self):
        base = self.full.keeping(self.fixed)
        self.session = searches.Session(base.record.prolog, base.prolog_data(), encoding=self.encoding)
        self.base = base
        self.pushed: list[set[Clue]] = []
        return self

    def push(self, clues: set[Clue], intended: list) -> None:
        """Post `clues` in the session until `pop`: questions whose shown clues hold
        them ask only for the others."""
        self.session.push(self.restrictions(clues, intended, ()))
        self.pushed.append(set(clues))

    def pop(self) -> None:
        self.session.pop()
        self.pushed.pop()

    def pop_all(self) -> None:
        while self.pushed:
            self.pop()

    def others(self, shown: set[Clue], intended: list, apart: Collection[Cell] = ()) -> list[list]:
        while self.pushed and not set().union(*self.pushed) <= shown:
            self.pop()  # a pushed clue is hidden now
        posted = set().union(*self.pushed)
        found = self.session.restricted(self.restrictions(shown - posted, intended, apart),
                                        limit=1 if apart else 2, timeout=self.seconds(),
                                        inferences=self.inferences)
        return self.unintended(self.base, found, intended)

    def __exit__(self, *_) -> None:
        self.session.close()
