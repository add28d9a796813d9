"""Sumplete and Number Sums: CrossCells puzzles whose cells all add, in those games' own layout.

Every encoding is checked against a brute force of the test's own: it
draws a grid of numbers, keeps some, writes the targets they make, and then
tries every way to keep or delete, summing rows, columns and regions itself.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
from pathlib import Path

import pytest

import crossprolog
from crossprolog import ParseError
from crossprolog.answers import Marks
from crossprolog.registry import family_of
from conftest import EXAMPLES

ENCODINGS = ["masks", "restarts", "states", "states_ffc", "fold", "reified"]
ISSUE = """\
# game: sumplete
 3  5  1   8
 2  7  4  11
 6  1  9   7
 8 12  5
"""
SUMPLETE = EXAMPLES / "crosscells" / "sumplete.txt"
NUMBER_SUMS = EXAMPLES / "crosscells" / "number-sums.txt"


def parse(text: str, **options) -> crossprolog.Puzzle:
    return crossprolog.parse(text, **options)


# Reading the layout


def test_the_directive_picks_crosscells_and_the_sumplete_layout():
    assert family_of(ISSUE) == "crosscells"
    assert family_of(ISSUE.split("\n", 1)[1]) == "crossproduct"  # without it: numbers in lines
    puzzle = parse(ISSUE)
    assert puzzle.game == "sumplete"
    numbers = (3, 5, 1, 2, 7, 4, 6, 1, 9)
    assert [(cell.op, cell.number) for cell in puzzle.cells] == [("+", n) for n in numbers]
    readings = [(r.cells, r.constraint.value) for r in puzzle.readings()]
    assert readings == [((0, 1, 2), 8), ((3, 4, 5), 11), ((6, 7, 8), 7),
                        ((0, 3, 6), 8), ((1, 4, 7), 12), ((2, 5, 8), 5)]


def test_a_puzzle_draws_back_as_it_came_with_its_directive():
    assert parse(ISSUE).render() == ISSUE.rstrip("\n")
    for path in (SUMPLETE, NUMBER_SUMS):
        puzzle = parse(path.read_text())
        for format in ("text", "markdown"):
            assert parse(puzzle.render(format=format)) == puzzle


def test_column_targets_may_stand_above_the_grid():
    above = parse("# game: sumplete\n 3  4\n 1  2  3\n 2  2  4\n")
    below = parse("# game: sumplete\n 1  2  3\n 2  2  4\n 3  4\n")
    assert [c.head.value for c in above.columns] == [3, 4]
    assert above.solve().values == below.solve().values == ((1, 1), (1, 1))


def test_negative_numbers_are_cells_that_subtract():
    puzzle = parse("# game: sumplete\n 5 -3  2\n-1  4  4\n 5  1\n")
    assert [(cell.op, cell.number, cell.text) for cell in puzzle.cells] == [
        ("+", 5, "5"), ("-", 3, "-3"), ("-", 1, "-1"), ("+", 4, "4")]
    assert [s.values for s in puzzle.solutions()] == [((1, 1), (0, 1))]
    assert parse("# game: sumplete\n 5 -3  2\n-1  4 -1\n 4 -3\n").solve().values == ((1, 1), (1, 0))


def test_number_sums_regions_are_letters_after_numbers_and_targets_below():
    puzzle = parse(NUMBER_SUMS.read_text())
    assert puzzle.game == "number-sums"
    assert {(g.group, g.value) for g in puzzle.groups} == {("a", 7), ("b", 18), ("c", 19), ("d", 3)}
    assert [puzzle.cells[i].text for i in puzzle.group_cells("d")] == ["6d", "6d", "-1d", "-3d"]


# Solving: kept numbers marked !, deleted ones ~, so that it reads back; JSON 1 for kept,
# 0 for deleted


def test_a_solution_marks_the_kept_and_the_deleted_numbers_and_reads_back(cli):
    run = cli("solve", SUMPLETE)
    assert run.code == 0 and run.out == """\
# game: sumplete
 6~  7~  2!  8~   2
 4!  9~  9~  3!   7
-1!  9!  1~  2!  10
 7~ -3!  5!  7!   9
  3   6   7  12
"""
    solution = {(r, c): on for r, row in enumerate(cli("solve", SUMPLETE, "--format", "json")
                                                   .json()["solution"]) for c, on in enumerate(row)}
    assert parse(run.out) == parse(SUMPLETE.read_text()).placing(solution)
    record = cli("solve", NUMBER_SUMS, "--format", "json").json()
    assert record["solution"] == [[1, 1, 1, 1], [1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 0, 1]]


def test_check_count_compare_export_and_batches_work_as_for_any_crosscells(cli, tmp_path):
    assert cli("check", SUMPLETE, NUMBER_SUMS).code == 0
    assert cli("count", NUMBER_SUMS, "--format", "json").json()["count"] == 1
    compared = cli("compare", SUMPLETE, "--format", "json")
    # the Prolog encodings, and the ASP and MiniZinc ones (crossprolog/paradigms/)
    assert compared.code == 0 and {r["encoding"] for r in compared.jsonl()} == {*ENCODINGS, "asp", "minizinc"}
    assert all(r["agrees"] for r in compared.jsonl())
    out = tmp_path / "records.jsonl"
    batch = cli("solve", SUMPLETE, NUMBER_SUMS, EXAMPLES / "crosscells" / "puzzle-25.txt",
                "--jobs", "2", "--out", out)
    assert batch.code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["status"] for r in records] == ["solved"] * 3
    exported = tmp_path / "sumplete.pl"
    assert cli("export", SUMPLETE, "-o", exported).code == 0
    done = subprocess.run([swipl(), str(exported)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == cli("solve", SUMPLETE).out  # drawn as solve draws it


def swipl() -> str:
    """The swipl the project runs on (found as tests/test_encodings.py does)."""
    root = Path(__file__).resolve().parent.parent
    bin_dir = subprocess.run([str(root / "scripts" / "provision-swipl")], capture_output=True,
                             text=True, check=True).stdout.strip()
    return str(Path(bin_dir) / "swipl")


def test_the_api_reads_the_game_as_an_option_too():
    plain = ISSUE.split("\n", 1)[1]
    assert parse(plain, family="crosscells", game="sumplete") == parse(ISSUE)
    with pytest.raises(ParseError, match="found '3'"):
        parse(ISSUE, game="crosscells")  # the command line (or the caller) overrides the file


# Against a brute force of the test's own


def drawn_sums(rng: random.Random, regions: bool) -> tuple[str, list[tuple]]:
    """A random Sumplete (or Number Sums) text of at most 12 numbers, and every solution
    the brute force finds, as rows of 1 (kept) and 0 (deleted)."""
    height, width = rng.randint(1, 3), rng.randint(1, 4)
    numbers = [[rng.randint(-5, 9) for _ in range(width)] for _ in range(height)]
    letters = [[rng.choice("ab") if regions else "" for _ in range(width)] for _ in range(height)]
    kept = [[rng.random() < 0.6 for _ in range(width)] for _ in range(height)]

    def total(places):
        return sum(numbers[r][c] for r, c in places if kept[r][c])

    rows = [[(r, c) for c in range(width)] for r in range(height)]
    columns = [[(r, c) for r in range(height)] for c in range(width)]
    groups = {g: [(r, c) for r, c in itertools.product(range(height), range(width)) if letters[r][c] == g]
              for g in sorted({g for row in letters for g in row if g})}
    lines = [" ".join(f"{numbers[r][c]}{letters[r][c]}".rjust(4) for c in range(width))
             + f"{total(row):>5}" for r, row in enumerate(rows)]
    lines.append(" ".join(f"{total(column)}".rjust(4) for column in columns))
    if groups:
        lines.append("  ".join(f"{g}={total(places)}" for g, places in groups.items()))
    game = "number-sums" if regions else "sumplete"
    text = f"# game: {game}\n" + "\n".join(lines) + "\n"

    every = []
    for bits in itertools.product((0, 1), repeat=height * width):
        keep = [bits[r * width:(r + 1) * width] for r in range(height)]
        sums = lambda places: sum(numbers[r][c] for r, c in places if keep[r][c])  # noqa: E731
        if all(sums(line) == total(line) for line in rows + columns + list(groups.values())):
            every.append(tuple(map(tuple, keep)))
    return text, sorted(every)


@pytest.mark.parametrize("regions", [False, True], ids=["sumplete", "number-sums"])
def test_every_encoding_agrees_with_the_brute_force(regions):
    rng = random.Random(regions)
    several = 0
    for _ in range(15):
        text, expected = drawn_sums(rng, regions)
        several += len(expected) > 1
        for precedence in ("left-to-right", "standard"):
            puzzle = parse(text, precedence=precedence)
            for encoding in ENCODINGS:
                found = sorted(s.values for s in puzzle.solutions(encoding=encoding))
                assert found == expected, (encoding, precedence, text)
    assert several >= 3  # puzzles with one solution only would not tell much


# Bad input: one located error each


ERRORS = [
    ("# game: kakuro\n 1  1\n 1\n", 1, 9, "expected crosscells, sumplete, number-sums or killer-sudoku, not 'kakuro'"),
    ("# game: sumplete\n 3  5  8\n 2  7\n 6  1  7\n 8 12\n", 3, 6, "this row has no target"),
    ("# game: sumplete\n 3  5\n 2  7  9\n 8 12\n", 2, 6, "this row has no target"),
    ("# game: sumplete\n 3  5  8\n 2  7  9  1\n 8 12\n", 3, 12,
     "this row has 3 numbers and a target, but the column targets stand for 2 columns"),
    ("# game: sumplete\n 3  5  8\n 2  7  9\n", 3, 9, "no column targets"),
    ("# game: sumplete\n 3a 5  8\n 3  5\n", 2, 3, "regions are Number Sums'"),
    ("# game: sumplete\n 3  5  8\n 3  5\na=3\n", 4, 1, "regions are Number Sums'"),
    ("# game: number-sums\n 3a 5a  8\n 3  5\na=3 b=4\n", 4, 5, "no number is in region 'b'"),
    ("# game: number-sums\n 3a 5b  8\n 3  5\na=3\n", 2, 6, "region 'b' has no target"),
    ("# game: number-sums\n 3a 5a  8\n 3  5\na=3 a=8\n", 4, 5, "region 'a' already has a target (line 4)"),
    ("# game: number-sums\na=3\n 3a 5a  8\n 3  5\n", 2, 1, "stand below the grid"),
    ("# game: number-sums\n 3a 5a  8 a=8\n 3  5\n", 2, 11, "on lines of their own"),
    ("# game: number-sums\n 3a 5a  8b\n 3  5\na=8\n", 2, 10, "a target stands alone"),
    ("# game: number-sums\n-03a 5  8\n 3  5\n", 2, 4, "region 'a' has no target"),
    ("# game: sumplete\n 3 +5  8\n 3  5\n", 2, 4, "expected a number like 5 or -3, found '+5'"),
    ("# game: sumplete\n# first-cell: seeds\n 3  5  8\n 3  5\n", 3, 1, "'seeds' does not apply"),
    ("# game: sumplete\n", 1, 1, "no numbers here"),
    ("# game: number-sums\na=3\n", 2, 1, "no numbers here"),
]


@pytest.mark.parametrize("text, line, column, message", ERRORS)
def test_every_mistake_is_a_located_error(text, line, column, message):
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert (caught.value.line, caught.value.column) == (line, column), caught.value
    assert message in caught.value.message


@pytest.mark.parametrize("text, place", [
    ("# game: sudoku\n 1  2  3\n 1  2\n", "1:9"),
    ("# precedence: standard\n+1 %0 =1\n", "2:4"),
    ("# game: number-sums\n 3a 5a  8\n 3  5\na=3 q=4\n", "4:5"),
    ("# game: sumplete\n 3  5\n 2  7  9\n 8 12\n", "2:6"),
])
def test_bad_input_from_the_command_line_is_one_located_error_and_exit_2(cli, write, text, place):
    path = write(text)
    run = cli("check", path)
    assert run.code == 2 and run.out == "" and run.err.startswith(f"{path}:{place}: error: ")
    assert len(run.err.splitlines()) == 3 and run.err.splitlines()[2].strip() == "^"


def test_a_row_without_its_target_is_one_located_line_and_exit_2(cli, write):
    path = write("# game: sumplete\n 3  5  8\n 2  7\n 6  1  7\n 8 12\n")
    run = cli("solve", path)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines()[0].startswith(f"{path}:3:6: error: this row has no target")
    assert run.err.splitlines()[1:] == [" 2  7", "     ^"]


# Stuck solvers: a hint marks the decided number in the game's own layout, which reads back


def test_a_hint_marks_a_number_as_the_game_writes_it_and_reads_back_in(cli, write):
    hinted = cli("hint", SUMPLETE)
    assert hinted.code == 0
    assert hinted.out.splitlines()[:3] == ["# hint - only filling in row 1 (2): its only filling left has 6 at r1c1 deleted",
                                           "# game: sumplete", "6~  7  2  8  2"]
    again = cli("hint", write(hinted.out), "--format", "json")
    assert again.code == 0 and [(c["row"], c["col"], c["value"]) for c in again.json()["cells"]] == [
        (0, 1, 0)]
    marked = parse(hinted.out)
    assert [cell.decided for cell in marked.cells][:2] == [0, None]


def test_a_mark_on_a_target_is_a_located_error():
    with pytest.raises(ParseError, match="a target stands alone") as caught:
        parse("# game: sumplete\n 3  5  8!\n 3  5\n")
    assert (caught.value.line, caught.value.column) == (2, 9)


def test_marked_targets_typed_off_their_columns_stay_apart():
    """Column targets are read in order, wherever they stand: a drawing that makes room
    for brackets moves each with its own column, not with the one it stands under."""
    puzzle = parse("# game: number-sums\n 1a 2a 1b  3\n 2a 1b 2b  3\n 3 3 3\na=3 b=3\n")
    marked = Marks(clues=frozenset(c for c in puzzle.clues() if c.text.startswith("column")))
    assert puzzle.render(marks=marked).splitlines()[3].split() == ["[3]", "[3]", "[3]"]


def test_a_sumplete_typed_without_its_directive_says_what_it_was_read_as(cli, write):
    """Without negative numbers a Sumplete is lines of numbers, as a CrossProduct whose
    cells are all given: read so, it has no solution, and the note says why it might."""
    path = write("  6   7   2\n  4   9   9\n  3   6  12\n  5 10\n")
    for command in ("solve", "check"):
        done = cli(command, path)
        assert done.code == 1 and done.err == (f"{path}: note: read as CrossProduct (lines of numbers); "
                                               "name the family with --family if it is another\n")
    assert cli("solve", write("# game: sumplete\n" + path.read_text())).err == ""
    solved = cli("solve", EXAMPLES / "crossproduct" / "riddler-1.txt").out
    assert cli("check", write(solved)).err == ""  # a solution read back is lines of numbers too


# Making them


def test_a_generated_number_sums_of_any_size_names_its_regions_by_the_letters_the_grammar_reads(cli):
    """A letter a region, and there are 52 (a-z, A-Z): past 12x12 or so the regions of
    two to five cells drawn were more, and a 14x14 crashed; they are joined now, each
    still connected, and every size the size check takes reads back in."""
    from crossprolog.crosscells import GROUP_LETTERS
    from crossprolog.regions import reached

    for rows, cols, seeds in ((13, 13, (2, 4)), (14, 14, (1, 2, 3)), (12, 40, (1,)), (60, 60, (1,))):
        for seed in seeds:
            [puzzle] = crossprolog.generate("crosscells", rows, cols, game="number-sums", seed=seed)
            assert parse(puzzle.render()) == puzzle
            assert 1 <= len(puzzle.groups) <= len(GROUP_LETTERS)
            cells = [puzzle.group_cells(group.group) for group in puzzle.groups]
            assert sorted(i for region in cells for i in region) == list(range(rows * cols))
            for region in cells:  # each connected
                places = {divmod(i, cols) for i in region}
                assert reached(min(places), lambda p: {(p[0] + dr, p[1] + dc) for dr, dc in (
                    (0, 1), (1, 0), (0, -1), (-1, 0))} & places) == places
    done = cli("generate", "crosscells", "--rows", 14, "--cols", 14, "--game", "number-sums", "--seed", 1)
    assert done.code == 0 and done.err == "" and parse(done.out).game == "number-sums"


def test_the_largest_number_sums_generated_is_made_and_read_back_in_seconds():
    """200x200, the largest the size check takes: the regions were cut, and drawn,
    in time growing with the square of the cells (two minutes)."""
    [puzzle] = crossprolog.generate("crosscells", 200, 200, game="number-sums", seed=1)
    assert len(puzzle.groups) == 52 and parse(puzzle.render()) == puzzle


def test_regions_drawn_small_are_joined_only_past_the_letters_and_stay_as_drawn_below():
    from crossprolog.regions import joined, random_partition

    drawn = random_partition(6, 6, {2: 1, 3: 1}, random.Random(1))
    assert joined(drawn, len(drawn)) == drawn
    fewer = joined(drawn, 3)
    assert len(fewer) == 3 and sorted(p for region in fewer for p in region) == sorted(
        p for region in drawn for p in region)
