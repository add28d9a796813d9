"""Kakuro: the layout, every encoding (Prolog, ASP, MiniZinc) against an independent brute
force, the generators, hints naming runs, located errors, the command line."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

import crossprolog
from crossprolog import ParseError, engine
from crossprolog.kakuro import Black, Kakuro
from crossprolog.registry import family_of

from conftest import EXAMPLES

TINY = (EXAMPLES / "kakuro" / "tiny.txt").read_text()
TINY_SOLUTION = ((0, 0, 0, 0), (0, 2, 1, 4), (0, 1, 3, 2))
ENCODINGS = engine.encodings("kakuro") + ["asp", "minizinc"]


# The brute force: row by row, every way to put digits 1-9 in a row's white cells, the
# rows' and columns' runs checked as the README states the rules.  No crossprolog code.

def lines_of(cells) -> list[tuple[tuple[int, int] | None, list[tuple[int, int]]]]:
    """Every maximal row or column of white cells: the black cell before it (None at the
    edge) and its cells."""
    height, width = len(cells), len(cells[0])
    found = []
    for grid_lines in ([[(r, c) for c in range(width)] for r in range(height)],
                       [[(r, c) for r in range(height)] for c in range(width)]):
        for line in grid_lines:
            before, run = None, []
            for place in line + [None]:
                if place is not None and not isinstance(cells[place[0]][place[1]], Black):
                    run.append(place)
                    continue
                if run:
                    found.append((before, run))
                before, run = place, []
    return found


def brute_force(puzzle: Kakuro) -> set:
    cells = puzzle.cells
    runs = []
    for before, run in lines_of(cells):
        across = before is not None and before[0] == run[0][0]
        black = cells[before[0]][before[1]] if before is not None else None
        total = None if black is None else (black.across if across else black.down)
        runs.append((run, total))
    height, width = len(cells), len(cells[0])
    white_rows = [[c for c in range(width) if not isinstance(cells[r][c], Black)] for r in range(height)]
    found = set()

    def fill(r: int, grid: list) -> None:
        if r == height:
            if all(len({grid[a][b] for a, b in run}) == len(run)
                   and (total is None or sum(grid[a][b] for a, b in run) == total) for run, total in runs):
                found.add(tuple(map(tuple, grid)))
            return
        for digits in itertools.product(range(1, 10), repeat=len(white_rows[r])):
            row = [0] * width
            for c, d in zip(white_rows[r], digits):
                row[c] = d
            if any(isinstance(cells[r][c], int) and cells[r][c] != row[c] for c in white_rows[r]):
                continue
            fill(r + 1, grid + [row])

    fill(0, [])
    return found


def random_kakuros(n: int, seed: int, shapes=((3, 3), (3, 4), (4, 3), (4, 4)),
                   white_share: float = 0.8) -> list[Kakuro]:
    """Small grids (at most six white cells): random black cells, random digits whose run
    sums are the clues, some clues made wrong, some digits given."""
    rng = random.Random(seed)
    puzzles = []
    while len(puzzles) < n:
        height, width = rng.choice(shapes)
        white = {(r, c) for r in range(1, height) for c in range(1, width) if rng.random() < white_share}
        if not white or len(white) > 6:
            continue
        digits = {place: rng.randint(1, 9) for place in white}
        rows = []
        for r in range(height):
            row = []
            for c in range(width):
                if (r, c) in white:
                    row.append(digits[r, c] if rng.random() < 0.1 else None)
                    continue
                sums = []
                for dr, dc in ((1, 0), (0, 1)):
                    run = []
                    while (r + dr * (len(run) + 1), c + dc * (len(run) + 1)) in white:
                        run.append((r + dr * (len(run) + 1), c + dc * (len(run) + 1)))
                    total = sum(digits[p] for p in run) + (rng.random() < 0.1)
                    sums.append(total if run and (len(run) > 1 or rng.random() < 0.5) else None)
                row.append(Black(*sums))
            rows.append(tuple(row))
        puzzles.append(Kakuro(tuple(rows)))
    return puzzles


def solutions(puzzle, encoding: str) -> set:
    found = puzzle.search(encoding=encoding, timeout=60)
    assert found.status == "complete"
    answers = [s.values for s in found.solutions]
    assert len(answers) == len(set(answers)), "a solution given twice"
    return set(answers)


@cache
def sample() -> tuple[list[Kakuro], list[set]]:
    """The random puzzles every encoding is held to, with what the brute force finds."""
    puzzles = random_kakuros(30, seed=1)
    return puzzles, [brute_force(p) for p in puzzles]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_agrees_with_brute_force(encoding):
    puzzles, expected = (part[:30 if encoding != "minizinc" else 10] for part in sample())
    counts = [len(e) for e in expected]
    assert min(counts) == 0 and max(counts) >= 3  # the sample has every kind
    for puzzle, answers in zip(puzzles, expected):
        assert solutions(puzzle, encoding) == answers, (encoding, puzzle)


@pytest.mark.parametrize("encoding", engine.encodings("kakuro"))
def test_runs_of_five_agree_with_brute_force(encoding):
    """The kernel states a sum of four or more cells as its sets of digits, not as the
    orderings of them: a run of five across a 2x6 grid, with wrong clues and givens."""
    puzzles = random_kakuros(12, seed=7, shapes=[(2, 6)], white_share=1.0)
    expected = [brute_force(p) for p in puzzles]
    assert min(map(len, expected)) == 0 and max(map(len, expected)) >= 3
    for puzzle, answers in zip(puzzles, expected):
        assert solutions(puzzle, encoding) == answers, (encoding, puzzle)


def test_crossing_long_runs_agree_between_encodings():
    """Random 5x5 grids, runs of four crossing (10 to 443 solutions): the kernel's sets
    of digits find what CLP(FD)'s sums and all_distinct find.  Grids of over a thousand
    solutions are left out: CLP(FD) took 14 s to list one's 15,564."""
    puzzles = [puzzle for puzzle in crossprolog.generate("kakuro", 5, 5, 12, seed=4)
               if puzzle.search(limit=1001, keep=False).count <= 1000]
    assert len(puzzles) >= 6 and sum(len(run.cells) == 4 for p in puzzles for run in p.runs()) >= 16
    for puzzle in puzzles:
        assert solutions(puzzle, "candidates") == solutions(puzzle, "arithmetic"), puzzle


# A loose random 12x12 with runs of eight and nine cells (random seed 1's seventh, with
# the runs uncapped): the kernel, searching as it did without weighing its failed
# sums (dom/wdeg) and with every ordering of a run's digits as a table, ran past
# 180 million inferences (20 s) without finding one solution; CP-SAT finds two in 0.2 s.
LOOSE = """\
  X    X     X  7\\   11\\   18\\    8\\     X   12\\   26\\ 34\\ 29\\
  X    X   \\17   .     .     .     .   \\26     .     .   .   .
  X    X   \\19   .     .     .     . 45\\23     .     .   .   .
  X    X   16\\ 40\\   \\17     .     .     . 19\\13     .   .   .
  X 8\\14     .   .     X     X 35\\26     .     .     .   .   .
\\12    .     .   .   14\\   \\15     .     .     . 33\\10   .   .
\\18    .     .   .     . 26\\28     .     .     .     .   .   .
  X    X   \\40   .     .     .     .     .     .     . 11\\   X
  X    X 12\\20   .     .     .     .     . 14\\17     .   .   X
  X  \\10     .   . 14\\37     .     .     .     .     .   .   X
  X  \\41     .   .     .     .     .     .     .     .   X   X
  X  \\29     .   .     .     .     .     .     .     X   X   X
"""


def test_a_loose_kakuro_with_runs_of_nine_is_searched_in_few_inferences():
    puzzle = crossprolog.parse(LOOSE)
    assert max(len(run.cells) for run in puzzle.runs()) == 9
    found = puzzle.search(limit=2, timeout=120)
    assert found.count == 2 and all(puzzle.holds(s.values) for s in found.solutions)
    assert found.inferences < 5_000_000  # counted by Prolog: the same on any machine


def blocks(n: int) -> str:
    """A Kakuro of n x n independent blocks, each three runs of 6 across and three down
    over 3 x 3 white cells: a Latin square of 1, 2 and 3 (twelve each)."""
    width = 4 * n
    lines = []
    for _ in range(n):
        lines.append(" ".join("X" if j % 4 == 0 else "6\\" for j in range(width)))
        lines += [" ".join("\\6" if j % 4 == 0 else "." for j in range(width))] * 3
    return "\n".join(lines) + "\n"


def test_a_kakuro_of_many_blocks_weighs_its_cells_once_not_at_every_choice():
    """The search summed each cell's tables' weights at every choice, over every cell:
    on a grid of a hundred blocks 1.32 million inferences, three fifths of its work
    (and 11 s for nine hundred blocks).  A failed table now adds to its cells' weights."""
    puzzle = crossprolog.parse(blocks(10))
    found = puzzle.search(limit=1, timeout=120)
    assert found.count == 1 and puzzle.holds(found.solutions[0].values)
    assert found.inferences < 900_000  # counted by Prolog: the same on any machine


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_examples_have_their_one_solution_in_every_encoding(encoding):
    assert solutions(crossprolog.parse(TINY), encoding) == {TINY_SOLUTION}
    for name in ("random-7x7.txt", "random-12x12.txt"):
        puzzle = crossprolog.parse((EXAMPLES / "kakuro" / name).read_text())
        [answer] = solutions(puzzle, encoding)
        assert puzzle.holds(answer), (name, encoding)


# The layout

def test_the_layout_is_claimed_drawn_back_and_read_back():
    assert family_of(TINY) == "kakuro"
    puzzle = crossprolog.parse(TINY)
    assert puzzle.cells[0] == (Black(), Black(3, None), Black(4, None), Black(6, None))
    drawn = str(puzzle.solve())
    assert drawn.splitlines() == [" X 3\\ 4\\ 6\\", "\\7  2  1  4", "\\6  1  3  2"]
    again = crossprolog.parse(drawn)
    assert again.cells[1][1:] == (2, 1, 4) and again.count() == 1
    markdown = puzzle.solve().puzzle.render(puzzle.solve(), format="markdown")
    assert markdown.startswith("```text\n") and crossprolog.parse(markdown) == again


def test_a_black_cell_may_carry_both_clues():
    text = " X   X  7\\  2\\\n X  5\\3  .   .\n\\8   .   .   X\n\\3   .   X   X\n"
    puzzle = crossprolog.parse(text)
    assert puzzle.cells[1][1] == Black(5, 3)
    assert puzzle.count() == len(brute_force(puzzle)) > 0


@pytest.mark.parametrize("text, line, column, words", [
    ("X \\5 X\nX  X X\n\\3 . X\n", 1, 4, "this across clue has no white cell to its right"),
    ("X 5\\ X\nX  X X\n\\3 . X\n", 1, 3, "this down clue has no white cell below it"),
    ("X  X  X\nX  .  .\n", 2, 1, "the run of 2 white cells right of this cell has no clue"),
    ("X  X  X\n.  .  X\n", 2, 1, "a run of 2 white cells across starts at the grid's edge"),
    ("X \\ X\nX . X\nX . X\n", 1, 3, "a clue cell needs a number"),
    ("\\50 " + ". " * 10 + "\n", 1, 2, "this across run has 10 cells; a run has at most 9"),
    ("X \\3 . .\nX X 12 .\n", 2, 5, "a white cell's digit is 1-9, not 12"),
    ("X \\3 . .\nX X 0 .\n", 2, 5, "a white cell's digit is 1-9, not 0 (an empty white cell is written .)"),
    (" X  0\\  4\\\n\\7   .   .\n", 1, 5, "a clue is a positive integer, not 0"),
    (" X  3\\  4\\\n\\0   .   .\n", 2, 2, "a clue is a positive integer, not 0"),
    (" X  3\\  4\\\n3\\00 .   .\n", 2, 3, "a clue is a positive integer, not 00"),
    ("X \\3 . .\nX X .\n", 2, 6, "this row has 3 cells; the first has 4"),
    ("X \\3 . ?\n", 1, 8, "expected a cell"),
    (" X 3\\\\ 4\\\n\\7 . .\n", 1, 4, "found '3\\\\'"),  # as typed: its repr doubled the backslashes
    ("X X\nX X\n", 1, 1, "no white cell here"),
])
def test_bad_text_is_a_located_error(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(text, family="kakuro")
    assert words in caught.value.message, caught.value
    assert (caught.value.line, caught.value.column) == (line, column), caught.value


@pytest.mark.parametrize("typo, column", [(",", 17), ("?", 17), ("x", 17), ("10", 17), ("X", 3)])
def test_a_typo_in_one_cell_keeps_the_family_and_is_located(typo, column):
    """Without the family named, one bad cell made the whole text "no puzzle family
    crossprolog knows", at 1:1."""
    lines = (EXAMPLES / "kakuro" / "random-12x12.txt").read_text().splitlines()
    lines[3] = lines[3].replace(" X ", " x ", 1) if typo == "X" else lines[3].replace(" . ", f" {typo} ", 1)
    with pytest.raises(ParseError) as caught:
        crossprolog.parse("\n".join(lines) + "\n")
    assert (caught.value.line, caught.value.column) == (4, column), caught.value
    assert caught.value.family.startswith("Kakuro"), caught.value


def test_a_sum_out_of_reach_points_at_its_number():
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(" X 18\\ 4\\\n\\3   .  .\n\\5   .  .\n")
    assert (caught.value.line, caught.value.column) == (1, 4)
    assert "3 to 17, not 18" in caught.value.message


# Generators, hints, the command line

def test_well_formed_puzzles_are_unique_and_their_givens_minimal():
    for puzzle in crossprolog.generate("kakuro", 6, 6, 3, seed=5, well_formed=True):
        assert puzzle.count(2) == 1
        givens = [clue for clue in puzzle.clues() if clue.kind == "given"]
        for given in givens:
            assert puzzle.keeping([c for c in puzzle.clues() if c != given]).count(2) == 2
        assert crossprolog.parse(str(puzzle)) == puzzle


def test_random_puzzles_are_solvable_and_the_same_for_the_same_seed():
    first = list(crossprolog.generate("kakuro", 8, 8, 3, seed=2))
    assert first == list(crossprolog.generate("kakuro", 8, 8, 3, seed=2))
    for puzzle in first:
        assert puzzle.solve() is not None and crossprolog.parse(str(puzzle)) == puzzle
        assert all(2 <= len(run.cells) <= 9 for run in puzzle.runs())


def test_a_hint_names_the_runs_by_their_sums_and_places():
    hint = crossprolog.parse(TINY).hint()
    [forced] = hint.cells
    assert "-run in " in forced.reason
    assert forced.value == TINY_SOLUTION[forced.cell[0]][forced.cell[1]]
    assert crossprolog.parse(TINY).clues()[0].text == "the 3-run in column 2 (rows 2-3)"


def test_a_wrong_clue_is_the_conflict():
    puzzle = crossprolog.parse(TINY.replace("\\6 ", "\\9 "))
    assert puzzle.solve() is None
    assert {clue.kind for clue in puzzle.conflict()} == {"run"}


def test_a_blamed_given_is_bracketed_as_in_every_family(cli, write):
    """It was drawn as any given: the text named it but did not show it."""
    run = cli("check", write(" X 3\\ 4\\\n\\4 . 9\n\\3 . .\n"))
    assert run.code == 1 and "the 9 at row 2, column 3 is likely mistyped" in run.out
    assert run.out.splitlines()[-2:] == ["\\4  . [9]", "\\3  .   ."]


def test_the_command_line_solves_checks_hints_and_exports(cli, write):
    path = EXAMPLES / "kakuro" / "tiny.txt"
    assert cli("solve", path, "--format", "json").json()["solution"] == [list(r) for r in TINY_SOLUTION]
    assert "exactly one solution" in cli("check", path).out
    hinted = cli("hint", path).out
    assert "# hint - " in hinted and "-run in " in hinted  # a technique at a run, named
    wrong = write(TINY.replace("\\7   .", "\\7   4"))
    checked = cli("check", wrong)
    assert checked.code == 1 and "the 4 at row 2, column 2" in checked.out + checked.err
    for form in ((), ("--readable",)):
        assert "solution(" in cli("export", path, *form).out


def test_a_generated_kakuro_keeps_a_third_of_its_cells_past_the_first_row_and_column_white():
    """Pruning runs of one cell could leave a corner of four: the third 5x5 of seed 1 had
    four white cells in a 4x4 that could hold sixteen."""
    for size, seeds in ((5, range(1, 6)), (6, range(1, 4)), (8, (1, 2))):
        for seed in seeds:
            for puzzle in crossprolog.generate("kakuro", size, size, 10, seed=seed):
                white = sum(not isinstance(cell, Black) for row in puzzle.cells for cell in row)
                assert 3 * white >= (size - 1) ** 2, (size, seed, puzzle)
    *_, third = crossprolog.generate("kakuro", 5, 5, 3, seed=1, well_formed=True)
    assert sum(not isinstance(cell, Black) for row in third.cells for cell in row) >= 6
    assert third.count(limit=2) == 1
