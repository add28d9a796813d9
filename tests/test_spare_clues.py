"""For makers: whether a well-formed puzzle's clues are all needed (`check --minimal`,
`making.spare_clues`), against the brute forces of test_makers.py where a family has one."""

from __future__ import annotations

import random
import time

import pytest

import crossprolog
from crossprolog import making

from conftest import EXAMPLES
from test_makers import solutions

ESCARGOT = (EXAMPLES / "sudoku" / "ai-escargot.txt").read_text()
# AI Escargot with two more givens of its solution, 6 and 2 in row 1: each could go again,
# and so could the 3 of row 2 once both are there.
FILLED_IN = ESCARGOT.replace("1 . . | . . 7 | . 9 .", "1 6 2 | . . 7 | . 9 .")


def with_more_givens(puzzle, n: int, seed: int):
    """`puzzle` with `n` more of its one solution's cells given."""
    solution = puzzle.solve().values
    rng = random.Random(seed)
    cells = rng.sample(sorted(puzzle.open_cells()), n)
    return puzzle.placing({cell: solution[cell[0]][cell[1]] for cell in cells})


@pytest.mark.parametrize("family, rows, cols", [("crossproduct", 3, 3), ("crossproduct", 4, 2),
                                                ("crosscells", 3, 4), ("kenken", 4, 4)])
def test_a_spare_clue_is_one_whose_leaving_out_alone_leaves_one_solution(family, rows, cols):
    """Checked by brute force for every clue a maker may hide, of well-formed puzzles
    with more givens than they need (some of them spare, and some that were needed)."""
    spare_seen = needed_seen = 0
    for n, puzzle in enumerate(crossprolog.generate(family, rows, cols, 3, seed=2, well_formed=True)):
        puzzle = with_more_givens(puzzle, 2, seed=n)
        spare = set(making.spare_clues(puzzle))
        for clue in puzzle.clues():
            rest = puzzle.keeping([c for c in puzzle.clues() if c != clue])
            alone = puzzle.hideable(clue) and len(solutions(rest)) == 1
            assert (clue in spare) == alone, (clue.text, str(puzzle))
            spare_seen, needed_seen = spare_seen + alone, needed_seen + (not alone)
    assert spare_seen and needed_seen


def test_the_spare_clues_of_a_puzzle_with_an_objective_are_those_of_its_best_grids():
    """Its solutions are the grids of the greatest GCD: a question restricted to grids
    apart from the intended one asked for the best of those, a worse grid (an answer
    that was not one, after minutes of search); each clue is asked of the puzzle
    without it, as counting it is."""
    puzzle = crossprolog.parse((EXAMPLES / "sudoku" / "gcd-2025-01.txt").read_text())
    assert puzzle.optimizes and not crossprolog.parse(ESCARGOT).optimizes
    spare = making.spare_clues(puzzle, timeout=120)
    counted = [clue for clue in puzzle.clues()
               if puzzle.keeping([c for c in puzzle.clues() if c != clue]).count(2) == 1]
    assert spare == counted and 0 < len(spare) < len(puzzle.clues())


@pytest.mark.parametrize("family, rows, cols", [("crossproduct", 4, 3), ("crosscells", 4, 4),
                                                ("sudoku", 9, 9), ("killer_sudoku", 4, 4),
                                                ("kakuro", 6, 6)])
def test_a_generated_well_formed_puzzle_has_no_clue_to_spare(family, rows, cols):
    for puzzle in crossprolog.generate(family, rows, cols, 2, seed=5, well_formed=True):
        assert making.spare_clues(puzzle) == []


def test_only_what_a_maker_may_hide_is_ever_spare():
    """A CrossProduct's products and a Killer Sudoku's cages make the puzzle what it is:
    never spare, though the solution may stay unique without one."""
    [puzzle] = crossprolog.generate("crossproduct", 4, 3, 1, seed=5, well_formed=True)
    puzzle = with_more_givens(puzzle, 3, seed=1)
    assert all(clue.kind == "given" for clue in making.spare_clues(puzzle))
    assert any(puzzle.keeping([c for c in puzzle.clues() if c != clue]).count(2) == 1
               for clue in puzzle.clues() if clue.kind != "given")


def test_spare_clues_of_a_puzzle_with_several_solutions_or_none_are_refused():
    with pytest.raises(crossprolog.UsageError, match="more than one solution"):
        making.spare_clues(crossprolog.parse("2 2\n? ? 2\n? ? 2\n"))
    with pytest.raises(crossprolog.UsageError, match="no solution"):
        making.spare_clues(crossprolog.parse("3 2\n? ? 2\n? ? 2\n"))


def test_a_question_past_the_time_is_undecided_not_answered():
    puzzle = crossprolog.parse(FILLED_IN)
    with pytest.raises(crossprolog.TimeLimitExceeded):
        making.spare_clues(puzzle, puzzle.solve().to_json(), timeout=1e-9)


def test_check_minimal_names_and_marks_the_spare_clues(cli, write):
    done = cli("check", "--minimal", write(FILLED_IN))
    first, *drawing = done.out.splitlines()
    assert done.code == 1 and first == (
        "well-formed, not minimal: exactly one solution, which stays the only one with any one of "
        "these 3 clues left out (in brackets): the 6 at row 1, column 2; the 2 at row 1, column 3; "
        "the 3 at row 2, column 2")
    assert drawing[:2] == ["1 [6] [2] | . . 7 | . 9 .", ". [3] . | . 2 . | . . 8"]
    record = cli("check", "--minimal", write(FILLED_IN), "--format", "json").json()
    assert record["well_formed"] is True and record["minimal"] is False and record["status"] == "unique"
    assert record["spare"] == [{"kind": "given", "row": 0, "col": 1}, {"kind": "given", "row": 0, "col": 2},
                               {"kind": "given", "row": 1, "col": 1}]


def test_check_minimal_of_a_minimal_puzzle_and_of_one_not_well_formed(cli, write):
    done = cli("check", "--minimal", write(ESCARGOT))
    assert done.code == 0 and done.out == "well-formed and minimal: exactly one solution, and no clue to spare\n"
    assert cli("check", "--minimal", write(ESCARGOT), "--format", "json").json()["minimal"] is True
    several = cli("check", "--minimal", write("2 2\n? ? 2\n? ? 2\n"), "--format", "json")
    assert several.code == 1 and several.json()["minimal"] is None and "spare" not in several.json()
    assert "minimal" not in cli("check", write(ESCARGOT), "--format", "json").json()
    assert cli("check", write(FILLED_IN)).out == "well-formed: exactly one solution\n"  # not asked


def test_a_minimal_check_s_seconds_count_the_search_for_spare_clues(cli, write, monkeypatch):
    real = making.spare_clues

    def slow(*args, **kwargs):
        time.sleep(0.3)
        return real(*args, **kwargs)
    monkeypatch.setattr(making, "spare_clues", slow)
    record = cli("check", "--minimal", write(FILLED_IN), "--format", "json").json()
    assert record["minimal"] is False and record["seconds"] >= 0.3


def test_a_batch_s_summary_counts_the_minimal_and_the_not_minimal(cli, write, tmp_path):
    """Not minimal is still unique: the summary of --out tells the two apart."""
    files = [write(FILLED_IN, "filled.txt"), write(ESCARGOT, "escargot.txt"),
             write("2 2\n? ? 2\n? ? 2\n", "several.txt")]
    out = tmp_path / "records.jsonl"
    done = cli("check", "--minimal", *files, "--out", out)
    assert done.code == 1
    assert done.out == f"{out}: 3 records (2 unique, 1 several; 1 minimal, 1 not minimal)\n"


def test_a_sumplete_s_or_number_sums_totals_are_never_spare_their_decided_cells_may_be():
    """Their layouts show every line's and region's total: one left out does not read back."""
    for name in ("sumplete.txt", "number-sums.txt"):
        puzzle = crossprolog.parse((EXAMPLES / "crosscells" / name).read_text())
        assert making.spare_clues(puzzle) == []
        filled = with_more_givens(puzzle, 2, seed=1)
        spare = making.spare_clues(filled)
        assert spare and all(clue.kind == "given" for clue in spare)
        for clue in spare:
            assert crossprolog.parse(filled.keeping([c for c in filled.clues() if c != clue]).render()).count(2) == 1


def test_spare_clues_are_sought_with_the_encoding_asked():
    puzzle = crossprolog.parse(FILLED_IN)
    assert making.spare_clues(puzzle, encoding="distinct") == making.spare_clues(puzzle)
    with pytest.raises(crossprolog.CrossprologError, match="unknown encoding 'tables'"):
        making.spare_clues(puzzle, encoding="tables")
