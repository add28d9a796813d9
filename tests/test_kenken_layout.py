"""KenKen and Killer Sudoku drawn back in the layout they were typed in: each clue's
operation as it was spelt, the clue lines in their order with the comments and
blank lines among them, in answers, hints, corrections and blamed clues; and a
KenKen with cells in no cage reading back as itself."""

from __future__ import annotations

import pytest

import crossprolog
from crossprolog.errors import InvalidValue
from crossprolog.kenken import Cage

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
