"""Sudoku: classic puzzles and the GCD objective, solved, counted and checked."""

from __future__ import annotations

import math
import random
from functools import cache

import pytest

import crossprolog
from crossprolog import engine
from crossprolog.sudoku import DigitSet, Sudoku
from conftest import EXAMPLES

SUDOKU = EXAMPLES / "sudoku"
GCD_2025 = SUDOKU / "gcd-2025-01.txt"
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
ESCARGOT_SOLUTION = "162857493534129678789643521475312986913586742628794135356478219241935867897261354"
HARD_CLASSICS = {  # each well-known for resisting solving techniques; None: solution not written down here
    "inkala-2012.txt": INKALA_SOLUTION,
    "ai-escargot.txt": ESCARGOT_SOLUTION,
    "brute-force-17.txt": None,
    "golden-nugget.txt": None,
    "platinum-blonde.txt": "839465712146782953752391486391824675564173829287659341628537194913248567475916238",
    "easter-monster.txt": "174385962293467158586192734451923876928674315367851249719548623635219487842736591",
    "tarek-052.txt": "761354289298167345453928167812649753976513428534872691327485916189236574645791832",
}
ENCODINGS = ["candidates", "cardinality", "distinct", "modulo", "different"]


def puzzle(name: str) -> Sudoku:
    return crossprolog.parse((SUDOKU / name).read_text())


@cache
def gcd_solution():
    """The January 2025 puzzle solved (once: several tests read it)."""
    return puzzle("gcd-2025-01.txt").solve(timeout=20)


def grid_string(grid) -> str:
    return "".join(str(d) for row in grid for d in row)


def is_sudoku(grid, digits: set[int]) -> bool:
    """Every row, column and box of `grid` holds exactly `digits`."""
    columns = list(zip(*grid))
    boxes = [[grid[r][c] for r in range(b // 3 * 3, b // 3 * 3 + 3) for c in range(b % 3 * 3, b % 3 * 3 + 3)]
             for b in range(9)]
    return all(set(unit) == digits for unit in [*grid, *columns, *boxes])


def agrees_with_givens(puzzle: Sudoku, grid) -> bool:
    return all(g is None or g == d for grow, row in zip(puzzle.givens, grid) for g, d in zip(grow, row))


# The GCD puzzle of January 2025


def test_the_gcd_puzzle_has_its_known_optimum_and_middle_row():
    gcd_puzzle = puzzle("gcd-2025-01.txt")
    solution = gcd_solution()
    rows = gcd_puzzle.line_numbers(solution.values.grid)
    assert solution.values.gcd == 12345679 == math.gcd(*rows)
    assert rows[4] == 283950617
    assert agrees_with_givens(gcd_puzzle, solution.values.grid)
    assert is_sudoku(solution.values.grid, set(range(10)) - {4})


def test_every_row_number_of_the_optimum_is_a_multiple_of_the_divisor_of_their_sum():
    # The nine row numbers add up to (sum of the digits in use) × 111111111,
    # so the GCD divides that sum: here 41 × 111111111 = 12345679 × 369.
    solution = gcd_solution()
    rows = [int(grid_string([row])) for row in solution.values.grid]
    assert sum(rows) == 41 * 111111111
    assert all(row % 12345679 == 0 for row in rows)


def test_the_optimal_grid_is_unique():
    assert puzzle("gcd-2025-01.txt").well_formed(timeout=20)


def test_gcd_of_columns_reads_columns_top_to_bottom():
    rows = puzzle("gcd-2025-01.txt")
    transposed = Sudoku(tuple(zip(*rows.givens)), rows.digits, "gcd(cols)")
    solution = transposed.solve(timeout=20)
    assert solution.values.gcd == 12345679
    assert transposed.line_numbers(solution.values.grid)[4] == 283950617
    assert str(solution).splitlines()[-1] == "# middle column: 283950617"


def test_the_weaker_encoding_reaches_the_same_optimum():
    solution = puzzle("gcd-2025-01.txt").solve(timeout=20, encoding="different")
    assert solution.values.gcd == 12345679


# Classic puzzles


@pytest.mark.parametrize("name", HARD_CLASSICS)
def test_hard_classics_have_exactly_one_solution(name):
    classic = puzzle(name)
    [solution] = classic.solutions(timeout=20)
    assert is_sudoku(solution.values.grid, set(range(1, 10)))
    assert agrees_with_givens(classic, solution.values.grid)
    assert solution.values.gcd is None
    assert HARD_CLASSICS[name] in (None, grid_string(solution.values.grid))


def test_the_default_encoding_is_candidates():
    assert engine.encodings("sudoku") == ENCODINGS


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_solves_a_digit_set_without_nine(encoding):
    text = "# digits: 0-8\n" + (SUDOKU / "ai-escargot.txt").read_text().replace("9", "0")
    [solution] = crossprolog.parse(text).solutions(timeout=20, encoding=encoding)
    assert grid_string(solution.values.grid) == ESCARGOT_SOLUTION.replace("9", "0")


def test_encodings_agree_on_a_classic():
    escargot = puzzle("ai-escargot.txt")
    assert {grid_string(escargot.solve(encoding=e, timeout=20).values.grid) for e in ENCODINGS} == {
        ESCARGOT_SOLUTION}


# The encodings against each other: the same solutions, counted alike


def without(puzzle: Sudoku, *cells: tuple[int, int], digits: DigitSet | None = None) -> Sudoku:
    """`puzzle` with the givens at `cells` removed (and its digits replaced by `digits`)."""
    givens = [list(row) for row in puzzle.givens]
    for r, c in cells:
        assert givens[r][c] is not None
        givens[r][c] = None
    return Sudoku(givens, digits or puzzle.digits, puzzle.objective)


def grids(found) -> list[str]:
    return sorted(grid_string(solution.values.grid) for solution in found.solutions)


# Compared on classics: "modulo" posts the units as "distinct" does, and "different" propagates
# too weakly to count these in seconds.
STRONG = ["candidates", "cardinality", "distinct"]


@pytest.mark.parametrize("name", HARD_CLASSICS)
def test_candidates_and_cardinality_check_every_classic_alike(name):
    classic = puzzle(name)
    found = {e: classic.search(limit=2, timeout=20, encoding=e) for e in ("candidates", "cardinality")}
    assert all(f.status == "complete" for f in found.values())
    assert grids(found["candidates"]) == grids(found["cardinality"])
    assert len(found["candidates"].solutions) == 1


def test_all_grids_of_a_classic_without_a_clue_are_the_same_for_every_encoding():
    # Easter Monster without its clue in row 5, column 4 has exactly 18 grids.
    several = without(puzzle("easter-monster.txt"), (5, 4))
    found = {e: several.search(timeout=20, encoding=e) for e in STRONG}
    assert {e: f.status for e, f in found.items()} == dict.fromkeys(STRONG, "complete")
    assert all(grids(f) == grids(found["candidates"]) for f in found.values())
    assert len(found["candidates"].solutions) == 18
    assert all(is_sudoku(s.values.grid, set(range(1, 10))) and agrees_with_givens(several, s.values.grid)
               for s in found["candidates"].solutions)


@pytest.mark.parametrize("name, cells", [
    ("golden-nugget.txt", [(1, 8)]),                   # 134 grids
    ("easter-monster.txt", [(3, 3)]),                  # 103
    ("inkala-2012.txt", [(7, 3), (0, 0)]),
    ("brute-force-17.txt", [(5, 1)]),                  # 190
])
def test_encodings_count_alike_up_to_a_limit(name, cells):
    several = without(puzzle(name), *cells)
    counts = {e: several.count(50, timeout=20, encoding=e) for e in STRONG}
    assert counts == dict.fromkeys(STRONG, 50)


def test_a_range_of_ten_leaves_out_each_digit_no_given_takes():
    # No 6 among the givens of brute-force-17: from 0-9 the grid takes 0 or 6, the same grid otherwise.
    ten = without(puzzle("brute-force-17.txt"), digits=DigitSet(0, 9))
    [classic] = puzzle("brute-force-17.txt").search(limit=2, timeout=20).solutions
    expected = sorted(grid_string(classic.values.grid).replace("6", d) for d in "06")
    for encoding in STRONG:
        assert grids(ten.search(limit=3, timeout=20, encoding=encoding)) == expected


def test_encodings_count_alike_with_a_range_of_ten():
    # AI Escargot without its 9s, from 0-9: thousands of grids, each taking 0 or 9.
    escargot = puzzle("ai-escargot.txt")
    nines = [(r, c) for r, row in enumerate(escargot.givens) for c, d in enumerate(row) if d == 9]
    ten = without(escargot, *nines, digits=DigitSet(0, 9))
    counts = {e: ten.count(50, timeout=20, encoding=e) for e in STRONG}
    assert counts == dict.fromkeys(STRONG, 50)


def test_candidates_and_cardinality_give_the_same_optimal_grids():
    # AI Escargot's grid with 45 cells opened, gcd(rows): the optimum is 9 (every row's digits add
    # up to 45), reached by 2 grids; the lines with open leading cells have too many multiples
    # of the small candidates to list, and are checked once placed.
    grid = [[int(d) for d in ESCARGOT_SOLUTION[r * 9:r * 9 + 9]] for r in range(9)]
    opened = random.Random(0).sample([(r, c) for r in range(9) for c in range(9)], 45)
    givens = [[None if (r, c) in opened else d for c, d in enumerate(row)] for r, row in enumerate(grid)]
    rows = Sudoku(givens, objective="gcd(rows)")
    found = {e: rows.search(timeout=20, encoding=e) for e in ("candidates", "cardinality")}
    assert grids(found["candidates"]) == grids(found["cardinality"])
    assert len(found["candidates"].solutions) == 2
    assert {s.values.gcd for s in found["candidates"].solutions} == {9}


def test_the_gcd_puzzle_without_a_given_has_the_same_optimal_grids_for_candidates_and_cardinality():
    gcd_puzzle = puzzle("gcd-2025-01.txt")
    several = without(gcd_puzzle, (1, 4))
    found = {e: several.search(timeout=20, encoding=e) for e in ("candidates", "cardinality")}
    assert grids(found["candidates"]) == grids(found["cardinality"])
    assert {s.values.gcd for s in found["candidates"].solutions} == {12345679}


# Effort, in inferences (deterministic, whatever the machine's speed): generous bounds that a
# return to CLP(FD)'s cost per choice (millions on these) would break.


@pytest.mark.parametrize("name", HARD_CLASSICS)
def test_candidates_checks_a_hard_classic_in_under_a_million_inferences(name):
    found = puzzle(name).search(limit=2, keep=False, timeout=20, encoding="candidates")
    assert found.count == 1 and found.inferences < 1_000_000


def test_candidates_proves_the_gcd_optimum_in_under_a_million_inferences():
    found = puzzle("gcd-2025-01.txt").search(limit=2, keep=False, timeout=20, encoding="candidates")
    assert found.count == 1 and found.inferences < 1_000_000


def test_a_removed_clue_leaves_several_solutions():
    givens = [list(row) for row in puzzle("brute-force-17.txt").givens]
    givens[8][8] = None
    assert Sudoku(givens).count(3, timeout=20) == 3


def test_contradictory_givens_have_no_solution():
    # Nothing repeats, but 1-8 in the first row and 9 below its last free cell leave it nothing.
    givens = [[None] * 9 for _ in range(9)]
    givens[0][:8] = range(1, 9)
    givens[5][8] = 9
    assert Sudoku(givens).solve(timeout=20) is None


def test_a_digit_set_without_zero_or_nine():
    text = "# digits: 0-8\n" + (SUDOKU / "ai-escargot.txt").read_text().replace("9", "0")
    shifted = crossprolog.parse(text)
    assert shifted.digits == DigitSet(0, 8)
    grid = shifted.solve(timeout=20).values.grid
    assert grid_string(grid) == ESCARGOT_SOLUTION.replace("9", "0")


def test_choosing_nine_of_ten_digits_without_an_objective():
    text = "# digits: 0-9 choose 9\n" + "\n".join(
        ". " * 8 + "." for _ in range(9))
    solution = crossprolog.parse(text).solve(timeout=20)
    used = set(solution.values.grid[0])
    assert len(used) == 9 and is_sudoku(solution.values.grid, used)


# The command line


def test_solve_prints_the_grid_the_gcd_and_the_middle_row(cli):
    run = cli("solve", GCD_2025)
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[:3] == ["# digits: 0-9 choose 9", "# maximize: gcd(rows)", "3 9 5 | 0 6 1 | 7 2 8"]
    assert lines[-2:] == ["# gcd(rows) = 12345679, proved optimal", "# middle row: 283950617"]


def test_solve_json_reports_the_proved_objective(cli):
    record = cli("solve", GCD_2025, "--format", "json").json()
    assert record["family"] == "sudoku" and record["status"] == "solved"
    assert record["objective"] == {"gcd": 12345679, "optimal": True}
    assert len(record["solution"]) == 9 and record["solution"][4] == [2, 8, 3, 9, 5, 0, 6, 1, 7]


def test_solve_markdown_is_a_table_with_the_objective_below(cli):
    lines = cli("solve", GCD_2025, "--format", "markdown").out.splitlines()
    assert lines[2] == "|3|9|5|0|6|1|7|2|8|"
    assert "12345679, proved optimal" in lines[-1] and "283950617" in lines[-1]


def test_classic_json_has_no_objective(cli):
    record = cli("solve", SUDOKU / "inkala-2012.txt", "--format", "json").json()
    assert grid_string(record["solution"]) == INKALA_SOLUTION and "objective" not in record


def test_count_and_check(cli, write):
    assert cli("count", SUDOKU / "brute-force-17.txt").out.strip() == "1 solution"
    assert cli("check", GCD_2025, "--format", "json").json()["well_formed"] is True
    empty = write("\n".join([". . . . . . . . ."] * 9))
    several = cli("count", empty, "--limit", "5", "--format", "json")
    assert several.code == 0 and several.json()["count"] == 5 and several.json()["complete"] is False
    assert cli("check", empty).code == 1


def test_unsolvable_exits_1(cli, write):
    rows = [". " * 8 + "."] * 9
    rows[0] = "1 2 3 4 5 6 7 8 ."
    rows[5] = ". . . . . . . . 9"
    run = cli("solve", write("\n".join(rows)), "--format", "json")
    assert run.code == 1 and run.json()["status"] == "unsolvable"


def test_timeout_exits_3(cli, write):
    empty = write("\n".join([". . . . . . . . ."] * 9))
    run = cli("count", empty, "--timeout", "0.3", "--format", "json")
    assert run.code == 3 and run.json()["status"] == "timeout"


def test_bad_input_exits_2_with_line_and_column(cli, write):
    path = write("# digits: 0-9 choose 9\n" + "\n".join([". . . . . . . . ."] * 4)
                 + "\n. . x . . . . . .\n" + "\n".join([". . . . . . . . ."] * 4))
    run = cli("solve", path)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines()[0] == (f"{path}:6:5: error: expected a digit, '.', '_' or '?', found 'x' (read "
                                       "as Sudoku: the directive '# digits:'; name the family with "
                                       "--family if it is another)")


def test_hostile_directive_and_comment_text_is_only_data(cli, write, tmp_path):
    marker = tmp_path / "ran"
    text = (f"# halt: shell('touch {marker}')\n" + "\n".join([". . . . . . . . ."] * 9))
    assert cli("solve", write(text)).code == 2  # an unknown directive, never a goal
    comment = (f"# $(touch {marker}) ; shell('touch {marker}'), halt.\n"
               + (SUDOKU / "ai-escargot.txt").read_text())
    assert cli("solve", write(comment, "c.txt")).code == 0
    assert not marker.exists()


# An objective stopped by its time limit gives the best grid found so far

COLUMNS_OBJECTIVE = (EXAMPLES / "sudoku" / "gcd-2025-01.txt").read_text().replace("gcd(rows)", "gcd(cols)")


def test_an_objective_out_of_time_gives_its_best_grid_not_proved(cli, write):
    """gcd(cols) of the January puzzle takes over five minutes to prove: half a second
    is never enough, and the grid found first is the answer, marked not optimal."""
    puzzle = crossprolog.parse(COLUMNS_OBJECTIVE)
    found = puzzle.search(limit=1, timeout=0.5)
    assert found.status == "timeout" and not found.solutions and not found.best.proved
    grid = found.best.values.grid
    assert is_sudoku(grid, set(grid[0])) and agrees_with_givens(puzzle, grid)
    assert found.best.values.gcd == math.gcd(*puzzle.line_numbers(grid))
    run = cli("solve", write(COLUMNS_OBJECTIVE), "--timeout", "0.5", "--format", "json")
    record = run.json()
    assert run.code == 3 and record["status"] == "timeout" and record["objective"]["optimal"] is False
    assert record["solution"] and record["objective"]["gcd"] >= 1
    text = cli("solve", write(COLUMNS_OBJECTIVE, "again.txt"), "--timeout", "0.5").out
    assert "not proved optimal" in text and "the best answer found so far" in text
