"""compare's report of its runs: each encoding's summary over many puzzles (puzzles
solved within the time limit, total and median time, and the geometric mean of its
time over the family's default encoding's, on the puzzles both solved), the text
tables, the records for JSON and CSV, and the cactus plot."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Sequence

from . import engine, paradigms
from .compare import Run
from .errors import UsageError
from .families import named

PLOTS = (".svg", ".png")


@dataclass(frozen=True)
class Summary:
    """One encoding over many puzzles."""

    family: str
    encoding: str
    puzzles: int
    solved: int              # runs finished within the time limit, and not disagreeing
    total: float             # seconds of all its runs (a timed-out run counts what it took)
    median: float
    ratio: float | None      # geometric mean of seconds / the default's, on puzzles both solved
    disagreements: int


def summaries(runs: Sequence[Run]) -> list[Summary]:
    """Each encoding's record over the puzzles of `runs`, per family, in the order of `runs`."""
    groups: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.family, run.encoding), []).append(run)
    defaults = {family: engine.encodings(_prolog(family))[0] for family, _ in groups}
    return [_summary(family, encoding, group, groups.get((family, defaults[family]), []))
            for (family, encoding), group in groups.items()]


def _prolog(family: str) -> str:
    return named(family).prolog


def _summary(family: str, encoding: str, runs: list[Run], defaults: list[Run]) -> Summary:
    import statistics  # as in _run

    default = {run.puzzle: run for run in defaults if run.solved}
    ratios = [run.seconds / default[run.puzzle].seconds for run in runs
              if run.solved and run.puzzle in default and run.seconds > 0
              and default[run.puzzle].seconds > 0]
    seconds = [run.seconds for run in runs]
    return Summary(family, encoding, len(runs), sum(run.solved for run in runs),
                   round(sum(seconds), 6), round(statistics.median(seconds), 6),
                   round(math.exp(statistics.fmean(map(math.log, ratios))), 3) if ratios else None,
                   sum(run.agrees is False for run in runs))


AGREES = {True: "yes", False: "NO", None: "-"}


def table(runs: Sequence[Run]) -> str:
    """The runs as an aligned text table, one line per puzzle and encoding."""
    ran = {_paradigm(r.encoding) for r in runs}
    solvers = [name for name, paradigm in SOLVER_COUNTERS.items() if paradigm in ran]
    header = ("puzzle", "encoding", "status", "seconds", "min", "max", "cpu", "inferences",
              "choices", "backtracks", "propagated", *solvers, "solutions", "agrees")
    lines = [header] + [(r.puzzle, r.encoding, r.status, f"{r.seconds:.4f}", f"{r.seconds_min:.4f}",
                         f"{r.seconds_max:.4f}", f"{r.cpu:.4f}", _count(r.inferences),
                         *(_count(n) for n in (r.choices, r.backtracks, r.propagated)),
                         *(_count(getattr(r, name)) for name in solvers),
                         str(r.solutions), AGREES[r.agrees]) for r in runs]
    return _aligned(lines, left=3)


# The columns of a solver's own counters, shown when one of its runs is in the table
# (`-` where it timed out before reporting them).
SOLVER_COUNTERS = {"conflicts": "asp", "nodes": "minizinc", "failures": "minizinc"}


def _paradigm(encoding: str) -> str | None:
    """The paradigm of `encoding` (asp or minizinc, bundled or a user's loaded), None for Prolog."""
    return paradigms.encoding_of(encoding).paradigm if paradigms.owns(encoding) else None


def summary_table(summaries: Sequence[Summary]) -> str:
    """The summaries as an aligned text table, one line per encoding."""
    header = ("family", "encoding", "solved", "total s", "median s", "vs default", "disagree")
    lines = [header] + [(s.family, s.encoding, f"{s.solved}/{s.puzzles}", f"{s.total:.4f}",
                         f"{s.median:.4f}", "-" if s.ratio is None else f"{s.ratio:.2f}x",
                         str(s.disagreements)) for s in summaries]
    return _aligned(lines, left=2)


def _count(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def _aligned(lines: Sequence[Sequence[str]], left: int) -> str:
    """Columns aligned: the first `left` to the left, the others to the right."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(cell.ljust(w) if i < left else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(line, widths))).rstrip()
                     for line in lines)


def records(runs: Sequence[Run], summaries: Sequence[Summary] = ()) -> list[dict]:
    """One JSON-ready record per run, then one per summary, told apart by `record`."""
    return ([{"record": "run", **asdict(run)} for run in runs]
            + [{"record": "summary", **asdict(summary)} for summary in summaries])


def error_record(puzzle: str, error: str) -> dict:
    """The record of a puzzle that was not compared (it cannot be read, none of the
    encodings named is for it, or its worker process was killed): `puzzle` as a run's
    record names it, status `error` and the `error`, as other commands' records say it."""
    return {"record": "error", "puzzle": puzzle, "status": "error", "error": error}


def csv_text(records: Sequence[dict]) -> str:
    """The `records` (of `records` and `error_record`) as one CSV table: a `record` column,
    then the fields of runs and of summaries (empty where a record has none)."""
    columns = ["record"] + list(dict.fromkeys(f.name for cls in (Run, Summary) for f in fields(cls)))
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue()


def checked_plot(path: str) -> None:
    """UsageError unless a cactus plot can be written to `path`: say so before the runs."""
    if Path(path).suffix.lower() not in PLOTS:
        raise UsageError(f"--plot {path}: the chart is written as {' or '.join(PLOTS)}; name the file so")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'crossprolog[plot]'") from None


def cactus(runs: Sequence[Run], path: str, timeout: float | None = None) -> None:
    """Write the cactus plot of `runs` to `path` (.svg or .png): for each encoding, the
    puzzles it solved, fastest first, against the time each took; the further right
    and the lower a line, the better."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    from matplotlib import pyplot
    from matplotlib.ticker import MaxNLocator

    families = {run.family for run in runs}
    figure, axes = pyplot.subplots(figsize=(7, 4.5))
    for (family, encoding), times in _solved_times(runs).items():
        label = encoding if len(families) == 1 else f"{family} {encoding}"
        axes.plot(range(1, len(times) + 1), times, marker="o", markersize=3, label=label)
    puzzles = len({(run.family, run.puzzle) for run in runs})
    axes.set_xlabel("puzzles solved")
    axes.set_ylabel("seconds (median of the repeats)")
    axes.set_yscale("log")
    axes.set_xlim(0, puzzles + 0.5)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    if timeout:
        axes.axhline(timeout, color="grey", linestyle="--", linewidth=1, label="time limit")
    axes.set_title(f"{puzzles} puzzle{'s' * (puzzles != 1)}, "
                   f"{'time limit ' + format(timeout, 'g') + ' s' if timeout else 'no time limit'}")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def _solved_times(runs: Sequence[Run]) -> dict[tuple[str, str], list[float]]:
    """Each encoding's times on the puzzles it solved, fastest first."""
    times: dict[tuple[str, str], list[float]] = {}
    for run in runs:
        times.setdefault((run.family, run.encoding), [])
        if run.solved:
            times[run.family, run.encoding].append(run.seconds)
    return {key: sorted(values) for key, values in times.items()}
