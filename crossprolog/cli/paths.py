"""A person's way through a puzzle: its steps (solve --steps), its grade, and the
solver's own entries (--entries) set apart from the printed clues."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from .. import registry
from ..errors import ParseError, UsageError
from ..puzzle import Puzzle
from .report import LIMIT, NO, OK, Outcome, layout, plural
from .state import Run


def human_path(puzzle: Puzzle, run: Run, budget: float | None):
    """A person's steps through `puzzle`, whether they reach its end, and the seconds taken
    (None when the family states no rules for techniques)."""
    statement = puzzle.statement()
    if statement is None:
        return None
    started = time.monotonic()
    found: list = []

    def solution():
        if not found:
            search = puzzle.search(limit=1, timeout=budget, encoding=run.args.encoding)
            grid = search.solutions[0].to_json() if search.solutions else None
            found.append(grid and {i: grid[r][c] for i, (r, c) in enumerate(statement.places)})
        return found[0]

    within = lambda: budget is None or time.monotonic() - started < budget  # noqa: E731
    from .. import solving  # a person's techniques: for these commands only

    steps, done = solving.path(statement, solution, within)
    return statement, steps, done, round(time.monotonic() - started, 6)


def grade_one(puzzle: Puzzle, run: Run, budget: float | None) -> Outcome:
    puzzle, _ = with_entries(puzzle, run)
    walked = human_path(puzzle, run, budget)
    record = {"family": puzzle.family, "status": "graded"}
    if walked is None:
        return Outcome(NO, f"no techniques are stated for {puzzle.family} puzzles", {**record, "status": "error"})
    statement, steps, done, seconds = walked
    from .. import solving

    graded = solving.graded(steps)
    record |= {**graded.to_json(), "complete": done, "seconds": seconds}
    if not done:
        record["status"] = "timeout" if budget and seconds >= budget else "unsolvable"
        return Outcome(LIMIT if record["status"] == "timeout" else NO,
                       f"not graded: the path stopped after {plural(len(steps), 'step')} "
                       f"({'time limit reached' if record['status'] == 'timeout' else 'no solution'})", record)
    return Outcome(OK, f"{graded.grade}: hardest technique {graded.technique} (rating {graded.rating:g}), "
                       f"{plural(graded.steps, 'step')}, {plural(graded.placements, 'placement')}", record)


def steps_one(puzzle: Puzzle, run: Run, walked: tuple) -> Outcome:
    """The whole path, one numbered line per step, then the solved puzzle."""
    statement, steps, done, seconds = walked
    from .. import solving, techniques

    lines = [f"{n}. {techniques.told(step)}" for n, step in enumerate(steps, 1)]
    placed = {statement.places[step.placed[0]]: step.placed[1] for step in steps if step.placed}
    graded = solving.graded(steps)
    record = {"family": puzzle.family, "status": "solved" if done else "timeout", "complete": done,
              **graded.to_json(), "seconds": seconds,
              "steps": [{"technique": step.technique, "rating": step.rating, "place": step.place,
                         "reason": step.text,
                         "cells": [list(statement.places[i]) for i in step.cells],
                         "placed": ([*statement.places[step.placed[0]], step.placed[1]]
                                    if step.placed else None),
                         "removed": [[*statement.places[i], d] for i, d in step.removed]}
                        for step in steps]}
    end = puzzle.placing(placed).render(format=layout(run.args))
    verdict = (f"{graded.grade}: hardest technique {graded.technique}" if done
               else f"stopped after {plural(len(steps), 'step')}")
    return Outcome(OK if done else LIMIT, "\n".join(lines + [end, verdict]), record)


ENTRIES: dict[str, Puzzle] = {}  # the --entries file of this process, read once


def with_entries(puzzle: Puzzle, run: Run) -> tuple[Puzzle, tuple]:
    """The puzzle as the solver has filled it (--entries FILE: the same puzzle with the
    solver's own digits or marks in it), and the clues that are those entries, named
    "your ..."; the puzzle itself and none without --entries."""
    path = getattr(run.args, "entries", None)
    if not path:
        return puzzle, ()
    if path not in ENTRIES:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot read the entries {path}: {error.strerror}") from None
        try:
            ENTRIES[path] = registry.parse(text, family=puzzle.family)
        except ParseError as error:
            raise UsageError(error.report(path).replace(": error: ", ": ", 1)) from None
    filled = ENTRIES[path]
    printed = set(puzzle.clues())
    others = {clue for clue in filled.clues() if clue.kind != "given"}
    if others != {clue for clue in printed if clue.kind != "given"} or not printed <= set(filled.clues()):
        raise UsageError(f"{path} is not this puzzle filled in: its clues are not the puzzle's")
    entries = tuple(replace(clue, text="your " + clue.text.removeprefix("the "))
                    for clue in filled.clues() if clue not in printed)
    return filled, entries
