"""The techniques people solve by, stated once over a puzzle's rules as data.

A family's rules reach here as a `Statement`: cells, the digits they take,
units (cells holding different digits: Sudoku's rows, columns and boxes,
KenKen's rows and columns) and tables (cells whose digits must be one of a
cage's or a line's fillings: a KenKen or Killer cage, a CrossProduct line, a
CrossCells total).  A digit-grid family's statement is read from its own
statement in the grid kernel's terms (prolog/statement.pl), so a family added
on the kernel gets every technique from its rules, with no code here.

Each technique is one function from the pencil marks (`Marks`) to the steps
it finds, each a `Step`: a name as solvers say it ("hidden single"), the
place it points at ("box 5"), the cells and clues of its reason, and a cell
it places or the candidates it removes, rated as Sudoku Explainer rates it
where it does.  Innies and outies (a unit's total) are in `unit_totals.py`,
the techniques past the subsets in `hard_techniques.py`,
those trying a candidate in `forcing.py`; `solving.LADDER` lists them all,
easiest first.

Why Python and not Prolog: a technique is a few set operations over the
candidates of a unit, and its worth is in the explanation (which cells,
which unit, the fewest clues) more than in propagation strength; the grid
kernel keeps its search, the statement it is read from stays the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from .answers import Clue
from .folds import fitting_digits, folded

if TYPE_CHECKING:
    from .reasoner import Deadline

Index = int  # a cell, numbered 0.. in the statement's order


@dataclass(frozen=True)
class Unit:
    """Cells holding different digits, named as solvers name it ("row 3", "box 5")."""

    cells: tuple[Index, ...]
    name: str
    kind: str  # "row", "column", "box" or "run"


@dataclass(frozen=True)
class Table:
    """Cells whose digits form one of the fillings of a clue: `fillings` listed, or for
    long lines a sum or product (`op` "+" or "*") of `target`, any digits, or with
    `distinct` no digit twice."""

    cells: tuple[Index, ...]
    name: str
    clue: Clue | None
    fillings: tuple[tuple[int, ...], ...] | None = None
    op: str | None = None
    target: int | None = None
    distinct: bool = False
    known: dict = field(default_factory=dict, compare=False, repr=False)  # fitting's answers so far

    def fitting(self, marks: list[set[int]], deadline: Deadline | None = None) -> tuple[list[set[int]], int]:
        """The digits each cell takes in some filling the pencil marks allow, and how many
        such fillings there are; TimeLimitExceeded once `deadline` passes (a fold may take seconds)."""
        key = tuple(frozenset(marks[i]) for i in self.cells)
        if (known := self.known.get(key)) is None:
            if len(self.known) > 10_000:
                self.known.clear()
            self.known[key] = known = self._fitting(marks, deadline)
        return known

    def fitting_digits(self, marks: list[set[int]], deadline: Deadline | None = None) -> list[set[int]] | None:
        """The digits each cell takes in some filling the pencil marks allow, None when no
        filling fits: `fitting` without counting the fillings, which a long line's fold
        takes longer to do (`folds.fitting_digits`; a fold of different digits counts as it
        goes, and is kept)."""
        known = self.known.get(tuple(frozenset(marks[i]) for i in self.cells))
        if known is None and self.fillings is None and not self.distinct:
            return fitting_digits(self.op, self.target, [marks[i] for i in self.cells], self.distinct, deadline)
        fit, count = known or self.fitting(marks, deadline)
        return fit if count else None

    def _fitting(self, marks: list[set[int]], deadline: Deadline | None) -> tuple[list[set[int]], int]:
        if self.fillings is not None:
            fit = [f for f in self.fillings if all(d in marks[i] for i, d in zip(self.cells, f))]
            return [{f[k] for f in fit} for k in range(len(self.cells))], len(fit)
        return folded(self.op, self.target, [marks[i] for i in self.cells], self.distinct, deadline)


@dataclass
class Statement:
    """A puzzle's rules as data: each cell's place (as JSON indexes it) and name, the
    digits, units, tables, the cells already placed and the clue placing each."""

    places: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    digits: tuple[int, ...]
    units: tuple[Unit, ...]
    tables: tuple[Table, ...]
    placed: dict[Index, int]
    placed_by: dict[Index, Clue] = field(default_factory=dict)
    words: dict[int, str] | None = None  # what a value means, when it is no digit (ON, OFF)
    unique: bool = False  # known to have exactly one solution (what a unique rectangle needs)

    def word(self, d: int) -> str:
        return self.words[d] if self.words else str(d)

    def __post_init__(self) -> None:
        self.units_of = [[u for u in self.units if i in u.cells] for i in range(len(self.places))]
        self.peers = [sorted({j for u in us for j in u.cells} - {i}) for i, us in enumerate(self.units_of)]


@dataclass(frozen=True)
class Step:
    """One step of a person's solving: a technique (`rating` as Sudoku Explainer rates it)
    at a place, the cells and clues of its reason, and the cell it places or the
    candidates (cell, digit) it removes."""

    technique: str
    rating: float
    place: str
    text: str
    cells: tuple[Index, ...]
    clues: tuple[Clue, ...] = ()
    placed: tuple[Index, int] | None = None
    removed: tuple[tuple[Index, int], ...] = ()


class Marks:
    """The pencil marks: the digits each cell can still take, placed cells known."""

    def __init__(self, statement: Statement):
        self.statement = statement
        self.contradiction = False  # a digit placed twice in a unit, or where it cannot go
        self.values: dict[Index, int] = {}
        self.cands: list[set[int]] = [set(statement.digits) for _ in statement.places]
        for i, d in statement.placed.items():
            self.place(i, d)

    def place(self, i: Index, d: int) -> None:
        if self.values.get(i, d) != d or d not in self.cands[i]:
            self.contradiction = True
        self.values[i] = d
        self.cands[i] = {d}
        for j in self.statement.peers[i]:
            if j not in self.values:
                self.cands[j].discard(d)
            elif self.values[j] == d:
                self.contradiction = True

    def apply(self, step: Step) -> None:
        for i, d in step.removed:
            self.cands[i].discard(d)
        if step.placed:
            self.place(*step.placed)

    def open(self, cells: Sequence[Index]) -> list[Index]:
        return [i for i in cells if i not in self.values]

    def broken(self) -> bool:
        """Whether the marks show a contradiction: a cell or a table left nothing."""
        return (self.contradiction or any(not c for c in self.cands)
                or any(t.fitting_digits(self.cands) is None for t in self.statement.tables))

    def solved(self) -> bool:
        return len(self.values) == len(self.statement.places)


def told(step: Step) -> str:
    """A step as one clause: `hidden single in box 5: only r4c6 can take 7 (...)`."""
    return f"{step.technique} {'at' if step.technique == 'naked single' else 'in'} {step.place}: {step.text}"


def name(s: Statement, cells: Sequence[Index]) -> str:
    return ", ".join(s.names[i] for i in sorted(cells))


def seeing(m: Marks, cell: Index, d: int) -> list[Index]:
    """The placed peers of `cell` holding `d`."""
    return [j for j in m.statement.peers[cell] if m.values.get(j) == d]


def cited(m: Marks, cells: Sequence[Index]) -> tuple[Clue, ...]:
    """The clues that placed `cells` (givens, one-cell cages), once each."""
    return tuple(dict.fromkeys(m.statement.placed_by[i] for i in cells if i in m.statement.placed_by))


def full_houses(m: Marks) -> Iterator[Step]:
    s = m.statement
    for u in s.units:
        left = m.open(u.cells)
        if len(left) == 1 and len(u.cells) == len(s.digits) and len(m.cands[left[0]]) == 1:
            d = next(iter(m.cands[left[0]]))
            yield Step("full house", 1.0, u.name, f"{s.names[left[0]]} is its last open cell: it takes {d}",
                       tuple(u.cells), cited(m, u.cells), placed=(left[0], d))


def hidden_singles(m: Marks) -> Iterator[Step]:
    s = m.statement
    for u in s.units:
        if len(u.cells) != len(s.digits):
            continue
        placed = {m.values[i] for i in u.cells if i in m.values}
        for d in s.digits:
            where = [i for i in m.open(u.cells) if d in m.cands[i]]
            if d in placed or len(where) != 1 or len(m.open(u.cells)) == 1:
                continue
            blockers = covering(m, [i for i in m.open(u.cells) if i != where[0]], d)
            rating = 1.2 if u.kind == "box" else 1.5
            why = f" ({'; '.join(blockers.values())})" if blockers else ""
            yield Step("hidden single", rating, u.name,
                       f"only {s.names[where[0]]} can take {d}{why}",
                       tuple(u.cells) + tuple(j for j in blockers if isinstance(j, int)),
                       cited(m, [j for j in blockers if isinstance(j, int)]), placed=(where[0], d))


def covering(m: Marks, cells: list[Index], d: int) -> dict:
    """Why `d` is out of each of `cells`: the fewest placed `d`s seeing them (greedy),
    else its removal by an earlier step ("r2c3 ruled out")."""
    s = m.statement
    left, why = set(cells), {}
    while left:
        best = max((j for i in left for j in seeing(m, i, d)),
                   key=lambda j: (len(left & set(s.peers[j])), -j), default=None)
        if best is None:
            why[frozenset(left)] = f"{d} ruled out of {name(s, left)} before"
            break
        why[best] = f"the {d} at {s.names[best]}"
        left -= set(s.peers[best])
    return why


def naked_singles(m: Marks) -> Iterator[Step]:
    s = m.statement
    for i, c in enumerate(m.cands):
        if i in m.values or len(c) != 1 or not s.units_of[i]:
            continue
        d = next(iter(c))
        others = [min(seeing(m, i, e)) for e in s.digits if e != d and seeing(m, i, e)]
        yield Step("naked single", 2.3, s.names[i],
                   f"it sees {', '.join(str(m.values[j]) for j in sorted(others, key=m.values.get))}"
                   f" and can take only {d}" if others else f"it can take only {d}",
                   (i, *others), cited(m, others), placed=(i, d))


def table_steps(m: Marks) -> Iterator[Step]:
    """A cage or line whose fillings fitting the pencil marks leave a cell one digit (or
    remove some): the only filling, or fillings that agree there."""
    s = m.statement
    for t in s.tables:
        if (fit := t.fitting_digits(m.cands)) is None:
            continue  # no filling fits: nothing to place or remove (`Marks.broken` says so)
        inside = cited(m, t.cells)
        clues = ((t.clue,) if t.clue else ()) + inside
        for k, i in enumerate(t.cells):
            if i in m.values:
                continue
            if len(fit[k]) == 1:
                count = t.fitting(m.cands)[1]  # counted only to say so: longer to fold
                d = next(iter(fit[k]))
                technique, rating = (("only filling", 1.8) if count == 1
                                     else ("fillings leave one digit", 2.5))
                what = "its only filling left has" if count == 1 else f"its {count} fillings left all have"
                yield Step(technique, rating, t.name, f"{what} {at(s, i, d)}",
                           tuple(t.cells), clues, placed=(i, d))
        removed = tuple((i, d) for k, i in enumerate(t.cells) if i not in m.values
                        for d in sorted(m.cands[i] - fit[k]))
        if removed and all(len(fit[k]) for k in range(len(t.cells))):
            yield Step("fillings rule out digits", 2.5, t.name,
                       f"no filling has {said(s, removed)}", tuple(t.cells), clues,
                       removed=removed)


def said(s: Statement, removed: Sequence[tuple[Index, int]]) -> str:
    """`3 at r1c2, 4 or 5 at r1c3 and r1c4`: the cells grouped by the digits they lose."""
    by_cell: dict[Index, list[int]] = {}
    for i, d in removed:
        by_cell.setdefault(i, []).append(d)
    by_digits: dict[tuple[int, ...], list[Index]] = {}
    for i, ds in by_cell.items():
        by_digits.setdefault(tuple(ds), []).append(i)
    return "; ".join(f"{either(s, ds)} at {name(s, cells)}" for ds, cells in by_digits.items())


def either(s: Statement, digits: Sequence[int]) -> str:
    words = [s.word(d) for d in digits]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def at(s: Statement, i: Index, d: int) -> str:
    """`5 at r1c3`, or for cells switched on or off `+2a at r2c3 ON`."""
    return f"{s.names[i]} {s.word(d)}" if s.words else f"{d} at {s.names[i]}"


def cage_lines(m: Marks) -> Iterator[Step]:
    """A digit every fitting filling of a cage puts in its cells of a unit leaves the
    unit's other cells."""
    s = m.statement
    for t in s.tables:
        fillings = t.fillings
        if fillings is None:
            continue
        fit = [f for f in fillings if all(d in m.cands[i] for i, d in zip(t.cells, f))]
        for u in s.units:
            shared = [k for k, i in enumerate(t.cells) if i in u.cells]
            if not shared or set(u.cells) <= set(t.cells) or not fit:
                continue
            taken = set.intersection(*({f[k] for k in shared} for f in fit))
            removed = tuple((j, d) for d in sorted(taken) for j in m.open(u.cells)
                            if j not in t.cells and d in m.cands[j])
            if removed:
                yield Step("cage takes digits from a line", 2.8, f"{t.name} and {u.name}",
                           f"every filling puts {' and '.join(map(str, sorted(taken)))} in its cells of {u.name}, "
                           f"so {said(s, removed)} go", tuple(t.cells), (t.clue,) if t.clue else (),
                           removed=removed)


def locked_candidates(m: Marks) -> Iterator[Step]:
    s = m.statement
    for a in s.units:
        if len(a.cells) != len(s.digits):
            continue
        for b in s.units:
            common = set(a.cells) & set(b.cells)
            if b is a or len(common) < 2:
                continue
            for d in s.digits:
                where = [i for i in m.open(a.cells) if d in m.cands[i]]
                if not where or not set(where) <= common:
                    continue
                removed = tuple((j, d) for j in m.open(b.cells) if j not in common and d in m.cands[j])
                if removed:
                    kind = "pointing" if a.kind == "box" else "claiming"
                    yield Step(f"locked candidates ({kind})", 2.6 if kind == "pointing" else 2.8,
                               a.name, f"its {d}s are all in {b.name}, so {d} leaves "
                               f"{name(s, [j for j, _ in removed])}", tuple(a.cells), removed=removed)


def subsets(size: int, hidden: bool) -> Callable[[Marks], Iterator[Step]]:
    """Naked (or hidden) pairs, triples, quads: `size` cells of a unit holding only
    `size` digits (or `size` digits only `size` cells of a unit can hold)."""
    word = {2: "pair", 3: "triple", 4: "quad"}[size]
    rating = ({2: 3.4, 3: 4.0, 4: 5.4} if hidden else {2: 3.0, 3: 3.6, 4: 5.0})[size]
    technique = f"{'hidden' if hidden else 'naked'} {word}"

    def found(m: Marks) -> Iterator[Step]:
        s = m.statement
        for u in s.units:
            cells = m.open(u.cells)
            if hidden:
                if len(u.cells) != len(s.digits):
                    continue
                digits = sorted({d for i in cells for d in m.cands[i]})
                for ds in combinations(digits, size):
                    where = {i for i in cells if m.cands[i] & set(ds)}
                    removed = tuple((i, d) for i in sorted(where) for d in sorted(m.cands[i] - set(ds)))
                    if len(where) == size and removed:
                        yield Step(technique, rating, u.name,
                                   f"only {name(s, where)} can take {', '.join(map(str, ds))}, "
                                   f"so the other digits leave them", tuple(u.cells), removed=removed)
            else:
                for group in combinations([i for i in cells if len(m.cands[i]) <= size], size):
                    ds = set().union(*(m.cands[i] for i in group))
                    removed = tuple((j, d) for j in cells if j not in group for d in sorted(ds & m.cands[j]))
                    if len(ds) == size and removed:
                        yield Step(technique, rating, u.name,
                                   f"{name(s, group)} hold only {', '.join(map(str, sorted(ds)))}, "
                                   f"so {said(s, removed)} go", tuple(u.cells), removed=removed)
    found.__name__ = technique.replace(" ", "_")
    return found
