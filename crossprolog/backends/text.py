"""The text and markdown backends: a scene as the text a person types, in the layout
style the scene names (one function per style, any family may use any)."""

from __future__ import annotations

from typing import Callable, Iterable

from ..drawing import aligned, bracketed, fenced, markdown_table
from ..scene import (POINTED, Aligned, Boxes, Fenced, Keyed, Label, Placed, Scene, Square, Table,
                     Token, Uniform, Walled)

LEGEND = "legend"
EMPTY = Token("")


def text(scene: Scene) -> str:
    """The scene as text: the lines before, the grid in its layout style, the lines after."""
    body = STYLES[type(scene.layout)](scene)
    return "\n".join(lines(scene.before) + body + lines(scene.after))


def markdown(scene: Scene) -> str:
    """The scene as markdown: a table, or the text in a fenced code block."""
    style = scene.markdown
    if isinstance(style, Fenced):
        return fenced(text(scene))
    return table(scene, style)


def drawn(item: Token | Square | Label) -> str:
    """A token's (or a square's, or a label's) text, in brackets when a mark points at it."""
    return bracketed(item.text, bool(item.marks & POINTED))


def lines(tokens: Iterable[Token]) -> list[str]:
    return [drawn(token) for token in tokens]


def grid_rows(scene: Scene, fill: bool = True) -> list[list[Token | Square | Label]]:
    """The squares and labels (the legend aside) of every grid row that has any, in
    column order; with `fill`, an empty token at each place of a row left open."""
    at: dict[tuple[int, int], Token | Square | Label] = {s.at: s for s in scene.squares}
    at.update((label.at, label) for label in scene.labels if label.side != LEGEND)
    by_row: dict[int, list[int]] = {}
    for r, c in at:
        by_row.setdefault(r, []).append(c)
    first = min((c for _, c in at), default=0)
    rows = []
    for r in sorted(by_row):
        columns = sorted(by_row[r])
        places = range(first, columns[-1] + 1) if fill else columns
        rows.append([at.get((r, c), EMPTY) for c in places])
    return rows


def legend(scene: Scene) -> list[Token]:
    return [label.token for label in sorted(scene.labels, key=lambda label: label.at)
            if label.side == LEGEND]


# The layout styles


def aligned_style(scene: Scene) -> list[str]:
    style: Aligned = scene.layout
    rows = [[drawn(token) for token in row] for row in grid_rows(scene)]
    if style.compact:
        return ["".join(row) for row in rows]
    return aligned(rows, left=style.left)


def uniform_style(scene: Scene) -> list[str]:
    rows = [[drawn(token) for token in row] for row in grid_rows(scene, fill=False)]
    width = max((len(t) for row in rows for t in row), default=1)
    regions = [" ".join(map(drawn, legend(scene)))] if legend(scene) else []
    return [" ".join(t.rjust(width) for t in row) for row in rows] + regions


def boxes_style(scene: Scene) -> list[str]:
    style: Boxes = scene.layout
    grid = [[drawn(token) for token in row] for row in grid_rows(scene)]
    if style.line:
        return ["".join(t for row in grid for t in row)]
    apart, box = style.apart, style.box
    if not style.ruled:
        return [apart.join(row) for row in grid]
    rows = [f"{apart}|{apart}".join(apart.join(row[c:c + box]) for c in range(0, len(row), box))
            for row in grid]
    inner, bands = box * (1 + len(apart)) - len(apart), len(grid[0]) // box
    rule = "+".join("-" * (inner + len(apart) * ((k > 0) + (k < bands - 1))) for k in range(bands))
    return [line for band in range(0, len(rows), box)
            for line in ([rule] if band else []) + rows[band:band + box]]


def walled_style(scene: Scene) -> list[str]:
    """Each square's corner clue and text inside walls, each in brackets when a mark
    points at it: `-` and `|` between squares of different regions (or of none), blanks
    within a region."""
    squares = scene.square_at()
    walled = scene.cages if scene.layout.cages else scene.regions
    region = {cell: k for k, cells in enumerate(walled) for cell in cells}
    rows, cols = scene.rows, scene.cols
    texts = {at: (drawn(square.corner) if square.corner else "", drawn(square) if square.text else "")
             for at, square in squares.items()}
    inner = max([len(clue) + len(digit) + bool(clue and digit) for clue, digit in texts.values()] + [1])

    def parted(a, b) -> bool:
        return region.get(a) != region.get(b) or a not in region

    def wall(r: int) -> str:
        return "+" + "+".join(("-" if r in (0, rows) or parted((r - 1, c), (r, c)) else " ")
                              * (inner + 2) for c in range(cols)) + "+"

    out = []
    for r in range(rows):
        out.append(wall(r))
        cells = [" " + clue + " " * (inner - len(clue) - len(digit)) + digit + " "
                 for clue, digit in (texts.get((r, c), ("", "")) for c in range(cols))]
        out.append("|" + "".join(cell + ("|" if c == cols - 1 or parted((r, c), (r, c + 1)) else " ")
                                 for c, cell in enumerate(cells)))
    return out + [wall(rows)]


def placed_style(scene: Scene) -> list[str]:
    """Every token at its place, a marked one in brackets that open one place before it."""
    items = [(s.place, s) for s in scene.squares if s.place]
    items += [(label.place, label) for label in scene.labels if label.place]
    chars_of: dict[int, list[str]] = {}
    for place, token in sorted(items, key=lambda item: (item[0].line, item[0].column)):
        column = place.column - bool(token.marks & POINTED)
        chars = chars_of.setdefault(place.line, [])
        chars.extend(" " * (column - len(chars)))
        written = drawn(token)
        chars[column:column + len(written)] = written
    return ["".join(chars_of[n]).rstrip() for n in sorted(chars_of)]


def keyed_style(scene: Scene) -> list[str]:
    style: Keyed = scene.layout
    at = scene.square_at()

    def rows(grid: list[list[str]]) -> list[str]:
        return ["".join(row) for row in grid] if style.compact else aligned(grid, left=True)

    keys = rows([[at[r, c].text if (r, c) in at else "." for c in range(scene.cols)]
                 for r in range(scene.rows)])
    if not any(square.value or square.marks & POINTED for square in scene.squares):
        return keys + lines(style.key)
    values = [[drawn(Token(at[r, c].value or ".", at[r, c].marks)) if (r, c) in at else "."
               for c in range(scene.cols)] for r in range(scene.rows)]
    return keys + lines(style.key) + [""] + rows(values)


STYLES: dict[type, Callable[[Scene], list[str]]] = {
    Aligned: aligned_style, Uniform: uniform_style, Boxes: boxes_style, Walled: walled_style,
    Placed: placed_style, Keyed: keyed_style}


def table(scene: Scene, style: Table) -> str:
    """A markdown table: the column labels (and the corner) as its header, or a blank one;
    each grid row's squares, then its row labels in bold."""
    top = sorted((label for label in scene.labels if label.side in ("top", "bottom")),
                 key=lambda label: label.at[1])
    rows = sorted({square.at[0] for square in scene.squares})
    body = [[drawn(s) for s in sorted(scene.squares, key=lambda s: s.at) if s.at[0] == r]
            + [f"**{drawn(label)}**" for label in scene.labels
               if label.side == "right" and label.at[0] == r] for r in rows]
    width = max(map(len, body), default=0)
    header = ([" "] * width if style.blank_header
              else [drawn(label) for label in top] + [style.corner] * (style.corner is not None))
    drawing = markdown_table(header, body)
    if not style.footer:
        return "\n".join(lines(scene.before) + [drawing])
    notes = [f"*{t.text.removeprefix('# ')}*" for t in scene.before] + \
            [t.text.removeprefix("# ") for t in scene.after]
    return "\n".join([drawing] + (["", " · ".join(notes)] if notes else []))

