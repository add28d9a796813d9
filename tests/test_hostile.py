"""Hostile input: nothing from a puzzle file is ever run, as Prolog, Python or shell.

Payloads that would touch a marker file if anything evaluated them go into every
place a layout tolerates free text: comments in every family, Sudoku directive
lines (known words and unknown ones, above and below the grid), CrossCells
code-fence lines, text after a CrossCells group constraint.  Each file goes
through solve, count, check, export (and the exported program through plain
`swipl`), and the Python API; the marker must never appear, the puzzles must
still solve, and the exported program must hold no byte of the payloads.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import crossprolog
from crossprolog import ParseError
from crossprolog.export import program

from conftest import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent

PROLOG = [
    ":- shell('touch {marker}').",
    "'), shell(\"touch {marker}\"), ('",
    "\"), shell('touch {marker}'), (\"",
    "0'\\n:- initialization(shell(\"touch {marker}\")).",
    "\\'), shell('touch {marker}') % \\\\ '",
    "/* ), shell('touch {marker}'), ( */ halt.",
    "'\\n:- initialization(shell('touch {marker}'), now).",
    "[]}}), shell('touch {marker}'), ({{[",
]
SHELL = ["$(touch {marker})", "`touch {marker}`", "; touch {marker}", "| touch {marker} &&",
         "\"; touch {marker}; echo \""]
PYTHON = ["__import__('os').system('touch {marker}')",
          "{{0.__class__.__mro__}} {{puzzle}} %s %(x)s ${{x}} __import__('os').system('touch {marker}')",
          "eval(\"__import__('os').system('touch {marker}')\")"]
PAYLOADS = PROLOG + SHELL + PYTHON
CARRIAGE_RETURN = "\r:- initialization(shell('touch {marker}'))."  # a new line, for readers that take CR


@pytest.fixture
def marker(tmp_path) -> Path:
    """The file a payload would create; it must never exist."""
    path = tmp_path / "marker"
    yield path
    assert not path.exists(), "a payload from a puzzle file was run"


def payloads(marker: Path) -> list[str]:
    return [payload.format(marker=marker) for payload in PAYLOADS]


def comments(marker: Path, mark: str = "# ") -> str:
    return "".join(f"{mark}{payload}\n" for payload in payloads(marker))


def with_comments(example: Path, marker: Path) -> str:
    """An example with payload comments above it, between its lines and below it."""
    lines = example.read_text().splitlines()
    middle = len(lines) // 2
    return (comments(marker) + "\n".join(lines[:middle]) + "\n" + comments(marker, "   # ")
            + "\n".join(lines[middle:]) + "\n" + comments(marker))


def accepted_files(marker: Path) -> dict[str, tuple[Path, str]]:
    """Hostile texts every family must accept: example path -> (the example, the hostile text)."""
    escargot = EXAMPLES / "sudoku" / "ai-escargot.txt"
    puzzle_25 = EXAMPLES / "crosscells" / "puzzle-25.txt"
    below_grid = "".join(f"# note: {p}\n# {p}\n" for p in payloads(marker))
    return {
        "crossproduct-text": (EXAMPLES / "crossproduct" / "riddler-1.txt",
                              with_comments(EXAMPLES / "crossproduct" / "riddler-1.txt", marker)),
        "crossproduct-markdown": (EXAMPLES / "crossproduct" / "riddler-2.md",
                                  with_comments(EXAMPLES / "crossproduct" / "riddler-2.md", marker)),
        "crosscells": (puzzle_25, "".join(f"```{p}\n" for p in payloads(marker)[:1])
                       + with_comments(puzzle_25, marker) + "```\n"),
        "crosscells-fenced": (puzzle_25, f"```{payloads(marker)[1]}\n{puzzle_25.read_text()}```"
                              f"{payloads(marker)[2]}\n" + comments(marker)),
        "sudoku": (escargot, with_comments(escargot, marker) + below_grid),
    }


def rejected_texts(marker: Path) -> dict[str, str]:
    """Hostile texts in places where free text is an error: refused with exit 2, never run."""
    grid = (EXAMPLES / "sudoku" / "ai-escargot.txt").read_text()
    riddler = (EXAMPLES / "crossproduct" / "riddler-1.txt").read_text()
    texts = {}
    for n, payload in enumerate(payloads(marker)):
        texts[f"sudoku-digits-{n}"] = f"# digits: 1-9 {payload}\n{grid}"
        texts[f"sudoku-maximize-{n}"] = f"# maximize: gcd(rows) {payload}\n{grid}"
        texts[f"sudoku-unknown-directive-{n}"] = f"# shell: {payload}\n{grid}"
        texts[f"sudoku-directive-below-{n}"] = f"{grid}# digits: {payload}\n"
        texts[f"crosscells-group-{n}"] = f"+1a +2 =1\na#1 {payload}\n"
        texts[f"crosscells-precedence-{n}"] = f"# precedence: standard {payload}\n+1a +2 =1\n"
        texts[f"crosscells-game-{n}"] = f"# game: {payload}\n 1  2  3\n 1  2\n"
        texts[f"crosscells-sumplete-{n}"] = f"# game: sumplete\n 1  2  3\n 1  2\na=1 {payload}\n"
        texts[f"crosscells-row-{n}"] = f"+1a +2 =1 {payload}\n"
        texts[f"crossproduct-row-{n}"] = riddler + f"? ? ? 6 {payload}\n"
        texts[f"crossproduct-markdown-{n}"] = f"|6|8|[1×2]|\n|---|---|---|\n|?|?|**{payload}**|\n"
    cr = CARRIAGE_RETURN.format(marker=marker)
    texts["crossproduct-comment-cr"] = f"# note{cr}\n{riddler}"
    texts["crosscells-comment-cr"] = f"# note{cr}\n+1 +2 =3\n"
    texts["sudoku-comment-cr"] = f"# note{cr}\n{grid}"
    return texts


def solution_of(path: Path) -> list:
    return crossprolog.parse(path.read_text()).solve().to_json()


def swipl() -> str:
    """The swipl the project runs on (found as tests/test_encodings.py does)."""
    bin_dir = subprocess.run([str(ROOT / "scripts" / "provision-swipl")], capture_output=True,
                             text=True, check=True).stdout.strip()
    return str(Path(bin_dir) / "swipl")


def without_drawing(program_text: str) -> str:
    """An exported program without its drawing/1 fact."""
    return re.sub(r"^drawing\(.*?\]\)\.$", "", program_text, flags=re.MULTILINE | re.DOTALL)


def printed(example: Path) -> list[str]:
    """The lines an exported program prints for the solution of `example`: a CrossCells
    drawing as `solve` draws it, the rows of a grid."""
    puzzle = crossprolog.parse(example.read_text())
    if puzzle.family == "crosscells":
        return str(puzzle.solve()).splitlines()
    return [" ".join(map(str, row)) for row in puzzle.solve().to_json()]


# The command line


def test_hostile_comments_and_fences_are_only_data_for_solve_count_and_check(cli, tmp_path, marker):
    """Every family accepts the payloads where it tolerates text, and solves as without them."""
    files = {}
    for name, (example, text) in accepted_files(marker).items():
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text(text)
    solved = cli("solve", *files.values(), "--format", "json")
    assert solved.code == 0, solved.err
    expected = {name: solution_of(example) for name, (example, _) in accepted_files(marker).items()}
    assert {name: record["solution"] for name, record in zip(files, solved.jsonl())} == expected
    counted = cli("count", *files.values(), "--format", "json")
    assert [record["count"] for record in counted.jsonl()] == [1] * len(files)
    checked = cli("check", *files.values())
    assert checked.code == 0 and checked.out.count("well-formed: exactly one solution") == len(files)


def test_hostile_text_where_text_is_not_allowed_is_refused(cli, tmp_path, marker):
    """Directive values, unknown directives, text after cells or products, CR line breaks:
    each a located error (exit 2), for every command."""
    paths = []
    for name, text in rejected_texts(marker).items():
        paths.append(tmp_path / f"{name}.txt")
        paths[-1].write_text(text, newline="")
    for command in ("solve", "count", "check"):
        run = cli(command, *paths, "--format", "json")
        assert run.code == 2
        assert [record["status"] for record in run.jsonl()] == ["error"] * len(paths)
        assert all(": error: " in record["error"] for record in run.jsonl())
    for path in paths[:: max(1, len(paths) // 8)]:
        assert cli("export", path).code == 2


def test_the_real_program_runs_no_payload(tmp_path, marker):
    """One `python -m crossprolog solve` process over every hostile file, accepted or not."""
    paths = []
    for name, (_, text) in accepted_files(marker).items():
        paths.append(tmp_path / f"{name}.txt")
        paths[-1].write_text(text)
    for name, text in list(rejected_texts(marker).items())[::5]:
        paths.append(tmp_path / f"{name}.txt")
        paths[-1].write_text(text, newline="")
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", *map(str, paths)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr


@pytest.mark.parametrize("name", ["crossproduct-text", "crossproduct-markdown", "crosscells", "sudoku"])
def test_an_exported_hostile_puzzle_is_the_clean_program_and_runs(cli, tmp_path, marker, name):
    """`export` of a file full of payloads writes exactly the program of the clean example
    (comments and fences leave no trace), and plain `swipl` runs it to the right solution."""
    example, text = accepted_files(marker)[name]
    hostile, target = tmp_path / "hostile.txt", tmp_path / "hostile.pl"
    hostile.write_text(text)
    run = cli("export", hostile, "-o", target)
    assert run.code == 0, run.err
    exported = target.read_text()
    # The drawing that prints the solution keeps the layout: fenced if the file was.
    assert without_drawing(exported) == without_drawing(
        program(crossprolog.parse(example.read_text()), filename=str(target)))
    assert f"touch {marker}" not in exported and str(marker) not in exported  # module comments may say "untouched"
    done = subprocess.run([swipl(), str(target)], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = [line.rstrip() for line in done.stdout.splitlines()]
    assert all(line in lines for line in printed(example))


def test_an_export_file_name_cannot_break_out_of_its_comment(cli, tmp_path, marker):
    """The -o file name is quoted in the program's header comment; a newline in it ends nothing."""
    name = "evil\n:- initialization(shell('touch marker')).\n%.pl"
    target = tmp_path / name
    run = cli("export", EXAMPLES / "crossproduct" / "riddler-1.txt", "-o", target)
    assert run.code == 0, run.err
    exported = target.read_text()
    assert "\n:- initialization(shell" not in exported
    assert exported.splitlines()[2] == f"% Run it with: swipl {str(target).replace(chr(10), chr(92) + 'n')}"
    done = subprocess.run([swipl(), name], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "3 9 5"
    assert not (tmp_path / "marker").exists()


# The Python API


def test_the_api_treats_hostile_text_as_data(marker):
    """parse + solve / count / well_formed, the family guessed or named: payloads are inert,
    and what crosses into Prolog is numbers and a fixed vocabulary of atoms."""
    for name, (example, text) in accepted_files(marker).items():
        clean = crossprolog.parse(example.read_text())
        for family in (None, clean.family):
            puzzle = crossprolog.parse(text, family=family)
            assert puzzle == clean and puzzle.prolog_data() == clean.prolog_data()
        assert puzzle.solve().to_json() == clean.solve().to_json()
        assert puzzle.count(limit=2) == 1 and puzzle.well_formed()
        assert strings_in(puzzle.prolog_data()) <= VOCABULARY, name


def test_the_api_refuses_hostile_text_where_text_is_not_allowed(marker):
    """Every rejected text is a ParseError with a place, whether the family is named or guessed."""
    for name, text in rejected_texts(marker).items():
        family = name.split("-")[0]
        for named in (None, family):
            with pytest.raises(ParseError) as caught:
                crossprolog.parse(text, family=named)
            assert caught.value.line >= 1 and caught.value.column >= 1, name


VOCABULARY = {"+", "-", "*", "/", "=", "#", "zero", "seeds", "rows", "cols", "none",
              "cells", "lines", "kind", "value", "first_cell", "columns", "givens", "low", "high",
              "objective", "precedence", "left-to-right", "standard"}


def strings_in(data) -> set[str]:
    """Every string in `data` (dict keys too): what could reach Prolog as an atom or string."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set(data) | {s for value in data.values() for s in strings_in(value)}
    if isinstance(data, (list, tuple)):
        return {s for item in data for s in strings_in(item)}
    assert isinstance(data, int), data
    return set()
