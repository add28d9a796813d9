"""A CP-SAT model of CrossProduct (OR-Tools, one worker): the industrial baseline.

Each cell is a digit 1-9 tied by an allowed-assignments table to its
exponents of 2, 3, 5 and 7; every row and column product is four linear
sums over those exponents.  Optional: needs `pip install '.[bench]'`.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cp_sat_count import count_solutions

from crossprolog.crossproduct import CrossProduct

PRIMES = (2, 3, 5, 7)


def exponents(n: int) -> list[int] | None:
    """Exponents of 2, 3, 5, 7 in n, or None if n has another prime factor."""
    found = []
    for p in PRIMES:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        found.append(e)
    return found if n == 1 else None


DIGIT_TABLE = [[d, *exponents(d)] for d in range(1, 10)]


def count(puzzle: CrossProduct, limit: int) -> int:
    """The number of solutions, up to `limit`."""
    model = cp_model.CpModel()
    grid = [[model.NewIntVar(1, 9, "") for _ in range(puzzle.width)] for _ in range(puzzle.height)]
    cell_exponents = [[[model.NewIntVar(0, 3, "") for _ in PRIMES] for _ in row] for row in grid]
    for row, exps in zip(grid, cell_exponents):
        for digit, es in zip(row, exps):
            model.AddAllowedAssignments([digit, *es], DIGIT_TABLE)
    for r, given_row in enumerate(puzzle.givens):
        for c, given in enumerate(given_row):
            if given is not None:
                model.Add(grid[r][c] == given)
    lines = [(p, cell_exponents[r]) for r, p in enumerate(puzzle.row_products)]
    lines += [(p, [cell_exponents[r][c] for r in range(puzzle.height)])
              for c, p in enumerate(puzzle.column_products)]
    for product, cells in lines:
        sums = exponents(product)
        if sums is None:
            return 0
        for i, total in enumerate(sums):
            model.Add(sum(es[i] for es in cells) == total)
    return count_solutions(model, limit)
