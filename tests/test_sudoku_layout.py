"""The Sudoku layout: directives, grid, box marks, errors with line and column, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crossprolog
from crossprolog import ParseError
from crossprolog.registry import family_of
from crossprolog.sudoku import DigitSet, Sudoku
from conftest import EXAMPLES

EMPTY_ROW = ". . . . . . . . ."
JAN_2025 = (EXAMPLES / "sudoku" / "gcd-2025-01.txt").read_text()


def grid_text(rows: list[str] | None = None) -> str:
    return "\n".join(rows or [EMPTY_ROW] * 9)


def error_of(text: str) -> tuple[int, int, str]:
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(text, family="sudoku")
    return caught.value.line, caught.value.column, caught.value.message


def test_directives_set_the_digits_and_the_objective():
    puzzle = crossprolog.parse(JAN_2025)
    assert puzzle.family == "sudoku"
    assert puzzle.digits == DigitSet(0, 9) and puzzle.objective == "gcd(rows)"
    assert puzzle.givens[0][7] == 2 and puzzle.givens[8][6] == 5
    assert sum(d is not None for row in puzzle.givens for d in row) == 9


def test_classic_is_the_default_and_box_marks_are_optional():
    marked = crossprolog.parse(JAN_2025.replace("0", "1").split("# maximize: gcd(rows)\n")[1])
    plain = crossprolog.parse("\n".join(
        line.replace("| ", "") for line in JAN_2025.replace("0", "1").splitlines()[6:] if "+" not in line))
    assert marked == plain and marked.digits == DigitSet(1, 9) and marked.objective is None
    assert "|" not in plain.render() and "|" in marked.render()


def test_underscores_mark_unknowns_and_are_drawn_back():
    puzzle = crossprolog.parse(grid_text(["_ _ _ _ _ _ _ _ 1"] + ["_ " * 8 + "_"] * 8))
    assert puzzle.givens[0][8] == 1 and puzzle.render().startswith("_ _ _ _ _ _ _ _ 1")


def test_directive_spelling_is_forgiving_about_case_and_spaces():
    puzzle = crossprolog.parse("#Digits :  0-9   CHOOSE 9\n# maximize: GCD( cols )\n" + grid_text())
    assert puzzle.digits == DigitSet(0, 9) and puzzle.objective == "gcd(cols)"


def test_free_comments_are_allowed_anywhere():
    text = "# January 2025, from the seeds\n" + grid_text() + "\n# note: comments below the grid\n"
    assert crossprolog.parse(text) == Sudoku.empty()


@pytest.mark.parametrize("puzzle", [
    crossprolog.parse(JAN_2025),
    Sudoku.empty(digits=DigitSet(0, 8), objective="gcd(cols)"),
    Sudoku.empty(boxes=False, unknown="_"),
])
def test_rendering_parses_back_to_the_same_puzzle(puzzle):
    assert crossprolog.parse(puzzle.render()) == puzzle


def test_a_solved_rendering_parses_back_as_a_full_grid():
    solution = crossprolog.parse(JAN_2025).solve(timeout=20)
    again = crossprolog.parse(str(solution))
    assert again.givens == solution.values.grid and again.objective == "gcd(rows)"


def test_sudoku_texts_are_told_apart_from_crossproduct():
    full = "\n".join(" ".join(str((r * 3 + r // 3 + c) % 9 + 1) for c in range(9)) for r in range(9))
    assert family_of(JAN_2025) == family_of(grid_text()) == family_of(full) == "sudoku"
    assert family_of("# digits: 1-9\n" + full) == "sudoku"
    assert family_of("6 8\n? ? 6\n? ? 8\n") == "crossproduct"


def test_question_marks_are_unknowns_read_as_sudoku_by_the_grid_s_shape():
    """`?` is CrossProduct's unknown too; nine rows of nine cells and no products is a Sudoku
    (a CrossProduct's line of column products is a token shorter than its rows)."""
    rows = [INKALA_LINE[r * 9:(r + 1) * 9].replace(".", "?") for r in range(9)]
    spaced = "\n".join(" ".join(row) for row in rows)
    boxed = "\n".join(f"{r[:3]} | {r[3:6]} | {r[6:]}".replace("", " ").strip() for r in rows)
    for text in (spaced, "\n".join(rows), boxed, INKALA_LINE.replace(".", "?")):
        assert family_of(text) == "sudoku"
        puzzle = crossprolog.parse(text)
        assert puzzle == INKALA and puzzle.unknown == "?"
        assert crossprolog.parse(puzzle.render()) == puzzle and "?" in puzzle.render()
    assert crossprolog.parse(spaced).solve().values == INKALA.solve().values
    # Nine lines of digits and '?' whose first is a token short stay a CrossProduct.
    crossproduct = "\n".join(["1 1 1 1 1 1 1 1"] + ["? ? ? ? ? ? ? ? 1"] * 8)
    assert family_of(crossproduct) == "crossproduct"
    assert crossprolog.parse(crossproduct).solve().values == ((1,) * 8,) * 8


@pytest.mark.parametrize("text, line, column, message", [
    ("# colour: red\n" + grid_text(), 1, 1, "unknown directive 'colour' (known: digits, maximize)"),
    ("# digits: 1-9\n# digits: 1-9\n" + grid_text(), 2, 1, "the 'digits' directive is given twice"),
    (grid_text() + "\n# digits: 0-9 choose 9", 10, 1, "the 'digits' directive must come above the grid"),
    ("# digits: 1-10\n" + grid_text(), 1, 13, "expected a digit range like 1-9 or 0-9 choose 9, found '10'"),
    ("# digits: 0-9\n" + grid_text(), 1, 11, "0-9 has 10 digits but a unit holds 9"),
    ("# digits: 2-9\n" + grid_text(), 1, 11, "2-9 has 8 digits; a unit needs 9"),
    ("# digits: 0-9 choose 8\n" + grid_text(), 1, 22, "a unit holds 9 digits"),
    ("# maximize: sum(rows)\n" + grid_text(), 1, 13, "expected gcd(rows) or gcd(cols)"),
    (grid_text([EMPTY_ROW] * 8), 8, 18, "the grid ends after 8 rows; a sudoku has 9"),
    (grid_text([EMPTY_ROW] * 10), 10, 1, "a sudoku has 9 rows; this would be row 10"),
    (grid_text([". . . . . . . ."] + [EMPTY_ROW] * 8), 1, 16, "this row has 8 cells"),
    (grid_text([". . . . . . . . . ."] + [EMPTY_ROW] * 8), 1, 19, "this row has 10 cells"),
    (grid_text([EMPTY_ROW, ". . 12 . . . . . ."] + [EMPTY_ROW] * 7), 2, 5, "found '12'"),
    (grid_text([". ! . . . . . . ."] + [EMPTY_ROW] * 8), 1, 3, "expected a digit, '.', '_' or '?', found '!'"),
    (grid_text([EMPTY_ROW.replace(".", "?")] * 8 + ["? ? ? ? ? ? ? ? x"]), 9, 17,
     "expected a digit, '.', '_' or '?', found 'x'"),
    ("# digits: 0-8\n" + grid_text(["9 . . . . . . . ."] + [EMPTY_ROW] * 8), 2, 1,
     "9 is not one of the digits 0-8"),
    ("# digits: 0-9 choose 9\n" + "1" + "0" * 80, 2, 3,
     "0 is already given in this row, at row 1, column 2 (with the digits 0-9 choose 9, 0 is a "
     "digit, not an unknown: mark unknown cells with '.' or '_')"),
    ("." * 81 + "\n" + "." * 9, 2, 1, "a line of 81 cells is a whole puzzle"),
    (grid_text([". . 1.. . . . ."] + [EMPTY_ROW] * 8), 1, 5,
     "found '1..' (the other cells of this row stand apart)"),
    (grid_text([". 5 . . . . . 5 ."] + [EMPTY_ROW] * 8), 1, 15,
     "5 is already given in this row, at row 1, column 2"),
    (grid_text([EMPTY_ROW] * 4 + [". . 7 . . . . . ."] + [EMPTY_ROW] * 3 + [". . 7 . . . . . ."]), 9, 5,
     "7 is already given in this column, at row 5, column 3"),
    (grid_text([". . . . . . 3 . .", EMPTY_ROW, ". . . . . . . . 3"] + [EMPTY_ROW] * 6), 3, 17,
     "3 is already given in this box, at row 1, column 7"),
    ("# only a comment\n", 2, 1, "no grid here"),
])
def test_errors_point_at_line_and_column(text, line, column, message):
    got_line, got_column, got_message = error_of(text)
    assert (got_line, got_column) == (line, column) and message in got_message


CELL_TEXT = st.sampled_from([".", "_", "1", "5", "9", "0", "|", "12", "x", "?", "-", "#"])
LINE_TEXT = st.one_of(
    st.lists(CELL_TEXT, min_size=0, max_size=11).map(" ".join),
    st.sampled_from(["------+-------+------", "# digits: 0-9 choose 9", "# maximize: gcd(cols)",
                     "# digits: 3-9", "# foo: bar", "# free comment", "", EMPTY_ROW]),
    st.text(max_size=12),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE_TEXT, min_size=0, max_size=13))
def test_any_text_either_parses_and_round_trips_or_raises_parse_error(lines):
    text = "\n".join(lines)
    try:
        puzzle = crossprolog.parse(text, family="sudoku")
    except ParseError as error:
        assert error.line >= 1 and error.column >= 1
        return
    assert crossprolog.parse(puzzle.render(), family="sudoku") == puzzle


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_mutated_puzzles_either_parse_or_raise_parse_error(data):
    text = JAN_2025
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(st.sampled_from(["", ".", "7", "|", "\n", " ", "#", ":", "x"])) \
            + text[at + data.draw(st.integers(0, 2)):]
    try:
        puzzle = crossprolog.parse(text, family="sudoku")
    except ParseError:
        return
    assert crossprolog.parse(puzzle.render(), family="sudoku") == puzzle


# The ways Sudoku files and pages write a grid

INKALA = crossprolog.parse((EXAMPLES / "sudoku" / "inkala-2012.txt").read_text())
INKALA_LINE = "".join("." if d is None else str(d) for row in INKALA.givens for d in row)


@pytest.mark.parametrize("unknown", [".", "0", "_"])
def test_the_81_character_line_reads_with_any_unknown_mark_and_is_drawn_back_so(unknown):
    puzzle = crossprolog.parse(INKALA_LINE.replace(".", unknown))
    assert puzzle == INKALA and family_of(INKALA_LINE.replace(".", unknown)) == "sudoku"
    [drawn] = str(puzzle.solve()).splitlines()
    assert len(drawn) == 81 and drawn.isdigit()
    assert puzzle.render() == INKALA_LINE.replace(".", unknown)


def test_rows_written_without_blanks_read_and_are_drawn_back_so():
    rows = [INKALA_LINE[r * 9:(r + 1) * 9] for r in range(9)]
    assert crossprolog.parse("\n".join(rows)) == INKALA
    assert str(crossprolog.parse("\n".join(rows)).solve()).splitlines()[0] == "812753649"
    boxed = [f"{row[:3]}|{row[3:6]}|{row[6:]}" for row in rows]
    text = "\n".join(boxed[:3] + ["---+---+---"] + boxed[3:6] + ["---+---+---"] + boxed[6:])
    assert crossprolog.parse(text) == INKALA and crossprolog.parse(text).render() == text


def test_sdk_header_lines_are_comments_but_a_misspelt_directive_is_not():
    """The SudoCue .sdk example: #A author, #D description, ... #U url (which has a colon)."""
    header = ("#ARuud\n#DA random puzzle created by SudoCue\n#CJust start plugging in the numbers\n"
              "#B03-08-2006\n#SSudoCue\n#LEasy\n#Uhttp://www.sudocue.net/\n")
    grid = "\n".join(INKALA_LINE[r * 9:(r + 1) * 9] for r in range(9))
    assert crossprolog.parse(header + grid) == INKALA
    assert error_of("#Digit: 0-9 choose 9\n" + grid)[2].startswith("unknown directive 'digit'")


def test_zero_is_a_digit_where_the_digits_include_it():
    puzzle = crossprolog.parse("# digits: 0-9 choose 9\n" + JAN_2025_LINE)
    assert puzzle.givens == crossprolog.parse(JAN_2025).givens and puzzle.givens[3][2] == 0
    classic = crossprolog.parse(JAN_2025_LINE.replace("0", "1").replace(".", "0"))
    assert sum(d is not None for row in classic.givens for d in row) == 9  # 0s unknown in 1-9


JAN_2025_LINE = "".join("." if d is None else str(d) for row in crossprolog.parse(JAN_2025).givens
                        for d in row)


@pytest.mark.parametrize("text", [JAN_2025, "\n".join(EMPTY_ROW.replace(".", "_") for _ in range(9)),
                                  INKALA_LINE.replace(".", "0")])
def test_markdown_output_reads_back_solved_or_not(text):
    puzzle = crossprolog.parse(text)
    solution = puzzle.solve(timeout=20)
    for drawing in (puzzle.render(format="markdown"), puzzle.render(solution, format="markdown")):
        again = crossprolog.parse(drawing)
        assert again.layout == "markdown" and family_of(drawing) == "sudoku"
        assert (again.digits, again.objective) == (puzzle.digits, puzzle.objective)
    assert crossprolog.parse(puzzle.render(format="markdown")) == puzzle
    assert crossprolog.parse(puzzle.render(solution, format="markdown")).givens == solution.values.grid
