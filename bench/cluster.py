"""Past one machine (issue 24): throughput of the same commands here (--jobs) and on a
local Dask cluster (--cluster local:N), and the cluster's cost per task.

Each command runs as a user types it, in a process of its own, its output to
/dev/null; its time is the whole command's (a local cluster's start included:
`start` is that of a run of two puzzles, the least a cluster is used for) and
`work` is the same less `start`.  The ways of running a command take turns,
a run each, and each figure is a median over the turns (3 for check, 5 for
stats, whose runs are short); `CPU s` is the whole
command's CPU time, its workers' included: on a machine others share, the
measure that their load does not inflate.  The workloads: `check` over 2,000
9x9 KenKens (one file, `generate("kenken", 9, 9, 2000, seed=1)`: the size
newspapers print and people check in bulk, about half of them well-formed,
~13 ms each to read and search) and `stats` over 20,000 5x3 CrossProducts
(the size the puzzle is published at); the start of stats is that of two
chunks (--sizes 5x3,5x3 -n 2), which --jobs 2 gives a worker each.  The
cluster's cost per task is measured on a local cluster of 2 workers: tasks
that do nothing, one at a time (latency) and 400 at once (throughput).  Last,
what a 10^8-puzzle `stats` would cost on N workers, from the measured cost
per puzzle on one worker and per task.

    bench/cluster.py [--quick]

(`make bench` runs it as part of bench/run.py.)
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import pickle
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHERE = (("--jobs 1", ["--jobs", "1"]), ("--jobs 2", ["--jobs", "2"]),
         ("--cluster local:1", ["--cluster", "local:1"]), ("--cluster local:2", ["--cluster", "local:2"]))
STUDY = 10 ** 8


def command_seconds(args: list[str]) -> tuple[float, float]:
    """Wall time and CPU time of `crossprolog ARGS` (its worker processes' included, as
    they end before it), its output thrown away; it must succeed (0 or 1)."""
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "crossprolog", *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"crossprolog {' '.join(args)}: exit {done.returncode}: {done.stderr}")
    return time.perf_counter() - started, _children_cpu() - cpu


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


CHECKED = ("kenken", 9, 9)     # the puzzles `check` goes through
STUDIED = "5x3"                # the CrossProduct size `stats` studies


def puzzles_file(directory: str, n: int) -> str:
    from crossprolog import generate

    path = Path(directory) / "puzzles.txt"
    path.write_text("".join(f"== {i}\n{p.render()}\n" for i, p in
                            enumerate(generate(*CHECKED, n, seed=1), 1)))
    return str(path)


def throughput(quick: bool) -> tuple[list[str], dict]:
    """The table of check and stats throughput under each way of running them.  The
    ways take turns, a run each (its start, then the whole), so that a slow spell of
    the machine falls on all of them; each figure is a median over the turns (3, or 5
    for the short stats; 1 with --quick, over a tenth of the puzzles), `work` the
    median of each turn's whole less its start."""
    checks, studied = (200, 2000) if quick else (2000, 20000)
    lines = ["| command | where | start s | whole s | work s | puzzles/s | x --jobs 1 | CPU s |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    measured = {}
    with tempfile.TemporaryDirectory() as directory:
        many = puzzles_file(directory, checks)
        (Path(directory) / "two").mkdir()
        two = puzzles_file(str(Path(directory) / "two"), 2)
        workloads = (("check", checks, 3, ["check", many, "--format", "json"], ["check", two, "--format", "json"]),
                     ("stats", studied, 5, ["stats", "crossproduct", "--sizes", STUDIED, "-n", str(studied)],
                      ["stats", "crossproduct", "--sizes", f"{STUDIED},{STUDIED}", "-n", "2"]))
        for name, n, runs, args, small in workloads:
            turns: dict[str, list[tuple[float, float, float]]] = {label: [] for label, _ in WHERE}
            for _ in range(1 if quick else runs):
                for label, where in WHERE:
                    start, _ = command_seconds(small + where)
                    whole, cpu = command_seconds(args + where)
                    turns[label].append((start, whole, cpu))
            base = None
            for label, _ in WHERE:
                start, whole, cpu = (statistics.median(t[k] for t in turns[label]) for k in range(3))
                work = statistics.median(t[1] - t[0] for t in turns[label])
                measured[(name, label)] = (start, whole, work, n)
                if work <= 0:  # the start took as long as the whole: too few puzzles to tell
                    lines.append(f"| {name} {n:,} | {label} | {start:.2f} | {whole:.2f} | - | - | - | {cpu:.2f} |")
                    continue
                base = base or work
                lines.append(f"| {name} {n:,} | {label} | {start:.2f} | {whole:.2f} | {work:.2f} | "
                             f"{n / work:,.0f} | {base / work:.2f} | {cpu:.2f} |")
    return lines, measured


def task_costs(tasks: int = 400) -> tuple[float, float]:
    """Seconds per empty task on a local cluster of 2 workers: one at a time (latency),
    and `tasks` at once (throughput)."""
    from distributed import Client, LocalCluster

    from crossprolog.dask_worker import run_chunk

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                      silence_logs=logging.CRITICAL) as local, \
            Client(local) as client:
        nothing = pickle.dumps([])  # a chunk of no items, as crossprolog.cluster sends one
        client.submit(run_chunk, len, nothing, pure=False).result()
        started = time.perf_counter()
        for _ in range(50):
            client.submit(run_chunk, len, nothing, pure=False).result()
        latency = (time.perf_counter() - started) / 50
        started = time.perf_counter()
        client.gather([client.submit(run_chunk, len, nothing, pure=False) for _ in range(tasks)])
        per_task = (time.perf_counter() - started) / tasks
    return latency, per_task


def projection(per_puzzle: float, per_task: float) -> list[str]:
    """What a `stats` over STUDY puzzles costs on N workers.  Its chunks of STATS_CHUNK
    puzzles go out grouped into tasks of about TASK_SECONDS (crossprolog.cluster);
    each task costs its worker `2 * per_task` beyond its puzzles (measured with 2
    workers sharing the load), and the scheduler hands tasks out one after another,
    at best one every `per_task` (as measured: an upper bound of its own cost)."""
    from crossprolog.cluster import TASK_SECONDS
    from crossprolog.studies import STATS_CHUNK

    chunk_seconds = STATS_CHUNK * per_puzzle
    puzzles_per_task = STATS_CHUNK * max(1, math.ceil(TASK_SECONDS / chunk_seconds))
    tasks = STUDY / puzzles_per_task
    lines = [f"a {STUDY:.0e}-puzzle stats ({STUDIED} CrossProduct): {per_puzzle * 1e3:.3f} ms a puzzle "
             f"on one worker; {tasks:,.0f} tasks of {puzzles_per_task:,} puzzles, "
             f"{2 * per_task * 1e3:.1f} ms each on its worker",
             "| workers | hours | the tasks' cost | scheduler's bound |", "|---:|---:|---:|---:|"]
    for workers in (2, 16, 128, 1024):
        work = (STUDY * per_puzzle + tasks * 2 * per_task) / workers
        bound = tasks * per_task
        lines.append(f"| {workers} | {max(work, bound) / 3600:.2f} | "
                     f"{tasks * 2 * per_task / workers / max(work, bound):.1%} | {bound / 3600:.2f} h |")
    return lines


def report(quick: bool = False) -> str:
    before = os.getloadavg()[0]
    lines, measured = throughput(quick)
    lines.append(f"load average (1 min) of the machine: {before:.1f} before, {os.getloadavg()[0]:.1f} "
                 f"after, on {os.cpu_count()} cores: others' work shares them")
    latency, per_task = task_costs()
    _, _, work, n = measured[("stats", "--cluster local:1")]

    lines += ["", f"per task on a local cluster of 2: {latency * 1e3:.1f} ms one at a time, "
                  f"{per_task * 1e3:.2f} ms each of 400 at once", ""]
    lines += projection(work / n, per_task) if work > 0 else [
        "no projection: stats on --cluster local:1 took no longer than its start (too few puzzles to tell)"]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the puzzles")
    print(report(parser.parse_args().quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
