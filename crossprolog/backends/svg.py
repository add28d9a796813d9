"""The SVG backend: a scene as a picture.  Squares on a grid (columns as wide as their
widest text), labels at their grid places outside them, regions walled with thick
lines, a corner clue small in its square, a split clue across its diagonal, the
legend and the caption below; every mark a colour or a stroke (MARK_STYLE), the
same in every family.  Plain SVG 1.1, no script, no external reference."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Iterable, Sequence
from html import escape  # as XML wants it (xml.sax.saxutils would load urllib: a start-up's 20 ms)

from ..scene import (CIRCLED, CONFLICT, CROSSED, DIFFERS, GIVEN, HINTED, MARKED, OFF, ON, REASON,
                     SOLVED, Label, Scene, Square, Tags)

CELL = 40  # a square's side, in pixels
PAD = 12  # room beside a text in its column
MARGIN = 10
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
VALUE_SIZE, LABEL_SIZE, CORNER_SIZE, CAPTION_SIZE = 20, 15, 11, 13
CHAR = 0.62  # a character's width, as a share of its font size (a sans-serif digit's)
INK, GRID_LINE, SOLVED_INK, FAINT = "#111111", "#9a9a9a", "#1f5fbf", "#8a8a8a"
LEGEND, CORNER = "legend", "corner"

# The fill of a square or a label's halo, by mark, strongest first.
FILLS = [(CONFLICT, "#f8c4c4"), (HINTED, "#ffe680"), (DIFFERS, "#ffd59e"), (REASON, "#cfe3ff"),
         (MARKED, "#ffe680"), (ON, "#e3f4e1"), (OFF, "#eeeeee")]
# How a mark is drawn, for the legend of docs/pictures.md and tests.
MARK_STYLE = {CONFLICT: "red fill", HINTED: "yellow fill", DIFFERS: "orange fill",
              REASON: "blue fill", MARKED: "yellow fill", ON: "green fill, bold",
              OFF: "grey fill, grey text", CROSSED: "struck through", CIRCLED: "circled",
              GIVEN: "black", SOLVED: "blue"}


def fill_of(marks: Tags) -> str | None:
    return next((colour for mark, colour in FILLS if mark in marks), None)


@dataclass(frozen=True)
class Figure:
    """A scene drawn: its SVG elements (origin at its top-left) and its size."""

    body: str
    width: float
    height: float


def picture(scene: Scene) -> str:
    """The scene as a standalone SVG document."""
    return document([figure(scene)])


def document(figures: Sequence[Figure], caption: Sequence[str] = (), gap: float = 30) -> str:
    """Figures side by side in one SVG document, a caption below them."""
    parts, x = [], 0.0
    for n, drawn in enumerate(figures):
        parts.append(f'<g transform="translate({x:g},0)">{drawn.body}</g>')
        x += drawn.width + (gap if n < len(figures) - 1 else 0)
    height = max((f.height for f in figures), default=0)
    lines = caption_lines(caption, x)
    parts += [text_element(line, MARGIN, height + (n + 1) * (CAPTION_SIZE + 5), CAPTION_SIZE,
                           anchor="start") for n, line in enumerate(lines)]
    height += len(lines) * (CAPTION_SIZE + 5) + (MARGIN if lines else 0)
    x = max([x] + [2 * MARGIN + len(line) * CAPTION_SIZE * CHAR for line in lines])
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{x:g}" '
            f'height="{height:g}" viewBox="0 0 {x:g} {height:g}" font-family="{escape(FONT)}">'
            f'<rect width="100%" height="100%" fill="white"/>{"".join(parts)}</svg>')


def caption_lines(lines: Iterable[str], width: float) -> list[str]:
    """The caption's lines, wrapped to the picture's width."""
    chars = max(36, int((width - 2 * MARGIN) / (CAPTION_SIZE * CHAR)))
    return [part for line in lines for part in textwrap.wrap(line, chars) or [""]]


def figure(scene: Scene) -> Figure:
    """The elements of the scene's picture, and its size."""
    grid = [(s.at, s.value, VALUE_SIZE) for s in scene.squares]
    grid += [(s.at, s.corner.text, CORNER_SIZE) for s in scene.squares if s.corner]
    grid += [(label.at, label.text, LABEL_SIZE) for label in scene.labels if label.side != LEGEND]
    rows = [at[0] for at, _, _ in grid] or [0]
    cols = [at[1] for at, _, _ in grid] or [0]
    first_row, first_col = min(rows), min(cols)
    widths = {c: CELL for c in range(first_col, max(cols) + 1)}
    for (_, c), text, size in grid:
        widths[c] = max(widths[c], len(text) * size * CHAR + PAD)
    lefts, x = {}, MARGIN
    for c in sorted(widths):
        lefts[c] = x
        x += widths[c]
    title = [scene.title] if scene.title else []
    top = MARGIN + len(title) * (CAPTION_SIZE + 8)

    def box(at) -> tuple[float, float, float]:
        return lefts[at[1]], top + (at[0] - first_row) * CELL, widths[at[1]]

    parts = [text_element(scene.title, MARGIN, MARGIN + CAPTION_SIZE, CAPTION_SIZE + 1,
                          anchor="start", weight="bold")] if title else []
    parts += [square_element(s, *box(s.at)) for s in scene.squares]
    parts += walls(scene, box)
    parts += [line for cage in scene.cages for line in dashed(cage, box)]
    parts += [label_element(label, *box(label.at)) for label in scene.labels if label.side != LEGEND]
    bottom = top + (max(rows) - first_row + 1) * CELL
    legend, lx = [label for label in scene.labels if label.side == LEGEND], MARGIN
    for label in sorted(legend, key=lambda label: label.at):
        width = len(label.text) * LABEL_SIZE * CHAR + PAD
        parts.append(label_element(label, lx, bottom + 4, width))
        lx += width + PAD
    bottom += (CELL + 4) * bool(legend)
    lines = caption_lines(scene.caption, max(x, lx))
    parts += [text_element(line, MARGIN, bottom + (n + 1) * (CAPTION_SIZE + 5), CAPTION_SIZE,
                           anchor="start") for n, line in enumerate(lines)]
    bottom += len(lines) * (CAPTION_SIZE + 5)
    width = max([x, lx] + [MARGIN + len(line) * CAPTION_SIZE * CHAR for line in lines])
    return Figure("".join(parts), width + MARGIN, bottom + MARGIN)


def square_element(square: Square, x: float, y: float, width: float) -> str:
    """A square: its frame, its fill, its value (a given's black, a solved one blue,
    struck through or circled as its game shows it), its corner clue, its split clue."""
    marks = square.marks
    fill = "#d9d9d9" if square.shaded or square.split else fill_of(marks) or "white"
    parts = [f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{CELL}" fill="{fill}" '
             f'stroke="{GRID_LINE}" stroke-width="1"{mark_class(marks)}/>']
    cx, cy = x + width / 2, y + CELL / 2
    if square.split:
        down, across = square.split
        right, bottom = x + width, y + CELL
        # Each clue's half of the square, below and above the diagonal, in its mark's colour.
        for clue, corner in ((down, f"{x:g},{bottom:g}"), (across, f"{right:g},{y:g}")):
            if colour := fill_of(clue.marks):
                parts.append(f'<polygon points="{x:g},{y:g} {corner} {right:g},{bottom:g}" '
                             f'fill="{colour}"{mark_class(clue.marks)}/>')
        parts.append(f'<line x1="{x:g}" y1="{y:g}" x2="{right:g}" y2="{bottom:g}" '
                     f'stroke="{INK}" stroke-width="1"/>')
        parts += [text_element(down.text, x + width * 0.3, y + CELL * 0.8, CORNER_SIZE + 1)] * bool(down.text)
        parts += [text_element(across.text, x + width * 0.72, y + CELL * 0.38,
                               CORNER_SIZE + 1)] * bool(across.text)
    if square.value:
        ink = FAINT if OFF in marks or CROSSED in marks else SOLVED_INK if SOLVED in marks else INK
        weight = "bold" if marks & {ON, HINTED, GIVEN} and OFF not in marks else "normal"
        nudge = CORNER_SIZE * 0.35 if square.corner else 0
        parts.append(text_element(square.value, cx, cy + nudge + VALUE_SIZE * 0.35, VALUE_SIZE,
                                  fill=ink, weight=weight))
        half = len(square.value) * VALUE_SIZE * CHAR / 2
        if CROSSED in marks:
            parts.append(f'<line x1="{cx - half - 3:g}" y1="{cy + 4 + nudge:g}" x2="{cx + half + 3:g}" '
                         f'y2="{cy - 4 + nudge:g}" stroke="#c0392b" stroke-width="2"/>')
        if CIRCLED in marks:
            parts.append(f'<circle cx="{cx:g}" cy="{cy + nudge:g}" r="{max(half + 5, CELL * 0.36):g}" '
                         f'fill="none" stroke="{INK}" stroke-width="1.5"/>')
    if square.corner:
        parts.append(text_element(square.corner.text, x + 3, y + CORNER_SIZE + 1, CORNER_SIZE,
                                  anchor="start", weight="bold",
                                  fill="#b03030" if square.corner.pointed else INK))
    return "".join(parts)


def label_element(label: Label, x: float, y: float, width: float) -> str:
    """A label: its text, on a halo of its mark's colour when a mark points at it."""
    fill = fill_of(label.marks)
    halo = (f'<rect x="{x + 2:g}" y="{y + 4:g}" width="{width - 4:g}" height="{CELL - 8}" rx="6" '
            f'fill="{fill}"{mark_class(label.marks)}/>' if fill else "")
    weight = "bold" if label.side != CORNER else "normal"
    return halo + text_element(label.text, x + width / 2, y + CELL / 2 + LABEL_SIZE * 0.35,
                               LABEL_SIZE, weight=weight, fill=INK if label.side != CORNER else FAINT)


def walls(scene: Scene, box) -> list[str]:
    """Thick lines around each region: between two squares of different regions (or of a
    region and none), and where a region's square has no square beside it."""
    region = {cell: k for k, cells in enumerate(scene.regions) for cell in cells}
    if not region:
        return outline(scene, box)
    squares = scene.square_at()
    lines = []
    for (r, c) in squares:
        x, y, width = box((r, c))
        for (dr, dc), (x1, y1, x2, y2) in {(0, 1): (x + width, y, x + width, y + CELL),
                                           (1, 0): (x, y + CELL, x + width, y + CELL),
                                           (0, -1): (x, y, x, y + CELL),
                                           (-1, 0): (x, y, x + width, y)}.items():
            other = (r + dr, c + dc)
            inside = other in squares
            if inside and (dr, dc) in ((0, -1), (-1, 0)):
                continue  # drawn from the other side
            if not inside or region.get(other) != region.get((r, c)) or (r, c) not in region:
                lines.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{INK}" '
                             'stroke-width="3" stroke-linecap="square"/>')
    return lines


def dashed(cage: frozenset, box, inset: float = 4) -> list[str]:
    """A cage outlined in dashes just inside its squares: each side of a square with no
    square of the cage beside it."""
    lines = []
    for (r, c) in cage:
        x, y, width = box((r, c))
        left, right, top, bottom = x + inset, x + width - inset, y + inset, y + CELL - inset
        sides = {(-1, 0): ((left, top), (right, top), (0, -1), (0, 1)),
                 (1, 0): ((left, bottom), (right, bottom), (0, -1), (0, 1)),
                 (0, -1): ((left, top), (left, bottom), (-1, 0), (1, 0)),
                 (0, 1): ((right, top), (right, bottom), (-1, 0), (1, 0))}
        for (dr, dc), ((x1, y1), (x2, y2), before, after) in sides.items():
            if (r + dr, c + dc) in cage:
                continue
            # run on into the square before and after it in the cage, and round the corner
            # where the cage turns back over this side
            low, high = (run_on(cage, (r, c), side, (dr, dc), inset) for side in (before, after))
            x1, y1 = (x1 - low, y1) if dr else (x1, y1 - low)
            x2, y2 = (x2 + high, y2) if dr else (x2, y2 + high)
            lines.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{INK}" '
                         'stroke-width="1" stroke-dasharray="3 3"/>')
    return lines


def run_on(cage: frozenset, at, along, across, inset: float) -> float:
    """How far a dashed side of square `at` runs on `along` it: into the next square if
    that is in the cage, and round the corner if the cage turns back `across` there."""
    beside = (at[0] + along[0], at[1] + along[1])
    if beside not in cage:
        return 0
    return inset + inset * ((beside[0] + across[0], beside[1] + across[1]) in cage)


def outline(scene: Scene, box) -> list[str]:
    """A grid without regions: a firm line where a square has no square beside it."""
    squares = scene.square_at()
    lines = []
    for (r, c) in squares:
        x, y, width = box((r, c))
        for other, (x1, y1, x2, y2) in {(r, c + 1): (x + width, y, x + width, y + CELL),
                                        (r + 1, c): (x, y + CELL, x + width, y + CELL),
                                        (r, c - 1): (x, y, x, y + CELL),
                                        (r - 1, c): (x, y, x + width, y)}.items():
            if other not in squares:
                lines.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{INK}" '
                             'stroke-width="2" stroke-linecap="square"/>')
    return lines


def mark_class(marks: Tags) -> str:
    """The marks as a class attribute, for a page's style sheet and for tests."""
    return f' class="{" ".join(sorted(marks))}"' if marks else ""


def text_element(text: str, x: float, y: float, size: float, anchor: str = "middle",
                 weight: str = "normal", fill: str = INK) -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(text)}</text>')


PAPERS = {"a4": (210, 297), "letter": (215.9, 279.4)}  # millimetres
PX_PER_MM = 96 / 25.4


def sheet(figures: Sequence[tuple[str, Figure]], paper: str = "a4", heading: str = "",
          columns: int = 2, rows: int = 2, margin_mm: float = 12) -> str:
    """One printed page as an SVG document: `heading` on top, then the figures in a grid
    of `columns` by `rows`, each scaled to fit its place (never above 1.6 times its
    size), centred, its caption below it."""
    width, height = (side * PX_PER_MM for side in PAPERS[paper])
    margin = margin_mm * PX_PER_MM
    top = margin + (CAPTION_SIZE * 2 if heading else 0)
    cell_width, cell_height = (width - 2 * margin) / columns, (height - top - margin) / rows
    parts = [text_element(heading, margin, margin + CAPTION_SIZE * 1.2, CAPTION_SIZE * 1.4,
                          anchor="start", weight="bold")] if heading else []
    for n, (caption, drawn) in enumerate(figures[:columns * rows]):
        x0, y0 = margin + (n % columns) * cell_width, top + (n // columns) * cell_height
        room = cell_height - CAPTION_SIZE * 2
        scale = min(cell_width * 0.92 / drawn.width, room / drawn.height, 1.6)
        w, h = drawn.width * scale, drawn.height * scale
        x, y = x0 + (cell_width - w) / 2, y0
        parts.append(f'<svg x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                     f'viewBox="0 0 {drawn.width:g} {drawn.height:g}">{drawn.body}</svg>')
        parts.append(text_element(caption, x0 + cell_width / 2, y + h + CAPTION_SIZE * 1.2,
                                  CAPTION_SIZE, fill=FAINT))
    w_mm, h_mm = PAPERS[paper]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w_mm:g}mm" '
            f'height="{h_mm:g}mm" viewBox="0 0 {width:.1f} {height:.1f}" font-family="{escape(FONT)}">'
            f'<rect width="100%" height="100%" fill="white"/>{"".join(parts)}</svg>')
