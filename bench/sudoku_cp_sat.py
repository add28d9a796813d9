"""A CP-SAT model of Sudoku (OR-Tools, one worker): the industrial baseline.

Each cell is an integer variable, each row, column and box one
AddAllDifferent, each given a fixed domain.  A check asks for up to 2
solutions: CP-SAT enumerates them with presolve off, as it must to list every
solution.  Optional: needs `pip install '.[bench]'`.

    bench/sudoku_cp_sat.py [--runs N] [--encodings candidates,cardinality]

times every classic in examples/sudoku checked, and with --encodings the
crossprolog encodings named in the same run (the GCD puzzle too).
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cp_sat_count import count_solutions

SIZE = 9


def units() -> list[list[tuple[int, int]]]:
    """The 27 units of the grid (rows, columns, boxes), as (row, column) cells."""
    rows = [[(r, c) for c in range(SIZE)] for r in range(SIZE)]
    columns = [[(r, c) for r in range(SIZE)] for c in range(SIZE)]
    boxes = [[(b // 3 * 3 + i // 3, b % 3 * 3 + i % 3) for i in range(SIZE)] for b in range(SIZE)]
    return rows + columns + boxes


def count(givens: list[list[int]], limit: int, low: int = 1, high: int = 9) -> int:
    """Solutions found, up to `limit` (0: all), of the Sudoku with `givens` ([row, column, digit], 0-based).

    The digits are nine of `low`..`high`: all of them for 1-9; for a range of
    ten, one is left out, the same in every unit (one variable shared by all
    units stands for it).
    """
    model = cp_model.CpModel()
    grid = [[model.NewIntVar(low, high, "") for _ in range(SIZE)] for _ in range(SIZE)]
    unused = [model.NewIntVar(low, high, "") for _ in range(high - low + 1 - SIZE)]
    for r, c, digit in givens:
        model.Add(grid[r][c] == digit)
    for unit in units():
        model.AddAllDifferent([grid[r][c] for r, c in unit] + unused)
    return count_solutions(model, limit)


def main() -> int:
    import argparse
    import statistics
    import sys
    import time
    from pathlib import Path

    import ortools

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from crossprolog import parse, searches

    parser = argparse.ArgumentParser(description="CP-SAT (one worker) checking the classic Sudokus")
    parser.add_argument("--runs", type=int, default=5, help="runs per puzzle; the median is shown")
    parser.add_argument("--encodings", default="", metavar="NAMES",
                        help="comma-separated crossprolog Sudoku encodings to time in the same run "
                             "(ratio: CP-SAT time / the encoding's); the GCD puzzle is then timed too")
    args = parser.parse_args()
    encodings = [e for e in args.encodings.split(",") if e]

    def median_ms(search) -> tuple[float, object]:
        times, answer = [], None
        for _ in range(args.runs):
            started = time.perf_counter()
            answer = search()
            times.append(time.perf_counter() - started)
        return statistics.median(times) * 1000, answer

    print(f"CP-SAT (OR-Tools {ortools.__version__}), one worker, check (limit 2), median of {args.runs}"
          + "".join(f"; {e} through the bridge" for e in encodings))
    for path in sorted((root / "examples" / "sudoku").glob("*.txt")):
        puzzle = parse(path.read_text(encoding="utf-8"))
        data = puzzle.prolog_data()
        if puzzle.objective is None:
            cp_sat, found = median_ms(lambda: count(data["givens"], 2, data["low"], data["high"]))
            line = f"  {path.stem:18} CP-SAT {cp_sat:7.1f} ms {found} sol"
        elif encodings:
            cp_sat, line = None, f"  {path.stem:18} {'(objective: no CP-SAT)':25}"
        else:
            continue
        for encoding in encodings:
            searches.find("sudoku", data, limit=2, keep=False, encoding=encoding)  # loaded and warm
            ours, result = median_ms(lambda: searches.find("sudoku", data, limit=2, keep=False,
                                                         encoding=encoding))
            ratio = f" ratio {cp_sat / ours:5.2f}" if cp_sat else ""
            line += (f" | {encoding} {ours:7.1f} ms {result['inferences'] / 1e6:5.2f} M inf "
                     f"{result['count']} sol{ratio}")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
