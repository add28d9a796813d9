"""The one bridge between Python and SWI-Prolog.

SWI-Prolog is embedded through janus and started on first use; each Prolog
module is consulted the first time something needs it, and each family's
encodings are asked for once.  Every goal sent to Prolog is a constant of
this module or of `searches`, the searches asked through it; puzzle data
travels only as janus input bindings (lists, ints, strings, dicts), never as
Prolog text.

A search's outcome comes back as a dict (see prolog/crossprolog.pl).  An
exception in Prolog comes back in it as a typed error, _{kind, message},
and is raised here by its kind, never recognised by its text.

Besides each family's own encodings, a user's encoding may be loaded from a
Prolog file (`load_encoding`): a module exporting model/3, named by its
module, for the family it declares with family/1 or, without, for any.
Which encoding answers (`checked_encoding`) is settled here: a family's own,
a user's, or one of another paradigm (ASP, MiniZinc: crossprolog.paradigms),
whose runners answer in the same shape; questions only Prolog answers
(propagation, restricted searches) go to the family's own (`prolog_side`).
"""

from __future__ import annotations

import numbers
import os
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from . import paradigms
from . import prolog as prolog_package
from .encoding_files import encoding_bytes, text_of
from .families import FAMILIES, named
from .errors import (CrossprologError, Interrupted, InvalidValue, NoDomains, ResourceLimit,
                     UsageError)

DRIVER = "crossprolog"

_lock = threading.RLock()
_loaded: set[str] = set()
_alarms = False  # whether Prolog's alarm scheduler runs
_encodings: dict[str, tuple[str, ...]] = {}


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
    """Start Prolog and the driver with Ctrl-C and SIGTERM blocked: Prolog's helper
    threads (its garbage collector, started with it) inherit that from here.

    During a search Prolog handles Ctrl-C itself, in whichever thread the
    kernel hands the signal to: handed to a helper, it would be lost.
    """
    with stops_deferred():
        _consult(DRIVER)
        if _on_termination is not None:
            _query_once("crossprolog:take_sigterm", {})


def _start_alarms() -> None:
    """Start Prolog's alarm scheduler, another helper thread, with them blocked (see
    _start), once: before the first search with a time limit, which would start it."""
    global _alarms
    _load(DRIVER)
    with _lock:
        if not _alarms:
            with stops_deferred():
                _query_once("alarm(3600, true, _Id, [remove(true)]), remove_alarm(_Id)", {})
            _alarms = True


# What stops a command: Ctrl-C and SIGTERM (kill, timeout), taken alike (see take_ctrl_c
# in crossprolog_runs.pl).  Only threads that start no process may block them for good: a
# process inherits the blocked signals, and MiniZinc or a Dask worker would not end.
STOPS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def stops_deferred() -> Iterator[None]:
    """Hold a Ctrl-C or SIGTERM that comes in this block (of this thread) until its end;
    threads started in it block them for good."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@contextmanager
def stops_ignored(stops: set[signal.Signals] = STOPS) -> Iterator[None]:
    """Ignore `stops` (Ctrl-C and SIGTERM) in this block, in the main thread, which alone
    hears them (elsewhere this does nothing): for a stopped command saving and reporting
    what finished, which a second stop would cut short, and (Ctrl-C alone) for starting
    worker processes, which inherit it and leave Ctrl-C to their parent."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {stop: signal.signal(stop, signal.SIG_IGN) for stop in stops}
    try:
        yield
    finally:
        for stop, handler in before.items():
            signal.signal(stop, handler)


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
    # Held as stops_deferred does, without its context manager: this follows every call.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
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


def _bundled_encodings() -> list[str]:
    """The names of every family's bundled encodings, in every paradigm: a user's may
    take none of them."""
    return [name for record in FAMILIES
            for name in encodings(record.prolog) + paradigm_encodings(record.prolog)]


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

def encoding_inputs(family: str, name: str, shape: Sequence[int]) -> dict[str, Any]:
    """The inputs of ENCODING for the encoding `name` of `family`: a family's own by
    name, a user's with the shape its answers must have."""
    if name in _user:
        return {"M": name, "N": list(shape)}
    return {"M": family, "N": name}

ENCODING = "encoding(M, N)"

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

def load_encoding(path: str, timeout: float | None = None) -> str:
    """Load the user's encoding in the Prolog file at `path`; its name (its module's).

    The file is a module exporting model(+Puzzle, -Solution, -Labeling), and
    maybe family(-Name) to say which family it is for.  Loading a file
    again gives its name and loads nothing.  Raises EncodingFileError (exit
    2), naming the file and the line, for a file that does not load cleanly
    (an error or a warning while loading, a call of halt or abort), has no
    model/3, or whose module name is crossprolog's own or already taken;
    EncodingFileTimeLimit (exit 3) when loading takes over `timeout`
    seconds (or, with none, over 2,000 M inferences); Interrupted on Ctrl-C.  After any of them nothing of it stays
    loaded.  What the file prints while loading goes to standard error.
    A `.lp` or `.mzn` file is an encoding in another paradigm (see
    crossprolog.paradigms.load_encoding).
    """
    if paradigms.paradigm_of(path):
        taken = bundled_modules() + list(_user) + _bundled_encodings()
        return paradigms.load_encoding(path, taken, {record.name: record.prolog for record in FAMILIES})
    real = os.path.realpath(path)
    if real in _user_files:
        return _user_files[real]
    if not os.path.isfile(real) or not os.access(real, os.R_OK):
        raise EncodingFileError(path, "cannot read the file" if os.path.exists(real) else "no such file")
    source = encoding_bytes(path)  # not too big: Prolog reads it after
    if b":- encoding(" not in source:  # Prolog reads it as UTF-8, and warns of each byte that is not
        text_of(path, source)
    reserved = bundled_modules() + _bundled_encodings()
    taken = [[name, paradigms.user_encoding(name).path] for name in paradigms.user_encodings()]
    names = {"reserved": reserved, "taken": taken, "families": [record.name for record in FAMILIES]}
    limit = seconds(timeout)
    _load(USER_CODE)
    try:
        result = call("crossprolog:load_encoding(F, N, S, R)", {"F": real, "N": names, "S": limit})["R"]
    except EncodingError:  # abort/0: the one error Prolog lets nothing catch
        raise EncodingFileError(path, "it called abort/0 while loading: an encoding may not "
                                      "abort") from None
    if "inferences" in result:
        raise EncodingFileTimeLimit(path, f"loading it did not end within {result['inferences']:,} inferences "
                                          "(a directive that does not end? --timeout gives loading that "
                                          "much time instead)")
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


_second_ctrl_c: Callable[[], None] | None = None  # the command line's: end the process
_on_termination: Callable[[], None] | None = None  # the command line's: SIGTERM taken, exit 143


def end_on_second_ctrl_c(end: Callable[[], None]) -> None:
    """Have `end` called, to end the process, when a second Ctrl-C comes while a search
    goes on that caught the first: a user's encoding that catches every error would
    else run on for good, however often Ctrl-C came.  The command line asks for it; a
    program that imports crossprolog keeps its process, each Ctrl-C an error thrown in
    the search."""
    global _second_ctrl_c
    _second_ctrl_c = end


def second_ctrl_c() -> None:
    """Called from Prolog (crossprolog_runs:ctrl_c/1) at a second Ctrl-C in one search."""
    if _second_ctrl_c is not None:
        _second_ctrl_c()


def note_terminations(note: Callable[[], None]) -> None:
    """Have SIGTERM stop a search as Ctrl-C does, and `note` called when it does: the
    command line asks for it before Prolog starts, keeps what finished, and exits 143,
    not 130.  A program that imports crossprolog keeps SIGTERM's own effect."""
    global _on_termination
    _on_termination = note


def terminated() -> None:
    """Called from Prolog (crossprolog_runs:terminated/1) at SIGTERM in a search."""
    if _on_termination is not None:
        _on_termination()


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
