"""The Python API: any integer is an int, bad values are refused when a puzzle is built,
and nothing escapes but crossprolog's own errors (or a clean exit)."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

import crossprolog
from crossprolog import CrossprologError, CrossProduct, InvalidValue
from crossprolog.crosscells import Cell, Constraint, CrossCells, Line
from crossprolog.sudoku import DigitSet, Sudoku

from conftest import EXAMPLES

INKALA = crossprolog.parse((EXAMPLES / "sudoku" / "inkala-2012.txt").read_text())


def test_numpy_integers_are_taken_wherever_an_int_is():
    table = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    puzzle = CrossProduct.from_table(table)
    assert puzzle == CrossProduct((6, 120, 504), (28, 80, 162))
    assert all(type(p) is int for p in puzzle.row_products + puzzle.column_products)
    assert CrossProduct(np.prod(table, axis=1), np.prod(table, axis=0)).solve().values == \
        ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    grid = np.array([[0 if d is None else d for d in row] for row in INKALA.givens])  # 0: unknown
    assert Sudoku(grid) == INKALA and Sudoku(grid).solve().values == INKALA.solve().values
    cells = CrossCells.from_table([[Cell("+", np.int64(2)), Cell("*", np.int32(3))]],
                                  [Constraint("=", np.int64(6))], [None, Constraint("#", np.uint8(1))])
    assert cells.solve().values == ((1, 1),)


@pytest.mark.parametrize("family, size", [("crossproduct", 3), ("crosscells", 3), ("kenken", 4),
                                          ("sudoku", 9)])
def test_generate_takes_numpy_integers_for_its_sizes_count_and_seed(family, size):
    made = list(crossprolog.generate(family, np.int64(size), np.int32(size), n=np.int8(2),
                                     seed=np.int64(3)))
    assert made == list(crossprolog.generate(family, size, size, n=2, seed=3)) and len(made) == 2


def test_generate_refuses_a_seed_or_a_size_that_is_no_integer():
    with pytest.raises(InvalidValue, match="seed must be an integer"):
        crossprolog.generate("kenken", 4, 4, seed=3.5)
    with pytest.raises(InvalidValue, match="rows must be an integer"):
        crossprolog.generate("kenken", 4.0, 4)


def test_generate_refuses_what_it_ignored():
    """A negative seed made the puzzles of its opposite (Python's random takes -s as
    s); well_formed="yes" was taken as True; an option no family or another family
    has was ignored (parse refused the first)."""
    with pytest.raises(InvalidValue, match="seed must be 0 or more, not -1"):
        crossprolog.generate("kenken", 4, 4, seed=-1)
    with pytest.raises(InvalidValue, match="n must be 0 or more, not -1"):  # none, silently
        crossprolog.generate("kenken", 4, 4, n=-1)
    with pytest.raises(InvalidValue, match="well_formed must be True or False, not 'yes'"):
        crossprolog.generate("kenken", 4, 4, well_formed="yes")
    with pytest.raises(TypeError, match="no family has the option 'bogus'"):
        crossprolog.generate("kenken", 4, 4, bogus=5)
    with pytest.raises(crossprolog.UsageError, match="KenKen has no option 'zero'"):
        crossprolog.generate("kenken", 4, 4, zero=True)
    assert list(crossprolog.generate("kenken", 4, 4, seed=0, zero=None))


BAD = [
    ("a float digit", lambda: CrossProduct.from_table([[1, 2.0]]), "table[0][1] must be an integer, not 2.0"),
    ("a digit of 10", lambda: CrossProduct.from_table([[10]]), "table[0][0] is 10, not a digit 1-9"),
    ("a zero digit without zero", lambda: CrossProduct.from_table([[0]]), "not a digit 1-9"),
    ("a ragged table", lambda: CrossProduct.from_table([[1, 2], [3]]), "the table is ragged"),
    ("a negative product", lambda: CrossProduct((-6,), (6,)), "row product 1 is -6"),
    ("a float product", lambda: CrossProduct((6,), (6.5,)), "column product 1 must be an integer"),
    ("a numpy float product", lambda: CrossProduct((np.float64(6),), (6,)), "must be an integer"),
    ("products as text", lambda: CrossProduct("68", (6, 8)), "the row products must be a sequence"),
    ("ragged givens", lambda: CrossProduct((6, 8), (8, 6), ((None, None), (None,))),
     "givens must have a row per row product (2) and in each a cell per column product (2)"),
    ("a given of 10", lambda: CrossProduct((6,), (6,), ((10,),)), "givens[0][0] is 10, not a digit 1-9"),
    ("a Sudoku given of 10", lambda: Sudoku([[10] + [None] * 8] + [[None] * 9] * 8),
     "givens[0][0] is 10, not one of the digits 1-9"),
    ("a float Sudoku given", lambda: Sudoku([[1.0] + [None] * 8] + [[None] * 9] * 8), "must be an integer"),
    ("a short Sudoku", lambda: Sudoku([[None] * 9] * 8), "a sudoku has 9 rows of 9 cells"),
    ("a digit set of floats", lambda: DigitSet(1.0, 9), "the lowest digit must be an integer"),
    ("division by 0", lambda: Cell("/", 0), "/0 is not a valid cell"),
    ("a float cell", lambda: Cell("+", 1.5), "a cell's number must be an integer"),
    ("a negative count", lambda: Constraint("#", -1), "not a constraint: #-1"),
    ("a ragged CrossCells table", lambda: CrossCells.from_table([[Cell("+", 1)], []], [None, None], [None]),
     "the table is ragged"),
    ("a constraint too few", lambda: CrossCells.from_table([[Cell("+", 1)]], [], [None]),
     "takes 1 row constraints"),
    ("a column of a cell that is not there",
     lambda: CrossCells((Cell("+", 1),), (Line((0,)),), (Line((0, 5)),)), "a column names a cell"),
    ("a cell in no row", lambda: CrossCells((Cell("+", 1), Cell("+", 2)), (Line((0,)),)),
     "every cell must be in exactly one row"),
]


def _misuses():
    from crossprolog import pictures

    puzzle = CrossProduct((2, 2), (2, 2))
    solution = puzzle.solve()
    return [
        ("hint(timeout='x')", lambda: puzzle.hint(timeout="x"), "timeout must be a positive number"),
        ("hint(timeout=-1)", lambda: puzzle.hint(timeout=-1), "timeout must be a positive number"),
        ("forced_cells(timeout='x')", lambda: puzzle.forced_cells(timeout="x"), "timeout must be"),
        ("render('x')", lambda: puzzle.render("x", "text"), "a solution is a Solution"),
        ("render(marks='x')", lambda: puzzle.render(None, "svg", marks="x"), "marks are a Marks"),
        ("book(per_page=0)", lambda: pictures.book([puzzle], [solution], per_page=0), "per_page is a whole"),
        ("book(per_page='2')", lambda: pictures.book([puzzle], [solution], per_page="2"), "per_page is"),
        ("book(title=None)", lambda: pictures.book([puzzle], [solution], title=None), "title is a string"),
        ("book(more solutions)", lambda: pictures.book([puzzle], [solution, solution]), "2 solutions for 1"),
        ("a table of no dimension", lambda: CrossProduct.from_table(np.array(3)), "must be a sequence"),
        ("a deep table", lambda: CrossProduct.from_table(_deep(100_000)), "must be an integer, not"),
    ]


def _deep(depth: int) -> list:
    nested: list = [1]
    for _ in range(depth):
        nested = [nested]
    return [[nested]]


MISUSES = _misuses()


@pytest.mark.parametrize("what, call, message", MISUSES, ids=[case[0] for case in MISUSES])
def test_a_misuse_of_the_api_is_invalid_value_not_a_raw_error(what, call, message):
    """Each raised TypeError, AttributeError, ValueError, RecursionError or, for a
    negative timeout, TimeLimitExceeded."""
    with pytest.raises(InvalidValue, match=message):
        call()


@pytest.mark.parametrize("what, build, message", BAD, ids=[case[0] for case in BAD])
def test_bad_values_are_refused_when_the_puzzle_is_built(what, build, message):
    with pytest.raises(InvalidValue) as caught:
        build()
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, CrossprologError)
    assert message in str(caught.value)


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), 0, -1, "5", True, 1e10])
def test_a_timeout_must_be_a_positive_number_of_seconds_a_timer_counts(timeout):
    puzzle = CrossProduct((6,), (6,))
    for search in (puzzle.solve, puzzle.count, puzzle.search, lambda **t: next(puzzle.solutions(**t))):
        with pytest.raises(InvalidValue, match="timeout must be a positive number of seconds up to 1e"):
            search(timeout=timeout)


def test_a_count_limit_must_be_a_count():
    with pytest.raises(InvalidValue, match="limit must be a whole number"):
        CrossProduct((6,), (6,)).count(-1)


def test_an_unfinished_generator_left_at_interpreter_exit_prints_nothing():
    """The generator is collected while modules are torn down, janus half gone."""
    program = ("import crossprolog\n"
               "puzzle = crossprolog.parse('8 8 1\\n? ? ? 8\\n? ? ? 8\\n? ? ? 1\\n')\n"
               "def first_rows():\n"
               "    for solution in puzzle.solutions():\n"
               "        yield solution.values[0]\n"
               "rows = first_rows()\n"
               "next(rows)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize("read", [crossprolog.parse, crossprolog.parse_all])
def test_parse_refuses_a_text_that_is_no_str_and_an_option_no_family_has(read):
    """parse(None) said "object of type 'NoneType' has no len()", parse(b"...") that a
    bytes-like object was required; parse(text, bogus=1) was taken silently."""
    text = "6 8\n? ? 6\n? ? 8\n"
    with pytest.raises(TypeError, match="a puzzle's text is a str, not NoneType"):
        read(None)
    with pytest.raises(TypeError, match=r"not bytes \(decode the bytes first"):
        read(text.encode())
    with pytest.raises(TypeError, match="no family has the option 'zeros'; the options are .*zero"):
        read(text, zeros=True)
    assert read(text, first_cell="seeds", zero=None)  # another family's option: ignored


@pytest.mark.parametrize("example, options, message", [
    ("crosscells/puzzle-25.txt", {"game": 5}, "game must be one of 'crosscells', 'sumplete', 'number-sums', not 5"),
    ("sudoku/ai-escargot.txt", {"digits": 5}, "digits must be a DigitSet or a text such as '1-9', not 5"),
    ("crossproduct/riddler-1.txt", {"zero": 1}, "zero must be True or False, not 1")])
def test_an_option_given_as_a_value_it_cannot_take_is_refused_by_name(example, options, message):
    """`game=5` was a KeyError from a grammar's table, `digits=5` a TypeError: an option's
    value that is no text is checked as the model checks it, before any reading."""
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    with pytest.raises(InvalidValue, match=re.escape(message)):
        crossprolog.parse(text, **options)
    family = crossprolog.parse(text).family
    with pytest.raises(InvalidValue, match=re.escape(message)):
        next(iter(crossprolog.generate(family, 9 if family == "sudoku" else 4, 9 if family == "sudoku" else 4,
                                       n=1, seed=1, **options)))


def test_a_solution_is_drawn_only_on_a_puzzle_it_can_be_of():
    """A 5x3 CrossProduct's solution was drawn into a 4x4 KenKen as if it fit (its
    digits up to 9, a cage gone); a Sudoku's raised a TypeError."""
    from crossprolog import pictures

    kenken = crossprolog.parse((EXAMPLES / "kenken" / "issue-4x4.txt").read_text())
    crossproduct = crossprolog.parse((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text())
    with pytest.raises(InvalidValue, match="of a crossproduct puzzle of shape"):
        kenken.render(crossproduct.solve(), "text")
    with pytest.raises(InvalidValue, match="not of this kenken puzzle"):
        pictures.svg(kenken, crossproduct.solve())
    again = crossprolog.parse((EXAMPLES / "kenken" / "issue-4x4.txt").read_text())
    assert kenken.render(again.solve()) == str(again.solve())  # the same puzzle read twice


def test_the_package_s_modules_are_its_attributes_once_it_is_imported():
    """The documentation's `crossprolog.blame.typos(puzzle)` and
    `crossprolog.compare.compare(...)` raised AttributeError after a plain `import
    crossprolog` (a module was an attribute only once something else imported it)."""
    code = ("import crossprolog\n"
            "print(crossprolog.blame.typos.__name__, crossprolog.compare.compare.__name__,\n"
            "      crossprolog.export.program.__name__, hasattr(crossprolog, 'no_such_module'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "typos compare program False\n"


def test_pictures_and_diagnoses_refuse_another_puzzle_s_solution_or_clues():
    """Each was drawn or raised from deep inside: a KenKen's solution as a CrossProduct's
    scene (IndexError), a book whose answer key held another puzzle's solution (printed
    as its answer), a conflict naming another puzzle's clues (drawn on this grid), an
    ambiguity of one solution twice ("differing at 0 cells")."""
    from crossprolog import diagnosis, pictures

    riddler = crossprolog.parse((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text())
    other = crossprolog.parse((EXAMPLES / "crossproduct" / "riddler-2.md").read_text())
    kenken = crossprolog.parse((EXAMPLES / "kenken" / "issue-4x4.txt").read_text())
    with pytest.raises(InvalidValue, match="that solution is of a kenken puzzle"):
        riddler.scene(kenken.solve())
    with pytest.raises(InvalidValue, match="solution 1 of the book: that solution is of a kenken puzzle"):
        pictures.book([riddler], [kenken.solve()])
    for puzzles, solutions in ((["a"], ()), ([riddler], ["x"]), ([riddler], [riddler])):
        with pytest.raises(InvalidValue):
            pictures.book(puzzles, solutions)
    with pytest.raises(InvalidValue, match="not all this crossproduct puzzle's"):
        pictures.svg(riddler, other.clues()[5:8])
    with pytest.raises(InvalidValue, match="a page's title is a string, not 5"):
        pictures.html(riddler, title=5)
    solution = riddler.solve()
    with pytest.raises(InvalidValue, match="the same"):
        diagnosis.ambiguity(riddler, solution, solution)
    with pytest.raises(InvalidValue, match="that solution is of a kenken puzzle"):
        diagnosis.ambiguity(riddler, kenken.solve(), solution)
    book = pictures.book([riddler], [solution], per_page=np.int64(2))  # numpy's integers, as everywhere
    assert book.count("<svg") == 2


@pytest.mark.parametrize("make", [
    lambda n: CrossProduct((n,), (n,)),
    lambda n: crossprolog.kenken.KenKen(3, (crossprolog.kenken.Cage(((0, 0),), n, "="),)),
    lambda n: crossprolog.killer_sudoku.KillerSudoku(4, (crossprolog.killer_sudoku.Cage(((0, 0),), n),))])
def test_a_number_no_text_can_state_is_refused_when_the_puzzle_is_made(make):
    """A product or target of more than 1,000 digits (which the reader refuses) was taken,
    then drawn as text that does not read back, or past 4,300 digits not drawn at all
    (Python's ValueError)."""
    largest = make(10 ** 1000 - 1)
    assert str(largest) and (largest.family != "crossproduct" or crossprolog.parse(str(largest)) == largest)
    with pytest.raises(InvalidValue, match="has more than 1,000 digits"):
        make(10 ** 1000)
    with pytest.raises(InvalidValue, match="has more than 1,000 digits"):
        make(10 ** 5000)


def test_marks_take_cells_as_json_gives_them_and_name_what_they_cannot_mark():
    """Marks(cells=[[0, 0]]) was "unhashable type: 'list'", a Marking's mark given by its
    name a TypeError from deep inside."""
    from crossprolog import pictures
    from crossprolog.answers import Marks
    from crossprolog.scene import Marking

    riddler = crossprolog.parse((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text())
    assert pictures.svg(riddler, marks=Marks(cells=[[0, 0]])) == \
        pictures.svg(riddler, marks=Marks(cells=frozenset({(0, 0)})))
    assert pictures.svg(riddler, marks=Marking(cells={(0, 0): "hinted"})).count('class="hinted"') == 1
    for marks, message in ((Marking(cells={(0, 0): "bold"}), "marks are named from given"),
                           (Marks(cells=[[0]]), r"a marked cell is \(row, column\)"),
                           (Marks(clues=["row 1"]), r"a marked clue is one of Puzzle.clues\(\)")):
        with pytest.raises(InvalidValue, match=message):
            pictures.svg(riddler, marks=marks)
