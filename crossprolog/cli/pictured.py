"""Commands' pictures: `--format svg` (one SVG a puzzle: on standard output, or with
`--out DIR` a file each) and `--format html` (one self-contained page of everything
the command printed, on standard output or in `--out FILE`).  The picture code is
imported by the functions that draw: a command that prints text does not load it."""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .. import batch, results_files
from ..backends import PICTURES
from ..errors import UsageError, printable
from ..families import named
from .report import OK, Outcome, plural, write

if TYPE_CHECKING:
    from ..backends import html


def wanted(args) -> bool:
    """Whether the command draws pictures."""
    return getattr(args, "format", None) in (*PICTURES, "pdf")


def picture(args, thing: Any, about: Any = None, caption: Sequence[str] | None = None) -> str:
    """The SVG of `thing` (and `about` it: see pictures.picture) when the command draws
    pictures, else "" (nothing is drawn for text or JSON).  `caption` replaces the
    picture's own."""
    if not wanted(args):
        return ""
    from .. import pictures
    drawn = pictures.picture(thing, about)
    if caption is not None:
        drawn = pictures.Picture(drawn.scenes, tuple(caption))
    return drawn.svg()


def check_target(args) -> None:
    """Before any work: --out must be a directory that can be made (svg) or a writable file."""
    if not args.out:
        return
    if args.format == "svg":
        if os.path.lexists(args.out) and not os.path.isdir(args.out):
            raise UsageError(f"--out {printable(args.out)} is not a directory: --format svg writes a "
                             "picture a puzzle into one (--format html writes one file)")
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as error:
            raise UsageError(f"cannot make the directory {printable(args.out)}: "
                             f"{error.strerror or error}") from None
    else:
        paths = getattr(args, "paths", ())
        results_files.check_writable(args.out, paths, batch.expand(paths))


class Pictures:
    """Where a command's pictures go, as their outcomes come, in order."""

    def __init__(self, args, title: str):
        self.args, self.title = args, title
        self.sections: list[html.Section] = []
        self.names: set[str] = set()
        self.files = 0

    def add(self, name: str, outcome: Outcome, several: bool) -> None:
        """One puzzle's outcome: its error to standard error, its picture where it goes."""
        if outcome.error:
            write(outcome.error, file=sys.stderr)
        if self.args.format == "html":
            from ..backends import html
            self.sections.append(html.Section(name if several else "", outcome.text or outcome.error,
                                              [("", outcome.picture)] if outcome.picture else []))
        elif outcome.picture and self.args.out:
            self.save(name, outcome.picture)
        elif outcome.picture:
            write(f"== {name}\n{outcome.picture}" if several else outcome.picture, file=sys.stdout)
            sys.stdout.flush()

    def save(self, name: str, svg: str) -> None:
        path = os.path.join(self.args.out, self.file_name(name))
        results_files.write_text(path, svg + "\n")
        self.files += 1

    def file_name(self, name: str) -> str:
        """A file name of its own for the picture of the input `name`."""
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", os.path.basename(name.replace(":", "-"))).strip("-.")
        stem = re.sub(r"\.(txt|md|sdk|sdm)(?=-|$)", "", stem) or "puzzle"
        unique, n = stem, 1
        while unique in self.names:
            n += 1
            unique = f"{stem}-{n}"
        self.names.add(unique)
        return unique + ".svg"

    def close(self) -> None:
        """The page, once every outcome is in; or, for files, how many were written."""
        if self.args.format == "html":
            from ..backends import html
            page = html.page(self.title, self.sections)
            if self.args.out:
                results_files.write_text(self.args.out, page)
                print(f"{printable(self.args.out)}: a page of {plural(len(self.sections), 'puzzle')}")
            else:
                sys.stdout.write(page)
        elif self.args.out:
            print(f"{printable(self.args.out)}: {plural(self.files, 'picture')}")



def generated(args, puzzles: Iterable) -> int:
    """`generate --format svg`: a picture a puzzle (and one a solution, with
    --with-solutions), after a line `== N` when there are several, or a file each in
    --out DIR; `--format html`: a printable book, the puzzles, then their solutions;
    `--format pdf`: the book as a PDF, in --out FILE."""
    from .. import pictures
    if args.format == "pdf" and not args.out:
        raise UsageError("--format pdf writes a file: name it with --out FILE.pdf")
    if args.format in ("html", "pdf"):
        made = list(puzzles)
        solutions = [puzzle.solve() for puzzle in made]
        title = f"{len(made)} {named(args.family).title} puzzle{'s' * (len(made) != 1)}" + \
            (", well-formed" if args.well_formed else "")
        if args.format == "pdf":
            paper = args.paper or "a4"
            written(args.out, pictures.book_pdf(made, solutions, title=title, paper=paper))
            print(f"{printable(args.out)}: a book of {plural(len(made), 'puzzle')}, "
                  f"{paper.upper() if paper == 'a4' else 'Letter'}")
            return OK
        page = pictures.book(made, solutions, title=title)
        if args.out:
            results_files.write_text(args.out, page)
            print(f"{printable(args.out)}: a book of {plural(len(made), 'puzzle')}")
        else:
            sys.stdout.write(page)
        return OK
    drawn = Pictures(args, "")
    separated = args.n > 1 or args.with_solutions
    for number, puzzle in enumerate(puzzles, start=1):
        shown = [(f"{number}", pictures.svg(puzzle))]
        if args.with_solutions:
            solution = puzzle.solve()
            shown.append((f"{number} solved", pictures.svg(solution) if solution
                          else pictures.Picture((puzzle.scene(),), ("no solution",)).svg()))
        for name, svg in shown:
            if args.out:
                drawn.save(name.replace(" ", "-"), svg)
            else:
                write(f"== {name}\n{svg}" if separated else svg, file=sys.stdout)
    if args.out:
        print(f"{printable(args.out)}: {plural(drawn.files, 'picture')}")
        earlier = earlier_pictures(args.out, drawn.names)
        if earlier:
            shown = ", ".join(earlier[:5]) + (", ..." if len(earlier) > 5 else "")
            print(f"crossprolog: {printable(args.out)} also holds {plural(len(earlier), 'picture')} "
                  f"of an earlier run, left as they were: {printable(shown)}", file=sys.stderr)
    return OK


def earlier_pictures(directory: str, written_now: set[str]) -> list[str]:
    """The files of `directory` named as `generate` names its pictures (`N.svg`,
    `N-solved.svg`) that this run did not write, in the order of their numbers: left by
    an earlier run, they would read as this run's puzzles."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    earlier = [name for name in names if GENERATED_NAME.fullmatch(name)
               and name.removesuffix(".svg") not in written_now]
    return sorted(earlier, key=lambda name: (int(GENERATED_NAME.fullmatch(name)[1]), "solved" in name))


GENERATED_NAME = re.compile(r"(\d+)(?:-solved)?\.svg")


def written(path: str, data: bytes) -> None:
    """Write `data` to the file at `path` (checked writable before the work began)."""
    try:
        with open(path, "wb") as file:
            file.write(data)
    except OSError as error:
        raise UsageError(f"cannot write {printable(path)}: {error.strerror or error}") from None
