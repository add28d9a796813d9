"""`crossprolog check`: whether a puzzle is well-formed (exactly one solution) and, with
--minimal, whether any of its clues is to spare; if not well-formed, why not."""

from __future__ import annotations

import time

from .. import diagnosis, making
from ..answers import Marks, Search, Solution
from ..errors import TimeLimitExceeded
from ..puzzle import Puzzle
from .batches import each_puzzle
from .limits import DIAGNOSIS_SECONDS, diagnosing, diagnosis_seconds, remaining, watchdog
from .paths import with_entries
from .pictured import picture
from .questions import known, no_solution
from .report import LIMIT, NO, OK, Outcome, layout, plural
from .state import Run


def check(run: Run) -> int:
    return each_puzzle(run, check_one)


def check_one(puzzle: Puzzle, run: Run, budget: float | None) -> Outcome:
    started = time.monotonic()
    puzzle, entries = with_entries(puzzle, run)
    with watchdog(run, budget, lambda: _checked(run, puzzle, None, entries)):
        found = puzzle.search(limit=2, timeout=budget, encoding=run.args.encoding)
    outcome = _checked(run, puzzle, found, entries)
    if run.args.minimal and outcome.record["well_formed"]:
        return _minimal(puzzle, run, outcome.record, found.solutions[0], budget, started)
    return outcome


def _checked(run: Run, puzzle: Puzzle, found: Search | None, entries: tuple = ()) -> Outcome:
    """The outcome of a check (found None: it ran out of time)."""
    status, count = (found.status, found.count) if found else ("timeout", 0)
    well_formed = status != "timeout" and count == 1
    record = {"family": puzzle.family, "well_formed": well_formed, "count": count,
              "complete": status == "complete", "status": known(found),
              "seconds": found.seconds if found else round(time.monotonic() - run.began, 6)}
    if run.args.minimal:
        record["minimal"] = None  # asked of a well-formed puzzle only (_minimal)
    if status == "timeout":
        said = f"undecided: time limit of {run.args.timeout:g} s reached after {plural(count, 'solution')}"
        return Outcome(LIMIT, said, record, picture=picture(run.args, puzzle, caption=[said]))
    if well_formed:
        said = "well-formed: exactly one solution"
        return Outcome(OK, said, record, picture=picture(run.args, puzzle, caption=[said]))
    if count == 0:
        return no_solution(puzzle, run, record, "not well-formed: no solution", entries)
    return _several(puzzle, run, record, *found.solutions)


def _minimal(puzzle: Puzzle, run: Run, record: dict, solution: Solution, budget: float | None,
             started: float) -> Outcome:
    """Whether the clues of a well-formed puzzle are all needed: those a maker could
    leave out each alone (making.spare_clues), marked in its layout; its "seconds" count
    that search too."""
    asked = time.monotonic()
    try:
        spare = making.spare_clues(puzzle, solution.to_json(), timeout=remaining(budget, started),
                                   encoding=run.args.encoding)
    except TimeLimitExceeded:
        spare = None
    record = {**record, "seconds": round(record["seconds"] + time.monotonic() - asked, 6)}
    if spare is None:
        said = (f"well-formed: exactly one solution; whether a clue is to spare is undecided "
                f"(time limit of {run.args.timeout:g} s reached)")
        return Outcome(LIMIT, said, {**record, "minimal": None},
                       picture=picture(run.args, puzzle, caption=[said]))
    if not spare:
        said = "well-formed and minimal: exactly one solution, and no clue to spare"
        return Outcome(OK, said, {**record, "minimal": True, "spare": []},
                       picture=picture(run.args, puzzle, caption=[said]))
    said = (f"well-formed, not minimal: exactly one solution, which stays the only one with any "
            f"one of these {plural(len(spare), 'clue')} left out (in brackets): "
            + "; ".join(clue.text for clue in spare))
    marks = Marks(clues=frozenset(spare))
    return Outcome(NO, f"{said}\n{puzzle.render(format=layout(run.args), marks=marks)}",
                   {**record, "minimal": False, "spare": [clue.to_json() for clue in spare]},
                   picture=picture(run.args, puzzle, spare, caption=[said]),
                   drawn=((puzzle, None, marks),))


def _several(puzzle: Puzzle, run: Run, record: dict, first, second) -> Outcome:
    """Two solutions, where they differ (marked), and a clue that would leave one."""
    def unsuggested() -> Outcome:
        return _told(puzzle, run, record, diagnosis.Ambiguity((first, second), diagnosis.difference(first, second),
                                                              None), timed_out=True)

    with diagnosing(run, unsuggested, DIAGNOSIS_SECONDS):
        try:
            seen = diagnosis.ambiguity(puzzle, first, second, timeout=diagnosis_seconds(run),
                                       encoding=run.args.encoding)
        except TimeLimitExceeded:
            return unsuggested()
        return _told(puzzle, run, record, seen, timed_out=False)


def _told(puzzle: Puzzle, run: Run, record: dict, seen: diagnosis.Ambiguity, timed_out: bool) -> Outcome:
    """What check says of a puzzle with two solutions `seen`, and the clue that would leave
    one if found (not when `timed_out`)."""
    marks = Marks(cells=frozenset(seen.difference))
    drawings = [puzzle.render(s, layout(run.args), marks=marks) for s in seen.solutions]
    advice = (f"{seen.suggestion}, and only the {('first', 'second')[seen.leaves]} is left" if seen.suggestion
              else "no one more clue makes the solution unique" if seen.exhaustive
              else "no one more clue that makes the solution unique was found in the time" if timed_out
              else "no one more clue that either of these meets makes the solution unique")
    text = (f"not well-formed: more than one solution; two of them, differing at "
            f"{plural(len(seen.difference), 'cell')} (in brackets):\n{drawings[0]}\n\n"
            f"{drawings[1]}\n{advice}")
    return Outcome(NO, text, {**record, "solutions": [s.to_json() for s in seen.solutions],
                              "difference": [list(cell) for cell in seen.difference],
                              "suggestion": seen.suggestion, "leaves": seen.leaves},
                   picture=picture(run.args, seen, caption=[
                       f"not well-formed: two solutions, differing at "
                       f"{plural(len(seen.difference), 'cell')} (marked)", advice]),
                   drawn=tuple((puzzle, s, marks) for s in seen.solutions))
