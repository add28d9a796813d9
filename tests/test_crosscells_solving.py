"""CrossCells rules, as examples: the game's semantics, the variant, encodings, generator, baseline."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

import crossprolog
from crossprolog import engine
from crossprolog.crosscells import CrossCells, random_puzzles
from conftest import EXAMPLES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import crosscells_baseline  # noqa: E402

PUZZLE_25 = (EXAMPLES / "crosscells" / "puzzle-25.txt").read_text()
PUZZLE_25_SOLUTION = ((0, 1, 0, 1), (1, 0, 1, 1), (1, 1, 0, 1, 0, 0, 1, 0), (1, 1, 0, 0), (1, 0, 0, 1))
ENCODINGS = ["masks", "restarts", "states", "states_ffc", "fold", "reified"]


def parse(text: str, **options) -> CrossCells:
    return crossprolog.parse(text, family="crosscells", **options)


def solutions(text: str, **options) -> list[tuple]:
    """Every solution of `text`, as rows of 0/1, sorted."""
    return sorted(s.values for s in parse(text, **options).solutions())


# Puzzle 25


def test_puzzle_25_has_one_solution():
    puzzle = parse(PUZZLE_25)
    assert puzzle.solve().values == PUZZLE_25_SOLUTION
    assert puzzle.well_formed()


def test_puzzle_25_without_its_group_constraint_has_two():
    without_group = PUZZLE_25.replace("a#6", "")
    assert solutions(without_group) == sorted([
        PUZZLE_25_SOLUTION,
        ((0, 1, 0, 1), (1, 1, 0, 1), (1, 1, 0, 1, 0, 0, 1, 0), (1, 0, 0, 1), (1, 0, 1, 0))])


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_solves_puzzle_25(encoding):
    puzzle = parse(PUZZLE_25)
    assert [s.values for s in puzzle.solutions(encoding=encoding)] == [PUZZLE_25_SOLUTION]


# The rules, one at a time: value starts at 0, ON cells apply in order, OFF cells skip


def test_adding():
    assert solutions("+3 +4 +5 =9") == [((0, 1, 1),)]


def test_subtracting_and_negative_totals():
    assert solutions("+5 -2 -3 =3") == [((1, 1, 0),)]
    assert solutions("-3 +1 -4 =-7") == [((1, 0, 1),)]


def test_multiplying_applies_in_order_without_precedence():
    assert solutions("+1 +2 *4 +2 =14") == [((1, 1, 1, 1),)]  # ((1+2)*4)+2
    assert solutions("+2 *3 *5 =30") == [((1, 1, 1),)]


def test_a_line_starts_at_zero_so_a_leading_product_is_zero():
    assert solutions("*3 +2 =2") == [((0, 1),), ((1, 1),)]
    assert solutions("*3 +2 =5") == []


def test_division_must_be_exact():
    assert solutions("+6 /3 =2") == [((1, 1),)]
    assert solutions("+7 /2 =3") == []  # 7/2 is no choice at all, not 3
    assert solutions("-6 /3 =-2") == [((1, 1),)]


def test_only_a_total_divides_so_a_line_of_a_count_alone_has_no_division_to_be_exact():
    """Exactness is a total's: a line read by no total has no value (and no direction)."""
    assert solutions("+3 /2 #2") == [((1, 1),)]
    assert solutions("+3 /2 =1") == []


def test_counts_count_on_cells():
    assert len(solutions("+1 +2 +3 #2")) == 3
    assert solutions("+1 +2 +3 #4") == []


def test_a_total_before_a_row_reads_it_right_to_left():
    assert solutions("=5 +2 *3 +1") == [((1, 1, 1),)]  # (1*3)+2
    assert solutions("+2 *3 +1 =5") == []  # left to right gives 7 with all on


def test_a_total_above_a_column_reads_it_bottom_to_top():
    assert solutions(" =5\n +2\n *3\n +1\n") == [((1,), (1,), (1,))]
    assert solutions(" +2\n *3\n +1\n =5\n") == []


def test_constraints_at_both_ends_must_both_hold():
    assert solutions("=5 +2 *3 +1 =7") == [((1, 1, 1),)]
    assert solutions("=3 +2 *3 +1 =7") == []


def test_a_group_total_reads_its_cells_in_reading_order():
    assert solutions("+3a +0\n*2a +0\na=6\n").count(((1, 1), (1, 1))) == 1
    assert solutions("+3a\n*2a\na=6\n") == [((1,), (1,))]  # 3*2, not 0*2+3


def test_the_layout_examples_each_have_one_solution():
    for name in ("both-ends.txt", "ragged.txt", "puzzle-25.txt"):
        assert parse((EXAMPLES / "crosscells" / name).read_text()).count(limit=2) == 1, name


# The variant: the first ON cell seeds the value with its number


def test_with_seeds_the_first_on_cell_sets_the_value_whatever_its_operator():
    assert solutions("*3 +2 =5", first_cell="seeds") == [((1, 1),)]
    assert solutions("-4 +1 =5", first_cell="seeds") == [((1, 1),)]
    assert solutions("/4 *2 =8", first_cell="seeds") == [((1, 1),)]
    assert solutions("=5 +2 *3 +1", first_cell="seeds") == [((1, 1, 0),), ((1, 1, 1),)]  # 3+2 too


def test_the_rule_travels_to_prolog_as_data():
    assert parse("*3 +2 =5", first_cell="seeds").prolog_data()["first_cell"] == "seeds"


# Encodings agree, the baseline agrees, the generator's puzzles hold


def small_puzzles():
    zero = list(random_puzzles(4, 4, 6, seed=3)) + list(random_puzzles(3, 5, 4, seed=4))
    return zero + [replace(p, first_cell="seeds") for p in zero[:4]]


def test_every_encoding_finds_the_same_solutions():
    for puzzle in small_puzzles():
        found = {e: sorted(s.values for s in puzzle.solutions(encoding=e)) for e in ENCODINGS}
        assert all(found[e] == found["states"] for e in ENCODINGS), puzzle.render()
        assert all(puzzle.holds(puzzle.ons(s)) for s in puzzle.solutions())


def test_the_plain_python_baseline_agrees():
    for puzzle in small_puzzles() + [parse(PUZZLE_25)]:
        answer = crosscells_baseline.solve(puzzle)
        every = [list(map(list, s.values)) for s in puzzle.solutions()]
        assert (answer is None) == (not every) and (answer is None or answer in every)


def test_generated_puzzles_are_seeded_solvable_and_sane():
    first = list(random_puzzles(6, 7, 5, seed=11))
    assert first == list(random_puzzles(6, 7, 5, seed=11))
    assert first != list(random_puzzles(6, 7, 5, seed=12))
    for puzzle in first:
        assert len(puzzle.rows) == 6 and all(len(row.cells) == 7 for row in puzzle.rows)
        assert all(line.tail for line in puzzle.rows + puzzle.columns)
        assert all(abs(c.value) < 10_000 for c in puzzle.constraints())
        assert parse(puzzle.render()) == puzzle
        assert puzzle.solve() is not None


def test_ten_by_ten_with_every_line_constrained_solves_fast():
    engine.encodings("crosscells")  # loaded before the timing
    for puzzle in random_puzzles(10, 10, 3, seed=5):
        found = puzzle.search(limit=1)
        assert found.solutions and found.cpu < 1.0
        assert puzzle.holds(puzzle.ons(found.solutions[0]))


# The heavy tail: restarts


@pytest.mark.parametrize("name", ["both-ends.txt", "ragged.txt", "puzzle-25.txt"])
def test_restarts_agree_with_states_on_the_examples(name):
    puzzle = parse((EXAMPLES / "crosscells" / name).read_text())
    found = {e: sorted(s.values for s in puzzle.solutions(encoding=e)) for e in ("restarts", "states")}
    assert found["restarts"] == found["states"] != []


@pytest.mark.slow
def test_restarts_count_every_solution_of_the_random_example_once():
    """10,335 solutions: restarts counts them in about half the time states takes (3 s against 6 s)."""
    puzzle = parse((EXAMPLES / "crosscells" / "random-10x10.txt").read_text())
    assert puzzle.count(encoding="restarts") == puzzle.count(encoding="states") == 10_335


def restarted_solutions(puzzle: CrossCells, unit: int) -> list[tuple]:
    """Every solution the restarts labeling gives with budgets of `unit` inferences, as flat 0/1 tuples."""
    goal = ("crosscells:model(restarts, P, _Ons, restarts(_, _Lines, _)), "
            "findall(_Ons, crosscells:restarts(U, _Lines, _Ons), All)")
    return [tuple(ons) for ons in engine.call(goal, {"P": puzzle.prolog_data(), "U": unit},
                                              module="crosscells")["All"]]


def several_solutions():
    yield parse(PUZZLE_25.replace("a#6", ""))
    yield parse("+1 +2 +3 +4 #2\n+2 +1 +4 +3 =5\n")
    yield next(p for p in random_puzzles(5, 5, 40, seed=7) if 3 <= p.count(limit=50, encoding="states") < 50)


@pytest.mark.parametrize("unit", [20, 300, 10_000_000])
def test_restarts_on_a_tiny_budget_still_give_every_solution_once(unit):
    for puzzle in several_solutions():
        expected = sorted(tuple(puzzle.ons(s)) for s in puzzle.solutions(encoding="states"))
        assert len(expected) >= 2
        found = restarted_solutions(puzzle, unit)
        assert sorted(found) == expected and len(set(found)) == len(found)


@pytest.mark.parametrize("rows, cols, n, seed, tail, bound", [(10, 10, 20, 1, [4, 9, 11], 1_200_000),
                                                             (15, 15, 10, 1, [3], 12_000_000)])
def test_the_tail_of_the_seed_1_sets_solves_within_a_second(rows, cols, n, seed, tail, bound):
    """states takes 7.6 s on the 5th seed-1 10x10 puzzle and over 10 s on the others here.

    Inferences stand in for time: about 12 million a second here, so the
    10x10 bound is a tenth of a second, the 15x15 one a second.
    """
    puzzles = list(random_puzzles(rows, cols, n, seed))
    for i in tail:
        for limit in (1, 2):
            search = puzzles[i].search(limit=limit, timeout=30)
            assert (search.status, search.count) == ("limit", limit)
            assert search.inferences < bound
        assert puzzles[i].holds(puzzles[i].ons(puzzles[i].solve()))


def test_unsolvable_layouts_have_no_solution():
    assert parse("+1 +2 =4").solve() is None
    assert parse("+1 +2 =3\n#0\n").count() == 0
    assert parse("+1a +2a =3\na#1\n").solve() is None


# Hostile text stays data


def test_prolog_and_shell_payloads_are_data_or_parse_errors(tmp_path):
    marker = tmp_path / "pwned"
    comment = f"# '), shell('touch {marker}'), halt. $(touch {marker}) `touch {marker}`\n"
    puzzle = parse(comment + "+1 +2 =3\n")
    assert puzzle.solve().values == ((1, 1),)
    for payload in ("a'),halt.#1", f"+1;shell('touch {marker}')", "+1 =3 x\"),halt.%"):
        with pytest.raises(crossprolog.ParseError):
            parse("+1 +2 =3\n" + payload)
    data = parse("+1a *2a =2\na#2\n").prolog_data()
    assert data["cells"] == [["+", 1], ["*", 2]]  # groups are resolved to cells in Python
    assert data["lines"] == [{"cells": [0, 1], "kind": "=", "value": 2},
                             {"cells": [0, 1], "kind": "#", "value": 2}]
    assert not marker.exists()
