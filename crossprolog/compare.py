"""Every encoding on every puzzle, measured like a benchmark: times, effort, agreement.

Each run is timed `repeat` times with the very search `solve` makes (or,
looking for more than KEPT_AT_MOST solutions, the one `count` makes), so its
times and inferences are what a user would see; then it runs once more with
its labeling's effort counted (choices, backtracks and propagated bindings,
see `watched/2` in prolog/crossprolog.pl), which costs a little time of its
own.  A run that times out or fails is not repeated.  Runs agree when they
saw as many solutions and the same ones, told apart by a digest of them
(`solution_digest`), so a comparison over millions of solutions keeps none.

What the runs come to, and how they are shown, is compare_report's.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Sequence

from . import engine, paradigms, searches
from .errors import CrossprologError, Interrupted, UsageError
from .answers import json_ready
from .families import FAMILIES
from .puzzle import Puzzle

TIMEOUT = 10.0  # seconds a run may take by default: one slow encoding does not stall the rest
REPEAT = 3
# Seconds at least an encoding file may take to load: --timeout bounds each run, and
# loading a file is none, so a small --timeout for the runs of quick searches does not
# refuse a file whose directives take longer, and one that never ends is still stopped.
LOADING = 10.0
FINISHED = ("complete", "limit")  # the statuses of a run that ended within its time
KEPT_AT_MOST = 1000  # solutions a run keeps to compare; past that, only their digest
DIGEST_MODULUS = 2**61 - 1  # a prime; prolog/crossprolog.pl's digest_modulus/1


@dataclass(frozen=True)
class Run:
    """One encoding's search on one puzzle, timed `repeats` times."""

    puzzle: str              # its path, or a name
    family: str
    encoding: str
    status: str              # complete, limit, timeout or error
    seconds: float           # median wall time of the search in Prolog
    seconds_min: float
    seconds_max: float
    cpu: float               # median CPU time
    inferences: int | None   # median Prolog inferences: nearly noise-free, unlike time (None: not Prolog)
    choices: int | None      # bindings the labeling made itself (None: not counted)
    backtracks: int | None   # choices it undid
    propagated: int | None   # bindings propagation made
    solutions: int           # how many it saw (at most the limit)
    agrees: bool | None      # the same solutions as the reference run; None if undecided
    repeats: int
    error: str = ""
    conflicts: int | None = None  # clingo's conflicts (its choices are `choices`)
    nodes: int | None = None      # Gecode's search nodes (MiniZinc)
    failures: int | None = None   # Gecode's failed nodes

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    @property
    def solved(self) -> bool:
        """Finished, and not disagreeing: a wrong answer found fast solved nothing."""
        return self.finished and self.agrees is not False


Guard = Callable[[Callable[[], list[Run]]], AbstractContextManager]


def unguarded(stuck: Callable[[], list[Run]]) -> AbstractContextManager:
    return nullcontext()


def compare(puzzle: Puzzle, encodings: Sequence[str] | None = None, *, limit: int = 2,
            timeout: float | None = TIMEOUT, repeat: int = REPEAT, name: str = "",
            guard: Guard = unguarded) -> list[Run]:
    """Run `encodings` (default: all of the family's that take its rules, then the user's
    loaded for it) on `puzzle`, each up to `limit` solutions (0: all) within `timeout` seconds, timed
    `repeat` times.

    With the default limit of 2 each run finds a solution and decides
    uniqueness.  The reference is the first run that finished, a bundled
    encoding's rather than a user's, and never one that gave a solution
    twice.  A run agrees with it when they saw the same number of solutions
    and the same ones, none twice; runs both stopped at the limit may have
    found different solutions legitimately, so there a solution the
    reference did not find must be a solution under the reference's encoding.

    Every search runs within `guard(stuck)`: the command line's watchdog, for
    a user's encoding that does not stop at its time limit (it catches the
    limit's exception, or clingo grounds for ever), which only ending the
    process stops.  `stuck()` gives the runs so far, the last one the run at
    work with an error saying it did not stop (agreement decided without
    asking Prolog, which is busy): stuck in a timed search, it timed out,
    its times those of the searches that finished and the time limit; stuck
    in its effort run, it keeps what its timed searches found, its counters
    unknown (None).  Ctrl-C raises Interrupted, its `found` the runs that
    finished.
    """
    family = puzzle.record.prolog
    own = engine.encodings(family) + engine.paradigm_encodings(family) + engine.user_encodings(family)
    names = [engine.checked_encoding(family, encoding) for encoding in  # each once
             (dict.fromkeys(name for name in encodings if name in own) if encodings else _installed(own))]
    if not names:
        raise UsageError(f"none of the encodings {', '.join(encodings)} is for {puzzle.record.title} "
                         f"puzzles; choose from {', '.join(own)}")
    label = name or puzzle.family
    measured: list[dict[str, Any]] = []

    def runs(ran: list[dict[str, Any]], settled: bool = True) -> list[Run]:
        kept = ran
        if not encodings:  # the family's all: one that does not take this puzzle's rules is not for it
            kept = [m for m in ran if not _refuses(m)] or ran
        reference = _reference(kept)

        def accepted(answers: set) -> bool | None:
            if not settled:
                return None
            checking = reference["encoding"]
            error = (f"{checking} did not stop at its time limit ({timeout:g} s) checking another "
                     "run's solutions: the process running it was ended")
            with guard(lambda: [replace(run, error=error) if run.encoding == checking else run
                                for run in runs(ran, settled=False)]):
                return _accepted(puzzle, checking, answers, timeout)

        return [_run(label, puzzle, m, _agrees(m, reference, accepted)) for m in kept]

    def guarded(late: Callable[[], dict[str, Any]]) -> AbstractContextManager:
        return guard(lambda: runs(measured + [late()], settled=False))

    for encoding in names:
        try:
            measured.append(_measured(puzzle, encoding, limit, timeout, repeat, guarded))
        except KeyboardInterrupt:
            raise Interrupted(runs(measured, settled=False)) from None
    return runs(measured)


def _accepted(puzzle: Puzzle, encoding: str, answers: set, timeout: float | None) -> bool | None:
    """Whether every one of `answers` is a solution under `encoding`; None when that is
    not told within `timeout` seconds each."""
    family, data, shape = puzzle.record.prolog, puzzle.prolog_data(), puzzle.answer_shape()
    told = [searches.accepts(family, data, json_ready(answer), shape=shape, encoding=encoding,
                             timeout=timeout)
            for answer in answers]
    return False if False in told else None if None in told else True


def _refuses(measured: dict[str, Any]) -> bool:
    """Whether the encoding refused the puzzle (a rule variant it does not take: `rows`
    and digits 0-9), rather than failing on it."""
    error = measured.get("error")
    return isinstance(error, UsageError) and not measured["found"]


def _measured(puzzle: Puzzle, encoding: str, limit: int, timeout: float | None, repeat: int,
              guarded: Callable[[Callable[[], dict[str, Any]]], AbstractContextManager]) -> dict[str, Any]:
    """The timed searches of one encoding, then its effort: a dict of what `_run` needs.

    Up to KEPT_AT_MOST solutions are kept (to tell which differ).  Asked for
    more (or all), a Prolog encoding's timed runs count them, as `count`
    does, and its effort run keeps them if they are no more than that, else
    sums them up in a digest.  Each search runs within `guarded(late)`,
    `late()` the dict to report should the search not stop (see compare).
    """
    family, data, shape = puzzle.record.prolog, puzzle.prolog_data(), puzzle.answer_shape()
    counted = not paradigms.owns(encoding) and not 0 < limit <= KEPT_AT_MOST  # maybe too many to keep
    found: list[dict[str, Any]] = []
    try:
        while len(found) < repeat and (not found or found[-1]["status"] in FINISHED):
            with guarded(lambda: _late(encoding, found, counted, timeout, effort=False)):
                found.append(searches.find(family, data, shape=shape, limit=limit, timeout=timeout,
                                           encoding=encoding, keep=not counted))
        effort = None
        if "counters" not in found[0] and found[-1]["status"] in FINISHED:
            with guarded(lambda: _late(encoding, found, counted, timeout, effort=True)):
                effort = searches.find(family, data, shape=shape, limit=limit, timeout=timeout,
                                       encoding=encoding, effort=True,
                                       digest=counted and _seen(found[0]) > KEPT_AT_MOST)
    except CrossprologError as error:
        return {"encoding": encoding, "status": "error", "error": error, "found": found}
    return _settled(encoding, found, effort, counted)


def _late(encoding: str, found: list[dict[str, Any]], counted: bool, timeout: float,
          effort: bool) -> dict[str, Any]:
    """What `_run` needs of a run whose search did not stop at its time limit, and whose
    guard ended it: the timed searches `found`, then the one stuck, timed out (what it
    took is that limit at least; nothing else of it is known), or, stuck in its
    `effort` run, what the timed searches found, its counters unknown."""
    stuck = [] if effort else [{"status": "timeout", "seconds": timeout, "cpu": timeout,
                                "inferences": None, "solutions": [], "count": 0}]
    where = " in the run counting its effort" if effort else ""
    return {**_settled(encoding, found + stuck, None, counted),
            "error": f"{encoding} did not stop at its time limit ({timeout:g} s){where}: "
                     "the process running it was ended"}


def _settled(encoding: str, found: list[dict[str, Any]], effort: dict[str, Any] | None,
             counted: bool) -> dict[str, Any]:
    """What `_run` needs of the timed searches `found` (at least one) and of the `effort`
    run (None: not run, or it did not stop): status, count, counters (a solver of
    another paradigm's come with its first timed search), and the solutions to
    compare, or their digest only.  `counted`: the timed searches counted the
    solutions without keeping them, so they come from the effort run, or only
    their digest past KEPT_AT_MOST; the digest is None (unknown) unless that run
    finished with the same count."""
    count = _seen(found[0])
    digested = counted and count > KEPT_AT_MOST  # else the effort run kept them
    counters = found[0].get("counters", effort or {})
    measured = {"encoding": encoding, "status": str(found[-1]["status"]), "found": found,
                "effort": counters, "count": count}
    same = effort is not None and _seen(effort) == count and str(effort["status"]) in FINISHED
    if not counted or (same and not digested):
        solutions = [_frozen(s) for s in (effort if counted else found[0])["solutions"]]
        return {**measured, "solutions": solutions, "digest": sum_of_digests(solutions)}
    return {**measured, "digest": effort["digest"] if same else None}


def _seen(result: dict[str, Any]) -> int:
    """How many solutions a search saw: its count, or the solutions it kept."""
    return result.get("count", len(result.get("solutions", ())))


def _run(name: str, puzzle: Puzzle, measured: dict[str, Any], agrees: bool | None) -> Run:
    import statistics  # here, not above: the command line imports this module at every start

    found, effort = measured["found"], measured.get("effort") or {}
    seconds = [f["seconds"] for f in found] or [0.0]
    inferences = [f["inferences"] for f in found] or [0]
    known = None not in inferences and not any("paradigm" in f for f in found)  # Prolog's, all counted
    return Run(name, puzzle.family, measured["encoding"], measured["status"],
               round(statistics.median(seconds), 6), round(min(seconds), 6), round(max(seconds), 6),
               round(statistics.median([f["cpu"] for f in found] or [0.0]), 6),
               round(statistics.median(inferences)) if known else None,
               effort.get("choices"), effort.get("backtracks"), effort.get("propagated"),
               measured.get("count", 0), agrees, len(found), str(measured.get("error", "")),
               effort.get("conflicts"), effort.get("nodes"), effort.get("failures"))


def _installed(names: list[str]) -> list[str]:
    """`names` less the encodings of other paradigms whose solver is not installed here
    (compare runs them by default; named, a missing one is an error saying what to install)."""
    return [name for name in names if not paradigms.owns(name) or paradigms.available(name)]


def _agrees(measured: dict[str, Any], reference: dict[str, Any] | None,
            accepted: Callable[[set], bool | None]) -> bool | None:
    """Whether a run saw the reference's solutions (None: undecided, one of them did
    not finish, or a digest is missing).  Runs both stopped at the limit may have
    found different solutions legitimately: where both kept them, the solutions
    the reference did not find must be `accepted` under the reference's encoding;
    where either kept only a digest, it is undecided."""
    if reference is None or measured["status"] not in FINISHED:
        return None
    if measured["count"] != reference["count"] or _repeats(measured):
        return False
    if measured["digest"] is None or reference["digest"] is None:
        return None
    if measured["digest"] == reference["digest"]:
        return True
    if measured["status"] == reference["status"] == "limit":
        if "solutions" in measured and "solutions" in reference:
            return accepted(set(measured["solutions"]) - set(reference["solutions"]))
        return None
    return False


def _reference(measured: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The run the others are held to: the first that finished of the bundled
    encodings' (tested against brute force), else of a user's; never one that
    gave a solution twice."""
    finished = [m for m in measured if m["status"] in FINISHED and not _repeats(m)]
    return next((m for m in finished if not engine.user_encoding(m["encoding"])),
                finished[0] if finished else None)


def _repeats(measured: dict[str, Any]) -> bool:
    """Whether a run gave a solution twice, among those it kept: a search that does
    is wrong, whatever the others found (two at the limit may be one found twice)."""
    solutions = measured.get("solutions", ())
    return len(set(solutions)) < len(solutions)


def solution_digest(answer: Any) -> int:
    """A hash of the integers of a Prolog answer (nested lists), in order: the
    function prolog/crossprolog.pl's solution_digest/2 computes."""
    digest = 0
    for value in _flat(answer):
        digest = (digest * 1000003 + value + 1) % DIGEST_MODULUS
    return digest


def sum_of_digests(answers: Sequence[Any]) -> int:
    """The digest of a set of answers: their digests added up, in any order."""
    return sum(map(solution_digest, answers)) % DIGEST_MODULUS


def _flat(answer: Any) -> Iterator[int]:
    if isinstance(answer, (list, tuple)):
        for item in answer:
            yield from _flat(item)
    else:
        yield int(answer)


def _frozen(answer: Any) -> Any:
    """A Prolog answer as nested tuples: hashable, and equal when the answers are."""
    if isinstance(answer, list):
        return tuple(map(_frozen, answer))
    return answer


def unknown_encodings(names: Sequence[str]) -> list[str]:
    """Those of `names` that are the encoding of no family (nor a user's loaded one)."""
    known = {name for record in FAMILIES
             for name in engine.encodings(record.prolog) + engine.paradigm_encodings(record.prolog)}
    return [name for name in names if name not in known | set(engine.user_encodings())]
