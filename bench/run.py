"""`make bench`: crossprolog's default encodings against plain baselines, in the same run.

Then the Sudoku GCD puzzle against a re-creation of the known program's
approach (bench/sudoku_known.pl), the hard classic Sudokus checked, and
what counting a search's effort (`compare`'s counted run) costs against the
plain search of `solve`.

Every workload is made by the notebook's seeded procedure (or `generate
crosscells`).  For each, the default encoding runs the whole workload through
the Python API's batch call (one crossing into Prolog), and each baseline runs
in its own process with a time budget, so a baseline that would take minutes
is reported as "> budget" instead of stalling the run.  Ratios are baseline
time / crossprolog time: above 1 means crossprolog is faster.

    bench/run.py [--quick] [--budget SECONDS] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from crossprolog import crossproduct, engine  # noqa: E402
from crossprolog.puzzle import Puzzle, search_many  # noqa: E402
from crossprolog.registry import named  # noqa: E402


@dataclass(frozen=True)
class Workload:
    """A named, reproducible set of puzzles and what to do with them (limit 1: solve; 2: check)."""

    name: str
    family: str
    rows: int
    cols: int
    n: int
    seed: int
    limit: int = 1

    def puzzles(self) -> list[Puzzle]:
        return list(named(self.family).generator(self.rows, self.cols, self.n, self.seed))


def workloads(quick: bool) -> list[Workload]:
    """The issue's workloads; --quick shrinks the big sets for a smoke run."""
    cut = (lambda n: max(1, n // 10)) if quick else (lambda n: n)
    solving = [Workload("5x3 x1000 (seed 42)", "crossproduct", 5, 3, cut(1000), 42),
               Workload("10x3 x20 (seed 42)", "crossproduct", 10, 3, cut(20), 42),
               Workload("10x6 notebook (seed 42)", "crossproduct", 10, 6, 1, 42),
               Workload("10x6 x100 (seed 7)", "crossproduct", 10, 6, cut(100), 7),
               Workload("12x8 x20 (seed 3)", "crossproduct", 12, 8, cut(20), 3)]
    checking = [Workload(w.name.replace(" (", ", limit 2 ("), w.family, w.rows, w.cols, w.n, w.seed, 2)
                for w in solving]
    cells = [Workload("crosscells 10x10 x20 (seed 1)", "crosscells", 10, 10, cut(20), 1),
             Workload("crosscells 15x15 x10 (seed 1)", "crosscells", 15, 15, cut(10), 1)]
    return solving + checking + cells


# Baselines: each returns the number of solutions it found for a puzzle (up to the limit).

def _notebook(ordered: bool) -> Callable[[Puzzle, int], int]:
    import crossproduct_baseline as baseline

    return lambda p, limit: baseline.count(p.row_products, p.column_products, limit, ordered)


def _crosscells_python(puzzle: Puzzle, limit: int) -> int:
    import crosscells_baseline

    return 1 if crosscells_baseline.solve(puzzle) is not None else 0


def _cp_sat(puzzle: Puzzle, limit: int) -> int:
    import cp_sat_baseline

    return cp_sat_baseline.count(puzzle, limit)


BASELINES: dict[str, dict[str, Callable[[Puzzle, int], int]]] = {
    "crossproduct": {"python rows": _notebook(False), "python rows, fewest fillings first":
                     _notebook(True), "cp-sat (1 worker)": _cp_sat},
    "crosscells": {"python cells": _crosscells_python},
}


def has_ortools() -> bool:
    try:
        import ortools  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass
class Measure:
    """Wall times per puzzle, or a lower bound when the budget ran out."""

    label: str
    total: float
    median: float | None = None
    worst: float | None = None
    inferences: int | None = None
    finished: bool = True
    solutions: list[int] = field(default_factory=list)
    timeouts: int = 0


def crossprolog_measure(workload: Workload, budget: float) -> Measure:
    """The whole workload in one crossing into Prolog; per-puzzle times are Prolog CPU seconds.

    Each puzzle may take `budget` seconds; how many ran out is in `timeouts`.
    """
    puzzles = workload.puzzles()
    started = time.perf_counter()
    found = search_many(puzzles, limit=workload.limit, keep=False, timeout=budget)
    total = time.perf_counter() - started
    times = [f.cpu for f in found]
    return Measure("crossprolog (default encoding)", total, statistics.median(times), max(times),
                   sum(f.inferences for f in found), True, [f.count for f in found],
                   sum(f.status == "timeout" for f in found))


def baseline_measure(workload: Workload, name: str, budget: float) -> Measure:
    """Run a baseline in a child process; past `budget` seconds, report only the bound."""
    command = [sys.executable, __file__, "--baseline", name, "--workload", json.dumps(asdict(workload))]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=budget)
    except subprocess.TimeoutExpired:
        return Measure(name, budget, finished=False)
    if done.returncode != 0:
        raise RuntimeError(f"baseline {name} failed:\n{done.stderr}")
    result = json.loads(done.stdout)
    return Measure(name, result["total"], result["median"], result["worst"], None, True,
                   result["solutions"])


def run_baseline(name: str, workload: Workload) -> None:
    """The child process's work: time the baseline on every puzzle, print JSON."""
    solve = BASELINES[workload.family][name]
    if workload.family == "crossproduct":  # warm up: imports and first-call set-up are not solving
        solve(crossproduct.CrossProduct((1,), (1,)), 1)
    times, counts = [], []
    for puzzle in workload.puzzles():
        started = time.perf_counter()
        counts.append(solve(puzzle, workload.limit))
        times.append(time.perf_counter() - started)
    print(json.dumps({"total": sum(times), "median": statistics.median(times),
                      "worst": max(times), "solutions": counts}))


def bridge_costs() -> dict[str, float]:
    """Engine start-up (fresh process: import + consult) and one trivial solve, medians."""
    startup = []
    for _ in range(5):
        code = ("import time; t = time.perf_counter(); from crossprolog import engine, registry; "
                "[engine.encodings(f.prolog) for f in registry.FAMILIES]; "
                "print(time.perf_counter() - t)")
        startup.append(float(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                            text=True, check=True).stdout))
    puzzle = crossproduct.CrossProduct((6,), (6,))
    calls = []
    for _ in range(500):
        started = time.perf_counter()
        puzzle.search(limit=1)
        calls.append(time.perf_counter() - started)
    return {"startup": statistics.median(startup), "call": statistics.median(calls)}


SUDOKU = ROOT / "examples" / "sudoku"


def median_run(search: Callable[[], tuple[object, int]], runs: int = 5) -> tuple[float, int, object]:
    """Median wall time of `runs` calls of `search` (which returns (answer, inferences))."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        answer, inferences = search()
        times.append(time.perf_counter() - started)
    return statistics.median(times), inferences, answer


def check(puzzle: Puzzle) -> tuple[int, int]:
    """Solutions (at most 2) and inferences of a well-formedness check."""
    found = puzzle.search(limit=2, keep=False)
    return found.count, found.inferences


def sudoku_measures() -> Iterator[str]:
    """The GCD puzzle against the known program's approach, and the hard classics, checked."""
    from crossprolog import parse

    gcd_puzzle = parse((SUDOKU / "gcd-2025-01.txt").read_text(encoding="utf-8"))

    def ours():
        found = gcd_puzzle.search(limit=1)
        return gcd_puzzle.solution_extras(found.solutions[0])["objective"]["gcd"], found.inferences

    def known():
        answer = engine.call("statistics(inferences, I0), sudoku_known:known_gcd(Gs, _Rows, G), "
                             "statistics(inferences, I1), I is I1 - I0",
                             {"Gs": gcd_puzzle.prolog_data()["givens"]})
        return answer["G"], answer["I"]

    engine.call("use_module(File, [])", {"File": str(ROOT / "bench" / "sudoku_known.pl")})
    our_time, our_inferences, our_gcd = median_run(ours)
    known_time, known_inferences, known_gcd = median_run(known, runs=3)
    yield "\nsudoku GCD January 2025 (optimum found and proved), median of 5 (known: of 3)"
    yield f"  crossprolog (default encoding)  {seconds(our_time):>10}  {our_inferences:>12,} inferences  gcd {our_gcd}"
    yield (f"  known program's approach        {seconds(known_time):>10}  {known_inferences:>12,} "
           f"inferences  gcd {known_gcd}  {known_time / our_time:.1f}x")
    yield "\nsudoku hard classics, check (solve and prove unique), median of 5"
    for path in sorted(SUDOKU.glob("*.txt")):
        puzzle = parse(path.read_text(encoding="utf-8"))
        if puzzle.objective is not None:
            continue
        time_taken, inferences, count = median_run(partial(check, puzzle))
        yield f"  {path.stem:32} {seconds(time_taken):>10}  {inferences:>12,} inferences  {count} solution(s)"


def effort_overhead(quick: bool) -> Iterator[str]:
    """CPU time and inferences of the counted search `compare` makes against the plain
    one of `solve`: the default encodings, each puzzle searched for two solutions,
    medians of 3."""
    from crossprolog import parse

    cut = 4 if quick else 1
    sets = [(w.name, w.puzzles()[::cut]) for w in (
        Workload("crossproduct 10x6 x20 (seed 7)", "crossproduct", 10, 6, 20, 7),
        Workload("crosscells 10x10 x10 (seed 1)", "crosscells", 10, 10, 10, 1),
        Workload("kenken 6x6 x20 (seed 1)", "kenken", 6, 6, 20, 1))]
    sets.append(("sudoku examples", [parse(path.read_text(encoding="utf-8"))
                                     for path in sorted(SUDOKU.glob("*.txt"))][::cut]))
    yield ("\ncounting the search's effort (compare) against the plain search (solve), "
           "medians of 3: CPU, inferences")
    totals = [0.0, 0.0, 0, 0]
    for label, puzzles in sets:
        pairs = [searched(puzzle) for puzzle in puzzles]
        measures = [sum(p[0][0] for p in pairs), sum(p[1][0] for p in pairs),
                    sum(p[0][1] for p in pairs), sum(p[1][1] for p in pairs)]
        totals = [t + m for t, m in zip(totals, measures)]
        yield overhead_line(label, *measures)
    yield overhead_line("all", *totals)


def searched(puzzle: Puzzle) -> list[tuple[float, int]]:
    """Median CPU seconds and inferences of three searches for two solutions, plain
    and counted, taken in turn."""
    found: list[list[dict]] = [[], []]
    for _ in range(3):
        for effort in (False, True):
            found[effort].append(engine.find(puzzle.record.prolog, puzzle.prolog_data(),
                                             shape=puzzle.answer_shape(), limit=2, effort=effort))
    return [(statistics.median(f["cpu"] for f in runs), statistics.median(f["inferences"] for f in runs))
            for runs in found]


def overhead_line(label: str, cpu: float, counted_cpu: float, inferences: int,
                  counted_inferences: int) -> str:
    return (f"  {label:32} plain {seconds(cpu):>10}  counted {seconds(counted_cpu):>10}  "
            f"{counted_cpu / cpu - 1:+6.1%}   inferences {counted_inferences / inferences - 1:+6.1%}")


def seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def report(workload: Workload, ours: Measure, others: list[Measure]) -> Iterator[str]:
    yield f"\n{workload.name}: {workload.n} puzzle(s), limit {workload.limit}"
    yield f"  {'solver':38} {'total':>10} {'median':>10} {'worst':>10} {'ratio':>8}"
    for m in [ours, *others]:
        total = seconds(m.total) if m.finished else f"> {seconds(m.total)}"
        ratio = "" if m is ours else (f"{m.total / ours.total:.1f}x" if m.finished
                                      else f"> {m.total / ours.total:.0f}x")
        agree = "" if not m.finished or m is ours or m.solutions == ours.solutions else "  DISAGREES"
        yield f"  {m.label:38} {total:>10} {seconds(m.median):>10} {seconds(m.worst):>10} {ratio:>8}{agree}"
    yield f"  crossprolog inferences: {ours.inferences:,}"
    if ours.timeouts:
        yield f"  crossprolog: {ours.timeouts} puzzle(s) ran out of the per-puzzle budget"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of each big workload")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="seconds per baseline per workload, and per crossprolog puzzle")
    parser.add_argument("--json", type=Path, help="also write the measures here")
    parser.add_argument("--baseline", help=argparse.SUPPRESS)
    parser.add_argument("--workload", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        run_baseline(args.baseline, Workload(**json.loads(args.workload)))
        return 0

    costs = bridge_costs()
    print(f"engine start-up (import + consult, median of 5): {seconds(costs['startup'])}")
    print(f"one trivial solve through the bridge (median of 500): {costs['call'] * 1e6:.0f} µs")
    sat = has_ortools()
    if not sat:
        print("cp-sat baseline skipped: ortools is not installed (pip install '.[bench]')")
    results = []
    for workload in workloads(args.quick):
        ours = crossprolog_measure(workload, args.budget)
        names = [n for n in BASELINES[workload.family] if sat or not n.startswith("cp-sat")]
        others = [baseline_measure(workload, name, args.budget) for name in names]
        for line in report(workload, ours, others):
            print(line, flush=True)
        results.append({"workload": asdict(workload), "crossprolog": asdict(ours),
                        "baselines": [asdict(m) for m in others]})
    for line in sudoku_measures():
        print(line, flush=True)
    for line in effort_overhead(args.quick):
        print(line, flush=True)
    if args.json:
        args.json.write_text(json.dumps({"costs": costs, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
