"""A puzzle as a standalone ASP program (`clingo FILE`) or MiniZinc model
(`minizinc FILE`): the encoding's file as it stands, then the puzzle as facts or
data written here from numbers and crossprolog's own names only, never text
from the puzzle.

A puzzle with an objective is exported as MiniZinc only: its model searches
the candidates best first by itself, while an ASP program needs crossprolog's
loop over them (one multi-shot grounding each; grounding them all at once and
maximizing did not finish the January puzzle in minutes).
"""

from __future__ import annotations

import json
from typing import Any

from . import SUFFIXES, encoding_of, mapping_of, minizinc, paradigm_of
from ..encoding_files import encoding_text
from ..errors import UsageError, printable
from .terms import fact_text

HEADER = """\
% {title} puzzle, {what}: written by `crossprolog export`.
% Run it with: {command} {filename}
% It needs {needs} and nothing else.
"""

COMMANDS = {"asp": ("clingo", "clingo 5"), "minizinc": ("minizinc", "MiniZinc 2 with Gecode")}

def exported(puzzle: Any, paradigm: str, encoding: str | None = None,
             filename: str = "puzzle") -> str:
    """The standalone text of `puzzle` for `paradigm` (asp or minizinc): the bundled
    encoding, or the user's loaded `encoding` of that paradigm."""
    family = puzzle.record.prolog
    chosen = encoding_of(encoding or paradigm)
    path = chosen.file(family)
    source = encoding_text(path)
    data, mapping = puzzle.prolog_data(), mapping_of(family)
    what = f"encoding {chosen.name} of {chosen.path}" if chosen.user else f"{paradigm} encoding"
    command, needs = COMMANDS[paradigm]
    # A user's path, as the file name, may hold a line break: each stays on its comment line.
    header = HEADER.format(title=puzzle.record.title, what=printable(what), command=command, needs=needs,
                           filename=printable(filename))
    candidates = mapping.objective_candidates(data)
    if paradigm == "asp":
        if candidates is not None:
            raise UsageError("a puzzle with an objective is exported as MiniZinc (--format mzn): "
                             "an ASP program needs crossprolog's loop over the candidates")
        facts = mapping.asp_facts(data)
        return (header + "\n" + source.rstrip("\n") + "\n\n#program base.\n"
                "% The puzzle, as facts.\n" + fact_text(facts))
    values = mapping.mzn_data(data)
    if candidates is not None:
        values["objective_candidates"] = {"set": candidates}
    if chosen.user:  # as JSON data, an item the model does not declare is left unread; here, an error
        declared = minizinc.interface(path)["input"]
        values = {name: value for name, value in values.items() if name in declared}
    return (header + "\n" + source.rstrip("\n") + "\n\n% The puzzle, as data.\n"
            + "".join(f"{name} = {_value(value)};\n" for name, value in values.items()))


def paradigm_for(encoding: str | None, format: str | None) -> str | None:
    """The paradigm an export is in: from --format (lp, mzn) or else from the encoding
    (None: Prolog)."""
    by_suffix = {suffix.lstrip("."): name for name, suffix in SUFFIXES.items()}
    if format in by_suffix:
        return by_suffix[format]
    if encoding is None or format == "pl":
        return None
    chosen = encoding_of(encoding)
    return chosen.paradigm if (chosen.user or encoding in SUFFIXES) else None


def _value(value: Any) -> str:
    """A MiniZinc literal for a value of the data: an integer or a Boolean, a list (an
    array; a list of lists a 2-d array) or {"set": [...]}, numbers written by json."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{" + ", ".join(json.dumps(int(v)) for v in value["set"]) + "}"
    if value and isinstance(value[0], list):
        flat = [int(v) for row in value for v in row]
        return f"array2d(1..{len(value)}, 1..{len(value[0])}, {json.dumps(flat)})"
    return json.dumps([int(v) for v in value])


__all__ = ["exported", "paradigm_for", "paradigm_of"]
