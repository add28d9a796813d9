"""Trying a candidate, as solvers do when no pattern is left: forcing chains and contradictions.

A trial places one candidate and follows the singles it leads to (naked and
hidden singles, a cage's or line's forced digits), as a person pencilling it
in would.  Three techniques read the trials (Sudoku Explainer's, SudokuWiki's
and HoDoKu's names; their ratings are Sudoku Explainer's):

- Nishio forcing chain (7.0): a candidate whose trial breaks the pencil marks
  ("if r1c1 were 5, singles alone would leave r3c4 no digit") goes.
- cell forcing chain (8.3): every candidate of one cell leads to the same
  digit in another cell, which takes it.
- unit forcing chain (8.3): every cell of a unit that can take a digit leads
  to the same digit in another cell.
- Nishio forcing chain (+) (8.5): a Nishio whose trial follows locked
  candidates and naked pairs as well as singles (Sudoku Explainer's "(+)").

Trials are cached per state of the pencil marks, so the techniques share them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from .techniques import Index, Marks, Step, Unit, at

NISHIO, FORCING, NISHIO_PLUS = 7.0, 8.3, 8.5


@dataclass(frozen=True)
class Trial:
    """What placing `digit` at `cell` leads to by singles: the digits placed, or why the marks
    break (`broken`, None when they hold)."""

    cell: Index
    digit: int
    placed: dict[Index, int]
    broken: str | None


def trial(m: Marks, cell: Index, digit: int, strong: bool = False) -> Trial:
    """Place `digit` at `cell` on a copy of the marks and follow the singles, round after round."""
    s = m.statement
    cands = [set(c) for c in m.cands]
    values = dict(m.values)
    todo = [(cell, digit)]
    full = [u for u in s.units if len(u.cells) == len(s.digits)]
    while todo:
        while todo:
            i, d = todo.pop()
            if i in values:
                if values[i] != d:
                    return Trial(cell, digit, values, f"{s.names[i]} would take both {values[i]} and {d}")
                continue
            if d not in cands[i]:
                return Trial(cell, digit, values, f"{s.names[i]} would take {d}, which it cannot")
            values[i], cands[i] = d, {d}
            for j in s.peers[i]:
                if d in cands[j]:
                    if j in values:
                        return Trial(cell, digit, values, f"{s.names[i]} and {s.names[j]} would both take {d}")
                    cands[j].discard(d)
                    if not cands[j]:
                        return Trial(cell, digit, values, f"{s.names[j]} would have no digit left")
                    if len(cands[j]) == 1:
                        todo.append((j, next(iter(cands[j]))))
        for u in full:
            for d in s.digits:
                places = [i for i in u.cells if d in cands[i]]
                if not places:
                    return Trial(cell, digit, values, f"no cell of {u.name} could take {d}")
                if len(places) == 1 and places[0] not in values:
                    todo.append((places[0], d))
        if todo:
            continue
        if strong and (broken := locked(s, full, cands, values, todo)):
            return Trial(cell, digit, values, broken)
        if todo:
            continue
        for t in s.tables:
            if (fit := t.fitting_digits(cands)) is None:
                return Trial(cell, digit, values, f"no filling of {t.name} would fit")
            todo += [(i, next(iter(f))) for i, f in zip(t.cells, fit) if len(f) == 1 and i not in values]
    return Trial(cell, digit, values, None)


def crossings(s) -> list[tuple[Unit, Unit, frozenset[Index]]]:
    """The pairs of whole units sharing two cells or more (a box and a line), computed once."""
    if not hasattr(s, "crossings"):
        full = [u for u in s.units if len(u.cells) == len(s.digits)]
        s.crossings = [(a, b, frozenset(a.cells) & frozenset(b.cells)) for a in full for b in full
                       if a is not b and len(set(a.cells) & set(b.cells)) >= 2]
    return s.crossings


def locked(s, full, cands, values, todo) -> str | None:
    """Locked candidates and naked pairs on the trial's marks, once: the singles they leave
    go to `todo`; what breaks, if anything."""
    changed = set()
    for a, b, common in crossings(s):
        for d in s.digits:
            places = [i for i in a.cells if d in cands[i]]
            if places and all(i in common for i in places) and not any(i in values for i in places):
                for j in b.cells:
                    if j not in common and j not in values and d in cands[j]:
                        cands[j].discard(d)
                        changed.add(j)
    for u in full:
        two = [i for i in u.cells if i not in values and len(cands[i]) == 2]
        for x in range(len(two)):
            for y in range(x + 1, len(two)):
                pair = cands[two[x]]
                if pair == cands[two[y]]:
                    for j in u.cells:
                        if j not in (two[x], two[y]) and j not in values and cands[j] & pair:
                            cands[j] -= pair
                            changed.add(j)
    for j in changed:
        if not cands[j]:
            return f"{s.names[j]} would have no digit left"
        if len(cands[j]) == 1:
            todo.append((j, next(iter(cands[j]))))
    return None


def tried(m: Marks, cell: Index, digit: int, strong: bool = False) -> Trial:
    """`trial`, computed once per state of the marks (the techniques below share them)."""
    key = (tuple(sorted(m.values.items())), tuple(frozenset(c) for c in m.cands))
    if getattr(m, "trials", (None,))[0] != key:
        m.trials = (key, {})
    known = m.trials[1]
    if (cell, digit, strong) not in known:
        known[cell, digit, strong] = trial(m, cell, digit, strong)
    return known[cell, digit, strong]


def open_cells(m: Marks) -> list[Index]:
    """The open cells, fewest candidates first: a person tries those first."""
    return sorted((i for i in range(len(m.cands)) if i not in m.values), key=lambda i: (len(m.cands[i]), i))


def nishio(within: Callable[[], bool] = lambda: True, strong: bool = False) -> Callable[[Marks], Iterator[Step]]:
    """A candidate whose trial breaks the marks goes; with `strong`, the trial follows locked
    candidates and naked pairs too."""
    how = "singles, locked candidates and naked pairs" if strong else "singles alone"

    def nishio_forcing_chains(m: Marks) -> Iterator[Step]:
        s = m.statement
        for i in open_cells(m):
            for d in sorted(m.cands[i]):
                if not within():
                    return
                broken = tried(m, i, d, strong).broken
                if broken:
                    yield Step("Nishio forcing chain" + (" (+)" if strong else ""), NISHIO_PLUS if strong else NISHIO,
                               s.names[i], f"if {s.names[i]} were {s.word(d)}, {how} would follow until {broken}: "
                               f"{s.word(d)} leaves {s.names[i]}", (i,), removed=((i, d),))
                    return
    return nishio_forcing_chains


def agreed(m: Marks, branches: list[Trial]) -> list[tuple[Index, int]]:
    """The placements every branch makes (in an open cell), when none breaks (a branch that
    breaks is a Nishio's)."""
    if any(b.broken for b in branches):
        return []
    common = set(branches[0].placed.items())
    for b in branches[1:]:
        common &= set(b.placed.items())
    return sorted((i, d) for i, d in common if i not in m.values)


def forcing_chains(within: Callable[[], bool] = lambda: True) -> Callable[[Marks], Iterator[Step]]:
    """Cell and unit forcing chains: every candidate of a cell, or every place of a digit in a
    unit, leads by singles to the same digit in one cell: it takes it."""
    def cell_and_unit_forcing_chains(m: Marks) -> Iterator[Step]:
        s = m.statement
        choices = [(s.names[i], [(i, d) for d in sorted(m.cands[i])], "cell")
                   for i in open_cells(m) if len(m.cands[i]) <= 3]
        choices += [(u.name, [(i, d) for i in u.cells if i not in m.values and d in m.cands[i]], "unit")
                    for u in s.units if len(u.cells) == len(s.digits) for d in s.digits]
        for place, branches, kind in sorted((c for c in choices if 2 <= len(c[1]) <= 3), key=lambda c: len(c[1])):
            if not within():
                return
            found = agreed(m, [tried(m, i, d) for i, d in branches])
            if found:
                j, e = found[0]
                yield Step(f"{kind} forcing chain", FORCING, place,
                           f"each of {', '.join(at(s, i, d) for i, d in branches)} leads by singles to "
                           f"{at(s, j, e)}", tuple(i for i, _ in branches) + (j,), placed=(j, e))
                return
    return cell_and_unit_forcing_chains
