"""CrossCells texts read in one pass (grammars.crosscells.read_all) are the puzzles that
reading piece by piece gives, drawn the same; every text it does not take, and every
mistake, is left to the piece-by-piece reader, which says where it is."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

import crossprolog
from crossprolog.grammars.crosscells import read_all
from crossprolog.registry import PLAIN_SEPARATOR, parse_piece, pieces

from conftest import EXAMPLES

CROSSCELLS = sorted((EXAMPLES / "crosscells").glob("*.txt"))
RULES = [{}, {"first_cell": "seeds"}, {"precedence": "standard"},
         {"first_cell": "seeds", "precedence": "standard"}]


def drawn(puzzles) -> list[str]:
    """Each puzzle's repr (its cells' places and texts too) and drawing: equal puzzles
    (== leaves out where tokens stand) that are also drawn alike."""
    return [repr(p) + p.render() for p in puzzles]


def piece_by_piece(text: str, **options) -> list[str] | tuple[str, int, int, str]:
    """The puzzles of `text` read piece by piece, or the error that says where reading
    stops: its message, line, column and line text."""
    try:
        return drawn([parse_piece(piece, **options) for piece in pieces(text, "crosscells")])
    except crossprolog.ParseError as error:
        return error.message, error.line, error.column, error.text


def read(text: str, **options) -> list[str] | tuple[str, int, int, str]:
    """The puzzles of `text` as `parse_all` reads them (or its error)."""
    try:
        return drawn(crossprolog.parse_all(text, "crosscells", **options))
    except crossprolog.ParseError as error:
        return error.message, error.line, error.column, error.text


def several(puzzles, shared: str = "") -> str:
    """One text of `puzzles`, as `crossprolog generate -n N` writes it."""
    return shared + "\n".join(f"== {n}\n{p.render()}\n" for n, p in enumerate(puzzles, start=1))


@pytest.mark.parametrize("rules", RULES)
def test_generated_puzzles_are_read_in_one_pass_as_piece_by_piece(rules):
    for size, seed in [(10, 1), (4, 7), (6, 3), (15, 2), (3, 5)]:
        made = list(crossprolog.generate("crosscells", size, size + seed % 3, n=4, seed=seed, **rules))
        text = several(made)
        at_once = read_all(text, PLAIN_SEPARATOR)
        assert at_once is not None, text  # the one pass takes every text `generate` writes
        assert drawn(at_once) == piece_by_piece(text) == read(text)
        assert at_once == made


def test_well_formed_puzzles_missing_constraints_are_read_in_one_pass():
    made = list(crossprolog.generate("crosscells", 4, 4, n=4, seed=11, well_formed=True))
    text = several(made)
    assert any(not row.tail for p in made for row in p.rows)  # some lines go without
    at_once = read_all(text, PLAIN_SEPARATOR)
    assert at_once is not None and drawn(at_once) == piece_by_piece(text) and at_once == made


def test_options_and_directives_of_the_whole_text_apply_as_piece_by_piece():
    made = list(crossprolog.generate("crosscells", 5, 5, n=3, seed=4))
    text = several(made, shared="# precedence: standard\n# a comment above the first puzzle\n\n")
    at_once = read_all(text, PLAIN_SEPARATOR)
    assert at_once is not None and {p.precedence for p in at_once} == {"standard"}
    assert drawn(at_once) == piece_by_piece(text)
    for options in ({"first_cell": "seeds"}, {"precedence": "left-to-right"}):
        at_once = read_all(text, PLAIN_SEPARATOR, **options)
        assert at_once is not None and drawn(at_once) == piece_by_piece(text, **options)
    assert read(text, first_cell="seeds") == piece_by_piece(text, first_cell="seeds")


@pytest.mark.parametrize("path", CROSSCELLS, ids=lambda path: path.stem)
def test_every_example_reads_as_piece_by_piece(path):
    text = path.read_text(encoding="utf-8")
    at_once = read_all(text, PLAIN_SEPARATOR)
    assert at_once is None or drawn(at_once) == piece_by_piece(text)
    assert read(text) == piece_by_piece(text)


def test_the_examples_drawn_as_grids_are_read_in_one_pass_and_the_others_not():
    taken = {path.stem for path in CROSSCELLS
             if read_all(path.read_text(encoding="utf-8"), PLAIN_SEPARATOR) is not None}
    # ragged rows, words and × fall back, as do the games whose numbers add
    assert taken == {"precedence", "random-10x10", "remainder"}
    grids = "\n".join(f"== {path.stem}\n{path.read_text(encoding='utf-8')}" for path in CROSSCELLS
                      if path.stem in taken)
    at_once = read_all(grids, PLAIN_SEPARATOR)
    assert at_once is not None and drawn(at_once) == piece_by_piece(grids)
    everything = "\n".join(f"== {path.stem}\n{path.read_text(encoding='utf-8')}" for path in CROSSCELLS)
    assert read_all(everything, PLAIN_SEPARATOR) is None
    assert read(everything) == piece_by_piece(everything)


TEN = several(crossprolog.generate("crosscells", 10, 10, n=3, seed=1))
LINES = TEN.split("\n")
DAMAGED = {  # a damaged text, and what the error says
    "a wrong token": (TEN.replace("+8 ", "+8? ", 1), "expected a cell"),
    "a division by 0": (TEN.replace("/3 ", "/0 ", 1), "division by 0"),
    "a total without its number": (TEN.replace("=14", "=", 1), "expected a cell"),
    "a bad separator": (TEN.replace("== 2", "=== 2"), "expected a cell"),
    "a constraint between cells": (TEN.replace("+8 ", "=8 ", 1), "not between cells"),
    "two totals at a row's end": (TEN.replace("=14", "=14 #3", 1), "already has a constraint"),
    "a column total between the rows": ("\n".join(LINES[:3] + ["=5"] + LINES[3:]), "between rows"),
    "a column total under two columns": (TEN.replace("\n#4   =35  ", "\n =123456  ", 1), "two columns"),
    "a group without cells": (TEN.replace("== 2", "a#3\n== 2"), "no cell is in group"),
    "a cell in two columns": (TEN.replace("/2   +9   +7", "+2222222  +7", 1), "fall in one column"),
    "an unknown directive": (TEN.replace("== 2", "== 2\n# frist-cell: seeds"), "unknown directive"),
    "a directive below the grid": (TEN.replace("== 3", "# precedence: standard\n== 3"), "above the grid"),
    "a number too long": (TEN.replace("=14", "=1" + "0" * 1000, 1), "at most"),
}


@pytest.mark.parametrize("damage", DAMAGED, ids=str)
def test_a_damaged_text_gives_the_error_piece_by_piece_gives(damage):
    text, said = DAMAGED[damage]
    assert read_all(text, PLAIN_SEPARATOR) is None
    error = piece_by_piece(text)
    assert isinstance(error, tuple) and said in error[0], error
    assert read(text) == error
    with pytest.raises(crossprolog.ParseError) as caught:
        crossprolog.parse_all(text, "crosscells")
    assert (caught.value.line, caught.value.column) == error[1:3]


def test_texts_it_does_not_take_are_left_to_the_piece_by_piece_reader():
    grid = "+1 -2 =3\n*2 +4 #1\n=1 #2\n"
    assert read_all(grid, PLAIN_SEPARATOR) is not None
    for other in [grid.replace("*2", "\u00d72"), grid.replace(" ", "\t"), grid.replace("\n", "\r\n"),
                  "```\n" + grid + "```\n", grid.replace("=3", "3 total"),
                  "+1 -2 =3\n  *2 +4 #1\n=1 #2\n", "# game: sumplete\n 1 2 3\n 3 4 7\n 4 6\n",
                  "# zero: yes\n" + grid, "", "== a\n\n== b\n"]:
        assert read_all(other, PLAIN_SEPARATOR) is None, other
        assert read(other) == piece_by_piece(other)
    for rules in ({"first_cell": True}, {"precedence": "standard "}, {"game": "sumplete"}):
        assert read_all(grid, PLAIN_SEPARATOR, **rules) is None  # the model would refuse them


# Random layouts: grids (aligned left or right, or a little off), constraints at either
# end of lines and columns, groups, comments and directives, several puzzles, and now
# and then a mistake.

ASCII_CELLS = ["+1", "-2", "*3", "x2", "/2", "%3", "+12a", "*2b", "-3a", "+4!", "-5~", "+2ab"]
ASCII_CONSTRAINTS = ["=3", "=-4", "#1", "#0", "=10"]
GROUPS = ["a#2", "b=5", "a=-1", "c#1"]
MISTAKES = ["/0", "#", "=", "+", "a", "?", "+1=2", "== x", "# note", "3 total"]
DIRECTIVES = ["# first-cell: seeds", "# precedence: standard", "# game: crosscells",
              "# game: sumplete", "# first-cell: never", "# frist-cell: seeds", "# a comment", "#"]


@st.composite
def puzzle_layouts(draw) -> str:
    """One puzzle: maybe directives, then a grid of cells with its constraints."""
    height, width = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    table = [[draw(st.sampled_from(ASCII_CELLS)) for _ in range(width)] for _ in range(height)]
    stride = max(len(token) for row in table for token in row) + draw(st.integers(1, 3))
    right = draw(st.booleans())

    def laid(tokens: list[str], indent: int = 0) -> str:
        line = " " * indent
        for token in tokens:
            line += token.rjust(stride) if right else token.ljust(stride)
            if draw(st.integers(0, 12)) == 0:
                line += " "  # a token a little off its column
        return line.rstrip()

    def constraint() -> list[str]:
        return draw(st.lists(st.sampled_from(ASCII_CONSTRAINTS + GROUPS[:1]), max_size=1))

    lines = draw(st.lists(st.sampled_from(DIRECTIVES), max_size=2))
    column_ends = [[draw(st.sampled_from(ASCII_CONSTRAINTS)) if draw(st.booleans()) else ""
                    for _ in range(width)] for _ in range(2)]
    heads = [constraint() for _ in range(height)]
    indent = (stride + 1) if any(heads) else 0
    if draw(st.booleans()):
        lines.append(laid(column_ends[0], indent))
    for row, head in zip(table, heads):
        head_text = (head[0].rjust(stride) + " ") if head else " " * indent
        lines.append((head_text + laid(row) + " " + " ".join(constraint())).rstrip())
    if draw(st.booleans()):
        lines.append(laid(column_ends[1], indent))
    lines += draw(st.lists(st.sampled_from(GROUPS), max_size=2))
    if draw(st.integers(0, 5)) == 0:
        n = draw(st.integers(0, len(lines) - 1))
        tokens = lines[n].split(" ")
        tokens[draw(st.integers(0, len(tokens) - 1))] = draw(st.sampled_from(MISTAKES))
        lines[n] = " ".join(tokens)
    return "\n".join(line for line in lines if line.strip() or draw(st.booleans()))


@st.composite
def texts(draw) -> str:
    puzzles = draw(st.lists(puzzle_layouts(), min_size=1, max_size=3))
    if len(puzzles) == 1 and draw(st.booleans()):
        return puzzles[0]
    head = draw(st.sampled_from(["", "# precedence: standard\n", "# a comment\n\n"]))
    return head + "\n".join(f"== {draw(st.sampled_from(['', 'x', 'puzzle 2']))}\n{p}\n"
                            for p in puzzles)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts(), st.sampled_from([{}, {"first_cell": "seeds"}, {"precedence": "standard"}]))
def test_random_layouts_read_in_one_pass_are_those_read_piece_by_piece(text, options):
    expected = piece_by_piece(text, **options)
    at_once = read_all(text, PLAIN_SEPARATOR, **options)
    if at_once is not None:
        assert drawn(at_once) == expected
    assert read(text, **options) == expected


def test_the_random_layouts_hold_some_read_in_one_pass_and_some_refused():
    """The property above is no vacuous truth: the layouts it draws include texts the one
    pass takes and texts no reader takes (found by Hypothesis's own search, not by chance)."""
    found = settings(max_examples=2000, database=None, suppress_health_check=list(HealthCheck))
    taken = find(texts(), lambda text: read_all(text, PLAIN_SEPARATOR) is not None, settings=found)
    refused = find(texts(), lambda text: isinstance(piece_by_piece(text), tuple), settings=found)
    assert drawn(read_all(taken, PLAIN_SEPARATOR)) == read(taken)
    assert isinstance(piece_by_piece(refused), tuple)


def test_many_seeds_of_every_rule_variant():
    rng = random.Random(23)
    for _ in range(20):
        rules = rng.choice(RULES)
        made = list(crossprolog.generate("crosscells", rng.randint(1, 8), rng.randint(1, 8),
                                         n=rng.randint(1, 3), seed=rng.randrange(10**6), **rules))
        text = several(made)
        at_once = read_all(text, PLAIN_SEPARATOR)
        assert at_once is not None and drawn(at_once) == piece_by_piece(text) and at_once == made
