"""Many big KenKens searched in one process: SWI-Prolog's garbage collector once
aborted it (issue 26).

The candidates encoding embedded terms from a completed table (its grid geometry,
`:- table geometry/4`) in search state changed with setarg/3; after a few searches
SWI-Prolog 9.2.9 stopped with "relocation cells = N; relocated_cells = N,
needs_relocation = N-1" in garbage collection, then SIGABRT: `count --limit 2` on two
8x8 puzzles, 27 of 30 seeds of `generate kenken --rows 8 --cols 8 --well-formed -n 3`.
The grid kernel tables nothing.  An abort kills the process, so each run is a child.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap


def run_child(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=600)


def test_two_hundred_random_8x8_and_9x9_kenkens_are_counted_in_one_process():
    child = run_child("""
        from crossprolog.kenken import random_puzzles
        counted = 0
        for size, seed in [(8, 1), (9, 2), (8, 3), (9, 4)]:
            for puzzle in random_puzzles(size, size, 50, seed=seed):
                assert puzzle.count(limit=2) >= 1   # a random cut of a Latin square
                counted += 1
        print(counted)
    """)
    assert child.returncode == 0, child.stderr[-2000:]
    assert child.stdout.split() == ["200"]
    assert "SYSERROR" not in child.stderr and "garbage collection" not in child.stderr


def test_thirty_well_formed_8x8_kenkens_are_generated_in_one_process():
    child = run_child("""
        from crossprolog.kenken import well_formed_puzzles
        puzzles = list(well_formed_puzzles(8, 8, 30, seed=11))
        assert all(puzzle.count(limit=2) == 1 for puzzle in puzzles)
        print(len(puzzles))
    """)
    assert child.returncode == 0, child.stderr[-2000:]
    assert child.stdout.split() == ["30"]
