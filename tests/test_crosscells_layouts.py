"""CrossCells layouts: how text becomes rows, columns and groups, and how it is drawn back."""

from __future__ import annotations

import pytest

import crossprolog
from crossprolog import ParseError
from crossprolog.crosscells import Cell, Constraint, CrossCells, Line
from crossprolog.registry import family_of
from conftest import EXAMPLES

PUZZLE_25 = (EXAMPLES / "crosscells" / "puzzle-25.txt").read_text()


def parse(text: str, **options) -> CrossCells:
    return crossprolog.parse(text, family="crosscells", **options)


def cells_of(puzzle: CrossCells, indices) -> list[str]:
    return [puzzle.cells[i].text for i in indices]


# Reading the layout


def test_puzzle_25_is_recognised_and_read_as_rows_columns_and_a_group():
    assert family_of(PUZZLE_25) == "crosscells"
    puzzle = crossprolog.parse(PUZZLE_25)
    assert [len(row.cells) for row in puzzle.rows] == [4, 4, 8, 4, 4]
    assert [row.tail.value for row in puzzle.rows] == [4, 5, 24, 2, 6]
    constrained = [c for c in puzzle.columns if c.tail]
    assert [cells_of(puzzle, c.cells) for c in constrained][0] == ["+1a", "+2a", "*2a", "+1a", "+3"]
    assert [c.tail.text for c in constrained] == ["=6", "=12", "#1", "=6"]
    assert len(puzzle.columns) == 8  # the long middle row's outer cells are columns of one
    assert puzzle.groups == (Constraint("#", 6, "a"),)


def test_crossproduct_layouts_are_not_taken_for_crosscells():
    for path in (EXAMPLES / "crossproduct").iterdir():
        assert family_of(path.read_text()) == "crossproduct", path.name


def test_operators_and_the_ways_to_write_times():
    puzzle = parse("+1 -2 *3 x4 ×5 /6 =0")
    assert [(c.op, c.number) for c in puzzle.cells] == [
        ("+", 1), ("-", 2), ("*", 3), ("*", 4), ("*", 5), ("/", 6)]
    assert parse("+1 x4 =0") == parse("+1 *4 =0")


def test_constraints_totals_counts_and_negative_totals():
    row = parse("+1 +2 =-3").rows[0]
    assert row.tail == Constraint("=", -3)
    assert parse("#2 +1 +2").rows[0].head == Constraint("#", 2)


def test_a_line_can_have_a_constraint_at_each_end_read_toward_it():
    puzzle = parse("=5 +2 *3 +1 =7")
    [backward, forward] = [r for r in puzzle.readings()]
    assert cells_of(puzzle, backward.cells) == ["+1", "*3", "+2"] and backward.constraint.value == 5
    assert cells_of(puzzle, forward.cells) == ["+2", "*3", "+1"] and forward.constraint.value == 7


def test_column_constraints_above_read_up_and_below_read_down():
    puzzle = parse(" =5\n +2\n *3\n +1\n #2\n")
    [column] = puzzle.columns
    [up, down] = puzzle.readings()
    assert column.head.value == 5 and cells_of(puzzle, up.cells) == ["+1", "*3", "+2"]
    assert column.tail.value == 2 and cells_of(puzzle, down.cells) == ["+2", "*3", "+1"]


def test_ragged_offset_rows_share_columns_where_tokens_overlap():
    puzzle = parse((EXAMPLES / "crosscells" / "ragged.txt").read_text())
    columns = {c.tail.text: cells_of(puzzle, c.cells) for c in puzzle.columns}
    assert columns == {"#1": ["+3"], "=8": ["+4b", "-2", "*2b"], "=5": ["*2", "+5b", "-4", "/2"],
                       "#3": ["-1", "*3", "+6", "+2b"], "=-2": ["+1", "-3"]}


def test_tokens_overlapping_by_one_character_share_a_column():
    puzzle = parse("+10 +2\n  +3 =3\n")
    assert [cells_of(puzzle, c.cells) for c in puzzle.columns] == [["+10", "+3"], ["+2"]]


def test_group_constraints_stand_anywhere_outside_the_cells():
    text = "a=4 +1a +2 =3 b#1\n+3a +4b\n"
    puzzle = parse(text)
    assert puzzle.groups == (Constraint("=", 4, "a"), Constraint("#", 1, "b"))
    assert puzzle.rows[0].head is None and puzzle.rows[0].tail == Constraint("=", 3)
    [group_a] = [r for r in puzzle.readings() if r.constraint.group == "a"]
    assert cells_of(puzzle, group_a.cells) == ["+1a", "+3a"]  # reading order


def test_comments_blank_lines_and_fences_are_skipped_but_counts_are_not():
    puzzle = parse("# a comment: #6 here is no count\n\n```text\n+1 +2\n#1\n```\n")
    assert puzzle.columns[0].tail == Constraint("#", 1)
    assert puzzle.layout == "markdown"


def test_parsing_keeps_meaning_not_spacing():
    assert parse("+1  +2   =3\n=1\n") == parse("+1 +2 =3\n=1")
    assert parse("+1 +2 =3") != parse("+1 +2 =4")
    assert parse("+1 +2 =3") != parse("+1 +2 =3", first_cell="seeds")


# Drawing


def test_an_unsolved_puzzle_is_drawn_as_typed_without_comments():
    assert crossprolog.parse(PUZZLE_25).render() == "\n".join(PUZZLE_25.splitlines()[1:])


def test_a_solution_marks_every_cell_on_or_off_and_keeps_everything_else():
    puzzle = parse("+1 x2 +1 =2\n   #0\n")
    assert str(puzzle.solve()) == "+1! x2~ +1! =2\n    #0"
    assert parse(str(puzzle.solve())) == puzzle.placing({(0, 0): 1, (0, 1): 0, (0, 2): 1})


def test_markdown_is_the_drawing_in_a_code_block():
    puzzle = crossprolog.parse(PUZZLE_25)
    drawn = puzzle.render(puzzle.solve(), format="markdown").splitlines()
    assert drawn[0] == "```text" and drawn[-1] == "```"
    assert drawn[1] == "         +1a~ +2a! *4a~ +2!         =4"


def test_every_drawing_parses_back_to_the_same_puzzle():
    for path in (EXAMPLES / "crosscells").iterdir():
        puzzle = parse(path.read_text())
        for format in ("text", "markdown"):
            assert parse(puzzle.render(format=format)) == puzzle, (path.name, format)


def test_puzzles_built_from_a_table_are_drawn_as_a_grid():
    table = [[Cell("+", 1), Cell("*", 2)], [Cell("-", 3), Cell("/", 2)]]
    puzzle = CrossCells.from_table(table, [Constraint("=", 2), None], [None, Constraint("#", 1)])
    assert puzzle.render() == "+1 *2  =2\n-3 /2\n   #1"
    assert parse(puzzle.render()) == puzzle


def test_the_model_refuses_what_no_text_could_say():
    with pytest.raises(ValueError):
        Cell("/", 0)
    with pytest.raises(ValueError):
        CrossCells((Cell("+", 1),), (Line((0,)),), groups=(Constraint("#", 1, "z"),))


# Errors: one located ParseError for every mistake


ERRORS = [
    ("", 1, 1, "no cells here"),
    ("# only a comment\n", 1, 1, "no cells here"),
    ("=3 #2\n", 1, 1, "no cells here"),
    ("+1 foo =1", 1, 4, "expected a cell like +3 or *2a, or a constraint like =24, #1 or a#6, found 'foo'"),
    ("+1 + 2 =1", 1, 4, "found '+'"),
    ("+1 +2=3", 1, 4, "found '+2=3'"),
    ("+1 #-1", 1, 4, "found '#-1'"),
    ("+1 /0 =1", 1, 4, "division by 0"),
    ("+1 +" + "1" * 1001, 1, 4, "numbers have at most 1,000 digits"),
    ("+1 =1 +2", 1, 4, "not between cells"),
    ("+1 +2 =3 #2", 1, 10, "already has a constraint at its right end"),
    ("=3 #2 +1", 1, 4, "already has a constraint at its left end"),
    ("+1 +2 =3\n         =1", 2, 10, "overlaps no column"),
    ("+1 +2 =3\n =1234", 2, 2, "overlaps two columns"),
    ("+1 +2\n=1\n#1", 3, 1, "this column already has a constraint below it (line 2)"),
    ("=1\n#1\n+1 +2", 2, 1, "this column already has a constraint above it (line 1)"),
    ("+1 +2\n=1\n+3 +4", 2, 1, "between rows only group constraints"),
    ("+100 +2\n+1 +2 +3", 1, 1, "overlaps both '+1' and '+2' of line 2 (columns 1 and 4), which then fall in one"),
    ("+1 +2 =3\n +30 =30\n=1 =2", 2, 2, "overlaps both '+1' and '+2' of line 1"),
    ("+1 +2 [1] tles\n=3 =3", 1, 11, "expected 'tiles' after [1], found 'tles'"),
    ("+1 +2 [1]\n=3 =3", 1, 10, "expected 'tiles' after [1]"),
    ("+1a =1\nb#1", 2, 1, "no cell is in group 'b'"),
    ("+1a =1\na#1 a#0", 2, 5, "group 'a' already has a count (line 2)"),
    ("+1 +2\n\x00", 2, 1, "control character"),
]


@pytest.mark.parametrize("text, line, column, message", ERRORS)
def test_every_mistake_is_a_parse_error_at_its_place(text, line, column, message):
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert message in caught.value.message


def test_numbers_are_exact_however_long():
    """No cap below the grammars' 1,000 digits: generated puzzles reach 13 digits and more."""
    puzzle = parse("+7 *1000000000 *1000000000 -1 =6999999999999999999")
    assert puzzle.solve().values == ((1, 1, 1, 1),)
