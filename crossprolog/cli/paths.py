"""A person's way through a puzzle: its steps (solve --steps), its grade, and the
solver's own entries (--entries) set apart from the printed clues."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import Any, Callable, NamedTuple

from .. import registry
from ..errors import ParseError, TimeLimitExceeded, UsageError
from ..puzzle import Puzzle
from .inputs import read_text
from .pictured import picture
from .limits import watchdog
from .report import LIMIT, NO, OK, Outcome, layout, plural
from .state import Run


class Walk(NamedTuple):
    """A person's steps through a puzzle (`steps` over `statement`), how they ended and
    the seconds taken: solved; several (solved, but a search step took one of several
    solutions); unsolvable (no solution); timeout."""

    statement: Any
    steps: list
    ending: str
    seconds: float


ENDINGS = {"solved": OK, "several": NO, "unsolvable": NO, "timeout": LIMIT}


def human_path(puzzle: Puzzle, run: Run, budget: float | None,
               told: Callable[[Walk], Outcome]) -> Outcome | None:
    """The outcome `told` makes of a person's way through `puzzle` (None when the family
    states no rules for techniques).  Techniques alone reach only the one solution; the
    search a step falls back on is asked for two, to tell a puzzle of several.  Within
    `budget`, building the statement included, whatever a technique's own work takes:
    past it, the watchdog tells the steps so far as a time-out, and ends the process."""
    started = time.monotonic()
    found: list = []
    steps: list = []
    statement = None

    def walk(ending: str) -> Walk:
        return Walk(statement, list(steps), ending, round(time.monotonic() - started, 6))

    def solution():
        if not found:
            search = puzzle.search(limit=2, timeout=budget, encoding=run.args.encoding)
            grid = search.solutions[0].to_json() if search.solutions else None
            found.append(grid and {i: grid[r][c] for i, (r, c) in enumerate(statement.places)})
            found.append("several" if len(search.solutions) > 1 else "timeout" if search.status == "timeout"
                         else "solved" if grid else "unsolvable")
        return found[0]

    within = lambda: budget is None or time.monotonic() - started < budget  # noqa: E731

    with watchdog(run, budget, lambda: told(walk("timeout"))):
        try:
            statement = puzzle.statement(timeout=budget)
        except TimeLimitExceeded:
            return told(walk("timeout"))  # before any step: the walk needs no statement
        if statement is None:
            return None
        from .. import solving  # a person's techniques: for these commands only

        _, done = solving.path(statement, solution, within, steps)
        if done:  # every cell placed: a puzzle without solution lets a path place anything
            filled = puzzle.placing({statement.places[s.placed[0]]: s.placed[1] for s in steps if s.placed})
            holds = filled.search(limit=1, timeout=budget, encoding=run.args.encoding, keep=False).count
            ending = "unsolvable" if not holds else "several" if found and found[1] == "several" else "solved"
        else:  # a contradiction the techniques met, or the time
            solution()
            ending = "timeout" if not within() or found[1] != "unsolvable" else "unsolvable"
    return told(walk(ending))


def grade_one(puzzle: Puzzle, run: Run, budget: float | None) -> Outcome:
    puzzle, _ = with_entries(puzzle, run)
    told = human_path(puzzle, run, budget, lambda walk: graded_one(puzzle, run, walk))
    return told or Outcome(NO, f"no techniques are stated for {puzzle.family} puzzles",
                           {"family": puzzle.family, "status": "error"})


def graded_one(puzzle: Puzzle, run: Run, walk: Walk) -> Outcome:
    """What grade says of a person's `walk` through `puzzle`."""
    from .. import solving

    record = {"family": puzzle.family, "status": "solved"}  # by the path that grades it, as solve --steps says

    graded = solving.graded(walk.steps)
    record |= {**graded.to_json(), "complete": walk.ending == "solved", "seconds": walk.seconds}
    if walk.ending != "solved":
        said = f"not graded: {why_not(walk)}"
        record |= {"status": walk.ending, "grade": None}  # the steps so far grade no puzzle
        return Outcome(ENDINGS[walk.ending], said, record, picture=picture(run.args, puzzle, caption=[said]))
    said = (f"{graded.grade}: hardest technique {graded.technique} (rating {graded.rating:g}), "
            f"{plural(graded.steps, 'step')}, {plural(graded.placements, 'placement')}")
    return Outcome(OK, said, record, picture=picture(run.args, puzzle, caption=[said]))


def why_not(walk: Walk) -> str:
    """Why `walk` grades nothing."""
    if walk.ending == "several":
        return "the puzzle has more than one solution (a grade is for a puzzle of one)"
    return (f"the path stopped after {plural(len(walk.steps), 'step')} "
            f"({'time limit reached' if walk.ending == 'timeout' else 'no solution'})")


def steps_one(puzzle: Puzzle, run: Run, walk: Walk) -> Outcome:
    """The whole path, one numbered line per step, then the puzzle as far as it got."""
    from .. import solving, techniques

    statement, steps = walk.statement, walk.steps
    lines = [f"{n}. {techniques.told(step)}" for n, step in enumerate(steps, 1)]
    placed = {statement.places[step.placed[0]]: step.placed[1] for step in steps if step.placed}
    graded = solving.graded(steps)
    record = {"family": puzzle.family, "status": walk.ending, "complete": walk.ending == "solved",
              **graded.to_json(), "seconds": walk.seconds,
              "steps": [{"technique": step.technique, "rating": step.rating, "place": step.place,
                         "reason": step.text,
                         "cells": [list(statement.places[i]) for i in step.cells],
                         "placed": ([*statement.places[step.placed[0]], step.placed[1]]
                                    if step.placed else None),
                         "removed": [[*statement.places[i], d] for i, d in step.removed]}
                        for step in steps]}
    if walk.ending != "solved":
        record["grade"] = None  # the steps so far grade no puzzle
    reached = puzzle.placing(placed)
    verdict = (f"{graded.grade}: hardest technique {graded.technique}" if walk.ending == "solved"
               else "one of several solutions: the puzzle has more than one" if walk.ending == "several"
               else why_not(walk))
    return Outcome(ENDINGS[walk.ending], "\n".join(lines + [reached.render(format=layout(run.args)), verdict]),
                   record, picture=picture(run.args, reached, caption=[verdict]))


ENTRIES: dict[str, Puzzle] = {}  # the --entries file of this process, read once


def with_entries(puzzle: Puzzle, run: Run) -> tuple[Puzzle, tuple]:
    """The puzzle as the solver has filled it (--entries FILE: the same puzzle with the
    solver's own digits or marks in it), and the clues that are those entries, named
    "your ..."; the puzzle itself and none without --entries."""
    path = getattr(run.args, "entries", None)
    if not path:
        return puzzle, ()
    if path == "-" and not os.path.exists(path):
        raise UsageError("--entries takes a file, not standard input (which may hold the puzzle): "
                         "name the file of your entries")
    if os.path.isdir(path):
        raise UsageError(f"--entries takes a file, not a directory: {path}")
    if path not in ENTRIES:
        # read as puzzle files are (bytes that are not UTF-8 ...); "-" is a file so named:
        # standard input may hold the puzzle.  An error is located in that file.
        try:
            ENTRIES[path] = registry.parse(read_text(path if path != "-" else "./-"),
                                           family=puzzle.family)
        except ParseError as error:
            raise replace(error, path=path, message=f"{error.message} (in --entries)") from None
    filled = ENTRIES[path]
    printed = {clue: clue.text for clue in puzzle.clues()}
    kept = {clue: clue.text for clue in filled.clues() if clue in printed or clue.kind != "given"}
    if kept != printed:  # by what each says too: a total or a given typed otherwise is another puzzle
        raise UsageError(f"{path} is not this puzzle filled in: its clues are not the puzzle's")
    entries = tuple(replace(clue, text="your " + clue.text.removeprefix("the "))
                    for clue in filled.clues() if clue not in printed)
    return filled, entries
