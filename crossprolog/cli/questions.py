"""The puzzle commands: solve, count, check and hint, each one puzzle's outcome."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Sequence

from .. import diagnosis, engine, explain, reasoner, searches
from ..answers import NO_MARKS, Marks, Search
from ..errors import Interrupted, ResourceLimit, TimeLimitExceeded, UsageError
from ..puzzle import Puzzle
from .batches import each_puzzle
from .limits import DIAGNOSIS_SECONDS, diagnosing, diagnosis_seconds, progress, watchdog
from .paths import grade_one, human_path, steps_one, with_entries
from .pictured import picture
from .report import INTERRUPTED, LIMIT, NO, OK, Outcome, Stopped, layout, plural
from .state import Run

if TYPE_CHECKING:
    from .. import blame
    from ..grammars.common import Line


def solve(run: Run) -> int:
    if run.args.steps and run.args.all:
        raise UsageError("--steps and --all go apart: a person's steps lead to one solution")
    return each_puzzle(run, solve_one)


def count(run: Run) -> int:
    return each_puzzle(run, count_one)


def hint(run: Run) -> int:
    return each_puzzle(run, hint_one)


def grade(run: Run) -> int:
    return each_puzzle(run, grade_one)


def solve_one(puzzle: Puzzle, run: Run, budget: float | None) -> Outcome:
    puzzle, entries = with_entries(puzzle, run)
    if run.args.steps and (told := human_path(puzzle, run, budget, lambda walk: steps_one(puzzle, run, walk))):
        return told
    if run.args.all:
        return _solve_all(puzzle, run, budget)
    with watchdog(run, budget, lambda: _solved(puzzle, run, None, entries)):
        found = puzzle.search(limit=1, timeout=budget, encoding=run.args.encoding)
    return _solved(puzzle, run, found, entries)


def _solved(puzzle: Puzzle, run: Run, found: Search | None, entries: tuple = ()) -> Outcome:
    """The outcome of a search for one solution (None: it ran out of time)."""
    solution = found.solutions[0] if found and found.solutions else None
    status = found.status if found else "timeout"
    record = {"family": puzzle.family, "status": known(found),
              "solution": solution.to_json() if solution else None,
              "seconds": found.seconds if found else round(time.monotonic() - run.began, 6),
              **(puzzle.solution_extras(solution) if solution else {})}
    if status == "timeout" and found and found.best:
        said = f"time limit of {run.args.timeout:g} s reached: the best answer found so far"
        return Outcome(LIMIT, f"{puzzle.render(found.best, layout(run.args))}\n{said}",
                       {**record, "solution": found.best.to_json(),
                        **puzzle.solution_extras(found.best)},
                       picture=picture(run.args, found.best, caption=[said]),
                       drawn=((puzzle, found.best, NO_MARKS),))
    if status == "timeout":
        said = f"time limit of {run.args.timeout:g} s reached"
        return Outcome(LIMIT, said, record, picture=picture(run.args, puzzle, caption=[said]))
    if solution is None:
        return no_solution(puzzle, run, record, "no solution", entries)
    return Outcome(OK, puzzle.render(solution, layout(run.args)), record,
                   picture=picture(run.args, solution), drawn=((puzzle, solution, NO_MARKS),))


def no_solution(puzzle: Puzzle, run: Run, record: dict, heading: str, entries: tuple = ()) -> Outcome:
    """What to say of a puzzle without solution: the clue (or two) most likely mistyped,
    else the clues that cannot hold together, marked in its layout.  They are sought
    with the family's own encodings, whichever of them or of another paradigm was named
    (one keeping no CLP(FD) domains, or needing every clue, cannot), and with a
    user's own encoding when that was (Prolog, ASP or MiniZinc: its rules found no
    solution, and may not be the family's)."""
    def unexplained() -> Outcome:
        said = f"{heading} (no small set of clues to blame was found in time)"
        return Outcome(NO, said, {**record, "conflict": None},
                       picture=picture(run.args, puzzle, caption=[said]))

    with diagnosing(run, unexplained, TYPO_SECONDS + DIAGNOSIS_SECONDS):
        return _explained(puzzle, run, record, heading, entries, unexplained)


def _explained(puzzle: Puzzle, run: Run, record: dict, heading: str, entries: tuple,
               unexplained: Callable[[], Outcome]) -> Outcome:
    from .. import blame  # for puzzles without solution only

    encoding = run.args.encoding if engine.user_encoding(run.args.encoding) is not None else None
    try:
        found = blame.typos(puzzle, entries=entries, timeout=typo_seconds(run), encoding=encoding,
                            unsolvable=True)
        yours = {clue: clue for clue in entries}  # named "your ..."
        found = tuple(replace(typo, clues=tuple(yours.get(clue, clue) for clue in typo.clues)) for typo in found)
    except TimeLimitExceeded:
        found = ()
    if found:
        marks = Marks(clues=frozenset(found[0].clues))
        drawing = puzzle.render(format=layout(run.args), marks=marks)
        said = f"{heading}: {typo_sentence(found, entries)}"
        return Outcome(NO, f"{said}\n{drawing}",
                       {**record, "blame": [typo.to_json() for typo in found]},  # a conflict it is not
                       picture=picture(run.args, puzzle, list(found[0].clues), caption=[said]),
                       drawn=((puzzle, None, marks),))
    try:
        clues = diagnosis.conflict(puzzle, timeout=diagnosis_seconds(run), encoding=encoding)
    except TimeLimitExceeded:
        return unexplained()
    marks = Marks(clues=frozenset(clues))
    drawing = puzzle.render(format=layout(run.args), marks=marks)
    said = f"{heading}: {diagnosis.conflict_sentence(clues)}"
    return Outcome(NO, f"{said}\n{drawing}", {**record, "conflict": [clue.to_json() for clue in clues]},
                   picture=picture(run.args, puzzle, list(clues), caption=[said]),
                   drawn=((puzzle, None, marks),))


TYPO_SECONDS = 2.0  # for finding the clue (or two) most likely mistyped, before a conflict


def typo_seconds(run: Run) -> float:
    """The time to find the typo: TYPO_SECONDS, or with --timeout half of what is left of it
    (the conflict may need the rest)."""
    return TYPO_SECONDS if run.args.timeout is None else diagnosis_seconds(run) / 2


def typo_sentence(found: tuple[blame.Typo, ...], entries: tuple = ()) -> str:
    """`the 8 at row 7, column 4 is likely mistyped: with the 7 at row 7, column 4 instead,
    the puzzle has one solution`, and the other candidates, if any."""
    first, others = found[0], found[1:]
    named = reasoner.listed([clue.text for clue in first.clues])
    verb = "is" if len(first.clues) == 1 else "are"
    one = len(first.clues) == 1
    read = f"{'it reads' if one else 'they read'} {first.reading}" if first.reading else ""
    left = (f"with {first.reading} instead, the puzzle has one solution" if first.unique and read else
            f"without {'it' if one else 'them'} the puzzle has one solution" + (f", where {read}" if read else "")
            if first.unique else
            f"without {'it' if one else 'them'} the puzzle has solutions" + (f" (in one, {read})" if read else ""))
    rest = "; ".join(reasoner.listed([clue.text for clue in typo.clues]) for typo in others[:3])
    alike = others and others[0].unique and others[0].edits == first.edits  # which was meant cannot be told
    more = f" ({'or, as likely,' if alike else 'or else'} {rest}{', ...' if len(others) > 3 else ''})" if others else ""
    wrong = "wrong" if set(first.clues) <= set(entries) else "mistyped"  # an entry is no typo
    short = "; not every other correction was tried in time" if first.cut_short and not alike else ""
    return f"{named} {verb} likely {wrong}: {left}{more}{short}"


def _solve_all(puzzle: Puzzle, run: Run, budget: float | None) -> Outcome:
    """Every solution; a lone puzzle's text output shows each as soon as it is found."""
    solutions, drawings = [], []
    started = time.perf_counter()

    def outcome(stopped: str = "") -> Outcome:
        return _all_solved(puzzle, run, solutions, drawings, stopped, time.perf_counter() - started)

    with progress(run, lambda: len(solutions)) as show, \
            watchdog(run, budget, lambda: outcome("timeout")):
        try:
            for solution in puzzle.solutions(timeout=budget, encoding=run.args.encoding):
                with engine.stops_deferred():  # a solution found is counted and shown, whole
                    solutions.append(solution)
                    if run.args.format != "json":
                        drawings.append(puzzle.render(solution, layout(run.args)))
                        if run.live:
                            show(("\n" if len(drawings) > 1 else "") + drawings[-1])
        except TimeLimitExceeded:
            return outcome("timeout")
        except KeyboardInterrupt:
            raise Stopped(outcome("interrupted")) from None
    return outcome()


def _all_solved(puzzle: Puzzle, run: Run, solutions: list, drawings: list[str], stopped: str,
                seconds: float) -> Outcome:
    """The outcome of a search for every solution, complete or `stopped` (by a timeout, by Ctrl-C)."""
    status = stopped or known_of(len(solutions), complete=True)
    record = {"family": puzzle.family, "status": status,
              "solution": solutions[0].to_json() if solutions else None,
              "solutions": [s.to_json() for s in solutions], "count": len(solutions),
              "complete": not stopped, "seconds": round(seconds, 6),
              **(puzzle.solution_extras(solutions[0]) if solutions else {})}
    earlier = "\n" if run.live else "".join(drawing + "\n\n" for drawing in drawings)
    if stopped == "timeout":
        said = f"time limit of {run.args.timeout:g} s reached after {plural(len(solutions), 'solution')}"
    elif stopped:
        said = f"{at_least(len(solutions))} (interrupted)"
    else:
        said = plural(len(solutions), "solution") if solutions else "no solution"
    code = LIMIT if stopped == "timeout" else INTERRUPTED if stopped else OK if solutions else NO
    return Outcome(code, earlier + said if solutions or stopped else said, record,
                   picture=picture(run.args, solutions or puzzle, caption=[said]))


def count_one(puzzle: Puzzle, run: Run, budget: float | None) -> Outcome:
    name = searches.progress_name()
    with progress(run, lambda: searches.found_so_far(name)), \
            watchdog(run, budget, lambda: _counted(run, puzzle, None, searches.found_so_far(name))):
        try:
            found = puzzle.search(limit=run.args.limit, timeout=budget, encoding=run.args.encoding,
                                  keep=False, progress=name)
        except Interrupted as stop:
            if stop.found is None:
                raise
            raise Stopped(_counted(run, puzzle, stop.found)) from None
        except ResourceLimit as stop:
            if stop.found is None:
                raise
            return _counted(run, puzzle, stop.found, reason=str(stop))
    return _counted(run, puzzle, found)


def _counted(run: Run, puzzle: Puzzle, found: Search | None, count: int = 0,
             reason: str = "") -> Outcome:
    """The outcome of a count (found None: it ran out of time after `count` solutions;
    status "resource": Prolog ran out of stack or memory, for the `reason` given)."""
    status = found.status if found else "timeout"
    count = found.count if found else count
    complete = status == "complete"
    record = {"family": puzzle.family, "count": count, "complete": complete, "status": known(found),
              "seconds": found.seconds if found else round(time.monotonic() - run.began, 6)}
    if status == "resource":
        return Outcome(LIMIT, f"{at_least(count)} ({reason})",
                       {**record, "status": "error", "error": reason})
    if status == "timeout":
        return Outcome(LIMIT, f"{at_least(count)} (time limit of {run.args.timeout:g} s reached)", record)
    if status == "interrupted":
        return Outcome(INTERRUPTED, f"{at_least(count)} (interrupted)", record)
    text = (plural(count, "solution") if complete
            else f"{at_least(count)} (stopped at --limit {run.args.limit})")
    return Outcome(OK if count else NO, text, record)


def at_least(count: int) -> str:
    """What a search stopped short has found: "at least 3 solutions", or "no solution
    found yet" (not "at least 0")."""
    return f"at least {plural(count, 'solution')}" if count else "no solution found yet"


def hint_one(puzzle: Puzzle, run: Run, budget: float | None) -> Outcome:
    """A forced cell (every forced cell with --all), placed in the layout below its reason
    as a comment, so the output reads back in as the next step's puzzle."""
    started = time.monotonic()
    puzzle, entries = with_entries(puzzle, run)

    def no_hint_in_time() -> Outcome:
        said = f"time limit of {hint_seconds(run):g} s reached: no hint found in time"
        return Outcome(LIMIT, said, {"family": puzzle.family, "status": "timeout", "cells": [],
                                     "seconds": round(time.monotonic() - started, 6)},
                       picture=picture(run.args, puzzle, caption=[said]))

    try:
        with watchdog(run, budget, no_hint_in_time):
            found = explain.hint(puzzle, every=run.args.all, timeout=budget, encoding=run.args.encoding)
    except TimeLimitExceeded:
        return no_hint_in_time()
    if found.status == "timeout" and not found.cells:
        return no_hint_in_time()
    record = {"family": puzzle.family, "status": found.status,
              "cells": [forced.to_json() for forced in found.cells],
              "seconds": round(time.monotonic() - started, 6)}
    if found.status == "unsolvable":
        return no_solution(puzzle, run, record, "no solution, so no hint", entries)
    if found.status == "stuck":
        said = "no cell is forced: every open cell takes more than one value across the solutions"
        return Outcome(NO, said, record, picture=picture(run.args, puzzle, caption=[said]))
    if found.status == "solved":
        said = "nothing is left open"
        return Outcome(OK, said, record, picture=picture(run.args, puzzle, caption=[said]))
    placed = puzzle.placing({forced.cell: forced.value for forced in found.cells})
    drawn = placed.render(format=layout(run.args))
    markdown = (layout(run.args) or puzzle.layout) == "markdown"
    reasons = [("    " if markdown else "") + f"{HINTED} {forced.reason}" for forced in found.cells]
    kept = [("    " if markdown and puzzle.layout != "markdown" else "") + line.text
            for line in undrawn(run.comments, drawn) if not line.text.lstrip().startswith(HINTED)]
    hinted = Marks(cells=frozenset(forced.cell for forced in found.cells))
    late = [f"time limit of {hint_seconds(run):g} s reached: {plural(len(found.cells), 'forced cell')} "
            "found by then; there may be more"] if found.status == "timeout" else []
    return Outcome(LIMIT if late else OK, "\n".join(kept + reasons + [""] * markdown + [drawn] + late), record,
                   picture=picture(run.args, puzzle, found), drawn=((placed, None, hinted),))


def undrawn(comments: Sequence[Line], drawing: str) -> list[Line]:
    """The `comments` that `drawing` does not show already: a family may draw a puzzle's
    comments where they stood (those among clue lines below its grid, the last ones
    of the file), and a hint keeps the others above the drawing."""
    shown = Counter(drawing.split("\n"))
    kept = []
    for line in reversed(comments):
        if shown[line.text.rstrip()]:
            shown[line.text.rstrip()] -= 1
        else:
            kept.append(line)
    return kept[::-1]


def hint_seconds(run: Run) -> float:
    """A hint's time limit: --timeout, or HINT_SECONDS."""
    return explain.HINT_SECONDS if run.args.timeout is None else run.args.timeout


# A hint's reason is a comment above the puzzle, so the output reads back in as the next
# step's puzzle: marked, so that the next step's output drops it and keeps only the file's
# own comments; in markdown indented, a code line, not a heading (as are the comments of
# a puzzle typed as text: those of a markdown one are its author's own markdown).
HINTED = "# hint -"


# One vocabulary for the "status" of every command's records, what is known of the puzzle
# (docs/cli.md): solved (a solution, its uniqueness not asked), unique, several, unsolvable;
# a hint's hint, stuck (no cell is forced) and solved (nothing left open); and timeout,
# interrupted, error.


def known(found: Search | None) -> str:
    """What a search tells of its puzzle (None: it ran out of time)."""
    if found is None or found.status in ("timeout", "interrupted"):
        return found.status if found else "timeout"
    return known_of(found.count, found.status == "complete")


def known_of(count: int, complete: bool) -> str:
    """What `count` solutions tell, found by a search `complete` or stopped at its limit."""
    if count == 0:
        return "unsolvable"
    if count >= 2:
        return "several"
    return "unique" if complete else "solved"
