"""`export`: one file that runs with plain `swipl` anywhere, as the encoding's module or as
the puzzle's own constraints written out, printing the solution in the puzzle's layout."""

from __future__ import annotations

import math
import os
import re
import subprocess
from pathlib import Path

import pytest

import crossprolog
from crossprolog import engine
from crossprolog.crossproduct import random_puzzles
from crossprolog.export import program, readable

from conftest import EXAMPLES
from test_encodings import swipl

DIVISORS = EXAMPLES / "encodings" / "divisors.pl"
EQUATIONS = EXAMPLES / "encodings" / "equations.pl"


def run_anywhere(text: str, tmp_path: Path, locale: str | None = None) -> subprocess.CompletedProcess:
    """Run the program `text` with plain swipl from an empty directory, HOME elsewhere
    (and LC_ALL `locale`, if given)."""
    directory, home = tmp_path / "empty", tmp_path / "home"
    directory.mkdir(parents=True)
    home.mkdir()
    (directory / "program.pl").write_text(text, encoding="utf-8")
    return subprocess.run([swipl(), "program.pl"], cwd=directory, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "HOME": str(home), **({"LC_ALL": locale} if locale else {})})


def expected(path: Path) -> list[str]:
    """What an exported program prints: a CrossCells drawing as `solve` draws it, the
    rows of a grid."""
    puzzle = crossprolog.parse(path.read_text())
    if puzzle.family == "crosscells":
        return str(puzzle.solve()).splitlines()
    return [" ".join(map(str, row)) for row in puzzle.solve().to_json()]


# SWI-Prolog's own farewell when halt meets its garbage collector mid-sweep on a busy
# machine; it says nothing about the program.
GC_AT_HALT = "% The following threads wouldn't die: [gc]\n"


def printed(done: subprocess.CompletedProcess) -> list[str]:
    assert done.returncode == 0 and done.stderr.replace(GC_AT_HALT, "") == "", done.stderr
    return [line.rstrip() for line in done.stdout.splitlines()]


PUZZLES = [EXAMPLES / "crossproduct" / "riddler-1.txt", EXAMPLES / "crossproduct" / "givens.txt",
           EXAMPLES / "crosscells" / "puzzle-25.txt", EXAMPLES / "crosscells" / "ragged.txt",
           EXAMPLES / "crosscells" / "both-ends.txt", EXAMPLES / "sudoku" / "ai-escargot.txt",
           EXAMPLES / "kenken" / "issue-4x4.txt"]


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_the_program_runs_anywhere_and_prints_in_the_puzzles_layout(tmp_path, path):
    text = program(crossprolog.parse(path.read_text()))
    assert printed(run_anywhere(text, tmp_path)) == expected(path)
    assert not re.search(r"^:- use_module\((?!library\()", text, re.MULTILINE)  # SWI-Prolog's only


@pytest.mark.parametrize("path", [EXAMPLES / "crosscells" / "both-ends.txt", EXAMPLES / "sudoku" / "ai-escargot.txt"],
                         ids=lambda p: p.name)
def test_the_program_runs_in_a_locale_that_is_not_utf8(tmp_path, path):
    """Read as the C locale's text, the \u00d7 of a CrossCells cell (and of comments of
    Sudoku's module) warned 'Illegal multibyte Sequence', and the cell printed as two
    replacement characters: the program says it is UTF-8.  Printed in the C locale, a
    sign beyond ASCII is escaped, as swipl escapes it."""
    for text in (program(crossprolog.parse(path.read_text())), readable(crossprolog.parse(path.read_text()))):
        done = run_anywhere(text, tmp_path / str(len(text)), locale="C")
        escaped = [re.sub(r"[^\x00-\x7f]", lambda sign: f"\\u{ord(sign[0]):04X}", line) for line in expected(path)]
        assert printed(done) == escaped


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_the_readable_program_runs_anywhere_and_prints_in_the_puzzles_layout(tmp_path, path):
    assert printed(run_anywhere(readable(crossprolog.parse(path.read_text())), tmp_path)) == expected(path)


def test_restarts_are_inlined_into_the_family_module(tmp_path):
    [puzzle] = random_puzzles(10, 6, 1, seed=42)
    text = program(puzzle, "restarts")
    assert text.count(":- module(") == 1 and "% restarts.pl, inlined" in text
    assert "use_module(restarts)" not in text.replace("`:- use_module(restarts).`", "")
    rows = [tuple(map(int, line.split())) for line in printed(run_anywhere(text, tmp_path))]
    assert crossprolog.CrossProduct.from_table(rows) == puzzle


KERNEL = ("grid_kept", "grid_geometry", "grid_candidates", "grid_folds", "grid_fillings", "grid_sums",
          "grid_propagation", "grid_search", "grid")
LOADS = {"grid_geometry": {"grid_kept"}, "grid_sums": {"grid_geometry", "grid_folds", "grid_fillings"},
         "grid_folds": {"grid_candidates"},
         "grid_fillings": {"grid_kept", "grid_geometry", "grid_folds"},
         "grid_propagation": {"grid_candidates", "grid_folds"},
         "grid_search": {"grid_candidates", "grid_propagation", "grid_geometry"}, "grid": set(KERNEL[:-1])}


def test_the_grid_kernel_is_inlined_whole_each_module_after_those_it_loads(tmp_path):
    """A family on the kernel loads grid.pl, which loads the kernel's other modules:
    every one is made part of the program, once, after the modules it loads (the
    state's field names compile to arg/3 only in code after their expansion), and no
    directive loads or re-exports one of them."""
    puzzle = crossprolog.parse((EXAMPLES / "kenken" / "issue-4x4.txt").read_text())
    text = program(puzzle)
    at = {name: text.index(f"% {name}.pl, inlined") for name in KERNEL}
    assert all(text.count(f"% {name}.pl, inlined") == 1 for name in KERNEL)
    assert all(at[used] < at[name] for name, uses in LOADS.items() for used in uses)
    assert not re.search(r"^:- (use_module|reexport)\((grid|restarts)", text, re.MULTILINE)
    assert printed(run_anywhere(text, tmp_path)) == expected(EXAMPLES / "kenken" / "issue-4x4.txt")


def test_the_readable_program_states_one_constraint_a_line_on_cells_named_for_their_place():
    text = readable(crossprolog.parse((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text()))
    start = text.index("\nsolution([") + 1
    body = text[start:text.index(").\n", start) + 2].splitlines()
    assert body[0] == ("solution([[R1C1, R1C2, R1C3], [R2C1, R2C2, R2C3], [R3C1, R3C2, R3C3], "
                       "[R4C1, R4C2, R4C3], [R5C1, R5C2, R5C3]]) :-")
    assert "    R1C1*R1C2*R1C3#=135," in body and "    R1C3*R2C3*R3C3*R4C3*R5C3#=640," in body
    assert "    tuples_in([[R1C1, E2_R1C1, E3_R1C1, E5_R1C1, E7_R1C1]], [[1, 0, 0, 0, 0], " in text
    assert "    E5_R1C1+E5_R1C2+E5_R1C3#=1," in text        # 135 = 3^3 * 5
    assert body[-5].startswith("    labeling([ff], [E7_R1C1, E7_R1C2,")
    assert body[-1].startswith("    labeling([ff], [R1C1, R1C2, R1C3, R2C1,")
    # head, domains, rows, columns, the digits' exponents, their sums per line and prime,
    # labeling the exponents prime by prime, then the digits
    assert len(body) == 1 + 5 + 5 + 3 + 15 + 4 * 8 + 4 + 1


@pytest.mark.parametrize("text", [
    (EXAMPLES / "crossproduct" / "notebook-10x6.txt").read_text(),
    "# zero: yes\n0 6 20\n? ? ? 0\n? ? ? 12\n? ? ? 10\n",
], ids=["notebook-10x6", "zero-digits"])
def test_the_readable_crossproduct_program_finishes_in_seconds(tmp_path, text):
    """The chains of multiplications alone ran past 120 s on the notebook's 10x6: the exponents
    of its digits, summed per line and labeled 7s first, take it well under a second of CPU."""
    puzzle = crossprolog.parse(text)
    rows = [[int(d) for d in line.split()] for line in printed(run_anywhere(readable(puzzle), tmp_path))]
    assert [math.prod(row) for row in rows] == list(puzzle.row_products)
    assert [math.prod(column) for column in zip(*rows)] == list(puzzle.column_products)


def test_the_readable_crosscells_program_writes_an_equation_a_line():
    text = readable(crossprolog.parse((EXAMPLES / "crosscells" / "both-ends.txt").read_text()))
    assert "    2*R1C1*(1+2*R1C2)-R1C3#=6,\n" in text       # +2 x3 read left to right, =6
    assert "    4*R2C2 mod (1+R2C1)#=0,\n    4*R2C2//(1+R2C1)#=4,\n" in text  # ÷2 must be exact
    assert "    R1C1+R2C1+R3C1#=2,\n" in text                # a count


def test_the_readable_sudoku_states_its_objective():
    text = readable(crossprolog.parse((EXAMPLES / "sudoku" / "gcd-2025-01.txt").read_text()))
    assert "    Row5#=100000000*R5C1+10000000*R5C2+" in text
    assert "    Row1+Row2+Row3+Row4+Row5+Row6+Row7+Row8+Row9#=(45-Unused)*111111111,\n" in text
    assert "    G in 888888888\\/814814814\\/777777777\\/" in text and "    Row9 mod G#=0,\n" in text
    assert "    labeling([down], [G]),\n    labeling([ff], [R1C1," in text


def test_a_user_encoding_exports_with_its_module_inlined(cli, tmp_path):
    for puzzle, encoding in ((EXAMPLES / "crossproduct" / "riddler-1.txt", DIVISORS),
                             (EXAMPLES / "crosscells" / "puzzle-25.txt", EQUATIONS)):
        target = tmp_path / f"{encoding.stem}-export.pl"
        run = cli("export", puzzle, "--encoding-file", encoding, "--encoding", encoding.stem, "-o", target)
        assert run.code == 0, run.err
        text = target.read_text()
        assert encoding.read_text() in text and f":- module({encoding.stem}, [model/3, family/1])." in text
        assert printed(run_anywhere(text, tmp_path / encoding.stem)) == expected(puzzle)


def test_a_module_that_defines_what_the_program_needs_is_refused(cli, tmp_path):
    path = tmp_path / "with_main.pl"
    path.write_text(":- module(with_main, [model/3]).\nmodel(_, [], true).\nmain.\n")
    run = cli("export", EXAMPLES / "crossproduct" / "riddler-1.txt", "--encoding-file", path,
              "--encoding", "with_main")
    assert run.code == 2
    assert "cannot export: the module with_main defines main/0" in run.err


def test_a_module_inlined_beside_the_encoding_that_defines_what_the_program_needs_is_refused(
        cli, tmp_path):
    """A helper the encoding loads from beside its file is inlined too, so it may not
    define what the program defines either."""
    (tmp_path / "helper.pl").write_text(":- module(helper, [step/1]).\nstep(true).\npuzzle(_).\n")
    path = tmp_path / "with_helper.pl"
    path.write_text(":- module(with_helper, [model/3]).\n:- use_module(helper).\n"
                    "model(_, [], Step) :- step(Step).\n")
    run = cli("export", EXAMPLES / "crossproduct" / "riddler-1.txt", "--encoding-file", path,
              "--encoding", "with_helper")
    assert run.code == 2
    assert "cannot export: the module helper defines puzzle/1" in run.err


def test_readable_takes_no_encoding_and_no_seeded_lines(cli, write):
    run = cli("export", EXAMPLES / "crossproduct" / "riddler-1.txt", "--readable", "--encoding", "rows")
    assert run.code == 2 and "--readable writes the puzzle's own constraints" in run.err
    for rule in ("first-cell: seeds", "precedence: standard"):
        run = cli("export", write(f"# {rule}\n+1 *2 =2\n"), "--readable")
        assert (run.code, run.err) == (2, "crossprolog: error: --readable writes each line as one "
                                          "equation, which lines started by their first ON cell "
                                          "(first-cell: seeds) or read with standard precedence are "
                                          "not; export without --readable\n")


def test_an_encoding_that_cannot_take_the_puzzle_is_refused_as_solve_refuses_it(cli, write, tmp_path):
    """rows takes digits 1-9 only: export wrote, exit 0, a program that failed with
    "Unknown message: crossprolog_usage(rows, ...)"."""
    zero = write("# zero: yes\n0 6 0\n? ? ? 0\n? ? ? 6\n")
    solved = cli("solve", zero, "--encoding", "rows")
    assert solved.code == 2 and solved.err.endswith("encoding rows: this encoding takes digits 1-9 only\n")
    out = tmp_path / "zero.pl"
    exported = cli("export", zero, "--encoding", "rows", "-o", out)
    assert exported.code == 2 and exported.err == "crossprolog: error: encoding rows: this encoding takes digits 1-9 only\n"
    assert not out.exists()
    ran = run_anywhere(cli("export", zero).out, tmp_path)  # auto takes it
    assert ran.returncode == 0 and ran.stdout.split() == ["0", "1", "0", "1", "6", "1"]


def test_the_exported_drawing_holds_no_puzzle_text_but_its_tokens():
    """A CrossCells drawing is data for the program: its texts are the cells' tokens,
    marked ON or OFF, the constraints' tokens, and blanks, quoted by Prolog."""
    puzzle = crossprolog.parse("# a comment :- halt.\n+1 +2 =3\n=1 =2\n")
    texts = {text for line in puzzle.drawing_template() for part in line
             for text in ([part] if isinstance(part, str) else [part["text"], part["off"]])}
    assert {word for text in texts for word in text.split()} == {"+1!", "+1~", "+2!", "+2~", "=3",
                                                                 "=1", "=2"}
    assert engine.user_encodings() == []


@pytest.mark.parametrize("encoding, form", [(DIVISORS, "pl"), (EXAMPLES / "encodings" / "powers_lp.lp", "lp")])
def test_a_path_with_a_line_break_stays_on_its_comment_line(cli, tmp_path, encoding, form):
    """The header named a user's encoding file as it is: a directory named with a line
    break put the rest of its name on a line of its own, as code (a directive that ran a
    shell command; facts that changed the ASP answer)."""
    directory = tmp_path / "evil\n:- initialization(halt(7)).\n#show.\n%"
    directory.mkdir()
    moved = directory / encoding.name
    moved.write_text(encoding.read_text())
    target = tmp_path / f"out.{form}"
    run = cli("export", EXAMPLES / "crossproduct" / "riddler-1.txt", "--encoding-file", moved,
              "--encoding", encoding.stem, *(["--format", form] if form != "pl" else []), "-o", target)
    assert run.code == 0, run.err
    text = target.read_text()
    assert "initialization(halt(7))" in text  # named, on the header's comment line
    assert all(line.startswith("%") or "initialization(halt(7))" not in line and "#show." != line
               for line in text.splitlines())
    if form == "pl":
        assert printed(run_anywhere(text, tmp_path / "run")) == expected(EXAMPLES / "crossproduct" / "riddler-1.txt")
