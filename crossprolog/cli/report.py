"""What a command reports: exit codes, one input's outcome, and how output is printed
(progress bars on a terminal kept whole)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Iterable


OK, NO, BAD, LIMIT, INTERRUPTED = 0, 1, 2, 3, 130


SEVERITY = [OK, NO, LIMIT, BAD, INTERRUPTED]  # mildest first


def worst(codes: Iterable[int]) -> int:
    return max(codes, key=SEVERITY.index, default=OK)


@dataclass
class Outcome:
    """What one command did for one input: its exit code, output, JSON record and error."""

    code: int
    text: str
    record: dict
    error: str = ""  # for standard error
    picture: str = ""  # an SVG document, when the command draws pictures (cli/pictured.py)
    # What `text` draws, as data another backend (the web page) draws again: a
    # (puzzle, solution or None, Marks) for each drawing.
    drawn: tuple = ()

    def __getstate__(self) -> dict:
        """What crosses to another process (a batch's worker's outcome): not `drawn`,
        for this process's own backends; the text holds the drawings."""
        return {**self.__dict__, "drawn": ()}


class Stopped(KeyboardInterrupt):
    """Ctrl-C stopped a command in a search; `outcome` says what it found by then."""

    def __init__(self, outcome: Outcome):
        super().__init__()
        self.outcome = outcome


# Progress bars, on a terminal: tqdm is loaded only for a bar to be shown (loading it
# took a twentieth of every command's start).
_tqdm = None


def bar(iterable: Iterable | None = None, *, shown: bool, **options):
    """A tqdm progress bar on standard error when `shown`, else one that shows nothing."""
    global _tqdm
    if not shown:
        return _Hidden(iterable)
    if _tqdm is None:
        from tqdm import tqdm

        tqdm.monitor_interval = 0  # its monitor thread could take a Ctrl-C meant for a search: see quiet
        _tqdm = tqdm
    return _tqdm(iterable, file=sys.stderr, leave=False, **options)


class _Hidden:
    """A progress bar that shows nothing."""

    def __init__(self, iterable: Iterable | None):
        self.iterable = iterable

    def __iter__(self):
        return iter(self.iterable)

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def write(text: str, file) -> None:
    """Print a line of output; once bars may be shown, tqdm's way, which keeps them whole."""
    if _tqdm is None:
        print(text, file=file)
    else:
        _tqdm.write(text, file=file)




def layout(args) -> str | None:
    return args.format if args.format in ("text", "markdown") else None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"
