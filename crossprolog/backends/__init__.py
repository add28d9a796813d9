"""The backends that render a scene (crossprolog.scene): text and markdown, the layouts
people type; svg, a picture; html, a self-contained page around the picture.  Adding
an output format is adding one function to FORMATS."""

from __future__ import annotations

from typing import Callable

from ..errors import InvalidValue
from ..scene import Scene
from . import html, svg, text

FORMATS: dict[str, Callable[[Scene], str]] = {
    "text": text.text, "markdown": text.markdown, "svg": svg.picture, "html": html.page_of}


def render(scene: Scene, format: str) -> str:
    """`scene` drawn in `format` (one of FORMATS); InvalidValue for another."""
    if format not in FORMATS:
        raise InvalidValue(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    return FORMATS[format](scene)
