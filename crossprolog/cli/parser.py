"""The command line's parser, built from the families' records: every family's options
are flags of every command that reads puzzles."""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Callable, NamedTuple

from importlib import import_module

from .. import output
from ..backends import PICTURES
from ..grades import GRADES
from ..families import BY_NAME, FAMILIES
from ..registry import SUFFIXES
from .inputs import options
from . import values
from .limits import STUCK_GRACE


def parser() -> argparse.ArgumentParser:
    """The parser of every command, its `run` the function that runs it."""
    top = output.Parser(
        prog="crossprolog",
        description="Solve arithmetic grid puzzles typed as text, with CLP(FD) in SWI-Prolog.",
        epilog="families: " + "; ".join(f"{f.name} ({f.summary})" for f in FAMILIES))
    top.add_argument("--version", action=_Version, nargs=0,
                        help="print the versions of crossprolog, SWI-Prolog, janus and Python")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                  parser_class=_Command)
    for name, help, arguments in (  # the commands that read puzzles: described by their help
            ("solve", "print the puzzle solved, in the layout it came in", _solve),
            ("count", "count the solutions", _count),
            ("check", "is the puzzle well-formed (exactly one solution)? If not, why not", _check),
            ("hint", "show one cell whose value is forced, and why", _hint),
            ("grade", "rate how hard the puzzle is for a person: the hardest technique its "
                      "easiest path needs, and its steps", _grade)):
        commands.add_parser(name, help=help, description=help).later(arguments)
    for name, help, description, arguments in (
            ("export", "write a self-contained Prolog program for a puzzle",
             "write one Prolog file that solves the puzzle with plain `swipl FILE` on any "
             "machine with SWI-Prolog 9: the encoding's module inlined, or with --readable "
             "the puzzle's own constraints as CLP(FD) goals", _export),
            ("compare", "run every encoding on every puzzle, as a benchmark",
             "run every encoding on every puzzle: times (median, min, max of the repeats), CPU, "
             "Prolog inferences, the labeling's choices and backtracks, solutions seen and "
             "whether they agree; a summary per encoding over many puzzles", _compare),
            ("generate", "print random puzzles", "print random puzzles made by a family's "
             "generator: crossprolog generate FAMILY --help for its options", _generate),
            ("stats", "share of well-formed random puzzles per size", None, _stats),
            ("serve", "serve a web page to solve, check, hint and generate puzzles, and its "
                      "JSON API", "serve the web page and its JSON API (docs/web.md) until "
             "Ctrl-C; searches run in worker processes", _serve)):
        commands.add_parser(name, help=help, description=description).later(arguments)
    return top


class _Command(output.Parser):
    """A command's parser, its arguments added (by the function given to `later`) the
    first time it parses or formats its usage or help: a start runs one command, and
    adding every command's arguments took a twentieth of a plain solve's start."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._arguments: Callable[[argparse.ArgumentParser], None] | None = None
        self._adding = threading.Lock()  # the web server's threads share one parser

    def later(self, arguments: Callable[[argparse.ArgumentParser], None]) -> None:
        self._arguments = arguments

    def _complete(self) -> None:
        with self._adding:
            arguments, self._arguments = self._arguments, None
            if arguments is not None:
                arguments(self)

    def parse_known_args(self, args=None, namespace=None):
        """The command's arguments; an argument it does not know is its error, said with its
        name (`crossprolog grade: error: ...`), not the top parser's."""
        self._complete()
        namespace, unknown = super().parse_known_args(args, namespace)
        if unknown:
            self.error(f"unrecognized arguments: {' '.join(unknown)}")
        return namespace, unknown

    def format_usage(self) -> str:
        self._complete()
        return super().format_usage()

    def format_help(self) -> str:
        self._complete()
        return super().format_help()


def _puzzle_command(command: argparse.ArgumentParser, run: later, pictures: bool = True,
                    entries: bool = True) -> None:
    """The arguments every command that reads puzzles takes, and its `run`."""
    command.add_argument("paths", nargs="+", metavar="PATH",
                         help="puzzle file (one puzzle, or several, each after a line '== NAME'), "
                              f"directory of puzzle files ({', '.join('*' + s for s in SUFFIXES)}), "
                              "or - for standard input")
    command.add_argument("--format", choices=["text", "markdown", "json"] + list(PICTURES) * pictures,
                         default=None,
                         help="output format (default: the layout the puzzle came in; json for data"
                              + ("; svg: a picture a puzzle; html: one page of everything, "
                                 "pictures inline)" if pictures else ")"))
    command.add_argument("--timeout", type=values.seconds, default=None, metavar="SECONDS",
                         help="give each puzzle this many seconds, reading it included; a "
                              "lone puzzle's command ends by then (exit code 3)")
    _puzzle_arguments(command)
    if entries:
        command.add_argument("--entries", default=None, metavar="FILE",
                             help="the puzzle as you have filled it in (your own digits or marks): "
                                  "hints start from it, and a contradiction is blamed on your "
                                  "entries first (docs/hints.md)")
    _where_arguments(command)
    command.add_argument("--out", default=None, metavar="FILE", type=values.path,
                         help="write one JSON record per puzzle to FILE (JSON Lines, each as "
                              "it is done, to a temporary FILE.*.partial until the end) and print "
                              "only a summary" + ("; with --format svg, FILE is a directory, a "
                                                  "picture a puzzle; with html, the page" * pictures))
    command.set_defaults(run=run)


def _solve(command: argparse.ArgumentParser) -> None:
    _puzzle_command(command, later("questions", "solve"))
    command.add_argument("--all", action="store_true", help="print every solution")
    command.add_argument("--steps", action="store_true",
                         help="print a person's way to the solution, step by step, as hints (docs/hints.md)")


def _count(command: argparse.ArgumentParser) -> None:
    _puzzle_command(command, later("questions", "count"), pictures=False, entries=False)
    command.add_argument("--limit", type=values.count_limit, default=0, metavar="N",
                         help="stop counting at N (and say so); 0, the default: count them all")


def _check(command: argparse.ArgumentParser) -> None:
    _puzzle_command(command, later("checking", "check"))
    command.add_argument("--minimal", action="store_true",
                         help="also say whether any clue is to spare: one a maker may hide "
                              "(a given digit, a total where the family's totals are clues) "
                              "that could be left out alone and the solution stay the only one")


def _hint(command: argparse.ArgumentParser) -> None:
    _puzzle_command(command, later("questions", "hint"))
    command.add_argument("--all", action="store_true", help="every forced cell")


def _grade(command: argparse.ArgumentParser) -> None:
    _puzzle_command(command, later("questions", "grade"))


def _export(export: argparse.ArgumentParser) -> None:
    export.add_argument("path", metavar="PATH", help="puzzle file, or - for standard input")
    _puzzle_arguments(export)
    export.add_argument("--readable", action="store_true",
                        help="write the puzzle's constraints one per line, a variable per cell "
                             "named for its place (R2C3), then the labeling")
    export.add_argument("-o", "--output", default=None, metavar="FILE",
                        help="write here instead of standard output")
    export.add_argument("--format", choices=["pl", "lp", "mzn"], default=None,
                        help="pl: a Prolog program (the default); lp: an ASP program for clingo; "
                             "mzn: a MiniZinc model with its data (the default for --encoding "
                             "asp or minizinc)")
    export.set_defaults(run=later("tools", "export"))


def _compare(compare: argparse.ArgumentParser) -> None:
    from .. import compare as compare_module  # its defaults: the module only for this command

    compare.add_argument("paths", nargs="+", metavar="PATH",
                         help="puzzle file (or several puzzles, each after a line '== NAME'), "
                              "or directory of puzzle files")
    compare.add_argument("--encodings", type=lambda text: [name.strip() for name in text.split(",")],
                         default=None, metavar="A,B,C",
                         help="these encodings only (default: all of the family's, and those of "
                              "--encoding-file)")
    compare.add_argument("--limit", type=values.count_limit, default=2, metavar="N",
                         help="solutions to look for (default 2: find one, decide uniqueness; 0: all)")
    compare.add_argument("--timeout", type=values.seconds, default=compare_module.TIMEOUT, metavar="SECONDS",
                         help=f"per encoding, puzzle and repeat (default {compare_module.TIMEOUT:g}; not loading "
                              f"--encoding-file); a run that does not stop is ended {STUCK_GRACE:g} s past it")
    compare.add_argument("--repeat", type=values.positive, default=compare_module.REPEAT, metavar="N",
                         help=f"time each run N times (default {compare_module.REPEAT})")
    _puzzle_arguments(compare, encoding=False)
    compare.add_argument("--format", choices=["text", "json", "csv"], default="text")
    compare.add_argument("--plot", default=None, metavar="FILE.svg",
                         help="also write a cactus plot (.svg or .png): puzzles solved against time")
    _where_arguments(compare)
    compare.set_defaults(run=later("tools", "compare"), least_loading=compare_module.LOADING)


def _makers() -> list:
    """The records of the families that make puzzles."""
    return [f for f in FAMILIES if f.generator_name]


def _generate(generate: argparse.ArgumentParser) -> None:
    families = generate.add_subparsers(dest="family", required=True, metavar="FAMILY")
    for record in _makers():
        _generate_arguments(families.add_parser(record.name, help=record.summary,
                                                description=f"print random {record.title} puzzles"),
                            record)
    generate.set_defaults(run=later("generating", "generate"))


def _stats(stats: argparse.ArgumentParser) -> None:
    stats.add_argument("family", choices=[record.name for record in _makers()])
    stats.add_argument("--sizes", type=values.sizes, default=None, metavar="RxC,...",
                       help="sizes to look at (default: the family's own list)")
    stats.add_argument("-n", type=values.positive, default=200, help="puzzles per size (default 200)")
    stats.add_argument("--seed", type=values.seed, default=42,
                       help="the generator's seed, reset for each size (default 42)")
    stats.add_argument("--format", choices=["text", "json"], default="text",
                       help="a table, or one JSON object (default text)")
    _where_arguments(stats)
    stats.set_defaults(run=later("generating", "stats"))


def _serve(serving: argparse.ArgumentParser) -> None:
    serving.add_argument("--host", default="127.0.0.1",
                         help="the address to listen on (default 127.0.0.1: this machine only)")
    serving.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serving.add_argument("--workers", type=values.positive, default=2, metavar="N",
                         help="worker processes, each searching one puzzle at a time (default 2; "
                              "no more than the cores)")
    serving.add_argument("--timeout", type=values.seconds, default=10.0, metavar="SECONDS",
                         help="the time limit of each request's search (default 10)")
    serving.add_argument("--queue", type=values.positive, default=32, metavar="N",
                         help="requests that may wait for a worker; more get 503 (default 32)")
    serving.set_defaults(run=later("serve", "serve"))

class later(NamedTuple):
    """The command `name` of `module` (of this package), imported when it runs: a start
    loads only the command it runs, not every command's modules.  A tuple, so that the
    parsed arguments holding it can go to worker processes."""

    module: str
    name: str

    def __call__(self, state):
        return getattr(import_module(f".{self.module}", __package__), self.name)(state)


def _generate_arguments(command: argparse.ArgumentParser, record) -> None:
    """generate's arguments for the family of `record`: its size (by default the family's
    only size, if it has one), how many, the seed, the form, and the options its
    generators take."""
    only = record.sizes[0] if len(record.sizes) == 1 else None
    for name, side in (("rows", 0), ("cols", 1)):
        command.add_argument(f"--{name}", type=values.positive, default=only and only[side],
                             required=only is None,
                             help=f"the puzzles' {name}" + (f" (default {only[side]})" if only else ""))
    command.add_argument("-n", type=values.positive, default=1, help="how many puzzles (default 1)")
    command.add_argument("--seed", type=values.seed, default=None,
                         help="make the same puzzles each time (default: new ones)")
    command.add_argument("--well-formed", action="store_true",
                         help="each puzzle with exactly one solution, and no clue to spare where "
                              "the family's maker hides clues (docs/makers.md)")
    command.add_argument("--difficulty", choices=[name for name, _ in GRADES], default=None,
                         help="well-formed puzzles of this grade only (see crossprolog grade)")
    command.add_argument("--with-solutions", action="store_true",
                         help="each puzzle followed by its solution, for answer keys")
    command.add_argument("--timeout", type=values.seconds, default=None, metavar="SECONDS",
                         help="stop by then, keeping the puzzles made (exit code 3)")
    command.add_argument("--format", choices=["text", "markdown", "json", *PICTURES, "pdf"],
                         default="text",
                         help="the family's text, markdown, or one JSON object a puzzle (default "
                              "text); svg: a picture a puzzle; html: a printable book, the "
                              "puzzles four to a page, then their solutions; pdf: the book as a "
                              "PDF (with --out)")
    command.add_argument("--out", default=None, metavar="PATH", type=values.path,
                         help="write to PATH instead of standard output: with --format svg a "
                              "directory, a picture a puzzle (and a solution)")
    command.add_argument("--paper", choices=["a4", "letter"], default=None,
                         help="the paper of --format pdf's book (default a4)")
    for name in record.generated_options:
        _option_argument(command, [(record, record.option(name))], "the rules the puzzles follow")
    _where_arguments(command)


def _where_arguments(command: argparse.ArgumentParser) -> None:
    """--jobs and --cluster: where a command's many puzzles are worked on (batch.results)."""
    command.add_argument("--jobs", type=values.positive, default=1, metavar="N",
                         help="work on up to N puzzles at a time, in worker processes (one a core at most)")
    command.add_argument("--cluster", type=values.cluster, nargs="?", const="", default=None,
                         metavar="ADDRESS",
                         help="work on a Dask cluster: its scheduler's address (tcp://HOST:8786), "
                              "or local:N for N worker processes here; alone, the scheduler "
                              "DASK_SCHEDULER_ADDRESS names, else a worker per core here "
                              "(needs crossprolog[cluster])")


def _puzzle_arguments(command: argparse.ArgumentParser, encoding: bool = True) -> None:
    """--family, --encoding, --encoding-file and every family's options, as the records
    declare them."""
    command.add_argument("--family", choices=list(BY_NAME), default=None,
                         help="read the input as this family (default: guessed from the layout)")
    if encoding:
        command.add_argument("--encoding", default=None, metavar="NAME",
                             help="the encoding to use: one of the family's Prolog encodings "
                                  "(default: its own), asp (clingo), minizinc (Gecode), or a "
                                  "user's")
    command.add_argument("--encoding-file", action="append", default=[], metavar="FILE",
                         help="load your own encoding: a Prolog module exporting model/3, named "
                              "by its module (FILE.pl), an ASP program (FILE.lp) or a MiniZinc "
                              "model (FILE.mzn), named by the file (repeatable)")
    _option_arguments(command, "overrides '# {name}:' in the file")


def _option_arguments(command: argparse.ArgumentParser, note: str) -> None:
    """Every family's options, as the records declare them; `note` ends their help."""
    for owners in options().values():
        _option_argument(command, owners, note)


def _option_argument(command: argparse.ArgumentParser, owners: list[tuple], note: str) -> None:
    """One option, which the families of `owners` (record, option pairs) declare."""
    option = owners[0][1]
    titles = "/".join(record.title for record, _ in owners)
    help = f"{titles}: {option.help} ({note.format(name=option.name)})"
    if option.flag:
        command.add_argument(f"--{option.name}", dest=option.key, action="store_const", const=True,
                             default=None, help=help)
    else:
        choices = option.choices if all(o.choices == option.choices for _, o in owners) else ()
        command.add_argument(f"--{option.name}", dest=option.key, default=None,
                             choices=choices or None, metavar="VALUE" if not choices else None,
                             help=help)


class _Version(argparse.Action):
    """--version: crossprolog's, and that of what it runs on (SWI-Prolog started to ask)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib import metadata

        from .. import engine

        print(f"crossprolog {metadata.version('crossprolog')} (SWI-Prolog {engine.prolog_version()}, "
              f"janus-swi {metadata.version('janus-swi')}, Python {sys.version.split()[0]})", flush=True)
        parser.exit()
