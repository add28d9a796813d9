"""A line's or cage's sum or product, folded cell by cell: which digits each cell takes in
some filling the pencil marks allow, and how many fillings there are, without listing
them (`Table.fitting` of a table stated by its operation and target).

A sum or product of any digits (no digit kept apart from another) is folded in a box
of exponents (`Box`): a product of digits is a sum of their primes' exponents, so a
partial product is a point (a, b, c, d) of 2^a 3^b 5^c 7^d, and only the points below
the target's own exponents can still reach it; a sum is the one-dimensional case.  A
target with a prime no digit has (a product of 22 digits typed with an 11 in it) has
no filling at once.  The points reachable after each cell are the bits of one Python
integer, so a cell's step is a shift a digit and one `and` for the whole line: the
digits of a 30-cell product line of any digits take a third of a millisecond, where a
state at a time took one to two seconds.  The fillings are counted the same way, in a
wide integer holding a count a point (15-30 ms for that line): `fitting_digits` does
without them, for a question that needs none (has the line a filling at all?).

A product of 0 is a zero in some cell, whatever the others hold.  Digits kept apart
(`distinct`: a Kakuro run, a KenKen cage within a row) need the digits used in the
state, and are folded a state at a time (`stepwise`), as are negative digits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence, TypeVar

if TYPE_CHECKING:
    from .reasoner import Deadline

T = TypeVar("T")
Fit = tuple[list[set[int]], int]  # the digits each cell takes, and the fillings' count


def folded(op: str, target: int, marks: list[set[int]], distinct: bool = False,
           deadline: Deadline | None = None) -> Fit:
    """`Table.fitting` for a sum or product (`op` "+" or "*") of `target` over `marks`
    (no digit twice if `distinct`): the digits each cell takes in some filling, and how
    many fillings there are; TimeLimitExceeded once `deadline` passes (looked at cell by
    cell)."""
    if op == "*" and target == 0 and not distinct:
        return zero_product(marks)
    if (box := boxed(op, target, marks, distinct)) is None:
        return stepwise(op, target, marks, distinct, deadline)
    reached = box.forward(marks, deadline)
    if not reached[-1] >> box.top & 1:
        return [set() for _ in marks], 0
    return box.backward(marks, reached, deadline), box.count(marks, deadline)


def fitting_digits(op: str, target: int, marks: list[set[int]], distinct: bool = False,
                   deadline: Deadline | None = None) -> list[set[int]] | None:
    """The digits each cell takes in some filling, as `folded` has them, without counting
    the fillings (which takes longer); None when there is none."""
    if (box := boxed(op, target, marks, distinct)) is None:
        fit, count = folded(op, target, marks, distinct, deadline)
        return fit if count else None
    reached = box.forward(marks, deadline)
    return box.backward(marks, reached, deadline) if reached[-1] >> box.top & 1 else None


def boxed(op: str, target: int, marks: list[set[int]], distinct: bool) -> Box | None:
    """The box `marks` fold in (`box`), None when they need states of their own."""
    return None if distinct else box(op, target, frozenset(d for cell in marks for d in cell), len(marks))


@dataclass(frozen=True)
class Box:
    """The points a partial sum or product can be at and still reach the target: a vector
    of exponents (a product's, of the primes its digits have; a sum's, the sum itself),
    each at most the target's, numbered in mixed radix.  Each exponent's radix leaves
    room for what one digit adds past the target, so adding a digit's vector to a point
    in the box never carries into the next exponent: a point past the box is dropped by
    `inside`, the bits of every point in it."""

    top: int  # the target's point: every exponent at its largest
    inside: int  # a bit a point in the box
    shifts: dict[int, int]  # each digit's vector, as the number it adds to a point's
    bounds: tuple[int, ...]  # the largest exponent of each prime (of the sum)
    strides: tuple[int, ...]  # what a point's number adds for one more of each

    def filled(self, slot: int, width: int) -> int:
        """`slot` at each point in the box, a point `width` bits."""
        for bound, stride in zip(self.bounds, self.strides):
            slot = repeated(slot, bound + 1, stride * width)
        return slot

    def forward(self, marks: Sequence[set[int]], deadline: Deadline | None) -> list[int]:
        """The points reachable before each cell and after the last, as bits."""
        reached = [1]  # no digit yet: the empty sum or product
        for cell in in_time(marks, deadline):
            here, after = reached[-1], 0
            for d in cell:
                if d in self.shifts:
                    after |= here << self.shifts[d]
            reached.append(after & self.inside)
        return reached

    def backward(self, marks: Sequence[set[int]], reached: list[int],
                 deadline: Deadline | None) -> list[set[int]]:
        """The digits each cell takes on a way from the empty start to the target, given
        the points `forward` reached: a digit fits where a point reached before it and
        shifted by it still reaches the target."""
        fit: list[set[int]] = [set() for _ in marks]
        reaching = 1 << self.top if reached[-1] >> self.top & 1 else 0
        for k in in_time(range(len(marks) - 1, -1, -1), deadline):
            before = 0
            for d in marks[k]:
                if d in self.shifts and (back := (reaching >> self.shifts[d]) & reached[k]):
                    fit[k].add(d)
                    before |= back
            reaching = before
        return fit

    def count(self, marks: Sequence[set[int]], deadline: Deadline | None) -> int:
        """How many fillings reach the target: a count a point, in slots of as many bits as
        the most fillings could need, so that no count spills into the next."""
        width = math.prod(len([d for d in cell if d in self.shifts]) or 1 for cell in marks).bit_length() + 1
        inside = self.filled((1 << width) - 1, width)
        counts = 1
        for cell in in_time(marks, deadline):
            after = 0
            for d in cell:
                if d in self.shifts:
                    after += counts << (self.shifts[d] * width)
            counts = after & inside
        return counts >> (self.top * width) & ((1 << width) - 1)


@lru_cache(maxsize=256)
def box(op: str, target: int, digits: frozenset[int], cells: int) -> Box | None:
    """The box of a sum or product of `target` over `cells` cells of `digits` (kept: a
    line is folded again at each step of a hint); None when the fold needs states of its
    own (another operation, a negative digit or target, a product of 0), and `NOWHERE`
    when the target has a prime factor none of the digits has, or more of one than the
    cells can make (a box that size would take memory for nothing: 5 cells of 2^3000)."""
    if op not in ("+", "*") or target < 0 or any(d < 0 for d in digits) or (op == "*" and target == 0):
        return None
    if op == "+":
        vectors = {d: (d,) for d in digits if d <= target}
        bounds: tuple[int, ...] = (target,)
    else:
        primes = sorted({p for d in digits if d > 0 for p in prime_factors(d)})
        bounds, rest = exponents(target, primes)
        if rest != 1:
            return NOWHERE
        vectors = {}
        for d in digits:
            if d > 0:
                vector, left = exponents(d, primes)
                if left == 1 and all(e <= b for e, b in zip(vector, bounds)):
                    vectors[d] = vector
    most = [max((v[i] for v in vectors.values()), default=0) for i in range(len(bounds))]
    if any(bound > step * cells for bound, step in zip(bounds, most)):
        return NOWHERE
    radices = [bound + 1 + step for bound, step in zip(bounds, most)]
    strides = tuple(math.prod(radices[:i]) for i in range(len(radices)))
    shifts = {d: sum(e * s for e, s in zip(vector, strides)) for d, vector in vectors.items()}
    empty = Box(sum(b * s for b, s in zip(bounds, strides)), 0, shifts, bounds, strides)
    return replace(empty, inside=empty.filled(1, 1))


NOWHERE = Box(1, 0, {}, (), ())  # no digit steps in it, its target never reached


def repeated(block: int, times: int, stride: int) -> int:
    """`block`'s bits copied `times` times, each `stride` bits past the one before (by
    doubling: a few shifts for a box's side of any length)."""
    out, run, copies, placed = 0, block, 1, 0  # run: `copies` copies of block
    while times:
        if times & 1:
            out |= run << (placed * stride)
            placed += copies
        run |= run << (copies * stride)
        copies, times = 2 * copies, times >> 1
    return out


def exponents(n: int, primes: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Each of `primes`' exponent in `n` (> 0), and what is left of `n` without them."""
    found = []
    for p in primes:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        found.append(e)
    return tuple(found), n


def prime_factors(n: int) -> list[int]:
    """The primes dividing `n` (> 0): a digit's, by trial division."""
    found, p = [], 2
    while p * p <= n:
        if n % p == 0:
            found.append(p)
            while n % p == 0:
                n //= p
        p += 1
    return found + [n] * (n > 1)


def zero_product(marks: Sequence[set[int]]) -> Fit:
    """The fillings of a product of 0: a zero in some cell, any digit in the others."""
    if not all(marks):
        return [set() for _ in marks], 0
    zeros = [k for k, cell in enumerate(marks) if 0 in cell]
    fit = [set(cell) if set(zeros) - {k} else ({0} & cell) for k, cell in enumerate(marks)]
    return fit, math.prod(map(len, marks)) - math.prod(len(cell - {0}) for cell in marks)


def stepwise(op: str, target: int, marks: list[set[int]], distinct: bool = False,
             deadline: Deadline | None = None) -> Fit:
    """`folded` a state at a time, by the states reachable from the left and those still
    able to reach `target`.  A state is the partial result and, if `distinct`, the digits
    used; the `deadline` is looked at cell by cell."""
    apply = (lambda a, d: a + d) if op == "+" else (lambda a, d: a * d)
    start = 0 if op == "+" else 1
    useful = (lambda a: a <= target) if op == "+" else (lambda a: target == 0 or (a and target % a == 0))

    def step(state: tuple[int, int], d: int) -> tuple[int, int] | None:
        partial, used = state
        bit = 1 << d if distinct else 0
        after = apply(partial, d)
        if used & bit or not ((op == "*" and after == 0 and target == 0) or useful(after)):
            return None
        return after, used | bit

    forward: list[dict[tuple[int, int], int]] = [{(start, 0): 1}]
    for cell in in_time(marks, deadline):
        states: dict[tuple[int, int], int] = {}
        for state, ways in forward[-1].items():
            for d in cell:
                if (after := step(state, d)) is not None:
                    states[after] = states.get(after, 0) + ways
        forward.append(states)
    backward = [{state for state in forward[-1] if state[0] == target}]
    for k in in_time(range(len(marks) - 1, -1, -1), deadline):
        backward.insert(0, {state for state in forward[k] for d in marks[k] if step(state, d) in backward[0]})
    fit = [{d for state in forward[k] if state in backward[k] for d in marks[k] if step(state, d) in backward[k + 1]}
           for k in in_time(range(len(marks)), deadline)]
    return fit, sum(forward[-1][state] for state in backward[-1])


def in_time(items: Iterable[T], deadline: Deadline | None) -> Iterator[T]:
    """`items`, each once `deadline` is seen not to have passed (TimeLimitExceeded)."""
    for item in items:
        if deadline is not None:
            deadline.left()
        yield item
