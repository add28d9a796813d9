"""Folding a line's sum or product (crossprolog/folds.py): the digits each cell takes and
the count of fillings, as plain enumeration of every filling has them."""

from __future__ import annotations

import itertools
import math
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crossprolog import folds
from crossprolog.errors import TimeLimitExceeded
from crossprolog.reasoner import Deadline

DIGITS = set(range(1, 10))


def enumerated(op: str, target: int, marks: list[set[int]], distinct: bool = False):
    """What `folds.folded` should say, from every filling the marks allow."""
    fillings = [f for f in itertools.product(*map(sorted, marks))
                if (sum(f) if op == "+" else math.prod(f)) == target and (not distinct or len(set(f)) == len(f))]
    return [{f[k] for f in fillings} for k in range(len(marks))], len(fillings)


@st.composite
def lines(draw, digits=range(0, 13)):
    """A sum or product, its pencil marks (a cell may have none), and a target often
    reached: a filling's own total, or one slightly off, or a product with an 11 or 13."""
    op = draw(st.sampled_from("+*"))
    marks = draw(st.lists(st.sets(st.sampled_from(list(digits)), max_size=6), max_size=5))
    made = [draw(st.sampled_from(sorted(cell))) for cell in marks if cell]
    total = sum(made) if op == "+" else math.prod(made)
    target = draw(st.sampled_from([total, total + 1, max(0, total - 1), 0, 1, 11 * 13 * (total or 1)]))
    return op, target, marks, draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(lines())
def test_a_fold_fits_and_counts_as_enumerating_every_filling(line):
    """Digits 0-12 (a 0 in a product, an 11 that only an 11 makes), with and without
    different digits, cells without marks, lines of no cells."""
    op, target, marks, distinct = line
    fit, count = enumerated(op, target, marks, distinct)
    assert folds.folded(op, target, marks, distinct) == (fit, count)
    assert folds.stepwise(op, target, marks, distinct) == (fit, count)
    assert folds.fitting_digits(op, target, marks, distinct) == (fit if count else None)


@pytest.mark.parametrize("target, cells, count", [
    (5040, 6, 3960),  # the notebook's row of six under columns of 5040: every digit divides it
    (7 ** 8, 9, 9),  # eight 7s and a 1
    (729, 3, 1), (729, 4, 10),  # without column limits: 999; ten 4-digit rows
    (5 ** 5, 6, 6),
])
def test_the_notebooks_counts_of_fillings(target, cells, count):
    fit, counted = folds.folded("*", target, [set(DIGITS) for _ in range(cells)])
    assert counted == count and all(fit)


def test_72_over_columns_of_72_has_the_notebooks_24_fillings():
    marks = [{d for d in DIGITS if 72 % d == 0} for _ in range(3)]
    assert folds.folded("*", 72, marks) == enumerated("*", 72, marks) and folds.folded("*", 72, marks)[1] == 24


def test_a_long_line_folds_as_it_does_a_state_at_a_time():
    """14 cells of random marks: the box of exponents agrees with the state-by-state fold
    on digits and count, for a product and a sum."""
    rng = random.Random(14)
    for _ in range(6):
        made = [rng.randint(1, 9) for _ in range(14)]
        marks = [set(rng.sample(sorted(DIGITS), rng.randint(1, 9))) | {d} for d in made]
        for op, target in (("*", math.prod(made)), ("+", sum(made))):
            assert folds.folded(op, target, marks) == folds.stepwise(op, target, marks)


def test_a_product_no_digits_make_has_no_filling_at_any_length():
    """A 30-digit product with a prime factor of 11 (a slip of the pen in a big CrossProduct
    row): no digit fits, however long the line; nor in a line of no cells."""
    target = 2 ** 40 * 3 ** 20 * 11
    assert folds.folded("*", target, [set(DIGITS)] * 200) == ([set()] * 200, 0)
    assert folds.fitting_digits("*", target, [set(DIGITS)] * 200) is None
    assert folds.folded("*", 11, []) == ([], 0) and folds.folded("*", 1, []) == ([], 1)


def test_a_30_cell_product_line_folds_to_the_digits_its_exponents_allow():
    """A 30x30 CrossProduct row: 2^25 3^12 5^3 7^2 over any digits.  A 5 or a 7 fits
    anywhere (there are some), every digit does; with 3 cells of 5 only and 27 of 1 or 7
    where 5^3 7^2 is wanted, the 7s must go among the 27 and the 5s are placed."""
    target = 2 ** 25 * 3 ** 12 * 5 ** 3 * 7 ** 2
    fit = folds.fitting_digits("*", target, [set(DIGITS)] * 30)
    assert fit == [DIGITS] * 30
    fit, count = folds.folded("*", 5 ** 3 * 7 ** 2, [{5}] * 3 + [{1, 7}] * 27)
    assert fit == [{5}] * 3 + [{1, 7}] * 27 and count == math.comb(27, 2)
    assert folds.fitting_digits("*", 2 ** 91, [set(DIGITS)] * 30) is None  # 8s make 2^90 at most


def test_a_fold_is_held_to_its_deadline():
    deadline = Deadline(1e-9)
    while deadline.end > time.perf_counter():
        pass
    for fold in (folds.folded, folds.fitting_digits):
        with pytest.raises(TimeLimitExceeded):
            fold("*", 2 ** 30, [set(DIGITS)] * 30, deadline=deadline)


def test_a_target_past_what_the_cells_can_make_has_no_filling_at_once():
    """A sum of 10^12 over five cells would be a box of 10^12 points (125 GB of bits), a
    product of 2^3000 one of 3,000: more than nine a cell, more than three 2s a cell,
    is no filling, known before any box is made."""
    assert folds.folded("+", 10 ** 12, [set(DIGITS)] * 5) == ([set()] * 5, 0)
    assert folds.fitting_digits("*", 2 ** 3000, [set(DIGITS)] * 5) is None
    assert folds.folded("+", 45, [set(DIGITS)] * 5) == ([{9}] * 5, 1)
    assert folds.folded("*", 2 ** 15, [set(DIGITS)] * 5) == ([{8}] * 5, 1)
