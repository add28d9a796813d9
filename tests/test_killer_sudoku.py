"""Killer Sudoku: the layouts, every encoding (Prolog, ASP, MiniZinc) against an independent
brute force, the generators, hints and conflicts, located errors, the command line."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import crossprolog
from crossprolog import ParseError, engine
from crossprolog.compare import compare
from crossprolog.killer_sudoku import Cage, KillerSudoku, random_cages, random_grid
from crossprolog.registry import detect, family_of
from crossprolog.grammars.common import source_lines

from conftest import EXAMPLES

SHIDOKU = (EXAMPLES / "killer_sudoku" / "shidoku-4x4.txt").read_text()
DRAWN = (EXAMPLES / "killer_sudoku" / "shidoku-4x4-drawn.txt").read_text()
SHIDOKU_SOLUTION = ((1, 4, 2, 3), (3, 2, 1, 4), (4, 1, 3, 2), (2, 3, 4, 1))
ENCODINGS = engine.encodings("killer_sudoku") + ["asp", "minizinc"]


# The brute force: every 4x4 grid whose rows, columns and 2x2 boxes hold 1-4, filtered by
# the rules as the README states them.  It shares no code with crossprolog.

def shidokus() -> list[tuple[tuple[int, ...], ...]]:
    rows = list(itertools.permutations(range(1, 5)))
    grids = []
    for grid in itertools.product(rows, repeat=4):
        columns_ok = all(len({row[c] for row in grid}) == 4 for c in range(4))
        boxes_ok = all(len({grid[r + i][c + j] for i in (0, 1) for j in (0, 1)}) == 4
                       for r in (0, 2) for c in (0, 2))
        if columns_ok and boxes_ok:
            grids.append(grid)
    return grids


SHIDOKUS = shidokus()


def brute_force(puzzle: KillerSudoku) -> set:
    return {grid for grid in SHIDOKUS
            if all(g is None or g == d for givens, row in zip(puzzle.givens, grid) for g, d in zip(givens, row))
            and all(len({grid[r][c] for r, c in cage.cells}) == len(cage.cells)
                    and sum(grid[r][c] for r, c in cage.cells) == cage.total for cage in puzzle.cages)}


def random_killers(n: int, seed: int) -> list[KillerSudoku]:
    """Random cages of a random 4x4 grid; some cages left out, some sums made wrong, some
    digits given: puzzles with none, one and many solutions."""
    rng = random.Random(seed)
    puzzles = []
    for _ in range(n):
        grid = random_grid(4, rng)
        cages = [cage for cage in random_cages(grid, rng) if rng.random() < 0.8]
        cages = [Cage(cage.cells, cage.total + 1) if rng.random() < 0.08 else cage for cage in cages]
        givens = tuple(tuple(d if rng.random() < 0.08 else None for d in row) for row in grid)
        puzzles.append(KillerSudoku(4, tuple(cages), givens))
    return puzzles


def solutions(puzzle, encoding: str) -> set:
    found = puzzle.search(encoding=encoding, timeout=60)
    assert found.status == "complete"
    answers = [s.values for s in found.solutions]
    assert len(answers) == len(set(answers)), "a solution given twice"
    return set(answers)


def test_the_brute_force_knows_the_288_shidokus():
    assert len(SHIDOKUS) == 288


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_agrees_with_brute_force(encoding):
    puzzles = random_killers(30 if encoding != "minizinc" else 10, seed=1)
    counts = [len(brute_force(p)) for p in puzzles]
    assert min(counts) == 0 and max(counts) >= 3  # the sample has every kind
    for puzzle in puzzles:
        assert solutions(puzzle, encoding) == brute_force(puzzle), (encoding, puzzle)


def test_the_kernel_search_with_the_implied_sums_agrees_with_brute_force(implied_sums_in_small_grids):
    """4x4 grids take no implied sums (grid:sums_pay/1): here they do."""
    for puzzle in random_killers(30, seed=2):
        assert solutions(puzzle, "candidates") == brute_force(puzzle), puzzle


def test_the_kernel_search_with_every_cage_folded_agrees_with_brute_force(every_sum_and_product_folded):
    """Cages folded (grid_folds.pl), as one of too many fillings to list is."""
    for puzzle in random_killers(30, seed=3):
        for encoding in ("candidates", "tables"):
            assert solutions(puzzle, encoding) == brute_force(puzzle), (encoding, puzzle)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_example_has_its_one_solution_in_every_encoding(encoding):
    assert solutions(crossprolog.parse(SHIDOKU), encoding) == {SHIDOKU_SOLUTION}


def test_the_search_takes_the_sums_the_units_imply():
    """A hard well-formed 9x9: the kernel's search makes 218 choices where it made
    2,826 before it took the sums every unit of 45 implies (innies and outies)."""
    puzzle = crossprolog.parse((Path(__file__).parent / "hard-killer-9x9.txt").read_text())
    [run] = compare(puzzle, ["candidates"], limit=2, repeat=1)
    assert run.status == "complete" and run.solutions == 1
    assert run.choices <= 500


def test_a_6x6_and_a_9x9_are_solved_and_hold():
    for name in ("random-6x6.txt", "random-9x9.txt"):
        puzzle = crossprolog.parse((EXAMPLES / "killer_sudoku" / name).read_text())
        found = puzzle.search(limit=2)
        assert found.count == 1 and puzzle.holds(found.solutions[0].values), name
        assert puzzle.box == {6: (2, 3), 9: (3, 3)}[puzzle.size]


# The layouts

def test_the_directive_names_the_family_though_crosscells_has_a_game_directive_too():
    record, claim = detect(source_lines(SHIDOKU))
    assert record.name == "killer_sudoku" and claim.reason == "the directive '# game:'"
    assert family_of("# game: sumplete\n3 1 4\n=4 =1\n") == "crosscells"


def test_the_game_option_names_the_family_as_its_directive_does(cli, write):
    """Without its directive a Shidoku reads as a KenKen (its grammar's claim is as
    strong, and comes first); `--game killer-sudoku`, which stands for the directive,
    was ignored there: "cage 'a' ... needs an operation"."""
    bare = SHIDOKU.replace("# game: killer-sudoku\n", "")
    assert family_of(bare) == "kenken"
    assert crossprolog.parse(bare, game="killer-sudoku").family == "killer_sudoku"
    run = cli("count", write(bare), "--game", "killer-sudoku")
    assert run.code == 0 and run.out == "1 solution\n"


def test_a_solution_draws_the_digits_under_the_cages_and_reads_back():
    puzzle = crossprolog.parse(SHIDOKU)
    drawn = str(puzzle.solve())
    lines = drawn.splitlines()
    assert lines[0] == "# game: killer-sudoku" and lines[1] == "a b b c" and lines[-4:] == [
        "1 4 2 3", "3 2 1 4", "4 1 3 2", "2 3 4 1"]
    again = crossprolog.parse(drawn)
    assert again.cages == puzzle.cages and again.givens == SHIDOKU_SOLUTION


def test_letters_written_together_sums_with_a_colon_and_compact_givens():
    text = ("# game: killer-sudoku\nabbc\nadec\nfdec\nfdgg\na: 4\nb:6\nc 9\nd 6\ne 4\nf 6\ng 5\n\n"
            "1...\n....\n....\n....\n")
    puzzle = crossprolog.parse(text)
    assert puzzle.cages == crossprolog.parse(SHIDOKU).cages and puzzle.givens[0][0] == 1
    assert puzzle.compact and str(puzzle).splitlines()[1] == "abbc"


def test_the_drawn_form_reads_as_the_lettered_one_and_draws_back_walled():
    drawn, lettered = crossprolog.parse(DRAWN), crossprolog.parse(SHIDOKU)
    assert drawn == lettered and drawn.drawn
    solved = str(drawn.solve())
    assert solved.splitlines()[1] == "+-----+-----+-----+-----+"
    assert crossprolog.parse(solved).givens == SHIDOKU_SOLUTION


def test_a_cell_in_no_cage_is_a_dot():
    text = SHIDOKU.replace("f d g g", "f d . .").replace("g 5\n", "")
    puzzle = crossprolog.parse(text)
    assert len(puzzle.cages) == 6 and crossprolog.parse(str(puzzle)) == puzzle
    assert puzzle.count() == len(brute_force(puzzle))


BODY = "a a b b\na c b d\na c e d\nf c e d\na 10\nb 9\nc 7\nd 8\ne 3\nf 3\n"


@pytest.mark.parametrize("text, line, column, words", [
    (BODY.replace("a 10", "a 40"), 6, 3, "cage 'a' has 4 cells: different digits 1-4 make only 10, not 40"),
    (BODY.replace("f 3\n", ""), 5, 1, "cage 'f' has no sum line"),
    (BODY + "z 4\n", 12, 1, "no cell of the grid is in cage 'z'"),
    (BODY + "a 5\n", 12, 1, "cage 'a' already has a sum (line 6)"),
    (BODY.replace("f c e d", "f c e a"), 5, 7, "the cells of cage 'a' are not connected"),
    (BODY.replace("f c e d", "f c e d e"), 5, 9, "this row has 5 cells; the first has 4"),
    (BODY.replace("f c e d\n", ""), 4, 8, "the grid has 3 rows of 4 cells"),
    ("a b c\nd e f\ng h i\n" + "".join(f"{x} 1\n" for x in "abcdefghi"), 2, 1,
     "a Killer Sudoku is 4x4, 6x6 or 9x9, not 3x3"),
    (BODY.replace("a c b d", "a c b 5"), 3, 7, "expected a cage letter like a"),
    (BODY.replace("e 3", "e 3+"), 10, 4, "expected a sum line"),
    (BODY + "\n. . . .\n. 5 . .\n. . . .\n. . . .\n", 14, 3, "a digit is 1-4, not 5"),
    (BODY + "\n. . . .\n. . .\n. . . .\n. . . .\n", 14, 6, "this row of digits has 3 cells, not 4"),
    (BODY + "\n. . . .\n", 13, 8, "the digits are 4 rows of 4 cells, not 1 rows"),
    (BODY + "\n. . . .\n. . x .\n", 14, 5, "expected a digit, or . for an unknown cell"),
    (BODY.replace("a 10", "a 10*"), 6, 5, "expected a sum line"),
    (BODY.replace("c 7", "c"), 8, 1, "expected a sum line like 'a 12'"),  # it was read as a row of digits
    (BODY.replace("c 7", "c x"), 8, 3, "expected a sum line like 'a 12'"),
])
def test_bad_text_is_a_located_error(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        crossprolog.parse("# game: killer-sudoku\n" + text)
    assert (caught.value.line, caught.value.column) == (line, column), caught.value
    assert words in caught.value.message


def test_a_drawn_cage_without_its_sum_is_a_located_error():
    text = DRAWN.replace("| 6 | 4 |", "|   | 4 |")
    with pytest.raises(ParseError, match="this cage has no sum") as caught:
        crossprolog.parse(text)
    assert caught.value.line == 6


def test_a_bad_game_directive_says_what_games_there_are_of_every_family():
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(SHIDOKU.replace("killer-sudoku", "killer_sudoku"))
    assert caught.value.message == ("expected crosscells, sumplete, number-sums or killer-sudoku, "
                                    "not 'killer_sudoku'")
    assert caught.value.column == SHIDOKU.splitlines()[caught.value.line - 1].index("killer") + 1
    with pytest.raises(ParseError, match="expected crosscells or sumplete or number-sums, not 'killer'"):
        crossprolog.parse(SHIDOKU.replace("killer-sudoku", "killer"), family="crosscells")


# Generators, hints, conflicts

def test_well_formed_puzzles_are_unique_and_their_givens_minimal():
    for puzzle in crossprolog.generate("killer_sudoku", 4, 4, 4, seed=5, well_formed=True):
        assert puzzle.count(2) == 1
        assert sum(len(cage.cells) for cage in puzzle.cages) == 16  # every cell caged
        givens = [clue for clue in puzzle.clues() if clue.kind == "given"]
        for given in givens:
            assert puzzle.keeping([c for c in puzzle.clues() if c != given]).count(2) == 2


def test_generation_is_the_same_for_the_same_seed_and_holds_the_rules():
    first = list(crossprolog.generate("killer_sudoku", 9, 9, 2, seed=7))
    assert first == list(crossprolog.generate("killer_sudoku", 9, 9, 2, seed=7))
    for puzzle in first:
        assert all(1 <= len(cage.cells) <= 5 for cage in puzzle.cages)
        assert puzzle.solve() is not None
    with pytest.raises(crossprolog.UsageError, match="4x4, 6x6 or 9x9"):
        next(crossprolog.generate("killer_sudoku", 5, 5))


def test_a_hint_names_the_cage_by_its_letter_and_sum():
    hint = crossprolog.parse(SHIDOKU).hint()
    assert hint.status == "hint"
    [forced] = hint.cells
    assert "cage " in forced.reason and forced.value == SHIDOKU_SOLUTION[forced.cell[0]][forced.cell[1]]
    assert any(clue.text.startswith("cage ") and clue.text.endswith(")") for clue in forced.clues)


def test_cage_sums_that_cannot_fill_the_grid_are_the_conflict():
    puzzle = crossprolog.parse(SHIDOKU.replace("a 4", "a 5").replace("g 5", "g 4"))
    assert puzzle.solve() is None
    conflict = puzzle.conflict()
    assert conflict and all(clue.kind == "cage" for clue in conflict)
    assert crossprolog.parse(SHIDOKU.replace("a 4", "a 5")).conflict() is not None


def test_the_command_line_solves_checks_hints_and_exports(cli, write):
    path = EXAMPLES / "killer_sudoku" / "shidoku-4x4.txt"
    assert cli("solve", path, "--format", "json").json()["solution"] == [list(r) for r in SHIDOKU_SOLUTION]
    assert "exactly one solution" in cli("check", path).out
    hinted = cli("hint", path).out
    assert "# hint - " in hinted and "cage " in hinted  # a technique at a cage, named
    wrong = write(str(crossprolog.parse(SHIDOKU).placing({(0, 0): 2})))
    checked = cli("check", wrong)
    assert checked.code == 1 and "the 2 at row 1, column 1" in checked.out + checked.err
    for form in ((), ("--readable",)):
        program = cli("export", path, *form).out
        assert "sum" in program or "#=" in program


def test_a_user_s_asp_file_names_the_family_by_its_python_name(tmp_path):
    path = tmp_path / "mine.lp"
    bundled = (engine.paradigms.HERE / "killer_sudoku.lp").read_text()
    path.write_text("% family: killer_sudoku\n" + bundled)
    name = engine.load_encoding(str(path))
    assert engine.paradigms.user_encoding(name).family == "killer_sudoku"
    assert solutions(crossprolog.parse(SHIDOKU), name) == {SHIDOKU_SOLUTION}
