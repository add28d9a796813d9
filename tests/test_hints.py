"""Hints a person can use: named techniques, easiest first, over each family's rules as data.

Each technique is tried on pencil marks where it is the easiest step; every
step of a person's path agrees with the puzzle's solution (found by brute
force where the puzzle is small); grades rise with known difficulty.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys

import pytest

import crossprolog
from crossprolog import blame, explain, hard_techniques, solving, techniques, unit_totals
from crossprolog.errors import NoDomains, TimeLimitExceeded
from crossprolog.grades import GRADES
from crossprolog.reasoner import Deadline, Reasoner
from crossprolog.crossproduct import CrossProduct
from crossprolog.crossproduct import well_formed_puzzles as crossproduct_puzzles
from crossprolog.crosscells import well_formed_puzzles as crosscells_puzzles
from crossprolog.kenken import KenKen
from crossprolog.kenken import well_formed_puzzles as kenken_puzzles

from conftest import EXAMPLES
from test_kenken import brute_force as kenken_solutions

def read(path):
    return crossprolog.parse(path.read_text())


def read_text(text):
    return crossprolog.parse(text)


CLASSICS = sorted((EXAMPLES / "sudoku").glob("*.txt"))


# A 4x4 grid with rows, columns and 2x2 boxes, as data, for the techniques alone.


def shidoku(cands: dict[tuple[int, int], set[int]] | None = None, placed=None,
            tables: tuple[techniques.Table, ...] = (), boxes: bool = True) -> techniques.Marks:
    places = tuple((r, c) for r in range(4) for c in range(4))
    rows = [tuple(4 * r + c for c in range(4)) for r in range(4)]
    columns = [tuple(4 * r + c for r in range(4)) for c in range(4)]
    squares = [tuple(4 * (2 * br + r) + 2 * bc + c for r in range(2) for c in range(2))
               for br in range(2) for bc in range(2)]
    units = solving.named_units(places, rows + columns + (squares if boxes else []))
    statement = techniques.Statement(places, tuple(map(solving.short, places)), (1, 2, 3, 4),
                                     tuple(units), tables, dict(placed or {}))
    marks = techniques.Marks(statement)
    for (r, c), digits in (cands or {}).items():
        marks.cands[4 * r + c] &= digits
    return marks


def steps(technique, marks) -> list[techniques.Step]:
    return list(technique(marks))


def test_unit_names_read_the_geometry():
    names = [u.name for u in shidoku().statement.units]
    assert names == [f"row {r}" for r in range(1, 5)] + [f"column {c}" for c in range(1, 5)] + \
        [f"box {b}" for b in range(1, 5)]


def test_full_house_is_the_last_cell_of_a_unit():
    marks = shidoku(placed={0: 1, 1: 2, 2: 3})
    found = steps(techniques.full_houses, marks)
    assert found[0].placed == (3, 4) and found[0].technique == "full house"
    assert solving.next_steps(marks)[0].technique == "full house"


def test_hidden_single_names_the_box_and_the_digits_that_block():
    # 1s at r3c1 and r1c3 keep 1 out of column 1 and row 1: box 1 has it at r2c2 only
    step = next(s for s in steps(techniques.hidden_singles, shidoku(placed={8: 1, 2: 1}))
                if s.place == "box 1")
    assert step.placed == (5, 1) and "the 1 at r3c1" in step.text and "the 1 at r1c3" in step.text
    assert step.rating < next(techniques.naked_singles(shidoku(placed={1: 2, 4: 3, 5: 4}))).rating


def test_naked_single_when_a_cell_sees_every_other_digit():
    marks = shidoku(placed={1: 2, 4: 3, 5: 4}, boxes=True)
    found = [s for s in steps(techniques.naked_singles, marks) if s.placed[0] == 0]
    assert found and found[0].placed == (0, 1)


def test_naked_pair_removes_its_digits_from_the_rest_of_the_unit():
    marks = shidoku({(0, 0): {1, 2}, (0, 1): {1, 2}}, boxes=False)
    found = steps(techniques.subsets(2, False), marks)
    step = next(s for s in found if s.place == "row 1")
    assert set(step.removed) == {(2, 1), (2, 2), (3, 1), (3, 2)}


def test_hidden_pair_keeps_only_its_digits():
    marks = shidoku({(0, 2): {3, 4}, (0, 3): {3, 4}}, boxes=False)
    found = steps(techniques.subsets(2, True), marks)
    step = next(s for s in found if s.place == "row 1")
    assert set(step.removed) == {(0, 3), (0, 4), (1, 3), (1, 4)}


def test_pointing_locked_candidates():
    marks = shidoku({(1, 0): {2, 3, 4}, (1, 1): {2, 3, 4}})  # box 1's 1s are in row 1
    step = next(s for s in steps(techniques.locked_candidates, marks) if s.place == "box 1")
    assert step.technique == "locked candidates (pointing)"
    assert set(step.removed) == {(2, 1), (3, 1)}


def test_x_wing():
    # 1 only at columns 1 and 2 in rows 1 and 3: it leaves columns 1 and 2 of rows 2 and 4
    marks = shidoku({(0, 2): {2, 3, 4}, (0, 3): {2, 3, 4}, (2, 2): {2, 3, 4}, (2, 3): {2, 3, 4}},
                    boxes=False)
    step = next(s for s in steps(hard_techniques.fish(2), marks) if "row 1" in s.place)
    assert set(step.removed) == {(4, 1), (12, 1), (5, 1), (13, 1)}


def test_a_cage_takes_its_digits_from_a_line():
    cage = techniques.Table((0, 4), "cage a (3+)", None, fillings=((1, 2), (2, 1)))
    marks = shidoku(tables=(cage,), boxes=False)
    step = next(iter(techniques.cage_lines(marks)))
    assert step.technique == "cage takes digits from a line"
    assert set(step.removed) == {(8, 1), (8, 2), (12, 1), (12, 2)}


def sum_cage(cells, digits, total, label):
    """A cage of different digits adding up to `total`, its fillings listed."""
    fillings = tuple(f for f in itertools.permutations(digits, len(cells)) if sum(f) == total)
    return techniques.Table(tuple(cells), label, None, fillings=fillings)


def test_innies_place_the_rest_of_a_unit():
    """Row 1 adds up to 10; a cage of 6 inside it leaves its last cell 4."""
    marks = shidoku(tables=(sum_cage((0, 1, 2), (1, 2, 3, 4), 6, "cage a (6)"),))
    placed = {(step.technique, step.placed) for step in unit_totals.innies_and_outies(marks)}
    assert ("innies", (3, 4)) in placed


def test_outies_place_what_the_cages_covering_a_unit_hold_beyond_it():
    """Cages of 3 and 9 cover row 1 (10): their cell outside it, r2c3, is 2."""
    marks = shidoku(tables=(sum_cage((0, 1), (1, 2, 3, 4), 3, "cage a (3)"),
                            sum_cage((2, 3, 6), (1, 2, 3, 4), 9, "cage b (9)")))
    found = list(unit_totals.innies_and_outies(marks))
    outie = next(step for step in found if step.technique == "outies" and step.placed)
    assert outie.placed == (6, 2) and outie.place == "row 1"
    assert outie.text == "the cages covering row 1 add up to 12, row 1 to 10, so r2c3 is 2"


def test_a_cage_whose_fillings_all_add_up_alike_is_a_sum():
    assert unit_totals.fixed_sum(techniques.Table((0, 1), "2x", None, fillings=((1, 2), (2, 1)))) == 3
    assert unit_totals.fixed_sum(techniques.Table((0, 1), "4x", None, fillings=((1, 4), (2, 2), (4, 1)))) is None
    assert unit_totals.fixed_sum(techniques.Table((0, 1), "row", None, op="*", target=6)) is None


def test_only_filling_and_fillings_that_leave_one_digit():
    product = techniques.Table((0, 1, 2), "row 1 (6)", None, op="*", target=6)
    statement = techniques.Statement(((0, 0), (0, 1), (0, 2)), ("r1c1", "r1c2", "r1c3"),
                                     tuple(range(1, 10)), (), (product,), {0: 1, 1: 2})
    step = next(techniques.table_steps(techniques.Marks(statement)))
    assert step.technique == "only filling" and step.placed == (2, 3)
    assert techniques.folded("*", 12, [{1, 2, 3}, {4, 6}]) == ([{2, 3}, {4, 6}], 2)
    assert techniques.folded("+", 5, [{1, 2, 3}, {1, 2, 3, 4}]) == ([{1, 2, 3}, {2, 3, 4}], 3)


def test_the_ladder_takes_the_easiest_rung_first():
    marks = shidoku({(0, 0): {1, 2}, (0, 1): {1, 2}}, placed={15: 4, 14: 3, 13: 2})
    assert {s.technique for s in solving.next_steps(marks)} == {"full house"}


# Every family: every step of a person's path agrees with the solution.


def kenken_grid(puzzle: KenKen) -> list[list[int]]:
    (solution,) = kenken_solutions(puzzle)
    return [list(row) for row in solution]


def walked(puzzle) -> tuple[techniques.Statement, list[techniques.Step]]:
    statement = puzzle.statement()
    grid = puzzle.solve().to_json()
    known = {i: grid[r][c] for i, (r, c) in enumerate(statement.places)}
    found, done = solving.path(statement, lambda: known)
    assert done
    return statement, found, grid


def agrees(statement, found, grid) -> None:
    for step in found:
        if step.placed:
            r, c = statement.places[step.placed[0]]
            assert grid[r][c] == step.placed[1], step
        for i, d in step.removed:
            r, c = statement.places[i]
            assert grid[r][c] != d, step


@pytest.mark.parametrize("puzzle", list(kenken_puzzles(4, 4, 5, seed=7)),
                         ids=lambda p: f"kenken-{p.size}")
def test_kenken_paths_agree_with_the_brute_force(puzzle):
    statement, found, grid = walked(puzzle)
    assert grid == kenken_grid(puzzle)
    agrees(statement, found, grid)


@pytest.mark.parametrize("puzzle", list(crossproduct_puzzles(3, 3, 3, seed=5)) +
                         list(crosscells_puzzles(4, 4, 3, seed=5)), ids=lambda p: p.family)
def test_crossproduct_and_crosscells_paths_agree_with_the_solution(puzzle):
    agrees(*walked(puzzle))


def test_sudoku_path_agrees_with_the_solution_and_names_boxes():
    puzzle = read(EXAMPLES / "sudoku" / "brute-force-17.txt")
    statement, found, grid = walked(puzzle)
    agrees(statement, found, grid)
    assert any(step.place.startswith("box ") for step in found)


@pytest.mark.parametrize("path", ["killer_sudoku/shidoku-4x4.txt", "killer_sudoku/random-6x6.txt",
                                  "kakuro/tiny.txt", "kakuro/random-7x7.txt"])
def test_killer_sudoku_and_kakuro_paths_agree_with_the_solution_and_name_cages_and_runs(path):
    """The two families stated on the kernel get the techniques from their statement."""
    puzzle = read(EXAMPLES / path)
    statement, found, grid = walked(puzzle)
    agrees(statement, found, grid)
    assert any("cage" in step.place or "run" in step.place for step in found)


def test_a_killer_sudoku_path_adds_up_a_unit():
    """The 6x6's path takes one step by the rule of 21 (a unit of 1..6)."""
    statement, found, grid = walked(read(EXAMPLES / "killer_sudoku" / "random-6x6.txt"))
    agrees(statement, found, grid)
    assert [step.text for step in found if step.technique == "innies"] == [
        "column 5 adds up to 21, its cages inside to 13, so r5c5, r6c5 add up to 8: r5c5 is 5"]


# Hints


def test_the_hint_is_the_easiest_step_with_the_fewest_clues():
    puzzle = read(EXAMPLES / "sudoku" / "brute-force-17.txt")
    (forced,) = puzzle.hint().cells
    assert forced.level == "technique" and forced.technique == "hidden single"
    assert forced.place == "box 9" and len(forced.clues) == 2
    assert forced.value == puzzle.solve().to_json()[forced.cell[0]][forced.cell[1]]


def test_a_crossproduct_hint_names_its_two_lines():
    puzzle = read(EXAMPLES / "crossproduct" / "riddler-1.txt")
    (forced,) = puzzle.hint().cells
    assert [clue.text for clue in forced.clues] == ["row 1 (135)", "column 3 (640)"]
    assert (forced.cell, forced.value) == ((0, 2), 5)


def test_crosscells_cells_are_named_by_row_and_column():
    puzzle = read(EXAMPLES / "crosscells" / "puzzle-25.txt")
    names = {puzzle.cell_name(cell) for cell in puzzle.open_cells()}
    assert len(names) == len(puzzle.open_cells())
    assert "+3 at row 5, column 3" in names and "+3 at row 5, column 4" in names


def test_a_stuck_ladder_still_gives_a_hint_within_its_time_limit():
    puzzle = read(EXAMPLES / "sudoku" / "inkala-2012.txt")
    (forced,) = explain.hint(puzzle, timeout=0.5).cells
    assert forced.level in ("propagation", "probing", "search") or forced.rating >= solving.PROBING
    assert forced.value == puzzle.solve().to_json()[forced.cell[0]][forced.cell[1]]



def test_a_hint_found_in_no_time_is_a_timeout_not_an_error():
    """`Puzzle.hint` gives the best found by its time limit: when nothing was found (in a
    microsecond no machine searches, let alone reasons), Hint("timeout"), as the command
    line says it; it raised TimeLimitExceeded, naming what was left of the limit (0.109 s
    of 0.8 s for an ambiguous Sudoku) rather than the limit, or, before the first search,
    the limit."""
    riddler = read(EXAMPLES / "crossproduct" / "riddler-1.txt")
    assert riddler.hint(timeout=1e-6) == explain.Hint("timeout")
    assert riddler.hint().status == "hint"
# Grades


def grade(puzzle) -> solving.Grade:
    return solving.graded(walked(puzzle)[1])


def test_grades_rise_with_known_difficulty():
    """Nearly full grids are easy; Wikipedia's 17-given brute-force example needs naked
    singles; the seven hard classics (Sudoku Explainer 10 and over) are beyond the ladder."""
    hard = read(EXAMPLES / "sudoku" / "ai-escargot.txt")
    grid = hard.solve().to_json()
    nearly_full = hard.placing({(r, c): grid[r][c] for r in range(9) for c in range(9) if (r + c) % 4})
    order = [grade(nearly_full), grade(read(EXAMPLES / "sudoku" / "brute-force-17.txt"))]
    order += [grade(read(path)) for path in CLASSICS if "brute" not in path.name
              and "gcd" not in path.name][:2]
    names = [name for name, _ in GRADES]
    assert [names.index(g.grade) for g in order] == sorted(names.index(g.grade) for g in order)
    assert order[0].grade == "easy" and order[-1].grade == "diabolical"


# The command line


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "crossprolog", *args], capture_output=True, text=True)


def test_hint_json_names_the_technique_the_place_and_the_cells():
    done = cli("hint", str(EXAMPLES / "sudoku" / "brute-force-17.txt"), "--format", "json")
    (cell,) = json.loads(done.stdout)["cells"]
    assert cell["technique"] == "hidden single" and cell["place"] == "box 9"
    assert [8, 7] in cell["reason_cells"] and len(cell["clues"]) == 2


def test_grade_and_steps_from_the_command_line():
    done = cli("grade", str(EXAMPLES / "kenken" / "issue-4x4.txt"), "--format", "json")
    record = json.loads(done.stdout)
    assert record["grade"] == "medium" and record["complete"] and record["placements"] == 16
    assert record["status"] == "solved"  # of the one vocabulary (docs/cli.md), as solve --steps says; was "graded"
    done = cli("solve", "--steps", str(EXAMPLES / "kenken" / "issue-4x4.txt"))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].startswith("1. ") and lines[-1].startswith("medium")
    assert "?" not in "".join(lines[-6:])


@pytest.mark.parametrize("command", [["grade"], ["solve", "--steps"]])
def test_grade_and_steps_draw_a_picture_a_puzzle(command):
    """--format svg printed nothing, and html a page without pictures."""
    paths = [str(EXAMPLES / "kakuro" / "tiny.txt"), str(EXAMPLES / "sudoku" / "golden-nugget.txt")]
    done = cli(*command, *paths, "--format", "svg")
    assert done.returncode == 0 and done.stdout.count("<svg") == 2 and done.stdout.count("\n== ") == 1
    assert ("diabolical" if command == ["grade"] else "hardest technique") in done.stdout
    page = cli(*command, paths[0], "--format", "html")
    assert page.returncode == 0 and page.stdout.count("<svg") == 1


# Five solutions (generate kenken --rows 5 --cols 5 --seed 11, its fourth puzzle).
KENKEN_OF_FIVE = "a b b c c\nd e e f f\nd d e f f\nd g g h i\nj g k l i\n" \
    "a 2\nb 4+\nc 20*\nd 120*\ne 12*\nf 12+\ng 40*\nh 3\ni 4+\nj 1\nk 5\nl 2\n"


@pytest.mark.parametrize("command", [["grade"], ["solve", "--steps"]])
def test_grade_and_steps_tell_no_solution_and_several_from_a_time_limit(tmp_path, command):
    """A path stopped by a contradiction is a puzzle with no solution (it was called a
    time-out), and so is one that filled every cell of a CrossProduct whose clues cannot
    hold together (it was graded, its grid breaking a column); a path whose search took
    one of several solutions grades nothing."""
    typo = tmp_path / "typo.txt"
    typo.write_text((EXAMPLES / "kenken" / "issue-4x4.txt").read_text().replace("e 6+", "e 7+"))
    filled = tmp_path / "filled.txt"
    filled.write_text("2 2\n? ? 2\n? ? 1\n")  # the path places 2 1 / 1 1: column 2 makes 1
    several = tmp_path / "several.txt"
    several.write_text(KENKEN_OF_FIVE)
    for path, status in [(typo, "unsolvable"), (filled, "unsolvable"), (several, "several")]:
        done = cli(*command, str(path), "--format", "json")
        record = json.loads(done.stdout)
        assert (done.returncode, record["status"], record["complete"]) == (1, status, False)
        assert record["grade"] is None  # it said "medium" or "diabolical" of a puzzle it did not grade
        done = cli(*command, str(path))
        assert done.returncode == 1 and ("no solution" if status == "unsolvable" else "more than one") \
            in done.stdout.splitlines()[-1]


def test_a_puzzle_with_nothing_open_whose_clues_do_not_hold_has_no_solution_not_a_hint(tmp_path):
    """Every cell given, column 2 not multiplying to its product (or a product over a
    line of no cells): "nothing is left open", exit 0, and hint() said "solved"."""
    filled = tmp_path / "filled.txt"
    filled.write_text("1 2\n1 1 1\n")
    done = cli("hint", str(filled))
    assert done.returncode == 1 and done.stdout.startswith("no solution, so no hint")
    assert CrossProduct((), (2,)).hint().status == "unsolvable"
    assert CrossProduct((), (1,)).hint().status == "solved"
    assert CrossProduct((1,), (1,), givens=((1,),)).hint().status == "solved"
    assert CrossProduct((1,), (2,), givens=((1,),)).hint().status == "unsolvable"


def test_a_hint_with_an_encoding_that_keeps_no_domains_says_which_reasons():
    """It said "encoding consequences: this encoding does not propagate: choose another",
    naming a step of ours, not the encoding, nor one that would do."""
    done = cli("hint", str(EXAMPLES / "sudoku" / "gcd-2025-01.txt"), "--encoding", "candidates")
    assert done.returncode == 2 and done.stderr.endswith(
        "error: encoding candidates: its cells keep no CLP(FD) domains, which a hint's reasoning reads; "
        "leave the encoding out, and hints reason with cardinality\n")
    with pytest.raises(NoDomains, match="^encoding candidates: its cells keep no CLP"):
        crossprolog.parse((EXAMPLES / "sudoku" / "gcd-2025-01.txt").read_text()).hint(encoding="candidates")


def test_entries_must_be_the_printed_puzzle_filled_in(tmp_path):
    """Entries that retype a printed clue are another puzzle: refused (they were read
    by the clues' names alone, and the hint drawn on the changed puzzle); entries
    that are not text are one located line."""
    printed = EXAMPLES / "crossproduct" / "riddler-1.txt"
    retyped = tmp_path / "retyped.txt"
    retyped.write_text(printed.read_text().replace(" 280\n", " 281\n"))
    given = tmp_path / "given.txt"  # its 3 written in: an entry, not a change
    given.write_text(printed.read_text().replace("   ?    ?   ? 135", "   3    ?   ? 135"))
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00abc")
    done = cli("hint", str(printed), "--entries", str(retyped))
    assert done.returncode == 2 and "is not this puzzle filled in" in done.stderr
    assert cli("hint", str(printed), "--entries", str(given)).returncode == 0
    done = cli("hint", str(printed), "--entries", str(binary))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "not UTF-8" in done.stderr
    done = cli("hint", str(printed), "--entries", "-")  # was "-:1:1: cannot read the file"
    assert done.returncode == 2 and done.stderr.endswith(
        "error: --entries takes a file, not standard input (which may hold the puzzle): name the file of "
        "your entries\n")
    other = EXAMPLES / "kenken" / "issue-4x4.txt"  # its error is located in it, not after the puzzle's name
    done = cli("hint", str(printed), "--entries", str(other))
    assert done.returncode == 2 and done.stderr.startswith(f"{other}:2:1: error: expected a digit")
    assert "(in --entries)" in done.stderr.splitlines()[0]
    done = cli("hint", str(printed), "--entries", str(tmp_path))
    assert done.returncode == 2 and done.stderr.endswith(f"error: --entries takes a file, not a directory: {tmp_path}\n")


def test_generate_makes_puzzles_of_the_grade_asked(tmp_path):
    done = cli("generate", "kenken", "--rows", "4", "--cols", "4", "--difficulty", "hard", "--seed", "3",
               "-n", "2")
    assert done.returncode == 0
    puzzles = crossprolog.parse_all(done.stdout)
    assert len(puzzles) == 2 and all(p.well_formed() and grade(p).grade == "hard" for p in puzzles)
    none = cli("generate", "kenken", "--rows", "3", "--cols", "3", "--difficulty", "diabolical", "--seed", "1")
    assert none.returncode == 1 and "only 0 of 1 diabolical puzzles" in none.stderr
    kept = tmp_path / "kept.txt"  # none made: it was emptied
    kept.write_text("precious\n")
    none = cli("generate", "kenken", "--rows", "3", "--cols", "3", "--difficulty", "diabolical", "--seed", "1",
               "--out", str(kept))
    assert none.returncode == 1 and kept.read_text() == "precious\n"


# Typos: the clue (or two) whose removal leaves the puzzle its one solution


def test_one_wrong_given_of_a_sudoku_is_named_with_what_it_should_read():
    puzzle = read(EXAMPLES / "sudoku" / "brute-force-17.txt")
    grid = puzzle.solve().to_json()
    (r, c), *_ = [cell for cell in puzzle.open_cells() if cell[0] == 4]
    wrong = puzzle.placing({(r, c): grid[r][c] % 9 + 1})
    typo = blame.typos(wrong, timeout=60)[0]
    assert [clue.cell for clue in typo.clues] == [(r, c)] and typo.unique
    assert typo.reading == f"the {grid[r][c]} at row {r + 1}, column {c + 1}"


def test_a_wrong_kenken_given_is_blamed():
    (puzzle,) = kenken_puzzles(4, 4, 1, seed=11)
    grid = kenken_grid(puzzle)
    cell = puzzle.open_cells()[0]
    wrong = puzzle.placing({cell: grid[cell[0]][cell[1]] % 4 + 1})
    found = blame.typos(wrong, timeout=60)
    assert any([clue.cell for clue in typo.clues] == [cell] for typo in found)


def test_a_row_and_a_column_product_both_mistyped_are_named_together():
    (puzzle,) = crossproduct_puzzles(10, 6, 1, seed=1)
    rows, columns = list(puzzle.row_products), list(puzzle.column_products)
    rows[2], columns[4] = rows[2] * 11, columns[4] * 13  # factors no digit has: typos a person makes
    wrong = CrossProduct(tuple(rows), tuple(columns), puzzle.givens)
    found = blame.typos(wrong, timeout=60)
    assert [clue.text for clue in found[0].clues] == [f"row 3 ({rows[2]})", f"column 5 ({columns[4]})"]


def mistyped_sudoku():
    """A well-formed Sudoku with one given changed so that it has no solution, though no
    digit is twice in a unit; the cell and the digit it had."""
    from crossprolog.sudoku import well_formed_puzzles
    (puzzle,) = well_formed_puzzles(9, 9, 1, seed=4)
    for r, c in [(r, c) for r in range(9) for c in range(9) if puzzle.givens[r][c]]:
        for d in range(1, 10):
            seen = {puzzle.givens[r][k] for k in range(9)} | {puzzle.givens[k][c] for k in range(9)} | {
                puzzle.givens[3 * (r // 3) + i][3 * (c // 3) + j] for i in range(3) for j in range(3)}
            wrong = puzzle.placing({(r, c): d})
            if d not in seen and wrong.solve() is None:
                return wrong, (r, c), puzzle.givens[r][c]


def test_the_command_line_leads_with_the_typo():
    wrong, (r, c), was = mistyped_sudoku()
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", "-", "--format", "json"],
                          input=wrong.render(), capture_output=True, text=True)
    record = json.loads(done.stdout)
    assert record["status"] == "unsolvable"
    assert record["blame"][0] == {"clues": [{"kind": "given", "row": r, "col": c}], "unique": True,
                                  "reading": f"the {was} at row {r + 1}, column {c + 1}"}
    said = subprocess.run([sys.executable, "-m", "crossprolog", "solve", "-"], input=wrong.render(),
                          capture_output=True, text=True).stdout.splitlines()[0]
    assert said == (f"no solution: the {wrong.givens[r][c]} at row {r + 1}, column {c + 1} is likely "
                    f"mistyped: with the {was} at row {r + 1}, column {c + 1} instead, the puzzle has one "
                    "solution")


def test_every_forced_cell_past_the_time_limit_gives_those_found_by_then():
    """`hint --all --timeout` said only "no hint found in time", whatever it had found.
    The candidates come as search finds them: here the deadline passes after the first,
    or before any."""
    puzzle = crossprolog.parse((EXAMPLES / "kenken" / "issue-4x4.txt").read_text())
    reasoner = Reasoner(puzzle, Deadline(None))
    grid = puzzle.solve().to_json()

    def found(cells: int):
        for cell in [(0, 0), (0, 1)][:cells]:
            yield "search", cell, grid[cell[0]][cell[1]]
        raise TimeLimitExceeded(1)

    late = explain.every_forced(reasoner, found(1))
    assert late.status == "timeout" and [(f.cell, f.value) for f in late.cells] == [((0, 0), grid[0][0])]
    with pytest.raises(TimeLimitExceeded):
        explain.every_forced(reasoner, found(0))
    assert explain.every_forced(reasoner, iter(())).status == "stuck"


def test_a_rule_of_more_fillings_than_a_person_lists_is_folded_not_listed():
    """A cage or run of nine cells has up to 9! = 362,880 fillings: listing them for the
    techniques took seconds and gigabytes past a hint's --timeout (KenKen rows as 45+
    cages: 35 s and 2.6 GB, then out of stack), and the 12x12 Kakuro example's first
    hint was "no technique applies" for the time its 40,320-filling runs took.  Such a
    rule is its sum, folded cell by cell; left out, the techniques lost Kakuro's runs of
    eight and nine cells (and innies and outies their totals)."""
    rows = "".join(" ".join(letter * 9) + "\n" for letter in "abcdefghi")
    kenken = crossprolog.parse(rows + "".join(f"{letter} 45+\n" for letter in "abcdefghi"))
    statement = kenken.statement()
    assert len(statement.tables) == 9 and len(statement.units) == 18
    assert all(t.fillings is None and (t.op, t.target, t.distinct) == ("+", 45, True) for t in statement.tables)
    kakuro = crossprolog.parse((EXAMPLES / "kakuro" / "random-12x12.txt").read_text())
    tables = kakuro.statement().tables
    assert max(len(table.fillings) for table in tables if table.fillings) <= 10_000
    folded = [table for table in tables if table.fillings is None]
    assert folded and all(table.op == "+" and table.distinct for table in folded)
    (forced,) = kakuro.hint(timeout=60).cells
    assert forced.level == "technique" and kakuro.solve().to_json()[forced.cell[0]][forced.cell[1]] == forced.value


@pytest.mark.parametrize("op, target, distinct", [("+", 20, True), ("+", 20, False), ("*", 72, True),
                                                  ("*", 72, False), ("+", 6, True), ("*", 0, False)])
def test_a_folded_rule_fits_as_its_fillings_listed(op, target, distinct):
    """Folding a sum or product cell by cell gives the digits and the count that listing
    its fillings does, with or without different digits, on random pencil marks."""
    rng = random.Random(f"{op}{target}{distinct}")
    for _ in range(40):
        marks = [set(rng.sample(range(0 if target == 0 else 1, 10), rng.randint(1, 7))) for _ in range(4)]
        fillings = [f for f in itertools.product(*map(sorted, marks))
                    if (sum(f) if op == "+" else math.prod(f)) == target and (not distinct or len(set(f)) == 4)]
        assert techniques.folded(op, target, marks, distinct) == ([{f[k] for f in fillings} for k in range(4)],
                                                                   len(fillings))


def test_every_forced_cell_is_explained_before_search_looks_for_more(monkeypatch):
    """Search's forced cells were all looked for before any cell was explained: a time
    limit reached while searching gave none of those propagation had shown."""
    puzzle = crossprolog.parse((EXAMPLES / "kenken" / "issue-4x4.txt").read_text())

    def searched_too_long(reasoner, first, cells):
        raise TimeLimitExceeded(1)
        yield

    monkeypatch.setattr(explain, "searched", searched_too_long)
    found = explain.hint(puzzle, every=True)
    assert found.status == "timeout" and found.cells
    assert {forced.level for forced in found.cells} <= {"propagation", "probing"}

