"""A CP-SAT model of KenKen (OR-Tools, one worker): the industrial baseline.

Each cell is an integer variable 1..N, each row and column one
AddAllDifferent, each given a fixed value.  A cage is stated one of two ways
(`model=`):

  - "table" (the default): AddAllowedAssignments over the cage's fillings,
    the digits that make its target, none twice in a row or column of the
    cage, as crossprolog's `tables` encoding states it;
  - "arithmetic": a linear sum, a chain of AddMultiplicationEquality, an
    AddAbsEquality of the difference, or the two orders of a division as
    enforced linear equations.

A check asks for up to 2 solutions: CP-SAT enumerates them with presolve
off, as it must to list every solution.  Optional: needs `pip install
'.[bench]'`.

    bench/kenken_cp_sat.py [--sizes 6,7,8,9] [--count 10] [--seed 1] [--models table,arithmetic]
                           [--encodings NAMES]

times `random_puzzles(n, n, count, seed)` for each size, checked, both
CP-SAT models and crossprolog's encodings (its default unless named) in
the same run, each puzzle a call, one puzzle by every solver before the
next (a busy spell on a shared machine hits them all), and prints the
ratios (the faster CP-SAT
model's time / crossprolog's: above 1, crossprolog is faster).
"""

from __future__ import annotations

from itertools import product

from ortools.sat.python import cp_model

from crossprolog.kenken import GIVEN, KenKen, combined
from cp_sat_count import count_solutions


def fillings(cage, size: int) -> list[tuple[int, ...]]:
    """The digits for the cage's cells that make its target, none twice in a line."""
    found = []
    for digits in product(range(1, size + 1), repeat=len(cage.cells)):
        if combined(cage.op, digits) == cage.target and not any(
                digits[i] == digits[j] and (a[0] == b[0] or a[1] == b[1])
                for i, a in enumerate(cage.cells) for j, b in enumerate(cage.cells) if i < j):
            found.append(digits)
    return found


def count(puzzle: KenKen, limit: int, model: str = "table") -> int:
    """The number of solutions of `puzzle`, up to `limit`."""
    n = puzzle.size
    cp = cp_model.CpModel()
    grid = [[cp.NewIntVar(1, n, "") for _ in range(n)] for _ in range(n)]
    for r, row in enumerate(puzzle.givens):
        for c, given in enumerate(row):
            if given is not None:
                cp.Add(grid[r][c] == given)
    for line in grid + [list(column) for column in zip(*grid)]:
        cp.AddAllDifferent(line)
    for cage in puzzle.cages:
        cells = [grid[r][c] for r, c in cage.cells]
        if model == "table":
            allowed = fillings(cage, n)
            if not allowed:
                return 0
            cp.AddAllowedAssignments(cells, allowed)
        else:
            _arithmetic(cp, cage, cells, n)
    return count_solutions(cp, limit)


def _arithmetic(cp, cage, cells, n: int) -> None:
    if cage.op == "+":
        cp.Add(sum(cells) == cage.target)
    elif cage.op == "*":
        product_so_far = cells[0]
        for cell in cells[1:]:
            bound = n ** len(cage.cells)
            step = cp.NewIntVar(1, bound, "")
            cp.AddMultiplicationEquality(step, [product_so_far, cell])
            product_so_far = step
        cp.Add(product_so_far == cage.target)
    elif cage.op == "-":
        a, b = cells
        difference = cp.NewIntVar(-n, n, "")
        cp.Add(difference == a - b)
        cp.AddAbsEquality(cage.target, difference)
    elif cage.op == "/":
        a, b = cells
        a_larger = cp.NewBoolVar("")
        cp.Add(a == b * cage.target).OnlyEnforceIf(a_larger)
        cp.Add(b == a * cage.target).OnlyEnforceIf(a_larger.Not())
    elif cage.op == GIVEN:
        cp.Add(cells[0] == cage.target)


def main() -> int:
    import argparse
    import statistics
    import sys
    import time
    from pathlib import Path

    import ortools

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from crossprolog import engine, kenken, searches

    parser = argparse.ArgumentParser(description="CP-SAT (one worker) against crossprolog, KenKen checked")
    parser.add_argument("--sizes", default="6,7,8,9")
    parser.add_argument("--count", type=int, default=10, help="puzzles of each size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--models", default="table,arithmetic", help="the CP-SAT models to time")
    parser.add_argument("--encodings", default="", metavar="NAMES",
                        help="comma-separated crossprolog encodings (default: the default one)")
    parser.add_argument("--limit", type=int, default=2, help="solutions looked for (2: a check)")
    args = parser.parse_args()
    encodings = [e for e in args.encodings.split(",") if e] or [engine.encodings("kenken")[0]]
    models = [m for m in args.models.split(",") if m]

    def summary(times: list[float]) -> str:
        return (f"{sum(times):7.3f} s (median {statistics.median(times) * 1000:6.1f} ms, "
                f"worst {max(times) * 1000:6.1f} ms)")

    print(f"OR-Tools {ortools.__version__} CP-SAT, one worker, and crossprolog through the bridge, "
          f"one puzzle a call; limit {args.limit}, seed {args.seed}")
    warm_up = next(kenken.random_puzzles(3, 3, 1, seed=1))  # both loaded before any timing
    searches.find("kenken", warm_up.prolog_data(), limit=1)
    for model in models:
        count(warm_up, args.limit, model)
    totals: dict[str, float] = {}
    for size in (int(s) for s in args.sizes.split(",")):
        puzzles = list(kenken.random_puzzles(size, size, args.count, seed=args.seed))
        times: dict[str, list[float]] = {name: [] for name in models + encodings}
        found: dict[str, list[int]] = {name: [] for name in models + encodings}
        inferences = dict.fromkeys(encodings, 0)
        for puzzle in puzzles:  # each puzzle by every solver in turn: a busy spell hits them all
            for model in models:
                started = time.perf_counter()
                found[model].append(count(puzzle, args.limit, model))
                times[model].append(time.perf_counter() - started)
            for encoding in encodings:
                started = time.perf_counter()
                result = searches.find("kenken", puzzle.prolog_data(), limit=args.limit, keep=False,
                                     encoding=encoding)
                times[encoding].append(time.perf_counter() - started)
                found[encoding].append(result["count"])
                inferences[encoding] += result["inferences"]
        print(f"{len(puzzles)} × {size}x{size}:")
        for model in models:
            print(f"  CP-SAT {model:10} {summary(times[model])}", flush=True)
        best = min((times[model] for model in models), key=sum, default=None)
        counts = found[models[0]] if models else None
        totals["CP-SAT (the faster)"] = totals.get("CP-SAT (the faster)", 0) + (sum(best) if best else 0)
        for encoding in encodings:
            mine = times[encoding]
            totals[encoding] = totals.get(encoding, 0) + sum(mine)
            agree = "" if counts is None or found[encoding] == counts else (
                f"; DISAGREE {found[encoding]} vs {counts}")
            ratio = "" if best is None else (
                f"; ratio {sum(best) / sum(mine):5.2f} (median {statistics.median(best) / statistics.median(mine):5.2f}, "
                f"worst {max(best) / max(mine):5.2f})")
            print(f"  {encoding:17} {summary(mine)} {inferences[encoding] / 1e6:7.2f} M inf{ratio}{agree}",
                  flush=True)
    print("all sizes: " + ", ".join(f"{name} {seconds:.3f} s" for name, seconds in totals.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
