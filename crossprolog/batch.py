"""Many puzzles in one command: inputs named by directories, worker processes, a results file."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import tempfile
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence, TypeVar

from .errors import UsageError

Item = TypeVar("Item")
Result = TypeVar("Result")

PUZZLE_SUFFIXES = (".txt", ".md")


def expand(paths: Sequence[str]) -> list[str]:
    """The inputs `paths` name: a directory names its puzzle files, every other path itself.

    A directory's puzzle files are its *.txt and *.md files and those of its
    subdirectories, hidden ones skipped, in sorted order.  A directory with
    none stays as it is, for the reader to report.
    """
    inputs = []
    for path in paths:
        found = _puzzle_files(Path(path)) if path != "-" and os.path.isdir(path) else []
        inputs += [str(file) for file in found] or [path]
    return inputs


def _puzzle_files(directory: Path) -> list[Path]:
    return sorted(file for file in directory.rglob("*")
                  if file.suffix in PUZZLE_SUFFIXES and file.is_file()
                  and not any(part.startswith(".") for part in file.relative_to(directory).parts))


def results(work: Callable[[Item], Result], items: Sequence[Item],
            jobs: int = 1) -> Iterator[tuple[int, Result]]:
    """(index, work(item)) for every item, in the order they finish.

    With jobs > 1 the work runs in that many fresh worker processes (spawned,
    not forked: a forked copy of a running Prolog is not safe).  `work` must
    be picklable: a module-level function or a partial of one.  Closing the
    iterator early, on Ctrl-C say, stops the workers at once.
    """
    if jobs <= 1 or len(items) <= 1:
        for index, item in enumerate(items):
            yield index, work(item)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(jobs, len(items)), initializer=_leave_interrupts_to_the_parent) as pool:
        yield from pool.imap_unordered(partial(_indexed, work), enumerate(items))


def _indexed(work: Callable[[Item], Result], pair: tuple[int, Item]) -> tuple[int, Result]:
    index, item = pair
    return index, work(item)


def _leave_interrupts_to_the_parent() -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides what
    # happens (it terminates the pool), so workers do not print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def check_writable(path: str) -> None:
    """Raise UsageError unless a file can be written at `path`: say so before the work, not after."""
    try:
        with tempfile.TemporaryFile(dir=_directory(path)):
            pass
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None
    if os.path.isdir(path):
        raise UsageError(f"cannot write {path}: it is a directory")


def write_jsonl(path: str, records: Iterable[dict]) -> None:
    """Write one JSON object per line to `path`, all at once or not at all."""
    write_atomically(path, "".join(json.dumps(record) + "\n" for record in records))


def write_atomically(path: str, text: str) -> None:
    """Write `text` to `path`, all at once or not at all.

    The text goes to a temporary file beside `path`, which then replaces it:
    a reader never sees a half-written file, even if this process dies.
    """
    handle, temporary = tempfile.mkstemp(dir=_directory(path), prefix=".crossprolog-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private; a result file is not
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _directory(path: str) -> str:
    return os.path.dirname(os.path.abspath(path))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
