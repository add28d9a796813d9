"""Hints a person can use (issue 20): how long a hint takes, per family, and how fast puzzles
are graded and typos found.

For each family at the bench's sizes, well-formed puzzles are generated (seed 1) and
timed through `explain.hint` (the first hint, and every hint along the way for the
first puzzle), then graded (`solving.grade_of`); the seven hard classic Sudokus and
the GCD one are hinted too.  Typos: each generated puzzle with one given changed
(or, with none, a wrong digit or mark entered: KenKen, CrossCells) or two products
mistyped (CrossProduct), timed
through `blame.typos` under the command line's 2 s.  Medians and worst cases;
the issue's goal is every hint within 1 s.

    bench/hints.py [--quick] [-n N] [--json FILE]
    bench/hints.py --typos [-n N] [--family F]   # the typos alone, of the first N puzzles per size

CrossCells typos: two totals (a row's and a column's) each with one digit changed, so
that the puzzle has no solution and no single clue explains it (the pair is minimal).

The Sudoku grades are compared with a reference grader, hodoku-py (a port of
HoDoKu 2.2.0's solver and rater, installed by `make bench` with the bench extra):
Spearman's rank correlation of our ratings with HoDoKu's scores over the bench's
Sudokus and the classics.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crossprolog import blame, explain, parse, solving  # noqa: E402
from crossprolog.errors import TimeLimitExceeded  # noqa: E402
from crossprolog.puzzle import search_many  # noqa: E402
from crossprolog.registry import generate  # noqa: E402

SIZES = [("sudoku", 9, 9), ("kenken", 6, 6), ("kenken", 9, 9), ("crossproduct", 5, 3),
         ("crossproduct", 10, 6), ("crosscells", 10, 10), ("killer_sudoku", 9, 9), ("kakuro", 12, 12)]
GOAL = 1.0  # seconds: every hint


def timed(work):
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def seconds(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.3f} s"


def spread(times: list[float]) -> str:
    return f"median {seconds(statistics.median(times))}, worst {seconds(max(times))}" if times else "-"


def hint_times(puzzles: list) -> tuple[list[float], dict[str, int]]:
    """Each puzzle's first hint, and every hint along the first puzzle's way to its end."""
    times, levels = [], {}
    for n, puzzle in enumerate(puzzles):
        while True:
            try:
                took, found = timed(lambda: explain.hint(puzzle))
            except TimeLimitExceeded:  # not even a solution within the hint's time: no hint
                took, found = explain.HINT_SECONDS, None
                levels["none in time"] = levels.get("none in time", 0) + 1
            times.append(took)
            if found is None or found.status != "hint":
                break
            forced = found.cells[0]
            key = forced.technique if forced.level == "technique" else forced.level
            levels[key] = levels.get(key, 0) + 1
            if n:
                break
            puzzle = puzzle.placing({forced.cell: forced.value})
    return times, levels


def grading(puzzles: list) -> tuple[float, dict[str, int]]:
    """Puzzles graded per second, and how many of each grade."""
    grades: dict[str, int] = {}
    took, graded = timed(lambda: [solving.grade_of(p) for p in puzzles])
    for found in graded:
        grades[found[0].grade] = grades.get(found[0].grade, 0) + 1
    return len(puzzles) / took, grades


def mistyped(puzzle, rng: random.Random):
    """The puzzle with one given changed so that it has no solution, or None."""
    grid = puzzle.solve().to_json()
    givens = [clue.cell for clue in puzzle.clues() if clue.kind == "given"]
    rng.shuffle(givens)
    opened = puzzle.open_cells()
    rng.shuffle(opened)
    digits = puzzle.statement().digits
    for r, c in givens[:6] + opened[:6]:  # a given mistyped, else a wrong digit entered
        for digit in rng.sample(digits, len(digits)):
            wrong = puzzle.placing({(r, c): digit})
            if digit != grid[r][c] and wrong.solve() is None:
                return wrong, (r, c)
    return None


def typo_times(family: str, puzzles: list) -> tuple[list[float], dict[str, dict[str, int]]]:
    """Time to blame each mistyped puzzle, and for each kind of typo how many were: named
    (the first correction is the typo, and no other is as slight), untellable (blame
    found two or more corrections as slight as the typo: no tool can tell which was
    meant; `listed` when the typo was among them), or missed."""
    rng, times, counts = random.Random(1), [], {}
    for puzzle in puzzles:
        for kind, wrong, names in typo_cases(family, puzzle, rng):
            started = time.perf_counter()
            try:
                found = blame.typos(wrong, timeout=2.0)
            except TimeLimitExceeded:
                found = ()
            took = time.perf_counter() - started  # past 2 s too: the limit must hold
            times.append(took)
            count = counts.setdefault(kind, {"named": 0, "untellable": 0, "listed": 0, "missed": 0, "tried": 0})
            count["tried"] += 1
            slightest = [typo for typo in found if typo.unique and typo.edits == found[0].edits]
            if len(slightest) > 1:
                count["untellable"] += 1
                count["listed"] += any(map(names, slightest))
            else:
                count["named" if found and names(found[0]) else "missed"] += 1
    return times, counts


def told(counts: dict[str, dict[str, int]]) -> str:
    """`one given: 9 of 10 named, 1 untellable (1 listing the typo), 0 missed; ...`"""
    return "; ".join(f"{kind}: {c['named']} of {c['tried']} named, {c['untellable']} untellable "
                     f"({c['listed']} listing the typo), {c['missed']} missed" for kind, c in counts.items())


def typo_cases(family: str, puzzle, rng: random.Random) -> list:
    """The mistyped copies of `puzzle` to blame, each with the test that a correction blame
    names is its typo: one wrong given; for CrossProduct also a row's and a column's product
    (times 11 and 13, and one digit off each); for CrossCells also a row's and a column's
    total (one digit off each; none when no given can be mistyped)."""
    made = mistyped(puzzle, rng)
    if made is None:
        return []
    wrong, cell = made
    cases = [("one given", wrong, lambda typo: [clue.cell for clue in typo.clues] == [cell])]
    if family == "crossproduct":
        rows, columns = list(puzzle.row_products), list(puzzle.column_products)
        r, c = rng.randrange(len(rows)), rng.randrange(len(columns))
        rows[r], columns[c] = rows[r] * 11, columns[c] * 13  # digits no cell holds
        texts = {f"row {r + 1} ({rows[r]})", f"column {c + 1} ({columns[c]})"}
        cases.append(("two products x11, x13", replace(puzzle, row_products=tuple(rows),
                                                           column_products=tuple(columns)), naming(texts)))
        if both := two_products_mistyped(puzzle, rng):
            cases.append(("two products one digit off", both[0], naming(both[1])))
    if family == "crosscells" and (both := two_totals_mistyped(puzzle, rng)):
        wrong, texts = both
        cases.append(("two totals", wrong, naming(texts)))
    return cases


def naming(texts: set[str]):
    """The test that a correction names exactly the clues written `texts`."""
    return lambda typo: {clue.text for clue in typo.clues} == texts


def two_totals_mistyped(puzzle, rng: random.Random):
    """The CrossCells puzzle with a row's and a column's total each one digit off, with no
    solution and none without any single clue (so the pair is the smallest correction);
    and the two clues' texts.  None when 20 tries give no such puzzle."""
    for _ in range(20):
        lines = {"rows": list(puzzle.rows), "columns": list(puzzle.columns)}
        for kind in lines:
            ends = [(k, end) for k, line in enumerate(lines[kind]) for end in ("head", "tail")
                    if getattr(line, end) is not None and getattr(line, end).kind == "="]
            if not ends:
                return None
            k, end = rng.choice(ends)
            lines[kind][k] = replace(lines[kind][k], **{end: one_digit_off(getattr(lines[kind][k], end), rng)})
        wrong = replace(puzzle, rows=tuple(lines["rows"]), columns=tuple(lines["columns"]))
        if found := pair_needed(puzzle, wrong):
            return found
    return None


def pair_needed(puzzle, wrong):
    """`wrong` and the texts of its clues `puzzle` does not have, when it has no solution
    and none without any single clue (so the pair is the smallest correction); else None."""
    clues = wrong.clues()
    if wrong.solve() is None and not any(
            search.solutions for search in search_many([wrong.keeping([c for c in clues if c != clue])
                                                        for clue in clues], limit=1)):
        return wrong, {clue.text for clue in clues} - {clue.text for clue in puzzle.clues()}
    return None


def one_digit_off(total, rng: random.Random):
    """A total with one of its digits changed, as a slip of the pen would."""
    return replace(total, value=slipped(total.value, rng), text="")


def slipped(number: int, rng: random.Random) -> int:
    """`number` with one of its digits changed."""
    text = str(abs(number))
    at = rng.randrange(len(text))
    digit = rng.choice([d for d in "0123456789" if d != text[at] and (at or d != "0" or len(text) == 1)])
    return int(text[:at] + digit + text[at + 1:]) * (-1 if number < 0 else 1)


def two_products_mistyped(puzzle, rng: random.Random):
    """The CrossProduct puzzle with a row's and a column's product each one digit off, with
    no solution and none without any single clue (the pair is the smallest correction);
    and the two clues' texts.  None when 20 tries give no such puzzle."""
    for _ in range(20):
        rows, columns = list(puzzle.row_products), list(puzzle.column_products)
        r, c = rng.randrange(len(rows)), rng.randrange(len(columns))
        rows[r], columns[c] = slipped(rows[r], rng), slipped(columns[c], rng)
        wrong = replace(puzzle, row_products=tuple(rows), column_products=tuple(columns))
        if found := pair_needed(puzzle, wrong):
            return found
    return None


def reference_ratings(puzzles: list) -> str:
    """Spearman's rank correlation of our Sudoku ratings (the hardest technique's, then the
    steps) with HoDoKu's scores (hodoku-py), over `puzzles`; or why there is none."""
    try:
        from hodoku import Solver
    except ImportError:
        return "no reference grader (hodoku-py is not installed: pip install -e '.[bench]')"
    hodoku, ours, theirs = Solver(), [], []
    for puzzle in puzzles:
        statement = puzzle.statement()
        cells = ["0"] * 81
        for i, digit in statement.placed.items():
            r, c = statement.places[i]
            cells[9 * r + c] = str(digit)
        grade = solving.grade_of(puzzle)[0]
        ours.append((grade.rating, grade.steps))
        theirs.append(hodoku.rate("".join(cells)).score)
    return (f"Spearman rank correlation with HoDoKu's scores (hodoku-py) over {len(puzzles)} Sudokus: "
            f"{spearman(ours, theirs):.2f}")


def spearman(xs: list, ys: list) -> float:
    """Spearman's rho: Pearson's correlation of the ranks, ties given their mean rank."""
    def ranks(values: list) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        ranked = [0.0] * len(values)
        start = 0
        while start < len(order):
            end = start
            while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
                end += 1
            for k in range(start, end + 1):
                ranked[order[k]] = (start + end) / 2
            start = end + 1
        return ranked

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    spread_x = sum((a - mx) ** 2 for a in rx) ** 0.5
    spread_y = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (spread_x * spread_y) if spread_x and spread_y else float("nan")


def typos_only(n: int, families: list[str] | None = None) -> int:
    """The typo blame alone, over the first `n` well-formed puzzles of each size (of `families`)."""
    print(f"typos (issue 20): blamed within 2 s each; well-formed puzzles, seed 1, {n} per size")
    for family, r, c in [size for size in SIZES if not families or size[0] in families]:
        typos, counts = typo_times(family, list(generate(family, r, c, n, 1, well_formed=True)))
        print(f"  {family} {r}x{c}: typos {spread(typos)}; {told(counts)}", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 5 puzzles per size")
    parser.add_argument("-n", type=int, default=None, help="puzzles per size (default 100, 5 with --quick)")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--family", action="append", help="only this family (repeatable; the classics "
                                                          "and the reference grader with sudoku)")
    parser.add_argument("--typos", action="store_true",
                        help="only the typos, of the first n puzzles per size (not a tenth of them)")
    args = parser.parse_args()
    if args.typos:
        return typos_only(args.n or (5 if args.quick else 20), args.family)
    n = args.n or (5 if args.quick else 100)
    rows, sudokus = [], []
    print(f"hints (issue 20): goal every hint within {GOAL:g} s; well-formed puzzles, seed 1, {n} per size")
    for family, r, c in [size for size in SIZES if not args.family or size[0] in args.family]:
        made, puzzles = timed(lambda: list(generate(family, r, c, n, 1, well_formed=True)))
        if family == "sudoku":
            sudokus = puzzles
        hints, levels = hint_times(puzzles)
        rate, grades = grading(puzzles)
        typos, counts = typo_times(family, puzzles[:max(3, n // 10)])
        row = {"family": family, "size": f"{r}x{c}", "puzzles": len(puzzles),
               "hint": {"median": statistics.median(hints), "worst": max(hints), "count": len(hints)},
               "met": max(hints) <= GOAL, "levels": levels, "graded_per_second": rate, "grades": grades,
               "typos": {"median": statistics.median(typos) if typos else None,
                         "worst": max(typos) if typos else None, "kinds": counts}}
        rows.append(row)
        print(f"  {family} {r}x{c}: {len(hints)} hints, {spread(hints)} ({'met' if row['met'] else 'NOT met'}); "
              f"{rate:.1f} graded/s {grades}; typos {spread(typos)}; {told(counts)}", flush=True)
    if args.family and "sudoku" not in args.family:
        return write_rows(args.json, rows)
    classics = sorted((ROOT / "examples" / "sudoku").glob("*.txt"))
    times = []
    for path in classics:
        took, found = timed(lambda: explain.hint(parse(path.read_text(encoding="utf-8"))))
        times.append(took)
        level = found.cells[0].technique or found.cells[0].level if found.cells else found.status
        print(f"  {path.name}: {seconds(took)} {level}", flush=True)
        if "gcd" not in path.name:
            grade = solving.grade_of(parse(path.read_text(encoding="utf-8")))[0]
            named = sorted({step.technique for step in solving.path(
                parse(path.read_text(encoding="utf-8")).statement(), lambda: None)[0] if step.rating > 5.4})
            print(f"    its grade {grade.grade} ({grade.technique}); past the subsets before its first search: "
                  f"{', '.join(named) or 'none'}", flush=True)
    rows.append({"family": "sudoku", "size": "classics", "puzzles": len(classics),
                 "hint": {"median": statistics.median(times), "worst": max(times), "count": len(times)},
                 "met": max(times) <= GOAL})
    print(f"  sudoku classics: {spread(times)} ({'met' if max(times) <= GOAL else 'NOT met'})")
    classic_puzzles = [parse(path.read_text(encoding="utf-8")) for path in classics if "gcd" not in path.name]
    print(f"  {reference_ratings(sudokus + classic_puzzles)}", flush=True)
    return write_rows(args.json, rows)


def write_rows(path: Path | None, rows: list[dict]) -> int:
    """The rows as JSON in `path`, when given; the exit code."""
    if path:
        path.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
