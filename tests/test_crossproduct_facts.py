"""The CrossProduct facts of the notebooks (../shared/seed-puzzles.md), as examples."""

from __future__ import annotations

import pytest

from crossprolog import CrossProduct, engine
from crossprolog.crossproduct import fillings, random_puzzles, rows_by_fewest_fillings


def solve(rows, cols, **options):
    solution = CrossProduct(tuple(rows), tuple(cols), **options).solve()
    return None if solution is None else solution.values


def solutions(rows, cols, **options):
    return sorted(s.values for s in CrossProduct(tuple(rows), tuple(cols), **options).solutions())


# The three published puzzles


RIDDLERS = [
    ((135, 45, 64, 280, 70), (3000, 3969, 640), "395 591 818 578 572"),
    ((210, 144, 54, 135, 4, 49), (6615, 15552, 420), "765 982 392 593 141 717"),
    ((280, 168, 162, 360, 60, 256, 126), (183708, 245760, 117600), "785 387 963 985 354 488 927"),
]


def digits(rows: str):
    return tuple(tuple(int(d) for d in row) for row in rows.split())


@pytest.mark.parametrize("rows, cols, answer", RIDDLERS)
def test_published_puzzles_have_their_unique_solution(rows, cols, answer):
    assert solutions(rows, cols) == [digits(answer)]


@pytest.mark.parametrize("encoding", ["auto", "lines", "primes", "restarts", "rows", "fillings",
                                      "exponents", "chain"])
def test_every_encoding_finds_the_same_solution(encoding):
    puzzle = CrossProduct((210, 144, 54, 135, 4, 49), (6615, 15552, 420))
    assert [s.values for s in puzzle.solutions(encoding=encoding)] == [digits("765 982 392 593 141 717")]


# Fillings


def test_a_row_with_no_cells_has_one_filling_for_product_1_and_none_for_2():
    assert fillings(1, []) == [()]
    assert fillings(2, []) == []


def test_fillings_respect_column_products():
    assert fillings(9, [9]) == [(9,)]
    assert fillings(10, [10]) == []
    assert fillings(73, [360, 360, 360]) == []
    assert fillings(729, [90, 126, 81]) == [(9, 9, 9)]
    assert fillings(729, [90, 126, 81, 30]) == [(3, 9, 9, 3), (9, 3, 9, 3), (9, 9, 3, 3), (9, 9, 9, 1)]


def test_72_has_the_most_three_digit_fillings_under_2520():
    counts = {p: len(fillings(p, [2520] * 3)) for p in range(1, 100)}
    assert max(counts, key=counts.get) == 72
    expected = "189 198 249 266 294 338 346 364 383 429 436 463 492 626 634 643 662 819 833 891 918 924 942 981"
    assert fillings(72, [72] * 3) == list(digits(expected))


def test_fillings_without_column_limits():
    assert fillings(729, 3) == [(9, 9, 9)]
    assert len(fillings(729, 4)) == 10
    assert fillings(5 ** 5, 6) == [tuple(1 if i == j else 5 for i in range(6)) for j in range(6)]
    assert fillings(7 ** 8, [7] * 9) == [tuple(1 if i == j else 7 for i in range(9)) for j in range(9)]


def test_5040_over_six_columns_of_5040_has_3960_fillings():
    assert len(fillings(5040, [5040] * 6)) == 3960


def test_rows_ordered_by_fewest_fillings_keep_ties_in_order():
    puzzle = CrossProduct((10, 48, 36, 7, 32, 81, 252, 160, 21, 90), (193536, 155520, 793800))
    order = rows_by_fewest_fillings(puzzle)
    assert [puzzle.row_products[i] for i in order] == [7, 10, 160, 21, 81, 252, 90, 32, 48, 36]


# Small puzzles and edge cases


def test_puzzles_with_no_rows():
    assert solve([], []) == ()
    assert solve([], [1]) == ()
    assert solve([], [2]) is None


@pytest.mark.parametrize("encoding", engine.encodings("crossproduct") + ["asp", "minizinc"])
@pytest.mark.parametrize("rows, cols, count", [
    ((), (), 1), ((), (1,), 1), ((), (2,), 0), ((), (None,), 1),
    ((1,), (), 1), ((2,), (), 0), ((None,), (), 1), ((None, 1), (), 1)])
def test_every_encoding_counts_a_grid_of_no_cells_alike(encoding, rows, cols, count):
    """A grid of no cells has one solution when every known product is 1: primes found
    none, and restarts, lines and auto (a product unknown) searched forever; MiniZinc's
    answer to a row of no cells was [], not [[]]."""
    assert CrossProduct(rows, cols).count(timeout=30, encoding=encoding) == count


def test_one_cell_puzzles():
    assert solve([5], [5]) == ((5,),)
    assert solve([0], [0]) is None


def test_two_by_two():
    assert solve([2, 12], [3, 8]) == ((1, 2), (3, 4))


def test_8_8_1_has_four_solutions_and_8_8_2_none():
    assert solutions([8, 8, 1], [8, 8, 1]) == sorted(digits(s) for s in [
        "181 811 111", "241 421 111", "421 241 111", "811 181 111"])
    assert solutions([8, 8, 1], [8, 8, 2]) == []


def test_four_columns():
    assert solutions([1470, 720, 270, 945, 12, 343], [6615, 15552, 420, 25725]) == [
        digits("7657 9825 3925 5937 1413 7177")]


def test_a_table_gives_back_its_puzzle():
    puzzle = CrossProduct.from_table(digits("123 456 789"))
    assert (puzzle.row_products, puzzle.column_products) == ((6, 120, 504), (28, 80, 162))
    assert puzzle.well_formed()
    assert puzzle.solve().values == digits("123 456 789")


def test_well_formed_or_not():
    assert not CrossProduct((7, 7), (7, 7)).well_formed()
    assert CrossProduct((64, 224, 189, 270, 405, 144, 105), (308700, 12960, 1119744)).well_formed()


def test_givens_pin_digits():
    givens = ((2, None, None), (None, None, None), (None, None, None))
    puzzle = CrossProduct((8, 8, 1), (8, 8, 1), givens)
    assert [s.values for s in puzzle.solutions()] == [digits("241 421 111")]


def test_zero_digits_allow_zero_products():
    assert solve([0], [0], zero=True) == ((0,),)
    assert solve([0], [0]) is None


@pytest.mark.parametrize("encoding", ["lines", "primes", "restarts", "exponents", "chain"])
def test_zero_digits_give_the_same_solutions_in_every_encoding_that_takes_them(encoding):
    puzzle = CrossProduct((0, 6, 0), (0, 6, 8), zero=True)
    found = sorted(s.values for s in puzzle.solutions(encoding=encoding))
    assert found == sorted(s.values for s in puzzle.solutions(encoding="fillings"))
    assert len(found) > 10


def test_a_product_beyond_what_its_cells_can_make_is_no_solution_at_once():
    """(2*3*5*7)^300 needs 300 7s: no line of three cells makes it, and the lines
    encoding says so without holding its 301^4 states."""
    huge = (2 * 3 * 5 * 7) ** 300
    found = CrossProduct((huge,), (huge, 1, 1)).search(encoding="lines", timeout=10)
    assert found.status == "complete" and not found.solutions


def test_a_line_of_too_many_states_is_solved_the_restarts_way():
    """An 80-cell row of 2^60 3^40 5^20 7^20 has 61 x 41 x 21 x 21 states, more than the
    lines encoding holds: it states that puzzle as restarts does, with the same answer."""
    product = 2**60 * 3**40 * 5**20 * 7**20
    puzzle = CrossProduct((product,), (8,) * 20 + (9,) * 20 + (5,) * 20 + (7,) * 20)
    found = [s.values for s in puzzle.solutions(encoding="lines")]
    assert found == [s.values for s in puzzle.solutions(encoding="restarts")] == [
        ((8,) * 20 + (9,) * 20 + (5,) * 20 + (7,) * 20,)]


def test_zero_lines_hold_a_zero_and_other_lines_none():
    found = solutions([0, 6], [0, 6], zero=True)
    assert found, "a solution exists: 0 0 / 1 6"
    for (a, b), (c, d) in found:
        assert 0 in (a, b) and 0 in (a, c)
        assert c * d == 6 and b * d == 6


# Seeded random puzzles


def test_seed_42_gives_the_notebooks_10x6_puzzle():
    [puzzle] = random_puzzles(10, 6, 1, seed=42)
    assert puzzle.row_products == (480, 252, 2592, 40320, 1890, 1344, 12960, 7560, 320, 13440)
    assert puzzle.column_products == (24576, 979776, 274400, 2177280, 1792000, 524880)


def test_the_seed_42_10x6_puzzle_solves_to_a_table_with_its_products():
    [puzzle] = random_puzzles(10, 6, 1, seed=42)
    solution = CrossProduct.from_table(puzzle.solve().values)
    assert solution == puzzle


@pytest.mark.parametrize("size, share", [((3, 3), "33%"), ((3, 4), "18%"), ((4, 3), "14%"),
                                         ((3, 5), "8%"), ((5, 3), "2%"), ((4, 4), "4%"),
                                         ((6, 3), "0%")])
def test_share_of_well_formed_random_puzzles_matches_the_notebook(size, share):
    puzzles = random_puzzles(*size, 200, seed=42)
    assert f"{sum(p.well_formed() for p in puzzles) / 200:.0%}" == share


# The heavy tail: restarts


def test_restarts_follow_the_luby_sequence():
    terms = engine.call("numlist(1, 16, Is), maplist(restarts:luby, Is, Ls)", {},
                        module="crossproduct")["Ls"]  # loads the shared restarts module beside it
    assert terms == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1]


def test_each_attempt_shuffles_the_cells_its_own_way():
    goal = "numlist(1, 30, _L), findall(_S, (between(1, 8, _K), restarts:shuffled(_K, _L, _S)), Ss)"
    orders = engine.call(goal, {}, module="crossproduct")["Ss"]
    assert all(sorted(order) == list(range(1, 31)) for order in orders)
    assert len(set(map(tuple, orders))) == 8


def test_restarts_on_a_tiny_budget_still_give_every_solution_once():
    puzzle = CrossProduct((24, 24, 6), (24, 24, 6))
    goal = ("crossproduct:model(restarts, P, _Rows, restarts(_, _Cells, _)), "
            "findall(_Rows, crossproduct:restarts(U, _Cells, _Rows), All)")
    expected = sorted(s.values for s in puzzle.solutions(encoding="rows"))
    assert len(expected) > 20
    for unit in (50, 500, 100_000):
        found = engine.call(goal, {"P": puzzle.prolog_data(), "U": unit}, module="crossproduct")["All"]
        assert sorted(tuple(map(tuple, rows)) for rows in found) == expected


def test_the_17th_seed_3_12x8_puzzle_takes_the_default_a_fraction_of_a_second():
    puzzle = list(random_puzzles(12, 8, 20, seed=3))[16]
    assert puzzle.column_products[:2] == (29859840, 1200225600)
    for limit in (1, 2):
        search = puzzle.search(limit=limit, timeout=20)
        assert (search.status, search.count) == ("limit", limit)
        assert search.inferences < 3_000_000      # primes alone runs past 20 s
    solution = puzzle.solve()
    assert CrossProduct.from_table(solution.values) == puzzle
