"""Pictures of puzzles and of what is found about them: the public entry point.

    >>> from crossprolog import parse, pictures
    >>> puzzle = parse(open("examples/kenken/issue-4x4.txt").read())
    >>> svg = pictures.svg(puzzle.solve())               # a solved puzzle
    >>> svg = pictures.svg(puzzle, puzzle.hint())        # the hinted cell and the clues it needs
    >>> page = pictures.html(puzzle)                     # a self-contained page

`thing` is a puzzle, a Solution (or several, side by side), a Search (its
first solution) or an
Ambiguity (the two solutions side by side, the cells where they differ
marked); `about`, for a puzzle, is what to show on it: a Solution, a Hint
(the hinted cells placed and marked, the clues of their reasons marked), a
conflict (the clues `Puzzle.conflict` gives, marked), or an Ambiguity.
`marks` (answers.Marks or scene.Marking) adds marks of one's own.  A
Picture shows itself in Jupyter.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, replace
from typing import Any, Sequence

from .answers import Clue, Search, Solution
from .backends import html as html_backend, svg as svg_backend
from .errors import InvalidValue, UsageError, shown
from .diagnosis import Ambiguity, conflict_sentence
from .explain import Hint
from .puzzle import Puzzle
from .scene import CONFLICT, DIFFERS, GIVEN, HINTED, REASON, Markable, Marking, Scene, marking

__all__ = ["Picture", "book", "book_pdf", "html", "picture", "scenes", "svg"]


@dataclass(frozen=True)
class Picture:
    """Scenes drawn side by side, with a caption below them."""

    scenes: tuple[Scene, ...]
    caption: tuple[str, ...] = ()

    def svg(self) -> str:
        return svg_backend.document([svg_backend.figure(s) for s in self.scenes], self.caption)

    def html(self, title: str = "") -> str:
        title = title or " and ".join(dict.fromkeys(s.family for s in self.scenes)) or "crossprolog"
        return html_backend.page(title, [html_backend.Section(pictures=[("", self.svg())])])

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        return self.svg()  # inline SVG


def picture(thing: Any, about: Any = None, *, marks: Markable = None) -> Picture:
    """The picture of `thing` (and `about` it): see the module's documentation."""
    extra = marking(marks)
    if isinstance(thing, Search):
        found = thing.solutions[:1] or ([thing.best] if thing.best else [])
        if not found:
            raise InvalidValue("the search found no solution to draw: draw its puzzle instead")
        thing = found[0]
    if isinstance(thing, Solution):
        return Picture((thing.puzzle.scene(thing, extra),))
    if isinstance(thing, (tuple, list)) and thing and all(isinstance(s, Solution) for s in thing):
        return Picture(tuple(s.puzzle.scene(s, extra) for s in thing))
    if isinstance(thing, Ambiguity):
        return _ambiguity(thing, extra)
    if not isinstance(thing, Puzzle):
        raise InvalidValue(f"no picture of {type(thing).__name__}: draw a puzzle, a solution, a "
                           "search or an ambiguity")
    if about is None:
        return Picture((thing.scene(None, extra),))
    if isinstance(about, Solution):
        return Picture((thing.scene(about, extra),))
    if isinstance(about, Ambiguity):
        return _ambiguity(about, extra)
    if isinstance(about, Hint):
        return _hint(thing, about, extra)
    if isinstance(about, (tuple, list)) and all(isinstance(clue, Clue) for clue in about):
        if not own_clues(thing, about):
            raise InvalidValue(f"those clues are not all this {thing.family} puzzle's: a conflict "
                               "is drawn on the puzzle whose clues it names")
        blamed = Marking(clues={clue: frozenset({CONFLICT}) for clue in about})
        return Picture((thing.scene(None, blamed | extra),), (conflict_sentence(about),))
    raise InvalidValue(f"nothing to draw of {type(about).__name__} on a puzzle: give a solution, "
                       "a hint, a conflict (its clues) or an ambiguity")


def _hint(puzzle: Puzzle, hint: Hint, extra: Marking) -> Picture:
    """The puzzle with the hinted cells placed and marked, the clues of their reasons marked."""
    if hint.status not in ("hint", "timeout"):  # timeout: the cells found by then
        said = {"stuck": "no cell is forced", "solved": "nothing is left open",
                "unsolvable": "no solution, so no hint"}.get(hint.status, hint.status)
        return Picture((puzzle.scene(None, extra),), (said,))
    _check_own(puzzle, hint)
    placed = puzzle.placing({forced.cell: forced.value for forced in hint.cells})
    marks = Marking({forced.cell: frozenset({HINTED}) for forced in hint.cells},
                    {clue: frozenset({REASON}) for forced in hint.cells for clue in forced.clues})
    scene = placed.scene(None, marks | extra)
    hinted = tuple(s._replace(marks=s.marks - {GIVEN}) if HINTED in s.marks else s for s in scene.squares)
    late = ("the time ran out: there may be more",) if hint.status == "timeout" else ()
    return Picture((replace(scene, squares=hinted),), tuple(f.reason for f in hint.cells) + late)


def _check_own(puzzle: Puzzle, hint: Hint) -> None:
    """InvalidValue for a hint of another puzzle: a cell this puzzle does not leave open,
    or a clue it does not have (it would be drawn into this grid as if it fit)."""
    open_cells = set(map(tuple, puzzle.open_cells()))
    for forced in hint.cells:
        if tuple(forced.cell) not in open_cells or not own_clues(puzzle, forced.clues):
            row, column = forced.cell
            raise InvalidValue(f"that hint is not of this {puzzle.family} puzzle: its cell "
                               f"r{row + 1}c{column + 1} or the clues of its reason are not this puzzle's")


def own_clues(puzzle: Puzzle, clues: Sequence[Clue]) -> bool:
    """Whether every clue of `clues` is one `puzzle` states, on the same cells."""
    own = {clue: clue.cells for clue in puzzle.clues()}
    return all(own.get(clue) == clue.cells for clue in clues)


def _ambiguity(seen: Ambiguity, extra: Marking) -> Picture:
    marks = Marking({cell: frozenset({DIFFERS}) for cell in seen.difference}) | extra
    advice = (f"{seen.suggestion}, and only the {('first', 'second')[seen.leaves]} is left"
              if seen.suggestion else "")
    return Picture(tuple(s.puzzle.scene(s, marks) for s in seen.solutions),
                   (f"two solutions, differing at {len(seen.difference)} cell"
                    f"{'s' * (len(seen.difference) != 1)}",) + ((advice,) if advice else ()))


def scenes(thing: Any, about: Any = None, *, marks: Markable = None) -> tuple[Scene, ...]:
    """The scenes `picture` draws: data, for a backend of one's own."""
    return picture(thing, about, marks=marks).scenes


def svg(thing: Any, about: Any = None, *, marks: Markable = None) -> str:
    """The picture as an SVG document."""
    return picture(thing, about, marks=marks).svg()


def html(thing: Any, about: Any = None, *, marks: Markable = None, title: str = "") -> str:
    """The picture on a self-contained HTML page (inline SVG, nothing fetched)."""
    if not isinstance(title, str):
        raise InvalidValue(f"a page's title is a string, not {shown(title)}")
    return picture(thing, about, marks=marks).html(title)


def book(puzzles: Sequence[Puzzle], solutions: Sequence[Solution | None] = (), *,
         title: str = "Puzzles", per_page: int = 4) -> str:
    """A printable book as one HTML page: the puzzles, `per_page` to a sheet, then their
    solutions (None: that puzzle has none); page breaks that print on A4 and Letter."""
    per_page = checked_book(puzzles, solutions, title, per_page)
    shown = [(f"{n}", svg_backend.picture(p.scene())) for n, p in enumerate(puzzles, 1)]
    answers = [(f"{n}", svg_backend.picture(p.scene(s))) for n, (p, s) in enumerate(zip(puzzles, solutions), 1)
               if s is not None]
    return html_backend.book(title, shown, answers, per_page)


def checked_book(puzzles: Sequence[Puzzle], solutions: Sequence[Solution | None], title: str,
                 per_page: int) -> int:
    """`per_page` as an int.  InvalidValue unless `title` is a string, `per_page` a whole
    number of 1 or more, the puzzles puzzles, and each solution None or its puzzle's
    (no more solutions than puzzles): another's would be printed as its answer."""
    if not isinstance(title, str):
        raise InvalidValue(f"a book's title is a string, not {shown(title)}")
    if not isinstance(per_page, numbers.Integral) or isinstance(per_page, bool) or per_page < 1:
        raise InvalidValue(f"per_page is a whole number of puzzles, 1 or more, not {shown(per_page)}")
    if not isinstance(puzzles, Sequence) or not isinstance(solutions, Sequence):
        raise InvalidValue("a book is of a list of puzzles and a list of their solutions")
    if len(solutions) > len(puzzles):
        raise InvalidValue(f"{len(solutions)} solutions for {len(puzzles)} puzzles: at most one each")
    for n, puzzle in enumerate(puzzles, 1):
        if not isinstance(puzzle, Puzzle):
            raise InvalidValue(f"puzzle {n} of the book is not a puzzle: {shown(puzzle)}")
    for n, (puzzle, solution) in enumerate(zip(puzzles, solutions), 1):
        try:
            puzzle.own(solution)
        except InvalidValue as error:
            raise InvalidValue(f"solution {n} of the book: {error}") from None
    return int(per_page)


def book_pdf(puzzles: Sequence[Puzzle], solutions: Sequence[Solution | None] = (), *,
             title: str = "Puzzles", per_page: int = 4, paper: str = "a4") -> bytes:
    """The book as a PDF on `paper` ("a4" or "letter"): the puzzles, `per_page` (4 or
    fewer) to a page, then their solutions.  Each page is an SVG drawn by cairosvg,
    the pages joined by pypdf (the `pdf` extra: pip install crossprolog[pdf])."""
    try:
        import cairosvg
        from pypdf import PdfReader, PdfWriter
    except (ImportError, OSError) as missing:  # OSError: cairosvg without the Cairo library
        raise UsageError(f"a PDF needs cairosvg, the Cairo library and pypdf "
                         f"(pip install 'crossprolog[pdf]'): {missing}") from None
    import io

    if paper not in svg_backend.PAPERS:
        raise InvalidValue(f"paper must be one of {', '.join(svg_backend.PAPERS)}, not {paper!r}")
    per_page = min(checked_book(puzzles, solutions, title, per_page), 4)
    shown = [(f"{n}", svg_backend.figure(p.scene())) for n, p in enumerate(puzzles, 1)]
    answers = [(f"{n}", svg_backend.figure(p.scene(s))) for n, (p, s) in enumerate(zip(puzzles, solutions), 1)
               if s is not None]
    pages = [svg_backend.sheet(part[k:k + per_page], paper, heading if k == 0 else "")
             for part, heading in ((shown, title), (answers, "Solutions"))
             for k in range(0, len(part), per_page)]
    writer = PdfWriter()
    for page in pages:
        writer.append(PdfReader(io.BytesIO(cairosvg.svg2pdf(bytestring=page.encode()))))
    writer.add_metadata({"/Title": title})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
