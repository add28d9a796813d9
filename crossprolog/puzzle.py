"""What every puzzle family shares: solving, counting and checking through Prolog."""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from dataclasses import fields
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Collection, Iterator, Mapping, Sequence

from . import backends, searches
from .answers import NO_MARKS, Cell, Clue, Search, Solution, json_ready
from .errors import Interrupted, InvalidValue, ResourceLimit, TimeLimitExceeded, UsageError, shown
from .families import named
from .scene import Markable, Scene, marking

if TYPE_CHECKING:
    from .family import Family


class Puzzle(ABC):
    """A puzzle of some family.

    A family's model says how it crosses into Prolog (`prolog_data`), how a
    Prolog answer comes back (`solution_values`), and draws itself
    (`render`).  Its record (`crossprolog.registry`) says the rest.
    Everything else, the search itself, lives here once.
    """

    family: ClassVar[str]
    layout: str  # the format the puzzle was written in: one of drawing.FORMATS

    @property
    def record(self) -> Family:
        """The family's record: its options, grammar, Prolog module, generator."""
        return named(self.family)

    @abstractmethod
    def prolog_data(self) -> dict:
        """The puzzle as plain data for the family's Prolog module."""

    @abstractmethod
    def solution_values(self, answer: Any) -> Any:
        """A Prolog answer turned into the family's solution values."""

    @abstractmethod
    def answer_shape(self) -> tuple[int, ...]:
        """The lengths of the nested lists of a Prolog answer, integers innermost:
        (9, 9) for nine lists of nine digits.  A user's encoding is held to it."""

    def render(self, solution: Solution | None = None, format: str | None = None,
               marks: Markable = NO_MARKS) -> str:
        """The puzzle, solved by `solution` if given, drawn in `format` (default: its own
        layout; any of backends.FORMATS: text, markdown, svg, html), with `marks`."""
        return backends.render(self.scene(solution, marks), format or self.layout)

    def own(self, solution: Solution | None) -> Solution | None:
        """`solution`, when it can be this puzzle's (its family, its shape); InvalidValue
        for another's, which would be drawn into this grid as if it fit."""
        if solution is not None and not isinstance(solution, Solution):
            raise InvalidValue(f"a solution is a Solution (as solve() gives it) or None, not {shown(solution)}")
        if solution is not None and (solution.puzzle.family != self.family
                                     or solution.puzzle.answer_shape() != self.answer_shape()):
            raise InvalidValue(f"that solution is of a {solution.puzzle.family} puzzle of shape "
                               f"{solution.puzzle.answer_shape()}, not of this {self.family} puzzle "
                               f"of shape {self.answer_shape()}")
        return solution

    def scene(self, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
        """The drawing of the puzzle, solved by `solution` if given, with `marks` (an
        answers.Marks, its cells and clues pointed at, or a scene.Marking); InvalidValue
        for a solution of another puzzle (see `own`).  A marked given's cell is marked
        too, in every family (scene.Marking.givens_on_cells)."""
        return self.drawn_scene(self.own(solution), marking(marks).givens_on_cells())

    def drawn_scene(self, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
        """`scene`, `solution` being this puzzle's and `marks` a Marking whose givens'
        cells are marked: what each family draws."""
        raise UsageError(f"the {self.family} family draws no pictures yet")

    # What puzzle makers and stuck solvers ask about (see explain.py): a family
    # names its clues and cells.

    @abstractmethod
    def clues(self) -> tuple[Clue, ...]:
        """Every clue the puzzle states, in the order the layout draws them."""

    @abstractmethod
    def keeping(self, clues: Collection[Clue]) -> Puzzle:
        """The puzzle with only `clues` of its clues (its family's own rules kept)."""

    def hideable(self, clue: Clue) -> bool:
        """Whether a maker may leave `clue` out and keep the puzzle of its kind: a given
        digit.  A CrossProduct's products, a KenKen's, Killer Sudoku's or Kakuro's
        cages and runs make the puzzle what it is; a CrossCells' totals are clues like
        its givens (making.py's well-formed puzzles hide what is hideable)."""
        return clue.kind == "given"

    @property
    def optimizes(self) -> bool:
        """Whether the puzzle's solutions are the best of the grids its rules allow, by
        an objective: a question that restricts its cells then has other best grids,
        so one about its solutions searches the puzzle itself (making.py)."""
        return False

    @abstractmethod
    def open_cells(self) -> list[Cell]:
        """The cells not yet decided, as JSON indexes them."""

    @abstractmethod
    def placing(self, values: Mapping[Cell, int]) -> Puzzle:
        """The puzzle with the cells of `values` decided (given) as those values."""

    def cell_path(self, cell: Cell) -> list[int]:
        """Where `cell`'s variable is in the solution term of the Prolog module."""
        return list(cell)

    def cell_name(self, cell: Cell) -> str:
        """The cell, as a person would say it."""
        return f"row {cell[0] + 1}, column {cell[1] + 1}"

    def value_name(self, cell: Cell, value: int) -> str:
        """What `value` in `cell` means, as a person would say it: `only 7 at row 2, column 3`."""
        return f"only {value} at {self.cell_name(cell)}"

    def obvious_conflict(self) -> tuple[Clue, ...] | None:
        """Clues that arithmetic alone shows cannot hold together, if the family knows a
        quick check (the search for a minimal conflict starts from them)."""
        return None

    def additions(self, solution: list, cells: Sequence[Cell]) -> Iterator[tuple[str, Puzzle]]:
        """Puzzles with one more clue that `solution` (as JSON has it) meets, each with
        what to say of it, to try for making the solution unique: by default a given
        digit at each of `cells`."""
        for cell in cells:
            value = solution[cell[0]][cell[1]]
            yield f"give {value} at {self.cell_name(cell)}", self.placing({cell: value})

    # What an exported program needs (see export.py): by default, for a grid.

    def drawing_template(self) -> list[list[Any]]:
        """How an exported program prints a solution, line by line: text, or
        {"at": [r, c]} for the value at that place of the Prolog answer.  By
        default the rows of the grid, values apart by a blank."""
        height, width = self.answer_shape()
        return [[part for c in range(width) for part in ([" "] if c else []) + [{"at": [r, c]}]]
                for r in range(height)]

    def variable_names(self) -> list[Any]:
        """A name for each variable of the Prolog answer, in its shape: by default
        R2C3 for row 2, column 3 of the grid."""
        height, width = self.answer_shape()
        return [[f"R{r + 1}C{c + 1}" for c in range(width)] for r in range(height)]

    def solution_json(self, solution: Solution) -> Any:
        """The solution as JSON-ready data: its values, tuples as lists."""
        return json_ready(solution.values)

    def solution_extras(self, solution: Solution) -> dict[str, Any]:
        """Keys a family adds to a solved puzzle's JSON record (an objective, say)."""
        return {}

    def directives(self) -> list[str]:
        """The directive lines that state this puzzle's options, where they are not the default."""
        return [option.directive(getattr(self, option.key)) for option in self.record.options
                if getattr(self, option.key) != option.default_value()]

    # The search: one crossing into Prolog per call.

    def search(self, *, limit: int = 0, timeout: float | None = None,
               encoding: str | None = None, keep: bool = True, progress: str = "") -> Search:
        """Run the search: up to `limit` solutions (0: all) within `timeout` seconds.

        The Search returned holds Solution objects (none with keep=False).
        `progress` is as `searches.find` takes it.  Ctrl-C raises Interrupted
        with the Search so far (status "interrupted") in its `found`; running out of
        stack or memory raises ResourceLimit, with the Search so far (status
        "resource") in its `found`.
        """
        try:
            found = searches.find(self.record.prolog, self.prolog_data(), shape=self.answer_shape(),
                                limit=limit, timeout=timeout, encoding=encoding, keep=keep,
                                progress=progress)
        except Interrupted as stopped:
            raise Interrupted(stopped.found and Search.of(stopped.found, self.family,
                                                          self._solution)) from None
        except ResourceLimit as stopped:
            raise ResourceLimit(str(stopped), stopped.found and Search.of(
                stopped.found, self.family, self._solution)) from None
        return Search.of(found, self.family, self._solution)

    def solve(self, *, timeout: float | None = None, encoding: str | None = None) -> Solution | None:
        """The first solution found, or None when there is none.

        Raises TimeLimitExceeded when `timeout` seconds pass first.
        """
        found = self.search(limit=1, timeout=timeout, encoding=encoding)
        if found.status == "timeout":
            raise TimeLimitExceeded(timeout or 0)
        return found.solutions[0] if found.solutions else None

    def solutions(self, *, timeout: float | None = None,
                  encoding: str | None = None) -> Iterator[Solution]:
        """Every solution, lazily: the search goes only as far as the caller iterates.

        `timeout` bounds the search time in all, not counting the caller's own.
        """
        for answer in searches.stream(self.record.prolog, self.prolog_data(), shape=self.answer_shape(),
                                    timeout=timeout, encoding=encoding):
            yield self._solution(answer)

    def count(self, limit: int = 0, *, timeout: float | None = None,
              encoding: str | None = None) -> int:
        """The number of solutions, counting no further than `limit` (0: no limit).

        Raises TimeLimitExceeded (with the count so far in `found`) on timeout.
        """
        found = self.search(limit=limit, timeout=timeout, encoding=encoding, keep=False)
        if found.status == "timeout":
            raise TimeLimitExceeded(timeout or 0, found.count)
        return found.count

    def well_formed(self, *, timeout: float | None = None, encoding: str | None = None) -> bool:
        """True when the puzzle has exactly one solution."""
        return self.count(2, timeout=timeout, encoding=encoding) == 1

    def _solution(self, answer: Any) -> Solution:
        return Solution(self, self.solution_values(answer))

    def __str__(self) -> str:
        return self.render()

    def _repr_markdown_(self) -> str:
        return self.render(format="markdown")

    def _repr_svg_(self) -> str:
        return self.render(format="svg")

    def _repr_html_(self) -> str:
        return self.render(format="svg")  # inline SVG: a notebook ranks HTML above markdown


MAX_DIGITS = 1_000  # far beyond any product a puzzle needs, well within what int() reads
_PAST_MAX_DIGITS = 10 ** MAX_DIGITS


def typable(number: int) -> bool:
    """Whether a puzzle's text may state `number`: it has at most MAX_DIGITS digits."""
    return -_PAST_MAX_DIGITS < number < _PAST_MAX_DIGITS


def integer(value: Any, what: str) -> int:
    """`value` as an int when it is an integer of any kind (int, numpy's, any
    numbers.Integral but bool); InvalidValue saying `what` it was otherwise."""
    if type(value) is int:  # the usual case, at a fraction of the cost of the ABC's check
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise InvalidValue(f"{what} must be an integer, not {shown(value)}")


def clue_number(value: Any, what: str) -> int:
    """`integer(value, what)`, which a puzzle's text can state (at most MAX_DIGITS
    digits: a larger one would be drawn as text that does not read back, or not at
    all); InvalidValue otherwise."""
    number = integer(value, what)
    if not typable(number):
        raise InvalidValue(f"{what} has more than {MAX_DIGITS:,} digits, which no puzzle's text states")
    return number


def items(values: Any, what: str) -> tuple:
    """`values` (a list, a tuple, a numpy array...) as a tuple; InvalidValue saying
    `what` they were when they are not a sequence (a string is not one here)."""
    if not isinstance(values, (str, bytes)) and hasattr(values, "__iter__"):
        try:
            return tuple(values)
        except TypeError:  # iterable in name only: a numpy array of no dimension
            pass
    raise InvalidValue(f"{what} must be a sequence, not {shown(values)}")


def unchecked(cls: type, **values: Any) -> Any:
    """An instance of the frozen dataclass `cls` holding `values` (its other fields their
    defaults), made without its `__post_init__` checks: for a reader that has made
    them, on values already as `__post_init__` leaves them."""
    made = object.__new__(cls)
    defaults = _defaults(cls)
    vars(made).update(values if len(values) == len(defaults) else {**defaults, **values})
    return made


def unchecked_change(made: Any, **changes: Any) -> Any:
    """`made`, an instance of a frozen dataclass, with `changes`, made without
    `__post_init__`'s checks: for a change that keeps what they check (clues hidden,
    say), to values as `__post_init__` leaves them."""
    return unchecked(type(made), **{**{name: getattr(made, name) for name in _defaults(type(made))},
                                    **changes})


@cache
def _defaults(cls: type) -> dict[str, Any]:
    return {field.name: field.default for field in fields(cls)}


def rows_of(rows: Any, what: str) -> tuple[tuple[Any, ...], ...]:
    """`rows` as a tuple of tuples; InvalidValue saying `what` they were otherwise."""
    return tuple(items(row, f"each row of {what}") for row in items(rows, what))


def search_many(puzzles: Sequence[Puzzle], *, limit: int = 0, timeout: float | None = None,
                encoding: str | None = None, keep: bool = True) -> list[Search]:
    """`Puzzle.search` for every puzzle, crossing into Prolog once per family, not per puzzle.

    `timeout` bounds each puzzle's search.  Results come in the order of `puzzles`.
    """
    found: dict[int, Search] = {}
    for family in dict.fromkeys(p.family for p in puzzles):
        indices = [i for i, p in enumerate(puzzles) if p.family == family]
        batch = searches.find_many(puzzles[indices[0]].record.prolog,
                                 [puzzles[i].prolog_data() for i in indices],
                                 [puzzles[i].answer_shape() for i in indices], limit=limit,
                                 timeout=timeout, encoding=encoding, keep=keep)
        for i, result in zip(indices, batch):
            found[i] = Search.of(result, family, puzzles[i]._solution)
    return [found[i] for i in range(len(puzzles))]
