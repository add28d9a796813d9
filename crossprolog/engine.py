"""The one bridge between Python and SWI-Prolog.

SWI-Prolog is embedded through janus and started on first use; each Prolog
module is consulted the first time something needs it, and each family's
encodings are asked for once.  Every goal sent from here is a constant of
this module; puzzle data travels only as janus input bindings (lists, ints,
strings, dicts), never as Prolog text.

A search's outcome comes back as a dict (see prolog/crossprolog.pl).  An
exception in Prolog comes back in it as a typed error, _{kind, message},
and is raised here by its kind, never recognised by its text.
"""

from __future__ import annotations

import itertools
import threading
import time
from importlib import resources
from typing import Any, Iterator

from .errors import CrossprologError, ResourceLimit, TimeLimitExceeded, UsageError

DRIVER = "crossprolog"

_lock = threading.RLock()
_loaded: set[str] = set()
_encodings: dict[str, tuple[str, ...]] = {}
_engine_names = itertools.count(1)


class EncodingError(CrossprologError):
    """An encoding raised an error of its own: a bug in it, reported, never a traceback."""

    exit_code = 2


def _janus():
    import janus_swi

    return janus_swi


def prolog_file(name: str) -> str:
    """Path of a bundled Prolog module, such as `crossproduct.pl`."""
    return str(resources.files("crossprolog.prolog").joinpath(name))


def _load(module: str) -> None:
    """Consult the bundled Prolog module `module` (and the driver first), once per process."""
    if module in _loaded:
        return
    with _lock:
        for name in (DRIVER, module):
            if name not in _loaded:
                # Import nothing: every family exports the same names (model/4, ...) and
                # is always called by module.
                _janus().query_once("use_module(File, [])", {"File": prolog_file(f"{name}.pl")})
                _loaded.add(name)


def call(goal: str, inputs: dict[str, Any], *, module: str = DRIVER) -> dict[str, Any]:
    """Run a constant `goal` once with `inputs` bound, `module` loaded first; its bindings.

    A Prolog exception is raised by its kind (see `raise_error`); a failing
    goal is a bug here.
    """
    _load(module)
    janus = _janus()
    try:
        answer = janus.query_once(goal, inputs)
    except janus.PrologError as error:
        if error.term is None:
            raise
        raise_error(janus.query_once("crossprolog:error_term(E, T)", {"E": error.term})["T"])
    if not answer["truth"]:
        raise RuntimeError(f"Prolog goal failed: {goal}")
    return answer


def raise_error(error: dict) -> None:
    """Raise what a typed Prolog error `_{kind, message}` stands for."""
    kind, message = str(error["kind"]), str(error["message"])
    if kind == "interrupt":
        raise KeyboardInterrupt()
    if kind == "resource":
        raise ResourceLimit(f"Prolog ran out of resources: {message}")
    if kind == "usage":
        raise UsageError(message)
    raise EncodingError(f"the encoding raised an error: {message}")


def encodings(family: str) -> list[str]:
    """The encodings of the Prolog module `family`, its default first (asked for once)."""
    if family not in _encodings:
        names = call("crossprolog:family_encodings(F, E)", {"F": family}, module=family)["E"]
        _encodings[family] = tuple(map(str, names))
    return list(_encodings[family])


def checked_encoding(family: str, encoding: str | None) -> str:
    """`encoding`, or the family's default when None; UsageError if the family lacks it."""
    names = encodings(family)
    if encoding is None:
        return names[0]
    if encoding not in names:
        raise UsageError(f"unknown encoding {encoding!r} for {family}; choose from {', '.join(names)}")
    return encoding


def _encoding_term(family: str, encoding: str | None) -> dict[str, Any]:
    return {"M": family, "N": checked_encoding(family, encoding)}


ENCODING = "encoding(M, N)"


def find(family: str, puzzle: dict, *, limit: int = 0, timeout: float | None = None,
         encoding: str | None = None, keep: bool = True) -> dict:
    """Search `puzzle` for up to `limit` solutions (0: all) within `timeout` seconds.

    The result holds `status` (complete, limit or timeout), `solutions` (or
    only `count`, with keep=False), `inferences`, `cpu` and `encoding`.
    """
    inputs = _encoding_term(family, encoding)
    goal = (f"crossprolog:first_solutions({ENCODING}, P, L, S, R)" if keep
            else f"crossprolog:count_solutions({ENCODING}, P, L, S, R)")
    result = call(goal, {**inputs, "P": puzzle, "L": limit, "S": timeout or 0}, module=family)["R"]
    return _checked(result, inputs["N"])


def find_many(family: str, puzzles: list[dict], *, limit: int = 0, timeout: float | None = None,
              encoding: str | None = None, keep: bool = True) -> list[dict]:
    """`find` for every puzzle of a batch, in one crossing into Prolog.

    `timeout` bounds each puzzle's search, not the batch's.
    """
    inputs = _encoding_term(family, encoding)
    results = call(f"crossprolog:batch_solutions({ENCODING}, Ps, L, S, K, Rs)",
                   {**inputs, "Ps": puzzles, "L": limit, "S": timeout or 0, "K": keep},
                   module=family)["Rs"]
    return [_checked(result, inputs["N"]) for result in results]


def _checked(result: dict, encoding: str) -> dict:
    if result["status"] == "error":
        raise_error(result["error"])
    return {**result, "encoding": encoding}


def stream(family: str, puzzle: dict, *, timeout: float | None = None,
           encoding: str | None = None) -> Iterator[Any]:
    """Yield the solutions of `puzzle` one at a time, searching only as far as asked.

    The search may take `timeout` seconds in all (time the caller spends
    between solutions does not count); then TimeLimitExceeded is raised.
    Closing the generator stops the search and frees its Prolog engine.
    """
    inputs = _encoding_term(family, encoding)
    name = f"crossprolog_engine_{next(_engine_names)}"
    call(f"crossprolog:open_solutions(Name, {ENCODING}, P)", {**inputs, "Name": name, "P": puzzle},
         module=family)
    spent = 0.0
    try:
        while True:
            remaining = None if timeout is None else timeout - spent
            if remaining is not None and remaining <= 0:
                raise TimeLimitExceeded(timeout)
            started = time.perf_counter()
            result = call("crossprolog:next_solution(N, S, R)", {"N": name, "S": remaining or 0})["R"]
            spent += time.perf_counter() - started
            if result["status"] == "timeout":
                raise TimeLimitExceeded(timeout or 0)
            if result["status"] == "error":
                raise_error(result["error"])
            if result["status"] == "complete":
                return
            yield result["solution"]
    finally:
        call("crossprolog:close_solutions(N)", {"N": name})


def restricted(family: str, puzzle: dict, cells: list, *, limit: int = 0,
               timeout: float | None = None, encoding: str | None = None) -> dict:
    """`find`, the solutions also meeting `cells`: [Path, "=" or "\\=", Value] each,
    Path leading to a cell's variable in the solution term."""
    inputs = _encoding_term(family, encoding)
    result = call(f"crossprolog:restricted_solutions({ENCODING}, P, C, L, S, R)",
                  {**inputs, "P": puzzle, "C": cells, "L": limit, "S": timeout or 0},
                  module=family)["R"]
    return _checked(result, inputs["N"])


def consequences(family: str, puzzle: dict, cells: list, *, probe: bool = True,
                 timeout: float | None = None, encoding: str | None = None) -> dict:
    """What the constraints of `puzzle` (and `cells`, as in `restricted`) force without
    search: `status` consistent, inconsistent or timeout; when consistent,
    `propagated` and (with `probe`) `probed`, the solution term with each
    variable's values left."""
    inputs = _encoding_term(family, encoding)
    result = call(f"crossprolog:consequences({ENCODING}, P, C, B, S, R)",
                  {**inputs, "P": puzzle, "C": cells, "B": probe, "S": timeout or 0},
                  module=family)["R"]
    return _checked(result, inputs["N"])


class Session:
    """One puzzle's constraints posted once, in a Prolog engine of their own, for many
    `restricted` questions: posting costs more than answering.  Use it as a context
    manager, or close it."""

    def __init__(self, family: str, puzzle: dict, encoding: str | None = None):
        inputs = _encoding_term(family, encoding)
        self.name = f"crossprolog_session_{next(_engine_names)}"
        self.encoding = inputs["N"]
        call(f"crossprolog:open_session(Name, {ENCODING}, P)", {**inputs, "Name": self.name,
                                                                "P": puzzle}, module=family)

    def restricted(self, cells: list, *, limit: int = 0, timeout: float | None = None) -> dict:
        """As `restricted`, of the session's puzzle."""
        result = call("crossprolog:session_solutions(N, C, L, S, R)",
                      {"N": self.name, "C": cells, "L": limit, "S": timeout or 0})["R"]
        return _checked(result, self.encoding)

    def close(self) -> None:
        call("crossprolog:close_solutions(N)", {"N": self.name})

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_) -> None:
        self.close()
