"""The Python-Prolog bridge: time limits, lazy search, threads, and the shipped files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import janus_swi as janus
import pytest

import crossprolog
from crossprolog import CrossProduct, TimeLimitExceeded, engine
from crossprolog.errors import Interrupted
from crossprolog.crossproduct import random_puzzles

from conftest import EMPTY_SUDOKU, NEVER_CROSSPRODUCT

RIDDLER_2 = CrossProduct((210, 144, 54, 135, 4, 49), (6615, 15552, 420))


def test_a_timed_out_search_leaves_the_engine_ready_for_the_next():
    started = time.perf_counter()
    with pytest.raises(TimeLimitExceeded):
        crossprolog.parse(NEVER_CROSSPRODUCT).solve(encoding="chain", timeout=0.3)
    assert time.perf_counter() - started < 0.3 + 2  # generous: shared machines
    assert RIDDLER_2.solve().values[0] == (7, 6, 5)
    assert RIDDLER_2.count() == 1


def test_count_reports_what_it_saw_before_the_time_ran_out():
    puzzle = crossprolog.parse("+1 " * 60 + "#30")  # 1.2 * 10^17 solutions, each found at once
    with pytest.raises(TimeLimitExceeded) as caught:
        puzzle.count(timeout=1)
    assert caught.value.found > 0


def test_solutions_are_lazy_and_closing_stops_the_search():
    puzzle = CrossProduct((7 ** 8,) * 9, (7 ** 8,) * 9)  # 9! = 362880 solutions
    solutions = puzzle.solutions()
    first = [next(solutions) for _ in range(3)]
    solutions.close()
    assert len({s.values for s in first}) == 3
    assert all(CrossProduct.from_table(s.values) == puzzle for s in first)


def test_lazy_solutions_honour_a_time_budget():
    puzzle = crossprolog.parse(EMPTY_SUDOKU)
    seen = 0
    with pytest.raises(TimeLimitExceeded):
        for _ in puzzle.solutions(timeout=0.2):
            seen += 1
    assert seen > 0


def test_four_threads_solve_different_puzzles_correctly():
    puzzles = list(random_puzzles(5, 3, 40, seed=1))
    with ThreadPoolExecutor(4) as pool:
        solutions = list(pool.map(lambda p: p.solve(), puzzles))
    assert all(CrossProduct.from_table(s.values) == p for s, p in zip(solutions, puzzles))


def test_forget_worked_out_empties_every_table_the_families_keep():
    """The bench times each repeat from what a fresh process has: none of the lines,
    fillings or units worked out for the repeat before."""
    for family, rows, cols in (("crosscells", 4, 4), ("killer_sudoku", 9, 9)):
        for puzzle in crossprolog.generate(family, rows, cols, 2, seed=1):
            puzzle.search(limit=2)
    next(crossprolog.generate("killer_sudoku", 9, 9, 1, seed=1)).search(limit=2)  # units: kept seen twice

    def kept() -> dict[str, int]:
        """The clauses of each table a family names, by its name."""
        return {answer["T"]: answer["N"] for answer in janus.query(
            "crossprolog:worked_out(_M:_P/_A), functor(_H, _P, _A), "
            "aggregate_all(count, _M:_H, N), format(string(T), '~w:~w/~w', [_M, _P, _A])")}

    before = kept()
    assert {"crosscells_lines:known_lines/3", "grid_fillings:known_fillings/3", "grid_geometry:known_units/3"} <= set(before)
    assert all(before.values())
    engine.forget_worked_out()
    assert set(kept().values()) == {0}
    assert all(puzzle.well_formed() for puzzle in crossprolog.generate("crosscells", 4, 4, 2, seed=1,
                                                                         well_formed=True))


def test_products_beyond_64_bits_are_exact():
    table = [[9] * 25 for _ in range(3)]
    puzzle = CrossProduct.from_table(table)
    assert puzzle.row_products[0] == 9 ** 25 > 2 ** 64
    assert puzzle.solve().values == tuple(map(tuple, table))


def test_the_built_wheel_alone_solves_puzzles(tmp_path):
    """The wheel carries the Prolog modules and grammars: no source tree needed at run time."""
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                    str(root)], check=True, capture_output=True)
    [wheel] = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"crossprolog/prolog/crossprolog.pl", "crossprolog/prolog/crossproduct.pl",
            "crossprolog/grammars/crossproduct.py", "crossprolog/cli/__init__.py"} <= names
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(target), str(wheel)], check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", "-", "--format", "json"],
                          input="6 8\n? ? 6\n? ? 8\n", capture_output=True, text=True,
                          cwd=tmp_path, env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    probe = subprocess.run([sys.executable, "-c", "import crossprolog; print(crossprolog.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path,
                           env={"PYTHONPATH": str(target)})
    assert probe.stdout.startswith(str(target))


EVERY_FAMILY = ["crossproduct/riddler-1.txt", "crosscells/sumplete.txt", "kenken/issue-4x4.txt",
                "sudoku/platinum-blonde.txt",
                "killer_sudoku/shidoku-4x4.txt", "kakuro/tiny.txt"]


def python_run_inside_janus(action) -> list[str]:
    """The Python functions that run while janus converts a call's data or searches
    during `action()`: a KeyboardInterrupt raised in one of them, janus does not check
    for (it crashed the process with SIGSEGV)."""
    inside, seen = [], []

    def profile(frame, event, arg):
        if (event == "c_call" and getattr(arg, "__module__", None) == "janus_swi._swipl"
                and arg.__name__ != "initialize"):  # Prolog's start, as janus is imported
            inside.append(arg)
        elif event in ("c_return", "c_exception") and inside and arg is inside[-1]:
            inside.pop()
        elif event == "call" and inside and frame.f_code is not engine.poll_signals.__code__:
            # poll_signals runs through janus's py_call, which hands its KeyboardInterrupt
            # to Prolog as an error: the one Python a search runs on purpose (take_ctrl_c)
            seen.append(f"{frame.f_code.co_filename}:{frame.f_code.co_name}")

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("example", EVERY_FAMILY)
def test_no_python_code_runs_inside_janus_where_a_ctrl_c_would_crash_it(example):
    puzzle = crossprolog.parse(Path("examples", example).read_text())

    def searches():
        puzzle.solve(timeout=60)  # with a time limit: Prolog's alarms, too
        puzzle.count(2)
        next(iter(puzzle.solutions()))

    assert python_run_inside_janus(searches) == []


def test_a_ctrl_c_in_a_searchs_last_step_is_raised_not_lost():
    """SWI-Prolog acts on a signal at its next call, and drops it if its handler has gone
    by then: a Ctrl-C in the last step of a search (here the step sends it) must still
    stop the caller, and Python must have Ctrl-C back afterwards."""
    last_step = "janus:py_call(os:kill(P, 2))"  # 2: SIGINT
    with pytest.raises(Interrupted):
        engine.call(f"crossprolog:within(0, {last_step})", {"P": os.getpid()})
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)  # Python's own handler raises at once, ending the sleep
