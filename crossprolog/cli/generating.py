"""The commands of the makers: `generate` (a family's random puzzles, in order as they
are made) and `stats` (the share of them that is well-formed), here or by --jobs
workers or on a --cluster (crossprolog.studies)."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from contextlib import ExitStack, closing, contextmanager
from typing import Iterator

from .. import batch, engine, results_files, solving, studies
from ..errors import CrossprologError, UsageError, printable
from ..families import named
from ..grammars.common import MAX_TEXTS_CHARS
from ..making import GaveUp, Tally
from ..registry import generate as generated
from .inputs import option_values
from . import limits, pictured
from .report import INTERRUPTED, LIMIT, NO, OK, bar, plural, write
from .state import Run


DIFFICULTY_TRIES = 200  # well-formed puzzles made, per puzzle asked, to find one of a grade
BOOKS = ("html", "pdf")  # the formats that make one book of every puzzle (cli/pictured.py)


def generate(run: Run) -> int:
    """The puzzles, each after a line `== N` when there are several, so that the output
    reads back as they are (`crossprolog generate ... -n 5 | crossprolog check -`); as
    JSON, one object a line, the puzzle's text with the number of its givens and
    constraints.  With --with-solutions each puzzle's solution follows it (after a line
    `== N solved` in text), and reads back as that puzzle with every cell given.
    The puzzles are made in chunks (crossprolog.studies), here or by --jobs workers
    or a --cluster, and printed in order as they come."""
    args = run.args
    if args.paper and args.format != "pdf":
        raise UsageError(f"--paper {args.paper} is the paper of a PDF book: it takes --format pdf")
    if args.out:
        pictured.check_target(args)
    options = tuple((key, value) for key, value in option_values(args).items() if value is not None)
    well_formed = args.well_formed or bool(args.difficulty)
    list(generated(args.family, args.rows, args.cols, 0, args.seed, well_formed=well_formed,
                   **dict(options)))  # none made: a size, an option or rules refused before any work
    size = studies.WELL_FORMED_CHUNK if well_formed else studies.GENERATE_CHUNK
    tries = args.n * DIFFICULTY_TRIES if args.difficulty else args.n  # then n of that grade are kept
    chunks = studies.chunks(args.family, args.rows, args.cols, tries, args.seed, size,
                            well_formed=well_formed, options=options,
                            solved=args.with_solutions and not pictured.wanted(args))
    shown = well_formed and sys.stderr.isatty()
    progress = bar(total=args.n, unit="puzzle", shown=shown)
    output = results_files.Output(args.out) if args.out and not pictured.wanted(args) else None
    with closing(_made(args, chunks)) as made:
        if args.difficulty:
            made = solving.of_grade(made, args.difficulty, args.n, puzzle_of=lambda pair: pair[0])
        making = Making(run, made, progress, output)
        try:
            with _ticking(progress, shown):
                code = (pictured.generated(args, _drawn(making)) if pictured.wanted(args)
                        else _printed(args, making, output))
        except KeyboardInterrupt:  # as a puzzle was written or drawn: those before are whole
            if args.format in BOOKS:  # a book is made once all its puzzles are
                raise
            making.stop(INTERRUPTED)
            code = OK
        except CrossprologError:  # a worker died: the puzzles written stay
            _closed(output)
            raise
        finally:
            making.close()
        with engine.stops_ignored():  # what was made is kept and reported whole
            progress.close()
            kept = _closed(output)
            if making.stopped:
                print(making.said(kept), file=sys.stderr)
                return making.stopped
    if args.difficulty and making.done < args.n:
        print(f"crossprolog: only {making.done} of {args.n} {args.difficulty} puzzles among the "
              f"{args.n * DIFFICULTY_TRIES} well-formed ones made (see docs/hints.md for each family's grades)",
              file=sys.stderr)
        return NO
    return code


class Making:
    """The puzzles of `made` (puzzle, solution) pairs as the command takes them, each
    counted once it is done with it (written, drawn), and by `progress`.

    Ctrl-C, the command's --timeout and the maker giving up (making.GaveUp) end
    them early, `stopped` saying how (an exit code), and the command keeps those
    before.  The time limit is looked at as each puzzle is made; while one is
    being made, a watchdog ends the command GRACE seconds past it, once a puzzle
    being written (`writing`) is whole, reporting those written (cli/limits.py).
    """

    def __init__(self, run: Run, made: Iterator[tuple], progress, output: results_files.Output | None):
        self.run, self.made, self.progress, self.output = run, made, progress, output
        self.done = 0  # counted by the command as it is done with each (_printed, _drawn)
        self.stopped, self.why = OK, ""
        self.writing = threading.Lock()
        self.watched = ExitStack()
        self.pairs = self._pairs()

    def __iter__(self) -> Iterator[tuple]:
        return self.pairs

    def _pairs(self) -> Iterator[tuple]:
        timeout = self.run.args.timeout
        deadline = None if timeout is None else self.run.started + timeout
        if deadline is not None:
            self.run.finish = self.ended_late
            self.watched.enter_context(limits.watchdog(self.run, max(0.0, deadline - time.monotonic()),
                                                       lambda: None))
        try:
            for pair in self.made:
                self.progress.update()
                yield pair
                if deadline is not None and time.monotonic() >= deadline:
                    self.stop(LIMIT)
                    return
        except KeyboardInterrupt:
            self.stop(INTERRUPTED)
        except GaveUp as error:
            self.stop(NO, str(error))
        finally:
            self.watched.close()

    def close(self) -> None:
        self.pairs.close()
        self.watched.close()

    def stop(self, code: int, why: str = "") -> None:
        self.stopped, self.why = code, why

    def ended_late(self, _) -> None:
        """The watchdog's report: the puzzles written so far, whole."""
        self.writing.acquire()  # held until the command ends: none is written after
        self.stop(LIMIT)
        book = "; no book is made of them" if self.run.args.format in BOOKS else ""
        print(self.said(_closed(self.output) + book), file=sys.stderr)

    def said(self, kept: str) -> str:
        """What ended the making early, and after how many puzzles; `kept` says where they are."""
        done = f"after {self.done} of {plural(self.run.args.n, 'puzzle')}"
        if self.stopped == INTERRUPTED:
            return f"crossprolog: interrupted {done}{kept}"
        if self.stopped == LIMIT and not self.why:
            return f"crossprolog: time limit of {self.run.args.timeout:g} s reached {done}{kept}"
        return f"crossprolog: {'stopped' if self.stopped == LIMIT else 'gave up'} {done}: {self.why}{kept}"


@contextmanager
def _ticking(progress, shown: bool) -> Iterator[None]:
    """While the puzzles are made: on a terminal, the progress bar redrawn four times
    a second, its time running, with the draws given up so far (those made here)."""
    if not shown:
        yield
        return
    stop = threading.Event()
    before = Tally.given_up

    def tick() -> None:
        while not stop.wait(0.25):
            if Tally.given_up > before:
                progress.set_postfix_str(f"{Tally.given_up - before:,} draws given up", refresh=False)
            progress.refresh()

    thread = limits.quiet(threading.Thread(target=tick))
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _printed(args, making: Making, output: results_files.Output | None) -> int:
    """The puzzles' texts on standard output, or in --out, each whole as it is made
    (a Ctrl-C that comes as one is written waits until it is)."""
    separated = args.n > 1 or args.with_solutions
    size = 0  # the characters of the text so far: a reader takes MAX_TEXTS_CHARS
    for number, (puzzle, solution) in enumerate(making, start=1):
        text = _generated_text(args, number, puzzle, solution, separated)
        size += len(text) + 1
        if size > MAX_TEXTS_CHARS and args.format != "json":
            making.stop(LIMIT, f"with the next, the text would pass the {MAX_TEXTS_CHARS:,} characters a text "
                               "of puzzles may have to read back in; make the others in another run, "
                               "of another --seed")
            break
        with making.writing, engine.stops_deferred():
            if output:
                output.write(text + "\n")
            else:
                write(text, file=sys.stdout)
                sys.stdout.flush()
            making.done += 1
    return OK


def _drawn(making: Making) -> Iterator:
    """The puzzles of `making`, each counted once drawn (cli/pictured.py asks for the next)."""
    for puzzle, _ in making:
        yield puzzle
        making.done += 1


def _closed(output: results_files.Output | None) -> str:
    """`output` closed: put in place with the puzzles written, or, with none, abandoned
    (an existing file stays as it was); where they are, said after a ';'."""
    if output is None:
        return ""
    if not output.written:
        output.abandon()
        left = "left as it was" if os.path.lexists(output.path) else "not written"
        return f"; {printable(output.path)} is {left}"
    output.close()
    return f"; they are in {printable(output.path)}"


def generated_record(puzzle) -> dict:
    """generate's JSON record of `puzzle`: its text, the number of its givens and of its
    other clues (constraints)."""
    clues = puzzle.clues()
    givens = sum(clue.kind == "given" for clue in clues)
    return {"family": puzzle.family, "puzzle": puzzle.render(), "givens": givens,
            "constraints": len(clues) - givens}


def _made(args, chunks: list) -> Iterator[tuple]:
    """The puzzles of `chunks`, each with its solution (or None), in order: made here one
    at a time, each shown as soon as it is made; or by --jobs workers or on a --cluster,
    a chunk at a time."""
    if args.jobs == 1 and args.cluster is None:
        for chunk in chunks:
            yield from studies.each_made(chunk)
        return
    with closing(batch.results(studies.made, chunks, args.jobs, cluster=args.cluster)) as results:
        for _, pairs in studies.in_order(results):
            if isinstance(pairs, CrossprologError):
                yield from getattr(pairs, "made", ())  # those its chunk made before
            yield from _alive(pairs)


def _alive(result):
    """A chunk's result; the error it is instead (WorkerDied too), raised."""
    if isinstance(result, CrossprologError):
        raise result
    return result


def _generated_text(args, number: int, puzzle, solution, separated: bool) -> str:
    """What `generate` prints for one puzzle: its JSON record, or its text (after `== N`
    when there are several) and its solution's."""
    if args.format == "json":
        record = generated_record(puzzle)
        if args.with_solutions:
            record["solution"] = solution.to_json() if solution else None
        return json.dumps(record)
    pieces = [(f"== {number}\n" if separated else "") + puzzle.render(format=args.format)]
    if args.with_solutions:
        drawn = puzzle.render(solution, args.format) if solution else "# no solution"
        pieces.append(f"== {number} solved\n{drawn}")
    return ("\n" if number > 1 else "") + "\n\n".join(pieces)


def stats(run: Run) -> int:
    """The notebook's table: the share of well-formed puzzles per size, with its 95%
    Wilson interval; the seed reset per size, the puzzles drawn in chunks
    (crossprolog.studies) and searched here, by --jobs workers or on a --cluster."""
    args = run.args
    sizes = [f"{rows}x{cols}" for rows, cols in args.sizes or named(args.family).sizes]
    chunks = [chunk for size in sizes for chunk in studies.chunks(
        args.family, *map(int, size.split("x")), args.n, args.seed, studies.STATS_CHUNK)]
    counts = dict.fromkeys(sizes, 0)
    progress = bar(total=len(sizes) * args.n, unit="puzzle", shown=sys.stderr.isatty())
    with closing(batch.results(studies.well_formed_count, chunks, args.jobs,
                               cluster=args.cluster)) as results:
        for index, well_formed in results:
            chunk = chunks[index]
            counts[f"{chunk.rows}x{chunk.cols}"] += _alive(well_formed)
            progress.update(chunk.count)
    progress.close()
    shares = {size: count / args.n for size, count in counts.items()}
    intervals = {size: studies.wilson(count, args.n) for size, count in counts.items()}
    if args.format == "json":
        print(json.dumps({"family": args.family, "n": args.n, "seed": args.seed,
                          "well_formed": shares, "interval_95": {
                              size: [round(low, 6), round(high, 6)] for size, (low, high) in intervals.items()}}))
        return OK
    decimals = studies.percent_decimals(args.n)
    print("size  well-formed")  # each share followed by its 95% interval
    for size, share in shares.items():
        low, high = intervals[size]
        print(f"{size:<5} {share:>{4 + decimals + bool(decimals)}.{decimals}%}  "
              f"({100 * low:.{decimals}f}-{high:.{decimals}%})")
    return OK
