"""Reading CrossCells, in ms a puzzle: bench/run.py's texts (Workload.text(): 10 generated
puzzles, `== N` lines between) read piece by piece (as before issue 23) and by
`parse_all` in one pass, with plain CrossProduct 10x6 (read in one pass, 0.03 ms on a
quiet machine) as a yardstick of the machine's load; min and median of alternating
runs, in process CPU time.

    python bench/crosscells_reading.py [RUNS]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Workload  # noqa: E402
from crossprolog.registry import parse_all, parse_piece, pieces  # noqa: E402


def piece_by_piece(text: str, family: str) -> list:
    return [parse_piece(piece) for piece in pieces(text, family)]


def in_one_pass(text: str, family: str) -> list:
    return parse_all(text, family)


def main(runs: int) -> None:
    product = Workload("", "crossproduct", 10, 6, 10, 7).text()
    for size in (10, 15):
        text = Workload("", "crosscells", size, size, 10, 1).text()
        assert list(map(repr, in_one_pass(text, "crosscells"))) == list(map(repr, piece_by_piece(text, "crosscells")))
        readers = [("crosscells", piece_by_piece, text), ("crosscells", in_one_pass, text),
                   ("crossproduct 10x6", in_one_pass, product)]
        times: dict[int, list[float]] = {n: [] for n in range(len(readers))}
        for _ in range(runs):
            for n, (family, read, read_text) in enumerate(readers):
                started = time.process_time()
                read(read_text, family.split()[0])
                times[n].append((time.process_time() - started) / 10 * 1000)
        print(f"{size}x{size}: " + ", ".join(
            f"{family} {read.__name__} median {statistics.median(times[n]):.3f} min {min(times[n]):.3f}"
            for n, (family, read, _) in enumerate(readers)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
