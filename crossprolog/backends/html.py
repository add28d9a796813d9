"""The HTML backend: self-contained pages (inline SVG and style, no script, nothing
fetched) around pictures: one scene's, a command's whole output, a printable book."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Sequence

from ..scene import Scene
from . import svg

STYLE = """
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin: 1.2em 0 0.4em; }
pre { background: #f6f6f6; padding: 0.6em 0.8em; overflow-x: auto; }
figure { display: inline-block; margin: 0.5em 1em 0.5em 0; vertical-align: top; }
figcaption { font-size: 0.9em; color: #444; }
svg { max-width: 100%; height: auto; }
.sheet { display: grid; grid-template-columns: 1fr 1fr; gap: 8mm 6mm; align-items: start; }
.sheet figure { margin: 0; text-align: center; break-inside: avoid; page-break-inside: avoid; }
.sheet svg { width: 82%; height: auto; max-height: 105mm; }
.sheet + .sheet, .part { break-before: page; page-break-before: always; }
@page { margin: 12mm; }
@media print { body { margin: 0; } h1 { margin-top: 0; } }
"""


@dataclass(frozen=True)
class Section:
    """A part of a page: a heading, text as a command prints it, pictures (SVG documents)
    each with a caption."""

    heading: str = ""
    text: str = ""
    pictures: Sequence[tuple[str, str]] = field(default_factory=tuple)


def page_of(scene: Scene) -> str:
    """One scene's picture on a page of its own."""
    return page(scene.title or scene.family, [Section(pictures=[("", svg.picture(scene))])])


def page(title: str, sections: Sequence[Section]) -> str:
    """A self-contained HTML page of `sections`."""
    body = "".join(section_html(section) for section in sections)
    return document(title, f"<h1>{escape(title)}</h1>{body}")


def section_html(section: Section) -> str:
    heading = f"<h2>{escape(section.heading)}</h2>" if section.heading else ""
    text = f"<pre>{escape(section.text)}</pre>" if section.text else ""
    return f"<section>{heading}{text}{''.join(figure(*p) for p in section.pictures)}</section>"


def figure(caption: str, picture: str) -> str:
    caption = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    return f"<figure>{picture}{caption}</figure>"


def book(title: str, puzzles: Sequence[tuple[str, str]], solutions: Sequence[tuple[str, str]],
         per_page: int = 4) -> str:
    """A printable book: the puzzles, `per_page` to a sheet, then the solutions, each part
    and each sheet starting a new page; the sheets fit A4 and Letter alike (two
    columns of pictures at most 105 mm high, within 12 mm margins)."""
    def sheets(pictures: Sequence[tuple[str, str]]) -> str:
        return "".join(f'<div class="sheet">{"".join(figure(*p) for p in pictures[n:n + per_page])}</div>'
                       for n in range(0, len(pictures), per_page))

    answers = f'<h1 class="part">Solutions</h1>{sheets(solutions)}' if solutions else ""
    return document(title, f"<h1>{escape(title)}</h1>{sheets(puzzles)}{answers}")


def document(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{body}</body></html>\n")
