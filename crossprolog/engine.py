"""The one bridge between Python and SWI-Prolog.

SWI-Prolog is embedded through janus and started on first use.  Every goal
sent from here is a constant of this module; puzzle data travels only as
janus input bindings (lists, ints, strings, dicts), never as Prolog text.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Iterator

from .errors import ResourceLimit, TimeLimitExceeded, UsageError

DRIVER = "crossprolog"

_load_lock = threading.Lock()
_loaded_families: set[str] = set()
_engine_names = itertools.count(1)


def _janus():
    import janus_swi

    return janus_swi


def prolog_file(name: str) -> str:
    """Path of a bundled Prolog module, such as `crossproduct.pl`."""
    return str(resources.files("crossprolog.prolog").joinpath(name))


def load(family: str) -> None:
    """Consult the driver and the Prolog module of `family`, once per process."""
    if family in _loaded_families:
        return
    with _load_lock:
        if family in _loaded_families:
            return
        janus = _janus()
        for module in (DRIVER, family):
            # Import nothing: every family exports the same names (search/3, ...) and is
            # always called by module.
            janus.query_once("use_module(File, [])", {"File": prolog_file(f"{module}.pl")})
        _loaded_families.add(family)


def call(goal: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """Run a constant `goal` once with `inputs` bound; return its bindings.

    Prolog resource errors become ResourceLimit, Ctrl-C during the goal
    KeyboardInterrupt; a failing goal is a bug here.
    """
    janus = _janus()
    try:
        answer = janus.query_once(goal, inputs)
    except janus.PrologError as error:
        raise _translated(error) from None
    if not answer["truth"]:
        raise RuntimeError(f"Prolog goal failed: {goal}")
    return answer


def _translated(error: Exception) -> BaseException:
    text = str(error)
    if "signal(int," in text or "Caught signal 2 (int)" in text:
        return KeyboardInterrupt()
    usage = re.search(r'crossprolog_usage\((\w+),\s*"?([^")]*)', text)
    if usage:
        return UsageError(f"encoding {usage[1]}: {usage[2]}")
    if "resource_error" in text or "Not enough resources" in text or "stack" in text.lower():
        return ResourceLimit(f"Prolog ran out of resources: {text.splitlines()[0]}")
    return error


@dataclass
class Search:
    """What one search found, and what it cost."""

    family: str
    encoding: str
    status: str  # "complete", "limit" or "timeout"
    solutions: list[Any] = field(default_factory=list)
    count: int = 0
    inferences: int = 0
    cpu: float = 0.0


def encodings(family: str) -> list[str]:
    """The encodings `family` offers, its default first."""
    load(family)
    return list(call("crossprolog:family_encodings(F, E)", {"F": family})["E"])


def checked_encoding(family: str, encoding: str | None) -> str:
    """`encoding`, or the family's default when None; UsageError if the family lacks it."""
    names = encodings(family)
    if encoding is None:
        return names[0]
    if encoding not in names:
        raise UsageError(f"unknown encoding {encoding!r} for {family}; choose from {', '.join(names)}")
    return encoding


def find(family: str, puzzle: dict, *, limit: int = 0, timeout: float | None = None,
         encoding: str | None = None, keep: bool = True) -> Search:
    """Search `puzzle` for up to `limit` solutions (0: all) within `timeout` seconds.

    With keep=False only the number of solutions comes back.
    """
    encoding = checked_encoding(family, encoding)
    goal = ("crossprolog:first_solutions(F, E, P, L, S, R)" if keep
            else "crossprolog:count_solutions(F, E, P, L, S, R)")
    result = call(goal, {"F": family, "E": encoding, "P": puzzle, "L": limit, "S": timeout or 0})["R"]
    return _search(family, encoding, result)


def find_many(family: str, puzzles: list[dict], *, limit: int = 0, timeout: float | None = None,
              encoding: str | None = None, keep: bool = True) -> list[Search]:
    """`find` for every puzzle of a batch, in one crossing into Prolog.

    `timeout` bounds each puzzle's search, not the batch's.
    """
    encoding = checked_encoding(family, encoding)
    results = call("crossprolog:batch_solutions(F, E, Ps, L, S, K, Rs)",
                   {"F": family, "E": encoding, "Ps": puzzles, "L": limit, "S": timeout or 0,
                    "K": keep})["Rs"]
    return [_search(family, encoding, result) for result in results]


def _search(family: str, encoding: str, result: dict) -> Search:
    solutions = list(result.get("solutions", []))
    return Search(family=family, encoding=encoding, status=str(result["status"]),
                  solutions=solutions, count=result.get("count", len(solutions)),
                  inferences=result["inferences"], cpu=result["cpu"])


def stream(family: str, puzzle: dict, *, timeout: float | None = None,
           encoding: str | None = None) -> Iterator[Any]:
    """Yield the solutions of `puzzle` one at a time, searching only as far as asked.

    The search may take `timeout` seconds in all (time the caller spends
    between solutions does not count); then TimeLimitExceeded is raised.
    Closing the generator stops the search and frees its Prolog engine.
    """
    encoding = checked_encoding(family, encoding)
    name = f"crossprolog_engine_{next(_engine_names)}"
    call("crossprolog:open_solutions(N, F, E, P)", {"N": name, "F": family, "E": encoding, "P": puzzle})
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
            if result["status"] == "complete":
                return
            yield result["solution"]
    finally:
        call("crossprolog:close_solutions(N)", {"N": name})
