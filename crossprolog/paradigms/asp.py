"""Running an ASP encoding with clingo, through its Python API, in this process.

The puzzle enters as facts built from clingo symbols (never text pasted into
a program), the encoding's file is loaded as it is, and the answers are the
shown atoms solution(Path..., Value) (see shapes.py): they are shown whatever
the program's own #show says.  Enumeration projects
onto the shown atoms, so no answer comes twice whatever auxiliary atoms a
program chooses.

A puzzle with an objective gives its candidate values, best first; each is
grounded in turn as the program's part `objective(G)` (its constraints
guarded by `#external objective(G).`, switched off again when G has no
answer), and the first candidate with answers is the optimum: those answers
are the solutions.  The search runs under a deadline (grounding included,
checked between its steps) and stops at once on Ctrl-C.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from ..encoding_files import encoding_text, marked
from ..errors import Interrupted, TimeLimitExceeded, UsageError
from .shapes import ParadigmError, answer_of
from .terms import Fact, fact_symbols

SLICE = 0.05  # seconds between looks at the clock (and at Ctrl-C) while clingo searches


def clingo_module():
    """The clingo package; UsageError naming what to install when it is missing."""
    try:
        import clingo
        import clingo.ast  # noqa: F401
    except ImportError:
        raise UsageError("the ASP encodings need clingo: pip install 'crossprolog[paradigms]' "
                         "(or pip install clingo)") from None
    return clingo


@dataclass
class Run:
    """One clingo search: what it found so far and what it cost."""

    label: str                       # how errors name the encoding (its file, for a user's)
    shape: Sequence[int]
    limit: int
    keep: bool
    deadline: float | None
    started: float = field(default_factory=time.perf_counter)
    cpu_started: float = field(default_factory=time.process_time)
    solutions: list = field(default_factory=list)
    count: int = 0
    choices: int | None = None       # clingo's, over its searches: unknown (None) until one ends,
    conflicts: int | None = None     # not 0 (the time limit may strike while it grounds)
    messages: list = field(default_factory=list)
    counted: Callable[[int], None] = lambda n: None

    def result(self, status: str) -> dict:
        found = {"solutions": self.solutions} if self.keep else {}
        return {"status": status, **found, "count": self.count, "inferences": 0,
                "cpu": round(time.process_time() - self.cpu_started, 6),
                "seconds": round(time.perf_counter() - self.started, 6), "paradigm": "asp",
                "counters": {"choices": self.choices, "conflicts": self.conflicts}}

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline


def search(path: str, facts: list[Fact], shape: Sequence[int], *, label: str, limit: int = 0,
           timeout: float | None = None, keep: bool = True, candidates: Sequence[int] | None = None,
           counted: Callable[[int], None] = lambda n: None) -> dict:
    """Every answer (up to `limit`, 0: all) of the ASP program at `path` given `facts`,
    within `timeout` seconds: a result as the engine gives one (status complete, limit
    or timeout; solutions or count; seconds, cpu) with clingo's choices and conflicts
    (None when it timed out before searching).
    `counted(n)` hears the count so far.  Raises ParadigmError for a program clingo
    refuses, Interrupted (its `found` the result so far) on Ctrl-C."""
    run = Run(label, shape, limit, keep, None if timeout is None else time.monotonic() + timeout,
              counted=counted)
    try:
        control = _control(path, facts, run)
        if run.expired():
            return run.result("timeout")
        return run.result(_stages(control, run, candidates) if candidates is not None
                          else _solve(control, run))
    except KeyboardInterrupt:
        raise Interrupted(run.result("interrupted")) from None


def answers(path: str, facts: list[Fact], shape: Sequence[int], *, label: str,
            timeout: float | None = None) -> Iterator[Any]:
    """The answers one at a time, searching only as far as asked (no objective), within
    `timeout` seconds of search in all (TimeLimitExceeded then)."""
    run = Run(label, shape, 0, True, None if timeout is None else time.monotonic() + timeout)
    control = _control(path, facts, run)
    with control.solve(yield_=True, async_=True) as handle:
        try:
            while True:
                handle.resume()
                while not handle.wait(SLICE):
                    if run.expired():
                        raise TimeLimitExceeded(timeout or 0)
                model = handle.model()
                if model is None:
                    return
                answer = _answer(model, run)
                if run.deadline is not None:  # the caller's time between answers does not count
                    paused = time.monotonic()
                    yield answer
                    run.deadline += time.monotonic() - paused
                else:
                    yield answer
        finally:
            handle.cancel()


def _control(path: str, facts: list[Fact], run: Run):
    """A clingo Control with the program at `path` loaded, the facts added and the base
    part grounded; ParadigmError for what clingo refuses (its first message, naming
    the file) or an arithmetic operation that has no value."""
    clingo = clingo_module()

    def logger(code, message: str) -> None:
        run.messages.append((code, _named(message.strip(), "<block>", run.label)))

    control = clingo.Control(["--project=show"], logger=logger, message_limit=100)
    control.configuration.solve.models = run.limit
    try:
        if marked(path):  # clingo cannot read the mark: the text without it, named as the file
            control.add("base", [], encoding_text(path))
        else:
            control.load(path)
        control.add("base", [], f"#show solution/{len(run.shape) + 1}.")  # (constant text)
        with control.backend() as backend:
            for symbol in fact_symbols(facts):
                backend.add_rule([backend.add_atom(symbol)])
        control.ground([("base", [])])
    except RuntimeError:
        raise ParadigmError(_first_message(run, "clingo refused it")) from None
    _check_arithmetic(run)
    return control


def _first_message(run: Run, default: str) -> str:
    """clingo's first error (else its first message), on one line."""
    messages = [m for _, m in run.messages if "error" in m] or [m for _, m in run.messages]
    return " ".join(messages[0].split()) if messages else default


def _check_arithmetic(run: Run) -> None:
    """ParadigmError if grounding met an operation without a value: the program would
    silently lose the rules it was in."""
    clingo = clingo_module()
    for code, message in run.messages:
        if code == clingo.MessageCode.OperationUndefined:
            raise ParadigmError(f"{' '.join(message.split())} (an operation without a value: "
                                "state when it applies in the rule's body)")


def _solve(control, run: Run, assumptions: Sequence = ()) -> str:
    """Enumerate answers into `run`; complete, limit or timeout."""
    with control.solve(yield_=True, async_=True, assumptions=list(assumptions)) as handle:
        try:
            while True:
                handle.resume()
                while not handle.wait(SLICE):
                    if run.expired():
                        handle.cancel()
                        return "timeout"
                model = handle.model()
                if model is None:
                    break
                if run.keep:
                    run.solutions.append(_answer(model, run))
                run.count += 1
                run.counted(run.count)
                # Answers that come at once never wait on the clock above: it is read here
                # too (the last answer asked for ends the search as it is).
                if run.expired() and not 0 < run.limit <= run.count:
                    handle.cancel()
                    return "timeout"
            exhausted = handle.get().exhausted
        except BaseException:
            handle.cancel()
            raise
        finally:
            _add_statistics(control, run)
    return "complete" if exhausted or run.count < run.limit else "limit"


def _stages(control, run: Run, candidates: Sequence[int]) -> str:
    """The objective's candidates, best first: the first with answers gives them all."""
    clingo = clingo_module()
    for value in candidates:
        if run.expired():
            return "timeout"
        control.ground([("objective", [clingo.Number(value)])])
        _check_arithmetic(run)
        guard = clingo.Function("objective", [clingo.Number(value)])
        control.assign_external(guard, True)
        status = _solve(control, run)
        if run.count or status == "timeout":
            return status
        control.release_external(guard)
    return "complete"


def _add_statistics(control, run: Run) -> None:
    solvers = control.statistics["solving"]["solvers"]
    run.choices = (run.choices or 0) + int(solvers["choices"])
    run.conflicts = (run.conflicts or 0) + int(solvers["conflicts"])


def _answer(model, run: Run) -> Any:
    """The answer a model shows, in the puzzle's shape."""
    values = {}
    for symbol in model.symbols(shown=True):
        if symbol.name != "solution" or not symbol.arguments:
            raise ParadigmError(f"it shows {symbol}: show only solution(Path..., Value) atoms")
        *path, value = symbol.arguments
        values[tuple(_integer(a, symbol) for a in path)] = _integer(value, symbol)
    return answer_of(values, run.shape)


def _integer(argument, symbol) -> int:
    clingo = clingo_module()
    if argument.type != clingo.SymbolType.Number:
        raise ParadigmError(f"it shows {symbol}: a solution atom's arguments are integers")
    return argument.number


def check_file(path: str) -> None:
    """UsageError, one line naming the file and its line, unless the ASP program at
    `path` parses (and clingo is installed).  A byte-order mark is left out."""
    clingo = clingo_module()
    text = encoding_text(path)
    _check_characters(path, text)
    messages: list[str] = []
    try:
        if marked(path):
            clingo.ast.parse_string(text, lambda statement: None,
                                    logger=lambda code, message: messages.append(message))
        else:
            clingo.ast.parse_files([path], lambda statement: None,
                                   logger=lambda code, message: messages.append(message))
    except RuntimeError:
        first = " ".join(_named(messages[0], "<string>", path).split()) if messages \
            else f"{path}: clingo cannot parse it"
        raise UsageError(first) from None


LEXER_ERROR = re.compile(r"<string>:(\d+):(\d+)-(?:(\d+):)?(\d+): error: lexer error")


def _check_characters(path: str, text: str) -> None:
    """UsageError at the place of a character other than ASCII where clingo takes none
    (outside strings and comments): clingo's message about it would quote a piece of the
    character, no text, which its Python package cannot pass on (it ends the process).
    clingo itself finds it, in the text with every such character made \\x01."""
    if text.isascii():
        return
    clingo = clingo_module()
    messages: list[str] = []
    try:
        clingo.ast.parse_string("".join(c if c.isascii() else "\x01" for c in text), lambda statement: None,
                                logger=lambda code, message: messages.append(message))
    except RuntimeError:
        pass
    starts = [0] + [n + 1 for n, char in enumerate(text) if char == "\n"]  # of each line
    for found in filter(None, map(LEXER_ERROR.match, messages)):
        line, column = int(found[1]), int(found[2])
        piece = text[starts[line - 1] + column - 1:starts[int(found[3] or line) - 1] + int(found[4]) - 1]
        if not piece.isascii():
            hint = ("" if any(c.isascii() for c in piece)
                    else ": ASP takes characters other than ASCII in strings and comments only")
            raise UsageError(f"{path}:{line}:{column}: error: lexer error, unexpected {piece}{hint}")


def _named(message: str, name: str, path: str) -> str:
    """clingo's `message` about a text it was given as `name` (not a file), naming `path`."""
    return path + message[len(name):] if message.startswith(f"{name}:") else message
