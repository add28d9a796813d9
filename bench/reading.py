"""Reading alone: `parse_all` over a text of 10 puzzles per family (as bench/run.py's
Workload.text() writes them: `== N` lines between renders), the family named and
guessed; CPU milliseconds a puzzle, the median of several runs.

    .venv/bin/python bench/reading.py [--texts DIR] [--runs N]

With --texts, the texts are kept in DIR (made there the first time), so that another
checkout can time the very same texts (before / after a change, turn about).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from run import Workload

from crossprolog import parse_all

WORKLOADS = [Workload("kenken 9x9", "kenken", 9, 9, 10, 1), Workload("kenken 6x6", "kenken", 6, 6, 10, 1),
             Workload("killer_sudoku 9x9 well-formed", "killer_sudoku", 9, 9, 10, 1, well_formed=True),
             Workload("kakuro 12x12 well-formed", "kakuro", 12, 12, 10, 1, well_formed=True),
             Workload("sudoku 9x9", "sudoku", 9, 9, 10, 1)]


def text_of(workload: Workload, kept: Path | None) -> str:
    """The workload's text, from `kept` when it has it (written there otherwise)."""
    if kept is None:
        return workload.text()
    path = kept / f"{workload.name.replace(' ', '-')}.txt"
    if not path.exists():
        kept.mkdir(parents=True, exist_ok=True)
        path.write_text(workload.text(), encoding="utf-8")
    return path.read_text(encoding="utf-8")


def milliseconds_a_puzzle(text: str, family: str | None, runs: int) -> float:
    """The median over `runs` of the CPU time `parse_all` takes, a puzzle (five reads a run)."""
    count = len(parse_all(text, family))
    times = []
    for _ in range(runs):
        started = time.process_time()
        for _ in range(5):
            parse_all(text, family)
        times.append((time.process_time() - started) / 5 / count * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=Path, help="keep the texts here, to time the same ones elsewhere")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"{'workload':32} {'named':>9} {'guessed':>9}   (ms a puzzle, median of {args.runs})")
    for workload in WORKLOADS:
        text = text_of(workload, args.texts)
        named, guessed = (milliseconds_a_puzzle(text, family, args.runs) for family in (workload.family, None))
        print(f"{workload.name:32} {named:9.3f} {guessed:9.3f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
