"""The asp and minizinc encodings on the command line: solve, count, check, compare and
export with them, a user's .lp and .mzn files and their errors, time limits, Ctrl-C
and a missing solver.  Real clingo and minizinc throughout."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import EMPTY_SUDOKU, EXAMPLES

RIDDLER = EXAMPLES / "crossproduct" / "riddler-1.txt"
PUZZLE_25 = EXAMPLES / "crosscells" / "puzzle-25.txt"
KENKEN = EXAMPLES / "kenken" / "issue-4x4.txt"
GCD = EXAMPLES / "sudoku" / "gcd-2025-01.txt"
PARADIGMS = ["asp", "minizinc"]

# A user's own CrossProduct encodings, in each language (examples/encodings/).
MINE_LP = (EXAMPLES / "encodings" / "powers_lp.lp").read_text(encoding="utf-8")
MINE_MZN = (EXAMPLES / "encodings" / "powers_mzn.mzn").read_text(encoding="utf-8")
RIDDLER_SOLVED = "3000 3969 640\n   3    9   5 135\n   5    9   1  45\n   8    1   8  64\n" \
                 "   5    7   8 280\n   5    7   2  70\n"


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_solve_count_and_check_answer_as_the_default_does(cli, encoding):
    for path in (RIDDLER, PUZZLE_25, KENKEN):
        default = cli("solve", path, "--format", "json").json()
        found = cli("solve", path, "--format", "json", "--encoding", encoding)
        assert found.code == 0 and found.json()["solution"] == default["solution"], path
    assert cli("solve", RIDDLER, "--encoding", encoding).out == RIDDLER_SOLVED
    assert cli("count", PUZZLE_25, "--encoding", encoding).out == "1 solution\n"
    assert cli("check", KENKEN, "--encoding", encoding).out == "well-formed: exactly one solution\n"


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_count_stops_at_its_limit_and_check_draws_two_solutions(cli, write, encoding):
    loose = write(PUZZLE_25.read_text(encoding="utf-8").replace("a#6", ""))
    counted = cli("count", loose, "--encoding", encoding, "--limit", "1", "--format", "json").json()
    default = cli("count", loose, "--limit", "1", "--format", "json").json()
    assert counted["count"] == 1 and not counted["complete"]
    assert {**counted, "seconds": 0} == {**default, "seconds": 0}
    checked = cli("check", loose, "--encoding", encoding)
    assert checked.code == 1 and "differing at 6 cells" in checked.out


def test_a_puzzle_without_solution_is_explained_whatever_the_encoding(cli, write):
    typo = write(RIDDLER.read_text(encoding="utf-8").replace(" 70", " 71"))
    for encoding in PARADIGMS:
        found = cli("solve", typo, "--encoding", encoding)
        assert found.code == 1 and "row 5 (71) is likely mistyped" in found.out


def test_compare_puts_every_paradigm_in_one_table_with_its_own_counters(cli):
    found = cli("compare", RIDDLER, KENKEN, "--repeat", "1")
    lines = found.out.splitlines()
    assert found.code == 0
    header = lines[0].split()
    assert header[header.index("propagated") + 1:] == ["conflicts", "nodes", "failures", "solutions",
                                                       "agrees"]
    rows = {(row.split()[0], row.split()[1]): dict(zip(header, row.split())) for row in lines[1:] if row.strip()}
    for path in (RIDDLER, KENKEN):
        key = str(path)
        asp, mzn = rows[key, "asp"], rows[key, "minizinc"]
        assert asp["agrees"] == mzn["agrees"] == "yes"
        assert asp["inferences"] == "-" and asp["conflicts"] != "-" and asp["nodes"] == "-"
        assert mzn["nodes"] != "-" and mzn["failures"] != "-" and mzn["conflicts"] == "-"
    assert any(line.split()[:2] == ["kenken", "minizinc"] for line in lines)  # the summary


def test_compare_as_json_keeps_the_counters(cli):
    records = cli("compare", KENKEN, "--encodings", "candidates,asp,minizinc", "--repeat", "1",
                  "--format", "json").jsonl()
    by = {r["encoding"]: r for r in records if r["record"] == "run"}
    assert by["asp"]["conflicts"] is not None and by["asp"]["inferences"] is None
    assert by["minizinc"]["nodes"] is not None and by["candidates"]["nodes"] is None


def test_a_paradigm_run_timed_out_before_its_solver_reported_shows_its_counters_unknown_not_zero(cli):
    """Within a microsecond clingo is still grounding and minizinc has not begun: no
    search was counted, so the counters are `-` (null), as a timed-out Prolog run's
    are, not 0; the solvers' columns still show."""
    found = cli("compare", RIDDLER, "--encodings", "asp,minizinc", "--timeout", "0.000001", "--repeat", "1")
    header, *rows = [line.split() for line in found.out.splitlines()]
    assert found.code == 0 and header[header.index("propagated") + 1:] == [
        "conflicts", "nodes", "failures", "solutions", "agrees"]
    counters = ["choices", "conflicts", "nodes", "failures"]
    assert [[row[1], row[2]] + [row[header.index(name)] for name in counters] for row in rows] == [
        ["asp", "timeout", "-", "-", "-", "-"], ["minizinc", "timeout", "-", "-", "-", "-"]]
    records = cli("compare", RIDDLER, "--encodings", "asp,minizinc", "--timeout", "0.000001",
                  "--repeat", "1", "--format", "json").jsonl()
    assert [(r["status"], *(r[name] for name in counters)) for r in records if r["record"] == "run"] == [
        ("timeout", None, None, None, None)] * 2


def test_unknown_encodings_list_the_paradigms_beside_the_prolog_ones(cli):
    found = cli("solve", KENKEN, "--encoding", "nope")
    assert found.code == 2 and "candidates, tables, arithmetic, asp, minizinc" in found.err


@pytest.mark.parametrize("suffix, text", [(".lp", MINE_LP), (".mzn", MINE_MZN)])
def test_a_users_file_solves_counts_checks_and_compares(cli, tmp_path, suffix, text):
    path = tmp_path / f"mine{suffix}"
    path.write_text(text, encoding="utf-8")
    solved = cli("solve", RIDDLER, "--encoding-file", path, "--encoding", "mine")
    assert solved.code == 0 and solved.out == RIDDLER_SOLVED
    assert cli("count", RIDDLER, "--encoding-file", path, "--encoding", "mine").out == "1 solution\n"
    compared = cli("compare", RIDDLER, "--encoding-file", path, "--encodings", "auto,mine",
                   "--repeat", "1")
    assert compared.code == 0 and compared.out.splitlines()[2].split()[1:3] == ["mine", "complete"]
    other = cli("solve", KENKEN, "--encoding-file", path, "--encoding", "mine")
    assert other.code == 2 and "is for crossproduct puzzles, not kenken" in other.err


@pytest.mark.parametrize("suffix, text, message", [
    (".lp", "a :- b\nc.\n", "broken.lp:2:1-2: error: syntax error"),
    (".mzn", "array[1..2] of var 1..3: solution;\nconstraint foo = 2;\n", "broken.mzn:2: undefined identifier"),
    (".mzn", "var 1..3: x;\nsolve maximize x;\n", "broken.mzn: the model declares no `solution`"),
    (".mzn", "array[1..1] of var 1..3: solution;\nsolve maximize solution[1];\n", "solves `satisfy`"),
    (".lp", "% family: chess\n", "names no family"),
])
def test_a_broken_file_is_one_line_naming_it(cli, tmp_path, suffix, text, message):
    path = tmp_path / f"broken{suffix}"
    path.write_text(text, encoding="utf-8")
    found = cli("solve", RIDDLER, "--encoding-file", path, "--encoding", "broken")
    assert found.code == 2 and message in found.err and len(found.err.splitlines()) == 1
    assert found.err.startswith("crossprolog: error: ") and str(path) in found.err


def run_command(*args) -> subprocess.CompletedProcess:
    """crossprolog in a process of its own: clingo's Python package ended the process
    (os._exit) on a message it could not decode."""
    return subprocess.run([sys.executable, "-m", "crossprolog", *map(str, args)], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("text, place", [
    ("a :- é.\n", "1:6: error: lexer error, unexpected é: ASP takes characters other than ASCII in "
                   "strings and comments only"),
    ('% é, in a comment\na("é").\n%* é *%\nb :- c, üü.\n', "4:9: error: lexer error, unexpected ü: ASP"),
    ('a :- "é\nb".\n', '1:6: error: lexer error, unexpected "é'),
    ("\ufeffa :- b\nc.\n", "2:1-2: error: syntax error"),
])
def test_a_character_clingo_cannot_read_is_one_line_naming_its_place(tmp_path, text, place):
    """clingo quoted one byte of the character: a traceback, "PANIC: exception in nothrow
    scope", exit 1."""
    path = tmp_path / "odd.lp"
    path.write_text(text, encoding="utf-8")
    done = run_command("solve", RIDDLER, "--encoding-file", path, "--encoding", "odd")
    assert done.returncode == 2 and done.stderr.startswith(f"crossprolog: error: {path}:{place}"), done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_a_byte_order_mark_is_left_out_of_an_asp_file_and_named_in_a_minizinc_one(tmp_path):
    lp, mzn = tmp_path / "marked_lp.lp", tmp_path / "marked_mzn.mzn"
    lp.write_text("\ufeff" + MINE_LP, encoding="utf-8")
    mzn.write_text("\ufeff" + MINE_MZN, encoding="utf-8")
    for command in ("solve", "export"):
        done = run_command(command, RIDDLER, "--encoding-file", lp, "--encoding", "marked_lp")
        assert done.returncode == 0 and "\ufeff" not in done.stdout, done.stderr
    assert MINE_LP.rstrip("\n") in done.stdout  # the program, as it is
    done = run_command("solve", RIDDLER, "--encoding-file", lp, "--encoding", "marked_lp")
    assert done.stdout == RIDDLER_SOLVED
    done = run_command("solve", RIDDLER, "--encoding-file", mzn, "--encoding", "marked_mzn")
    assert done.returncode == 2 and done.stderr == (f"crossprolog: error: {mzn}:1: it begins with a byte-order "
                                                    "mark, which minizinc cannot read: save it as UTF-8 without one\n")


@pytest.mark.parametrize("suffix, text, message", [
    (".lp", "shown(1).\n#show shown/1.\n", "it shows shown(1): show only solution(Path..., Value) atoms"),
    (".lp", "solution(0, 0, 1).\n", "no value for solution(0, 1, _)"),
    (".mzn", "array[1..1, 1..1] of var 1..9: solution;\n", "its solution is not of the puzzle's shape"),
])
def test_an_answer_of_another_shape_is_one_line_naming_the_file(cli, tmp_path, suffix, text, message):
    path = tmp_path / f"odd{suffix}"
    path.write_text(text, encoding="utf-8")
    found = cli("solve", RIDDLER, "--encoding-file", path, "--encoding", "odd")
    assert found.code == 2 and message in found.err, found.err
    assert len(found.err.splitlines()) == 1 and f"odd{suffix}" in found.err


def test_an_encoding_of_another_kind_than_the_format_is_named_in_good_english(cli):
    """It said "writes an minizinc encoding"."""
    for format, encoding, written in (("mzn", "asp", "a MiniZinc model"), ("lp", "lines", "an ASP program")):
        run = cli("export", RIDDLER, "--format", format, "--encoding", encoding)
        assert (run.code, run.err) == (2, f"crossprolog: error: --format {format} writes {written}, "
                                          f"and {encoding} is not one\n")


def clingo_command() -> list[str]:
    """A plain clingo: the program if installed, else the one clingo's Python package runs."""
    return [shutil.which("clingo")] if shutil.which("clingo") else [sys.executable, "-m", "clingo"]


@pytest.mark.parametrize("path", [RIDDLER, PUZZLE_25, KENKEN])
def test_export_as_asp_runs_with_plain_clingo_elsewhere(cli, tmp_path, path):
    program = tmp_path / "elsewhere" / "puzzle.lp"
    program.parent.mkdir()
    assert cli("export", path, "--format", "lp", "-o", program).code == 0
    done = subprocess.run(clingo_command() + ["0", program.name], cwd=program.parent,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "HOME": "/nowhere"})
    assert "SATISFIABLE" in done.stdout and "UNSATISFIABLE" not in done.stdout
    [answer] = [line for line in done.stdout.splitlines() if line.startswith("solution(")]
    expected = cli("solve", path, "--format", "json").json()["solution"]
    atoms = sorted(tuple(map(int, atom[len("solution("):-1].split(","))) for atom in answer.split())
    if path == PUZZLE_25:  # one 0/1 per cell, in reading order: its rows one after another
        expected = [[on for row in expected for on in row]]
        atoms = [(0, *atom) for atom in atoms]
    assert [v for *_, v in atoms] == [v for row in expected for v in row]


@pytest.mark.parametrize("path", [RIDDLER, GCD])
def test_export_as_minizinc_runs_with_plain_minizinc_elsewhere(cli, tmp_path, path):
    model = tmp_path / "elsewhere" / "puzzle.mzn"
    model.parent.mkdir()
    assert cli("export", path, "--encoding", "minizinc", "-o", model).code == 0
    done = subprocess.run(["minizinc", model.name], cwd=model.parent, capture_output=True, text=True,
                          timeout=120)
    expected = cli("solve", path, "--format", "json").json()["solution"]
    printed = [line.split() for line in done.stdout.splitlines() if line and line[0].isdigit()]
    assert printed == [[str(v) for v in row] for row in expected]


def test_export_of_ones_own_minizinc_model_runs_with_plain_minizinc(cli, tmp_path):
    """The data went out whole, as assignments: an item the model leaves undeclared (the
    example's row_kind, col_kind) is an error there ("undefined identifier"), though as
    the JSON data a search hands over it is left unread."""
    model = tmp_path / "elsewhere" / "puzzle.mzn"
    model.parent.mkdir()
    mine = EXAMPLES / "encodings" / "powers_mzn.mzn"
    assert cli("export", RIDDLER, "--encoding-file", mine, "--encoding", "powers_mzn", "--format", "mzn",
               "-o", model).code == 0
    assert "row_kind =" not in model.read_text() and "row_exponents =" in model.read_text()
    done = subprocess.run(["minizinc", model.name], cwd=model.parent, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    expected = cli("solve", RIDDLER, "--format", "json").json()["solution"]
    printed = re.findall(r"\d+", done.stdout.split("solution =", 1)[1].split("----------")[0])
    assert printed == [str(v) for row in expected for v in row]


def test_export_says_what_it_cannot_write(cli):
    gcd = cli("export", GCD, "--format", "lp")
    assert gcd.code == 2 and "exported as MiniZinc" in gcd.err
    assert cli("export", RIDDLER, "--format", "lp", "--readable").code == 2
    assert cli("export", RIDDLER, "--format", "pl", "--encoding", "asp").code == 2


def test_exported_facts_hold_only_numbers_and_crossprologs_names(cli, write):
    """A CrossCells puzzle's group letters and comments never reach the program."""
    hostile = write("# \"). #script (python) import os #end.\n+1a  +2   =3\nx#1\n"
                    .replace("x#1", "a#1"))
    text = cli("export", hostile, "--format", "lp").out
    facts = text.split("% The puzzle, as facts.\n")[1]
    assert "script" not in facts and '"' not in facts and "os" not in facts


def crossprolog(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "crossprolog", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_a_time_limit_ends_a_search_no_machine_finishes(write, encoding):
    started = time.monotonic()
    process = crossprolog("count", write(EMPTY_SUDOKU), "--encoding", encoding, "--timeout", "2")
    out, err = process.communicate(timeout=30)
    assert process.returncode == 3 and "time limit of 2 s reached" in out, (out, err)
    assert time.monotonic() - started < 6 and "Traceback" not in err


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_ctrl_c_stops_a_search_at_once(write, encoding):
    process = crossprolog("count", write(EMPTY_SUDOKU), "--encoding", encoding)
    time.sleep(3)
    stopped = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=15)
    assert process.returncode == 130 and "interrupted" in out + err, (out, err)
    assert time.monotonic() - stopped < 3 and "Traceback" not in err


def test_a_minizinc_model_that_writes_much_on_standard_error_is_still_heard(tmp_path):
    """trace/2 writes 4 MB on minizinc's standard error, which a pipe read only once it
    ended could not hold: minizinc waited to write, and solve for its answer, for ever."""
    path = tmp_path / "traced.mzn"
    path.write_text(MINE_MZN + 'constraint trace(concat([show(i) ++ " a line of tracing, '
                    'forty characters\\n" | i in 1..100000]), true);\n')
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(RIDDLER), "--encoding-file",
                           str(path), "--encoding", "traced"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.splitlines()[1].split() == ["3", "9", "5", "135"]


def test_a_minizinc_model_with_a_free_variable_beside_the_solution_is_an_error_naming_it(cli, tmp_path):
    """MiniZinc gave each grid three times (once per value of `junk`): check called the
    puzzle ambiguous, with two solutions that were the same."""
    path = tmp_path / "junk.mzn"
    path.write_text(MINE_MZN + "var 1..3: junk;\n")
    for command in (("check",), ("solve", "--all")):  # kept, and streamed one by one
        run = cli(*command, RIDDLER, "--encoding-file", path, "--encoding", "junk")
        assert run.code == 2 and run.err.strip().endswith(
            f"{path}: it gives the same solution twice: a variable other than `solution` is free "
            "(MiniZinc enumerates every variable); fix each by the solution"), command


def test_a_missing_minizinc_says_what_to_install(write):
    bin_only = Path(sys.executable).parent  # the virtualenv's programs, not /usr/bin's minizinc
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(RIDDLER), "--encoding",
                           "minizinc"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": str(bin_only)})
    assert done.returncode == 2 and "apt-get install minizinc" in done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("encoding", PARADIGMS)
def test_batches_in_worker_processes_and_hints(cli, tmp_path, encoding):
    out = tmp_path / "records.jsonl"
    found = cli("solve", RIDDLER, PUZZLE_25, KENKEN, "--jobs", "2", "--encoding", encoding, "--out", out)
    assert found.code == 0 and found.out.endswith("3 records (3 solved)\n")
    assert cli("hint", KENKEN, "--encoding", encoding).out == cli("hint", KENKEN).out


def test_a_users_file_runs_in_worker_processes(cli, tmp_path):
    path = tmp_path / "mine.lp"
    path.write_text(MINE_LP, encoding="utf-8")
    riddlers = [EXAMPLES / "crossproduct" / name for name in ("riddler-1.txt", "riddler-2.md")]
    found = cli("count", *riddlers, "--jobs", "2", "--encoding-file", path, "--encoding", "mine",
                "--format", "json")
    assert found.code == 0 and [r["count"] for r in found.jsonl()] == [1, 1]


def test_answers_that_come_at_once_do_not_outrun_the_time_limit():
    """clingo read the clock only while it waited for an answer: a grid of zeros, whose
    answers come at once (10^9 of them), counted on past its limit for as long as it
    took (`compare`, which has no watchdog, ran until it was killed)."""
    from crossprolog.crossproduct import CrossProduct

    zeros = CrossProduct((0, 0, 0), (0, 0, 0), zero=True)
    started = time.monotonic()
    found = zeros.search(limit=0, timeout=1, encoding="asp", keep=False)
    assert found.status == "timeout" and found.count > 0
    assert time.monotonic() - started < 10
