"""Encodings in other declarative languages, beside the Prolog ones: ASP run by clingo
and MiniZinc models run by Gecode.

Every family has one of each, `asp` (FAMILY.lp) and `minizinc` (FAMILY.mzn),
in this directory; its mapping (FAMILY.py here) turns the dict its Prolog
module reads (`Puzzle.prolog_data()`) into the facts and the data they
document, and says the objective's candidate values where a puzzle has one.
A user's own `.lp` or `.mzn` file gets the same facts or data
(`load_encoding`).  The engine hands a search whose encoding is one of these
to `find` or `stream` here, and gets back what its Prolog searches give:
status, solutions or count, seconds and CPU, and each solver's own effort
counters (`counters`: clingo's choices and conflicts, Gecode's nodes and
failures).  Hints and diagnoses keep to Prolog (`prolog_side`).
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, Sequence

from ..encoding_files import encoding_text
from ..errors import CrossprologError, Interrupted, TimeLimitExceeded, UsageError
from .shapes import ParadigmError
from .terms import small_data

HERE = Path(__file__).resolve().parent
SUFFIXES = {"asp": ".lp", "minizinc": ".mzn"}  # a paradigm's files
NAMES = tuple(SUFFIXES)  # the built-in encodings' names, as --encoding takes them
TITLES = {"asp": "ASP (clingo)", "minizinc": "MiniZinc (Gecode)"}


class EncodingFailed(CrossprologError):
    """An ASP program or MiniZinc model that failed on a puzzle: one line naming its file."""

    exit_code = 2


@dataclass(frozen=True)
class Encoding:
    """An encoding in another paradigm: its name, paradigm (asp or minizinc), file, and
    the family it is for (None: a user's for any family; the name of a Prolog module)."""

    name: str
    paradigm: str
    path: str
    family: str | None = None
    user: bool = False

    def file(self, family: str) -> str:
        """The file that encodes `family`'s puzzles."""
        return str(HERE / f"{family}{SUFFIXES[self.paradigm]}") if not self.user else self.path

    def label(self, family: str) -> str:
        """How errors name it: the file (a bundled one by its name in the package)."""
        return self.path if self.user else f"{family}{SUFFIXES[self.paradigm]}"


_user: dict[str, Encoding] = {}
_lock = threading.Lock()
_progress: dict[str, int] = {}


def owns(name: str | None) -> bool:
    """Whether `name` is an encoding of another paradigm (bundled, or a user's loaded)."""
    return name in NAMES or name in _user


def encodings(family: str) -> list[str]:
    """The bundled encodings of other paradigms for the Prolog module `family`."""
    return [name for name in NAMES if (HERE / f"{family}{SUFFIXES[name]}").exists()]


def available(name: str) -> bool:
    """Whether the solver of the encoding `name` is installed here."""
    paradigm = _user[name].paradigm if name in _user else name
    if paradigm == "minizinc":
        return shutil.which("minizinc") is not None
    try:
        import clingo  # noqa: F401
    except ImportError:
        return False
    return True


def user_encodings(family: str | None = None) -> list[str]:
    """The user's encodings of other paradigms loaded (for `family`, when given)."""
    return [e.name for e in _user.values() if family is None or e.family in (None, family)]


def user_encoding(name: str) -> Encoding | None:
    """The user's encoding of another paradigm called `name`, if one is loaded."""
    return _user.get(name)


def checked(family: str, name: str) -> str:
    """`name`, if it is an encoding of another paradigm for `family`; UsageError if it is
    a user's for another family."""
    user = _user.get(name)
    if user and user.family not in (None, family):
        raise UsageError(f"encoding {name!r} ({user.path}) is for {user.family} puzzles, not {family}")
    return name


def paradigm_of(path: str) -> str | None:
    """The paradigm of an encoding file, by its suffix (None: not .lp or .mzn)."""
    return next((p for p, suffix in SUFFIXES.items() if str(path).endswith(suffix)), None)


FAMILY_LINE = re.compile(r"^%\s*family:\s*([a-z_]+)\s*$", re.MULTILINE)


def load_encoding(path: str, taken: Sequence[str] = (), families: dict[str, str] | None = None) -> str:
    """Load the user's `.lp` or `.mzn` file at `path`: its name (the file's stem).  A line
    `% family: NAME` says which family it is for (else any).  `taken` are names already
    used; `families` the families there are, each with its Prolog module.  UsageError
    naming the file for one that cannot be read, does not parse (or type-check), whose
    name is taken, or whose family does not exist; errors when it runs are one line
    naming it too."""
    real = os.path.realpath(path)
    for encoding in _user.values():
        if os.path.realpath(encoding.path) == real:
            return encoding.name
    paradigm = paradigm_of(path)
    name = Path(path).name.removesuffix(SUFFIXES.get(paradigm, ""))
    text = encoding_text(path)
    if not re.fullmatch(r"[a-z][a-zA-Z0-9_]*", name) or name in taken or name in NAMES or name in _user:
        raise UsageError(f"{path}: its encoding would be called {name!r}, which is taken or not a "
                         "name (a lower-case letter, then letters, digits, _); rename the file")
    family = FAMILY_LINE.search(text)
    solver(paradigm).check_file(path)
    families = families or {}
    if family and family.group(1) not in families:
        raise UsageError(f"{path}: '% family: {family.group(1)}' names no family; "
                         f"choose from {', '.join(families)}")
    with _lock:
        _user[name] = Encoding(name, paradigm, path, families[family.group(1)] if family else None,
                               user=True)
    return name


def unload_encoding(name: str) -> None:
    """Forget the user's encoding `name`."""
    with _lock:
        del _user[name]


def mapping_of(family: str):
    """The module that maps `family`'s Prolog data to facts and data (FAMILY.py here)."""
    return import_module(f"{__name__}.{family}")


def encoding_of(name: str) -> Encoding:
    """The encoding `name` of another paradigm: a user's loaded, or a bundled one."""
    return _user.get(name) or Encoding(name, name, "")


def find(family: str, data: dict, *, shape: Sequence[int], limit: int, timeout: float | None,
         encoding: str, keep: bool = True, progress: str = "") -> dict:
    """The search of the Prolog-side `find`, run by this encoding's solver: the same
    result (status, solutions or count, seconds, cpu, encoding) with `counters`.
    EncodingFailed names the file of an encoding that fails."""
    chosen = encoding_of(encoding)
    mapping = mapping_of(family)
    candidates = mapping.objective_candidates(data)
    counted = (lambda n: _progress.__setitem__(progress, n)) if progress else (lambda n: None)
    try:
        if chosen.paradigm == "asp":
            found = solver("asp").search(chosen.file(family), mapping.asp_facts(data), shape,
                               label=chosen.label(family), limit=limit, timeout=timeout, keep=keep,
                               candidates=candidates, counted=counted)
        else:
            found = solver("minizinc").search(chosen.file(family), small_data(mapping.mzn_data(data)), shape,
                                    limit=limit, timeout=timeout, keep=keep, candidates=candidates,
                                    counted=counted)
    except ParadigmError as error:
        raise EncodingFailed(_named(chosen.label(family), error)) from None
    except Interrupted as stopped:  # Ctrl-C: what was found, as the engine's
        raise Interrupted({**stopped.found, "encoding": encoding}) from None
    finally:
        _progress.pop(progress, None)
    return {**found, "encoding": encoding}


def solver(paradigm: str) -> ModuleType:
    """The module that runs `paradigm`'s solver (asp: clingo, minizinc), imported when
    first used: a start that needs neither loads neither."""
    return import_module(f"{__name__}.{paradigm}")


def found_so_far(progress: str) -> int | None:
    """How many answers the search reporting under `progress` has found (None: no such search)."""
    return _progress.get(progress)


def stream(family: str, data: dict, *, shape: Sequence[int], encoding: str,
           timeout: float | None = None) -> Iterator[Any]:
    """The answers one at a time, within `timeout` seconds in all (TimeLimitExceeded
    then); for a puzzle with an objective, every optimal one found first."""
    chosen = encoding_of(encoding)
    mapping = mapping_of(family)
    try:
        if mapping.objective_candidates(data) is not None:
            found = find(family, data, shape=shape, limit=0, timeout=timeout, encoding=encoding)
            if found["status"] == "timeout":
                raise TimeLimitExceeded(timeout or 0)
            yield from found["solutions"]
        elif chosen.paradigm == "asp":
            yield from solver("asp").answers(chosen.file(family), mapping.asp_facts(data), shape,
                                   label=chosen.label(family), timeout=timeout)
        else:
            yield from solver("minizinc").answers(chosen.file(family), small_data(mapping.mzn_data(data)), shape,
                                        timeout=timeout)
    except ParadigmError as error:
        raise EncodingFailed(_named(chosen.label(family), error)) from None


def _named(label: str, error: ParadigmError) -> str:
    """The error, one line naming the file (clingo's own messages begin with it)."""
    text = str(error)
    return text if text.startswith(label) else f"{label}: {text}"
