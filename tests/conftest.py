"""Shared helpers: the examples directory and the command line, run in-process."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from crossprolog import engine
from crossprolog.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ENCODING_EXAMPLES = sorted(str(path) for path in (EXAMPLES / "encodings").glob("*.pl"))


def example_encodings(family: str) -> list[str]:
    """The bundled example encodings (examples/encodings/*.pl) for the Prolog module
    `family`, loaded (a test's are unloaded after it: see forget_loaded_encodings)."""
    for path in ENCODING_EXAMPLES:
        engine.load_encoding(path)
    return [name for name in engine.user_encodings(family)
            if engine.user_encoding(name).path in ENCODING_EXAMPLES]

# Searches that no machine finishes, for the tests of time limits and Ctrl-C: no test
# may hang on a machine being slow, nor fail for it being fast.
#
# CrossProduct, `chain` encoding: every row multiplies to 2^8 and so every digit is
# 1, 2, 4 or 8, but the last column's product holds a 3.  Bounds propagation cannot
# see it; the search can only find out table by table, and there are about 10^20.
NEVER_CROSSPRODUCT = ("256 256 256 256 256 256 256 384\n"
                      + "? ? ? ? ? ? ? ? 256\n" * 8)
# CrossCells, `fold` and `reified` encodings: sixty +2 cells cannot make an odd total;
# bounds cannot see it, and about 2^59 ways to set the cells stay within them.
NEVER_CROSSCELLS = "+2 " * 60 + "=61\n"
# Sudoku, any encoding: counting the solutions of the empty grid (6.67 * 10^21).
EMPTY_SUDOKU = ". . . . . . . . .\n" * 9


# What stops a command, with its exit code: Ctrl-C at a terminal reaches the command's
# whole process group, as timeout(1)'s SIGTERM does (a batch's workers get it too);
# kill(1) sends SIGTERM to the command alone.  SIGTERM is taken as Ctrl-C, exit 143.
STOPS = [(signal.SIGINT, "group", 130), (signal.SIGTERM, "command", 143), (signal.SIGTERM, "group", 143)]


def stop_sent(process: subprocess.Popen, stop: int, sent_to: str) -> None:
    """Send `stop` to `process`, started in a session of its own, or to its whole group."""
    if sent_to == "group":
        os.killpg(process.pid, stop)
    else:
        process.send_signal(stop)


def ended(process: subprocess.Popen, seconds: float = 60) -> tuple[str, str]:
    """What `process` printed (standard output and error) once it ended, within `seconds`.

    The searches interrupted here never end by themselves, so `seconds` only bounds
    the wait for one whose Ctrl-C was lost.  Should it not end, the test fails saying
    what it was doing: still searching (its CPU time rising), or waiting, and where
    each thread was (a C backtrace, where gdb is installed)."""
    try:
        return process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        pytest.fail(f"process {process.pid} still running {seconds:g} s on: {doings(process.pid)}")


def doings(pid: int) -> str:
    """What process `pid` is doing: its CPU time over a second, its state, and its
    threads' backtraces where gdb can attach to it (Linux: /proc)."""
    def cpu_ticks() -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime

    try:
        before = cpu_ticks()
        time.sleep(1)
        used = cpu_ticks() - before
        state = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                     if line.startswith("State:"))
    except (FileNotFoundError, ProcessLookupError):
        return "it ended meanwhile"
    said = f"{used} CPU ticks in the last second; {state}"
    if shutil.which("gdb"):
        try:
            traced = subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt 25"],
                                    capture_output=True, text=True, timeout=60).stdout
        except subprocess.TimeoutExpired:
            traced = "Thread: gdb gave no backtrace within 60 s"
        said += "\n" + "\n".join(line for line in traced.splitlines() if line.startswith(("#", "Thread")))
    return said


def unexpand(text: str) -> str:
    """`text` with the runs of blanks that reach a tab stop (every 8 columns) written as
    tabs, as `unexpand -a` does: it looks the same."""
    lines = []
    for line in text.split("\n"):
        chunks = [line[i:i + 8] for i in range(0, len(line), 8)]
        lines.append("".join(chunk.rstrip(" ") + "\t" if len(chunk) == 8 and chunk.endswith("  ")
                             else chunk for chunk in chunks))
    return "\n".join(lines)


class Run:
    """What one `crossprolog` command printed and returned."""

    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def json(self):
        return json.loads(self.out)

    def jsonl(self):
        return [json.loads(line) for line in self.out.splitlines()]


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run the command line in this process: cli("solve", path) -> Run.

    A lone puzzle's watchdog ends the process when a search overruns its --timeout
    by GRACE seconds (STUCK_GRACE in compare, cli/limits.py): here that process is
    pytest's, so the grace is made long enough that only a search Prolog never stops
    would meet it.  The
    watchdog itself is tested in processes of its own (test_limits, test_long_runs)."""
    from crossprolog.cli import limits

    monkeypatch.setattr(limits, "GRACE", 120.0)
    monkeypatch.setattr(limits, "STUCK_GRACE", 120.0)

    def run(*args) -> Run:
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def write(tmp_path):
    """Write a puzzle text to a file and return its path: write("...", name="p.txt")."""

    def make(text: str, name: str = "puzzle.txt") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return make


@pytest.fixture(autouse=True)
def forget_loaded_encodings():
    """Unload the user's encodings a test loaded: one for any family would join every
    later compare."""
    before = set(engine.user_encodings())
    yield
    for name in set(engine.user_encodings()) - before:
        engine.unload_encoding(name)


@contextlib.contextmanager
def most_fillings(most: int):
    """grid_fillings:most_fillings/1 set to `most` within, and the fillings kept forgotten
    on the way in and out (they were listed under the other setting)."""
    before = engine.call("grid_fillings:most_fillings(N)", {}, module="kenken")["N"]
    set_most = "retractall(grid_fillings:most_fillings(_)), assertz(grid_fillings:most_fillings(N))"
    engine.call(set_most, {"N": most}, module="kenken")
    engine.forget_worked_out()
    try:
        yield
    finally:
        engine.call(set_most, {"N": before}, module="kenken")
        engine.forget_worked_out()


@pytest.fixture
def every_sum_and_product_folded():
    """The grid kernel folds every sum and product with a filling (grid_folds.pl), not
    only those of too many fillings to list (grid_fillings:most_fillings/1); the tables
    encodings post them as arithmetic, and the hints fold them: so that small puzzles a
    brute force checks take those paths."""
    with most_fillings(0):
        yield


@pytest.fixture
def few_fillings_listed():
    """The kernel lists a sum's or product's fillings only when they are two or fewer,
    and always guided by its fold (as those of a big cage): so that small puzzles take
    that path with tables the brute force checks."""
    with most_fillings(2):
        yield


@pytest.fixture
def implied_sums_in_small_grids():
    """The grid kernel's search takes the sums the units imply in grids of any digits, not
    only nine or more (grid:sums_pay/1), so that small puzzles a brute force checks
    search with them too."""
    least = engine.call("grid:sums_from_digits(N)", {}, module="kenken")["N"]
    set_least = "retractall(grid:sums_from_digits(_)), assertz(grid:sums_from_digits(N))"
    engine.call(f"{set_least}, grid:sums_pay(1-4)", {"N": 1}, module="kenken")  # fails if not taken
    yield
    engine.call(set_least, {"N": least}, module="kenken")
