"""CrossCells' rules as data: the operators (one row of OPERATORS each), the tokens
a puzzle is made of (cells, constraints, the lines they form), and the value a
line's ON cells give under each rule variant."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Sequence

from ..errors import InvalidValue
from ..puzzle import clue_number, integer, items

TOTAL, COUNT = "=", "#"
FIRST_CELL_RULES = ("zero", "seeds")  # a line starts at 0, or its first ON cell seeds it
PRECEDENCES = ("left-to-right", "standard")  # one operation after another, or * / before + -
SUMPLETE, NUMBER_SUMS = "sumplete", "number-sums"
GAMES = ("crosscells", SUMPLETE, NUMBER_SUMS)  # Sumplete and Number Sums: every cell adds its number


def unfit_rules(game: str, first_cell: str) -> str | None:
    """Why a puzzle of `game` cannot follow the rule `first_cell`, or None when it can:
    Sumplete and Number Sums add every number they keep, from 0."""
    if game != "crosscells" and first_cell == "seeds":
        return f"{game} adds its numbers: the first-cell rule 'seeds' does not apply"
    return None
SUM, PRODUCT = "sum", "product"  # how tightly an operator binds under standard precedence


@dataclass(frozen=True)
class Operator:
    """One row of the operator table: all that crossprolog's Python knows of an operator.

    `symbol` names it in the model and in Prolog; `aliases` are other ways to
    type it.  `apply(value, n)` is the value after the operation, None where
    it has none (a division that is not exact).  `tier` is SUM for an
    operator that adds what it gives 0 (under standard precedence it starts
    a new term), PRODUCT for one that binds tighter.  A `positive` operator
    needs a number above 0, since its `name` by 0 has no value.  The
    generator deals it by `weight` (0: never), with a number from `numbers`.
    """

    symbol: str
    aliases: tuple[str, ...]
    apply: Callable[[int, int], int | None]
    tier: str
    name: str = ""
    positive: bool = False
    weight: int = 0
    numbers: range = range(0)


def exact_division(value: int, n: int) -> int | None:
    """value / n when n divides value, else None."""
    return value // n if value % n == 0 else None


# Multiplication and division keep to small numbers so that totals stay readable.
OPERATORS = {operator.symbol: operator for operator in [
    Operator("+", (), lambda value, n: value + n, SUM, weight=4, numbers=range(1, 10)),
    Operator("-", ("−",), lambda value, n: value - n, SUM, weight=3, numbers=range(1, 10)),
    Operator("*", ("x", "×"), lambda value, n: value * n, PRODUCT, weight=2, numbers=range(2, 4)),
    Operator("/", ("÷",), exact_division, PRODUCT, "division", positive=True, weight=1,
             numbers=range(2, 4)),
    # The remainder keeps the sign of the value (-7 % 3 is -1), as C and Prolog's `rem` do.
    Operator("%", (), lambda value, n: abs(value) % n * (-1 if value < 0 else 1), PRODUCT,
             "remainder of a division", positive=True),
]}
OnOff = int  # 1: on, 0: off
Ons = Sequence[OnOff]  # one per cell, in reading order


class Place(NamedTuple):
    """Where a token was drawn: its 0-based text line and character column (a tuple:
    a reader makes one for each of a text's thousands of tokens)."""

    line: int
    column: int


DECIDED = {1: "!", 0: "~"}  # the mark after a cell a solver has decided: ON, OFF


@dataclass(frozen=True)
class Cell:
    """An operation, such as `*` 2, the letters of the groups it belongs to, in order ("" for
    none), and whether a solver has decided it already (1 on, 0 off, None not yet)."""

    op: str
    number: int
    group: str = ""
    place: Place | None = field(default=None, compare=False)
    text: str = field(default="", compare=False)  # as typed: `x2a` for * 2 in group a
    decided: OnOff | None = None

    def __post_init__(self) -> None:
        if self.op not in OPERATORS:
            raise InvalidValue(f"a cell's operator is one of {' '.join(OPERATORS)}, not {self.op!r}")
        object.__setattr__(self, "number", clue_number(self.number, "a cell's number"))
        if self.number < 0 or (OPERATORS[self.op].positive and self.number == 0):
            raise InvalidValue(f"{self.op}{self.number} is not a valid cell: numbers are 0 or more, "
                               f"and a {self.op} cell's above 0" if OPERATORS[self.op].positive
                               else f"{self.op}{self.number} is not a valid cell: numbers are 0 or more")
        if not isinstance(self.group, str):
            raise InvalidValue(f"a cell's group is letters or '', not {self.group!r}")
        object.__setattr__(self, "group", "".join(sorted(set(self.group))))
        if not self.text:
            object.__setattr__(self, "text", f"{self.op}{self.number}{self.group}"
                                             f"{DECIDED.get(self.decided, '')}")

    def applied(self, value: int) -> int | None:
        """`value` with this cell's operation applied; None when it has none."""
        return OPERATORS[self.op].apply(value, self.number)


@dataclass(frozen=True)
class Constraint:
    """A total (`=`) or a count (`#`), for a row, a column, or the cells of `group`."""

    kind: str
    value: int
    group: str = ""
    place: Place | None = field(default=None, compare=False)
    text: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", clue_number(self.value, "a constraint's value"))
        if self.kind not in (TOTAL, COUNT) or (self.kind == COUNT and self.value < 0):
            raise InvalidValue(f"not a constraint: {self.kind}{self.value} (a total =N, or a count #N "
                               "with N at least 0)")
        if not isinstance(self.group, str):
            raise InvalidValue(f"a constraint's group is a letter or '', not {self.group!r}")
        if not self.text:
            object.__setattr__(self, "text", f"{self.group}{self.kind}{self.value}")


def drawn_at(token: Cell | Constraint, line: int, column: int) -> Cell | Constraint:
    """`token` as drawn at `Place(line, column)`: a copy whose checks, which hold wherever
    it stands, are not run again (`dataclasses.replace` would run them, for each of a
    text's thousands of tokens)."""
    copy = object.__new__(type(token))
    copy.__dict__.update(token.__dict__, place=tuple.__new__(Place, (line, column)))
    return copy


@dataclass(frozen=True)
class Line:
    """A row (left to right) or column (top to bottom) of cells, by index.

    `head` stands before the first cell (left of a row, above a column) and
    reads the line backward; `tail` stands after the last and reads forward.
    """

    cells: tuple[int, ...]
    head: Constraint | None = None
    tail: Constraint | None = None

    def __post_init__(self) -> None:
        cells = self.cells
        if type(cells) is not tuple or not set(map(type, cells)) <= {int}:  # the usual case at C speed
            cells = tuple(integer(i, "a cell index") for i in items(cells, "a line's cells"))
            object.__setattr__(self, "cells", cells)
        for end in (self.head, self.tail):
            if end is not None and not isinstance(end, Constraint):
                raise InvalidValue(f"a line's head and tail are Constraints or None, not {end!r}")

    def readings(self) -> list[Reading]:
        ends = [(self.head, self.cells[::-1]), (self.tail, self.cells)]
        return [Reading(cells, constraint) for constraint, cells in ends if constraint]


@dataclass(frozen=True)
class Reading:
    """A constraint and the cells it reads, in the order it reads them."""

    cells: tuple[int, ...]
    constraint: Constraint

    def holds(self, cells: Sequence[Cell], ons: Ons, first_cell: str = "zero",
              precedence: str = "left-to-right") -> bool:
        """Whether the constraint holds over a puzzle's `cells` (in reading order) when
        `ons` says which are on, under its rules."""
        on_cells = [cells[i] for i in self.cells if ons[i]]
        if self.constraint.kind == COUNT:
            return len(on_cells) == self.constraint.value
        return value_of(on_cells, first_cell, precedence) == self.constraint.value


def value_of(on_cells: Sequence[Cell], first_cell: str = "zero",
             precedence: str = "left-to-right") -> int | None:
    """The value ON cells give, read in order; None when an operation has none.

    The value is the sum of the finished terms and the current one.  Under
    standard precedence a SUM operator finishes the term and starts the next
    with what it gives 0; every other operation applies to the current term.
    Left to right, every operation applies to the term, which is then the
    whole value.
    """
    done, term = 0, 0
    for n, cell in enumerate(on_cells):
        operator = OPERATORS[cell.op]
        if n == 0 and first_cell == "seeds":
            term = cell.number
        elif precedence == "standard" and operator.tier == SUM:
            done, term = done + term, operator.apply(0, cell.number)
        else:
            term = operator.apply(term, cell.number)
        if term is None:
            return None
    return done + term



def unmarked(text: str) -> str:
    """A cell's text without a solver's mark."""
    return text.rstrip("".join(DECIDED.values()))



def ends(line: Line) -> list[Constraint]:
    """The constraints at a line's ends, head first."""
    return [end for end in (line.head, line.tail) if end]
