"""The scene of every family and form, as data, against golden files (tests/scenes/):
what each square holds and how it is marked, where each clue stands, the regions
walled, the text layout's style.  `CROSSPROLOG_GOLDEN=update` rewrites them (read
the diff before committing).  And the backends read nothing but the scene: a new
output format is one function."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

import crossprolog
from crossprolog import backends
from crossprolog.answers import Marks
from crossprolog.scene import CONFLICT, MARKS, POINTED, Marking, Scene

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "scenes"

# Every family and form: the example file, and how the puzzle is changed first (a form
# of the same puzzle: KenKen's letters written together, Sudoku on one line...).
FORMS = {
    "crossproduct-plain": ("examples/crossproduct/riddler-1.txt", {}),
    "crossproduct-markdown": ("examples/crossproduct/riddler-2.md", {}),
    "crossproduct-below-tagged": ("examples/crossproduct/riddler-1.txt",
                                  {"columns_below": True, "size_tag": True}),
    "crossproduct-givens": ("examples/crossproduct/givens.txt", {}),
    "crosscells-operators": ("examples/crosscells/puzzle-25.txt", {}),
    "crosscells-both-ends": ("examples/crosscells/both-ends.txt", {}),
    "crosscells-in-words": ("examples/crosscells/in-words.txt", {}),
    "crosscells-sumplete": ("examples/crosscells/sumplete.txt", {}),
    "crosscells-number-sums": ("examples/crosscells/number-sums.txt", {}),
    "sudoku-classic": ("examples/sudoku/ai-escargot.txt", {}),
    "sudoku-digit-set": ("examples/sudoku/gcd-2025-01.txt", {}),
    "sudoku-line": ("examples/sudoku/ai-escargot.txt", {"written": "line"}),
    "kenken-letters": ("examples/kenken/issue-4x4.txt", {}),
    "kenken-compact": ("examples/kenken/issue-4x4.txt", {"compact": True}),
    "kenken-drawn": ("examples/kenken/issue-4x4-drawn.txt", {}),
    "killer-sudoku-letters": ("examples/killer_sudoku/shidoku-4x4.txt", {}),
    "killer-sudoku-drawn": ("examples/killer_sudoku/shidoku-4x4-drawn.txt", {}),
    "kakuro": ("examples/kakuro/tiny.txt", {}),
}


def form(name: str):
    path, changes = FORMS[name]
    puzzle = crossprolog.parse((ROOT / path).read_text(encoding="utf-8"))
    return replace(puzzle, **changes) if changes else puzzle


def described(scene: Scene) -> str:
    """A scene as reviewable text: one line per square, label, region and note."""
    def marks(tags) -> str:
        return f" [{' '.join(sorted(tags))}]" if tags else ""

    lines = [f"{scene.family} {scene.rows}x{scene.cols} layout={scene.layout} markdown={scene.markdown}"]
    for s in sorted(scene.squares, key=lambda s: s.at):
        extra = "".join([f" text={s.text!r}" if s.text != s.value else "",
                         f" corner={s.corner.text!r}{marks(s.corner.marks)}" if s.corner else "",
                         f" split={tuple(t.text for t in s.split)}{marks(s.split[0].marks | s.split[1].marks)}"
                         if s.split else "", " shaded" * s.shaded,
                         f" place={s.place.line},{s.place.column}" if s.place else ""])
        lines.append(f"square {s.at[0]},{s.at[1]} {s.value!r}{marks(s.marks)}{extra}")
    for label in sorted(scene.labels, key=lambda label: label.at):
        place = f" place={label.place.line},{label.place.column}" if label.place else ""
        lines.append(f"label {label.at[0]},{label.at[1]} {label.side} {label.text!r}"
                     f"{marks(label.marks)}{place}")
    for region in scene.regions:
        lines.append("region " + " ".join(f"{r},{c}" for r, c in sorted(region)))
    lines += [f"before {t.text!r}{marks(t.marks)}" for t in scene.before]
    lines += [f"after {t.text!r}{marks(t.marks)}" for t in scene.after]
    lines += [f"caption {line!r}" for line in scene.caption]
    return "\n".join(lines) + "\n"


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("CROSSPROLOG_GOLDEN") == "update":
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with CROSSPROLOG_GOLDEN=update"
    assert actual == path.read_text(encoding="utf-8"), f"the scene of {name} changed"


@pytest.mark.parametrize("name", FORMS)
def test_the_scene_of_every_family_and_form_unsolved_and_solved(name):
    puzzle = form(name)
    check_golden(f"{name}", described(puzzle.scene()))
    check_golden(f"{name}-solved", described(puzzle.scene(puzzle.solve())))


@pytest.mark.parametrize("name", ["crossproduct-plain", "crosscells-operators", "crosscells-sumplete",
                                  "sudoku-classic", "kenken-letters", "kenken-drawn"])
def test_the_scene_of_a_conflict_marks_its_clues_and_nothing_else(name):
    puzzle = form(name)
    blamed = puzzle.clues()[:2]
    scene = puzzle.scene(marks=Marks(clues=frozenset(blamed)))
    check_golden(f"{name}-marked", described(scene))
    pointed = [t for t in scene.tokens() if t.pointed]
    assert pointed, "the marked clues are drawn marked"


@pytest.mark.parametrize("name", FORMS)
def test_a_marked_given_is_marked_on_its_cell_in_every_family(name):
    """A given is drawn as its cell: blamed (or a hint's reason), its cell shows it, in
    brackets in text and marked in a picture.  CrossCells, Sumplete and Number Sums
    marked nothing."""
    puzzle = form(name)
    cell = puzzle.open_cells()[0]
    placed = puzzle.placing({cell: puzzle.solve().to_json()[cell[0]][cell[1]]})
    given = next(clue for clue in placed.clues() if clue.kind == "given" and clue.cell == cell)
    marks = Marking(clues={given: frozenset({CONFLICT})})
    marked = [square for square in placed.scene(marks=marks).squares if CONFLICT in square.marks]
    assert len(marked) == 1
    assert "[" in placed.render(format="text", marks=marks) and "conflict" in placed.render(format="svg", marks=marks)


def test_marks_are_one_vocabulary_and_the_pointed_ones_are_among_them():
    assert POINTED <= set(MARKS) and len(set(MARKS)) == len(MARKS)


def test_a_new_output_format_is_one_backend_and_every_family_draws_through_it(monkeypatch):
    """A backend that writes each scene's squares as CSV: added to FORMATS, and at once every
    family renders to it, through Puzzle.render, without a word of family code."""
    def csv(scene: Scene) -> str:
        return "\n".join(f"{r},{c},{s.value}" for s in scene.squares for r, c in [s.at])

    monkeypatch.setitem(backends.FORMATS, "csv", csv)
    for name in FORMS:
        puzzle = form(name)
        solution = puzzle.solve()
        drawn = puzzle.render(solution, "csv").splitlines()
        assert len(drawn) == len(puzzle.scene().squares)
        assert all(line.count(",") == 2 for line in drawn)


def test_an_unknown_format_is_refused_by_name():
    with pytest.raises(crossprolog.InvalidValue, match="format must be one of text, markdown, svg, html"):
        form("kenken-letters").render(format="pdf")


def test_scenes_hold_what_a_kakuro_and_a_killer_sudoku_need():
    """Families to come are short edits: a Kakuro's clue squares split across their
    diagonal and its blocks shaded, a Killer Sudoku's cages dashed within its boxes,
    each cage's sum in its first square's corner; text and picture from one scene."""
    from crossprolog.backends import svg
    from crossprolog.scene import Aligned, Square, Token
    import xml.etree.ElementTree as ET

    kakuro = Scene("kakuro", 2, 3, (
        Square((0, 0), shaded=True, text="#"), Square((0, 1), split=(Token("16"), Token("")), text="16\\"),
        Square((0, 2), split=(Token("4"), Token("")), text="4\\"),
        Square((1, 0), split=(Token(""), Token("12")), text="\\12"),
        Square((1, 1), "9", frozenset({"solved"})), Square((1, 2), "3", frozenset({"solved"}))),
        layout=Aligned())
    assert backends.render(kakuro, "text") == "  # 16\\ 4\\\n\\12   9  3"
    drawn = ET.fromstring(backends.render(kakuro, "svg"))
    words = [e.text for e in drawn.iter("{http://www.w3.org/2000/svg}text")]
    assert sorted(words) == ["12", "16", "3", "4", "9"]
    killer = Scene("killer", 2, 2, tuple(Square((r, c), corner=Token("7") if (r, c) == (0, 0) else None)
                                          for r in range(2) for c in range(2)),
                   regions=(frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}),),
                   cages=(frozenset({(0, 0), (0, 1)}),), layout=Aligned())
    dashes = [e for e in ET.fromstring(svg.picture(killer)).iter("{http://www.w3.org/2000/svg}line")
              if e.get("stroke-dasharray")]
    assert len(dashes) == 6  # each of its two squares: top, bottom and its outer end
