"""The searches Python asks of Prolog, through the bridge (`engine`): solutions found,
counted or streamed one at a time, searches restricted to some cells' values, what
propagation forces, and sessions that post a puzzle once for many questions.

Each takes a family's Prolog module, a puzzle as the data its model reads, and an
encoding (the family's default when None: a bundled one, a user's, or one of another
paradigm, which `crossprolog.paradigms` runs); what stopped a search (Ctrl-C, a
resource, an encoding's own error) is raised by its kind, with the result so far.
"""

from __future__ import annotations

import itertools
import sys
import time
from typing import Any, Iterator, Sequence

from . import engine, paradigms
from .errors import Interrupted, ResourceLimit, TimeLimitExceeded

_engine_names = itertools.count(1)
_progress_names = itertools.count(1)


SEARCHES = {"keep": f"crossprolog:first_solutions({engine.ENCODING}, P, L, S, R)",
            "count": f"crossprolog:count_solutions({engine.ENCODING}, P, L, S, K, R)",
            "effort": f"crossprolog:effort_solutions({engine.ENCODING}, P, L, S, R)",
            "effort digest": f"crossprolog:effort_digest({engine.ENCODING}, P, L, S, R)"}


def find(family: str, puzzle: dict, *, shape: Sequence[int] = (), limit: int = 0,
         timeout: float | None = None, encoding: str | None = None, keep: bool = True,
         effort: bool = False, progress: str = "", digest: bool = False) -> dict:
    """Search `puzzle` for up to `limit` solutions (0: all) within `timeout` seconds.

    `shape` is the lengths of the nested lists of an answer (a user's
    encoding is held to it).  The result holds `status` (complete, limit or
    timeout), `solutions` (or only `count`, with keep=False), `inferences`,
    `cpu`, `seconds` and `encoding`; with effort=True (solutions kept) also
    the labeling's `choices`, `backtracks` and `propagated` bindings, counted
    at some cost in time.  With keep=False, `progress` (a name from
    `progress_name`) lets another thread read the count so far with
    `found_so_far`.  With effort=True and digest=True, the solutions are not
    kept but counted and summed up in a `digest` (see compare.solution_digest).
    Ctrl-C raises Interrupted holding the result so far, its status "interrupted".
    """
    name = engine.checked_encoding(family, encoding)
    if paradigms.owns(name):  # effort: the solver's own counters come with every search
        return paradigms.find(family, puzzle, shape=shape, limit=engine.count(limit),
                              timeout=engine.seconds(timeout) or None, encoding=name, keep=keep or effort,
                              progress=progress)
    goal = SEARCHES[("effort digest" if digest else "effort") if effort
                    else "keep" if keep else "count"]
    inputs = {**engine.encoding_inputs(family, name, shape), "P": puzzle, "L": engine.count(limit),
              "S": engine.seconds(timeout), "K": progress}
    result = engine.call(goal, inputs, module=family, encoding=name)["R"]
    return _checked(result, name)


def progress_name() -> str:
    """A new name under which a search (`find`) reports how many solutions it found so far."""
    return f"crossprolog_found_{next(_progress_names)}"


def found_so_far(progress: str) -> int:
    """How many solutions the search reporting under `progress` has found by now (from any thread)."""
    found = paradigms.found_so_far(progress)
    if found is not None:
        return found
    return engine.call("crossprolog:found_so_far(K, N)", {"K": progress})["N"]


def find_many(family: str, puzzles: list[dict], shapes: Sequence[Sequence[int]], *, limit: int = 0,
              timeout: float | None = None, encoding: str | None = None,
              keep: bool = True) -> list[dict]:
    """`find` for every puzzle of a batch (of the answer shapes `shapes`), in one
    crossing into Prolog (a user's encoding: one per puzzle, each held to its shape).

    `timeout` bounds each puzzle's search, not the batch's.
    """
    name = engine.checked_encoding(family, encoding)
    if engine.user_encoding(name) or paradigms.owns(name):
        return [find(family, puzzle, shape=shape, limit=limit, timeout=timeout, encoding=name,
                     keep=keep) for puzzle, shape in zip(puzzles, shapes)]
    results = engine.call(f"crossprolog:batch_solutions({engine.ENCODING}, Ps, L, S, K, Rs)",
                   {**engine.encoding_inputs(family, name, ()), "Ps": puzzles, "L": engine.count(limit),
                    "S": engine.seconds(timeout), "K": keep}, module=family)["Rs"]
    return [_checked(result, name) for result in results]


def accepts(family: str, puzzle: dict, answer: Any, *, shape: Sequence[int] = (),
            encoding: str | None = None, timeout: float | None = None) -> bool | None:
    """Whether `answer` (as Prolog gives it) is a solution of `puzzle` under `encoding`:
    its model holds, and its labeling, with the answer in place; None when that takes
    over `timeout` seconds."""
    name = engine.checked_encoding(family, engine.prolog_side(family, encoding))  # the puzzle's rules decide
    inputs = {**engine.encoding_inputs(family, name, shape), "P": puzzle, "A": answer,
              "S": engine.seconds(timeout)}
    told = engine.call(f"catch(( crossprolog_runs:within(S, crossprolog:accepts({engine.ENCODING}, P, A)) "
                       "-> T = true ; T = false ), time_limit_exceeded, T = unknown)", inputs,
                       module=family, encoding=name)["T"]
    return None if told == "unknown" else told == "true"


def _checked(result: dict, encoding: str) -> dict:
    """A search's result; what stopped it raised, with the result so far: Ctrl-C as
    Interrupted, running out of stack or memory as ResourceLimit."""
    result = {**result, "encoding": encoding}
    if result["status"] == "error" and str(result["error"]["kind"]) == "interrupt":
        raise Interrupted({**result, "status": "interrupted"})
    if result["status"] == "error" and str(result["error"]["kind"]) == "resource":
        raise ResourceLimit(engine.resource_message(result["error"]), {**result, "status": "resource"})
    if result["status"] == "error":
        engine.raise_error(result["error"], encoding)
    return result


LAST_ASK = 0.001  # seconds a search whose time is up gets to say whether it has ended


def stream(family: str, puzzle: dict, *, shape: Sequence[int] = (), timeout: float | None = None,
           encoding: str | None = None) -> Iterator[Any]:
    """Yield the solutions of `puzzle` one at a time, searching only as far as asked.

    The search may take `timeout` seconds in all (time the caller spends
    between solutions does not count); then TimeLimitExceeded is raised.
    Closing the generator stops the search and frees its Prolog engine.
    """
    budget = engine.seconds(timeout)  # 0: no limit
    encoding = engine.checked_encoding(family, encoding)
    if paradigms.owns(encoding):
        yield from paradigms.stream(family, puzzle, shape=shape, encoding=encoding,
                                    timeout=budget or None)
        return
    name = f"crossprolog_engine_{next(_engine_names)}"
    engine.call(f"crossprolog:open_solutions(Name, {engine.ENCODING}, P)",
         {**engine.encoding_inputs(family, encoding, shape), "Name": name, "P": puzzle}, module=family,
         encoding=encoding)
    spent = 0.0
    try:
        while True:
            # Even with no time left, the search is asked: whether it has ended says
            # complete or timeout, not the clock (it may have ended with its last answer).
            left = budget and max(budget - spent, LAST_ASK)
            started = time.perf_counter()
            result = engine.call("crossprolog:next_solution(N, S, R)", {"N": name, "S": left},
                          encoding=encoding)["R"]
            spent += time.perf_counter() - started
            if result["status"] == "timeout":
                raise TimeLimitExceeded(budget)
            if result["status"] == "error":
                engine.raise_error(result["error"], encoding)
            if result["status"] == "complete":
                return
            yield result["solution"]
    finally:
        if not sys.is_finalizing():  # else Prolog goes with the process, and janus is half gone
            engine.call("crossprolog:close_solutions(N)", {"N": name})


def restricted(family: str, puzzle: dict, cells: list, *, shape: Sequence[int] = (),
               limit: int = 0, timeout: float | None = None, encoding: str | None = None) -> dict:
    """`find`, the solutions also meeting `cells`: [Path, "=" or "\\=", Value] each,
    Path leading to a cell's variable in the solution term."""
    name = engine.checked_encoding(family, engine.prolog_side(family, encoding))
    result = engine.call(f"crossprolog:restricted_solutions({engine.ENCODING}, P, C, L, S, R)",
                  {**engine.encoding_inputs(family, name, shape), "P": puzzle, "C": cells,
                   "L": engine.count(limit), "S": engine.seconds(timeout)}, module=family, encoding=name)["R"]
    return _checked(result, name)


def consequences(family: str, puzzle: dict, cells: list, *, shape: Sequence[int] = (),
                 probe: bool = True, timeout: float | None = None,
                 encoding: str | None = None) -> dict:
    """What the constraints of `puzzle` (and `cells`, as in `restricted`) force without
    search: `status` consistent, inconsistent or timeout; when consistent,
    `propagated` and (with `probe`) `probed`, the solution term with each
    variable's values left."""
    name = engine.checked_encoding(family, engine.prolog_side(family, encoding, reasoning=True))
    result = engine.call(f"crossprolog:consequences({engine.ENCODING}, P, C, B, S, R)",
                  {**engine.encoding_inputs(family, name, shape), "P": puzzle, "C": cells, "B": probe,
                   "S": engine.seconds(timeout)}, module=family, encoding=name)["R"]
    return _checked(result, name)


class Session:
    """One puzzle's constraints posted once, in a Prolog engine of their own, for many
    `restricted` questions: posting costs more than answering; restrictions that
    hold for many questions can be pushed (and popped) once.  Use it as a context
    manager, or close it."""

    def __init__(self, family: str, puzzle: dict, encoding: str | None = None):
        self.name = f"crossprolog_session_{next(_engine_names)}"
        self.encoding = engine.checked_encoding(family, engine.prolog_side(family, encoding))
        engine.call(f"crossprolog:open_session(Name, {engine.ENCODING}, P)",
             {**engine.encoding_inputs(family, self.encoding, ()), "Name": self.name, "P": puzzle},
             module=family, encoding=self.encoding)

    def restricted(self, cells: list, *, limit: int = 0, timeout: float | None = None,
                   inferences: int = 0) -> dict:
        """As `restricted`, of the session's puzzle; past `inferences` too (0: no bound),
        status timeout."""
        result = engine.call("crossprolog:session_solutions(N, C, L, S, I, R)",
                      {"N": self.name, "C": cells, "L": engine.count(limit), "S": engine.seconds(timeout),
                       "I": engine.count(inferences)}, encoding=self.encoding)["R"]
        return _checked(result, self.encoding)

    def push(self, cells: list) -> None:
        """Let `cells` (as `restricted` takes them) hold in every question until `pop`."""
        engine.call("crossprolog:session_push(N, C)", {"N": self.name, "C": cells}, encoding=self.encoding)

    def pop(self) -> None:
        """Undo the last `push`."""
        engine.call("crossprolog:session_pop(N)", {"N": self.name}, encoding=self.encoding)

    def close(self) -> None:
        engine.call("crossprolog:close_solutions(N)", {"N": self.name})

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_) -> None:
        self.close()
