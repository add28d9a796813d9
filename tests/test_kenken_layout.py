"""KenKen and Killer Sudoku drawn back in the layout they were typed in: each clue's
operation as it was spelt, the clue lines in their order with the comments and
blank lines among them, in answers, hints, corrections and blamed clues; and a
KenKen with cells in no cage reading back as itself."""

from __future__ import annotations

from dataclasses import replace

import pytest

import crossprolog
from crossprolog.errors import InvalidValue
from crossprolog.kenken import Cage, KenKen

from conftest import EXAMPLES

SOLUTION = ((4, 3, 2, 1), (1, 2, 4, 3), (3, 4, 1, 2), (2, 1, 3, 4))
SOLVED_GRID = ["a4 a3 b2 c1", "d1 e2 b4 c3", "d3 e4 f1 f2", "g2 g1 h3 h4"]
DRAWN = (EXAMPLES / "kenken" / "issue-4x4-drawn.txt").read_text()


# The operation as it was spelt

@pytest.mark.parametrize("times, divided, minus", [("x", "/", "-"), ("X", "÷", "−"), ("×", "/", "−"),
                                                    ("*", "÷", "-")])
def test_an_operation_is_drawn_back_as_it_was_spelt(times, divided, minus):
    text = (f"a a b c\nd e b c\nd e f f\ng g h h\na 12{times}\nb 2{minus}\nc 3{divided}\nd 3/\n"
            f"e 6+\nf 3+\ng 1-\nh 12*\n")
    puzzle = crossprolog.parse(text)
    solved = str(puzzle.solve())
    assert solved.splitlines() == SOLVED_GRID + text.splitlines()[4:]
    assert crossprolog.parse(solved).givens == SOLUTION
    assert f"cage a (12{times})" in puzzle.cage_called(puzzle.cages[0], "a")


def test_a_drawn_clue_keeps_its_spelling_too():
    text = DRAWN.replace("| 12*       |", "| 12x       |", 1).replace("| 3/  | 6+", "| 3÷  | 6+")
    solved = str(crossprolog.parse(text).solve()).splitlines()
    assert solved[1] == "| 12x 4       3 | 2-  2 | 3/  1 |"
    assert solved[3] == "| 3÷  1 | 6+  2 |     4 |     3 |"
    assert solved[7] == "| 1-  2       1 | 12* 3       4 |"
    assert crossprolog.parse("\n".join(solved)).givens == SOLUTION


def test_a_cage_s_spelling_is_one_of_its_operation_s():
    assert Cage(((0, 0), (0, 1)), 2, "*", written="x").clue == "2x"
    assert Cage(((0, 0), (0, 1)), 2, "*").clue == "2*"
    assert Cage(((0, 0),), 2, "=").clue == "2"
    with pytest.raises(InvalidValue, match="a \\* cage's operation is written \\* or x or X or ×, not '/'"):
        Cage(((0, 0), (0, 1)), 2, "*", written="/")
    with pytest.raises(InvalidValue, match="not 'x'"):
        Cage(((0, 0),), 2, "=", written="x")


# The clue lines in their order, with the comments and blank lines among them

TYPED = """\
# The issue's KenKen, its clue lines typed in no order
a a b c
d e b c
d e f f
g g h h
# targets
h 12x
b 2-
c 3/
d 3/

e 6+
f 3+
g 1-
a 12x
"""
BELOW = TYPED.splitlines()[5:]  # what stands below the grid, as typed


def test_the_answer_keeps_the_clue_lines_order_spelling_comments_and_blank_lines(cli, write):
    run = cli("solve", write(TYPED))
    assert run.code == 0 and run.err == ""
    assert run.out.splitlines() == SOLVED_GRID + BELOW
    again = crossprolog.parse(run.out)
    typed = crossprolog.parse(TYPED)
    assert again.givens == SOLUTION and again.cages == typed.cages and again.below == typed.below
    assert str(again) == run.out.rstrip("\n")  # read back, it is drawn the same


def test_a_hint_keeps_the_layout_and_the_comments_once(cli, write):
    """The comments among the clue lines stand where they were; the file's others stay
    above the hint, so each step's output, read back, gives the next the same way."""
    first = cli("hint", write(TYPED))
    lines = first.out.splitlines()
    assert lines[0] == "# The issue's KenKen, its clue lines typed in no order"
    assert lines[1].startswith("# hint - fillings rule out digits in cage a (12x): ")
    assert lines[2:6] == ["a a b2 c", "d e b  c", "d e f  f", "g g h  h"] and lines[6:] == BELOW
    second = cli("hint", write(first.out)).out.splitlines()
    assert second[0] == lines[0] and second[1].startswith("# hint - only filling in cage f (3+)")
    assert second[6:] == BELOW and len(second) == len(lines)
    markdown = cli("hint", write(TYPED), "--format", "markdown").out.splitlines()
    assert markdown.count("# targets") == 1 and markdown[-len(BELOW) - 1:-1] == BELOW


def test_a_correction_and_a_blamed_clue_keep_the_layout(cli, write):
    run = cli("check", write(TYPED.replace("a 12x", "a 10x")))
    lines = run.out.splitlines()
    assert run.code == 1 and lines[0] == ("not well-formed: no solution: cage a (10x) is likely mistyped: "
                                          "with cage a (12x) instead, the puzzle has one solution")
    assert lines[5:] == BELOW[:-1] + ["[a 10x]"]
    run = cli("check", write(TYPED.replace("e 6+", "e 7+")))
    assert run.out.splitlines()[5:] == [line.replace("e 6+", "[e 7+]") for line in BELOW]


def test_a_drawn_clue_keeps_its_spelling_when_blamed(cli, write):
    text = DRAWN.replace("| 12*       |", "| 12x       |", 1).replace("| 3/  | 6+  |", "| 3÷  | 7+  |")
    lines = cli("check", write(text)).out.splitlines()
    assert lines[0] == ("not well-formed: no solution: the 7+ cage at row 2, column 2 is likely mistyped: "
                        "with the 6+ cage at row 2, column 2 instead, the puzzle has one solution")
    assert lines[2] == "| 12x         | 2-   | 3/   |" and lines[4] == "| 3÷   | [7+] |      |      |"
    hint = cli("hint", write(text.replace("7+", "6+"))).out.splitlines()
    assert hint[1].startswith("# hint - fillings rule out digits in the 12x cage at row 1, column 1: ")
    assert hint[3:6] == ["| 12x         | 2- 2 | 3/   |", "+------+------+      +      +",
                         "| 3÷   | 6+   |      |      |"]


def test_clue_lines_with_a_colon_and_blanks_keep_them():
    text = "a a b c\nd e b c\nd e f f\ng g h h\nh:12*\nb :  2-\nc: 3/\nd  3/\ne 6+\nf 3+\ng 1-\na 12*\n"
    assert crossprolog.parse(text).render().splitlines()[4:] == text.splitlines()[4:]


def test_a_puzzle_whose_clue_lines_are_in_the_letters_order_keeps_nothing_more():
    """What the model would draw anyway is not kept: such a puzzle is the one made in
    Python, field for field, as read in one pass or piece by piece."""
    text = (EXAMPLES / "kenken" / "issue-4x4.txt").read_text()
    assert crossprolog.parse(text).below == () and crossprolog.parse(TYPED).below != ()


SHIDOKU = """\
# game: killer-sudoku
a b b c
a d e c
f d e c
f d g g

# sums, the odd ones first
g: 5
c  9

b 6
d 6
e 4
f 6
a 4
# the digits placed

1 . . .
. . . .
. . . .
. . . .
"""
SHIDOKU_SOLVED = ["1 4 2 3", "3 2 1 4", "4 1 3 2", "2 3 4 1"]
SHIDOKU_SOLUTION = tuple(tuple(map(int, row.split())) for row in SHIDOKU_SOLVED)


def test_a_killer_sudoku_keeps_its_sum_lines_order_and_comments(cli, write):
    lines = SHIDOKU.splitlines()
    run = cli("solve", write(SHIDOKU))
    assert run.out.splitlines() == lines[:16] + [""] + SHIDOKU_SOLVED
    assert crossprolog.parse(run.out).givens == SHIDOKU_SOLUTION
    hint = cli("hint", write(SHIDOKU)).out.splitlines()
    assert hint[0].startswith("# hint - ") and hint[1:17] == lines[:16]
    blamed = cli("check", write(SHIDOKU.replace("c  9", "c  8"))).out.splitlines()
    assert blamed[0].startswith("not well-formed: no solution: ") and "[c  8]" in blamed


def test_texts_with_comments_among_the_clue_lines_read_in_one_pass_as_piece_by_piece():
    from crossprolog.registry import _read_at_once, parse_piece, pieces

    kenkens = "\n".join(f"== {n}\n{TYPED}\n# after the last clue line\n\n" for n in range(3))
    killers = "\n".join(f"== {n}\n{SHIDOKU}" for n in range(3))
    for text in (kenkens, killers, kenkens.replace("\n\n", "\n"), killers.replace("# the digits placed\n", "")):
        at_once = _read_at_once(text, None, {})
        assert at_once is not None, text  # read in one pass
        one_by_one = [parse_piece(piece) for piece in pieces(text)]
        assert [(vars(p), p.render()) for p in at_once[1]] == [(vars(p), p.render()) for p in one_by_one]
    assert _read_at_once(killers, None, {})[1][0].render() == SHIDOKU.rstrip("\n")
    kenken = _read_at_once(kenkens, None, {})[1][0]
    assert kenken.render().splitlines()[4:] == BELOW + ["# after the last clue line"]


def test_a_comment_stays_on_a_line_of_its_own(cli, write):
    """As in every family (`#` is a CrossCells count), a comment after a clue or a row
    is no comment: a located error, in KenKen and Killer Sudoku alike."""
    for text, line, column in [(TYPED.replace("e 6+", "e 6+  # note"), 12, 7),
                               (TYPED.replace("g g h h", "g g h h # last row"), 5, 9),
                               (SHIDOKU.replace("b 6", "b 6 # six"), 11, 5)]:
        run = cli("solve", write(text))
        assert run.code == 2 and run.out == ""
        assert f"puzzle.txt:{line}:{column}: error: expected " in run.err and "found '#'" in run.err


def test_the_lines_below_the_grid_are_checked_when_made_in_python():
    puzzle = crossprolog.parse(TYPED)
    assert replace(puzzle, below=(("a", "a: "), ("", "# note"), ("", ""))).render().splitlines()[4:6] == [
        "a: 12x", "# note"]
    for wrong in [(("a", "b "),), (("a", "a"),), (("", "note"),), (("", "# two\nlines"),), ("a",),
                  (("a", "a "), ("a", "a "))]:
        with pytest.raises(InvalidValue):
            replace(puzzle, below=wrong)


# A KenKen with cells in no cage

NO_CAGE = [  # what stays of the issue's cages, by letter
    "h",  # the last row alone has cage letters, the others are all `.`: read as a Sudoku before
    "f",  # the third row alone has cage letters: read as a Sudoku before
    "ah",  # two rows all `.` between rows with cage letters (read as a KenKen already)
]


@pytest.mark.parametrize("kept", NO_CAGE)
@pytest.mark.parametrize("compact", [False, True])
def test_a_kenken_with_rows_of_cells_in_no_cage_reads_back_as_itself(kept, compact, cli, write):
    issue = crossprolog.parse(TYPED)
    puzzle = replace(issue.keeping([clue for clue in issue.clues() if clue.name in kept]), compact=compact)
    assert any(set(row) <= {".", " "} for row in puzzle.render().splitlines()[:4])
    assert crossprolog.parse(puzzle.render()) == puzzle
    run = cli("solve", write(puzzle.render()))
    below = [line for line in BELOW if not line or line[0] in kept + "#"]
    assert run.code == 0 and run.out.splitlines()[4:] == below[:max(k for k, line in enumerate(below) if line) + 1]
    again = crossprolog.parse(run.out)
    assert again.family == "kenken" and again.cages == puzzle.cages and puzzle.holds(again.givens)
    assert again.render().splitlines()[4:] == puzzle.render().splitlines()[4:]


def test_a_kenken_whose_cages_are_givens_beside_cells_in_no_cage_is_no_killer_sudoku():
    """Its clue lines are numbers alone, as a Killer Sudoku's sums are: the rows of `.`
    made the Killer Sudoku's claim the stronger, and it was read as one (boxes and all)."""
    puzzle = KenKen(4, (Cage(((0, 0),), 1, "="), Cage(((1, 1),), 2, "=")))
    assert puzzle.render() == "a . . .\n. b . .\n. . . .\n. . . .\na 1\nb 2"
    assert crossprolog.parse(puzzle.render()) == puzzle
    assert crossprolog.parse(str(puzzle.solve())).cages == puzzle.cages


def test_a_walled_cell_in_no_cage_is_written_as_a_dot_and_reads_back():
    """The walled form had no way to say it: a cell in no cage was drawn walled in
    alone, which read back as a cage without clue (an error), or once solved as a
    one-cell cage of its digit (another puzzle)."""
    drawn = crossprolog.parse(DRAWN)
    kept = drawn.keeping([clue for clue in drawn.clues() if clue.name != "e"])
    lines = kept.render().splitlines()
    assert lines[3:6] == ["| 3/  |   . |     |     |", "+     +-----+-----+-----+", "|     |   . | 3+        |"]
    assert crossprolog.parse(kept.render()) == kept
    solved = str(kept.solve()).splitlines()
    assert solved[3] == "| 3/  1 |   . 2 |     4 |     3 |"
    again = crossprolog.parse("\n".join(solved))
    assert again == replace(kept, givens=SOLUTION) and again.drawn
    killer = crossprolog.parse((EXAMPLES / "killer_sudoku" / "shidoku-4x4-drawn.txt").read_text())
    without = killer.keeping(killer.clues()[1:])
    for text in (without.render(), str(without.solve())):
        assert "| . " in text and crossprolog.parse(text).cages == without.cages


@pytest.mark.parametrize("cell, line, column, words", [
    ("| 3/  | .   |", 5, 9, "a cell in no cage (.) is walled in alone"),
    ("| 3/  | . 5 |", 5, 11, "a cell in no cage (.) holds its digit 1-4 alone"),
    ("| 3/  | . . |", 5, 11, "expected a clue like 12* and maybe the cell's digit, the digit alone, or . for "
                             "a cell in no cage, found '.'"),
])
def test_a_walled_cell_in_no_cage_that_cannot_be_is_a_located_error(cell, line, column, words, cli, write):
    text = DRAWN.replace("| 3/  | 6+  |", cell)
    if "walled in alone" not in words:
        text = text.replace("+     +     +-----+-----+", "+     +-----+-----+-----+")
    run = cli("solve", write(text))
    assert run.code == 2 and run.out == "" and len(run.err.splitlines()) == 3
    assert f"puzzle.txt:{line}:{column}: error: {words}" in run.err
