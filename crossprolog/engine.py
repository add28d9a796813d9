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
import math
import numbers
import signal
import sys
import threading
import time
from importlib import resources
from typing import Any, Iterator

from .errors import (CrossprologError, Interrupted, InvalidValue, ResourceLimit, TimeLimitExceeded,
                     UsageError)

DRIVER = "crossprolog"

_lock = threading.RLock()
_loaded: set[str] = set()
_encodings: dict[str, tuple[str, ...]] = {}
_engine_names = itertools.count(1)
_progress_names = itertools.count(1)


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
        if DRIVER not in _loaded:
            _start()
            _loaded.add(DRIVER)
        if module not in _loaded:
            _consult(module)
            _loaded.add(module)


def _consult(module: str) -> None:
    # Import nothing: every family exports the same names (model/4, ...) and is
    # always called by module.
    _janus().query_once("use_module(File, [])", {"File": prolog_file(f"{module}.pl")})


def _start() -> None:
    """Start Prolog, the driver and Prolog's helper threads (its garbage collector,
    its alarm scheduler) with Ctrl-C blocked in them, as they inherit it from here.

    During a search Prolog handles Ctrl-C itself, in whichever thread the
    kernel hands the signal to: handed to a helper, it would be lost.
    """
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        _consult(DRIVER)
        _janus().query_once("alarm(3600, true, _Id, [remove(true)]), remove_alarm(_Id)")
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


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
        raise Interrupted()
    if kind == "resource":
        raise ResourceLimit(f"Prolog ran out of resources: {message}")
    if kind == "usage":
        raise UsageError(message)
    raise EncodingError(f"the encoding raised an error: {message}")


def prolog_version() -> str:
    """The version of SWI-Prolog, as 9.2.9."""
    number = call("current_prolog_flag(version, V)", {})["V"]
    return f"{number // 10000}.{number // 100 % 100}.{number % 100}"


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


def seconds(timeout: float | None) -> float:
    """`timeout` as the driver takes it, 0 for none.  InvalidValue unless it is None
    or a positive, finite number of seconds."""
    if timeout is None:
        return 0
    if (isinstance(timeout, numbers.Real) and not isinstance(timeout, bool)
            and math.isfinite(timeout) and timeout > 0):
        return float(timeout)
    raise InvalidValue(f"timeout must be a positive, finite number of seconds or None, not {timeout!r}")


def count(limit: int) -> int:
    """`limit` as the driver takes it (0 for none); InvalidValue unless a count."""
    if isinstance(limit, numbers.Integral) and not isinstance(limit, bool) and limit >= 0:
        return int(limit)
    raise InvalidValue(f"limit must be a whole number of solutions (0 for no limit), not {limit!r}")


def find(family: str, puzzle: dict, *, limit: int = 0, timeout: float | None = None,
         encoding: str | None = None, keep: bool = True, progress: str = "") -> dict:
    """Search `puzzle` for up to `limit` solutions (0: all) within `timeout` seconds.

    The result holds `status` (complete, limit or timeout), `solutions` (or
    only `count`, with keep=False), `inferences`, `cpu` and `encoding`.
    With keep=False, `progress` (a name from `progress_name`) lets another
    thread read the count so far with `found_so_far`.  Ctrl-C raises
    Interrupted holding the result so far, its status "interrupted".
    """
    inputs = _encoding_term(family, encoding)
    goal = (f"crossprolog:first_solutions({ENCODING}, P, L, S, R)" if keep
            else f"crossprolog:count_solutions({ENCODING}, P, L, S, K, R)")
    result = call(goal, {**inputs, "P": puzzle, "L": count(limit), "S": seconds(timeout),
                         "K": progress}, module=family)["R"]
    return _checked(result, inputs["N"])


def progress_name() -> str:
    """A new name under which a search (`find`) reports how many solutions it found so far."""
    return f"crossprolog_found_{next(_progress_names)}"


def found_so_far(progress: str) -> int:
    """How many solutions the search reporting under `progress` has found by now (from any thread)."""
    return call("crossprolog:found_so_far(K, N)", {"K": progress})["N"]


def find_many(family: str, puzzles: list[dict], *, limit: int = 0, timeout: float | None = None,
              encoding: str | None = None, keep: bool = True) -> list[dict]:
    """`find` for every puzzle of a batch, in one crossing into Prolog.

    `timeout` bounds each puzzle's search, not the batch's.
    """
    inputs = _encoding_term(family, encoding)
    results = call(f"crossprolog:batch_solutions({ENCODING}, Ps, L, S, K, Rs)",
                   {**inputs, "Ps": puzzles, "L": count(limit), "S": seconds(timeout), "K": keep},
                   module=family)["Rs"]
    return [_checked(result, inputs["N"]) for result in results]


def _checked(result: dict, encoding: str) -> dict:
    result = {**result, "encoding": encoding}
    if result["status"] == "error" and str(result["error"]["kind"]) == "interrupt":
        raise Interrupted({**result, "status": "interrupted"})
    if result["status"] == "error":
        raise_error(result["error"])
    return result


def stream(family: str, puzzle: dict, *, timeout: float | None = None,
           encoding: str | None = None) -> Iterator[Any]:
    """Yield the solutions of `puzzle` one at a time, searching only as far as asked.

    The search may take `timeout` seconds in all (time the caller spends
    between solutions does not count); then TimeLimitExceeded is raised.
    Closing the generator stops the search and frees its Prolog engine.
    """
    budget = seconds(timeout)  # 0: no limit
    inputs = _encoding_term(family, encoding)
    name = f"crossprolog_engine_{next(_engine_names)}"
    call(f"crossprolog:open_solutions(Name, {ENCODING}, P)", {**inputs, "Name": name, "P": puzzle},
         module=family)
    spent = 0.0
    try:
        while True:
            if budget and spent >= budget:
                raise TimeLimitExceeded(budget)
            started = time.perf_counter()
            result = call("crossprolog:next_solution(N, S, R)",
                          {"N": name, "S": budget and budget - spent})["R"]
            spent += time.perf_counter() - started
            if result["status"] == "timeout":
                raise TimeLimitExceeded(budget)
            if result["status"] == "error":
                raise_error(result["error"])
            if result["status"] == "complete":
                return
            yield result["solution"]
    finally:
        if not sys.is_finalizing():  # else Prolog goes with the process, and janus is half gone
            call("crossprolog:close_solutions(N)", {"N": name})
