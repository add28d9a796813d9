"""Running a command over every puzzle of its inputs: in order, in worker processes
with --jobs, each record to --out as soon as those before it are in, Ctrl-C keeping
what is finished."""

from __future__ import annotations

import sys
import time
from collections import Counter
from contextlib import closing
from dataclasses import replace
from functools import partial
from typing import Callable

from .. import batch, engine, results_files
from ..batch import WorkerDied
from ..families import named
from ..grammars.common import FENCE_LINE, directive_word
from ..errors import CrossprologError, ParseError, TimeLimitExceeded, printable
from ..puzzle import Puzzle
from ..registry import parse_piece
from .inputs import Input, load_encodings, option_values, path_name, puzzles_named, read_inputs
from .limits import remaining, time_limit
from . import pictured
from .report import BAD, INTERRUPTED, LIMIT, Outcome, Stopped, bar, plural, worst, write
from .state import Run

Command = Callable[[Puzzle, Run, "float | None"], Outcome]


def each_puzzle(run: Run, command: Command) -> int:
    """Run `command` on every puzzle of the inputs and report as the outcomes come; return
    the worst exit code.

    Outputs keep the order of the inputs, whatever order the workers finish in;
    --out gets each record as soon as those before it are in.  After Ctrl-C the
    finished records are still in --out, and a lone puzzle says what it found.
    """
    drawn = pictured.Pictures(run.args, f"crossprolog {run.args.command}") \
        if pictured.wanted(run.args) else None
    if drawn:
        pictured.check_target(run.args)
    elif run.args.out:
        # before the inputs are read
        results_files.check_writable(run.args.out, run.args.paths, batch.expand(run.args.paths))
    # workers start while the inputs are read
    batch.prepare(run.args.jobs, run.args.cluster, partial(puzzles_named, run.args.paths))
    inputs = read_inputs(run)
    several = len(inputs) > 1
    run.single = not several  # the --timeout of a lone puzzle bounds the whole command
    # --all may print solutions as they come
    run.live = not several and run.args.out is None and not drawn
    outcomes: dict[int, Outcome] = {}
    shown = 0

    def finish(index: int, outcome: Outcome) -> None:
        outcomes[index] = outcome
        if drawn:
            drawn.add(inputs[index].name, outcome, several)
        else:
            show(outcome, inputs[index], several, run.args)
        if output:
            results_files.write_jsonl(output, {**inputs[index].keys, **outcome.record})

    def finish_alone(outcome: Outcome) -> None:
        finish(0, outcome)
        if output:
            output.close()

    # How the watchdog of a lone puzzle reports it (workers, which get `run`, need none).
    run.finish = None if several else finish_alone
    progress = bar(total=len(inputs), unit="puzzle", shown=several and sys.stderr.isatty())
    done: dict[int, Outcome] = {}
    output = None
    try:
        # Made here, where a stop finds it: made before, its temporary file was left.
        output = results_files.Output(run.args.out) if run.args.out and not drawn else None
        # With --timeout, a batch's puzzles run in workers, which their watchdog may end.
        # A lone puzzle runs here, where its watchdog can hold its --timeout.
        with closing(batch.results(partial(_outcome, command, run), inputs, run.args.jobs,
                                   isolated=several and run.args.timeout is not None,
                                   cluster=run.args.cluster if several else None)) as results:
            for index, outcome in results:
                done[index] = _died(outcome, inputs[index]) if isinstance(outcome, WorkerDied) else outcome
                progress.update()
                while shown in done:
                    finish(shown, done[shown])
                    shown += 1
    except KeyboardInterrupt as stop:
        with engine.stops_ignored():  # what finished is saved and reported whole
            progress.close()
            if isinstance(stop, Stopped):
                finish(shown, stop.outcome)
            if output:
                output.close()
            if isinstance(stop, Stopped) and not several:
                return INTERRUPTED
            finished = f" after {len(outcomes)} of {plural(len(inputs), 'puzzle')}" if several else ""
            kept = f"; their records are in {printable(run.args.out)}" if run.args.out and outcomes else ""
            print(f"crossprolog: interrupted{finished}{kept}", file=sys.stderr)
            return INTERRUPTED
    progress.close()
    if drawn:
        drawn.close()
    if output:
        output.close()
        print(f"{printable(run.args.out)}: {plural(len(inputs), 'record')} "
              f"({tally([outcome.record for outcome in outcomes.values()])})")
    return worst(outcome.code for outcome in outcomes.values())


def tally(records: list[dict]) -> str:
    """How many records have each status, and (check --minimal) how many of the unique
    are minimal: "5 unique, 1 several; 3 minimal, 2 not minimal"."""
    said = ", ".join(f"{n} {status}" for status, n in Counter(r["status"] for r in records).items())
    minimal = Counter(r["minimal"] for r in records if r.get("minimal") is not None)
    if minimal:
        said += "; " + ", ".join(f"{n} {'minimal' if is_minimal else 'not minimal'}"
                                 for is_minimal, n in sorted(minimal.items(), reverse=True))
    return said


def _outcome(command: Command, run: Run, item: Input) -> Outcome:
    """What `command` does for one input; every error a user can cause becomes an Outcome.

    The puzzle is read and searched within --timeout: from the start of the
    command for a lone puzzle, from the start of its own work in a batch.
    """
    started = run.started if run.single else time.monotonic()
    run.began = started  # for what a watchdog reports: this puzzle's start
    run.comments = comment_lines(item)
    try:
        load_encodings(run.args, started)
        if item.problem:
            raise item.problem
        with time_limit(run.args.timeout, started):
            puzzle = item.puzzle or parse_piece(item.piece, **option_values(run.args))
        engine.checked_encoding(puzzle.record.prolog, run.args.encoding)  # Prolog started: never in time_limit
        return noted(command(puzzle, run, remaining(run.args.timeout, started)), item)
    except ParseError as error:
        report = error.report(path_name(item.path, escaped=False))
        return Outcome(BAD, "", {"status": "error", "error": report}, report)
    except TimeLimitExceeded:
        message = f"time limit of {run.args.timeout:g} s reached before the search"
        return Outcome(LIMIT, message, {"status": "timeout", "error": message})
    except CrossprologError as error:
        return Outcome(error.exit_code, "", {"status": "error", "error": f"{item.name}: {error}"},
                       f"{item.name}: error: {error}")


def noted(outcome: Outcome, item: Input) -> Outcome:
    """`outcome`, noting on standard error which family a puzzle without solution was
    read as when its layout only weakly said so: it may be another's, typed without
    the directive that names its game."""
    piece = item.piece
    if piece is None or not piece.weak or outcome.record.get("status") != "unsolvable" or outcome.error:
        return outcome
    return replace(outcome, error=f"{item.name}: note: read as {named(piece.family).title} ({piece.reason}); "
                                  "name the family with --family if it is another")


def _died(died: WorkerDied, item: Input) -> Outcome:
    return Outcome(died.exit_code, "", {"status": "error", "error": f"{item.name}: {died}"},
                   f"{item.name}: error: {died}")

def show(outcome: Outcome, item: Input, several: bool, args) -> None:
    """Print one input's outcome: its error, and unless --out takes the records, its output."""
    if outcome.error:
        write(outcome.error, file=sys.stderr)
    if args.out:
        return
    if args.format == "json":
        import json  # for JSON output only: a start that prints text does not load it

        record = {**item.keys, **outcome.record} if several or len(item.keys) > 1 else outcome.record
        write(json.dumps(record), file=sys.stdout)
    elif outcome.text:
        write(f"== {item.name}\n{outcome.text}" if several else outcome.text, file=sys.stdout)
    sys.stdout.flush()


def comment_lines(item: Input) -> tuple:
    """The comment lines of an input's puzzle (not its directives, nor the fences of its
    markdown, which families read as comments), as its family reads them: a hint keeps
    them."""
    if item.piece is None or item.piece.family is None:
        return ()
    grammar = named(item.piece.family).grammar
    return tuple(line for line in [*item.piece.shared, *item.piece.lines]
                 if grammar.is_comment(line) and not directive_word(line)
                 and not FENCE_LINE.match(line.text))
