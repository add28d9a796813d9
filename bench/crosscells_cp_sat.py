"""A CP-SAT model of CrossCells (OR-Tools, one worker): the industrial baseline.

Each cell is a Boolean (on).  A count is a linear sum of its line's cells.
A total is stated one of two ways (`model=`):

  - "linear" (the default: CP-SAT's faster model on the 10x10 and 15x15
    checks, 0.28 s and 0.36 s against 0.32 s and 2.3 s): a running value per
    cell, `v = v0 op N` when the cell is on and `v = v0` when off, each a
    linear equation with an enforcement literal (`*N` and exact `/N` are
    linear for a constant N), bounded by interval reasoning ahead.  Left to
    right from zero and the operators + - * / only: other rules are refused
    with ValueError.
  - "automaton" (faster on 20x20, 9 s against 11-13 s, and every rule
    variant and operator): the line's states (whether a cell was on yet, the sum of the
    finished terms and the current term) are worked out ahead, layer by
    layer, keeping those on a way to the total, and each gets a number of
    its own layer; AddAutomaton then reads the line's cells.  The same
    states as crossprolog's `states` encoding, so every rule variant and
    operator holds.  A line with more than MAX_STATES states is stated as
    "linear" would (left-to-right from zero only).

A check asks for up to 2 solutions: CP-SAT enumerates them with presolve
off, as it must to list every solution.  Optional: needs `pip install
'.[bench]'`.

    bench/crosscells_cp_sat.py [--sizes 10,15,20] [--seed 1] [--models linear,automaton]
                               [--encodings masks,restarts]

times the issue's workloads (`random_puzzles(n, n, k, seed=1)`: 20 × 10x10,
10 × 15x15, 5 × 20x20) checked, both CP-SAT models and crossprolog's
encodings (its default unless named) in the same run, and prints the ratios
(the faster CP-SAT model's time / crossprolog's: above 1, crossprolog is
faster).  crossprolog's puzzles cross the bridge one call each, as CP-SAT
builds each model in Python: both times are whole calls.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cp_sat_count import count_solutions

from crossprolog.crosscells import OPERATORS, SUM, CrossCells

MAX_STATES = 100_000  # as prolog/crosscells_rules.pl's max_states/1

State = tuple[int, int, int]  # (started, sum of finished terms, term)


def count(puzzle: CrossCells, limit: int, model: str = "linear") -> int:
    """The number of solutions of `puzzle`, up to `limit`."""
    data = puzzle.prolog_data()
    first, precedence = data["first_cell"], data["precedence"]
    if model == "linear" and (first, precedence) != ("zero", "left-to-right"):
        raise ValueError(f"the linear CP-SAT model reads lines left to right from 0 only, not "
                         f"first_cell={first!r}, precedence={precedence!r}")
    cells = [(op, n) for op, n in data["cells"]]
    cp = cp_model.CpModel()
    ons = [cp.NewBoolVar("") for _ in cells]
    for line in data["lines"]:
        line_ons = [ons[i] for i in line["cells"]]
        if line["kind"] == "#":
            cp.Add(sum(line_ons) == line["value"])
            continue
        steps = [cells[i] for i in line["cells"]]
        if model == "automaton":
            layers = _layers(steps, first, precedence)
            if layers is not None:
                if not _automaton(cp, line_ons, steps, layers, line["value"], precedence):
                    return 0
                continue
            if (first, precedence) != ("zero", "left-to-right"):
                raise ValueError("a line with too many states, under rules the linear model does not state")
        if not _linear(cp, line_ons, steps, line["value"]):
            return 0
    return count_solutions(cp, limit)


def _starts(steps: list[tuple[str, int]], precedence: str) -> list[bool]:
    """For each step, whether an ON cell starts a new term: under standard precedence a
    sum-tier cell with a product-tier cell after it (as crosscells_rules.pl's steps/4)."""
    starts, product_later = [], False
    for op, _ in reversed(steps):
        tier = OPERATORS[op].tier
        starts.append(precedence == "standard" and tier == SUM and product_later)
        product_later = product_later or tier != SUM
    return starts[::-1]


def _on(state: State, step: tuple[str, int], starts: bool) -> State | None:
    """The state after an ON cell of `step`, None where the operation has no value."""
    started, done, term = state
    op, n = step
    if not started:
        return 1, 0, n
    if starts:
        applied = OPERATORS[op].apply(0, n)
        return (1, done + term, applied) if applied is not None else None
    applied = OPERATORS[op].apply(term, n)
    return (1, done, applied) if applied is not None else None


def _layers(steps, first: str, precedence: str) -> list[list[State]] | None:
    """The states reachable before each step and after the last, or None past MAX_STATES."""
    starts = _starts(steps, precedence)
    layer = [(1 if first == "zero" else 0, 0, 0)]
    layers, total = [layer], 1
    for step, start in zip(steps, starts):
        following = set(layer)
        following.update(s for s in (_on(state, step, start) for state in layer) if s is not None)
        layer = sorted(following)
        total += len(layer)
        if total > MAX_STATES:
            return None
        layers.append(layer)
    return layers


def _automaton(cp, line_ons, steps, layers, value: int, precedence: str) -> bool:
    """Posts the line as an automaton over its layered states; False when no way reaches `value`."""
    starts = _starts(steps, precedence)
    alive = {s for s in layers[-1] if s[1] + s[2] == value}
    if not alive:
        return False
    kept = [alive]
    for k in range(len(steps) - 1, -1, -1):  # back from the total: the states on a way to it
        step, start, after = steps[k], starts[k], kept[0]
        kept.insert(0, {s for s in layers[k] if s in after or _on(s, step, start) in after})
    numbers = [{s: (k, i) for i, s in enumerate(sorted(layer))} for k, layer in enumerate(kept)]
    flat: dict[tuple[int, int], int] = {}
    for layer in numbers:
        for place in layer.values():
            flat[place] = len(flat)
    transitions = []
    for k, (step, start) in enumerate(zip(steps, starts)):
        for s, place in numbers[k].items():
            if s in numbers[k + 1]:
                transitions.append((flat[place], 0, flat[numbers[k + 1][s]]))
            on = _on(s, step, start)
            if on in numbers[k + 1]:
                transitions.append((flat[place], 1, flat[numbers[k + 1][on]]))
    finals = [flat[place] for place in numbers[-1].values()]
    cp.AddAutomaton(line_ons, flat[next(iter(numbers[0].values()))], finals, transitions)
    return True


def _linear(cp, line_ons, steps, value: int) -> bool:
    """Posts the line as a fold of enforced linear steps; False when bounds refute it."""
    low = high = 0
    v0 = cp.NewConstant(0)
    for on, (op, n) in zip(line_ons, steps):
        candidates = [low, high] + [x for x in (_apply(op, low, n), _apply(op, high, n)) if x is not None]
        if op == "/":
            candidates += [low // n, -((-high) // n)]
        elif op not in "+-*":
            raise ValueError(f"the linear CP-SAT model has no {op} cells")
        low, high = min(candidates), max(candidates)
        v = cp.NewIntVar(low, high, "")
        if op == "+":
            cp.Add(v == v0 + n).OnlyEnforceIf(on)
        elif op == "-":
            cp.Add(v == v0 - n).OnlyEnforceIf(on)
        elif op == "*":
            cp.Add(v == v0 * n).OnlyEnforceIf(on)
        else:
            cp.Add(v0 == v * n).OnlyEnforceIf(on)
        cp.Add(v == v0).OnlyEnforceIf(on.Not())
        v0 = v
    if not low <= value <= high:
        return False
    cp.Add(v0 == value)
    return True


def _apply(op: str, value: int, n: int) -> int | None:
    return value // n if op == "/" else OPERATORS[op].apply(value, n)


def main() -> int:
    import argparse
    import statistics
    import sys
    import time
    from pathlib import Path

    import ortools

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from crossprolog import crosscells, engine, searches

    parser = argparse.ArgumentParser(description="CP-SAT (one worker) against crossprolog, CrossCells checked")
    parser.add_argument("--sizes", default="10,15,20", help="which of the workloads (10: 20 × 10x10, "
                        "15: 10 × 15x15, 20: 5 × 20x20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--models", default="linear,automaton", help="the CP-SAT models to time")
    parser.add_argument("--encodings", default="", metavar="NAMES",
                        help="comma-separated crossprolog encodings (default: the default one)")
    parser.add_argument("--limit", type=int, default=2, help="solutions looked for (2: a check)")
    args = parser.parse_args()
    encodings = [e for e in args.encodings.split(",") if e] or [engine.encodings("crosscells")[0]]
    models = [m for m in args.models.split(",") if m]
    sizes = {10: 20, 15: 10, 20: 5}

    def summary(times: list[float]) -> str:
        return (f"{sum(times):7.3f} s (median {statistics.median(times) * 1000:6.1f} ms, "
                f"worst {max(times) * 1000:6.1f} ms)")

    print(f"OR-Tools {ortools.__version__} CP-SAT, one worker, and crossprolog through the bridge, "
          f"one puzzle a call; limit {args.limit}, seed {args.seed}")
    searches.find("crosscells", next(crosscells.random_puzzles(3, 3, 1, seed=1)).prolog_data(), limit=1)
    for size in (int(s) for s in args.sizes.split(",")):
        puzzles = list(crosscells.random_puzzles(size, size, sizes[size], seed=args.seed))
        best, counts = None, None
        print(f"{len(puzzles)} × {size}x{size}:")
        for model in models:
            times, found = [], []
            for puzzle in puzzles:
                started = time.perf_counter()
                found.append(count(puzzle, args.limit, model))
                times.append(time.perf_counter() - started)
            print(f"  CP-SAT {model:10} {summary(times)}", flush=True)
            counts = counts or found
            if best is None or sum(times) < sum(best):
                best = times
        for encoding in encodings:
            times, found, inferences = [], [], 0
            for puzzle in puzzles:
                started = time.perf_counter()
                result = searches.find("crosscells", puzzle.prolog_data(), limit=args.limit, keep=False,
                                     encoding=encoding)
                times.append(time.perf_counter() - started)
                found.append(result["count"])
                inferences += result["inferences"]
            agree = "" if counts is None or found == counts else f"; DISAGREE {found} vs {counts}"
            ratio = "" if best is None else (
                f"; ratio {sum(best) / sum(times):5.2f} (median {statistics.median(best) / statistics.median(times):5.2f}, "
                f"worst {max(best) / max(times):5.2f})")
            print(f"  {encoding:17} {summary(times)} {inferences / 1e6:7.2f} M inf{ratio}{agree}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
