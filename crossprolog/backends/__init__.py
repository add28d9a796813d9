"""The backends that render a scene (crossprolog.scene): text and markdown, the layouts
people type; svg, a picture; html, a self-contained page around the picture.  Adding
an output format is adding one row to FORMATS."""

from __future__ import annotations

from importlib import import_module
from typing import Callable

from ..errors import InvalidValue
from ..scene import Scene

PICTURES = ("svg", "html")  # the formats that are pictures, not text

# A format's renderer, as "module:function" of this package (imported when first asked
# for, so that a start that prints text loads no picture code) or as the function.
FORMATS: dict[str, str | Callable[[Scene], str]] = {
    "text": "text:text", "markdown": "text:markdown", "svg": "svg:picture", "html": "html:page_of"}


def render(scene: Scene, format: str) -> str:
    """`scene` drawn in `format` (one of FORMATS); InvalidValue for another."""
    if format not in FORMATS:
        raise InvalidValue(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    return renderer(format)(scene)


def renderer(format: str) -> Callable[[Scene], str]:
    """The function that renders a scene in `format`, one of FORMATS."""
    named = FORMATS[format]
    if callable(named):
        return named
    module, function = named.split(":")
    return getattr(import_module(f".{module}", __name__), function)
