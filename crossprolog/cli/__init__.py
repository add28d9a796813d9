"""The `crossprolog` command.

Exit codes: 0 solved or well-formed, 1 no solution or not well-formed (or,
for compare, encodings that disagree), 2 bad input or usage, 3 time or
resource limit reached, 130 interrupted (Ctrl-C; 143 for SIGTERM, which
crossprolog.__main__ takes as Ctrl-C).  Several inputs give the
worst of their codes.

The package, in layers: report (exit codes, outcomes, printing), state (a
command's running state), limits (time limits, watchdog, live counts), inputs
(reading and splitting the inputs), batches (a command over every puzzle),
questions (solve, count, check, hint), tools (export, compare), generating
(generate, stats), parser (the command line, from the families' records), and
main here.
"""

from __future__ import annotations

import sys
import time
from typing import Sequence

from .. import output
from ..errors import CrossprologError
from .inputs import load_encodings
from .parser import parser
from .report import INTERRUPTED
from .state import Run


def wants_json(argv: Sequence[str]) -> bool:
    """Whether `argv` asks for JSON output (--format json): then a usage error is a
    JSON record on standard output too, as every other error is."""
    words = list(argv)
    return "--format=json" in words or any(a == "--format" and b == "json" for a, b in zip(words, words[1:]))


def json_error(message: str) -> None:
    """An error as a JSON record on standard output."""
    import json  # for JSON output only: a start that prints text does not load it

    print(json.dumps({"status": "error", "error": message}), flush=True)


def main(argv: Sequence[str] | None = None, started: float | None = None) -> int:
    """Run the command `argv` (default: the process's arguments); its exit code.
    `started` (time.monotonic) is when the command began, for --timeout: now by default."""
    started = started or time.monotonic()
    output.checked_stdout()
    try:
        try:
            args = parser().parse_args(argv)  # --help and --version write too
        except SystemExit as exit:
            if exit.code == 2 and wants_json(sys.argv[1:] if argv is None else argv):
                json_error(output.Parser.said)
            raise
        run = Run(args, started, began=started)
        load_encodings(args, started)
        code = args.run(run)
        output.flushed()
        return code
    except KeyboardInterrupt:
        print("crossprolog: interrupted", file=sys.stderr)
        return INTERRUPTED
    except CrossprologError as error:  # before or beside the puzzles: an --encoding-file, say
        print(f"crossprolog: error: {error}", file=sys.stderr)
        if wants_json(sys.argv[1:] if argv is None else argv):
            json_error(str(error))
        return error.exit_code
    except OSError as error:  # standard output onto a full disk, or a closed pipe
        return output.failed(error)
