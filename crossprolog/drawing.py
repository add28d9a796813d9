"""Drawing helpers every family's model shares: formats, markdown rows, aligned columns."""

from __future__ import annotations

from typing import Sequence

from .errors import InvalidValue

FORMATS = ("text", "markdown")
FENCE = "```"


def checked_format(format: str) -> str:
    """`format` if it is one of FORMATS; InvalidValue otherwise."""
    if format not in FORMATS:
        raise InvalidValue(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    return format


def markdown_row(cells: Sequence[object]) -> str:
    """One markdown table row: `|1|2|3|`."""
    return "|" + "|".join(map(str, cells)) + "|"


def markdown_table(header: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table: the header row, the `|---|` rule, then the rows."""
    lines = [markdown_row(header), markdown_row(["---"] * len(header))]
    return "\n".join(lines + [markdown_row(row) for row in rows])


def aligned(rows: Sequence[Sequence[str]], left: bool = False) -> list[str]:
    """The rows as lines of blank-separated columns, right-aligned (or `left`),
    ragged rows allowed."""
    width = max(map(len, rows), default=0)
    widths = [max((len(row[c]) for row in rows if c < len(row)), default=0) for c in range(width)]
    pad = str.ljust if left else str.rjust
    return [" ".join(pad(cell, w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def fenced(text: str, info: str = "text") -> str:
    """`text` in a markdown code block, which keeps its columns aligned."""
    return f"{FENCE}{info}\n{text}\n{FENCE}"


def bracketed(text: str, marked: bool) -> str:
    """`text` in brackets when `marked`: how a drawing points at a cell or a clue."""
    return f"[{text}]" if marked else text
