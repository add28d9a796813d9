"""KenKen: the layout, every encoding against brute force, the generator, the command line."""

from __future__ import annotations

import itertools
import math
import random

import pytest

import crossprolog
from crossprolog import ParseError
from crossprolog.kenken import (CAGE_SIZES, GIVEN, Cage, KenKen, latin_square, random_cage,
                                random_puzzle, random_puzzles)
from crossprolog.regions import random_partition
from crossprolog.registry import family_of
from crossprolog import engine, searches

from conftest import EXAMPLES

ISSUE = (EXAMPLES / "kenken" / "issue-4x4.txt").read_text()
ISSUE_SOLUTION = ((4, 3, 2, 1), (1, 2, 4, 3), (3, 4, 1, 2), (2, 1, 3, 4))
ENCODINGS = engine.encodings("kenken")


def test_the_issue_puzzle_has_exactly_its_published_solution():
    puzzle = crossprolog.parse(ISSUE)
    assert family_of(ISSUE) == "kenken" and puzzle.size == 4 and len(puzzle.cages) == 8
    assert [s.values for s in puzzle.solutions()] == [ISSUE_SOLUTION]


def test_a_solution_is_drawn_in_the_layout_and_reads_back_as_placed_digits():
    puzzle = crossprolog.parse(ISSUE)
    drawn = str(puzzle.solve())
    assert drawn.splitlines()[:2] == ["a4 a3 b2 c1", "d1 e2 b4 c3"]
    again = crossprolog.parse(drawn)
    assert again.givens == ISSUE_SOLUTION and again.cages == puzzle.cages
    assert again.count() == 1


def test_a_cell_in_no_cage_is_written_as_a_dot_and_reads_back():
    """A KenKen with cages left out (as the Python API and the clue-keeping explanations
    make it) was written with `.` for its uncaged cells, which did not read back."""
    rng = random.Random(3)
    for size in (4, 6, 9):
        puzzle = random_puzzle(size, rng)
        for compact in (False, True):
            kept = KenKen(size, tuple(rng.sample(puzzle.cages, len(puzzle.cages) // 2)), compact=compact)
            again = crossprolog.parse(str(kept))
            assert again == kept and "." in str(kept).split("\n")[0] + str(kept)
    issue = crossprolog.parse(ISSUE)
    without_a = KenKen(4, issue.cages[1:])
    solved = str(without_a.solve())
    assert solved.splitlines()[0] == ".4 .3 b2 c1"
    assert crossprolog.parse(solved).givens == ISSUE_SOLUTION


def test_clue_lines_in_any_order_spelled_as_people_type_them():
    lines = ISSUE.splitlines()
    grid, clues = lines[1:5], lines[5:]
    spelt = [clue.replace("*", "×").replace("/", "÷").replace("-", "−") for clue in clues]
    puzzle = crossprolog.parse("\n".join(grid + spelt[::-1]))
    assert puzzle == crossprolog.parse(ISSUE)


def test_a_one_cell_cage_is_a_given_and_may_give_its_number_alone():
    puzzle = crossprolog.parse("a a b\nc d b\nc e e\na 3+\nb 4+\nc 5+\nd 3\ne 3+\n")
    assert puzzle.solve().values == ((1, 2, 3), (2, 3, 1), (3, 1, 2))
    assert [c.op for c in puzzle.cages if len(c.cells) == 1] == [GIVEN]


def test_clue_lines_may_put_a_colon_after_the_letter():
    lines = ISSUE.splitlines()
    colons = [f"{clue[0]}{colon}{clue[1:].lstrip()}" for clue, colon in
              zip(lines[5:], [": ", ":", " : ", ":  "] * 2)]
    text = "\n".join(lines[1:5] + colons)
    assert family_of(text) == "kenken" and crossprolog.parse(text) == crossprolog.parse(ISSUE)


def test_a_row_s_letters_may_be_written_together_and_are_drawn_back_so():
    lines = ISSUE.splitlines()
    compact = "\n".join([row.replace(" ", "") for row in lines[1:5]] + lines[5:])
    assert family_of(compact) == "kenken"
    puzzle = crossprolog.parse(compact)
    assert puzzle == crossprolog.parse(ISSUE) and puzzle.render().splitlines()[0] == "aabc"
    solved = str(puzzle.solve())
    assert solved.splitlines()[:2] == ["a4a3b2c1", "d1e2b4c3"]
    assert crossprolog.parse(solved).givens == ISSUE_SOLUTION
    assert crossprolog.parse(compact.replace("aabc", "a4abc")).givens[0] == (4, None, None, None)
    with pytest.raises(ParseError, match="no puzzle family"):  # words alone are no grid
        family_of("hello\nworld\nagain\n")


def test_placed_digits_are_kept_and_a_wrong_one_leaves_no_solution():
    grid = ISSUE.splitlines()[1:5]
    placed = "\n".join(["a4 a b c"] + grid[1:] + ISSUE.splitlines()[5:])
    assert crossprolog.parse(placed).solve().values == ISSUE_SOLUTION
    assert crossprolog.parse(placed.replace("a4", "a3", 1)).solve() is None


# Every encoding against an independent brute force


def latin_squares(size: int):
    """Every Latin square of `size`, row by row: each row a permutation clashing with no
    column so far."""
    def extend(rows):
        if len(rows) == size:
            yield tuple(rows)
            return
        for row in itertools.permutations(range(1, size + 1)):
            if all(row[c] != earlier[c] for earlier in rows for c in range(size)):
                yield from extend(rows + [row])
    yield from extend([])


SQUARES = {size: list(latin_squares(size)) for size in (3, 4)}


def brute_force(puzzle: KenKen) -> set:
    return {square for square in SQUARES[puzzle.size] if puzzle.holds(square)}


def small_puzzles():
    """Random 3x3 and 4x4 puzzles, many with several solutions, some with placed digits."""
    rng = random.Random(5)
    for size in (3, 4) * 15:
        puzzle = random_puzzle(size, rng)
        if rng.random() < 0.3:
            square = latin_square(size, rng)  # digits from another square: often no solution
            givens = [[square[r][c] if rng.random() < 0.2 else None for c in range(size)]
                      for r in range(size)]
            puzzle = KenKen(size, puzzle.cages, tuple(map(tuple, givens)))
        yield puzzle


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_finds_exactly_the_brute_force_solutions(encoding):
    puzzles = list(small_puzzles())
    counts = [len(brute_force(p)) for p in puzzles]
    assert min(counts) == 0 and max(counts) >= 3  # the sample has every kind
    for puzzle in puzzles:
        assert {s.values for s in puzzle.solutions(encoding=encoding)} == brute_force(puzzle)


def big_cage_puzzle(op: str, cells: int, seed: int) -> tuple[KenKen, tuple]:
    """A 9x9 KenKen whose first `cells` cells of a block five wide are one `op` cage, the
    rest cut into random cages (a piece the big cage breaks, into single cells), all
    from one random Latin square; and the square."""
    rng = random.Random(seed)
    square = latin_square(9, rng)
    big = tuple((i // 5, i % 5) for i in range(cells))
    digits = [square[r][c] for r, c in big]
    cages = [Cage(big, math.prod(digits) if op == "*" else sum(digits), op)]
    for piece in random_partition(9, 9, CAGE_SIZES, rng):
        rest = [place for place in piece if place not in big]
        pieces = [rest] if len(rest) == len(piece) else [[place] for place in rest]
        cages.extend(random_cage(cells, [square[r][c] for r, c in cells], rng) for cells in pieces)
    return KenKen(9, tuple(cages)), tuple(map(tuple, square))


@pytest.mark.parametrize("op", ["*", "+"])
def test_a_cage_of_twelve_cells_over_three_rows_is_searched_not_listed(op):
    """Its millions of fillings took the kernel's table all the memory Prolog had (a
    product cage of ten cells: 13 s); the kernel folds it (grid_folds.pl), the tables
    encoding posts it as arithmetic, and both find the same solutions, each one."""
    puzzle, square = big_cage_puzzle(op, 12, seed=1)
    found = {encoding: {s.values for s in itertools.islice(puzzle.solutions(encoding=encoding), 1000)}
             for encoding in ("candidates", "tables")}
    assert found["candidates"] == found["tables"]
    assert square in found["candidates"] and len(found["candidates"]) > 1
    assert all(puzzle.holds(grid) for grid in found["candidates"])


@pytest.mark.parametrize("encoding", ["candidates", "tables"])
def test_a_big_product_cage_with_a_factor_no_digit_has_has_no_solution_at_once(encoding):
    """Its fillings were looked for cell by cell before: 10 s for twelve cells, minutes
    for more; the fold sees at once that no digits make it (grid_folds:fold_guide/5)."""
    puzzle, _ = big_cage_puzzle("*", 14, seed=2)
    big = puzzle.cages[0]
    eleven = KenKen(9, (Cage(big.cells, big.target * 11, "*"), *puzzle.cages[1:]))
    assert eleven.count(2, encoding=encoding) == 0


@pytest.mark.parametrize("encoding", ["candidates", "tables"])
@pytest.mark.parametrize("rows, target", [(3, 64), (4, 85), (3, 62)])
def test_a_cage_of_whole_rows_adding_up_to_what_they_cannot_has_no_solution_at_once(rows, target, encoding):
    """Whole rows of 1..6 add up to 21 each, whatever digits may repeat would make; the
    listing tried every way to fill the rows first (three rows: 35 s, four: minutes)."""
    cells = tuple((r, c) for r in range(rows) for c in range(6))
    singles = tuple(Cage(((r, c),), (r + c) % 6 + 1, "=") for r in range(rows, 6) for c in range(6))
    puzzle = KenKen(6, (Cage(cells, target, "+"), *singles))
    assert puzzle.count(2, encoding=encoding) == 0


@pytest.mark.parametrize("encoding", ["candidates", "tables"])
@pytest.mark.parametrize("target", [64, 186624000])
def test_a_cage_of_whole_columns_is_a_rule_of_its_other_cells(target, encoding):
    """Three whole columns of 1..6 add up to 63 and multiply to 720^3, whatever their
    order: listed row by row, the columns' different digits were not seen (a minute)."""
    cells = tuple((r, c) for r in range(6) for c in range(3))
    singles = tuple(Cage(((r, c),), (r + c) % 6 + 1, "=") for r in range(6) for c in range(3, 6))
    op = "+" if target == 64 else "*"
    puzzle = KenKen(6, (Cage(cells, target, op), *singles))
    assert puzzle.count(2, encoding=encoding) == 0


@pytest.mark.parametrize("encoding", ["candidates", "tables"])
@pytest.mark.parametrize("target, count", [(46, 0), (47, 0), (53, 2)])
def test_a_strip_leaves_the_cells_below_it_what_its_columns_do_not_make(target, count, encoding):
    """Three columns of 1..6 add up to 63: a strip of them five rows deep adding up to 46
    leaves the three cells below it 17, more than 6+5+4; 53 leaves them 10.  The search
    went through the strip's fillings (over a minute); each column of it allows 45 to 60."""
    strip = tuple((r, c) for r in range(5) for c in range(3))
    beside = tuple((r, c) for r in range(5) for c in range(3, 6))
    below = tuple((5, c) for c in range(6))
    puzzle = KenKen(6, (Cage(strip, target, "+"), Cage(beside, 126 - 21 - target, "+"),
                        Cage(below, 21, "+")))
    assert puzzle.count(2, encoding=encoding) == count


@pytest.mark.parametrize("encoding", ["candidates", "tables"])
def test_a_cage_of_the_whole_grid_takes_every_latin_square(encoding):
    """A 9x9's one cage multiplies to 9!^9 in any Latin square: the kernel drops it (its
    fold took 15 s), and a cage of 4x4 with a target typed with digits too many has no
    filling at once (the tables encoding's fold was as long as the target)."""
    every = tuple((r, c) for r in range(9) for c in range(9))
    assert KenKen(9, (Cage(every, math.factorial(9) ** 9, "*"),)).count(2, encoding=encoding) == 2
    seven = ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0))
    assert KenKen(4, (Cage(seven, 17, "+"),)).count(2, encoding=encoding) == 2
    assert KenKen(4, (Cage(seven, 1_000_000, "+"),)).count(2, encoding=encoding) == 0


def test_the_default_encoding_is_candidates():
    assert ENCODINGS[0] == "candidates"


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_answers_with_a_cell_set_or_ruled_out(encoding):
    """As hints and explanations ask: the solutions with a cell set, or a value ruled out,
    also of a session that keeps the puzzle posted between questions."""
    puzzle = KenKen(4, (Cage(((0, 0), (0, 1)), 3, "+"), Cage(((1, 1), (1, 2)), 2, "/")))
    data, shape = puzzle.prolog_data(), puzzle.answer_shape()
    every = searches.restricted("kenken", data, [], shape=shape, encoding=encoding)["solutions"]
    assert len(every) > 1
    value = every[0][1][2]
    for relation, kept in (("=", lambda s: s[1][2] == value), ("\\=", lambda s: s[1][2] != value)):
        expected = sorted(s for s in every if kept(s))
        found = searches.restricted("kenken", data, [[[1, 2], relation, value]], shape=shape,
                                  encoding=encoding)["solutions"]
        assert sorted(found) == expected
        with searches.Session("kenken", data, encoding=encoding) as session:
            assert sorted(session.restricted([[[1, 2], relation, value]])["solutions"]) == expected
            assert sorted(session.restricted([])["solutions"]) == sorted(every)


# The generator


def test_random_puzzles_are_reproducible_square_and_solvable():
    first = list(random_puzzles(6, 6, 5, seed=3))
    assert first == list(random_puzzles(6, 6, 5, seed=3)) != list(random_puzzles(6, 6, 5, seed=4))
    for puzzle in first:
        assert crossprolog.parse(puzzle.render()) == puzzle
        assert all(1 <= len(cage.cells) <= 4 for cage in puzzle.cages)
        assert puzzle.holds(puzzle.solve().values)


def test_a_kenken_is_square():
    with pytest.raises(crossprolog.UsageError, match="square"):
        next(random_puzzles(4, 5, 1))


# Layout errors: where, and what


GRID = "a a b c\nd e b c\nd e f f\ng g h h\n"
CLUES = "a 12*\nb 2-\nc 3/\nd 3/\ne 6+\nf 3+\ng 1-\nh 12*\n"
BAD = [
    (GRID + CLUES.replace("h 12*\n", ""), 4, 5, "cage 'h' has no clue line"),
    (GRID + CLUES + "z 4+\n", 13, 1, "no cell of the grid is in cage 'z'"),
    (GRID.replace("g g h h", "g h g h") + CLUES, 4, 5, "cells of cage 'g' are not connected"),
    (GRID + CLUES.replace("e 6+", "e 6"), 9, 4, "cage 'e' has 2 cells: its clue needs an operation"),
    (GRID + CLUES + "a 6+\n", 13, 1, "cage 'a' already has a clue (line 5)"),
    (GRID.replace("d e b c", "d e b"), 2, 6, "this row has 3 cells; the first has 4"),
    ("a a b\nc c b\n" + "a 3+\nb 3+\nc 3+\n", 2, 6, "a KenKen is square"),
    ("a b\nc d\na 1\nb 2\nc 2\nd 1\n", 1, 1, "a KenKen is 3x3 to 9x9, not 2x2"),
    (GRID + "a 12*\n" + GRID, 6, 1, "the grid's rows come before the clue lines"),
    (GRID.replace("a a b c", "a5 a b c") + CLUES, 1, 2, "a cell's digit is 1-4, not 5"),
    (GRID + CLUES.replace("b 2-", "b 2%"), 6, 4, "expected a clue like 'a 12*'"),
    ("a b c\nd e f\ng h i\n" + "\n".join(f"{x} 1" for x in "abcdefgh") + "\ni 7\n", 12, 3,
     "cage 'i' is one cell: its clue is a digit 1-3"),
    ("a a a\nb c d\nb c d\na 2-\nb 3+\nc 3+\nd 3+\n", 4, 4, "a - cage has two cells; cage 'a' has 3"),
    (GRID + CLUES.replace("e 6+", "e 0+"), 9, 3, "a cage's target is 1 or more, not 0"),
    (GRID.replace("d e b c", "debc").replace("a a b c", "aab c") + CLUES, 1, 1,
     "found 'aab' (the other cells of this row stand apart)"),
    (GRID.replace("a a b c", "aabc").replace("d e b c", "debc5") + CLUES, 2, 5,
     "a cell's digit is 1-4, not 5"),
    (GRID.replace("a a b c", "aabc").replace("d e b c", "deb") + CLUES, 2, 4,
     "this row has 3 cells; the first has 4"),
    (GRID + CLUES.replace("e 6+", "e: 6%"), 9, 5, "expected a clue like 'a 12*'"),
    (GRID + CLUES.replace("e 6+", "e: 0+"), 9, 4, "a cage's target is 1 or more, not 0"),
    (GRID + CLUES.replace("a 12*", "a 00*"), 5, 3, "a cage's target is 1 or more, not 00"),
    (GRID + CLUES.replace("b 2-", "b 0-"), 6, 3, "a cage's target is 1 or more, not 0"),
    (GRID + CLUES.replace("a 12*", "a -12*"), 5, 3, "a cage's target is 1 or more, not -12"),  # was "a cage letter"
    (GRID + CLUES.replace("e 6+", "e: -6+"), 9, 4, "a cage's target is 1 or more, not -6"),
]


@pytest.mark.parametrize("text, line, column, words", BAD)
def test_bad_layouts_say_where_and_what(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(text, family="kenken")
    assert (caught.value.line, caught.value.column) == (line, column), caught.value
    assert words in caught.value.message


def test_bad_input_from_the_command_line_is_one_located_error(cli, write):
    path = write(GRID + CLUES.replace("h 12*\n", ""))
    run = cli("solve", path)
    assert run.code == 2 and run.out == ""
    head, shown, caret = run.err.splitlines()
    assert head.startswith(f"{path}:4:5: error: cage 'h' has no clue line") and "read as KenKen" in head
    assert (shown, caret) == ("g g h h", "    ^")


def test_a_target_of_zero_is_a_located_parse_error_in_the_api_and_on_the_command_line(cli, write):
    """Found by fuzzing: the model's InvalidValue escaped, with no line or column."""
    text = GRID + CLUES.replace("a 12*", "a 0+")
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(text)
    assert (caught.value.line, caught.value.column) == (5, 3)
    run = cli("solve", write(text))
    assert run.code == 2 and run.err.splitlines()[1:] == ["a 0+", "  ^"]


# The command line


def test_solve_check_count_compare_and_generate(cli, write):
    path = EXAMPLES / "kenken" / "issue-4x4.txt"
    assert cli("solve", path, "--format", "json").json()["solution"] == [list(r) for r in ISSUE_SOLUTION]
    assert cli("check", path).out == "well-formed: exactly one solution\n"
    records = cli("compare", path, "--format", "json").jsonl()
    assert [r["encoding"] for r in records] == ENCODINGS + ["asp", "minizinc"]  # then the paradigms'
    assert all(r["agrees"] for r in records)
    generated = cli("generate", "kenken", "--rows", "5", "--cols", "5", "--seed", "2")
    assert generated.code == 0 and cli("count", write(generated.out)).code == 0
    assert cli("stats", "kenken", "--sizes", "4x4", "-n", "20").out.startswith("size  well-formed\n4x4")


# The Python API


def test_the_model_takes_any_integer_and_refuses_what_cannot_be():
    numpy = pytest.importorskip("numpy")
    puzzle = crossprolog.parse(ISSUE)
    cage = Cage(((numpy.int64(0), numpy.int8(0)),), numpy.int32(4), GIVEN)
    assert cage.cells == ((0, 0),) and type(cage.target) is int
    assert KenKen(numpy.int64(4), puzzle.cages).solve().values == ISSUE_SOLUTION
    for make in (lambda: KenKen(4.0, puzzle.cages), lambda: KenKen(10, puzzle.cages),
                 lambda: KenKen(4, puzzle.cages, givens=((5, None, None, None),) + ((None,) * 4,) * 3),
                 lambda: KenKen(4, puzzle.cages, givens=((None,) * 3,) * 4),
                 lambda: Cage(((0, 0), (0, 1), (0, 2)), 1, "-"), lambda: Cage(((0, 0),), 0, GIVEN),
                 lambda: Cage(((0, 0),), 2.5, GIVEN), lambda: KenKen(4, puzzle.cages + puzzle.cages[:1])):
        with pytest.raises(crossprolog.InvalidValue):
            make()
    assert issubclass(crossprolog.InvalidValue, ValueError)
