"""Across paradigms (issue 25): the same puzzles, from the same text, checked by a CLP(FD)
encoding, the family's default, ASP (clingo), MiniZinc (Gecode) and CP-SAT.

Each workload is one text of puzzles (`== N` between them, as `crossprolog
generate -n N` prints them) read with `parse_all`; every puzzle is then checked
(a search for two solutions) by each solver in turn, one puzzle by every solver
before the next, so a busy spell of a shared machine hits them all.  A solver's
time on a puzzle is its whole search as `compare` reports it: posting the
constraints (CLP(FD)), grounding (clingo, in this process), starting `minizinc`
and flattening the model (MiniZinc, a process per search), building the model
(CP-SAT, one worker, handed the puzzle parsed).  A search that runs out of the
budget counts as the budget.  The ratio is the geometric mean, over the puzzles
both solved, of the solver's time over the family's default's (below 1: faster
than the default).

    bench/paradigms.py [--quick] [--budget SECONDS] [--markdown]

(`make bench` runs it as part of bench/run.py.)
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from crossprolog import engine, parse_all  # noqa: E402
from crossprolog.paradigms import available  # noqa: E402
from crossprolog.registry import named  # noqa: E402


@dataclass(frozen=True)
class Workload:
    """Puzzles made by a family's seeded generator, or read from example files."""

    name: str
    family: str
    size: tuple[int, int] = (0, 0)
    n: int = 0
    seed: int = 1
    files: tuple[str, ...] = ()

    def text(self) -> str:
        """One text holding every puzzle, each after a line `== NAME`."""
        if self.files:
            return "\n".join(f"== {Path(f).stem}\n{(ROOT / f).read_text(encoding='utf-8')}"
                             for f in self.files)
        puzzles = named(self.family).generator(*self.size, self.n, self.seed)
        return "\n".join(f"== {i}\n{p.render()}\n" for i, p in enumerate(puzzles, start=1))


SUDOKUS = ("ai-escargot", "easter-monster", "golden-nugget", "platinum-blonde")


def workloads(quick: bool) -> list[Workload]:
    """A few small workloads of `make bench`'s kinds; --quick takes fewer puzzles."""
    n = 3 if quick else 10
    return [Workload(f"crossproduct 5x3 x{n} (seed 42)", "crossproduct", (5, 3), n, 42),
            Workload(f"crossproduct 10x6 x{n // 2} (seed 7)", "crossproduct", (10, 6), n // 2, 7),
            Workload(f"sudoku {len(SUDOKUS)} hard classics", "sudoku",
                     files=tuple(f"examples/sudoku/{name}.txt" for name in SUDOKUS)),
            Workload("sudoku GCD January 2025 (optimum)", "sudoku",
                     files=("examples/sudoku/gcd-2025-01.txt",)),
            Workload(f"crosscells 6x6 x{n} (seed 1)", "crosscells", (6, 6), n, 1),
            Workload(f"crosscells 10x10 x{n // 2} (seed 1)", "crosscells", (10, 10), n // 2, 1),
            Workload(f"kenken 6x6 x{n} (seed 1)", "kenken", (6, 6), n, 1)]


CLPFD = {"crossproduct": "primes", "crosscells": "states", "sudoku": "cardinality",
         "kenken": "tables"}  # each family's strongest plain CLP(FD) encoding


@dataclass
class Solver:
    """One solver on a workload: its time and count per puzzle (None: out of budget)."""

    label: str
    check: Callable[[object], int]
    times: list[float | None] = field(default_factory=list)
    counts: list[int | None] = field(default_factory=list)


def solvers(family: str, budget: float) -> list[Solver]:
    """CLP(FD), the default, ASP, MiniZinc and CP-SAT, as there are here."""
    default = engine.encodings(family)[0]

    def encoding(name: str) -> Callable[[object], int]:
        def check(puzzle) -> int:
            found = puzzle.search(limit=2, timeout=budget, encoding=name, keep=False)
            if found.status == "timeout":
                raise TimeoutError
            return found.count
        return check

    chosen = [Solver(f"{CLPFD[family]} (CLP(FD))", encoding(CLPFD[family])),
              Solver(f"{default} (default)", encoding(default))]
    chosen += [Solver(f"{name} ({'clingo' if name == 'asp' else 'Gecode'})", encoding(name))
               for name in ("asp", "minizinc") if available(name)]
    cp_sat = cp_sat_check(family)
    return chosen + ([Solver("cp-sat (1 worker)", cp_sat)] if cp_sat else [])


def cp_sat_check(family: str) -> Callable[[object], int] | None:
    """CP-SAT's check of a puzzle of `family` (bench/*_cp_sat.py), or None without ortools."""
    try:
        import cp_sat_baseline
        import crosscells_cp_sat
        import kenken_cp_sat
        import sudoku_cp_sat
    except ImportError:
        return None

    def sudoku(puzzle) -> int:
        data = puzzle.prolog_data()
        if data["objective"] != "none":
            raise NotImplementedError  # no CP-SAT model of the objective
        return sudoku_cp_sat.count(data["givens"], 2, data["low"], data["high"])

    return {"crossproduct": lambda p: cp_sat_baseline.count(p, 2), "sudoku": sudoku,
            "crosscells": lambda p: crosscells_cp_sat.count(p, 2),
            "kenken": lambda p: kenken_cp_sat.count(p, 2)}[family]


def measured(workload: Workload, budget: float) -> list[Solver]:
    """Every solver on every puzzle of the workload, puzzle by puzzle."""
    puzzles = parse_all(workload.text())
    chosen = solvers(workload.family, budget)
    for puzzle in puzzles:
        for solver in chosen:
            started = time.perf_counter()
            try:
                count = solver.check(puzzle)
            except TimeoutError:
                solver.times.append(None)
                solver.counts.append(None)
                continue
            except NotImplementedError:
                continue
            solver.times.append(time.perf_counter() - started)
            solver.counts.append(count)
    return chosen


def rows(workload: Workload, chosen: list[Solver], budget: float) -> list[tuple[str, ...]]:
    """The table's rows for one workload: solved, total and median time, the ratio to the
    default, and whether the counts agree with the default's."""
    default = chosen[1]
    lines = []
    for solver in chosen:
        if not solver.times:
            lines.append((workload.name, solver.label, "-", "-", "-", "-", "-"))
            continue
        spent = [budget if t is None else t for t in solver.times]
        ratios = [t / d for t, d in zip(solver.times, default.times) if t and d]
        agree = all(c is None or d is None or c == d for c, d in zip(solver.counts, default.counts))
        lines.append((workload.name, solver.label,
                       f"{sum(t is not None for t in solver.times)}/{len(solver.times)}",
                       f"{sum(spent):.3f}", f"{statistics.median(spent) * 1000:.1f}",
                       f"{math.exp(statistics.fmean(map(math.log, ratios))):.2f}" if ratios else "-",
                       "yes" if agree else "NO"))
    return lines


HEADER = ("workload", "solver", "solved", "total s", "median ms", "x default", "agree")


def table(lines: list[tuple[str, ...]], markdown: bool) -> str:
    """The rows aligned as text, or as a markdown table."""
    if markdown:
        return "\n".join("| " + " | ".join(line) + " |"
                         for line in [HEADER, tuple("---" for _ in HEADER), *lines])
    widths = [max(len(line[i]) for line in [HEADER, *lines]) for i in range(len(HEADER))]
    return "\n".join("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(line, widths))).rstrip()
                     for line in [HEADER, *lines])


def report(quick: bool = False, budget: float = 20.0, markdown: bool = False) -> str:
    """The cross-paradigm table of every workload."""
    lines = []
    for workload in workloads(quick):
        lines += rows(workload, measured(workload, budget), budget)
    return table(lines, markdown)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer puzzles per workload")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per search (default 20)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args()
    print(report(args.quick, args.budget, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
