"""The one bridge between Python and SWI-Prolog.

SWI-Prolog is embedded through janus and started on first use; each Prolog
module is consulted the first time something needs it, and each family's
encodings are asked for once.  Every goal sent from here is a constant of
this module; puzzle data travels only as janus input bindings (lists, ints,
strings, dicts), never as Prolog text.

A search's outcome comes back as a dict (see prolog/crossprolog.pl).  An
exception in Prolog comes back in it as a typed error, _{kind, message},
and is raised here by its kind, never recognised by its text.

Besides each family's own encodings, a user's encoding may be loaded from a
Prolog file (`load_encoding`): a module exporting model/3, named by its
module, for the family it declares with family/1 or, without, for any.

Encodings in other paradigms (ASP, MiniZinc: crossprolog.paradigms) are
dispatched from here to their runners, which answer in the same shape;
questions only Prolog answers (propagation, restricted searches) go to the
family's own encodings (`prolog_side`).
"""

from __future__ import annotations

import itertools
import numbers
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from . import paradigms
from . import prolog as prolog_package
from .families import FAMILIES, named
from .errors import (CrossprologError, Interrupted, InvalidValue, NoDomains, ResourceLimit,
                     TimeLimitExceeded, UsageError)

DRIVER = "crossprolog"

_lock = threading.RLock()
_loaded: set[str] = set()
_alarms = False  # whether Prolog's alarm scheduler runs
_encodings: dict[str, tuple[str, ...]] = {}
_engine_names = itertools.count(1)
_progress_names = itertools.count(1)


class EncodingError(CrossprologError):
    """An encoding raised an error of its own: a bug in it, reported, never a traceback."""

    exit_code = 2


class EncodingFileError(UsageError):
    """A user's encoding file that cannot be used, said in one line naming the file."""

    def __init__(self, path: str, message: str, line: int = 0):
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


class EncodingFileTimeLimit(EncodingFileError):
    """Loading a user's encoding file ran out of the time it was given (a directive that
    does not end, say)."""

    exit_code = 3


@dataclass(frozen=True)
class UserEncoding:
    """An encoding loaded from a user's file: its module's name, the file as the user
    named it, and the Prolog module of the family it is for (None: any family)."""

    name: str
    path: str
    family: str | None

    def label(self) -> str:
        """How errors name it: the file and the encoding."""
        return f"{self.path}: encoding {self.name}"


_user: dict[str, UserEncoding] = {}  # by name
_user_files: dict[str, str] = {}  # the real path of each file loaded: its encoding's name


def _janus():
    import janus_swi

    return janus_swi


def _query_once(goal: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """janus.query_once(goal, inputs), bindings and `truth`, without the truth-value
    mode janus adds to the inputs: an Enum, which janus converts by running Python code
    (its `name`).  A Ctrl-C whose KeyboardInterrupt is raised there makes janus go on
    with no name and crash the process (SIGSEGV).  Prolog's default mode is the same."""
    return _janus()._swipl.call(goal, inputs, False)


def hold_engine() -> None:
    """Give this thread a Prolog engine of its own for the rest of its life (once; the
    main thread has Prolog's first).  Without one, janus makes an engine for each call
    from another thread and destroys it after: each search starts from cold stacks
    (about 4 ms of CPU more a 9x9 KenKen check on a Dask worker, a fifth of it) and
    what a call leaves in Prolog's global variables is gone by the next."""
    janus = _janus()
    if janus.engine() == -1:
        janus.attach_engine()


# The directory of the bundled Prolog files, the package crossprolog.prolog: its path
# rather than importlib.resources, whose readers cost every start 2 ms.
PROLOG = Path(next(iter(prolog_package.__path__)))


def prolog_file(name: str) -> str:
    """Path of a bundled Prolog module, such as `crossproduct.pl` (or `crossproduct`: the
    module, from its QLF when one is up to date)."""
    return str(PROLOG / name)


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
    # always called by module.  Named without its extension, a module loads from its
    # QLF when scripts/precompile made one and it is up to date: a quarter of the time.
    _query_once("use_module(File, [])", {"File": prolog_file(module)})


def _start() -> None:
    """Start Prolog and the driver with Ctrl-C blocked: Prolog's helper threads (its
    garbage collector, started with it) inherit it from here.

    During a search Prolog handles Ctrl-C itself, in whichever thread the
    kernel hands the signal to: handed to a helper, it would be lost.
    """
    with ctrl_c_deferred():
        _consult(DRIVER)


def _start_alarms() -> None:
    """Start Prolog's alarm scheduler, another helper thread, with Ctrl-C blocked (see
    _start), once: before the first search with a time limit, which would start it."""
    global _alarms
    _load(DRIVER)
    with _lock:
        if not _alarms:
            with ctrl_c_deferred():
                _query_once("alarm(3600, true, _Id, [remove(true)]), remove_alarm(_Id)", {})
            _alarms = True


CTRL_C = {signal.SIGINT}


@contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that comes in this block (of this thread) until its end; threads
    started in it block Ctrl-C for good."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, CTRL_C)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """Ignore Ctrl-C in this block (in the main thread, which alone hears it; elsewhere
    this does nothing): for an interrupted command saving and reporting what finished,
    which a second Ctrl-C would cut short, and for starting worker processes, which
    inherit it and leave Ctrl-C to their parent."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def call(goal: str, inputs: dict[str, Any], *, module: str = DRIVER,
         encoding: str | None = None) -> dict[str, Any]:
    """Run a constant `goal` once with `inputs` bound, `module` loaded first; its bindings.

    A Prolog exception is raised by its kind (see `raise_error`; the file of a
    user's `encoding` named); a failing goal is a bug here.
    """
    _load(module)
    try:
        answer = _query_once(goal, inputs)
    except _janus().PrologError as error:
        _raise_prolog_error(error, encoding)
    finally:
        if threading.current_thread() is threading.main_thread():
            _give_back_ctrl_c()
    if not answer["truth"]:
        raise RuntimeError(f"Prolog goal failed: {goal}")
    return answer


def _give_back_ctrl_c() -> None:
    """Give Ctrl-C back to Python's handler, which a search in the main thread gave
    Prolog's (see within/2 in the driver), with Ctrl-C held meanwhile: one Prolog took
    but has not acted on is raised here, as Interrupted, not lost."""
    # Held as ctrl_c_deferred does, without its context manager: this follows every call.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, CTRL_C)
    try:
        _query_once("crossprolog:give_back_ctrl_c", {})
    except _janus().PrologError as error:
        _raise_prolog_error(error)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _raise_prolog_error(error: Exception, encoding: str | None = None) -> None:
    if error.term is None:
        raise error
    raise_error(_query_once("crossprolog:error_term(E, T)", {"E": error.term})["T"], encoding)


def raise_error(error: dict, encoding: str | None = None) -> None:
    """Raise what a typed Prolog error `_{kind, message}` stands for; the file of a
    user's `encoding` is named in the message."""
    kind, message = str(error["kind"]), str(error["message"])
    user = _user.get(encoding or "")
    if kind == "interrupt":
        raise Interrupted()
    if kind == "resource":
        raise ResourceLimit(resource_message(error))
    if kind == "usage":
        raise UsageError(f"{user.path}: {message}" if user else message)
    if kind == "no_domains":
        raise NoDomains(message)
    if kind == "abort":
        raise EncodingError(f"{user.label() if user else 'the encoding'}: {message}")
    raise EncodingError(f"{user.label() if user else 'the encoding'} raised an error: {message}")


def resource_message(error: dict) -> str:
    return f"Prolog ran out of resources: {error['message']}"


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


def forget_worked_out() -> None:
    """Forget what the family modules keep between searches (a line's states, a
    cage's fillings, a shape's units), as a fresh process has none of it: the
    bench times each repeat of a workload from there."""
    call("crossprolog:forget_worked_out", {})


def user_encodings(family: str | None = None) -> list[str]:
    """The names of the user's encodings loaded (for the Prolog module `family`, when
    given), in load order: Prolog files first, then ASP and MiniZinc files."""
    return ([user.name for user in _user.values() if family is None or user.family in (None, family)]
            + paradigms.user_encodings(family))


def paradigm_encodings(family: str) -> list[str]:
    """The family's bundled encodings in other paradigms (asp, minizinc)."""
    return paradigms.encodings(family)


def prolog_side(family: str, encoding: str | None, reasoning: bool = False) -> str | None:
    """`encoding`, or for one of another paradigm the family's Prolog encoding that
    answers what only Prolog does: its reasoning encoding, or its default."""
    if not paradigms.owns(encoding):
        return encoding
    record = next(record for record in FAMILIES if record.prolog == family)
    return record.reasoning if reasoning else None


def checked_encoding(family: str, encoding: str | None) -> str:
    """`encoding`, or the family's default when None; UsageError if it is neither the
    family's nor a user's encoding for it."""
    if paradigms.owns(encoding):
        return paradigms.checked(family, encoding)
    names = encodings(family)
    if encoding is None:
        return names[0]
    user = _user.get(encoding)
    if encoding in names or (user and user.family in (None, family)):
        return encoding
    if user:
        raise UsageError(f"encoding {encoding!r} ({user.path}) is for {user.family} puzzles, not {family}")
    choices = names + paradigm_encodings(family) + user_encodings(family)
    raise UsageError(f"unknown encoding {encoding!r} for {family}; choose from {', '.join(choices)}")


def _encoding_inputs(family: str, name: str, shape: Sequence[int]) -> dict[str, Any]:
    """The inputs of ENCODING for the encoding `name` of `family`: a family's own by
    name, a user's with the shape its answers must have."""
    if name in _user:
        return {"M": name, "N": list(shape)}
    return {"M": family, "N": name}


ENCODING = "encoding(M, N)"


SEARCHES = {"keep": f"crossprolog:first_solutions({ENCODING}, P, L, S, R)",
            "count": f"crossprolog:count_solutions({ENCODING}, P, L, S, K, R)",
            "effort": f"crossprolog:effort_solutions({ENCODING}, P, L, S, R)",
            "effort digest": f"crossprolog:effort_digest({ENCODING}, P, L, S, R)"}


LONGEST_TIMEOUT = 1e9  # seconds (about 31 years): a timer of the system's counts no further than 9e9


def seconds(timeout: float | None) -> float:
    """`timeout` as the driver takes it, 0 for none.  InvalidValue unless it is None
    or a positive number of seconds up to LONGEST_TIMEOUT.  A limit starts the alarm
    scheduler first (see _start_alarms)."""
    if timeout is None:
        return 0
    if (isinstance(timeout, numbers.Real) and not isinstance(timeout, bool)
            and 0 < timeout <= LONGEST_TIMEOUT):
        _start_alarms()
        return float(timeout)
    raise InvalidValue(f"timeout must be a positive number of seconds up to {LONGEST_TIMEOUT:.0e} "
                       f"or None, not {timeout!r}")


def count(limit: int) -> int:
    """`limit` as the driver takes it (0 for none); InvalidValue unless a count."""
    if isinstance(limit, numbers.Integral) and not isinstance(limit, bool) and limit >= 0:
        return int(limit)
    raise InvalidValue(f"limit must be a whole number of solutions (0 for no limit), not {limit!r}")


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
    name = checked_encoding(family, encoding)
    if paradigms.owns(name):  # effort: the solver's own counters come with every search
        return paradigms.find(family, puzzle, shape=shape, limit=count(limit),
                              timeout=seconds(timeout) or None, encoding=name, keep=keep or effort,
                              progress=progress)
    goal = SEARCHES[("effort digest" if digest else "effort") if effort
                    else "keep" if keep else "count"]
    result = call(goal, {**_encoding_inputs(family, name, shape), "P": puzzle, "L": count(limit),
                         "S": seconds(timeout), "K": progress}, module=family, encoding=name)["R"]
    return _checked(result, name)


def progress_name() -> str:
    """A new name under which a search (`find`) reports how many solutions it found so far."""
    return f"crossprolog_found_{next(_progress_names)}"


def found_so_far(progress: str) -> int:
    """How many solutions the search reporting under `progress` has found by now (from any thread)."""
    found = paradigms.found_so_far(progress)
    if found is not None:
        return found
    return call("crossprolog:found_so_far(K, N)", {"K": progress})["N"]


def find_many(family: str, puzzles: list[dict], shapes: Sequence[Sequence[int]], *, limit: int = 0,
              timeout: float | None = None, encoding: str | None = None,
              keep: bool = True) -> list[dict]:
    """`find` for every puzzle of a batch (of the answer shapes `shapes`), in one
    crossing into Prolog (a user's encoding: one per puzzle, each held to its shape).

    `timeout` bounds each puzzle's search, not the batch's.
    """
    name = checked_encoding(family, encoding)
    if name in _user or paradigms.owns(name):
        return [find(family, puzzle, shape=shape, limit=limit, timeout=timeout, encoding=name,
                     keep=keep) for puzzle, shape in zip(puzzles, shapes)]
    results = call(f"crossprolog:batch_solutions({ENCODING}, Ps, L, S, K, Rs)",
                   {**_encoding_inputs(family, name, ()), "Ps": puzzles, "L": count(limit),
                    "S": seconds(timeout), "K": keep}, module=family)["Rs"]
    return [_checked(result, name) for result in results]


def accepts(family: str, puzzle: dict, answer: Any, *, shape: Sequence[int] = (),
            encoding: str | None = None) -> bool:
    """Whether `answer` (as Prolog gives it) is a solution of `puzzle` under `encoding`:
    its model holds, and its labeling, with the answer in place."""
    name = checked_encoding(family, prolog_side(family, encoding))  # the puzzle's rules decide
    inputs = {**_encoding_inputs(family, name, shape), "P": puzzle, "A": answer}
    return call(f"( crossprolog:accepts({ENCODING}, P, A) -> T = true ; T = false )", inputs,
                module=family, encoding=name)["T"] == "true"


def _checked(result: dict, encoding: str) -> dict:
    """A search's result; what stopped it raised, with the result so far: Ctrl-C as
    Interrupted, running out of stack or memory as ResourceLimit."""
    result = {**result, "encoding": encoding}
    if result["status"] == "error" and str(result["error"]["kind"]) == "interrupt":
        raise Interrupted({**result, "status": "interrupted"})
    if result["status"] == "error" and str(result["error"]["kind"]) == "resource":
        raise ResourceLimit(resource_message(result["error"]), {**result, "status": "resource"})
    if result["status"] == "error":
        raise_error(result["error"], encoding)
    return result


LAST_ASK = 0.001  # seconds a search whose time is up gets to say whether it has ended


def stream(family: str, puzzle: dict, *, shape: Sequence[int] = (), timeout: float | None = None,
           encoding: str | None = None) -> Iterator[Any]:
    """Yield the solutions of `puzzle` one at a time, searching only as far as asked.

    The search may take `timeout` seconds in all (time the caller spends
    between solutions does not count); then TimeLimitExceeded is raised.
    Closing the generator stops the search and frees its Prolog engine.
    """
    budget = seconds(timeout)  # 0: no limit
    encoding = checked_encoding(family, encoding)
    if paradigms.owns(encoding):
        yield from paradigms.stream(family, puzzle, shape=shape, encoding=encoding,
                                    timeout=budget or None)
        return
    name = f"crossprolog_engine_{next(_engine_names)}"
    call(f"crossprolog:open_solutions(Name, {ENCODING}, P)",
         {**_encoding_inputs(family, encoding, shape), "Name": name, "P": puzzle}, module=family,
         encoding=encoding)
    spent = 0.0
    try:
        while True:
            # Even with no time left, the search is asked: whether it has ended says
            # complete or timeout, not the clock (it may have ended with its last answer).
            left = budget and max(budget - spent, LAST_ASK)
            started = time.perf_counter()
            result = call("crossprolog:next_solution(N, S, R)", {"N": name, "S": left},
                          encoding=encoding)["R"]
            spent += time.perf_counter() - started
            if result["status"] == "timeout":
                raise TimeLimitExceeded(budget)
            if result["status"] == "error":
                raise_error(result["error"], encoding)
            if result["status"] == "complete":
                return
            yield result["solution"]
    finally:
        if not sys.is_finalizing():  # else Prolog goes with the process, and janus is half gone
            call("crossprolog:close_solutions(N)", {"N": name})


def restricted(family: str, puzzle: dict, cells: list, *, shape: Sequence[int] = (),
               limit: int = 0, timeout: float | None = None, encoding: str | None = None) -> dict:
    """`find`, the solutions also meeting `cells`: [Path, "=" or "\\=", Value] each,
    Path leading to a cell's variable in the solution term."""
    name = checked_encoding(family, prolog_side(family, encoding))
    result = call(f"crossprolog:restricted_solutions({ENCODING}, P, C, L, S, R)",
                  {**_encoding_inputs(family, name, shape), "P": puzzle, "C": cells,
                   "L": count(limit), "S": seconds(timeout)}, module=family, encoding=name)["R"]
    return _checked(result, name)


def consequences(family: str, puzzle: dict, cells: list, *, shape: Sequence[int] = (),
                 probe: bool = True, timeout: float | None = None,
                 encoding: str | None = None) -> dict:
    """What the constraints of `puzzle` (and `cells`, as in `restricted`) force without
    search: `status` consistent, inconsistent or timeout; when consistent,
    `propagated` and (with `probe`) `probed`, the solution term with each
    variable's values left."""
    name = checked_encoding(family, prolog_side(family, encoding, reasoning=True))
    result = call(f"crossprolog:consequences({ENCODING}, P, C, B, S, R)",
                  {**_encoding_inputs(family, name, shape), "P": puzzle, "C": cells, "B": probe,
                   "S": seconds(timeout)}, module=family, encoding=name)["R"]
    return _checked(result, name)


class Session:
    """One puzzle's constraints posted once, in a Prolog engine of their own, for many
    `restricted` questions: posting costs more than answering; restrictions that
    hold for many questions can be pushed (and popped) once.  Use it as a context
    manager, or close it."""

    def __init__(self, family: str, puzzle: dict, encoding: str | None = None):
        self.name = f"crossprolog_session_{next(_engine_names)}"
        self.encoding = checked_encoding(family, prolog_side(family, encoding))
        call(f"crossprolog:open_session(Name, {ENCODING}, P)",
             {**_encoding_inputs(family, self.encoding, ()), "Name": self.name, "P": puzzle},
             module=family, encoding=self.encoding)

    def restricted(self, cells: list, *, limit: int = 0, timeout: float | None = None,
                   inferences: int = 0) -> dict:
        """As `restricted`, of the session's puzzle; past `inferences` too (0: no bound),
        status timeout."""
        result = call("crossprolog:session_solutions(N, C, L, S, I, R)",
                      {"N": self.name, "C": cells, "L": count(limit), "S": seconds(timeout),
                       "I": count(inferences)}, encoding=self.encoding)["R"]
        return _checked(result, self.encoding)

    def push(self, cells: list) -> None:
        """Let `cells` (as `restricted` takes them) hold in every question until `pop`."""
        call("crossprolog:session_push(N, C)", {"N": self.name, "C": cells}, encoding=self.encoding)

    def pop(self) -> None:
        """Undo the last `push`."""
        call("crossprolog:session_pop(N)", {"N": self.name}, encoding=self.encoding)

    def close(self) -> None:
        call("crossprolog:close_solutions(N)", {"N": self.name})

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_) -> None:
        self.close()


def load_encoding(path: str, timeout: float | None = None) -> str:
    """Load the user's encoding in the Prolog file at `path`; its name (its module's).

    The file is a module exporting model(+Puzzle, -Solution, -Labeling), and
    maybe family(-Name) to say which family it is for.  Loading a file
    again gives its name and loads nothing.  Raises EncodingFileError (exit
    2), naming the file and the line, for a file that does not load cleanly
    (an error or a warning while loading, a call of halt or abort), has no
    model/3, or whose module name is crossprolog's own or already taken;
    EncodingFileTimeLimit (exit 3) when loading takes over `timeout`
    seconds; Interrupted on Ctrl-C.  After any of them nothing of it stays
    loaded.  What the file prints while loading goes to standard error.
    A `.lp` or `.mzn` file is an encoding in another paradigm (see
    crossprolog.paradigms.load_encoding).
    """
    if paradigms.paradigm_of(path):
        taken = bundled_modules() + list(_user) + [name for record in FAMILIES
                                                   for name in encodings(record.prolog)]
        return paradigms.load_encoding(path, taken, {record.name: record.prolog for record in FAMILIES})
    real = os.path.realpath(path)
    if real in _user_files:
        return _user_files[real]
    if not os.path.isfile(real) or not os.access(real, os.R_OK):
        raise EncodingFileError(path, "cannot read the file" if os.path.exists(real) else "no such file")
    reserved = bundled_modules() + [name for record in FAMILIES for name in encodings(record.prolog)]
    names = {"reserved": reserved, "families": [record.name for record in FAMILIES]}
    limit = seconds(timeout)
    _load(USER_CODE)
    try:
        result = call("crossprolog:load_encoding(F, N, S, R)", {"F": real, "N": names, "S": limit})["R"]
    except EncodingError:  # abort/0: the one error Prolog lets nothing catch
        raise EncodingFileError(path, "it called abort/0 while loading: an encoding may not "
                                      "abort") from None
    if "timeout" in result:
        raise EncodingFileTimeLimit(path, "loading it did not end within the time limit "
                                          "(a directive that does not end?)")
    if "error" in result:
        raise EncodingFileError(path, str(result["error"]), result["line"])
    name, family = str(result["module"]), str(result["family"])
    with _lock:
        _user[name] = UserEncoding(name, path, named(family).prolog if family else None)
        _user_files[real] = name
    return name


USER_CODE = "usercode"  # the Prolog module that runs a user's encoding (prolog/usercode.pl)


def poll_signals() -> None:
    """Nothing: called from Prolog while a user's file loads, and as a search takes
    Ctrl-C from Python, so that Python runs the handler of a Ctrl-C that came meanwhile
    (KeyboardInterrupt, raised back in Prolog)."""


def user_encoding(name: str) -> UserEncoding | paradigms.Encoding | None:
    """The user's encoding called `name`, if one is loaded (an ASP or MiniZinc file's
    too: it has a name, a path and a family alike)."""
    return _user.get(name) or paradigms.user_encoding(name)


def unload_encoding(name: str) -> None:
    """Forget the user's encoding `name`: its file is unloaded from Prolog."""
    if paradigms.user_encoding(name):
        return paradigms.unload_encoding(name)
    with _lock:
        [real] = [path for path, loaded in _user_files.items() if loaded == name]
        call("unload_file(F)", {"F": real})
        del _user[name], _user_files[real]


def bundled_modules() -> list[str]:
    """The names of the Prolog modules shipped in crossprolog.prolog."""
    return sorted(entry.name.removesuffix(".pl") for entry in PROLOG.iterdir()
                  if entry.name.endswith(".pl"))
