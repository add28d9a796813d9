"""What every caged square grid of digits shares (KenKen, Killer Sudoku): its cages
checked and kept in a canonical order, its givens checked, the cages' letters, and
the puzzle keeping some of its clues or with some digits placed.

A family's model derives CagedGrid beside explain.Explainable; it has `size`,
`cages` (each with `cells`, `name` and its `clue` as typed), `givens` (rows of
digits or None), `drawn` (its cages walled in, not lettered) and `below` (the
lines typed below a lettered grid), and names a cage with `cage_called`."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import ClassVar, Collection, Mapping, Sequence

from .answers import Clue, Solution
from .errors import InvalidValue, shown
from .puzzle import integer, items, rows_of, unchecked
from .scene import Marking, Token

Place = tuple[int, int]  # (row, column), 0-based
Grid = tuple[tuple[int, ...], ...]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
# A line typed below a lettered grid as the models keep it (`below`): a clue line as its
# cage's letter and what stands before its number (`a `, `a: `), a comment or a blank
# line as ("", its text).
CLUE_HEAD = re.compile(r"([A-Za-z])(?: *: *| +)")
NOTE = re.compile(r"(?: *#.*)?")


def cage_cells(cells) -> tuple[Place, ...]:
    """A cage's cells as (row, column) pairs of ints, in order; InvalidValue unless
    they are such pairs, and at least one."""
    checked = tuple(sorted(tuple(integer(i, "a cage's cell row or column") for i in cell)
                           for cell in rows_of(cells, "a cage's cells")))
    if not checked or any(len(cell) != 2 for cell in checked):
        raise InvalidValue(f"a cage's cells are (row, column) pairs, not {cells!r}")
    return checked


class CagedGrid:
    """The methods a caged square grid's model shares (see the module)."""

    cage_number: ClassVar[str]  # the field of a cage its clue states: a KenKen's target, a Killer's total

    @classmethod
    def from_checked(cls, **values):
        """The puzzle of values already as `__post_init__` leaves them (cages made by
        `unchecked` in order of their cells, givens a tuple per row of digits 1..size
        or None), made without checking them again: for a grammar that has."""
        return unchecked(cls, **values)

    def check_cages_and_givens(self, cage_type: type) -> None:
        """Refuse, with InvalidValue, cages not of `cage_type`, outside the grid or
        overlapping, givens of another shape or outside 1..size, and lines below the
        grid that would not read back; keep the cages in order of their cells, the
        givens as tuples of ints."""
        below = items(self.below, "below")
        if wrong := next((line for line in below if not typed_below(line)), None):
            raise InvalidValue(f"a line below the grid is (letter, 'a ') for a clue line, or ('', text) "
                               f"for a comment or a blank line, not {shown(wrong)}")
        typed = [letter for letter, _ in below if letter]
        if len(set(typed)) < len(typed):
            raise InvalidValue("a cage's clue line stands once below the grid")
        object.__setattr__(self, "below", below)
        cages = items(self.cages, "the cages")
        if not all(isinstance(cage, cage_type) for cage in cages):
            raise InvalidValue("the cages must be Cage objects")
        object.__setattr__(self, "cages", tuple(sorted(cages, key=lambda cage: cage.cells)))
        places = [place for cage in self.cages for place in cage.cells]
        if len(set(places)) != len(places) or not all(0 <= r < self.size and 0 <= c < self.size
                                                      for r, c in places):
            raise InvalidValue("the cages must be inside the grid, no cell in two")
        givens = rows_of(self.givens, "givens") if self.givens is not None else (
            ((None,) * self.size,) * self.size)
        if len(givens) != self.size or any(len(row) != self.size for row in givens):
            raise InvalidValue(f"givens are {self.size} rows of {self.size} cells")
        object.__setattr__(self, "givens", tuple(tuple(None if d is None else self._digit(d, r, c)
                                                       for c, d in enumerate(row))
                                                 for r, row in enumerate(givens)))

    def _digit(self, value, r: int, c: int) -> int:
        digit = integer(value, f"givens[{r}][{c}]")
        if not 1 <= digit <= self.size:
            raise InvalidValue(f"givens[{r}][{c}] is {digit}, not a digit 1-{self.size}")
        return digit

    def solution_values(self, answer) -> Grid:
        return tuple(tuple(row) for row in answer)

    def answer_shape(self) -> tuple[int, int]:
        return self.size, self.size

    def clues(self) -> tuple[Clue, ...]:
        """The cages, each named by its letter (`cage_called`), and the givens."""
        letters = self.letters()
        cages = [Clue("cage", self.cage_called(cage, letters[cage.cells[0]]),
                      name=letters[cage.cells[0]], cells=frozenset(cage.cells)) for cage in self.cages]
        givens = [Clue("given", f"the {d} at row {r + 1}, column {c + 1}", cell=(r, c),
                       cells=frozenset({(r, c)}))
                  for r, row in enumerate(self.givens) for c, d in enumerate(row) if d is not None]
        return tuple(cages + givens)

    def keeping(self, clues: Collection[Clue]):
        kept = set(clues)
        letters = self.letters()
        named = [replace(cage, name=letters[cage.cells[0]]) for cage in self.cages]
        return replace(self, cages=tuple(cage for cage in named
                                         if Clue("cage", "", name=cage.name) in kept),
                       givens=tuple(tuple(d if Clue("given", "", cell=(r, c)) in kept else None
                                          for c, d in enumerate(row))
                                    for r, row in enumerate(self.givens)))

    def placing(self, values: Mapping[Place, int]):
        return replace(self, givens=tuple(tuple(values.get((r, c), d) for c, d in enumerate(row))
                                          for r, row in enumerate(self.givens)))

    def stated(self, clue: Clue) -> tuple[int, ...]:
        """A cage's number (a drawn cage's text also says where it is), or a given's."""
        return (getattr(self._cage(clue), self.cage_number),) if clue.kind == "cage" else super().stated(clue)

    def clue_reading(self, clue: Clue, solution: Solution) -> str | None:
        """A cage as `solution` makes it (`cage c (24*)`, a KenKen's operation kept; None
        when its digits make no number under it), or a given (explain.Explainable)."""
        if clue.kind != "cage":
            return super().clue_reading(clue, solution)
        grid = solution.to_json()
        cage = self._cage(clue)
        made = cage.made([grid[r][c] for r, c in cage.cells])
        return None if made is None else self.cage_called(replace(cage, **{self.cage_number: made}), clue.name)

    def retyped(self, clue: Clue, numbers: Sequence[int]):
        """The puzzle with the cage of `clue` stating `numbers[0]` instead (its operation
        kept), or with a given another digit (explain.Explainable.retyped)."""
        if clue.kind != "cage":
            return super().retyped(clue, numbers)
        cage = self._cage(clue)
        return replace(self, cages=tuple(replace(cage, **{self.cage_number: numbers[0]}) if each is cage else each
                                         for each in self.cages))

    def _cage(self, clue: Clue):
        return next(cage for cage in self.cages if frozenset(cage.cells) == clue.cells)

    def clue_lines(self, letters: Mapping[Place, str], marked: Marking) -> tuple[Token, ...]:
        """The lines below a lettered grid whose cells have `letters`: each cage's clue
        line (`a 12*`), marked as its clue is, where it was typed, with the comments and
        blank lines typed among them (`below`; those after the last clue line drawn
        left out, as a text read leaves them); then those of the cages typed nowhere
        (made in Python, say) in the order of their letters."""
        cages = {letters[cage.cells[0]]: cage for cage in self.cages}
        untyped = sorted(set(cages) - {letter for letter, _ in self.below}, key=lambda name: LETTERS.index(name[0]))
        lines = [(letter, head) for letter, head in [*self.below, *((letter, f"{letter} ") for letter in untyped)]
                 if not letter or letter in cages]
        return tuple(Token(f"{head}{cages[letter].clue}", marked.clue_of("cage", name=letter)) if letter
                     else Token(head) for letter, head in without_blanks_after_clues(lines))

    @staticmethod
    def walled_text(place: Place, digit: str, letters: Mapping[Place, str]) -> str:
        """How a cell is written when the cages are walled in: its digit, after a `.` for
        a cell in no cage (`letters` has a letter for every cell of a cage)."""
        return digit if place in letters else f". {digit}".rstrip()

    def letters(self) -> dict[Place, str]:
        """The letter of every caged cell: the cages' own names when every cage has one,
        else letters in reading order of the cages' first cells.  A drawn puzzle never
        writes them, so past the last letter its cages are named for their first cell
        (`r9c4`); InvalidValue for a lettered one."""
        if all(cage.name for cage in self.cages):
            return {place: cage.name for cage in self.cages for place in cage.cells}
        if len(self.cages) > len(LETTERS) and self.drawn:
            return {place: f"r{cage.cells[0][0] + 1}c{cage.cells[0][1] + 1}"
                    for cage in self.cages for place in cage.cells}
        if len(self.cages) > len(LETTERS):
            raise InvalidValue(f"{len(self.cages)} cages are more than the {len(LETTERS)} letters "
                               "a drawing can name")
        return {place: letter for cage, letter in zip(self.cages, LETTERS) for place in cage.cells}


def without_blanks_after_clues(lines: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """`lines` below a grid (as `below` holds them) less the blank lines after the last
    clue line: they part it from what follows, and a text read back leaves them out."""
    last = max((k for k, (letter, _) in enumerate(lines) if letter), default=-1)
    return [line for k, line in enumerate(lines) if k <= last or line[1]]


def typed_below(line: object) -> bool:
    """Whether `line` is a line below a lettered grid as the models keep it (see NOTE)."""
    if not (isinstance(line, tuple) and len(line) == 2 and all(isinstance(part, str) for part in line)):
        return False
    letter, text = line
    if letter:
        head = CLUE_HEAD.fullmatch(text)
        return head is not None and head[1] == letter
    return NOTE.fullmatch(text) is not None and text.isprintable()
