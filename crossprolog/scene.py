"""A puzzle's drawing described once, as data: a Scene, which the backends
(crossprolog.backends: text, markdown, svg, html) render.

A scene is a grid of squares (the puzzle's cells: what stands in each, its
marks, a clue in its corner or split across it), labels (clues and tags
around or below the squares, at grid places outside them), regions walled
with thick lines (boxes, cages), lines of text above and below, and how a
text layout arranges it all (`layout`, `markdown`: one of the styles below,
each drawn by one function of the text backend).  A family's model builds
its scene (`Puzzle.scene`) and nothing else draws it.

Marks say what a drawing points at, in every backend: in text the marked
token stands in brackets (the POINTED marks); a picture colours it.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Mapping, NamedTuple, Union

from .answers import Cell, Clue, Marks
from .errors import InvalidValue, shown

# What a square or a label can be marked as.
GIVEN = "given"  # stated by the puzzle
SOLVED = "solved"  # filled in by a solution
HINTED = "hinted"  # the cell a hint places
REASON = "reason"  # a clue the hint's reason names
CONFLICT = "conflict"  # a clue of a minimal conflict
DIFFERS = "differs"  # a cell where two solutions differ
MARKED = "marked"  # pointed at, for no reason given
ON, OFF = "on", "off"  # a CrossCells cell switched on, off
CROSSED, CIRCLED = "crossed", "circled"  # as Sumplete deletes a number, as Number Sums keeps one
MARKS = (GIVEN, SOLVED, HINTED, REASON, CONFLICT, DIFFERS, MARKED, ON, OFF, CROSSED, CIRCLED)
POINTED = frozenset({HINTED, REASON, CONFLICT, DIFFERS, MARKED})  # in brackets, in text

Tags = frozenset  # of MARKS
UNMARKED: Tags = frozenset()


@dataclass(frozen=True)
class Marking:
    """What to mark, by cell (as JSON indexes them) and by clue."""

    cells: Mapping[Cell, Tags] = field(default_factory=dict)
    clues: Mapping[Clue, Tags] = field(default_factory=dict)

    def cell(self, cell: Cell) -> Tags:
        return self.cells.get(cell, UNMARKED) if self.cells else UNMARKED

    def clue(self, clue: Clue) -> Tags:
        return self.clues.get(clue, UNMARKED)

    def clue_of(self, kind: str, index: int | None = None, name: str | None = None,
                cell: Cell | None = None) -> Tags:
        """The marks of the clue of `kind` and index, name or cell (as Clue compares)."""
        if not self.clues:
            return UNMARKED
        return self.clues.get(Clue(kind, "", index=index, name=name, cell=cell), UNMARKED)

    def __bool__(self) -> bool:
        """Whether anything is marked."""
        return bool(self.cells) or bool(self.clues)

    def clue_cells(self) -> dict[Cell, Tags]:
        """The marks of the clues, given to every cell each clue speaks of."""
        found: dict[Cell, Tags] = {}
        for clue, tags in self.clues.items():
            for cell in clue.cells:
                found[cell] = found.get(cell, frozenset()) | tags
        return found

    def __or__(self, other: Marking) -> Marking:
        return Marking(_merged(self.cells, other.cells), _merged(self.clues, other.clues))

    def givens_on_cells(self) -> Marking:
        """These marks, each given's (a clue of kind "given") on its cell too: a given
        is drawn as its cell, so a blamed or hinted given is marked where it stands."""
        givens = {clue.cell: tags for clue, tags in self.clues.items() if clue.kind == "given"}
        return Marking(_merged(self.cells, givens), self.clues) if givens else self


def _merged(a: Mapping, b: Mapping) -> dict:
    return {key: a.get(key, frozenset()) | b.get(key, frozenset()) for key in {**a, **b}}


Markable = Union[Marks, Marking, None]


def marking(marks: Markable = None, cells_as: str = MARKED, clues_as: str = MARKED) -> Marking:
    """`marks` as a Marking: the cells and clues of a `Marks` marked `cells_as` and `clues_as`.
    Cells may come as JSON gives them ([0, 2]), a mark alone as its name ("hinted");
    InvalidValue for what is not a cell, a clue or a mark."""
    if marks is None:
        return Marking()
    if isinstance(marks, Marking):
        return Marking({marked_cell(cell): tags_of(tags) for cell, tags in marks.cells.items()},
                       {marked_clue(clue): tags_of(tags) for clue, tags in marks.clues.items()})
    if not isinstance(marks, Marks):
        raise InvalidValue(f"marks are a Marks, a Marking or None, not {shown(marks)}")
    return Marking({marked_cell(cell): frozenset({cells_as}) for cell in marks.cells},
                   {marked_clue(clue): frozenset({clues_as}) for clue in marks.clues})


def marked_cell(cell: object) -> Cell:
    """`cell` as (row, column), from any pair of integers; InvalidValue otherwise."""
    if (isinstance(cell, (tuple, list)) and len(cell) == 2
            and all(isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in cell)):
        return int(cell[0]), int(cell[1])
    raise InvalidValue(f"a marked cell is (row, column), 0-based, not {shown(cell)}")


def marked_clue(clue: object) -> Clue:
    if isinstance(clue, Clue):
        return clue
    raise InvalidValue(f"a marked clue is one of Puzzle.clues(), not {shown(clue)}")


def tags_of(tags: object) -> Tags:
    """The marks `tags` names: one mark's name, or a set of them; InvalidValue for others."""
    found = frozenset({tags}) if isinstance(tags, str) else tags
    if isinstance(found, (set, frozenset, tuple, list)) and all(tag in MARKS for tag in found):
        return frozenset(found)
    raise InvalidValue(f"marks are named from {', '.join(MARKS)}, not {shown(tags)}")


# Tokens, places, squares and labels are named tuples: a scene has one per cell, and
# a drawing is made whenever a puzzle is printed, so they are made fast.


class Token(NamedTuple):
    """A piece of text a drawing shows, and its marks."""

    text: str
    marks: Tags = UNMARKED

    @property
    def pointed(self) -> bool:
        return bool(self.marks & POINTED)


class Place(NamedTuple):
    """Where a token starts in a typed layout: its 0-based text line and character column."""

    line: int
    column: int


class _Square(NamedTuple):
    at: Cell
    value: str = ""
    marks: Tags = UNMARKED
    text: str | None = None
    corner: Token | None = None
    split: tuple[Token, Token] | None = None
    shaded: bool = False
    place: Place | None = None


class Square(_Square):
    """A cell of the grid at `at` (row, column of the picture's grid).

    `value` is what a picture writes in it ("" for nothing), `text` how a text
    layout writes it (by default the value); `corner` is a clue a picture
    writes small in its top-left corner (a cage's); `split`, a clue square
    cut by its diagonal (down, across: Kakuro's, each with its own marks), shaded; `place` where its
    text stands in a typed layout.
    """

    __slots__ = ()

    def __new__(cls, at: Cell, value: str = "", marks: Tags = UNMARKED, text: str | None = None,
                corner: Token | None = None, split: tuple[Token, Token] | None = None,
                shaded: bool = False, place: Place | None = None) -> Square:
        return _Square.__new__(cls, at, value, marks, value if text is None else text, corner,
                               split, shaded, place)

    @property
    def token(self) -> Token:
        return Token(self.text, self.marks)


class Label(NamedTuple):
    """A clue or tag at a grid place outside the squares: at the end of a row
    ("right", "left"), at the head or foot of a column ("top", "bottom"), in the
    corner where the headers meet ("corner"), or below the grid in a legend
    ("legend": a group's constraint, at its place in the legend's line)."""

    at: Cell
    text: str
    side: str
    marks: Tags = UNMARKED
    place: Place | None = None

    @property
    def token(self) -> Token:
        return Token(self.text, self.marks)


# How a text layout arranges a scene: each style is drawn by one function of the
# text backend (backends/text.py), which any family may use.


@dataclass(frozen=True)
class Aligned:
    """Every grid row (squares and labels, in column order) as a line of columns, each
    as wide as its widest token: right-aligned, or `left`; `compact` writes a row's
    tokens together, with no blank between them."""

    left: bool = False
    compact: bool = False


@dataclass(frozen=True)
class Uniform:
    """Every grid row's tokens right-aligned in columns of one width, one blank apart; the
    legend's labels on one line after."""


@dataclass(frozen=True)
class Boxes:
    """A square grid cut into boxes of `box` by `box`: `apart` between tokens, `|` between
    boxes and a rule between bands when `ruled`; or every token on one `line`."""

    box: int = 3
    apart: str = " "
    ruled: bool = True
    line: bool = False


@dataclass(frozen=True)
class Walled:
    """The grid with its regions (or, `cages`, its cages) walled in with `+`, `-` and
    `|`: each square's corner clue at its left, its text at its right."""

    cages: bool = False


@dataclass(frozen=True)
class Keyed:
    """A grid of keys (each square's text: a cage's letter), apart in left-aligned
    columns or `compact`; the `key` lines that say what each key stands for; then,
    when a square has a value or a mark points at one, a blank line and the grid of
    values (`.` for none), a pointed one in brackets."""

    key: tuple[Token, ...] = ()
    compact: bool = False


@dataclass(frozen=True)
class Placed:
    """Every token at its place (squares' and labels' `place`), as typed."""


@dataclass(frozen=True)
class Fenced:
    """Markdown: the text layout in a fenced code block, which keeps its columns aligned."""


@dataclass(frozen=True)
class Table:
    """Markdown: a table whose header is the column labels and `corner` (or blank, with
    `blank_header`), whose rows end in the row labels in bold.  Notes go above as
    lines, or with `footer` below it, on one line, directives in italics."""

    corner: str | None = None
    blank_header: bool = False
    footer: bool = False


@dataclass(frozen=True)
class Scene:
    """A puzzle's drawing: `rows` × `cols` grid places of squares, labels around them,
    regions (sets of grid places) walled in thick lines, cages (where a grid has
    both, as a Killer Sudoku's cages within its boxes) outlined in dashes inside
    the squares, lines of text `before` (directives) and `after` (what a text
    layout adds below: clue lines, notes), and `caption`: lines a picture writes
    under the grid."""

    family: str
    rows: int
    cols: int
    squares: tuple[Square, ...]
    labels: tuple[Label, ...] = ()
    regions: tuple[frozenset[Cell], ...] = ()
    cages: tuple[frozenset[Cell], ...] = ()
    before: tuple[Token, ...] = ()
    after: tuple[Token, ...] = ()
    caption: tuple[str, ...] = ()
    layout: object = Aligned()
    markdown: object = Fenced()
    title: str = ""

    def square_at(self) -> dict[Cell, Square]:
        return {square.at: square for square in self.squares}

    def tokens(self) -> list[Token]:
        """Every token of the scene a reader must see: squares' values, corners and
        splits, labels, and the caption."""
        found = [Token(s.value, s.marks) for s in self.squares if s.value]
        found += [s.corner for s in self.squares if s.corner]
        found += [t for s in self.squares if s.split for t in s.split if t.text]
        return found + [label.token for label in self.labels]


_STATED = {(True, True): frozenset({GIVEN}), (True, False): frozenset({GIVEN}),
           (False, True): frozenset({SOLVED}), (False, False): UNMARKED}


def given_or_solved(given: bool, known: bool) -> Tags:
    """GIVEN for a cell the puzzle states, SOLVED for one a solution fills in."""
    return _STATED[given, known]

