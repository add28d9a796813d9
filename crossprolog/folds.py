"""A line's or cage's sum or product, folded cell by cell: which digits each cell takes in
some filling the pencil marks allow, and how many fillings there are, without listing
them (`Table.fitting` of a table stated by its operation and target).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator, TypeVar

if TYPE_CHECKING:
    from .reasoner import Deadline

T = TypeVar("T")


def folded(op: str, target: int, marks: list[set[int]], distinct: bool = False,
           deadline: Deadline | None = None) -> tuple[list[set[int]], int]:
    """`Table.fitting` for a sum or product over `marks` (no digit twice if `distinct`),
    by the states reachable from the left and those still able to reach `target` (no
    filling listed).  A state is the partial result and, if `distinct`, the digits used;
    the `deadline` is looked at cell by cell."""
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
