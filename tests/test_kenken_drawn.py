"""KenKen's drawn form: cages walled in with +--+ and |, read, solved and drawn back."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import crossprolog
from crossprolog import ParseError
from crossprolog.kenken import random_puzzle

from conftest import EXAMPLES

LETTERED = (EXAMPLES / "kenken" / "issue-4x4.txt").read_text()
DRAWN = (EXAMPLES / "kenken" / "issue-4x4-drawn.txt").read_text()
SOLUTION = ((4, 3, 2, 1), (1, 2, 4, 3), (3, 4, 1, 2), (2, 1, 3, 4))


def test_the_drawn_issue_puzzle_has_the_cages_of_the_lettered_one():
    assert crossprolog.parse(DRAWN) == crossprolog.parse(LETTERED)
    assert crossprolog.parse(DRAWN).solve().values == SOLUTION


def test_a_solution_is_drawn_with_walls_and_reads_back_as_placed_digits():
    solved = str(crossprolog.parse(DRAWN).solve())
    assert solved.splitlines() == [
        "+-------+-------+-------+-------+",
        "| 12* 4       3 | 2-  2 | 3/  1 |",
        "+-------+-------+       +       +",
        "| 3/  1 | 6+  2 |     4 |     3 |",
        "+       +       +-------+-------+",
        "|     3 |     4 | 3+  1       2 |",
        "+-------+-------+-------+-------+",
        "| 1-  2       1 | 12* 3       4 |",
        "+-------+-------+-------+-------+",
    ]
    again = crossprolog.parse(solved)
    assert again.givens == SOLUTION and again == replace(crossprolog.parse(DRAWN), givens=SOLUTION)


def piped(text: str, keep_outline: bool = False) -> str:
    """`text` with its wall lines drawn as tables draw them, `|----+----|` (the outline's
    top and bottom kept as `+---+` with `keep_outline`)."""
    lines = text.splitlines()
    walls = [n for n, line in enumerate(lines) if line.startswith("+")]
    kept = {walls[0], walls[-1]} if keep_outline else set()
    return "\n".join(f"|{line[1:-1]}|" if n in walls and n not in kept else line
                     for n, line in enumerate(lines))


@pytest.mark.parametrize("keep_outline", [False, True])
def test_wall_lines_may_have_pipes_at_their_ends(keep_outline):
    text = piped(DRAWN, keep_outline)
    assert "|-----+-----+     +     |" in text.splitlines()
    assert crossprolog.parse(text) == crossprolog.parse(DRAWN)
    assert crossprolog.registry.family_of(text) == "kenken"
    solved = str(crossprolog.parse(text).solve())
    assert crossprolog.parse(solved).givens == SOLUTION


@pytest.mark.parametrize("plus, pipes", [
    ("+    +--- +----+", "|    +--- +----|"),
    ("+    +----+----+ x", "|    +----+----| x"),
    ("+    +----+--+-+", "|    +----+--+-|"),
])
def test_a_bad_piped_wall_line_is_located_as_one_drawn_with_plus_signs(plus, pipes):
    errors = []
    for wall in (plus, pipes):
        with pytest.raises(ParseError) as caught:
            crossprolog.parse(drawn(l3=wall + "\n"), family="kenken")
        errors.append((caught.value.line, caught.value.column, caught.value.message))
    assert errors[0] == errors[1], errors


def test_a_row_may_take_several_lines_the_clue_anywhere_in_its_cage():
    tall = """\
+----+----+----+
|    | 1-      |
| 4+ |       3 |
+    +----+----+
|    | 3+      |
|    |       2 |
+----+----+----+
| 6*           |
+----+----+----+
"""
    puzzle = crossprolog.parse(tall)
    assert [(cage.cells, cage.clue) for cage in puzzle.cages] == [
        (((0, 0), (1, 0)), "4+"), (((0, 1), (0, 2)), "1-"), (((1, 1), (1, 2)), "3+"),
        (((2, 0), (2, 1), (2, 2)), "6*")]
    assert puzzle.givens == ((None, None, 3), (None, None, 2), (None, None, None))
    assert puzzle.solve().values == ((1, 2, 3), (3, 1, 2), (2, 3, 1))


def test_a_clue_stays_in_the_cell_it_was_drawn_in():
    """A clue drawn in another cell than its cage's first was drawn back in the first,
    and hints named the cage by a cell the solver never wrote its clue in."""
    moved = """\
+-----+-----+-----+-----+
|       12* |     |     |
+-----+-----+     +     +
|     |     | 2-  | 3/  |
+     +     +-----+-----+
| 3/  | 6+  |       3+  |
+-----+-----+-----+-----+
|       1-  |       12* |
+-----+-----+-----+-----+
"""
    puzzle = crossprolog.parse(moved)
    assert puzzle == crossprolog.parse(DRAWN)
    assert {cage.clue_cell for cage in puzzle.cages} == {(0, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 3),
                                                         (3, 1), (3, 3)}
    solved = str(puzzle.solve())
    assert solved.splitlines()[1] == "|     4   12* 3 |     2 |     1 |"
    assert crossprolog.parse(solved).cages == puzzle.cages
    assert [cage.clue_cell for cage in crossprolog.parse(solved).cages] == [cage.clue_cell for cage in puzzle.cages]
    assert "the 12* cage at row 1, column 2" in str(puzzle.hint())
    svg = puzzle.solve()._repr_svg_()
    assert '<text x="53" y="22"' in svg and ">12*</text>" in svg


def test_a_cage_clue_stands_in_one_of_its_cells():
    with pytest.raises(crossprolog.InvalidValue, match="one of its cells"):
        crossprolog.kenken.Cage(((0, 0), (0, 1)), 3, "+", clue_at=(1, 1))
    assert crossprolog.kenken.Cage(((0, 0), (0, 1)), 3, "+", clue_at=[0, 1]).clue_cell == (0, 1)


def test_every_random_puzzle_drawn_reads_back_the_same():
    rng = random.Random(5)
    for size in (3, 4, 5, 6, 7, 8, 9):
        puzzle = replace(random_puzzle(size, rng), drawn=True)
        assert crossprolog.parse(puzzle.render()) == puzzle


TOP = "+----+----+----+\n"
GOOD = [TOP, "| 3+ | 1  | 2  |\n", "+    +----+----+\n", "|    | 5+      |\n", "+----+----+----+\n",
        "| 6*           |\n", TOP]


def drawn(**changed: str) -> str:
    """The good 3x3 drawing with the lines numbered in `changed` (l1, l2, ...) replaced."""
    return "".join(changed.get(f"l{n}", line) for n, line in enumerate(GOOD, start=1))


BAD = [
    (drawn(l2="| 3+ | 1  | 4  |\n"), 2, 13, "this cage is one cell: its clue is a digit 1-3"),
    (drawn(l6="| 6*         4 |\n"), 6, 14, "a cell's digit is 1-3, not 4"),
    (drawn(l6="| 6            |\n"), 6, 3, "a cell's digit is 1-3, not 6"),
    (drawn(l6="|              |\n"), 6, 2, "this cage has no clue"),
    (drawn(l4="|    | 2+   1+ |\n"), 4, 13, "this cage has its clue already (line 4, column 8)"),
    (drawn(l4="|    | 5+  |    |\n"), 4, 12, "a | stands only where the top line's + do"),
    (drawn(l3="+    +---+----+-+\n"), 3, 10, "a + stands only where the top line's + do"),
    (drawn(l4="|    | 5+ : 2  |\n"), 4, 11, "expected | (a wall) or a blank (an opening) where"),
    (drawn(l4="|    | 5+     |\n"), 4, 16, "this line stops before the grid's right edge"),
    (drawn(l4="|    | 5+      | x\n"), 4, 18, "nothing may follow the grid's right edge"),
    (drawn(l4="     | 5+      |\n"), 4, 1, "the outline is a wall: expected |"),
    (drawn(l4="  5+\n"), 4, 3, "expected a wall line like +---+ or a row of cells"),
    (drawn(l3="+    +--  +----+\n"), 3, 9, "expected a wall (-) or an opening (blanks)"),
    (drawn(l1="+----+    +----+\n"), 1, 7, "the outline is a wall"),
    (drawn(l3="+    +----+----&\n"), 3, 16, "expected + at the grid's right edge"),
    (drawn(l1="+----+----+----+ +----+\n"), 2, 17, "this line stops before the grid's right edge (column 23"),
    (drawn(l7="+----+----+----7\n"), 7, 16, "expected + at the grid's right edge"),
    (drawn(l5=TOP + TOP), 6, 1, "a row of cells (| ... |) belongs between two wall lines"),
    (drawn(l7=""), 6, 17, "the grid needs a closing wall line"),
    (drawn(l2="| 3+ | a  | 2  |\n"), 2, 8, "expected a clue like 12*"),
    (drawn(l6="| 6-           |\n"), 6, 4, "a - cage has two cells; this cage has 3"),
    (TOP + "| 1  | 2  | 3  |\n" + TOP, 3, 16, "the grid has 1 rows of 3 cells; a KenKen is square"),
    (drawn(l4="|    | 0+      |\n"), 4, 8, "a cage's target is 1 or more, not 0"),
    (drawn(l6="| 0*           |\n"), 6, 3, "a cage's target is 1 or more, not 0"),
]


@pytest.mark.parametrize("text, line, column, words", BAD)
def test_bad_drawings_say_where_and_what(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(text, family="kenken")
    assert (caught.value.line, caught.value.column) == (line, column), caught.value
    assert words in caught.value.message


def test_a_typo_in_the_top_wall_is_located_without_naming_the_family(cli, write):
    """The top line starts the drawing: a typo further along it keeps the family."""
    broken = cli("solve", write(DRAWN.replace("+-----+-----+-----+-----+", "+-----+-----+--=--+-----+", 1)))
    assert broken.code == 2 and broken.out == ""
    assert broken.err.splitlines()[0].endswith("puzzle.txt:2:16: error: the outline is a wall: expected - "
                                               "(read as KenKen: cages walled in with +--+ and |; name "
                                               "the family with --family if it is another)")


def test_the_command_line_reads_solves_and_explains_the_drawn_form(cli, write):
    path = EXAMPLES / "kenken" / "issue-4x4-drawn.txt"
    assert cli("solve", path, "--format", "json").json()["solution"] == [list(r) for r in SOLUTION]
    assert cli("check", path).out == "well-formed: exactly one solution\n"
    hint = cli("hint", path).out.splitlines()
    assert hint[0] == path.read_text().splitlines()[0]  # the file's own comment stays
    assert hint[1] == ("# hint - fillings rule out digits in the 12* cage at row 1, column 1: no filling has "
                       "1 or 2 at r1c1, r1c2; then fillings rule out digits in the 3/ cage at row 1, "
                       "column 4: no filling has 2 or 4 at r1c4, r2c4; then hidden single in row 1: only "
                       "r1c3 can take 2 (2 ruled out of r1c1, r1c2, r1c4 before)")
    assert hint[3] == "| 12*         | 2- 2 | 3/   |"
    broken = cli("solve", write(DRAWN.replace("| 1-        |", "| 1-        :")))
    assert broken.code == 2 and broken.out == ""
    head, shown, caret = broken.err.splitlines()
    assert head.endswith("puzzle.txt:9:13: error: expected | (a wall) or a blank (an opening) where "
                         "columns part (read as KenKen: cages walled in with +--+ and |; name the "
                         "family with --family if it is another)")
    assert (shown, caret) == ("| 1-        : 12*       |", " " * 12 + "^")


def test_a_drawing_of_more_cages_than_letters_is_explained_too(cli, write):
    """A drawn puzzle never writes cage letters, so more cages than the 52 letters (a 9x9
    of one- and two-cell cages) take hints and explanations as any other."""
    from crossprolog.kenken import GIVEN, Cage, KenKen, latin_square

    square = latin_square(9, random.Random(1))
    cages = []
    for r in range(9):
        for c in range(0, 8, 2):
            pair = ((r, c), (r, c + 1))
            cages += ([Cage((place,), square[place[0]][place[1]], GIVEN) for place in pair]
                      if (r + c) % 3 == 0 else [Cage(pair, square[r][c] + square[r][c + 1], "+")])
        cages.append(Cage(((r, 8),), square[r][8], GIVEN))
    puzzle = KenKen(9, tuple(cages), drawn=True)
    assert len(puzzle.cages) > 52 and crossprolog.parse(puzzle.render()) == puzzle
    clues = puzzle.clues()
    assert len({clue.name for clue in clues if clue.kind == "cage"}) == len(puzzle.cages)
    assert puzzle.keeping(clues) == puzzle
    run = cli("hint", write(puzzle.render()))
    assert run.code == 0 and run.out.startswith("# hint - hidden single in ") and run.err == ""
