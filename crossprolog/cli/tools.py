"""The commands around puzzles: export, compare, generate and stats."""

from __future__ import annotations

import json
import sys

from .. import batch, solving
from .. import compare as compare_module
from ..errors import ParseError, UsageError
from ..families import named
from ..puzzle import search_many
from ..registry import SUFFIXES, parse_piece, pieces
from ..registry import generate as generated
from .inputs import MAX_INPUT_BYTES, option_values, path_name, read_puzzle, read_text
from . import pictured
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
        batch.write_text(args.output, text)
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
        raise UsageError(f"--format {args.format} writes an {paradigm} encoding, and {name} is not one")
    return paradigms.exported(puzzle, paradigm, name, filename=args.output or f"puzzle{SUFFIXES[paradigm]}")


def compare(run: Run) -> int:
    """Every encoding on every puzzle of the inputs; exit 1 if any disagree, 2 if an input
    or a run failed.  Ctrl-C stops it with what finished reported (exit 130)."""
    args = run.args
    if args.plot:
        compare_module.checked_plot(args.plot)
        batch.check_writable(args.plot)
    if unknown := compare_module.unknown_encodings(args.encodings or []):
        raise UsageError(f"unknown encoding {', '.join(map(repr, unknown))}: no family has it")
    runs, codes = [], []
    try:
        _compare_all(args, runs, codes)
    except KeyboardInterrupt:
        _report_runs(args, runs)
        write(f"crossprolog: interrupted after {plural(len(runs), 'run')}", file=sys.stderr)
        return INTERRUPTED
    _report_runs(args, runs)
    return worst(codes)


def _compare_all(args, runs: list, codes: list[int]) -> None:
    """Compare on every puzzle of the inputs, adding to `runs` and exit `codes` as each ends."""
    paths = batch.expand(args.paths, SUFFIXES)
    progress = bar(paths, unit="puzzle", shown=len(paths) > 1 and sys.stderr.isatty())
    for path in progress:
        try:
            stdin = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1) if path == "-" else None
            found = pieces(read_text(path, stdin), family=args.family)
            puzzles = [(path_name(path) if len(found) == 1 else f"{path_name(path)}:{piece.line}",
                        parse_piece(piece, **option_values(args))) for piece in found]
        except ParseError as error:
            write(error.report(path_name(path, escaped=False)), file=sys.stderr)
            codes.append(BAD)
            continue
        for name, puzzle in puzzles:
            ran = compare_module.compare(puzzle, args.encodings, limit=args.limit,
                                         timeout=args.timeout, repeat=args.repeat, name=name)
            for measured in ran:
                if measured.error:
                    write(f"{name}: error: {measured.error}", file=sys.stderr)
            runs += ran
            if args.format == "json":  # JSON Lines need no alignment: each run as it ends
                for record in compare_module.records(ran):
                    write(json.dumps(record), file=sys.stdout)
                sys.stdout.flush()
            codes.append(BAD if any(measured.error for measured in ran)
                         else NO if any(measured.agrees is False for measured in ran) else OK)
    progress.close()


def _report_runs(args, runs: list) -> None:
    """The table (or JSON, or CSV) of `runs`, a summary per encoding over many puzzles,
    and the cactus plot."""
    summaries = compare_module.summaries(runs) if len(runs) > len({r.encoding for r in runs}) else []
    if args.format == "json":  # the runs were printed as they ended
        for record in compare_module.records([], summaries):
            print(json.dumps(record))
    elif args.format == "csv":
        print(compare_module.csv_text(runs, summaries), end="")
    elif runs:
        print(compare_module.table(runs))
        if summaries:
            print("\n" + compare_module.summary_table(summaries))
    if args.plot and runs:
        compare_module.cactus(runs, args.plot, args.timeout)


DIFFICULTY_TRIES = 200  # well-formed puzzles made, per puzzle asked, to find one of a grade


def generate(run: Run) -> int:
    """The puzzles, each after a line `== N` when there are several, so that the output
    reads back as they are (`crossprolog generate ... -n 5 | crossprolog check -`); as
    JSON, one object a line, the puzzle's text with the number of its givens and
    constraints.  With --with-solutions each puzzle's solution follows it (after a line
    `== N solved` in text), and reads back as that puzzle with every cell given."""
    args = run.args
    if args.out:
        pictured.check_target(args)
    if args.difficulty:  # well-formed puzzles made until n of that grade are found
        puzzles = solving.of_grade(generated(args.family, args.rows, args.cols, args.n * DIFFICULTY_TRIES,
                                             args.seed, well_formed=True, **option_values(args)),
                                   args.difficulty, args.n)
    else:
        puzzles = generated(args.family, args.rows, args.cols, args.n, args.seed,
                            well_formed=args.well_formed, **option_values(args))
    progress = bar(puzzles, total=args.n, unit="puzzle", shown=args.well_formed and sys.stderr.isatty())
    if pictured.wanted(args):
        return pictured.generated(args, progress)
    separated = args.n > 1 or args.with_solutions
    lines, number = [], 0
    for number, puzzle in enumerate(progress, start=1):
        solution = puzzle.solve() if args.with_solutions else None
        if args.format == "json":
            clues = puzzle.clues()
            givens = sum(clue.kind == "given" for clue in clues)
            record = {"family": args.family, "puzzle": puzzle.render(),
                      "givens": givens, "constraints": len(clues) - givens}
            if args.with_solutions:
                record["solution"] = solution.to_json() if solution else None
            lines.append(json.dumps(record))
            if not args.out:
                write(lines.pop(), file=sys.stdout)
            continue
        pieces = [(f"== {number}\n" if separated else "") + puzzle.render(format=args.format)]
        if args.with_solutions:
            drawn = puzzle.render(solution, args.format) if solution else "# no solution"
            pieces.append(f"== {number} solved\n{drawn}")
        lines.append(("\n" if number > 1 else "") + "\n\n".join(pieces))
        if not args.out:
            write(lines.pop(), file=sys.stdout)
    if args.out:
        batch.write_text(args.out, "".join(line + "\n" for line in lines))
    if args.difficulty and number < args.n:
        print(f"crossprolog: only {number} of {args.n} {args.difficulty} puzzles among the "
              f"{args.n * DIFFICULTY_TRIES} well-formed ones made (see docs/hints.md for each family's grades)",
              file=sys.stderr)
        return NO
    return OK


def stats(run: Run) -> int:
    """The notebook's table: the share of well-formed puzzles, the seed reset per size."""
    args = run.args
    record = named(args.family)
    shares = {}
    sizes = args.sizes or record.sizes
    for rows, cols in bar(sizes, unit="size", shown=sys.stderr.isatty()):
        puzzles = list(record.generator(rows, cols, args.n, args.seed))
        well_formed = sum(found.count == 1 for found in search_many(puzzles, limit=2, keep=False))
        shares[f"{rows}x{cols}"] = well_formed / args.n
    if args.format == "json":
        print(json.dumps({"family": args.family, "n": args.n, "seed": args.seed,
                          "well_formed": shares}))
    else:
        print("size  well-formed")
        for size, share in shares.items():
            print(f"{size:<5} {share:>4.0%}")
    return OK
