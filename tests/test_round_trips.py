"""Every drawing a command prints reads back in, for generated puzzles of every family,
layout and game.

A puzzle drawn reads back as itself; a solution (`solve`) as the puzzle with every
cell decided as the solution has it (digits given; CrossCells' cells marked ON or
OFF); a hint (`hint`, its reasons and all) as the puzzle with the cells it decided
placed.  Digits a solver placed and CrossCells' marks are part of what is drawn, so
the hints are asked of puzzles half filled in.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crossprolog
from crossprolog.crosscells import random_solved
from crossprolog.puzzle import Puzzle

from test_parse_properties import crosscells_texts

SEEDS = (1, 2, 3)
# (family, rows, cols, options, how the generated puzzle is redrawn: its layout, or a form)
VARIANTS = [
    ("crossproduct", 4, 3, {}, {}),
    ("crossproduct", 3, 4, {}, {"layout": "markdown"}),
    ("crosscells", 4, 4, {}, {}),
    ("crosscells", 4, 4, {"first_cell": "seeds"}, {}),
    ("crosscells", 4, 4, {"precedence": "standard"}, {"layout": "markdown"}),
    ("crosscells", 4, 4, {"game": "sumplete"}, {}),
    ("crosscells", 4, 4, {"game": "number-sums"}, {}),
    ("crosscells", 4, 4, {"game": "number-sums"}, {"layout": "markdown"}),
    ("sudoku", 9, 9, {}, {}),
    ("sudoku", 9, 9, {}, {"written": "compact", "unknown": "?", "boxes": False}),
    ("kenken", 4, 4, {}, {}),
    ("kenken", 4, 4, {}, {"compact": True}),
    ("kenken", 5, 5, {}, {"drawn": True}),
]
CASES = [pytest.param(*variant, seed, id=f"{variant[0]}-{n}-{seed}")
         for n, variant in enumerate(VARIANTS) for seed in SEEDS]


def cells_of(grid: list[list[int]]) -> dict[tuple[int, int], int]:
    """A solution as JSON has it, by cell."""
    return {(r, c): value for r, row in enumerate(grid) for c, value in enumerate(row)}


def half_filled(puzzle: Puzzle, solution: dict[tuple[int, int], int], seed: int) -> Puzzle:
    """`puzzle` with half its open cells decided as `solution` has them."""
    open_cells = puzzle.open_cells()
    chosen = random.Random(seed).sample(open_cells, len(open_cells) // 2)
    return puzzle.placing({cell: solution[cell] for cell in chosen})


@pytest.mark.parametrize("family, rows, cols, options, form, seed", CASES)
def test_every_drawing_of_a_generated_puzzle_reads_back_in(cli, write, family, rows, cols, options,
                                                           form, seed):
    [made] = crossprolog.generate(family, rows, cols, n=1, seed=seed, well_formed=True, **options)
    puzzle = replace(made, **form)
    solution = cells_of(puzzle.solve().to_json())
    half = half_filled(puzzle, solution, seed)
    for format in ("text", "markdown"):
        for drawn in (puzzle, half):
            assert crossprolog.parse(drawn.render(format=format)) == drawn, format
        solved = cli("solve", write(puzzle.render()), "--format", format)
        assert solved.code == 0, solved.err
        assert crossprolog.parse(solved.out) == puzzle.placing(solution), solved.out
        hinted = cli("hint", write(half.render()), "--format", format)
        assert hinted.code == 0, hinted.err
        again = crossprolog.parse(hinted.out)
        decided = set(half.open_cells()) - set(again.open_cells())
        assert decided and again == half.placing({cell: solution[cell] for cell in decided}), hinted.out


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_every_hint_on_a_file_of_number_sums_reads_back_in(cli, write, seed):
    """The issue's case: region targets drawn glued together (`c=6d=17`) in 6 of 20."""
    made = cli("generate", "crosscells", "--game", "number-sums", "--rows", "4", "--cols", "4",
               "--well-formed", "-n", "20", "--seed", seed)
    puzzles = crossprolog.parse_all(made.out)
    hinted = cli("hint", write(made.out))
    assert hinted.code == 0
    again = crossprolog.parse_all(hinted.out)
    assert len(again) == len(puzzles) == 20
    for before, after in zip(puzzles, again):
        decided = set(before.open_cells()) - set(after.open_cells())
        assert len(decided) == 1 and after == before.placing(
            {cell: cells_of(before.solve().to_json())[cell] for cell in decided})


def test_a_number_sums_text_with_tabs_is_hinted_and_solved_in_its_columns(cli, write):
    """Tabs stop every 8 columns: a row typed with one stands apart from the others, and
    the target must still be drawn at its row's end."""
    text = ("# game: number-sums\n 1a\t3a  5b  4b  13\n 3a  7a  9b\t9b  12\n 9c  1c  6d  6d  16\n"
            " 7c  9c -1d -3d   6\n 13  13   5  16\na=7 b=18 c=19 d=3\n")
    puzzle = crossprolog.parse(text)
    solution = cells_of(puzzle.solve().to_json())
    hinted = cli("hint", write(text), "--all")
    lines = hinted.out.splitlines()
    rows = lines[lines.index("# game: number-sums") + 1:][:4]
    assert [row.split()[-1] for row in rows] == ["13", "12", "16", "6"]
    again = crossprolog.parse(hinted.out)
    assert not again.open_cells() and again == puzzle.placing(solution)
    assert crossprolog.parse(cli("solve", write(text)).out) == puzzle.placing(solution)


# Marks in any drawing, without a search: every cell decided or not, at random

QUICK = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def decided_at_random(puzzle, data) -> Puzzle:
    cells = puzzle.open_cells()
    chosen = data.draw(st.lists(st.sampled_from(cells), unique=True)) if cells else []
    return puzzle.placing({cell: data.draw(st.integers(0, 1)) for cell in chosen})


@QUICK
@given(crosscells_texts(), st.data())
def test_crosscells_drawings_with_decided_cells_read_back(drawn, data):
    """Marks take room: the drawing moves tokens apart, and must keep every one in its
    row, its column and its line."""
    puzzle = decided_at_random(crossprolog.parse(drawn[0]), data)
    for format in ("text", "markdown"):
        assert crossprolog.parse(puzzle.render(format=format), family="crosscells") == puzzle


@QUICK
@given(st.sampled_from(["sumplete", "number-sums"]), st.integers(1, 5), st.integers(1, 5),
       st.integers(0, 2 ** 32), st.data())
def test_sums_drawings_with_decided_cells_read_back(game, rows, cols, seed, data):
    puzzle, _ = random_solved(rows, cols, random.Random(seed), game=game)
    puzzle = decided_at_random(puzzle, data)
    for format in ("text", "markdown"):
        assert crossprolog.parse(puzzle.render(format=format)) == puzzle


LONG = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@LONG
@given(crosscells_texts(), st.data())
def test_crosscells_drawings_with_decided_cells_read_back_at_length(drawn, data):
    test_crosscells_drawings_with_decided_cells_read_back.hypothesis.inner_test(drawn, data)


@pytest.mark.slow
@LONG
@given(st.sampled_from(["sumplete", "number-sums"]), st.integers(1, 5), st.integers(1, 5),
       st.integers(0, 2 ** 32), st.data())
def test_sums_drawings_with_decided_cells_read_back_at_length(game, rows, cols, seed, data):
    test_sums_drawings_with_decided_cells_read_back.hypothesis.inner_test(game, rows, cols, seed, data)
