"""The `crossprolog` command.

Exit codes: 0 solved or well-formed, 1 no solution or not well-formed (or,
for compare, encodings that disagree), 2 bad input or usage, 3 time or
resource limit reached.  Several inputs give the worst of their codes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterable, Sequence

from tqdm import tqdm

from . import batch, compare, explain, export
from .errors import CrossprologError, ParseError, TimeLimitExceeded
from .grammars.common import MAX_TEXT_CHARS, decode
from .puzzle import Marks, Puzzle, search_many
from .registry import BY_NAME, FAMILIES, generate, named, parse

OK, NO, BAD, LIMIT = 0, 1, 2, 3
DIAGNOSIS_SECONDS = 10.0  # for why a puzzle has no solution, or several, when no --timeout is given
MAX_INPUT_BYTES = 4 * MAX_TEXT_CHARS  # a UTF-8 character takes at most 4
SEVERITY = [OK, NO, LIMIT, BAD]  # mildest first


def worst(codes: Iterable[int]) -> int:
    return max(codes, key=SEVERITY.index, default=OK)


@dataclass
class Outcome:
    """What one command did for one input: its exit code, output, JSON record and error."""

    code: int
    text: str
    record: dict
    error: str = ""  # for standard error


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("crossprolog: interrupted", file=sys.stderr)
        return 130
    except CrossprologError as error:
        print(f"crossprolog: error: {error}", file=sys.stderr)
        return error.exit_code
    except BrokenPipeError:
        return OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crossprolog",
        description="Solve arithmetic grid puzzles typed as text, with CLP(FD) in SWI-Prolog.",
        epilog="families: " + "; ".join(f"{f.name} ({f.summary})" for f in FAMILIES))
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def puzzle_command(name: str, run: Callable, help: str) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help, description=help)
        command.add_argument("paths", nargs="+", metavar="PATH",
                             help="puzzle file, directory of puzzle files (*.txt, *.md), "
                                  "or - for standard input")
        command.add_argument("--format", choices=["text", "markdown", "json"], default=None,
                             help="output format (default: the layout the puzzle came in; json for data)")
        command.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                             help="stop searching after this many seconds (exit code 3)")
        _puzzle_arguments(command)
        command.add_argument("--jobs", type=_positive, default=1, metavar="N",
                             help="solve N puzzles at a time, in worker processes")
        command.add_argument("--out", default=None, metavar="FILE",
                             help="write one JSON record per input to FILE (JSON Lines, "
                                  "written whole or not at all) and print only a summary")
        command.set_defaults(run=run)
        return command

    solve = puzzle_command("solve", _solve, "print the puzzle solved, in the layout it came in")
    solve.add_argument("--all", action="store_true", help="print every solution")
    count = puzzle_command("count", _count, "count the solutions")
    count.add_argument("--limit", type=_positive, default=0, metavar="N",
                       help="stop counting at N (and say so)")
    puzzle_command("check", _check, "is the puzzle well-formed (exactly one solution)? "
                                    "If not, why not")
    hint = puzzle_command("hint", _hint, "show one cell whose value is forced, and why")
    hint.add_argument("--all", action="store_true", help="every forced cell")

    export = commands.add_parser("export", help="write a standalone Prolog program for a puzzle",
                                 description="write a standalone Prolog program that solves the "
                                             "puzzle with plain `swipl FILE`")
    export.add_argument("path", metavar="PATH", help="puzzle file, or - for standard input")
    _puzzle_arguments(export)
    export.add_argument("-o", "--output", default=None, metavar="FILE",
                        help="write here instead of standard output")
    export.set_defaults(run=_export)

    compare = commands.add_parser("compare", help="run every encoding on every puzzle",
                                  description="run every encoding on every puzzle: time, Prolog "
                                              "inferences, solutions seen, agreement")
    compare.add_argument("paths", nargs="+", metavar="PATH")
    compare.add_argument("--encodings", type=lambda text: text.split(","), default=None,
                         metavar="A,B,C", help="these encodings only (default: all of the family's)")
    compare.add_argument("--limit", type=_positive, default=2, metavar="N",
                         help="solutions to look for (default 2: find one, decide uniqueness)")
    compare.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                         help="per encoding and puzzle")
    _puzzle_arguments(compare, encoding=False)
    compare.add_argument("--format", choices=["text", "json"], default="text")
    compare.set_defaults(run=_compare)

    makers = [f.name for f in FAMILIES if f.generator]
    generate = commands.add_parser("generate", help="print random puzzles",
                                   description="print random puzzles made by the family's generator")
    generate.add_argument("family", choices=makers)
    generate.add_argument("--rows", type=_positive, required=True)
    generate.add_argument("--cols", type=_positive, required=True)
    generate.add_argument("-n", type=_positive, default=1, help="how many puzzles (default 1)")
    generate.add_argument("--seed", type=int, default=None)
    generate.add_argument("--well-formed", action="store_true",
                          help="each puzzle with exactly one solution and no clue to spare")
    generate.add_argument("--format", choices=["text", "markdown", "json"], default="text")
    generate.set_defaults(run=_generate)

    stats = commands.add_parser("stats", help="share of well-formed random puzzles per size")
    stats.add_argument("family", choices=makers)
    stats.add_argument("--sizes", type=_sizes, default=None, metavar="RxC,...",
                       help="sizes to look at (default: the family's own list)")
    stats.add_argument("-n", type=_positive, default=200, help="puzzles per size (default 200)")
    stats.add_argument("--seed", type=int, default=42)
    stats.add_argument("--format", choices=["text", "json"], default="text")
    stats.set_defaults(run=_stats)
    return parser


def _puzzle_arguments(command: argparse.ArgumentParser, encoding: bool = True) -> None:
    """--family, --encoding and every family's options, as the records declare them."""
    command.add_argument("--family", choices=list(BY_NAME), default=None,
                         help="read the input as this family (default: guessed from the layout)")
    if encoding:
        command.add_argument("--encoding", default=None, metavar="NAME",
                             help="the CLP(FD) encoding to use (default: the family's own)")
    for name, owners in _options().items():
        option = owners[0][1]
        titles = "/".join(record.title for record, _ in owners)
        help = f"{titles}: {option.help} (overrides '# {name}:' in the file)"
        if option.flag:
            command.add_argument(f"--{name}", dest=option.key, action="store_const", const=True,
                                 default=None, help=help)
        else:
            choices = option.choices if all(o.choices == option.choices for _, o in owners) else ()
            command.add_argument(f"--{name}", dest=option.key, default=None, choices=choices or None,
                                 metavar="VALUE" if not choices else None, help=help)


def _options() -> dict[str, list[tuple]]:
    """Every option name any family declares, with the families (and options) behind it."""
    options: dict[str, list[tuple]] = {}
    for record in FAMILIES:
        for option in record.options:
            options.setdefault(option.name, []).append((record, option))
    return options


def _option_values(args) -> dict[str, object]:
    """The family options given on the command line, by model keyword (None: not given)."""
    return {owners[0][1].key: getattr(args, owners[0][1].key) for owners in _options().values()}


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be a positive integer")
    return value


def _sizes(text: str) -> list[tuple[int, int]]:
    try:
        sizes = [tuple(int(n) for n in size.lower().replace("×", "x").split("x")) for size in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or any(len(size) != 2 or min(size) < 1 for size in sizes):
        raise argparse.ArgumentTypeError(f"expected sizes like 3x3,4x5, not {text!r}")
    return sizes  # type: ignore[return-value]


# Commands over puzzle files


def _solve(args) -> int:
    return _each_puzzle(args, _solve_one)


def _count(args) -> int:
    return _each_puzzle(args, _count_one)


def _check(args) -> int:
    return _each_puzzle(args, _check_one)


def _hint(args) -> int:
    return _each_puzzle(args, _hint_one)


def _each_puzzle(args, command: Callable[[Puzzle, argparse.Namespace], Outcome]) -> int:
    """Run `command` on every input and report as the outcomes come; return the worst exit code.

    Outputs keep the order of the inputs, whatever order the workers finish in.
    After Ctrl-C the finished records are still written to --out.
    """
    if args.out:
        batch.check_writable(args.out)
    paths = batch.expand(args.paths)
    stdin = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1) if "-" in paths else None
    items = [(_name(path), path, stdin if path == "-" else None) for path in paths]
    several = len(items) > 1
    args.live = not several and args.out is None  # --all may print solutions as they come
    outcomes: dict[int, Outcome] = {}
    shown = 0
    progress = tqdm(total=len(items), unit="puzzle", file=sys.stderr, leave=False,
                    disable=not (several and sys.stderr.isatty()))
    try:
        for index, outcome in batch.results(partial(_outcome, command, args), items, args.jobs):
            outcomes[index] = outcome
            progress.update()
            while shown in outcomes:
                _show(outcomes[shown], items[shown][0], several, args)
                shown += 1
    except KeyboardInterrupt:
        progress.close()
        if args.out:
            _write_records(args.out, items, outcomes)
        finished = f" after {len(outcomes)} of {_plural(len(items), 'puzzle')}" if several else ""
        kept = f"; their records are in {args.out}" if args.out and outcomes else ""
        print(f"crossprolog: interrupted{finished}{kept}", file=sys.stderr)
        return 130
    progress.close()
    if args.out:
        _write_records(args.out, items, outcomes)
        statuses = Counter(outcome.record["status"] for outcome in outcomes.values())
        print(f"{args.out}: {_plural(len(items), 'record')} "
              f"({', '.join(f'{n} {status}' for status, n in statuses.items())})")
    return worst(outcome.code for outcome in outcomes.values())


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _outcome(command: Callable[[Puzzle, argparse.Namespace], Outcome], args,
             item: tuple[str, str, bytes | None]) -> Outcome:
    """What `command` does for one input; every error a user can cause becomes an Outcome."""
    name, path, data = item
    try:
        puzzle = _read_puzzle(path, args, data)
        return command(puzzle, args)
    except ParseError as error:
        return Outcome(BAD, "", {"status": "error", "error": error.report(name)}, error.report(name))
    except CrossprologError as error:
        return Outcome(error.exit_code, "", {"status": "error", "error": f"{name}: {error}"},
                       f"{name}: error: {error}")


def _show(outcome: Outcome, name: str, several: bool, args) -> None:
    """Print one input's outcome: its error, and unless --out takes the records, its output."""
    if outcome.error:
        tqdm.write(outcome.error, file=sys.stderr)
    if args.out:
        return
    if args.format == "json":
        record = {"path": name, **outcome.record} if several else outcome.record
        tqdm.write(json.dumps(record), file=sys.stdout)
    elif outcome.text:
        tqdm.write(f"== {name}\n{outcome.text}" if several else outcome.text, file=sys.stdout)
    sys.stdout.flush()


def _write_records(path: str, items, outcomes: dict[int, Outcome]) -> None:
    batch.write_jsonl(path, ({"path": items[index][0], **outcomes[index].record}
                             for index in sorted(outcomes)))


def _read_puzzle(path: str, args, data: bytes | None = None) -> Puzzle:
    """The puzzle in the file at `path` (or in `data`, the bytes of standard input)."""
    if data is None and path == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    elif data is None:
        if os.path.isdir(path):
            raise ParseError("a directory without puzzle files (*.txt, *.md)")
        try:
            with open(path, "rb") as file:
                data = file.read(MAX_INPUT_BYTES + 1)
        except OSError as error:
            raise ParseError(f"cannot read the file: {error.strerror}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise ParseError(f"the input has more than {MAX_INPUT_BYTES:,} bytes: too big for a puzzle")
    return parse(decode(data), family=args.family, **_option_values(args))


def _solve_one(puzzle: Puzzle, args) -> Outcome:
    if args.all:
        return _solve_all(puzzle, args)
    found = puzzle.search(limit=1, timeout=args.timeout, encoding=args.encoding)
    solution = found.solutions[0] if found.solutions else None
    record = {"family": puzzle.family, "status": _status(found.status, solution is not None),
              "solution": solution.to_json() if solution else None, "seconds": found.seconds,
              **(puzzle.solution_extras(solution) if solution else {})}
    if found.status == "timeout":
        return Outcome(LIMIT, f"time limit of {args.timeout:g} s reached", record)
    if solution is None:
        return _no_solution(puzzle, args, record, "no solution")
    return Outcome(OK, puzzle.render(solution, _layout(args)), record)


def _no_solution(puzzle: Puzzle, args, record: dict, heading: str) -> Outcome:
    """What to say of a puzzle without solution: the clues to blame, marked in its layout."""
    try:
        clues = explain.conflict(puzzle, timeout=args.timeout or DIAGNOSIS_SECONDS,
                                 encoding=args.encoding)
    except TimeLimitExceeded:
        return Outcome(NO, f"{heading} (no small set of clues to blame was found in time)",
                       {**record, "conflict": None})
    drawing = puzzle.render(format=_layout(args), marks=Marks(clues=frozenset(clues)))
    return Outcome(NO, f"{heading}: {explain.conflict_sentence(clues)}\n{drawing}",
                   {**record, "conflict": [clue.to_json() for clue in clues]})


def _solve_all(puzzle: Puzzle, args) -> Outcome:
    """Every solution; a lone puzzle's text output shows each as soon as it is found."""
    solutions, drawings = [], []
    timed_out = False
    start = time.perf_counter()
    try:
        for solution in puzzle.solutions(timeout=args.timeout, encoding=args.encoding):
            solutions.append(solution)
            if args.format != "json":
                drawings.append(puzzle.render(solution, _layout(args)))
                if args.live:
                    print(("\n" if len(drawings) > 1 else "") + drawings[-1], flush=True)
    except TimeLimitExceeded:
        timed_out = True
    seconds = round(time.perf_counter() - start, 6)
    status = "timeout" if timed_out else ("solved" if solutions else "unsolvable")
    record = {"family": puzzle.family, "status": status,
              "solution": solutions[0].to_json() if solutions else None,
              "solutions": [s.to_json() for s in solutions], "count": len(solutions),
              "seconds": seconds, **(puzzle.solution_extras(solutions[0]) if solutions else {})}
    earlier = "\n" if args.live else "".join(drawing + "\n\n" for drawing in drawings)
    if timed_out:
        return Outcome(LIMIT, f"{earlier}time limit of {args.timeout:g} s reached after "
                              f"{_plural(len(solutions), 'solution')}", record)
    if not solutions:
        return Outcome(NO, "no solution", record)
    return Outcome(OK, earlier + _plural(len(solutions), "solution"), record)


def _count_one(puzzle: Puzzle, args) -> Outcome:
    found = puzzle.search(limit=args.limit, timeout=args.timeout, encoding=args.encoding, keep=False)
    complete = found.status == "complete"
    record = {"family": puzzle.family, "count": found.count, "complete": complete,
              "status": found.status, "seconds": found.seconds}
    if found.status == "timeout":
        return Outcome(LIMIT, f"at least {_plural(found.count, 'solution')} "
                              f"(time limit of {args.timeout:g} s reached)", record)
    text = (_plural(found.count, "solution") if complete
            else f"at least {_plural(found.count, 'solution')} (stopped at --limit {args.limit})")
    return Outcome(OK if found.count else NO, text, record)


def _check_one(puzzle: Puzzle, args) -> Outcome:
    found = puzzle.search(limit=2, timeout=args.timeout, encoding=args.encoding)
    well_formed = found.status != "timeout" and found.count == 1
    record = {"family": puzzle.family, "well_formed": well_formed, "count": found.count,
              "status": found.status, "seconds": found.seconds}
    if found.status == "timeout":
        return Outcome(LIMIT, f"undecided: time limit of {args.timeout:g} s reached "
                              f"after {_plural(found.count, 'solution')}", record)
    if well_formed:
        return Outcome(OK, "well-formed: exactly one solution", record)
    if found.count == 0:
        return _no_solution(puzzle, args, record, "not well-formed: no solution")
    return _several(puzzle, args, record, *found.solutions)


def _several(puzzle: Puzzle, args, record: dict, first, second) -> Outcome:
    """Two solutions, where they differ (marked), and a clue that would leave one."""
    seen = explain.ambiguity(puzzle, first, second, timeout=args.timeout or DIAGNOSIS_SECONDS,
                             encoding=args.encoding)
    marks = Marks(cells=frozenset(seen.difference))
    drawings = [puzzle.render(s, _layout(args), marks=marks) for s in seen.solutions]
    advice = (f"{seen.suggestion}, and only the {('first', 'second')[seen.leaves]} is left"
              if seen.suggestion else "no one more clue makes the solution unique")
    text = (f"not well-formed: more than one solution; two of them, differing at "
            f"{_plural(len(seen.difference), 'cell')} (in brackets):\n{drawings[0]}\n\n"
            f"{drawings[1]}\n{advice}")
    return Outcome(NO, text, {**record, "solutions": [s.to_json() for s in seen.solutions],
                              "difference": [list(cell) for cell in seen.difference],
                              "suggestion": seen.suggestion})


def _hint_one(puzzle: Puzzle, args) -> Outcome:
    """A forced cell (every forced cell with --all), placed in the layout below its reason
    as a comment, so the output reads back in as the next step's puzzle."""
    try:
        found = explain.hint(puzzle, every=args.all, timeout=args.timeout, encoding=args.encoding)
    except TimeLimitExceeded:
        return Outcome(LIMIT, f"time limit of {args.timeout:g} s reached",
                       {"family": puzzle.family, "status": "timeout", "cells": []})
    record = {"family": puzzle.family, "status": found.status,
              "cells": [forced.to_json() for forced in found.cells]}
    if found.status == "unsolvable":
        return _no_solution(puzzle, args, record, "no solution, so no hint")
    if found.status == "none":
        return Outcome(NO, "no cell is forced: every open cell takes more than one value "
                           "across the solutions", record)
    if found.status == "solved":
        return Outcome(OK, "nothing is left open", record)
    placed = puzzle.placing({forced.cell: forced.value for forced in found.cells})
    reasons = [f"# {forced.reason}" for forced in found.cells]
    return Outcome(OK, "\n".join(reasons + [placed.render(format=_layout(args))]), record)


def _status(search_status: str, solved: bool) -> str:
    if search_status == "timeout":
        return "timeout"
    return "solved" if solved else "unsolvable"


def _layout(args) -> str | None:
    return args.format if args.format in ("text", "markdown") else None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


# Encodings


def _export(args) -> int:
    name = _name(args.path)
    try:
        puzzle = _read_puzzle(args.path, args)
    except ParseError as error:
        print(error.report(name), file=sys.stderr)
        return BAD
    filename = args.output or "puzzle.pl"
    text = export.program(puzzle, args.encoding, filename=filename)
    if args.output is None:
        print(text, end="")
    else:
        batch.write_atomically(args.output, text)
    return OK


def _compare(args) -> int:
    rows, codes = [], []
    for path in args.paths:
        try:
            puzzle = _read_puzzle(path, args)
        except ParseError as error:
            print(error.report(path), file=sys.stderr)
            codes.append(BAD)
            continue
        runs = compare.compare(puzzle, args.encodings, limit=args.limit, timeout=args.timeout)
        rows += [(path, run) for run in runs]
        codes.append(OK if all(run.agrees is not False for run in runs) else NO)
    if args.format == "json":
        for path, run in rows:
            print(json.dumps(compare.as_json(path, run)))
    elif rows:
        print(compare.table(rows))
    return worst(codes)


# Random puzzles


def _generate(args) -> int:
    puzzles = generate(args.family, args.rows, args.cols, args.n, args.seed,
                       well_formed=args.well_formed)
    progress = tqdm(puzzles, total=args.n, unit="puzzle", file=sys.stderr, leave=False,
                    disable=not (args.well_formed and sys.stderr.isatty()))
    for number, puzzle in enumerate(progress):
        if args.format == "json":
            clues = puzzle.clues()
            givens = sum(clue.kind == "given" for clue in clues)
            tqdm.write(json.dumps({"family": args.family, "puzzle": puzzle.render(),
                                   "givens": givens, "constraints": len(clues) - givens}),
                       file=sys.stdout)
        else:
            tqdm.write(("\n" if number else "") + puzzle.render(format=args.format), file=sys.stdout)
    return OK


def _stats(args) -> int:
    """The notebook's table: the share of well-formed puzzles, the seed reset per size."""
    record = named(args.family)
    shares = {}
    for rows, cols in args.sizes or record.sizes:
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
