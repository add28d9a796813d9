"""The commands around puzzles: export and compare (generate and stats: cli/generating)."""

from __future__ import annotations

import json
import sys
import time
from contextlib import closing
from functools import partial

from .. import batch, engine, results_files, studies
from .. import compare as compare_module, compare_report
from ..errors import CrossprologError, Interrupted, ParseError, UsageError
from ..registry import SUFFIXES, parse_piece, read_pieces
from .inputs import load_encodings, option_values, path_name, read_puzzle, read_text
from . import limits
from .report import BAD, INTERRUPTED, NO, OK, bar, plural, worst, write
from .state import Run


def export(run: Run) -> int:
    args = run.args
    try:
        puzzle = read_puzzle(args.path, run.args)
    except ParseError as error:
        print(error.report(path_name(args.path, escaped=False)), file=sys.stderr)
        return BAD
    if args.readable and args.encoding:
        raise UsageError("--readable writes the puzzle's own constraints: it takes no --encoding")
    from ..paradigms import export as paradigms  # loaded by the command that uses it: start-up time

    paradigm = paradigms.paradigm_for(args.encoding, args.format)
    if paradigm:
        text = _exported_paradigm(puzzle, paradigm, args)
    else:
        from .. import export as exporting

        filename = args.output or "puzzle.pl"
        text = (exporting.readable(puzzle, filename=filename) if args.readable
                else exporting.program(puzzle, args.encoding, filename=filename))
    if args.output is None:
        print(text, end="")
    else:
        results_files.check_writable(args.output, [args.path])
        results_files.write_text(args.output, text)
    return OK


def _exported_paradigm(puzzle, paradigm: str, args) -> str:
    """`export --format lp|mzn`: the ASP program or MiniZinc model with the puzzle's
    facts or data; UsageError for an encoding or option of another kind."""
    from .. import engine
    from ..paradigms import SUFFIXES, export as paradigms

    if args.readable:
        raise UsageError("--readable writes Prolog goals; --format lp and mzn write the "
                         "encoding with the puzzle's facts or data")
    name = engine.checked_encoding(puzzle.record.prolog, args.encoding or paradigm)
    if paradigms.paradigm_for(name, None) != paradigm:
        written = {"asp": "an ASP program", "minizinc": "a MiniZinc model"}[paradigm]
        raise UsageError(f"--format {args.format} writes {written}, and {name} is not one")
    return paradigms.exported(puzzle, paradigm, name, filename=args.output or f"puzzle{SUFFIXES[paradigm]}")


def compare(run: Run) -> int:
    """Every encoding on every puzzle of the inputs; exit 1 if any disagree, 2 if an input
    or a run failed.  Ctrl-C stops it with what finished reported (exit 130)."""
    args = run.args
    if args.plot:
        compare_report.checked_plot(args.plot)
        results_files.check_writable(args.plot, args.paths)
    if "" in (args.encodings or ()):
        raise UsageError(f"--encodings: names separated by commas, not {','.join(args.encodings)!r}")
    if unknown := compare_module.unknown_encodings(args.encodings or []):
        raise UsageError(f"unknown encoding {', '.join(map(repr, unknown))}: no family has it")
    runs, records, codes = [], [], []
    try:
        _compare_all(run, runs, records, codes)
    except KeyboardInterrupt:
        with engine.stops_ignored():  # what finished is saved and reported whole
            _report_runs(args, runs, records)
            write(f"crossprolog: interrupted after {plural(len(runs), 'run')}", file=sys.stderr)
            return INTERRUPTED
    _report_runs(args, runs, records)
    return worst(codes)


def _compare_all(run: Run, runs: list, records: list[dict], codes: list[int]) -> None:
    """Compare on every puzzle of the inputs, adding to `runs`, `records` (the runs' and
    those of the puzzles not compared, which --format json prints as they come) and exit
    `codes` as each ends (in the order of the inputs, whether here, by --jobs workers or
    on a --cluster).

    A lone puzzle is compared here, where a watchdog that ends a stuck run
    ends the command, reporting the runs so far; several, with a time limit,
    in workers, where it ends the worker and the others go on.
    """
    args = run.args
    items = _compared_items(args)
    several = len(items) > 1
    progress = bar(total=len(items), unit="puzzle", shown=several and sys.stderr.isatty())

    def kept(new: list[dict]) -> None:
        records.extend(new)
        if args.format == "json":  # JSON Lines need no alignment: each record as its puzzle ends
            for record in new:
                write(json.dumps(record), file=sys.stdout)
            sys.stdout.flush()

    def took(name: str, ran: list) -> None:
        for measured in ran:
            if measured.error:
                write(f"{name}: error: {measured.error}", file=sys.stderr)
        runs.extend(ran)
        kept(compare_report.records(ran))
        codes.append(BAD if any(measured.error for measured in ran)
                     else NO if any(measured.agrees is False for measured in ran) else OK)

    def failed(name: str, report: str, error: str) -> None:  # a puzzle not compared
        write(report, file=sys.stderr)
        kept([compare_report.error_record(name, error)])
        codes.append(BAD)

    def finish_alone(ran: list) -> None:  # the watchdog's report, before it ends the command
        took(items[0][0], ran)
        _report_runs(args, runs, records)

    run.single = not several
    run.finish = None if several else finish_alone
    with closing(batch.results(partial(_compared, run), items, args.jobs,
                               isolated=several and args.timeout is not None,
                               cluster=args.cluster if several else None)) as results:
        try:
            for index, ran in studies.in_order(results):
                progress.update()
                name, _, report = items[index]
                if isinstance(ran, CrossprologError):  # its worker died, or no encoding is for it
                    failed(name, f"{name}: error: {ran}", f"{name}: {ran}")
                elif report:  # it cannot be read
                    failed(name, report, report)
                else:
                    took(name, ran)
        except Interrupted as stop:  # a lone puzzle, compared here: the runs that finished
            if not several and isinstance(stop.found, list):
                took(items[0][0], stop.found)
            raise
    progress.close()


def _compared_items(args) -> list[tuple[str, object, str]]:
    """(name, puzzle, "") for every puzzle of the inputs, and (name, None, report) for
    an input, or a puzzle of one, that cannot be read."""
    items = []
    for path in batch.expand(args.paths, SUFFIXES):
        try:
            found = read_pieces(read_text(path), args.family, **option_values(args))
        except ParseError as error:
            items.append((path, None, error.report(path_name(path, escaped=False))))
            continue
        for piece, puzzle in found:  # a malformed one is reported, the others compared
            name = path_name(path) if len(found) == 1 else f"{path_name(path)}:{piece.line}"
            try:
                items.append((name, puzzle or parse_piece(piece, **option_values(args)), ""))
            except ParseError as error:
                items.append((name, None, error.report(path_name(path, escaped=False))))
    return items


def _compared(run: Run, item: tuple[str, object, str]):
    """compare's runs on one puzzle (none for an input that could not be read), or the
    UsageError it raised (none of the encodings named is for it), for the command to
    report; each search held to --timeout by a watchdog (see _compare_all)."""
    name, puzzle, report = item
    if report:
        return []
    args = run.args

    def guard(stuck):
        return limits.watchdog(run, args.timeout, stuck, grace=limits.STUCK_GRACE, code=BAD)

    try:
        load_encodings(args, time.monotonic())  # in a worker, once: its own Prolog
        return compare_module.compare(puzzle, args.encodings, limit=args.limit, timeout=args.timeout,
                                      repeat=args.repeat, name=name, guard=guard)
    except UsageError as error:
        return error


def _report_runs(args, runs: list, records: list[dict]) -> None:
    """The table of `runs` (or, as JSON or CSV, the `records` of the runs and of the
    puzzles not compared), a summary per encoding over many puzzles, and the cactus plot."""
    summaries = compare_report.summaries(runs) if len(runs) > len({r.encoding for r in runs}) else []
    if args.format == "json":  # the records were printed as their puzzles ended
        for record in compare_report.records([], summaries):
            print(json.dumps(record))
    elif args.format == "csv":
        print(compare_report.csv_text(records + compare_report.records([], summaries)), end="")
    elif runs:
        print(compare_report.table(runs))
        if summaries:
            print("\n" + compare_report.summary_table(summaries))
    if args.plot and runs:
        compare_report.cactus(runs, args.plot, args.timeout)
