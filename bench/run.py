"""`make bench`: crossprolog against its peers on the same puzzles, in the same run (issue 15).

In order: start-up and the bridge's costs; CrossProduct from the text a user
types (parse + solve, parse + check) against the notebook's Python solver and
CP-SAT, each reading the same text; the hard classic Sudokus and magictour's
top1465 collection (fetched once into the cache) checked against CP-SAT, and
the GCD puzzle against the known program's approach (bench/sudoku_known.pl);
CrossCells, KenKen, and well-formed 9x9 Killer Sudokus and 12x12 Kakuros
checked against CP-SAT (the last two reading the text with their own plain
readers); the time per well-formed puzzle generated; what counting the
search's effort costs; the peak memory of counting many solutions (bench/memory.py); the
same puzzles across paradigms (bench/paradigms.py: CLP(FD), the default, ASP,
MiniZinc, CP-SAT); hints, grades and typos (bench/hints.py); the web server
under load (bench/load.py); and last one summary table of ratios, in markdown.

crossprolog reads each workload's whole text with `parse_all` and searches it
with one crossing into Prolog (`search_many`); every time of ours includes
parsing.  Each peer runs in its own process with a time budget, so a peer
that would take minutes is reported as "> budget" instead of stalling the run;
crossprolog and its peers take turns, one repeat of a workload each, so that a
slow spell of the machine falls on all of them (bench/peer_process.py).
A puzzle's time is its search's plus an even share of its reader's time over
the whole text.  Ratios are peer time / crossprolog time: above 1 means
crossprolog is faster.

    bench/run.py [--quick] [--budget SECONDS] [--json FILE] [--only WORDS]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
SUDOKU = ROOT / "examples" / "sudoku"
sys.path.insert(0, str(BENCH))

from crossprolog import engine, parse, parse_all, searches  # noqa: E402
from crossprolog.puzzle import Puzzle, search_many  # noqa: E402
from crossprolog.registry import generate, named  # noqa: E402
from peer_process import OutOfBudget, PeerProcess  # noqa: E402


@dataclass(frozen=True)
class Workload:
    """A named, reproducible set of puzzles, what to do with them (limit 1: solve; 2:
    check), how many times to time it (per-puzzle medians), and issue 23's goal:
    the least ratio, and the most seconds any one puzzle of ours may take; reading
    must be under READING_SHARE of our time on every workload."""

    name: str
    family: str
    rows: int = 0
    cols: int = 0
    n: int = 0
    seed: int = 0
    limit: int = 2
    files: tuple[str, ...] = ()  # example files instead of generated puzzles
    collection: str = ""  # a file of puzzles instead (one text, one puzzle a line: .sdm)
    repeats: int = 1
    goal: float | None = None
    worst_goal: float | None = None
    well_formed: bool = False  # the family's well-formed generator, not its random one

    def puzzles(self) -> list[Puzzle]:
        """The puzzles, parsed from the files or made by the family's seeded generator."""
        if self.files:
            return [parse((ROOT / f).read_text(encoding="utf-8")) for f in self.files]
        if self.collection:
            return parse_all(self.text())
        record = named(self.family)
        make = record.well_formed if self.well_formed else record.generator
        return list(make(self.rows, self.cols, self.n, self.seed))

    def text(self) -> str:
        """One text holding every puzzle, as `crossprolog generate -n N` prints it: each
        after a line `== NAME`."""
        if self.files:
            return "\n".join(f"== {Path(f).stem}\n{(ROOT / f).read_text(encoding='utf-8')}"
                             for f in self.files)
        if self.collection:  # n puzzles spread over it: a collection may be in order of hardness
            lines = Path(self.collection).read_text(encoding="utf-8").splitlines(True)
            return "".join(lines[::max(1, len(lines) // self.n)][:self.n])
        return "\n".join(f"== {i}\n{p.render()}\n" for i, p in enumerate(self.puzzles(), start=1))

    def labels(self) -> list[str]:
        """A name for each puzzle: its file's, or its number."""
        return [Path(f).stem for f in self.files] or [str(i) for i in range(1, self.n + 1)]


def crossproduct_workloads(quick: bool) -> list[Workload]:
    """CrossProduct from text: the issue's 5x3 sets, and the 10x6 and 12x8 ones solved and
    checked; --quick takes a tenth of each."""
    sets = [(5, 3, 1000, 42, 1), (5, 3, 200, 42, 2), (10, 6, 100, 7, 1), (10, 6, 100, 7, 2),
            (12, 8, 20, 3, 1), (12, 8, 20, 3, 2)]
    return [Workload(f"crossproduct {r}x{c} x{cut(n, quick)} (seed {seed}), {TASK[limit]}", "crossproduct",
                     r, c, cut(n, quick), seed, limit, goal=1.5 if (r, c) == (5, 3) else 2,
                     repeats=small_repeats(quick) if (r, c) == (5, 3) else 1)
            for r, c, n, seed, limit in sets]


TASK = {1: "solve", 2: "check"}

# Issue 23: reading the text must take less than this share of our time on every workload.
READING_SHARE = 0.2


def cut(n: int, quick: bool) -> int:
    """A workload's size: `n`, or a tenth of it for --quick."""
    return max(1, n // 10) if quick else n


def sudoku_workload(quick: bool) -> Workload:
    """The hard classics in examples/sudoku (not the GCD puzzle), checked, medians of 5."""
    files = tuple(str(p.relative_to(ROOT)) for p in sorted(SUDOKU.glob("*.txt"))
                  if parse(p.read_text(encoding="utf-8")).objective is None)
    return Workload(f"sudoku {len(files)} hard classics, check", "sudoku", files=files,
                    repeats=1 if quick else 5, goal=2)


# magictour's top1465: 1,465 Sudokus chosen as the hardest for searching solvers, one
# a line; kept out of the repository, fetched once into the cache.
TOP1465_URL = "http://magictour.free.fr/top1465"
TOP1465 = Path(os.environ.get("CROSSPROLOG_CACHE") or
               Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crossprolog") \
    / "bench" / "top1465.txt"


def sudoku_workloads(quick: bool, wanted: Callable[[str], bool] = lambda name: True) -> list[Workload]:
    """The hard classics, and the top1465 collection (every tenth puzzle with --quick: it
    is in order of hardness, hardest first) when `wanted` and in the cache or fetched;
    a line says why when it is neither."""
    n = cut(1465, quick)
    collection = Workload(f"sudoku top1465 x{n}, check", "sudoku", n=n, collection=str(TOP1465), goal=2)
    if not wanted(collection.name):
        return [sudoku_workload(quick)]
    problem = fetched_top1465()
    print(problem or f"sudoku top1465: {TOP1465}", flush=True)
    return [sudoku_workload(quick)] + ([] if problem else [collection])


def fetched_top1465() -> str | None:
    """Fetch top1465 into the cache unless it is there; None, or why it is not there."""
    if TOP1465.exists():
        return None
    try:
        with urllib.request.urlopen(TOP1465_URL, timeout=20) as answer:
            text = answer.read().decode("ascii")
    except (OSError, UnicodeError) as error:
        return (f"sudoku top1465: skipped, not in {TOP1465} and not fetched from {TOP1465_URL} "
                f"({error}); put its 1,465 lines there")
    lines = [line.strip() for line in text.splitlines() if re.fullmatch(r"[0-9.]{81}", line.strip())]
    if len(lines) != 1465:
        return f"sudoku top1465: skipped, {TOP1465_URL} gave {len(lines)} puzzles, not 1,465"
    TOP1465.parent.mkdir(parents=True, exist_ok=True)
    TOP1465.write_text("\n".join(lines) + "\n", encoding="ascii")
    return None


def crosscells_workloads(quick: bool) -> list[Workload]:
    """The issue's random CrossCells sets (generator seed 1), checked; --quick takes a
    tenth of 10x10 and 15x15 and leaves out 20x20."""
    sets = [(10, 20, None), (15, 10, 0.3)] + ([] if quick else [(20, 5, None)])
    return [Workload(f"crosscells {s}x{s} x{cut(n, quick)} (seed 1), check", "crosscells", s, s,
                     cut(n, quick), 1, repeats=small_repeats(quick) if s < 20 else 1, goal=2,
                     worst_goal=worst) for s, n, worst in sets]


def small_repeats(quick: bool) -> int:
    """Repeats of a workload whose peers take seconds at most: one run of a few
    milliseconds a puzzle moved by up to half between runs of the whole bench (KenKen
    7x7: 1.7 ms a puzzle alone, 3.5 ms twice within the whole run), and this machine
    has spells at half speed (CrossProduct 5x3 solving: 155 ms, then 293 ms the next
    run, the notebook's 240 ms then 444 ms)."""
    return 1 if quick else 5


def kenken_workloads(quick: bool) -> list[Workload]:
    """Random KenKen 4x4 to 9x9 (seed 1), checked."""
    n = 2 if quick else 10
    return [Workload(f"kenken {s}x{s} x{n} (seed 1), check", "kenken", s, s, n, 1,
                     repeats=small_repeats(quick), goal=2) for s in range(4, 10)]


def killer_and_kakuro_workloads(quick: bool) -> list[Workload]:
    """Well-formed 9x9 Killer Sudokus and 12x12 Kakuros (seed 1), as a solver meets them
    in print: one solution, every cage or clue shown, checked."""
    n = 2 if quick else 10
    return [Workload(f"killer_sudoku 9x9 x{n} well-formed (seed 1), check", "killer_sudoku", 9, 9, n, 1,
                     repeats=small_repeats(quick), goal=2, well_formed=True),
            Workload(f"kakuro 12x12 x{n} well-formed (seed 1), check", "kakuro", 12, 12, n, 1,
                     repeats=small_repeats(quick), goal=2, well_formed=True)]


# Peers: each reads the workload's text with a reader of its own (timed), or is
# handed the puzzles parsed (untimed), and counts their solutions up to the limit.

@dataclass(frozen=True)
class Peer:
    """A peer solver: `count` gives the solutions of one puzzle up to a limit; `read`
    the puzzles from the workload's text, or None when the peer is handed them parsed."""

    name: str
    count: Callable[[Any, int], int]
    read: Callable[[str], list] | None = None


def crossproduct_tables(text: str) -> list[tuple[list[int], list[int]]]:
    """A plain reader of CrossProduct texts: per puzzle, the row products (each line's
    last number) and the column products (its first line)."""
    tables = []
    for chunk in text.split("== ")[1:]:
        lines = [line.split() for line in chunk.splitlines()[1:] if line.strip()]
        tables.append(([int(line[-1]) for line in lines[1:]], [int(n) for n in lines[0]]))
    return tables


def notebook_count(table: tuple[list[int], list[int]], limit: int) -> int:
    import crossproduct_baseline

    return crossproduct_baseline.count(*table, limit, ordered=True)


def crossproduct_cp_sat_count(table: tuple[list[int], list[int]], limit: int) -> int:
    import cp_sat_baseline
    from crossprolog.crossproduct import CrossProduct

    return cp_sat_baseline.count(CrossProduct(*table), limit)


def sudoku_cp_sat_count(puzzle: Puzzle, limit: int) -> int:
    import sudoku_cp_sat

    data = puzzle.prolog_data()
    return sudoku_cp_sat.count(data["givens"], limit, data["low"], data["high"])


def crosscells_cp_sat_count(puzzle: Puzzle, limit: int) -> int:
    import crosscells_cp_sat

    return crosscells_cp_sat.count(puzzle, limit)


def kenken_cp_sat_count(puzzle: Puzzle, limit: int) -> int:
    import kenken_cp_sat

    return kenken_cp_sat.count(puzzle, limit)


def plain_reader(module: str) -> tuple[Callable[[Any, int], int], Callable[[str], list]]:
    """The count and the reader of a CP-SAT peer that reads the text itself (imported
    when called: ortools may be missing)."""
    return (lambda puzzle, limit: importlib.import_module(module).count(puzzle, limit),
            lambda text: importlib.import_module(module).read(text))


def peers(family: str) -> list[Peer]:
    """The peers of a family that can run here: CP-SAT ones only with ortools installed."""
    sat = has_module("ortools")
    table = {
        "crossproduct": [Peer("python notebook, fewest fillings first", notebook_count, crossproduct_tables),
                         Peer("cp-sat (1 worker)", crossproduct_cp_sat_count, crossproduct_tables)],
        "sudoku": [Peer("cp-sat (1 worker)", sudoku_cp_sat_count)],
        "crosscells": [Peer("cp-sat (1 worker, linear model)", crosscells_cp_sat_count)],
        "kenken": [Peer("cp-sat (1 worker)", kenken_cp_sat_count)],
        "killer_sudoku": [Peer("cp-sat (1 worker)", *plain_reader("killer_sudoku_cp_sat"))],
        "kakuro": [Peer("cp-sat (1 worker)", *plain_reader("kakuro_cp_sat"))],
    }[family]
    return [p for p in table if sat or "cp-sat" not in p.name]


def has_module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


@dataclass
class Measure:
    """A solver's times on a workload: the whole, per puzzle, and reading the text (None
    when handed the puzzles); only the bound when the budget ran out."""

    label: str
    total: float
    times: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    reading: float | None = None
    finished: bool = True
    timeouts: int = 0

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def worst(self) -> float | None:
        return max(self.times) if self.times else None


def per_puzzle(runs: list[list[float]]) -> list[float]:
    """Each puzzle's median time over the runs."""
    return [statistics.median(times) for times in zip(*runs)]


def ours_warmed(workload: Workload) -> str:
    """The workload's text, after one untimed search of its first puzzle (the family's
    grammar and Prolog module loaded)."""
    text = workload.text()
    search_many(parse_all(text)[:1], limit=workload.limit, keep=False)
    return text


def our_repeat(workload: Workload, text: str, budget: float) -> dict:
    """One timed repeat of crossprolog on the workload's text: `parse_all`, then one
    `search_many`, each puzzle's search bounded by `budget`.  It starts with nothing
    kept from the repeat before (`engine.forget_worked_out`), as a fresh process
    would."""
    engine.forget_worked_out()
    started = time.perf_counter()
    puzzles = parse_all(text)
    read = time.perf_counter()
    found = search_many(puzzles, limit=workload.limit, keep=False, timeout=budget)
    return {"total": time.perf_counter() - started, "reading": read - started,
            "times": [(read - started) / len(found) + f.seconds for f in found],
            "counts": [f.count for f in found], "timeouts": sum(f.status == "timeout" for f in found)}


def measured(label: str, repeats: list[dict], read: bool = True) -> Measure:
    """A solver's Measure from its repeats: medians of the totals, of each puzzle's
    times and of the readings."""
    return Measure(label, statistics.median(r["total"] for r in repeats), per_puzzle([r["times"] for r in repeats]),
                   repeats[-1]["counts"], statistics.median(r["reading"] for r in repeats) if read else None,
                   timeouts=repeats[-1].get("timeouts", 0))


def peer_command(workload: Workload, peer: Peer) -> list[str]:
    return [sys.executable, __file__, "--peer", peer.name, "--workload", json.dumps(asdict(workload))]


def run_peer(name: str, workload: Workload) -> None:
    """The child process's work (bench/peer_process.py): one untimed warm-up (imports
    and first-call set-up are not solving), then the peer on every puzzle once for each
    `run` line of its input, a line of JSON each."""
    peer = next(p for p in peers(workload.family) if p.name == name)
    text = workload.text()
    handed = None if peer.read else workload.puzzles()
    peer.count((peer.read(text) if peer.read else handed)[0], 1)
    print("ready", flush=True)
    for _ in sys.stdin:
        started = time.perf_counter()
        puzzles = peer.read(text) if peer.read else handed
        reading = time.perf_counter() - started
        times, counts = [], []
        for puzzle in puzzles:
            started = time.perf_counter()
            counts.append(peer.count(puzzle, workload.limit))
            times.append(time.perf_counter() - started + reading / len(puzzles))
        print(json.dumps({"total": sum(times), "times": times, "counts": counts, "reading": reading}), flush=True)


@dataclass
class Row:
    """One line of the summary table."""

    workload: str
    ours: str
    peer: str
    ratio: str
    goal: str
    met: str


def compared(workload: Workload, budget: float) -> tuple[list[str], list[Row]]:
    """The report lines of a workload, crossprolog against every peer, and its summary
    rows.  Each peer waits, warmed up, in a process of its own, and the solvers take
    turns, a repeat each, so that a slow spell of the machine falls on all of them;
    a peer past its budget (warm-up included) is left out of the turns that remain."""
    text = ours_warmed(workload)
    mine: list[dict] = []
    theirs: dict[str, list[dict] | None] = {}  # None: out of its budget
    running: dict[str, PeerProcess] = {}
    try:
        for peer in peers(workload.family):
            try:
                running[peer.name] = PeerProcess(peer_command(workload, peer), budget)
                theirs[peer.name] = []
            except OutOfBudget:
                theirs[peer.name] = None
        for _ in range(workload.repeats):
            mine.append(our_repeat(workload, text, budget))
            for name, process in list(running.items()):
                try:
                    theirs[name].append(process.repeat())
                except OutOfBudget:
                    theirs[name] = None
                    del running[name]
    finally:
        for process in running.values():
            process.close()
    ours = measured("crossprolog", mine)
    others = [measured(p.name, theirs[p.name], read=p.read is not None) if theirs[p.name]
              else Measure(p.name, budget, finished=False) for p in peers(workload.family)]
    return list(report(workload, ours, others)), [summary_row(workload, ours, others)]


def report(workload: Workload, mine: Measure, others: list[Measure]) -> Iterator[str]:
    """The workload's lines: each solver's total, median, worst and reading times and
    ratio, whether the counts agree, and per puzzle for a set of example files."""
    repeats = f", per-puzzle medians of {workload.repeats}" if workload.repeats > 1 else ""
    yield f"\n{workload.name}: {len(mine.times)} puzzle(s) in one text, limit {workload.limit}{repeats}"
    yield f"  {'solver':40} {'total':>10} {'median':>10} {'worst':>10} {'reading':>10} {'ratio':>8}"
    for m in [mine, *others]:
        total = seconds(m.total) if m.finished else f"> {seconds(m.total)}"
        ratio = "" if m is mine else (f"{m.total / mine.total:.2f}" if m.finished
                                      else f"> {m.total / mine.total:.1f}")
        agree = "" if not m.finished or m is mine or m.counts == mine.counts else "  DISAGREES"
        yield (f"  {m.label:40} {total:>10} {seconds(m.median):>10} {seconds(m.worst):>10} "
               f"{seconds(m.reading):>10} {ratio:>8}{agree}")
    if workload.files and others and others[0].finished:
        for label, a, b in zip(workload.labels(), mine.times, others[0].times):
            yield f"    {label:38} {seconds(a):>10} {others[0].label} {seconds(b):>10}  ratio {b / a:.2f}"
    if not others:
        yield f"  no peer here: {peer_missing()}"
    if mine.timeouts:
        yield f"  crossprolog: {mine.timeouts} puzzle(s) ran out of the per-puzzle budget"


def peer_missing() -> str:
    """Why a family has no peer in this run."""
    if not has_module("ortools"):
        return "ortools is not installed (pip install '.[bench]')"
    return "none known"


def summary_row(workload: Workload, mine: Measure, others: list[Measure]) -> Row:
    """The workload's summary: our median / worst and reading's share of our time, the
    fastest peer and its ratio (for example files, each puzzle's too), and whether
    issue 23's goal is met."""
    share = mine.reading / mine.total
    shown = f"{seconds(mine.median)} / {seconds(mine.worst)}, reading {share:.0%}"
    goal = (f"ratio ≥ {workload.goal:g}" + (f", worst ≤ {workload.worst_goal:g} s" if workload.worst_goal else "")
            + f", reading < {READING_SHARE:.0%}")
    if not others:
        return Row(workload.name, shown, "not available", "-", goal, "-")
    best = min(others, key=lambda m: (not m.finished, m.total))
    ratio = best.total / mine.total
    text = f"{ratio:.2f}" if best.finished else f"> {ratio:.1f}"
    if workload.files and best.finished:
        each = [b / a for a, b in zip(mine.times, best.times)]
        text += f" (each {min(each):.2f}–{max(each):.2f})"
    met = (ratio >= workload.goal and share < READING_SHARE
           and (workload.worst_goal is None or mine.worst <= workload.worst_goal))
    return Row(workload.name, shown, best.label, text, goal, "yes" if met else "no")


# Sudoku's GCD puzzle, start-up, well-formed generation, the effort overhead.

def median_run(search: Callable[[], tuple[object, int]], runs: int = 5) -> tuple[float, int, object]:
    """Median wall time of `runs` calls of `search` (which returns (answer, inferences))."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        answer, inferences = search()
        times.append(time.perf_counter() - started)
    return statistics.median(times), inferences, answer


def gcd_measures() -> tuple[list[str], Row]:
    """The GCD puzzle solved and its optimum proved, against the known program's approach."""
    gcd_puzzle = parse((SUDOKU / "gcd-2025-01.txt").read_text(encoding="utf-8"))

    def mine():
        found = gcd_puzzle.search(limit=1)
        return gcd_puzzle.solution_extras(found.solutions[0])["objective"]["gcd"], found.inferences

    def known():
        answer = engine.call("statistics(inferences, I0), sudoku_known:known_gcd(Gs, _Rows, G), "
                             "statistics(inferences, I1), I is I1 - I0",
                             {"Gs": gcd_puzzle.prolog_data()["givens"]})
        return answer["G"], answer["I"]

    engine.call("use_module(File, [])", {"File": str(BENCH / "sudoku_known.pl")})
    our_time, our_inferences, our_gcd = median_run(mine)
    known_time, known_inferences, known_gcd = median_run(known, runs=3)
    ratio = known_time / our_time
    lines = ["\nsudoku GCD January 2025 (optimum found and proved), median of 5 (known: of 3)",
             f"  crossprolog                      {seconds(our_time):>10}  {our_inferences:>12,} "
             f"inferences  gcd {our_gcd}",
             f"  known program's approach         {seconds(known_time):>10}  {known_inferences:>12,} "
             f"inferences  gcd {known_gcd}  ratio {ratio:.1f}"]
    return lines, Row("sudoku GCD January 2025, optimum proved", seconds(our_time),
                      "known program's approach", f"{ratio:.1f}", "ratio > 1", "yes" if ratio > 1 else "no")


def startup_times(runs: int = 10) -> list[float]:
    """Wall times of `crossprolog solve examples/crossproduct/riddler-1.txt`, each a
    fresh process."""
    script = Path(sys.executable).with_name("crossprolog")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "crossprolog"]
    command += ["solve", str(ROOT / "examples" / "crossproduct" / "riddler-1.txt")]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return times


STARTUP_PARTS = """
import json, time
t0 = time.perf_counter()
import janus_swi
t1 = time.perf_counter()
from crossprolog import cli
t2 = time.perf_counter()
from crossprolog import engine
engine.encodings("crossproduct")
t3 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, t3 - t2]))
"""


def startup_parts(runs: int = 5) -> dict[str, float]:
    """What a start costs, in fresh processes, medians of `runs`: the Python interpreter
    alone, importing janus (which starts Prolog), the command line's Python imports,
    and consulting the driver and the CrossProduct module."""
    bare, parts = [], []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - started)
        parts.append(json.loads(subprocess.run([sys.executable, "-c", STARTUP_PARTS], capture_output=True,
                                               text=True, check=True).stdout))
    names = ["python interpreter", "janus import (Prolog started)", "crossprolog.cli imports",
             "driver + crossproduct.pl consulted"]
    return dict(zip(names, [statistics.median(bare), *map(statistics.median, zip(*parts))]))


def startup() -> tuple[list[str], Row]:
    times = startup_times()
    median = statistics.median(times)
    lines = [f"start-up: crossprolog solve riddler-1.txt, median of {len(times)} fresh processes: "
             f"{seconds(median)} (worst {seconds(max(times))}); its parts, medians of 5:"]
    lines += [f"  {name:36} {seconds(cost):>10}" for name, cost in startup_parts().items()]
    return lines, Row("start-up: crossprolog solve riddler-1.txt, median of 10", seconds(median), "-", "-",
                      "< 0.09 s", "yes" if median < 0.09 else "no")


def bridge_costs() -> list[str]:
    """Engine start-up (fresh process: import + consult of every family) and one trivial
    solve through the bridge, medians."""
    startups = []
    for _ in range(5):
        code = ("import time; t = time.perf_counter(); from crossprolog import engine, registry; "
                "[engine.encodings(f.prolog) for f in registry.FAMILIES]; "
                "print(time.perf_counter() - t)")
        startups.append(float(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                             text=True, check=True).stdout))
    puzzle = parse("6\n? 6\n", "crossproduct")
    calls = []
    for _ in range(500):
        started = time.perf_counter()
        puzzle.search(limit=1)
        calls.append(time.perf_counter() - started)
    return [f"engine start-up (import + consult of every family, median of 5): "
            f"{seconds(statistics.median(startups))}",
            f"one trivial solve through the bridge (median of 500): {statistics.median(calls) * 1e6:.0f} µs"]


# (family, rows, cols, median target in seconds): issue 12's sizes, and issue 23's goals.
GENERATION = [("crossproduct", 10, 6, 1.0), ("crossproduct", 12, 8, 0.5), ("crosscells", 10, 10, 1.0),
              ("crosscells", 15, 15, 2.0), ("sudoku", 9, 9, None), ("kenken", 9, 9, 0.5),
              ("killer_sudoku", 9, 9, None), ("kakuro", 12, 12, None)]


def print_generation_times(family: str, rows: int, cols: int, n: int, seed: int = 1) -> None:
    """The child process's work: print the seconds each of `n` well-formed puzzles takes
    to make, one a line, as each is made."""
    started = time.perf_counter()
    for _ in generate(family, rows, cols, n, seed, well_formed=True):
        print(time.perf_counter() - started, flush=True)
        started = time.perf_counter()


def generation_times(family: str, rows: int, cols: int, n: int, budget: float) -> list[float]:
    """Seconds per well-formed puzzle (seed 1), for those made within `budget` seconds
    in a child process."""
    command = [sys.executable, __file__, "--generate", json.dumps([family, rows, cols, n])]
    try:
        output = subprocess.run(command, capture_output=True, text=True, timeout=budget, check=True).stdout
    except subprocess.TimeoutExpired as stopped:
        output = stopped.stdout or ""
        output = output.decode() if isinstance(output, bytes) else output
    return [float(line) for line in output.split()]


def generation(quick: bool, budget: float) -> tuple[list[str], list[Row]]:
    """Median and worst time per well-formed puzzle for each size of GENERATION, each
    size given `budget` seconds."""
    n = 2 if quick else 5
    lines = [f"\nwell-formed generation (seed 1), up to {n} puzzles per size in {seconds(budget)}: "
             "median / worst per puzzle"]
    rows = []
    for family, r, c, target in GENERATION:
        times = generation_times(family, r, c, n, budget)
        shown = (f"{seconds(statistics.median(times))} / {seconds(max(times))}" if times
                 else f"> {seconds(budget)}")
        made = "" if len(times) == n else f" ({len(times)} of {n} made in the budget)"
        lines.append(f"  {family} {r}x{c}".ljust(24) + shown + made)
        met = "-" if target is None else ("yes" if times and statistics.median(times) < target else "no")
        rows.append(Row(f"well-formed {family} {r}x{c}, per puzzle{made}", shown, "-", "-",
                        "-" if target is None else f"median < {target:g} s", met))
        print(lines[-1], flush=True)
    return lines, rows


def effort_overhead(quick: bool) -> Iterator[str]:
    """CPU time and inferences of the counted search `compare` makes against the plain
    one of `solve`: the default encodings, each puzzle searched for two solutions,
    medians of 3."""
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
            found[effort].append(searches.find(puzzle.record.prolog, puzzle.prolog_data(),
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


def summary_table(rows: list[Row]) -> Iterator[str]:
    """The summary, as a markdown table."""
    yield "\n| workload | crossprolog median / worst | best peer | ratio (total) | goal | met |"
    yield "|---|---|---|---|---|---|"
    for row in rows:
        yield f"| {row.workload} | {row.ours} | {row.peer} | {row.ratio} | {row.goal} | {row.met} |"


def show(lines: list[str]) -> None:
    print("\n".join(lines), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small workloads, short budget")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds per peer per workload, and per crossprolog puzzle "
                             "(default 60; --quick: 10)")
    parser.add_argument("--json", type=Path, help="also write the summary rows here")
    parser.add_argument("--only", metavar="WORDS",
                        help="only the workloads against peers whose names hold WORDS ('kakuro')")
    parser.add_argument("--peer", help=argparse.SUPPRESS)
    parser.add_argument("--workload", help=argparse.SUPPRESS)
    parser.add_argument("--generate", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        run_peer(args.peer, Workload(**json.loads(args.workload)))
        return 0
    if args.generate:
        print_generation_times(*json.loads(args.generate))
        return 0
    budget = args.budget or (10.0 if args.quick else 60.0)
    if args.only:
        chosen = [w for w in [*crossproduct_workloads(args.quick),
                              *sudoku_workloads(args.quick, lambda name: args.only in name),
                              *crosscells_workloads(args.quick), *kenken_workloads(args.quick),
                              *killer_and_kakuro_workloads(args.quick)] if args.only in w.name]
        rows = []
        for workload in chosen:
            lines, found = compared(workload, budget)
            show(lines)
            rows += found
        show(list(summary_table(rows)))
        return 0

    rows = []
    lines, row = startup()
    show(lines + bridge_costs())
    rows.append(row)
    for workload in [*crossproduct_workloads(args.quick), *sudoku_workloads(args.quick)]:
        lines, found = compared(workload, budget)
        show(lines)
        rows += found
    lines, row = gcd_measures()
    show(lines)
    rows.append(row)
    for workload in [*crosscells_workloads(args.quick), *kenken_workloads(args.quick),
                     *killer_and_kakuro_workloads(args.quick)]:
        lines, found = compared(workload, budget)
        show(lines)
        rows += found
    rows += generation(args.quick, budget)[1]
    show(list(effort_overhead(args.quick)))
    import memory  # bench/memory.py (issue 27): the peak memory of counting, per family

    show(memory.report(args.quick))
    import paradigms  # bench/paradigms.py (issue 25): CLP(FD), the default, ASP, MiniZinc, CP-SAT

    print("\nacross paradigms: each puzzle checked; x default = geometric mean of time / the "
          "default encoding's", flush=True)
    show([paradigms.report(args.quick, budget=min(budget, 20.0))])
    import cluster  # bench/cluster.py (issue 24): --jobs against --cluster, the cost of a task

    print("\npast one machine: check and stats here (--jobs) and on a local Dask cluster", flush=True)
    show([cluster.report(args.quick) if has_module("distributed") else "skipped: no Dask "
          "(pip install crossprolog[cluster])"])
    print("", flush=True)  # hints (issue 20): bench/hints.py, its own process
    subprocess.run([sys.executable, str(BENCH / "hints.py")] + (["--quick"] if args.quick else []), check=False)
    import load  # bench/load.py (issue 19): the web server under load, on the loopback

    print("\nthe web server under load (crossprolog serve, loopback only)", flush=True)
    show([load.report(args.quick)])
    print("\nsummary: ratio = best peer's time / crossprolog's, whole workloads, each solver timed from "
          "its input (crossprolog from the text)")
    show(list(summary_table(rows)))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
