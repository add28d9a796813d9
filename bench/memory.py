"""`make bench`: the peak memory of counting, per family (issue 27).

Each family's puzzle with very many solutions (bench/many-solutions/) is counted
by its default encoding in a process of its own, to a number of solutions, not
for a time: the peak resident memory after each count says whether memory grows
with the solutions counted (it should not).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PUZZLES = Path(__file__).resolve().parent / "many-solutions"

PEAKS = """
import json, resource, sys, time
from crossprolog import parse
puzzle = parse(sys.stdin.read())
peaks = []
for limit in map(int, sys.argv[1:]):
    started = time.perf_counter()
    counted = puzzle.count(limit)
    peaks.append([counted, time.perf_counter() - started,
                  resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024])
print(json.dumps(peaks))
"""


def peaks(text: str, limits: list[int]) -> list[tuple[int, float, float]]:
    """(solutions counted, seconds, peak MB so far) after counting to each limit in turn."""
    run = subprocess.run([sys.executable, "-c", PEAKS, *map(str, limits)], input=text,
                         capture_output=True, text=True, check=True)
    return [tuple(peak) for peak in json.loads(run.stdout)]


def report(quick: bool) -> list[str]:
    limits = [1_000, 20_000] if quick else [1_000, 20_000, 200_000]
    lines = ["\npeak memory of counting (default encoding, a process per family; MB after "
             f"counting {', '.join(f'{n:,}' for n in limits)} solutions)",
             "| family | " + " | ".join(f"{n:,}" for n in limits) + " | solutions / s |",
             "|---|" + "---:|" * (len(limits) + 1)]
    for path in sorted(PUZZLES.glob("*.txt")):
        found = peaks(path.read_text(), limits)
        rate = sum(n for n, _, _ in found) / sum(s for _, s, _ in found)
        lines.append(f"| {path.stem} | " + " | ".join(f"{mb:.0f}" for _, _, mb in found)
                     + f" | {rate:,.0f} |")
    return lines


if __name__ == "__main__":
    print("\n".join(report("--quick" in sys.argv)))
