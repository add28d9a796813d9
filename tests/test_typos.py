"""Typos (issue 20): two totals or products mistyped are named with what they should read,
and when another correction is as slight, both are named as alike.

A correction retypes its clues as a slip of the pen would (a digit changed, left out or
added): the clues whose retyping leaves the puzzle one solution, fewest edits first.
No search here has a time limit, so nothing depends on the machine's speed.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import crossprolog
from crossprolog import blame

from conftest import EXAMPLES

ROOT = EXAMPLES.parent

TWO_TOTALS = ROOT / "docs" / "examples" / "two-totals-mistyped.txt"  # row 10 =3 typed =9, column 9 =32 as =82
UNTELLABLE = ROOT / "docs" / "examples" / "untellable-totals.txt"  # row 6 =4 typed =0, column 4 =12 as =32


def read(path):
    return crossprolog.parse(path.read_text())


def test_two_mistyped_crosscells_totals_are_named_with_what_they_should_read():
    found = blame.typos(read(TWO_TOTALS))
    first = found[0]
    assert [clue.text for clue in first.clues] == ["row 10 (=9)", "column 9 (=82)"]
    assert first.unique and first.reading == "row 10 (=3), column 9 (=32)" and first.edits == 2
    assert all(typo.edits > first.edits or not typo.unique for typo in found[1:])  # no other as slight


def test_retyped_as_they_should_read_the_totals_leave_one_solution():
    wrong = read(TWO_TOTALS)
    row, column = [clue for clue in wrong.clues() if clue.text in ("row 10 (=9)", "column 9 (=82)")]
    fixed = wrong.retyped(row, (3,)).retyped(column, (32,))
    assert fixed.count(limit=2) == 1
    assert wrong.retyped(row, (3,)).solve() is None  # one of them alone is not the typo


def test_two_totals_whose_typo_cannot_be_told_are_named_as_alike():
    found = blame.typos(read(UNTELLABLE))
    slightest = [typo for typo in found if typo.unique and typo.edits == found[0].edits]
    assert len(slightest) >= 2 and found[0].edits == 2
    named = {tuple(clue.text for clue in typo.clues): typo.reading for typo in slightest}
    assert named.get(("column 4 (=32)", "column 6 (#8)")) == "column 4 (=-2), column 6 (#6)"


def test_the_command_line_names_the_two_totals_and_what_they_should_read():
    done = subprocess.run([sys.executable, "-m", "crossprolog", "check", str(TWO_TOTALS), "--timeout", "600"],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        "not well-formed: no solution: row 10 (=9) and column 9 (=82) are likely mistyped: with row 10 (=3), "
        "column 9 (=32) instead, the puzzle has one solution")
    record = json.loads(subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(TWO_TOTALS),
                                        "--format", "json", "--timeout", "600"], capture_output=True,
                                       text=True).stdout)
    assert record["blame"][0] == {"clues": [{"kind": "row", "index": 9}, {"kind": "column", "index": 8}],
                                  "unique": True, "reading": "row 10 (=3), column 9 (=32)"}
    assert "conflict" not in record  # it held the two blamed, which can hold together


def test_the_command_line_says_when_another_correction_is_as_likely():
    said = subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(UNTELLABLE), "--timeout", "600"],
                          capture_output=True, text=True).stdout.splitlines()[0]
    assert "are likely mistyped: with " in said and "(or, as likely, " in said


@pytest.mark.parametrize("number, near, far", [
    (9, [0, 3, 8, 19, 90, 99, -9], [9, 10, -19]),
    (-21, [21, -2, -1, -29, -211, -121], [-21, 12, 20]),
    (0, [1, 9, 10, 20], [0, 100, -1]),
])
def test_a_slip_of_the_pen_is_one_character_changed_left_out_or_added(number, near, far):
    edits = blame.one_edit(number)
    assert set(near) <= set(edits) and not set(far) & set(edits)


@pytest.mark.parametrize("example", ["crosscells/two-totals", "crossproduct/riddler-1.txt",
                                     "kenken/issue-4x4.txt", "kenken/issue-4x4-drawn.txt",
                                     "killer_sudoku/shidoku-4x4.txt", "kakuro/random-7x7.txt"])
def test_a_retyped_clue_is_the_only_clue_that_changes(example):
    puzzle = read(TWO_TOTALS if example == "crosscells/two-totals" else ROOT / "examples" / example)
    clues = puzzle.clues()
    for k, clue in enumerate(clues):
        if clue.kind == "given":
            continue
        wanted = tuple(n + 1 if n >= 0 else n - 1 for n in puzzle.stated(clue))
        retyped = puzzle.retyped(clue, wanted)
        texts = [c.text for c in retyped.clues()]
        assert [t for t, c in zip(texts, clues) if t != c.text] == [texts[k]]
        assert retyped.stated(retyped.clues()[k]) == wanted


SUMPLETE = "# game: sumplete\n6 7 2 8 2\n4 9 9 3 7\n-1 9 1 2 10\n7 -3 5 7 9\n3 6 7 13\n"  # column 4 is 12
NUMBER_SUMS = (EXAMPLES / "crosscells" / "number-sums.txt").read_text().replace("b=18", "b=19")


@pytest.mark.parametrize("text, typed, meant, number", [
    (SUMPLETE, "column 4 (13)", "column 4 (12)", 12),
    (NUMBER_SUMS, "region b (b=19)", "region b (b=18)", 18)], ids=["sumplete", "number-sums"])
def test_a_sumplete_or_number_sums_correction_reads_as_that_game_writes_it(text, typed, meant, number):
    """A correction read `column 4 (=12)` and `group b (b=18)`, CrossCells' way: a total
    is written bare in these games' layouts, and Number Sums' groups are regions."""
    wrong = crossprolog.parse(text)
    [typo] = blame.typos(wrong)
    assert [clue.text for clue in typo.clues] == [typed] and typo.reading == meant and typo.unique
    fixed = wrong.retyped(typo.clues[0], (number,))
    assert crossprolog.parse(fixed.render()) == fixed  # written as its game's layout reads it back
    solution = fixed.solve()
    assert [fixed.clue_reading(clue, solution) for clue in fixed.clues()] == [clue.text for clue in fixed.clues()]
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", "-"], input=text,
                          capture_output=True, text=True)
    assert done.stdout.startswith(f"no solution: {typed} is likely mistyped: with {meant} instead"), done.stderr


def test_a_wrong_mark_is_named_before_a_total_as_slightly_off():
    found = blame.typos(read(ROOT / "tests" / "mark-or-total.txt"))
    assert [(typo.clues[0].text, typo.reading) for typo in found[:2]] == [
        ("+2 at row 9, column 1 OFF", "+2 at row 9, column 1 ON"), ("column 1 (=-3)", "column 1 (=-2)")]
    assert found[0].edits == found[1].edits == 1 and not found[0].cut_short


def test_a_search_cut_short_says_so_and_alike_corrections_are_named_as_such():
    from crossprolog.cli.questions import typo_sentence
    row, column, group = [clue for clue in read(TWO_TOTALS).clues()
                          if clue.text in ("row 10 (=9)", "column 9 (=82)", "group j (j=4)")]
    first = blame.Typo((row, column), True, ("row 10 (=3)", "column 9 (=32)"))
    alike = blame.Typo((column, group), True, ("column 9 (=32)", "group j (j=5)"))
    said = typo_sentence(blame.ranked([first], cut_short=True))
    assert said.endswith("instead, the puzzle has one solution; not every other correction was tried in time")
    assert typo_sentence(blame.ranked([first, alike])).endswith(
        "(or, as likely, column 9 (=82) and group j (j=4))")
    assert blame.ranked([first], cut_short=True)[0].to_json()["cut_short"] is True


def mistyped_cage(family: str, size: int, seed: int, letter: str, typed: int):
    """A well-formed generated puzzle (the same for the seed) and the clue of its cage
    `letter`, the cage's number typed as `typed`."""
    puzzle = next(iter(crossprolog.generate(family, size, size, n=1, seed=seed, well_formed=True)))
    cage = next(clue for clue in puzzle.clues() if clue.kind == "cage" and clue.name == letter)
    return puzzle, puzzle.retyped(cage, (typed,)), cage


def test_a_mistyped_kenken_cage_is_retyped_and_named_with_what_it_should_read():
    right, wrong, cage = mistyped_cage("kenken", 6, 4, "d", 111)  # cage d is 11+
    assert [clue.text for clue in wrong.clues() if clue.name == "d"] == ["cage d (111+)"]
    assert wrong.solve() is None and wrong.retyped(cage, (11,)) == right
    first = blame.typos(wrong)[0]
    assert [clue.text for clue in first.clues] == ["cage d (111+)"]
    assert first.reading == "cage d (11+)" and first.unique  # not unique before: not retyped


def test_a_mistyped_kakuro_run_is_named_with_what_it_should_read():
    right = read(ROOT / "examples" / "kakuro" / "random-7x7.txt")
    run = next(clue for clue in right.clues() if clue.kind == "run" and right.stated(clue) == (19,))
    wrong = right.retyped(run, (91,))  # digits swapped
    assert wrong.solve() is None
    first = blame.typos(wrong)[0]
    assert [clue.text for clue in first.clues] == [run.text.replace("19-run", "91-run")]
    assert first.reading == run.text and first.unique  # no reading, nor retyping, before


def test_a_mistyped_killer_sudoku_sum_is_named_with_what_it_should_read():
    right, wrong, cage = mistyped_cage("killer_sudoku", 9, 1, "s", 131)  # cage s sums to 13
    first = blame.typos(wrong)[0]
    assert [clue.text for clue in first.clues] == ["cage s (131)"]
    assert first.reading == "cage s (13)" and first.unique  # no reading before


# Without cage c, its one solution has 3, 1, 3 in c's cells: a sum of 8 that no cage
# makes (a cage's digits differ); with `c 8`, no solution.
NO_SUM_MAKES_IT = "# game: killer-sudoku\ni a a h\nc f e e\nc c b g\nd d b b\n" \
    "a 7\nb 7\nc 6\nd 4\ne 4\nf 4\ng 3\nh 2\ni 1\n"


def test_a_cage_s_reading_is_one_its_digits_can_make():
    """It said "with cage c (8) instead, the puzzle has one solution", which has none."""
    puzzle = crossprolog.parse(NO_SUM_MAKES_IT)
    cage = next(clue for clue in puzzle.clues() if clue.name == "c")
    assert puzzle.retyped(cage, (8,)).count() == 0
    first = blame.typos(puzzle)[0]
    assert [clue.text for clue in first.clues] == ["cage c (6)"] and first.reading is None
    # what is claimed holds: without the cage, one solution
    assert first.unique and puzzle.keeping([c for c in puzzle.clues() if c != cage]).count() == 1


@pytest.mark.parametrize("example, typed, bracketed", [
    ("kenken/issue-4x4-drawn.txt", ("| 12*       | 2-  |", "| 12*       | 3-  |"), "| [3/] |"),
    ("killer_sudoku/shidoku-4x4-drawn.txt", ("| 4 | 6     | 9 |", "| 5 | 6     | 9 |"), "| [5] |")])
def test_a_drawn_grid_brackets_the_clue_it_blames_as_a_lettered_one_does(tmp_path, example, typed,
                                                                         bracketed):
    """Cages walled in are drawn back walled, each blamed clue in brackets in its corner:
    they were drawn bare, the grid then showing nothing of what the first line blames."""
    wrong = tmp_path / "wrong.txt"
    wrong.write_text((EXAMPLES / example).read_text(encoding="utf-8").replace(*typed), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(wrong)], capture_output=True,
                          text=True)
    assert done.returncode == 1 and done.stdout.startswith("no solution: ")
    grid = [line for line in done.stdout.splitlines() if line.startswith(("|", "+"))]
    assert grid and sum(bracketed in line for line in grid) == 1
    assert sum(line.count("[") for line in grid) == 1


def test_a_puzzle_with_a_solution_has_no_typo_to_blame():
    """typos() of a solvable puzzle named every clue as a typo, each to be read as it
    already reads ("cage a (12*)" should read "cage a (12*)")."""
    puzzle = crossprolog.parse((EXAMPLES / "kenken" / "issue-4x4.txt").read_text(encoding="utf-8"))
    assert blame.typos(puzzle) == ()
    with pytest.raises(crossprolog.InvalidValue, match="timeout must be a positive number"):
        blame.typos(puzzle, timeout="x")


@pytest.mark.parametrize("encoding", ["auto", "rows", "lines", "asp"])
def test_the_clues_to_blame_are_sought_whatever_encoding_of_the_family_is_named(tmp_path, encoding):
    """Naming one of the family's encodings that keeps no CLP(FD) domains, or needs every
    product, made a puzzle without solution an error (exit 2) instead of its typo or its
    conflict."""
    conflict = tmp_path / "conflict.txt"
    conflict.write_text("8 8 2\n? ? ? 8\n? ? ? 8\n? ? ? 1\n")
    for path, said in (("docs/examples/typo.txt", "row 5 (71) is likely mistyped"),
                       (conflict, "cannot hold together")):
        done = subprocess.run([sys.executable, "-m", "crossprolog", "check", str(path), "--encoding", encoding],
                              capture_output=True, text=True, cwd=EXAMPLES.parent)
        assert done.returncode == 1, done.stderr
        assert said in done.stdout.splitlines()[0]
