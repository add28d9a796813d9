"""What a worker process answers: one question of the web API, as the HTTP status and
the JSON body of its reply.

A puzzle question (solve, check, hint, count) is answered by the command line's
own function for one puzzle (crossprolog/cli/questions.py), so the body is the
record `crossprolog COMMAND --format json` prints, with two keys more for the page:
`output`, what the command prints as text, and `drawings`, the pictures of it.
Errors a user can cause are a 4xx reply with the command line's located message.
"""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .. import batch, engine, paradigms
from ..answers import NO_MARKS, Marks
from ..errors import CrossprologError, ParseError, TimeLimitExceeded
from ..families import FAMILIES
from ..grammars.common import source_lines
from ..registry import generate, parse_piece, pieces
from ..cli.parser import parser
from ..cli.checking import check_one
from ..cli.questions import count_one, hint_one, solve_one
from ..cli.batches import comment_lines
from ..cli.inputs import Input
from ..cli.limits import remaining, time_limit
from ..cli.report import Outcome
from ..cli.state import Run
from ..cli.generating import generated_record

NAME = "<text>"  # what a located error calls the text of a request
GRACE = 1.0  # seconds past its time limit a question may take before its worker ends itself

COMMANDS = {"solve": solve_one, "check": check_one, "hint": hint_one, "count": count_one}


@dataclass(frozen=True)
class Question:
    """One request to answer: `kind` is a key of COMMANDS, "draw", "generate" or
    "families"; `fields` its JSON body, checked (crossprolog/server/app.py); `timeout`
    its time limit, of which it `waited` the first seconds for a worker."""

    kind: str
    fields: dict = field(default_factory=dict)
    timeout: float = 10.0
    waited: float = 0.0

    def left(self) -> float:
        """The seconds of its time limit left when a worker took it."""
        return self.timeout - self.waited


Reply = tuple[int, dict]  # HTTP status, JSON body


def answer(question: Question) -> Reply:
    """The reply to `question`, within its time limit: in a worker process, a watchdog
    answers for a search that does not stop in time, and ends the worker."""
    claimed = threading.Lock()  # by the answer or by the watchdog, whichever comes first

    def expire() -> None:
        if claimed.acquire(blocking=False):
            batch.last_result(timed_out(question.timeout))

    watchdog = threading.Timer(question.left() + GRACE, expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        return _answer(question)
    finally:
        watchdog.cancel()
        if not claimed.acquire(blocking=False):  # the watchdog is ending this process
            threading.Event().wait()


def _answer(question: Question) -> Reply:
    if question.kind == "families":
        return 200, {"families": families()}
    if question.kind == "generate":
        return generated(question.fields)
    return asked(question)


def asked(question: Question) -> Reply:
    """The reply to a question about the puzzle in the text: the command's record (or the
    puzzle drawn, for "draw"), or the located error."""
    fields, timeout = question.fields, question.timeout
    started = time.monotonic() - question.waited  # its time limit counts from the request
    args = command_line(question.kind if question.kind in COMMANDS else "solve", fields, timeout)
    run = Run(args, started, began=started, single=False)
    try:
        with time_limit(timeout, started):
            piece = lone_piece(fields["text"], fields.get("family"))
            puzzle = parse_piece(piece)
        if question.kind == "draw":
            return 200, {"family": puzzle.family, "output": puzzle.render(),
                         "drawings": [drawing(puzzle)]}
        engine.checked_encoding(puzzle.record.prolog, args.encoding)
        run.comments = comment_lines(Input(NAME, NAME, {}, piece))
        outcome = COMMANDS[question.kind](puzzle, run, remaining(timeout, started))
    except ParseError as error:
        return 400, {"status": "error", "error": error.report(NAME),
                     "line": error.line, "column": error.column}
    except TimeLimitExceeded:
        return timed_out(timeout)
    except CrossprologError as error:
        return 400, {"status": "error", "error": f"{NAME}: error: {error}"}
    return replied(outcome)


def command_line(command: str, fields: dict, timeout: float):
    """The command line's arguments for `command` asked with `fields`: every other option
    at its default, as `crossprolog COMMAND - --format json` has them."""
    argv = [command, "-", "--format", "json", "--timeout", repr(timeout)]
    if fields.get("encoding"):
        argv += ["--encoding", fields["encoding"]]
    if command == "count" and fields.get("limit"):
        argv += ["--limit", str(fields["limit"])]
    if command == "check" and fields.get("minimal"):
        argv += ["--minimal"]
    return command_parser().parse_args(argv)


@functools.cache
def command_parser():
    return parser()


def lone_piece(text: str, family: str | None):
    """The one puzzle of `text`, unparsed.  Raises ParseError at a second one."""
    first, *others = pieces(text, family)
    if others:
        line = others[0].line
        raise ParseError(f"a second puzzle starts here, of {len(others) + 1} in all: the page "
                         "takes one puzzle at a time", line, 1, source_lines(text)[line - 1].text)
    return first


def replied(outcome: Outcome) -> Reply:
    """The reply for a command's outcome: its record, what it prints, and its drawings."""
    return 200, {**outcome.record, "output": outcome.text,
                 "drawings": [drawing(*drawn) for drawn in outcome.drawn]}


def timed_out(timeout: float) -> Reply:
    message = f"time limit of {timeout:g} s reached"
    return 200, {"status": "timeout", "error": message, "output": message, "drawings": []}


def generated(fields: dict) -> Reply:
    """A random puzzle of the family and size asked for (well-formed if asked): generate's
    record, its text and its drawing."""
    try:
        puzzle = next(iter(generate(fields["family"], fields["rows"], fields["cols"], 1,
                                    fields.get("seed"), well_formed=fields.get("well_formed", False))))
    except (CrossprologError, ValueError) as error:
        return 400, {"status": "error", "error": f"generate {fields['family']}: error: {error}"}
    return 200, {**generated_record(puzzle), "output": puzzle.render(), "drawings": [drawing(puzzle)]}


def families() -> list[dict[str, Any]]:
    """What the page offers of each family: its name, title and summary, its bundled
    encodings (the default first; those of other paradigms whose solver is installed),
    and the sizes its generator makes."""
    return [{"name": record.name, "title": record.title, "summary": record.summary,
             "encodings": engine.encodings(record.prolog) + [
                 name for name in engine.paradigm_encodings(record.prolog) if paradigms.available(name)],
             "sizes": [list(size) for size in record.sizes],
             "generates": record.generator_name is not None}
            for record in FAMILIES]


def drawing(puzzle, solution=None, marks: Marks = NO_MARKS) -> dict[str, str]:
    """One picture on the page: `puzzle`, solved by `solution` if given, `marks` marked:
    its SVG (the page shows it), and the text the command line prints (marks in
    brackets; the page keeps it for copying and reading aloud)."""
    return {"kind": "svg", "svg": puzzle.render(solution, "svg", marks),
            "text": puzzle.render(solution, marks=marks)}

