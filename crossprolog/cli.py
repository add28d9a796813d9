"""The `crossprolog` command.

Exit codes: 0 solved or well-formed, 1 no solution or not well-formed (or,
for compare, encodings that disagree), 2 bad input or usage, 3 time or
resource limit reached, 130 interrupted (Ctrl-C).  Several inputs give the
worst of their codes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import threading
import time
from collections import Counter
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterable, Iterator, Sequence

from . import batch, engine, output
from . import compare as compare_module
from .batch import WorkerDied
from .errors import (CrossprologError, Interrupted, ParseError, TimeLimitExceeded, UsageError,
                     printable)
from .grammars.common import MAX_TEXT_CHARS, decode
from .puzzle import Marks, Puzzle, Search, search_many
from .registry import BY_NAME, FAMILIES, SUFFIXES, Piece, generate, named, parse_piece, pieces

OK, NO, BAD, LIMIT, INTERRUPTED = 0, 1, 2, 3, 130
DIAGNOSIS_SECONDS = 10.0  # for why a puzzle has no solution, or several, when no --timeout is given
MAX_INPUT_BYTES = 4 * MAX_TEXT_CHARS  # a UTF-8 character takes at most 4
SEVERITY = [OK, NO, LIMIT, BAD, INTERRUPTED]  # mildest first


def worst(codes: Iterable[int]) -> int:
    return max(codes, key=SEVERITY.index, default=OK)


@dataclass
class Outcome:
    """What one command did for one input: its exit code, output, JSON record and error."""

    code: int
    text: str
    record: dict
    error: str = ""  # for standard error


def main(argv: Sequence[str] | None = None, started: float | None = None) -> int:
    """Run the command `argv` (default: the process's arguments); its exit code.
    `started` (time.monotonic) is when the command began, for --timeout: now by default."""
    started = started or time.monotonic()
    output.checked_stdout()
    try:
        args = _parser().parse_args(argv)  # --help and --version write too
        args.started = started
        _load_encodings(args)
        code = args.run(args)
        output.flushed()
        return code
    except KeyboardInterrupt:
        print("crossprolog: interrupted", file=sys.stderr)
        return INTERRUPTED
    except CrossprologError as error:
        print(f"crossprolog: error: {error}", file=sys.stderr)
        return error.exit_code
    except OSError as error:  # standard output onto a full disk, or a closed pipe
        return output.failed(error)


def _parser() -> argparse.ArgumentParser:
    parser = output.Parser(
        prog="crossprolog",
        description="Solve arithmetic grid puzzles typed as text, with CLP(FD) in SWI-Prolog.",
        epilog="families: " + "; ".join(f"{f.name} ({f.summary})" for f in FAMILIES))
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the versions of crossprolog, SWI-Prolog, janus and Python")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def puzzle_command(name: str, run: Callable, help: str) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help, description=help)
        command.add_argument("paths", nargs="+", metavar="PATH",
                             help="puzzle file (one puzzle, or several, each after a line '== NAME'), "
                                  f"directory of puzzle files ({', '.join('*' + s for s in SUFFIXES)}), "
                                  "or - for standard input")
        command.add_argument("--format", choices=["text", "markdown", "json"], default=None,
                             help="output format (default: the layout the puzzle came in; json for data)")
        command.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                             help="give each puzzle this many seconds, reading it included; a "
                                  "lone puzzle's command ends by then (exit code 3)")
        _puzzle_arguments(command)
        command.add_argument("--jobs", type=_positive, default=1, metavar="N",
                             help="solve N puzzles at a time, in worker processes")
        command.add_argument("--out", default=None, metavar="FILE",
                             help="write one JSON record per puzzle to FILE (JSON Lines, each as "
                                  "it is done, to a temporary FILE.*.partial until the end) and print "
                                  "only a summary")
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

    export = commands.add_parser("export", help="write a self-contained Prolog program for a puzzle",
                                 description="write one Prolog file that solves the puzzle with "
                                             "plain `swipl FILE` on any machine with SWI-Prolog 9: "
                                             "the encoding's module inlined, or with --readable the "
                                             "puzzle's own constraints as CLP(FD) goals")
    export.add_argument("path", metavar="PATH", help="puzzle file, or - for standard input")
    _puzzle_arguments(export)
    export.add_argument("--readable", action="store_true",
                        help="write the puzzle's constraints one per line, a variable per cell "
                             "named for its place (R2C3), then the labeling")
    export.add_argument("-o", "--output", default=None, metavar="FILE",
                        help="write here instead of standard output")
    export.set_defaults(run=_export)


    compare = commands.add_parser("compare", help="run every encoding on every puzzle, as a benchmark",
                                  description="run every encoding on every puzzle: times (median, "
                                              "min, max of the repeats), CPU, Prolog inferences, "
                                              "the labeling's choices and backtracks, solutions "
                                              "seen and whether they agree; a summary per "
                                              "encoding over many puzzles")
    compare.add_argument("paths", nargs="+", metavar="PATH",
                         help="puzzle file (or several puzzles, each after a line '== NAME'), "
                              "or directory of puzzle files")
    compare.add_argument("--encodings", type=lambda text: text.split(","), default=None,
                         metavar="A,B,C", help="these encodings only (default: all of the family's, "
                                               "and those of --encoding-file)")
    compare.add_argument("--limit", type=_count_limit, default=2, metavar="N",
                         help="solutions to look for (default 2: find one, decide uniqueness; 0: all)")
    compare.add_argument("--timeout", type=_seconds, default=compare_module.TIMEOUT, metavar="SECONDS",
                         help=f"per encoding, puzzle and repeat (default {compare_module.TIMEOUT:g})")
    compare.add_argument("--repeat", type=_positive, default=compare_module.REPEAT, metavar="N",
                         help=f"time each run N times (default {compare_module.REPEAT})")
    _puzzle_arguments(compare, encoding=False)
    compare.add_argument("--format", choices=["text", "json", "csv"], default="text")
    compare.add_argument("--plot", default=None, metavar="FILE.svg",
                         help="also write a cactus plot (.svg or .png): puzzles solved against time")
    compare.set_defaults(run=_compare)

    makers = [f.name for f in FAMILIES if f.generator_name]
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
    _option_arguments(generate, "the rules the puzzles follow")
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
    """--family, --encoding, --encoding-file and every family's options, as the records
    declare them."""
    command.add_argument("--family", choices=list(BY_NAME), default=None,
                         help="read the input as this family (default: guessed from the layout)")
    if encoding:
        command.add_argument("--encoding", default=None, metavar="NAME",
                             help="the CLP(FD) encoding to use (default: the family's own)")
    command.add_argument("--encoding-file", action="append", default=[], metavar="FILE.pl",
                         help="load your own encoding: a Prolog module exporting model/3, "
                              "named by its module (repeatable)")
    _option_arguments(command, "overrides '# {name}:' in the file")


def _option_arguments(command: argparse.ArgumentParser, note: str) -> None:
    """Every family's options, as the records declare them; `note` ends their help."""
    for name, owners in _options().items():
        option = owners[0][1]
        titles = "/".join(record.title for record, _ in owners)
        help = f"{titles}: {option.help} ({note.format(name=name)})"
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


def _load_encodings(args, started: float | None = None) -> None:
    """Load the user's encodings the command names (once per process: workers load them
    too), within the --timeout counted from `started` (the command's start by default)."""
    for path in getattr(args, "encoding_file", ()):
        engine.load_encoding(path, timeout=_remaining(getattr(args, "timeout", None),
                                                      started or args.started))


def _option_values(args) -> dict[str, object]:
    """The family options given on the command line, by model keyword (None: not given)."""
    return {owners[0][1].key: getattr(args, owners[0][1].key) for owners in _options().values()}


def _seconds(text: str) -> float:
    value = float(text)
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError("must be a positive, finite number of seconds")
    return value


def _count_limit(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (no limit) or a positive integer")
    return value


class _Version(argparse.Action):
    """--version: crossprolog's, and that of what it runs on (SWI-Prolog started to ask)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib import metadata

        print(f"crossprolog {metadata.version('crossprolog')} (SWI-Prolog {engine.prolog_version()}, "
              f"janus-swi {metadata.version('janus-swi')}, Python {sys.version.split()[0]})", flush=True)
        parser.exit()


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


@dataclass(frozen=True)
class Input:
    """One puzzle among a command's inputs: its piece of text, or why there is none."""

    path: str           # its file ("-": standard input), as its errors name it
    name: str           # what output calls it: the file, or FILE:LINE for one of several in it
    keys: dict          # where its JSON record says it is: path (and puzzle, line, name)
    piece: Piece | None
    problem: CrossprologError | None = None


class Stopped(KeyboardInterrupt):
    """Ctrl-C stopped a command in a search; `outcome` says what it found by then."""

    def __init__(self, outcome: Outcome):
        super().__init__()
        self.outcome = outcome


def _each_puzzle(args, command: Callable[[Puzzle, argparse.Namespace, float | None], Outcome]) -> int:
    """Run `command` on every puzzle of the inputs and report as the outcomes come; return
    the worst exit code.

    Outputs keep the order of the inputs, whatever order the workers finish in;
    --out gets each record as soon as those before it are in.  After Ctrl-C the
    finished records are still in --out, and a lone puzzle says what it found.
    """
    if args.out:
        batch.check_writable(args.out)  # before the inputs are read, let alone solved
    inputs = _inputs(args)
    output = batch.Output(args.out) if args.out else None
    several = len(inputs) > 1
    args.single = not several  # the --timeout of a lone puzzle bounds the whole command
    args.live = not several and args.out is None  # --all may print solutions as they come
    outcomes: dict[int, Outcome] = {}
    shown = 0

    def finish(index: int, outcome: Outcome) -> None:
        outcomes[index] = outcome
        _show(outcome, inputs[index], several, args)
        if output:
            batch.write_jsonl(output, {**inputs[index].keys, **outcome.record})

    def finish_alone(outcome: Outcome) -> None:
        finish(0, outcome)
        if output:
            output.close()

    # How the watchdog of a lone puzzle reports it (workers, which get `args`, need none).
    args.finish = None if several else finish_alone
    progress = _bar(total=len(inputs), unit="puzzle", shown=several and sys.stderr.isatty())
    done: dict[int, Outcome] = {}
    try:
        # With --timeout, a batch's puzzles run in workers, which their watchdog may end.
        with closing(batch.results(partial(_outcome, command, args), inputs, args.jobs,
                                   isolated=several and args.timeout is not None)) as results:
            for index, outcome in results:
                done[index] = _died(outcome, inputs[index]) if isinstance(outcome, WorkerDied) else outcome
                progress.update()
                while shown in done:
                    finish(shown, done[shown])
                    shown += 1
    except KeyboardInterrupt as stop:
        progress.close()
        if isinstance(stop, Stopped):
            finish(shown, stop.outcome)
        if output:
            output.close()
        if isinstance(stop, Stopped) and not several:
            return INTERRUPTED
        finished = f" after {len(outcomes)} of {_plural(len(inputs), 'puzzle')}" if several else ""
        kept = f"; their records are in {printable(args.out)}" if args.out and outcomes else ""
        print(f"crossprolog: interrupted{finished}{kept}", file=sys.stderr)
        return INTERRUPTED
    progress.close()
    if output:
        output.close()
        statuses = Counter(outcome.record["status"] for outcome in outcomes.values())
        print(f"{printable(args.out)}: {_plural(len(inputs), 'record')} "
              f"({', '.join(f'{n} {status}' for status, n in statuses.items())})")
    return worst(outcome.code for outcome in outcomes.values())


def _inputs(args) -> list[Input]:
    """Every puzzle of the command's paths, read and split, each file (standard input once)
    within --timeout (of the command, for the first)."""
    inputs: list[Input] = []
    stdin = None
    for n, path in enumerate(batch.expand(args.paths, SUFFIXES)):
        started = args.started if n == 0 else time.monotonic()
        try:
            with time_limit(args.timeout, started):
                if path == "-" and stdin is None:
                    stdin = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
                found = pieces(_text(path, stdin), family=args.family)
        except (ParseError, TimeLimitExceeded) as problem:
            inputs.append(Input(path, _name(path), {"path": _name(path, escaped=False)}, None, problem))
            continue
        inputs += [_input(path, piece, len(found)) for piece in found]
    return inputs


def _input(path: str, piece: Piece, pieces_in_file: int) -> Input:
    keys = {"path": _name(path, escaped=False)}
    if pieces_in_file == 1:
        return Input(path, _name(path), keys, piece)
    keys |= {"puzzle": piece.number, "line": piece.line} | ({"name": piece.name} if piece.name else {})
    name = f"{_name(path)}:{piece.line}" + (f" {printable(piece.name)}" if piece.name else "")
    return Input(path, name, keys, piece)


def _name(path: str, escaped: bool = True) -> str:
    """How output names a path: standard input as <stdin>; escaped (see errors.printable)
    for a terminal, or as it is for JSON."""
    name = "<stdin>" if path == "-" else path
    return printable(name) if escaped else name


def _text(path: str, stdin: bytes | None) -> str:
    """The text of the file at `path` (or of standard input, read as `stdin`).  Raises ParseError."""
    if path == "-":
        data = stdin
    elif os.path.isdir(path):
        raise ParseError("a directory without puzzle files (" + ", ".join(f"*{s}" for s in SUFFIXES) + ")")
    else:
        try:
            with open(path, "rb") as file:
                data = file.read(MAX_INPUT_BYTES + 1)
        except OSError as error:
            raise ParseError(f"cannot read the file: {error.strerror}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise ParseError(f"the input has more than {MAX_INPUT_BYTES:,} bytes: too big for a puzzle")
    return decode(data)


def _outcome(command: Callable[[Puzzle, argparse.Namespace, float | None], Outcome], args,
             item: Input) -> Outcome:
    """What `command` does for one input; every error a user can cause becomes an Outcome.

    The puzzle is read and searched within --timeout: from the start of the
    command for a lone puzzle, from the start of its own work in a batch.
    """
    started = args.started if args.single else time.monotonic()
    args.began = started  # for what a watchdog reports: this puzzle's start
    try:
        _load_encodings(args, started)
        if item.problem:
            raise item.problem
        with time_limit(args.timeout, started):
            puzzle = parse_piece(item.piece, **_option_values(args))
        engine.checked_encoding(puzzle.record.prolog, args.encoding)  # Prolog started: never in time_limit
        return command(puzzle, args, _remaining(args.timeout, started))
    except ParseError as error:
        report = error.report(_name(item.path, escaped=False))
        return Outcome(BAD, "", {"status": "error", "error": report}, report)
    except TimeLimitExceeded:
        message = f"time limit of {args.timeout:g} s reached before the search"
        return Outcome(LIMIT, message, {"status": "timeout", "error": message})
    except CrossprologError as error:
        return Outcome(error.exit_code, "", {"status": "error", "error": f"{item.name}: {error}"},
                       f"{item.name}: error: {error}")


def _died(died: WorkerDied, item: Input) -> Outcome:
    return Outcome(died.exit_code, "", {"status": "error", "error": f"{item.name}: {died}"},
                   f"{item.name}: error: {died}")


def _remaining(timeout: float | None, started: float) -> float | None:
    """The seconds left of `timeout` from `started`; TimeLimitExceeded when none are."""
    if timeout is None:
        return None
    left = started + timeout - time.monotonic()
    if left <= 0:
        raise TimeLimitExceeded(timeout)
    return left


@contextmanager
def time_limit(timeout: float | None, started: float) -> Iterator[None]:
    """Raise TimeLimitExceeded(timeout) in this block once `timeout` seconds have passed
    since `started` (time.monotonic).

    For Python's own work (reading and parsing a puzzle), in the main thread;
    never around a call into Prolog, which an alarm would break: Prolog's
    searches have limits of their own.
    """
    if timeout is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeLimitExceeded(timeout)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, _remaining(timeout, started))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


GRACE = 0.15  # seconds past its limit a lone puzzle's search may take to stop


@contextmanager
def watchdog(args, budget: float | None, late: Callable[[], Outcome]) -> Iterator[None]:
    """Hold a puzzle's search to its limit, whatever Prolog does.

    Prolog stops a search at its time limit, but then may take seconds to
    unwind a huge one (or to finish a garbage collection), or never hear
    the alarm (in code that holds signals off).  GRACE seconds past the
    limit, this reports the `late` outcome, as the command would have, and
    ends the process: a lone puzzle's command, or the worker process running
    a batch's puzzle (the batch goes on with a fresh one).
    """
    if budget is None or not (args.single or batch.in_worker()):
        yield
        return
    claimed = threading.Lock()

    def expire() -> None:
        if claimed.acquire(blocking=False):
            if batch.in_worker():
                batch.last_result(late())
            try:
                args.finish(late())
                output.flushed()
            except OSError as error:
                os._exit(output.failed(error))
            os._exit(LIMIT)

    timer = _quiet(threading.Timer(budget + GRACE, expire))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if not claimed.acquire(blocking=False):  # the watchdog is ending the process
            threading.Event().wait()


def _quiet(thread: threading.Thread) -> threading.Thread:
    """`thread`, made to block Ctrl-C: during a search Prolog takes Ctrl-C in whichever
    thread the kernel hands it to, and only the main thread searches."""
    run = thread.run

    def blocked() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        run()

    thread.run = blocked
    thread.daemon = True
    return thread


@contextmanager
def progress(args, found: Callable[[], int]) -> Iterator[Callable[[str], None]]:
    """While a lone puzzle's search runs: on a terminal, a line on standard error with
    the solutions `found` so far and the time spent, four times a second.

    Yields how to print a line of output without garbling that line.
    """
    if not (args.live and sys.stderr.isatty()):
        yield lambda text: print(text, flush=True)
        return
    bar = _bar(shown=True, bar_format="{n:,} solutions so far ({elapsed})")
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(0.25):
            bar.n = found()
            bar.refresh()

    thread = _quiet(threading.Thread(target=tick))
    thread.start()
    try:
        yield lambda text: bar.write(text, file=sys.stdout)
    finally:
        stop.set()
        thread.join()
        bar.close()


# Progress bars, on a terminal: tqdm is loaded only for a bar to be shown (loading it
# took a twentieth of every command's start).
_tqdm = None


def _bar(iterable: Iterable | None = None, *, shown: bool, **options):
    """A tqdm progress bar on standard error when `shown`, else one that shows nothing."""
    global _tqdm
    if not shown:
        return _Hidden(iterable)
    if _tqdm is None:
        from tqdm import tqdm

        tqdm.monitor_interval = 0  # its monitor thread could take a Ctrl-C meant for a search: see _quiet
        _tqdm = tqdm
    return _tqdm(iterable, file=sys.stderr, leave=False, **options)


class _Hidden:
    """A progress bar that shows nothing."""

    def __init__(self, iterable: Iterable | None):
        self.iterable = iterable

    def __iter__(self):
        return iter(self.iterable)

    def update(self) -> None:
        pass

    def close(self) -> None:
        pass


def _write(text: str, file) -> None:
    """Print a line of output; once bars may be shown, tqdm's way, which keeps them whole."""
    if _tqdm is None:
        print(text, file=file)
    else:
        _tqdm.write(text, file=file)


def _show(outcome: Outcome, item: Input, several: bool, args) -> None:
    """Print one input's outcome: its error, and unless --out takes the records, its output."""
    if outcome.error:
        _write(outcome.error, file=sys.stderr)
    if args.out:
        return
    if args.format == "json":
        record = {**item.keys, **outcome.record} if several or len(item.keys) > 1 else outcome.record
        _write(json.dumps(record), file=sys.stdout)
    elif outcome.text:
        _write(f"== {item.name}\n{outcome.text}" if several else outcome.text, file=sys.stdout)
    sys.stdout.flush()


def _read_puzzle(path: str, args) -> Puzzle:
    """The one puzzle in the file at `path` ("-": standard input).  Raises ParseError, and
    UsageError for a file of several puzzles."""
    stdin = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1) if path == "-" else None
    found = pieces(_text(path, stdin), family=args.family)
    if len(found) > 1:
        raise UsageError(f"{_name(path)} holds {len(found)} puzzles; this command takes one "
                         "(put it in a file of its own)")
    return parse_piece(found[0], **_option_values(args))


def _solve_one(puzzle: Puzzle, args, budget: float | None) -> Outcome:
    if args.all:
        return _solve_all(puzzle, args, budget)
    with watchdog(args, budget, lambda: _solved(puzzle, args, None)):
        found = puzzle.search(limit=1, timeout=budget, encoding=args.encoding)
    return _solved(puzzle, args, found)


def _solved(puzzle: Puzzle, args, found: Search | None) -> Outcome:
    """The outcome of a search for one solution (None: it ran out of time)."""
    solution = found.solutions[0] if found and found.solutions else None
    status = found.status if found else "timeout"
    record = {"family": puzzle.family, "status": _status(status, solution is not None),
              "solution": solution.to_json() if solution else None,
              "seconds": found.seconds if found else round(time.monotonic() - args.began, 6),
              **(puzzle.solution_extras(solution) if solution else {})}
    if status == "timeout" and found and found.best:
        return Outcome(LIMIT, f"{puzzle.render(found.best, _layout(args))}\n"
                              f"time limit of {args.timeout:g} s reached: the best answer found so far",
                       {**record, "solution": found.best.to_json(),
                        **puzzle.solution_extras(found.best)})
    if status == "timeout":
        return Outcome(LIMIT, f"time limit of {args.timeout:g} s reached", record)
    if solution is None:
        return _no_solution(puzzle, args, record, "no solution")
    return Outcome(OK, puzzle.render(solution, _layout(args)), record)


def _diagnosis_seconds(args) -> float:
    """The time to find out why: what is left of --timeout (TimeLimitExceeded when
    nothing is), else DIAGNOSIS_SECONDS."""
    if args.timeout is None:
        return DIAGNOSIS_SECONDS
    return _remaining(args.timeout, args.began)


def _no_solution(puzzle: Puzzle, args, record: dict, heading: str) -> Outcome:
    """What to say of a puzzle without solution: the clues to blame, marked in its layout."""
    from . import explain

    try:
        clues = explain.conflict(puzzle, timeout=_diagnosis_seconds(args), encoding=args.encoding)
    except TimeLimitExceeded:
        return Outcome(NO, f"{heading} (no small set of clues to blame was found in time)",
                       {**record, "conflict": None})
    drawing = puzzle.render(format=_layout(args), marks=Marks(clues=frozenset(clues)))
    return Outcome(NO, f"{heading}: {explain.conflict_sentence(clues)}\n{drawing}",
                   {**record, "conflict": [clue.to_json() for clue in clues]})


def _solve_all(puzzle: Puzzle, args, budget: float | None) -> Outcome:
    """Every solution; a lone puzzle's text output shows each as soon as it is found."""
    solutions, drawings = [], []
    started = time.perf_counter()

    def outcome(stopped: str = "") -> Outcome:
        return _all_solved(puzzle, args, solutions, drawings, stopped, time.perf_counter() - started)

    with progress(args, lambda: len(solutions)) as show, \
            watchdog(args, budget, lambda: outcome("timeout")):
        try:
            for solution in puzzle.solutions(timeout=budget, encoding=args.encoding):
                with engine.ctrl_c_deferred():  # a solution found is counted and shown, whole
                    solutions.append(solution)
                    if args.format != "json":
                        drawings.append(puzzle.render(solution, _layout(args)))
                        if args.live:
                            show(("\n" if len(drawings) > 1 else "") + drawings[-1])
        except TimeLimitExceeded:
            return outcome("timeout")
        except KeyboardInterrupt:
            raise Stopped(outcome("interrupted")) from None
    return outcome()


def _all_solved(puzzle: Puzzle, args, solutions: list, drawings: list[str], stopped: str,
                seconds: float) -> Outcome:
    """The outcome of a search for every solution, complete or `stopped` (by a timeout, by Ctrl-C)."""
    status = stopped or ("solved" if solutions else "unsolvable")
    record = {"family": puzzle.family, "status": status,
              "solution": solutions[0].to_json() if solutions else None,
              "solutions": [s.to_json() for s in solutions], "count": len(solutions),
              "complete": not stopped, "seconds": round(seconds, 6),
              **(puzzle.solution_extras(solutions[0]) if solutions else {})}
    earlier = "\n" if args.live else "".join(drawing + "\n\n" for drawing in drawings)
    if stopped == "timeout":
        return Outcome(LIMIT, f"{earlier}time limit of {args.timeout:g} s reached after "
                              f"{_plural(len(solutions), 'solution')}", record)
    if stopped:
        return Outcome(INTERRUPTED, f"{earlier}at least {_plural(len(solutions), 'solution')} "
                                    "(interrupted)", record)
    if not solutions:
        return Outcome(NO, "no solution", record)
    return Outcome(OK, earlier + _plural(len(solutions), "solution"), record)


def _count_one(puzzle: Puzzle, args, budget: float | None) -> Outcome:
    name = engine.progress_name()
    with progress(args, lambda: engine.found_so_far(name)), \
            watchdog(args, budget, lambda: _counted(args, puzzle, None, engine.found_so_far(name))):
        try:
            found = puzzle.search(limit=args.limit, timeout=budget, encoding=args.encoding,
                                  keep=False, progress=name)
        except Interrupted as stop:
            if stop.found is None:
                raise
            raise Stopped(_counted(args, puzzle, stop.found)) from None
    return _counted(args, puzzle, found)


def _counted(args, puzzle: Puzzle, found: Search | None, count: int = 0) -> Outcome:
    """The outcome of a count (found None: it ran out of time after `count` solutions)."""
    status = found.status if found else "timeout"
    count = found.count if found else count
    complete = status == "complete"
    record = {"family": puzzle.family, "count": count, "complete": complete, "status": status,
              "seconds": found.seconds if found else round(time.monotonic() - args.began, 6)}
    if status == "timeout":
        return Outcome(LIMIT, f"at least {_plural(count, 'solution')} "
                              f"(time limit of {args.timeout:g} s reached)", record)
    if status == "interrupted":
        return Outcome(INTERRUPTED, f"at least {_plural(count, 'solution')} (interrupted)", record)
    text = (_plural(count, "solution") if complete
            else f"at least {_plural(count, 'solution')} (stopped at --limit {args.limit})")
    return Outcome(OK if count else NO, text, record)


def _check_one(puzzle: Puzzle, args, budget: float | None) -> Outcome:
    with watchdog(args, budget, lambda: _checked(args, puzzle, None)):
        found = puzzle.search(limit=2, timeout=budget, encoding=args.encoding)
    return _checked(args, puzzle, found)


def _checked(args, puzzle: Puzzle, found: Search | None) -> Outcome:
    """The outcome of a check (found None: it ran out of time)."""
    status, count = (found.status, found.count) if found else ("timeout", 0)
    well_formed = status != "timeout" and count == 1
    record = {"family": puzzle.family, "well_formed": well_formed, "count": count,
              "status": status,
              "seconds": found.seconds if found else round(time.monotonic() - args.began, 6)}
    if status == "timeout":
        return Outcome(LIMIT, f"undecided: time limit of {args.timeout:g} s reached "
                              f"after {_plural(count, 'solution')}", record)
    if well_formed:
        return Outcome(OK, "well-formed: exactly one solution", record)
    if count == 0:
        return _no_solution(puzzle, args, record, "not well-formed: no solution")
    return _several(puzzle, args, record, *found.solutions)


def _several(puzzle: Puzzle, args, record: dict, first, second) -> Outcome:
    """Two solutions, where they differ (marked), and a clue that would leave one."""
    from . import explain

    try:
        seen = explain.ambiguity(puzzle, first, second, timeout=_diagnosis_seconds(args),
                                 encoding=args.encoding)
    except TimeLimitExceeded:
        seen = explain.Ambiguity((first, second), explain.difference(first, second), None)
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


def _hint_one(puzzle: Puzzle, args, budget: float | None) -> Outcome:
    """A forced cell (every forced cell with --all), placed in the layout below its reason
    as a comment, so the output reads back in as the next step's puzzle."""
    from . import explain

    try:
        found = explain.hint(puzzle, every=args.all, timeout=budget, encoding=args.encoding)
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
    try:
        puzzle = _read_puzzle(args.path, args)
    except ParseError as error:
        print(error.report(_name(args.path, escaped=False)), file=sys.stderr)
        return BAD
    filename = args.output or "puzzle.pl"
    if args.readable and args.encoding:
        raise UsageError("--readable writes the puzzle's own constraints: it takes no --encoding")
    from . import export

    text = (export.readable(puzzle, filename=filename) if args.readable
            else export.program(puzzle, args.encoding, filename=filename))
    if args.output is None:
        print(text, end="")
    else:
        batch.write_text(args.output, text)
    return OK


def _compare(args) -> int:
    """Every encoding on every puzzle of the inputs; exit 1 if any disagree, 2 if an input
    or a run failed."""
    if args.plot:
        compare_module.checked_plot(args.plot)
        batch.check_writable(args.plot)
    paths = batch.expand(args.paths, SUFFIXES)
    runs, codes = [], []
    progress = _bar(paths, unit="puzzle", shown=len(paths) > 1 and sys.stderr.isatty())
    for path in progress:
        try:
            stdin = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1) if path == "-" else None
            found = pieces(_text(path, stdin), family=args.family)
            puzzles = [(_name(path) if len(found) == 1 else f"{_name(path)}:{piece.line}",
                        parse_piece(piece, **_option_values(args))) for piece in found]
        except ParseError as error:
            _write(error.report(_name(path, escaped=False)), file=sys.stderr)
            codes.append(BAD)
            continue
        for name, puzzle in puzzles:
            ran = compare_module.compare(puzzle, args.encodings, limit=args.limit,
                                         timeout=args.timeout, repeat=args.repeat, name=name)
            for run in ran:
                if run.error:
                    _write(f"{name}: error: {run.error}", file=sys.stderr)
            runs += ran
            codes.append(BAD if any(run.error for run in ran)
                         else NO if any(run.agrees is False for run in ran) else OK)
    progress.close()
    summaries = compare_module.summaries(runs) if len(runs) > len({run.encoding for run in runs}) else []
    if args.format == "json":
        for record in compare_module.records(runs, summaries):
            print(json.dumps(record))
    elif args.format == "csv":
        print(compare_module.csv_text(runs, summaries), end="")
    elif runs:
        print(compare_module.table(runs))
        if summaries:
            print("\n" + compare_module.summary_table(summaries))
    if args.plot and runs:
        compare_module.cactus(runs, args.plot, args.timeout)
    return worst(codes)


# Random puzzles


def _generate(args) -> int:
    """The puzzles, each after a line `== N` when there are several, so that the output
    reads back as they are (`crossprolog generate ... -n 5 | crossprolog check -`); as
    JSON, one object a line, the puzzle's text with the number of its givens and
    constraints."""
    puzzles = generate(args.family, args.rows, args.cols, args.n, args.seed,
                       well_formed=args.well_formed, **_option_values(args))
    progress = _bar(puzzles, total=args.n, unit="puzzle", shown=args.well_formed and sys.stderr.isatty())
    for number, puzzle in enumerate(progress, start=1):
        if args.format == "json":
            clues = puzzle.clues()
            givens = sum(clue.kind == "given" for clue in clues)
            _write(json.dumps({"family": args.family, "puzzle": puzzle.render(),
                               "givens": givens, "constraints": len(clues) - givens}),
                   file=sys.stdout)
        else:
            separator = f"== {number}\n" if args.n > 1 else ""
            _write(("\n" if number > 1 else "") + separator + puzzle.render(format=args.format),
                   file=sys.stdout)
    return OK


def _stats(args) -> int:
    """The notebook's table: the share of well-formed puzzles, the seed reset per size."""
    record = named(args.family)
    shares = {}
    sizes = args.sizes or record.sizes
    for rows, cols in _bar(sizes, unit="size", shown=sys.stderr.isatty()):
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
