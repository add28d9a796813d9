"""The rule of 45: a unit holding every digit adds up to their total.

A Killer Sudoku solver's innies and outies, over any statement whose tables
have a fixed sum (every filling of a Killer cage adds up to its clue, and so
does every filling of a KenKen cage such as 2x, whose only digits are 1 and 2).
The grid kernel reasons the same way as it searches (prolog/grid_sums.pl,
implied_sums/4); this is the step a person writes down.
"""

from __future__ import annotations

from itertools import product
from typing import Iterator, Sequence

from .techniques import Index, Marks, Step, Table, cited, name, said

MOST_CELLS = 3  # a person adds up the rest of a unit when it is a few cells, as the kernel does
RATING = 2.7  # after pointing (2.6), before a cage's digits leave a line (2.8)


def innies_and_outies(m: Marks) -> Iterator[Step]:
    """In a unit with a cell for every digit, the cages inside it leave the rest of its
    cells the difference of the unit's total (innies); the cages covering it put what
    they hold beyond it in their cells outside (outies).  A rest of at most MOST_CELLS
    cells keeps only the digits some way of adding up to that difference allows."""
    s = m.statement
    whole = sum(s.digits)
    sums = [(t, total) for t in s.tables if (total := fixed_sum(t)) is not None]
    for u in s.units:
        if len(u.cells) != len(s.digits):
            continue
        cells = set(u.cells)
        inside = [(t, total) for t, total in sums if set(t.cells) <= cells]
        meeting = [(t, total) for t, total in sums if set(t.cells) & cells]
        if inside and disjoint(inside):
            rest = cells - covered(inside)
            yield from rest_steps(m, u.name, "innies", sorted(rest), whole - totalled(inside), inside,
                                  f"{u.name} adds up to {whole}, its cages inside to {totalled(inside)}")
        if disjoint(meeting) and cells <= covered(meeting):
            out = covered(meeting) - cells
            yield from rest_steps(m, u.name, "outies", sorted(out), totalled(meeting) - whole, meeting,
                                  f"the cages covering {u.name} add up to {totalled(meeting)}, "
                                  f"{u.name} to {whole}")


def fixed_sum(t: Table) -> int | None:
    """What every filling of `t` adds up to, when they all add up to the same."""
    if t.fillings:
        totals = {sum(f) for f in t.fillings}
        return totals.pop() if len(totals) == 1 else None
    return t.target if t.op == "+" else None


def disjoint(tables: Sequence[tuple[Table, int]]) -> bool:
    return sum(len(t.cells) for t, _ in tables) == len(covered(tables))


def covered(tables: Sequence[tuple[Table, int]]) -> set[Index]:
    return {i for t, _ in tables for i in t.cells}


def totalled(tables: Sequence[tuple[Table, int]]) -> int:
    return sum(total for _, total in tables)


def rest_steps(m: Marks, place: str, kind: str, rest: list[Index], target: int,
               tables: Sequence[tuple[Table, int]], why: str) -> Iterator[Step]:
    """The step the rest's `target` gives: a cell placed, or digits removed."""
    s = m.statement
    if not 0 < len(rest) <= MOST_CELLS or all(i in m.values for i in rest):
        return
    fit = fitting(m, rest, target)
    if not all(fit):
        return  # the marks are broken: another step tells
    cells = tuple(i for t, _ in tables for i in t.cells) + tuple(rest)
    clues = tuple(t.clue for t, _ in tables if t.clue) + cited(m, rest)
    so = f"{why}, so" if len(rest) == 1 else f"{why}, so {name(s, rest)} add up to {target}:"
    for k, i in enumerate(rest):
        if i not in m.values and len(fit[k]) == 1 and len(m.cands[i]) > 1:
            d = next(iter(fit[k]))
            yield Step(kind, RATING, place, f"{so} {s.names[i]} is {d}", cells, clues, placed=(i, d))
    removed = tuple((i, d) for k, i in enumerate(rest) if i not in m.values
                    for d in sorted(m.cands[i] - fit[k]))
    if removed:
        yield Step(kind, RATING, place, f"{so} {said(s, removed)} go", cells, clues, removed=removed)


def fitting(m: Marks, rest: list[Index], target: int) -> list[set[int]]:
    """The digits each cell of `rest` takes in some way of adding up to `target` that
    the pencil marks allow, no digit twice in cells that share a unit."""
    s = m.statement
    fit: list[set[int]] = [set() for _ in rest]
    for digits in product(*(sorted(m.cands[i]) for i in rest)):
        if sum(digits) != target:
            continue
        if any(digits[a] == digits[b] for a in range(len(rest)) for b in range(a)
               if rest[b] in s.peers[rest[a]]):
            continue
        for k, d in enumerate(digits):
            fit[k].add(d)
    return fit
