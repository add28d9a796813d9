"""Every encoding of every family against an independent brute force, on random small
puzzles, under every rule variant (CrossProduct with and without zero digits, CrossCells
with either first-cell rule, Sudoku with every digit set and objective, KenKen with every
operation).

The brute forces here share no code with crossprolog: each enumerates candidate
answers and checks the rules as the README states them.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest

from crossprolog import UsageError, engine
from crossprolog.crosscells import Cell, Constraint, CrossCells, Line
from crossprolog.crossproduct import CrossProduct
from crossprolog.kenken import Cage, KenKen
from crossprolog.sudoku import DigitSet, Sudoku

from conftest import example_encodings

QUICK, LONG = 60, 500  # random puzzles per family and variant


def solutions(puzzle, encoding: str) -> set:
    """The set of every answer `encoding` finds: tables of digits or of 0/1, or grids."""
    found = puzzle.search(encoding=encoding, timeout=60)
    answers = [getattr(s.values, "grid", s.values) for s in found.solutions]  # a Sudoku's grid
    assert found.status == "complete"
    assert len(answers) == len(set(answers)), "a solution given twice"
    return set(answers)


def agree_with_brute_force(puzzles, brute_force, family: str, skip=lambda puzzle, encoding: False):
    """Every encoding of `family`, the bundled example encodings for it too, finds what
    `brute_force` finds."""
    encodings = engine.encodings(family) + example_encodings(family)
    for puzzle in puzzles:
        expected = brute_force(puzzle)
        for encoding in encodings:
            if not skip(puzzle, encoding):
                assert solutions(puzzle, encoding) == expected, (encoding, puzzle)


# CrossProduct: every table of digits whose rows and columns have the products.

def crossproduct_brute_force(puzzle: CrossProduct) -> set:
    digits = range(0 if puzzle.zero else 1, 10)

    def fits(row, givens, product):
        return math.prod(row) == product and all(g is None or g == d for g, d in zip(givens, row))

    rows = [[row for row in itertools.product(digits, repeat=puzzle.width) if fits(row, givens, p)]
            for givens, p in zip(puzzle.givens, puzzle.row_products)]
    return {table for table in itertools.product(*rows)
            if all(math.prod(column) == p for column, p in zip(zip(*table), puzzle.column_products))}


def random_crossproducts(n: int, zero: bool, seed: int) -> list[CrossProduct]:
    """Small puzzles from random tables: some with givens, some with a product made wrong,
    some with a product made 0 (which digits 1-9 cannot make: four encodings took such a
    line as free, and gave 9 solutions to rows [0] columns [0])."""
    rng = random.Random(seed)
    puzzles = []
    for _ in range(n):
        height, width = rng.choice([(1, 1), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4)])
        table = [[rng.randint(0 if zero and rng.random() < 0.3 else 1, 9) for _ in range(width)]
                 for _ in range(height)]
        rows = [math.prod(row) for row in table]
        columns = [math.prod(column) for column in zip(*table)]
        if rng.random() < 0.2:
            rows[rng.randrange(height)] *= rng.choice([2, 3, 7])
        elif rng.random() < 0.1:
            (rows, columns)[rng.randrange(2)][0] = 0
        givens = tuple(tuple(d if rng.random() < 0.2 else None for d in row) for row in table)
        puzzles.append(CrossProduct(tuple(rows), tuple(columns), givens, zero=zero))
    return puzzles


def plain_search_refuses_zero(puzzle, encoding):
    """`rows` is plain search over digits 1-9 and says so (tested below)."""
    return puzzle.zero and encoding == "rows"


@pytest.mark.parametrize("zero", [False, True], ids=["digits-1-9", "zero"])
def test_crossproduct_encodings_agree_with_brute_force(zero):
    agree_with_brute_force(random_crossproducts(QUICK, zero, seed=1), crossproduct_brute_force,
                           "crossproduct", plain_search_refuses_zero)


def test_plain_rows_search_refuses_zero_digits_rather_than_answer_wrong():
    with pytest.raises(UsageError):
        CrossProduct((0, 6), (0, 6), zero=True).search(encoding="rows")


@pytest.mark.slow
@pytest.mark.parametrize("zero", [False, True], ids=["digits-1-9", "zero"])
def test_crossproduct_encodings_agree_with_brute_force_at_length(zero):
    agree_with_brute_force(random_crossproducts(LONG, zero, seed=2), crossproduct_brute_force,
                           "crossproduct", plain_search_refuses_zero)


# CrossCells: every on/off vector, each reading's value worked out as the rules say.

def reading_value(operations: list[tuple[str, int]], first_cell: str) -> int | None:
    """The value ON cells give, read in order; None when a division is not exact."""
    value = 0
    for n, (op, number) in enumerate(operations):
        if n == 0 and first_cell == "seeds":
            value = number
        elif op == "+":
            value += number
        elif op == "-":
            value -= number
        elif op == "*":
            value *= number
        elif op == "%":  # the remainder takes the sign of the value, as Prolog's rem
            value = abs(value) % number * (-1 if value < 0 else 1)
        elif value % number:
            return None
        else:
            value //= number
    return value


def crosscells_brute_force(puzzle: CrossCells) -> set:
    answers = set()
    for ons in itertools.product((0, 1), repeat=len(puzzle.cells)):
        if all(holds(puzzle, cells, constraint, ons) for cells, constraint in readings(puzzle)):
            answers.add(tuple(tuple(ons[i] for i in row.cells) for row in puzzle.rows))
    return answers


def readings(puzzle: CrossCells):
    """(cells in reading order, constraint) for every constraint: a head reads its line backward."""
    for line in puzzle.rows + puzzle.columns:
        if line.head:
            yield line.cells[::-1], line.head
        if line.tail:
            yield line.cells, line.tail
    for group in puzzle.groups:
        yield tuple(i for i, cell in enumerate(puzzle.cells) if cell.group == group.group), group


def holds(puzzle: CrossCells, cells, constraint: Constraint, ons) -> bool:
    on = [i for i in cells if ons[i]]
    if constraint.kind == "#":
        return len(on) == constraint.value
    operations = [(puzzle.cells[i].op, puzzle.cells[i].number) for i in on]
    return reading_value(operations, puzzle.first_cell) == constraint.value


def random_crosscells(n: int, first_cell: str, seed: int) -> list[CrossCells]:
    """Small grids of random operations, every line and group constrained at a random end,
    by what a random on/off table gives it (or, now and then, by a random total)."""
    rng = random.Random(seed)
    puzzles = []
    for _ in range(n):
        height, width = rng.choice([(1, 2), (1, 4), (2, 2), (2, 3), (3, 3), (2, 5)])
        cells = [Cell(op, rng.choice([1, 2, 3] if op in "/%" else [0, 1, 2, 3, 5]),
                      rng.choice(["", "", "a", "b"]))
                 for op in rng.choices("+-*/%", weights=[4, 3, 2, 2, 1], k=height * width)]
        ons = [rng.random() < 0.5 for _ in cells]

        def constraint(ordered):
            if rng.random() < 0.3:
                return Constraint("#", sum(ons[i] for i in ordered))
            value = reading_value([(cells[i].op, cells[i].number) for i in ordered if ons[i]],
                                  first_cell)
            return Constraint("=", value if value is not None and rng.random() < 0.85
                              else rng.randint(-5, 12))

        def line(indices):
            head = constraint(indices[::-1]) if rng.random() < 0.4 else None
            tail = constraint(indices) if head is None or rng.random() < 0.3 else None
            return Line(tuple(indices), head, tail)

        rows = [line([r * width + c for c in range(width)]) for r in range(height)]
        columns = [line([r * width + c for r in range(height)]) for c in range(width)]
        groups = [Constraint(kind.kind, kind.value, letter)
                  for letter in sorted({c.group for c in cells} - {""})
                  for kind in [constraint([i for i, c in enumerate(cells) if c.group == letter])]]
        puzzles.append(CrossCells(tuple(cells), tuple(rows), tuple(columns), tuple(groups),
                                  first_cell=first_cell))
    return puzzles


@pytest.mark.parametrize("first_cell", ["zero", "seeds"])
def test_crosscells_encodings_agree_with_brute_force(first_cell):
    agree_with_brute_force(random_crosscells(QUICK, first_cell, seed=1), crosscells_brute_force,
                           "crosscells")


def test_off_cells_before_the_first_on_cell_do_not_lose_seeded_solutions():
    """The issue's smallest case: +7 *2 =2 with seeds has one solution, +7 off and *2 on."""
    puzzle = CrossCells((Cell("+", 7), Cell("*", 2)), (Line((0, 1), tail=Constraint("=", 2)),),
                        first_cell="seeds")
    for encoding in engine.encodings("crosscells"):
        assert solutions(puzzle, encoding) == {((0, 1),)}, encoding


def test_a_reading_whose_values_double_at_each_step_falls_back_before_its_tables_explode():
    """30 cells +1 +2 +4 ... +2^29: 2^k states after k cells, more than any stack holds."""
    cells = tuple(Cell("+", 2 ** k) for k in range(30))
    total = sum(2 ** k for k in range(0, 30, 3))
    puzzle = CrossCells(cells, (Line(tuple(range(30)), tail=Constraint("=", total)),))
    answer = {(tuple(int(k % 3 == 0) for k in range(30)),)}
    for encoding in engine.encodings("crosscells"):
        assert solutions(puzzle, encoding) == answer, encoding


@pytest.mark.slow
@pytest.mark.parametrize("first_cell", ["zero", "seeds"])
def test_crosscells_encodings_agree_with_brute_force_at_length(first_cell):
    agree_with_brute_force(random_crosscells(LONG, first_cell, seed=2), crosscells_brute_force,
                           "crosscells")


# Sudoku: a hand-made grid with a few cells blanked; every way to fill them, checked whole.

def sudoku_brute_force(puzzle: Sudoku) -> set:
    blanks = [(r, c) for r in range(9) for c in range(9) if puzzle.givens[r][c] is None]
    digits = range(puzzle.digits.low, puzzle.digits.high + 1)
    candidates = [[d for d in digits if d not in puzzle.givens[r]] for r, _ in blanks]
    grids = []
    for filling in itertools.product(*candidates):
        grid = [list(row) for row in puzzle.givens]
        for (r, c), d in zip(blanks, filling):
            grid[r][c] = d
        if valid(grid):
            grids.append(tuple(map(tuple, grid)))
    if puzzle.objective is None or not grids:
        return set(grids)
    best = max(map(lambda grid: line_gcd(grid, puzzle.objective), grids))
    return {grid for grid in grids if line_gcd(grid, puzzle.objective) == best}


def valid(grid) -> bool:
    """Every row, column and box holds nine distinct digits, the same nine in each."""
    units = ([row for row in grid] + [list(col) for col in zip(*grid)]
             + [[grid[r][c] for r in range(br, br + 3) for c in range(bc, bc + 3)]
                for br in (0, 3, 6) for bc in (0, 3, 6)])
    return len({frozenset(unit) for unit in units}) == 1 and all(len(set(u)) == 9 for u in units)


def line_gcd(grid, objective: str) -> int:
    lines = grid if objective == "gcd(rows)" else list(zip(*grid))
    return math.gcd(*(int("".join(map(str, line))) for line in lines))


def random_sudokus(n: int, digits: DigitSet, objective: str | None, seed: int) -> list[Sudoku]:
    """A solved grid of nine digits of `digits` (a shifted pattern, digits shuffled), with up to
    six cells blanked, some of them the corners of a rectangle that may swap."""
    rng = random.Random(seed)
    puzzles = []
    for _ in range(n):
        used = rng.sample(range(digits.low, digits.high + 1), 9)
        grid = [[used[(3 * r + r // 3 + c) % 9] for c in range(9)] for r in range(9)]
        blanks = set(rng.sample([(r, c) for r in range(9) for c in range(9)], rng.randint(0, 4)))
        if rng.random() < 0.5:  # rows 0 and 1 swapped in columns 0 and 3 keep every unit whole
            blanks |= {(0, 0), (0, 3), (1, 0), (1, 3)}
        givens = tuple(tuple(None if (r, c) in blanks else grid[r][c] for c in range(9))
                       for r in range(9))
        puzzles.append(Sudoku(givens, digits, objective))
    return puzzles


SUDOKU_VARIANTS = [(digits, objective) for digits in (DigitSet(1, 9), DigitSet(0, 8), DigitSet(0, 9))
                   for objective in (None, "gcd(rows)", "gcd(cols)")]


@pytest.mark.parametrize("digits, objective", SUDOKU_VARIANTS, ids=lambda v: str(v).replace(" ", ""))
def test_sudoku_encodings_agree_with_brute_force(digits, objective):
    agree_with_brute_force(random_sudokus(4, digits, objective, seed=1), sudoku_brute_force, "sudoku")


@pytest.mark.slow
@pytest.mark.parametrize("digits, objective", SUDOKU_VARIANTS, ids=lambda v: str(v).replace(" ", ""))
def test_sudoku_encodings_agree_with_brute_force_at_length(digits, objective):
    agree_with_brute_force(random_sudokus(30, digits, objective, seed=2), sudoku_brute_force, "sudoku")


# KenKen: every Latin square of the size, each cage checked as the rules say.

def latin_squares(size: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every grid whose rows are permutations of 1..size, no digit twice in a column."""
    squares = []

    def extend(rows):
        if len(rows) == size:
            squares.append(tuple(rows))
            return
        for row in itertools.permutations(range(1, size + 1)):
            if all(row[c] != above[c] for above in rows for c in range(size)):
                extend(rows + [row])
    extend([])
    return squares


LATIN = {size: latin_squares(size) for size in (3, 4)}


def cage_makes(op: str, digits: list[int], target: int) -> bool:
    """`+` sums, `*` multiplies, `-` and `/` take the larger digit less, or divided by (with
    no remainder), the smaller; a one-cell cage (`=`) is its target."""
    if op == "+":
        return sum(digits) == target
    if op == "*":
        return math.prod(digits) == target
    if op == "=":
        return digits == [target]
    small, large = min(digits), max(digits)
    return large - small == target if op == "-" else large == small * target


def kenken_brute_force(puzzle: KenKen) -> set:
    return {square for square in LATIN[puzzle.size]
            if all(g is None or g == d for givens, row in zip(puzzle.givens, square)
                   for g, d in zip(givens, row))
            and all(cage_makes(cage.op, [square[r][c] for r, c in cage.cells], cage.target)
                    for cage in puzzle.cages)}


def random_kenkens(n: int, seed: int, most_cells: int = 4) -> list[KenKen]:
    """Cages grown from random cells of a random Latin square (1 to most_cells, connected),
    with an operation their digits allow; some targets made wrong, some digits given,
    some cells in no cage (the MiniZinc model refused those)."""
    rng = random.Random(seed)
    puzzles = []
    for _ in range(n):
        size = rng.choice((3, 4))
        square = rng.choice(LATIN[size])
        free = {(r, c) for r in range(size) for c in range(size)}
        cages = []
        while free:
            cells = [min(free)]
            free.discard(cells[0])
            for _ in range(rng.randint(0, most_cells - 1)):
                around = sorted({(r + dr, c + dc) for r, c in cells
                                 for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} & free)
                if around:
                    cells.append(rng.choice(around))
                    free.discard(cells[-1])
            digits = [square[r][c] for r, c in cells]
            if len(cells) == 1 and rng.random() < 0.15:
                continue  # a cell in no cage
            if len(cells) == 1:
                op, target = "=", digits[0]
            elif len(cells) == 2 and max(digits) % min(digits) == 0 and rng.random() < 0.3:
                op, target = "/", max(digits) // min(digits)
            elif len(cells) == 2 and rng.random() < 0.4:
                op, target = "-", max(digits) - min(digits)
            else:
                op = rng.choice("+*")
                target = sum(digits) if op == "+" else math.prod(digits)
            if rng.random() < 0.1 and op != "=":
                target += 1
            if op == "-" and target == 0:
                op, target = "+", sum(digits)
            cages.append(Cage(tuple(cells), target, op))
        givens = tuple(tuple(square[r][c] if rng.random() < 0.1 else None for c in range(size))
                       for r in range(size))
        puzzles.append(KenKen(size, tuple(cages), givens))
    return puzzles


def test_kenken_encodings_agree_with_brute_force():
    puzzles = random_kenkens(QUICK, seed=1)
    counts = [len(kenken_brute_force(p)) for p in puzzles]
    assert min(counts) == 0 and max(counts) >= 3  # the sample has every kind
    agree_with_brute_force(puzzles, kenken_brute_force, "kenken")


def test_kenken_kernel_search_with_the_implied_sums_agrees_with_brute_force(implied_sums_in_small_grids):
    agree_with_brute_force(random_kenkens(QUICK, seed=3), kenken_brute_force, "kenken")


def test_kenken_encodings_agree_with_brute_force_with_every_cage_folded(every_sum_and_product_folded):
    """Sums and products folded by the kernel (grid_folds.pl), posted as arithmetic by
    the tables encoding, as a cage of too many fillings to list is."""
    agree_with_brute_force(random_kenkens(QUICK, seed=4), kenken_brute_force, "kenken")


def test_kenken_encodings_agree_with_brute_force_with_big_cages():
    """Cages of up to twelve cells: those whose cells take more strings of digits than
    the kernel lists outright (4^7 past ten thousand) are listed guided by their fold."""
    puzzles = random_kenkens(QUICK, seed=5, most_cells=12)
    assert max(len(cage.cells) for p in puzzles for cage in p.cages) >= 9
    agree_with_brute_force(puzzles, kenken_brute_force, "kenken")


def test_kenken_encodings_agree_with_brute_force_with_few_fillings_listed(few_fillings_listed):
    """Every rule of two fillings or fewer listed guided by its fold, the rest folded."""
    agree_with_brute_force(random_kenkens(QUICK, seed=6, most_cells=6), kenken_brute_force, "kenken")


def strip_kenkens(n: int, seed: int) -> list[KenKen]:
    """4x4 KenKens with a cage of a rectangle of six or nine cells, its target what its
    digits make or near it; the other cells in cages of one or two cells, or in none."""
    rng = random.Random(seed)
    puzzles = []
    for _ in range(n):
        square = rng.choice(LATIN[4])
        height, width = rng.choice(((2, 3), (3, 2), (3, 3)))
        top, left = rng.randint(0, 4 - height), rng.randint(0, 4 - width)
        strip = tuple((r, c) for r in range(top, top + height) for c in range(left, left + width))
        digits = [square[r][c] for r, c in strip]
        if rng.random() < 0.5:
            cages = [Cage(strip, sum(digits) + rng.randint(-3, 3), "+")]
        else:
            cages = [Cage(strip, math.prod(digits) * rng.choice((1, 1, 2, 3)) // rng.choice((1, 2, 3)),
                          "*")]
        free = sorted({(r, c) for r in range(4) for c in range(4)} - set(strip))
        while free:
            cells = [free.pop(0)]
            beside = [f for f in free if abs(f[0] - cells[0][0]) + abs(f[1] - cells[0][1]) == 1]
            if beside and rng.random() < 0.5:
                cells.append(beside[0])
                free.remove(beside[0])
            if rng.random() < 0.4:
                continue  # in no cage
            cage_digits = [square[r][c] for r, c in cells]
            cages.append(Cage(tuple(cells), sum(cage_digits), "+") if len(cells) == 2
                         else Cage(tuple(cells), cage_digits[0], "="))
        puzzles.append(KenKen(4, tuple(cages)))
    return puzzles


def test_kenken_strips_agree_with_brute_force(few_fillings_listed):
    """A rectangle's columns (or rows) add up to 10 each and multiply to 24: its cells'
    target leaves the cells of those columns outside it what the rectangle does not make
    (grid_sums:unit_complement/4), which the kernel takes as a rule of those cells."""
    puzzles = strip_kenkens(QUICK, seed=7)
    counts = [len(kenken_brute_force(p)) for p in puzzles]
    assert counts.count(0) >= 3 and max(counts) >= 2  # the sample has every kind
    agree_with_brute_force(puzzles, kenken_brute_force, "kenken")


@pytest.mark.slow
def test_kenken_encodings_agree_with_brute_force_at_length():
    agree_with_brute_force(random_kenkens(LONG, seed=2), kenken_brute_force, "kenken")
