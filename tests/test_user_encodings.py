"""Your own encoding, no package edits: --encoding-file on every command, and its errors.

Every file written here declares a module name of its own (conftest unloads
the encodings a test loaded).
"""

from __future__ import annotations

import itertools
import resource
import subprocess
import sys

import pytest

import crossprolog
from crossprolog import CrossProduct, engine
from crossprolog.compare import compare
from crossprolog.encoding_files import MAX_ENCODING_BYTES

from conftest import EXAMPLES

DIVISORS = EXAMPLES / "encodings" / "divisors.pl"
EQUATIONS = EXAMPLES / "encodings" / "equations.pl"
RIDDLER = EXAMPLES / "crossproduct" / "riddler-1.txt"
PUZZLE_25 = EXAMPLES / "crosscells" / "puzzle-25.txt"
RIDDLER_SOLVED = ["3000 3969 640", "   3    9   5 135", "   5    9   1  45", "   8    1   8  64",
                  "   5    7   8 280", "   5    7   2  70"]

_names = itertools.count(1)


@pytest.fixture
def encoding_file(tmp_path):
    """Write a module file: encoding_file(body, exports="[model/3]") -> (path, module name)."""

    def make(body: str, exports: str = "[model/3]", header: str | None = None):
        name = f"user_encoding_{next(_names)}"
        path = tmp_path / f"{name}.pl"
        path.write_text((header or f":- module({name}, {exports}).\n") + body)
        return path, name

    return make


GRID = """\
:- use_module(library(clpfd)).
model(Puzzle, Rows, labeling([ff], Digits)) :-
    _{rows: Rs, columns: Cs} :< Puzzle,
    length(Cs, Width),
    maplist(row(Width), Rs, Rows),
    append(Rows, Digits),
    Digits ins 1..9.
row(Width, _, Row) :-
    length(Row, Width).
"""


# The worked examples


def test_the_worked_examples_solve_count_and_check(cli):
    run = cli("solve", RIDDLER, "--encoding-file", DIVISORS, "--encoding", "divisors")
    assert run.code == 0 and run.out.splitlines() == RIDDLER_SOLVED
    run = cli("count", PUZZLE_25, "--encoding-file", EQUATIONS, "--encoding", "equations")
    assert run.code == 0 and run.out.strip() == "1 solution"
    run = cli("check", PUZZLE_25, RIDDLER, "--encoding-file", EQUATIONS, "--encoding-file", DIVISORS,
              "--encoding", "equations")
    assert run.code == 2 and "is for crosscells puzzles, not crossproduct" in run.err


def test_the_worked_examples_agree_with_every_built_in_encoding():
    for path, example in ((RIDDLER, DIVISORS), (PUZZLE_25, EQUATIONS)):
        name = engine.load_encoding(str(example))
        puzzle = crossprolog.parse(path.read_text())
        assert name in engine.user_encodings(puzzle.family)  # so compare runs it by default
        runs = compare(puzzle, engine.encodings(puzzle.family) + [name], repeat=1)
        assert [run.agrees for run in runs] == [True] * len(runs)


def test_a_user_encoding_runs_in_worker_processes(cli, tmp_path):
    run = cli("solve", RIDDLER, EXAMPLES / "crossproduct" / "givens.txt", "--jobs", "2",
              "--encoding-file", DIVISORS, "--encoding", "divisors", "--format", "json")
    assert run.code == 0, run.err
    assert [record["status"] for record in run.jsonl()] == ["solved", "solved"]


def test_a_user_encoding_with_no_family_applies_to_any_puzzle(encoding_file):
    path, name = encoding_file(GRID)
    assert engine.load_encoding(str(path)) == name
    assert name in engine.user_encodings("crossproduct") and name in engine.user_encodings("kenken")
    assert CrossProduct((6,), (2, 3)).count(encoding=name) == 9 * 9  # no constraints but the digits


def test_loading_a_file_twice_loads_it_once():
    assert engine.load_encoding(str(DIVISORS)) == engine.load_encoding(str(DIVISORS)) == "divisors"


# Errors in a user's file: one line naming the file, exit 2, nothing left loaded


def loaded(module: str) -> bool:
    """Whether anything of `module` stays loaded: a file, or model/3."""
    answer = engine.call("( module_property(M, file(_)) -> T = yes "
                         "; current_predicate(M:model/3) -> T = yes ; T = no )", {"M": module})
    return answer["T"] == "yes"


def refused(cli, path, *command) -> str:
    """The message of a command refusing the encoding file at `path` (exit 2, one line)."""
    run = cli(*(command or ("solve", RIDDLER)), "--encoding-file", path)
    assert run.code == 2 and run.out == ""
    [line] = run.err.splitlines()
    assert "Traceback" not in line and str(path) in line
    return line


def test_a_syntax_error_names_the_file_and_line_and_leaves_nothing_loaded(cli, encoding_file):
    path, name = encoding_file("model(P, S, L) :-\n    foo(P, S, L.\n")
    assert refused(cli, path) == f"crossprolog: error: {path}:3: Syntax error: Operator expected"
    assert not loaded(name)
    path.write_text(path.read_text().replace("L.\n", "L).\nfoo(_, [], true).\n"))
    assert engine.load_encoding(str(path)) == name and loaded(name)


@pytest.mark.parametrize("body, exports, message", [
    ("model(_, S, true) :- X = 1.\n", "[model/3]", ":2: Singleton variables: [S,X]"),
    ("model(_, [], true).\n", "[]", ":1: the module {name} does not export model/3"),
    ("model(_, [], true).\n", "[model/2]", ": Exported procedure {name}:model/2 is not defined"),
    (":- no_such_goal.\nmodel(_, [], true).\n", "[model/3]", ":2: Unknown procedure: {name}:no_such_goal/0"),
    ("model(_, [], true).\nfamily(nonogram).\n", "[model/3, family/1]",
     ": family/1 of {name} must name one family: crossproduct, crosscells, sudoku, kenken, killer_sudoku, kakuro"),
])
def test_a_file_that_does_not_load_cleanly_is_refused(cli, encoding_file, body, exports, message):
    path, name = encoding_file(body, exports)
    assert refused(cli, path).endswith(f"{path}{message.format(name=name)}")
    assert not loaded(name)
    # in JSON, a record too (there was none)
    run = cli("solve", RIDDLER, "--encoding-file", path, "--format", "json")
    assert run.code == 2 and run.json() == {"status": "error", "error": f"{path}{message.format(name=name)}"}


@pytest.mark.parametrize("header, message", [
    (":- module(restarts, [model/3]).\n", "the module name restarts is crossprolog's own: rename the module"),
    (":- module(primes, [model/3]).\n", "the module name primes is crossprolog's own: rename the module"),
    (":- module(asp, [model/3]).\n", "the module name asp is crossprolog's own: rename the module"),
    (":- module(minizinc, [model/3]).\n", "the module name minizinc is crossprolog's own: rename the module"),
    (":- module(lists, [model/3]).\n", "lists is the name of a SWI-Prolog library module: rename the module"),
    ("model(_, [], true).\n", "not a module file: it must begin with :- module(Name, [model/3])"),
])
def test_a_module_name_crossprolog_or_prolog_holds_is_refused(cli, encoding_file, header, message):
    path, _ = encoding_file("model(_, [], true).\n", header=header)
    assert refused(cli, path).endswith(f"{path}:1: {message}")


def test_a_module_name_another_file_holds_is_refused(cli, encoding_file, tmp_path):
    path, name = encoding_file(GRID)
    engine.load_encoding(str(path))
    other = tmp_path / "other.pl"
    other.write_text(path.read_text())
    assert refused(cli, other).endswith(f"a module named {name} is already loaded, from {path}: "
                                        "rename the module")


def test_a_module_name_a_users_asp_or_minizinc_encoding_holds_is_refused(cli, encoding_file, tmp_path):
    """Loaded after the ASP file that holds its name, it was accepted, then never run."""
    asp = EXAMPLES / "encodings" / "powers_lp.lp"
    engine.load_encoding(str(asp))
    path, _ = encoding_file("model(_, [], true).\n", header=":- module(powers_lp, [model/3]).\n")
    assert refused(cli, path).endswith(f"{path}:1: an encoding named powers_lp is already loaded, "
                                       f"from {asp}: rename the module")


def test_a_missing_file_is_refused(cli, tmp_path):
    assert refused(cli, tmp_path / "nowhere.pl").endswith("nowhere.pl: no such file")


@pytest.mark.parametrize("content, where", [(b"abc \xff def.\n", "1:5: byte 0xff"),
                                            (b"\x7fELF\x02\x01\x01\x00" * 3 + b"\xd0", "1:25: byte 0xd0")])
def test_a_file_that_is_not_utf8_is_one_line_where_it_is_not(tmp_path, content, where):
    """Prolog warned of each byte that was not UTF-8 on lines of its own, then said
    "Syntax error: Operator expected" (or of a binary file, "Unexpected end of file")."""
    path = tmp_path / "bytes.pl"
    path.write_bytes(content)
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(RIDDLER), "--encoding-file",
                           str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"crossprolog: error: {path}:{where} is not UTF-8 text\n"


@pytest.mark.parametrize("suffix", [".pl", ".lp", ".mzn"])
def test_a_file_too_big_is_refused_unread_whatever_its_paradigm(tmp_path, suffix):
    """A link to /dev/zero was read until the system ended the process (24 GB): a
    process of its own here, its memory bounded, should the file be read whole."""
    big, zero = tmp_path / f"big{suffix}", tmp_path / f"zero{suffix}"
    big.write_text("%" * MAX_ENCODING_BYTES + "\n")
    zero.symlink_to("/dev/zero")
    for path, message in ((big, f"{big}: the file has more than 4,000,000 bytes: too big for an encoding"),
                          (zero, f"{zero}: cannot read the file" if suffix == ".pl"
                           else f"{zero}: the file has more than 4,000,000 bytes")):
        done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(RIDDLER), "--encoding-file",
                               str(path), "--encoding", path.stem], capture_output=True, text=True, timeout=120,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)))
        assert done.returncode == 2 and done.stderr.startswith(f"crossprolog: error: {message}"), done.stderr
        assert len(done.stderr.splitlines()) == 1


# Errors of a user's labeling, at run time: named, exit 2


@pytest.mark.parametrize("labeling, message", [
    ("true", "its labeling left variables unbound"),
    ("(Digits = [D|_], D = 1)", "its labeling left variables unbound"),
])
def test_a_labeling_that_leaves_variables_unbound_is_an_error(cli, encoding_file, labeling, message):
    path, name = encoding_file(GRID.replace("labeling([ff], Digits)", labeling))
    for command in ("solve", "count", "check"):
        run = cli(command, RIDDLER, "--encoding-file", path, "--encoding", name)
        assert run.code == 2, command
        assert run.err.startswith(f"{RIDDLER}: error: {path}: encoding {name}: {message}")


def test_an_answer_of_the_wrong_shape_is_an_error(cli, encoding_file):
    path, name = encoding_file("model(_, [[1, 2], [3]], true).\n")
    run = cli("count", RIDDLER, "--encoding-file", path, "--encoding", name)
    assert run.code == 2
    assert (f"{path}: encoding {name}: its solution is not a list of 5 lists of 3 integers: "
            "[[1,2],[3]]") in run.err


def test_an_answer_holding_an_integer_no_puzzle_states_is_an_error(cli, encoding_file):
    """A cell of 10^100000 was a traceback: Python prints no integer of over 4,300 digits."""
    path, name = encoding_file("model(_, Rows, true) :- X is 10^100000,\n"
                               "    length(Rows, 5), maplist([R]>>(R = [X, 1, 1]), Rows).\n")
    for command in ("solve", "count", "check"):
        run = cli(command, RIDDLER, "--encoding-file", path, "--encoding", name)
        assert run.code == 2 and "Traceback" not in run.err, command
        assert (f"{path}: encoding {name}: its solution holds an integer of about 100000 digits, "
                "more than a puzzle states") in run.err


def test_an_exception_in_a_user_encoding_names_its_file(cli, encoding_file):
    path, name = encoding_file("model(_, _, _) :- atom_length(_, _).\n")
    run = cli("solve", RIDDLER, "--encoding-file", path, "--encoding", name)
    assert run.code == 2
    assert f"{path}: encoding {name} raised an error: atom_length/2: Arguments are not sufficiently instantiated" in run.err


def test_a_wrong_answer_shows_in_compares_agreement(cli, encoding_file):
    """A labeling that ignores the products gives the wrong grids: compare says NO, exit 1."""
    path, name = encoding_file(GRID)
    run = cli("compare", RIDDLER, "--encoding-file", path, "--encodings", f"auto,{name}", "--repeat", "1")
    assert run.code == 1
    assert [line.split()[-1] for line in run.out.splitlines()[1:]] == ["yes", "NO"]


@pytest.mark.parametrize("command", ["solve", "check", "hint"])
def test_a_model_that_fails_is_no_solution_and_no_clue_to_blame(cli, encoding_file, command):
    """No clue is to blame when the encoding fails without any (it used to be an IndexError)."""
    path, name = encoding_file("model(_, _, _) :- fail.\n")
    run = cli(command, RIDDLER, "--encoding-file", path, "--encoding", name)
    assert run.code == 1 and run.err == ""
    assert ("no clue is to blame: the encoding finds no solution even with every clue left out"
            in run.out.splitlines()[0])
    run = cli(command, RIDDLER, "--encoding-file", path, "--encoding", name, "--format", "json")
    assert run.code == 1 and run.json()["conflict"] == []


@pytest.mark.parametrize("suffix, text", [(".lp", ":- #true.\n"),
                                          (".mzn", "array[1..1] of var 1..9: solution;\nconstraint false;\n")])
@pytest.mark.parametrize("puzzle", [RIDDLER, EXAMPLES / "kenken" / "issue-4x4.txt", EXAMPLES / "kakuro" / "tiny.txt"])
def test_an_asp_or_minizinc_file_that_finds_nothing_has_no_clue_to_blame(cli, tmp_path, suffix, text, puzzle):
    """The clues were tried on the family's Prolog encoding, which solves the puzzle:
    every clue was blamed, to be retyped as it reads ("with row 1 (135) instead")."""
    path = tmp_path / f"never_{suffix[1:]}{suffix}"
    path.write_text(text)
    run = cli("solve", puzzle, "--encoding-file", path, "--encoding", path.stem)
    assert run.code == 1 and run.out.splitlines()[0] == ("no solution: no clue is to blame: the encoding finds "
                                                         "no solution even with every clue left out"), run.out
    run = cli("solve", puzzle, "--encoding-file", path, "--encoding", path.stem, "--format", "json")
    assert run.code == 1 and run.json()["conflict"] == [] and "blame" not in run.json()


def test_no_clue_is_retyped_as_it_reads():
    """Told a puzzle that has a solution has none, blame named every clue, each to be read
    as it stands."""
    from crossprolog import blame

    assert blame.typos(crossprolog.parse(RIDDLER.read_text()), unsolvable=True) == ()


@pytest.mark.parametrize("text, options, solved", [
    ("+1 +2 *4 +2 =14\n", {"precedence": "standard"}, False),   # 1 + 2*4 + 2 is 11
    ("+1 +2 *4 +2 =11\n", {"precedence": "standard"}, True),
    ("+1 +2 *4 +2 =14\n", {}, True),                            # ((1+2)*4)+2
    ("*3 +2 =5\n", {"first_cell": "seeds"}, True),                # 3 seeds the value
    ((EXAMPLES / "crosscells" / "remainder.txt").read_text(), {}, True),
    ((EXAMPLES / "crosscells" / "precedence.txt").read_text(), {}, True),
])
def test_the_equations_example_follows_every_rule(text, options, solved):
    """It ignored `precedence: standard` and had no `%` (issue 26)."""
    name = engine.load_encoding(str(EQUATIONS))
    puzzle = crossprolog.parse(text, family="crosscells", **options)
    assert (puzzle.solve(encoding=name) is not None) == solved
    assert puzzle.count(encoding=name) == puzzle.count()
