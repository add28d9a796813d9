"""Running a MiniZinc model with the `minizinc` program and its Gecode solver.

The model file is run as it is; the puzzle enters as JSON data that Python's
json writes (never text in the model), on minizinc's command line (a file
only when too long for one).  Answers come as JSON
(`--output-mode json --json-stream`): the model's `solution` array, in the
puzzle's shape, and for a puzzle with an objective its `objective`.  Gecode's
nodes and failures come from `--statistics`.

A puzzle with an objective gives its candidate values, best first, as the
data `objective_candidates`; the model's search must try them in that order
(its first answer is then optimal).  A search for more than one answer runs
twice: once for the optimum, then with `objective_candidates` only it.  The
time limit is MiniZinc's own `--time-limit` (flattening included), and the
process is ended at it whatever it does; Ctrl-C ends it at once, and
whatever ends this process ends minizinc and its solver (processes.py).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from ..encoding_files import marked
from ..errors import Interrupted, TimeLimitExceeded, UsageError
from . import processes
from .shapes import ParadigmError, checked_answer

SOLVER = "gecode"
GRACE = 0.5  # seconds past its own --time-limit that minizinc may take to stop


def program() -> str:
    """The path of `minizinc`; UsageError naming what to install when it is missing."""
    found = shutil.which("minizinc")
    if found is None:
        raise UsageError("the MiniZinc models need the minizinc program with Gecode: "
                         "apt-get install minizinc (Debian), or MiniZinc's bundle on PATH")
    return found


@dataclass
class Run:
    """One MiniZinc search (of one or two processes): what it found and what it cost."""

    shape: Sequence[int]
    keep: bool
    deadline: float | None
    started: float = field(default_factory=time.perf_counter)
    cpu: float = 0.0
    solutions: list = field(default_factory=list)
    seen: set = field(default_factory=set)  # the solutions kept, as text: none may repeat
    objectives: list = field(default_factory=list)
    count: int = 0
    statistics: list = field(default_factory=list)  # Gecode's, per process (None: it ended without)

    def result(self, status: str) -> dict:
        found = {"solutions": self.solutions} if self.keep else {}
        # Unknown, not 0, when no process reported them (the time limit struck first) or one did not.
        known = self.statistics and None not in self.statistics
        counters = {key: sum(int(s.get(key, 0)) for s in self.statistics) if known else None
                    for key in ("nodes", "failures")}
        return {"status": status, **found, "count": self.count, "inferences": 0,
                "cpu": round(self.cpu, 6), "seconds": round(time.perf_counter() - self.started, 6),
                "paradigm": "minizinc", "counters": counters}

    def left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()


def search(path: str, data: dict, shape: Sequence[int], *, limit: int = 0,
           timeout: float | None = None, keep: bool = True,
           candidates: Sequence[int] | None = None, counted=lambda n: None) -> dict:
    """Every answer (up to `limit`, 0: all) of the model at `path` on `data`, within
    `timeout` seconds: a result as the engine gives one, with Gecode's nodes and
    failures (None when minizinc did not report them: it timed out first).  Raises
    ParadigmError for a model MiniZinc refuses (its message, on one line),
    Interrupted (its `found` the result so far) on Ctrl-C."""
    run = Run(shape, keep, None if timeout is None else time.monotonic() + timeout)
    try:
        if candidates is None:
            return run.result(_run(path, data, run, limit, counted))
        first = Run(shape, True, run.deadline)
        status = _run(path, {**data, "objective_candidates": list(candidates)}, first, 1, counted)
        run.cpu, run.statistics = first.cpu, first.statistics
        if status == "timeout" or not first.solutions or limit == 1:
            run.solutions, run.count = (first.solutions if keep else []), first.count
            return run.result(status)
        best = first.objectives[0]
        return run.result(_run(path, {**data, "objective_candidates": [best]}, run, limit, counted))
    except KeyboardInterrupt:
        raise Interrupted(run.result("interrupted")) from None


def answers(path: str, data: dict, shape: Sequence[int], *,
            timeout: float | None = None) -> Iterator[Any]:
    """The answers one at a time, as minizinc prints them (no objective), within
    `timeout` seconds (TimeLimitExceeded then); closing the generator ends the process."""
    status, seen = "unknown", set()
    with _process(path, data, limit=0, time_limit=timeout) as minizinc:
        for message in _messages(minizinc.process):
            if message.get("type") == "solution":
                answer = _solution(message, shape)[0]
                _refuse_repeated(answer, seen)
                yield answer
            elif message.get("type") == "status":
                status = message["status"]
        _finish(minizinc)
    if status not in ("ALL_SOLUTIONS", "UNSATISFIABLE", "OPTIMAL_SOLUTION"):
        raise TimeLimitExceeded(timeout or 0)


def _run(path: str, data: dict, run: Run, limit: int, counted) -> str:
    """One minizinc process: its answers into `run`; complete, limit or timeout."""
    left = run.left()
    if left is not None and left <= 0:
        return "timeout"
    status, gecode = "unknown", None
    with _process(path, data, limit, left) as minizinc:
        for message in _messages(minizinc.process):
            kind = message.get("type")
            if kind == "solution":
                answer, objective = _solution(message, run.shape)
                run.count += 1
                run.objectives.append(objective)
                if run.keep:
                    _refuse_repeated(answer, run.seen)
                    run.solutions.append(answer)
                counted(run.count)
            elif kind == "status":
                status = message["status"]
            elif kind == "statistics" and "nodes" in message["statistics"]:  # flattening's have none
                gecode = message["statistics"]
        run.cpu += _finish(minizinc)
    run.statistics.append(gecode)
    if status in ("ALL_SOLUTIONS", "UNSATISFIABLE", "OPTIMAL_SOLUTION"):
        return "complete"
    if limit and run.count >= limit:  # (asked for one, minizinc gives no status)
        return "limit"
    return "timeout"


def _refuse_repeated(answer: Any, seen: set) -> None:
    """Add `answer` to those `seen`; ParadigmError if it is one: MiniZinc enumerates
    every variable of a model, so one the solution leaves free repeats it (clingo
    projects onto the solution; MiniZinc cannot be told to)."""
    key = json.dumps(answer)
    if key not in seen:
        seen.add(key)
    else:
        raise ParadigmError("it gives the same solution twice: a variable other than `solution` "
                            "is free (MiniZinc enumerates every variable); fix each by the solution")


ERROR_CHARACTERS = 64 * 1024  # of minizinc's standard error, kept for its message
ARGUMENT_CHARACTERS = 100_000  # data up to this long goes on minizinc's command line (Linux: 128 KiB an argument)


class _process:
    """minizinc on the model and the JSON data, in a session of its own (Ctrl-C
    reaches this process only, which ends it), and ending if this process dies;
    ended with its solver (processes.end) on every way out.  The data goes on its
    command line, or, too long for one, in a file removed on every way out.  Its
    standard error is read as it comes, in a thread, its start kept (`errors`): a
    model that writes more there (trace/2) than a pipe holds would wait for a reader."""

    def __init__(self, path: str, data: dict, limit: int, time_limit: float | None):
        self.path, self.data, self.limit, self.time_limit = path, data, limit, time_limit

    def __enter__(self) -> _process:
        command = [program(), "--solver", SOLVER, "--json-stream", "--output-mode", "json",
                   "--statistics", "--output-objective"]
        command += ["-a"] if self.limit == 0 else ["-n", str(self.limit)] if self.limit > 1 else []
        if self.time_limit is not None:
            command += ["--time-limit", str(max(1, int(self.time_limit * 1000)))]
        text, self.data_path = json.dumps(self.data), None
        if len(text) <= ARGUMENT_CHARACTERS:  # no file: nothing to leave behind, however this process ends
            command += ["--cmdline-json-data", text, self.path]
        else:
            handle, self.data_path = tempfile.mkstemp(prefix="crossprolog-", suffix=".json")
            command += [self.path, self.data_path]
        try:
            if self.data_path is not None:
                with os.fdopen(handle, "w", encoding="utf-8") as file:
                    file.write(text)
            self.process = processes.start(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           stdin=subprocess.DEVNULL, text=True)
        except BaseException:
            self._remove_data()
            raise
        self.kept: list[str] = []
        self.reader = threading.Thread(target=self._read_errors, daemon=True)
        self.reader.run = _blocking_ctrl_c(self.reader.run)
        self.reader.start()
        self.timer = None
        if self.time_limit is not None:  # MiniZinc's own limit, enforced
            self.timer = threading.Timer(self.time_limit + GRACE, processes.end, args=(self.process,))
            self.timer.run = _blocking_ctrl_c(self.timer.run)
            self.timer.daemon = True
            self.timer.start()
        return self

    def _read_errors(self) -> None:
        kept = 0
        for chunk in iter(lambda: self.process.stderr.read(8192), ""):
            if kept < ERROR_CHARACTERS:
                self.kept.append(chunk)
                kept += len(chunk)

    def errors(self) -> str:
        """The start of what minizinc wrote on standard error, once it has ended."""
        self.reader.join()
        return "".join(self.kept)[:ERROR_CHARACTERS]

    def __exit__(self, *_) -> None:
        # Ctrl-C again waits until all is gone: cut short here, the solver would run on.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            if self.timer is not None:
                self.timer.cancel()
                self.timer.join()
            if self.process.returncode is None:  # not reaped (by _finish): it may still run
                processes.end(self.process)
                self.process.wait()
            self.reader.join()
            self.process.stdout.close()
            self.process.stderr.close()
        finally:
            self._remove_data()
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def _remove_data(self) -> None:
        if self.data_path is None:
            return
        try:
            os.unlink(self.data_path)
        except FileNotFoundError:
            pass


def _blocking_ctrl_c(run):
    """`run`, made to block Ctrl-C in its thread: only the main thread takes it."""
    def blocked() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        run()
    return blocked


def _messages(process: subprocess.Popen) -> Iterator[dict]:
    """The JSON messages minizinc prints; ParadigmError for its first error."""
    for line in process.stdout:
        if not line.startswith("{"):
            continue
        message = json.loads(line)
        if message.get("type") == "error":
            raise ParadigmError(_error_text(message))
        yield message


def _error_text(message: dict) -> str:
    """MiniZinc's error, on one line, its place in the model when it gives one."""
    where = message.get("location") or {}
    line = f"line {where['firstLine']}: " if "firstLine" in where else ""
    return f"{line}{' '.join(str(message.get('message', message.get('what', 'error'))).split())}"


def _finish(minizinc: _process) -> float:
    """Wait for minizinc to end; its CPU seconds (with its children's).  ParadigmError
    with its message if it failed without a JSON error."""
    process = minizinc.process
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, -signal.SIGKILL, -signal.SIGTERM):
        text = [line for line in minizinc.errors().splitlines()
                if line.strip() and "overrides a global constraint" not in line]
        raise ParadigmError(" ".join(" ".join(text[:3]).split()) or f"minizinc exited with {process.returncode}")
    return usage.ru_utime + usage.ru_stime


def _solution(message: dict, shape: Sequence[int]) -> tuple[Any, int | None]:
    """The answer and the objective (None: none) of a solution message."""
    values = message.get("output", {}).get("json")
    if not isinstance(values, dict) or "solution" not in values:
        raise ParadigmError("its output has no `solution`: declare the answer as "
                            "`solution`, an array of the puzzle's shape")
    objective = values.get("objective", values.get("_objective"))
    return checked_answer(values["solution"], shape), objective


def interface(path: str) -> dict:
    """What the MiniZinc model at `path` takes and gives (minizinc's interface: `input`,
    `output`, `method`); UsageError, one line naming the file (and its line), when it
    does not type-check (or minizinc is not installed)."""
    done = subprocess.run([program(), "--model-interface-only", "--json-stream", path],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    messages = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    for message in messages:
        if message.get("type") == "error":
            where = (message.get("location") or {}).get("firstLine")
            raise UsageError(f"{path}:{where}: {_error_text({**message, 'location': None})}"
                             if where else f"{path}: {_error_text(message)}")
    found = next((m for m in messages if m.get("type") == "interface"), None)
    if found is None:
        raise UsageError(f"{path}: minizinc cannot read it")
    return found


def check_file(path: str) -> None:
    """UsageError, one line naming the file (and its line), unless the MiniZinc model at
    `path` type-checks (with no byte-order mark, which minizinc cannot read), is a
    satisfaction model and declares `solution` (and minizinc is installed)."""
    if marked(path):
        raise UsageError(f"{path}:1: it begins with a byte-order mark, which minizinc cannot read: "
                         "save it as UTF-8 without one")
    declared = interface(path)
    if "solution" not in declared.get("output", {}):
        raise UsageError(f"{path}: the model declares no `solution`, the answer in the puzzle's shape")
    if declared.get("method") != "sat":
        raise UsageError(f"{path}: a model solves `satisfy` (an objective's candidates come as "
                         "data, best first), not `{}`".format(declared.get("method")))
