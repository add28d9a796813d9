"""The ASP (clingo) and MiniZinc (Gecode) encodings against the brute forces, under every
rule variant, and on the puzzles whose answers are known.

Real solvers, no stand-ins: clingo through its Python package, minizinc as a
program.  The brute forces and random puzzles are those of test_brute_force.py
and test_crosscells_variants.py, which share no code with crossprolog.
MiniZinc starts a process per search (about a quarter of a second), so it gets
fewer random puzzles than clingo.
"""

from __future__ import annotations

import pytest

import crossprolog
import test_brute_force as brute
import test_crosscells_variants as variants
from crossprolog import engine
from crossprolog.sudoku import DigitSet

from conftest import EXAMPLES

PARADIGMS = ["asp", "minizinc"]
HOW_MANY = {"asp": 15, "minizinc": 5}  # random puzzles per family and variant


def solutions(puzzle, encoding: str) -> set:
    """Every answer `encoding` finds, as the brute forces give them."""
    found = puzzle.search(encoding=encoding, timeout=60)
    answers = [getattr(s.values, "grid", s.values) for s in found.solutions]
    assert found.status == "complete", (encoding, found.status)
    assert len(answers) == len(set(answers)), "an answer given twice"
    return set(answers)


def agree(puzzles, brute_force, encoding: str) -> None:
    for puzzle in puzzles:
        assert solutions(puzzle, encoding) == brute_force(puzzle), (encoding, puzzle)


@pytest.mark.parametrize("encoding", PARADIGMS)
@pytest.mark.parametrize("zero", [False, True], ids=["digits-1-9", "zero"])
def test_crossproduct_agrees_with_brute_force(encoding, zero):
    agree(brute.random_crossproducts(HOW_MANY[encoding], zero, seed=3),
          brute.crossproduct_brute_force, encoding)


@pytest.mark.parametrize("encoding", PARADIGMS)
@pytest.mark.parametrize("first_cell", ["zero", "seeds"])
def test_crosscells_agrees_with_brute_force(encoding, first_cell):
    agree(brute.random_crosscells(HOW_MANY[encoding], first_cell, seed=3),
          brute.crosscells_brute_force, encoding)


@pytest.mark.parametrize("encoding", PARADIGMS)
@pytest.mark.parametrize("rules", variants.RULES, ids=lambda r: f"{r['first_cell']}-{r['precedence']}")
def test_crosscells_rules_operators_and_groups_agree_with_brute_force(encoding, rules):
    """Every operator (+ - * / %), groups, constraints at either end, both first-cell rules
    and both precedences."""
    for drawn in variants.drawn_puzzles(rules, "++--*/%", "ab", n=HOW_MANY[encoding] // 2 + 1):
        parsed = crossprolog.parse(drawn.text, family="crosscells", **rules)
        found = sorted(s.values for s in parsed.search(encoding=encoding, timeout=60).solutions)
        assert found == variants.brute_force(drawn, rules), (encoding, drawn.text)


def test_a_seeded_line_keeps_solutions_whose_first_cells_are_off():
    puzzle = brute.CrossCells((brute.Cell("+", 7), brute.Cell("*", 2)),
                              (brute.Line((0, 1), tail=brute.Constraint("=", 2)),),
                              first_cell="seeds")
    for encoding in PARADIGMS:
        assert solutions(puzzle, encoding) == {((0, 1),)}, encoding


SUDOKU_QUICK = [(digits, objective) for digits, objective in brute.SUDOKU_VARIANTS
                if not (digits.high - digits.low == 9 and objective)]


@pytest.mark.parametrize("encoding", PARADIGMS)
@pytest.mark.parametrize("digits, objective", SUDOKU_QUICK, ids=lambda v: str(v).replace(" ", ""))
def test_sudoku_digit_sets_and_objectives_agree_with_brute_force(encoding, digits, objective):
    agree(brute.random_sudokus(2, digits, objective, seed=3), brute.sudoku_brute_force, encoding)


@pytest.mark.parametrize("encoding", ["minizinc"])
@pytest.mark.parametrize("objective", ["gcd(rows)", "gcd(cols)"])
def test_sudoku_gcd_over_a_range_of_ten_agrees_with_brute_force(encoding, objective):
    agree(brute.random_sudokus(2, DigitSet(0, 9), objective, seed=3), brute.sudoku_brute_force, encoding)


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["gcd(rows)", "gcd(cols)"])
def test_sudoku_gcd_over_a_range_of_ten_agrees_with_brute_force_in_asp(objective):
    """Slow: a small GCD leaves clingo grounding most of 300-odd candidates, 30 ms each."""
    agree(brute.random_sudokus(2, DigitSet(0, 9), objective, seed=3), brute.sudoku_brute_force, "asp")


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_kenken_agrees_with_brute_force(encoding):
    agree(brute.random_kenkens(3 * HOW_MANY[encoding], seed=3), brute.kenken_brute_force, encoding)


# The puzzles whose answers are known (../shared/seed-puzzles.md)

RIDDLERS = {"riddler-1.txt": ((3, 9, 5), (5, 9, 1), (8, 1, 8), (5, 7, 8), (5, 7, 2)),
            "riddler-2.md": ((7, 6, 5), (9, 8, 2), (3, 9, 2), (5, 9, 3), (1, 4, 1), (7, 1, 7)),
            "riddler-3.txt": ((7, 8, 5), (3, 8, 7), (9, 6, 3), (9, 8, 5), (3, 5, 4), (4, 8, 8),
                              (9, 2, 7))}
PUZZLE_25 = ((0, 1, 0, 1), (1, 0, 1, 1), (1, 1, 0, 1, 0, 0, 1, 0), (1, 1, 0, 0), (1, 0, 0, 1))


def example(path: str):
    return crossprolog.parse((EXAMPLES / path).read_text(encoding="utf-8"))


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_the_three_published_crossproducts(encoding):
    for name, answer in RIDDLERS.items():
        assert solutions(example(f"crossproduct/{name}"), encoding) == {answer}, name


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_crosscells_puzzle_25_has_one_solution_and_two_without_its_group(encoding):
    text = (EXAMPLES / "crosscells" / "puzzle-25.txt").read_text(encoding="utf-8")
    assert solutions(crossprolog.parse(text), encoding) == {PUZZLE_25}
    loose = crossprolog.parse(text.replace("a#6", ""))
    found = solutions(loose, encoding)
    assert len(found) == 2 and PUZZLE_25 in found
    assert found == solutions(loose, engine.encodings("crosscells")[0])


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_the_4x4_kenken_and_a_hard_sudoku(encoding):
    assert solutions(example("kenken/issue-4x4.txt"), encoding) == {
        ((4, 3, 2, 1), (1, 2, 4, 3), (3, 4, 1, 2), (2, 1, 3, 4))}
    sudoku = example("sudoku/ai-escargot.txt")
    assert solutions(sudoku, encoding) == solutions(sudoku, "candidates")


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_the_gcd_sudoku_of_january_2025_is_solved_to_its_proved_optimum(encoding):
    found = example("sudoku/gcd-2025-01.txt").search(encoding=encoding, limit=2, timeout=60)
    assert found.status == "complete" and found.count == 1
    [solution] = found.solutions
    assert solution.values.gcd == 12345679
    assert "".join(map(str, solution.values.grid[4])) == "283950617"


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_sumplete_and_number_sums_are_crosscells_games_here_too(encoding):
    for name in ("sumplete.txt", "number-sums.txt"):
        puzzle = example(f"crosscells/{name}")
        assert solutions(puzzle, encoding) == solutions(puzzle, "masks"), name


def test_a_line_of_large_values_is_a_fold_in_minizinc_and_still_right():
    """+9 *9 *9 *9 *9 +1: values up to 59,050, past the bound under which MiniZinc states
    a line as tables of its states; it is a fold of implications there instead."""
    cells = tuple(brute.Cell(op, n) for op, n in [("+", 9), ("*", 9), ("*", 9), ("*", 9), ("*", 9), ("+", 1)])
    for total in (59049, 730, 82):
        puzzle = brute.CrossCells(cells, (brute.Line(tuple(range(6)), tail=brute.Constraint("=", total)),))
        expected = brute.crosscells_brute_force(puzzle)
        assert expected
        for encoding in PARADIGMS:
            assert solutions(puzzle, encoding) == expected, (encoding, total)


def test_a_line_of_too_many_states_for_clingo_is_refused_in_one_line(cli, write):
    """30 cells +1 +2 +4 ... +2^29: 2^k states after k cells, which clingo would ground."""
    text = " ".join(f"+{2 ** k}" for k in range(30)) + f" ={sum(2 ** k for k in range(0, 30, 3))}\n"
    found = cli("solve", write(text), "--encoding", "asp")
    assert found.code == 2 and "more than the ASP encoding grounds" in found.err
    assert len(found.err.splitlines()) == 1


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_a_number_beyond_32_bits_is_refused_not_wrapped(encoding):
    puzzle = brute.CrossCells((brute.Cell("+", 99999999999), brute.Cell("+", 1)),
                              (brute.Line((0, 1), tail=brute.Constraint("#", 1)),))
    with pytest.raises(crossprolog.UsageError, match="number 99999999999 is beyond the 32-bit integers"):
        puzzle.search(encoding=encoding)
    huge = brute.CrossCells((brute.Cell("+", 9 * 10**999), brute.Cell("+", 1)),
                            (brute.Line((0, 1), tail=brute.Constraint("#", 1)),))
    with pytest.raises(crossprolog.UsageError, match=r"number 900000\.\.\.0000 \(1,000 digits\) is beyond"):
        huge.search(encoding=encoding)


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_a_kenken_target_whose_products_may_pass_32_bits_is_refused_for_that_reason(encoding):
    """800,000,000 is a 32-bit integer; times a digit, as the product of a cage on its
    way to it may be, it is not (it was said to be "beyond the 32-bit integers")."""
    from crossprolog.kenken import Cage, KenKen

    cells = [(r, c) for r in range(3) for c in range(3)]
    puzzle = KenKen(3, (Cage(tuple(cells), 800_000_000, "*"),))
    with pytest.raises(crossprolog.UsageError, match="800000000, times a digit, as a product on its way"):
        puzzle.search(encoding=encoding)


def test_the_wheel_ships_every_program_and_model():
    """pyproject.toml names the package and the files `pip install .` must carry."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    setup = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "crossprolog.paradigms" in setup["packages"]
    shipped = setup["package-data"]["crossprolog.paradigms"]
    files = sorted(p.name for p in (root / "crossprolog" / "paradigms").iterdir() if p.suffix in (".lp", ".mzn"))
    assert len(files) == 12 and all(any(Path(name).match(pattern) for pattern in shipped) for name in files)
