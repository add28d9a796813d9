"""Big integers outside Prolog's main thread: a session's engine, a Python thread's
Prolog thread, a pool's (as a Dask worker runs its tasks).  SWI-Prolog 9.2.9 bounds
them to about a kilobyte there (docs/reproducers/swipl-thread-big-integers.pl), and
a long CrossProduct line's states, kept as the bits of one integer, pass that: a
well-formed 30x30 failed with "big integers and rationals are limited to 0 bytes"."""

from __future__ import annotations

import math
import random
import threading
from concurrent.futures import ThreadPoolExecutor

from crossprolog import CrossProduct, searches


def long_lines() -> CrossProduct:
    """2 rows of 24 digits 5-9: each row's line has about 10,000 states (its
    exponents of 2, 3, 5 and 7 multiplied so far), the bits of an integer of over a
    kilobyte."""
    rng = random.Random(0)
    grid = [[rng.choice([5, 6, 7, 8, 9]) for _ in range(24)] for _ in range(2)]
    return CrossProduct(tuple(map(math.prod, grid)), tuple(map(math.prod, zip(*grid))))


def line_states(product: int) -> int:
    """How many states a line of `product` passes through: one per exponents of 2, 3,
    5 and 7 up to the product's."""
    states = 1
    for prime in (2, 3, 5, 7):
        exponent = 0
        while product % prime == 0:
            product, exponent = product // prime, exponent + 1
        states *= exponent + 1
    return states


def test_the_puzzle_needs_integers_of_over_a_kilobyte():
    assert [line_states(p) for p in long_lines().row_products] == [9520, 11760]


def test_a_session_in_its_own_engine_answers():
    puzzle = long_lines()
    with searches.Session("crossproduct", puzzle.prolog_data(), "lines") as session:
        found = session.restricted([], limit=2)
    assert found["status"] != "error" and len(found["solutions"]) >= 1


def test_python_threads_and_a_pool_of_them_count_alike():
    puzzle = long_lines()
    expected = puzzle.count(limit=3, encoding="lines")
    counted = []
    thread = threading.Thread(target=lambda: counted.append(puzzle.count(limit=3, encoding="lines")))
    thread.start()
    thread.join()
    with ThreadPoolExecutor(2) as pool:
        counted += pool.map(lambda _: puzzle.count(limit=3, encoding="lines"), range(2))
    assert expected >= 1 and counted == [expected] * 3
