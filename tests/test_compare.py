"""`compare` as a benchmark: repeats, the search's effort, agreement on solution sets,
summaries over many puzzles, the formats, the cactus plot, the default time limit."""

from __future__ import annotations

import csv
import io
import math

import pytest

import crossprolog
from crossprolog import CrossProduct, engine, searches
from crossprolog.compare import TIMEOUT, Run, compare
from crossprolog.compare_report import summaries
from crossprolog.crossproduct import random_puzzles

from conftest import EXAMPLES

RIDDLER = EXAMPLES / "crossproduct" / "riddler-1.txt"
GIVENS = EXAMPLES / "crossproduct" / "givens.txt"
[NOTEBOOK_10X6] = random_puzzles(10, 6, 1, seed=42)
# Has more than two solutions, and the encodings' first two differ.
SEVERAL = CrossProduct((270, 32, 6, 192), (30, 1152, 288))


def test_every_run_is_timed_as_often_as_asked():
    runs = compare(crossprolog.parse(RIDDLER.read_text()), ["rows", "primes"], repeat=4)
    assert [run.repeats for run in runs] == [4, 4]
    assert all(run.seconds_min <= run.seconds <= run.seconds_max and run.cpu > 0 for run in runs)


def test_a_complete_search_undoes_every_choice_it_made():
    """Counting every solution backtracks over every choice; a search stopped at the
    limit keeps the choices of its last solution."""
    for encoding in ("rows", "primes", "exponents", "chain"):
        [complete] = compare(SEVERAL, [encoding], limit=0, repeat=1)
        assert complete.choices > 0 and complete.backtracks == complete.choices, encoding
        [stopped] = compare(SEVERAL, [encoding], limit=1, repeat=1)
        assert 0 <= stopped.backtracks < stopped.choices <= complete.choices, encoding


def test_choices_and_propagated_bindings_are_told_apart(tmp_path):
    """Two cells that differ: labeling sets the first to 1 (a choice) and propagation
    the second; then, backtracking, the first is not 1, so propagation sets both."""
    path = tmp_path / "two_cells.pl"
    path.write_text(":- module(two_cells, [model/3]).\n:- use_module(library(clpfd)).\n"
                    "model(_, [[X, Y]], labeling([], [X, Y])) :- [X, Y] ins 1..2, X #\\= Y.\n")
    engine.load_encoding(str(path))
    [run] = compare(CrossProduct((2,), (1, 2)), ["two_cells"], limit=0, repeat=1)
    assert (run.solutions, run.choices, run.backtracks, run.propagated) == (2, 1, 1, 3)


def test_a_puzzle_settled_by_propagation_takes_no_choices():
    [run] = compare(crossprolog.parse(RIDDLER.read_text()), ["primes"], repeat=1)
    assert (run.choices, run.backtracks, run.propagated) == (0, 0, 0)


def test_runs_stopped_at_the_limit_agree_on_different_but_valid_solutions():
    runs = compare(SEVERAL, ["primes", "rows", "chain"], repeat=1)
    assert [run.status for run in runs] == ["limit"] * 3
    assert [run.agrees for run in runs] == [True] * 3


# Five solutions (generate kenken --rows 5 --cols 5 --seed 11, its fourth puzzle).
KENKEN_OF_FIVE = """a b b c c
d e e f f
d d e f f
d g g h i
j g k l i
a 2
b 4+
c 20*
d 120*
e 12*
f 12+
g 40*
h 3
i 4+
j 1
k 5
l 2
"""


def test_grid_families_agree_at_the_limit_on_different_valid_solutions():
    """A run's solutions are checked under the reference's encoding, posted before they
    are put in place: the grid kernel, handed numbers, took them for no cells and
    refused every solution, so runs that were right disagreed."""
    runs = compare(crossprolog.parse(KENKEN_OF_FIVE), ["candidates", "tables", "arithmetic"], repeat=1)
    assert [(run.status, run.agrees) for run in runs] == [("limit", True)] * 3


@pytest.mark.parametrize("family", ["kenken", "killer_sudoku", "kakuro", "sudoku"])
def test_each_encoding_accepts_a_solution_and_refuses_it_with_a_digit_changed(family):
    example = {"kenken": "random-6x6", "killer_sudoku": "random-6x6", "kakuro": "tiny",
               "sudoku": "platinum-blonde"}[family]
    puzzle = crossprolog.parse((EXAMPLES / family / f"{example}.txt").read_text())
    answer = puzzle.solve().to_json()
    row, column = next((r, c) for r, line in enumerate(answer) for c, value in enumerate(line)
                       if isinstance(value, int) and value > 1)
    wrong = [list(line) for line in answer]
    wrong[row][column] -= 1
    for encoding in engine.encodings(puzzle.record.prolog):
        def accepted(grid):
            return searches.accepts(puzzle.record.prolog, puzzle.prolog_data(), grid,
                                  shape=puzzle.answer_shape(), encoding=encoding)
        assert accepted(answer) and not accepted(wrong), encoding


def test_runs_stopped_at_the_limit_disagree_on_wrong_solutions(tmp_path):
    """An encoding that ignores the products finds two grids too: they are checked, not counted."""
    path = tmp_path / "no_products.pl"
    path.write_text(":- module(no_products, [model/3]).\n:- use_module(library(clpfd)).\n"
                    "model(P, Rows, label(Ds)) :- _{rows: Rs, columns: Cs} :< P, length(Cs, W),\n"
                    "    maplist([_, R]>>length(R, W), Rs, Rows), append(Rows, Ds), Ds ins 1..9.\n")
    engine.load_encoding(str(path))
    runs = compare(SEVERAL, ["primes", "no_products"], repeat=1)
    assert [(run.status, run.solutions, run.agrees) for run in runs] == [("limit", 2, True),
                                                                         ("limit", 2, False)]


REPEATING = """\
:- module({name}, [model/3]).
:- use_module(library(clpfd)).
model(P, Rows, (label(Ds), member(_, [a, b]))) :-  % every grid twice
    _{{rows: Rs, columns: Cs}} :< P, length(Cs, W), maplist([_, R]>>length(R, W), Rs, Rows),
    append(Rows, Ds), Ds ins 1..9, maplist(product, Rows, Rs), transpose(Rows, Columns),
    maplist(product, Columns, Cs).
product(Digits, P) :- foldl([D, A0, A]>>(A #= A0 * D), Digits, 1, P).
"""


def test_a_run_that_gives_a_solution_twice_disagrees_and_is_never_the_reference(tmp_path):
    """At the limit of 2, it found one valid grid twice where there are two: as many as
    the reference, each a solution.  Named first, it is not the one others are held to."""
    path = tmp_path / "twice.pl"
    path.write_text(REPEATING.format(name="twice"))
    engine.load_encoding(str(path))
    runs = compare(SEVERAL, ["twice", "primes"], repeat=1)
    assert [(run.encoding, run.status, run.solutions, run.agrees) for run in runs] == [
        ("twice", "limit", 2, False), ("primes", "limit", 2, True)]


def test_the_reference_is_a_bundled_encoding_before_a_users(tmp_path):
    """Counting all (its solutions digested, not kept), a user's encoding named first
    that finds every grid twice is the one that disagrees, not the bundled one."""
    path = tmp_path / "doubled.pl"
    path.write_text(REPEATING.format(name="doubled"))
    engine.load_encoding(str(path))
    runs = compare(SEVERAL, ["doubled", "primes"], limit=0, repeat=1)
    assert [(run.encoding, run.agrees) for run in runs] == [("doubled", False), ("primes", True)]
    assert runs[0].solutions == 2 * runs[1].solutions


def test_runs_stopped_past_the_kept_solutions_at_the_limit_are_undecided_not_disagreeing():
    """Asked for 1,500 of 7,747 solutions, two encodings find different ones, all valid:
    only their digests were kept, which cannot tell that."""
    many = CrossProduct((1296,) * 4, (1296,) * 4)
    runs = compare(many, ["auto", "primes"], limit=1500, repeat=1)
    assert [(run.status, run.solutions, run.agrees) for run in runs] == [("limit", 1500, True),
                                                                         ("limit", 1500, None)]


def test_counting_all_of_a_few_keeps_them_to_tell_a_run_that_gives_one_twice(tmp_path):
    """With --limit 0 the timed runs count; the effort run keeps a few solutions, so a
    user's encoding named first that finds every grid twice is not the reference even
    against another user's."""
    path = tmp_path / "twice_over.pl"
    path.write_text(REPEATING.format(name="twice_over"))
    engine.load_encoding(str(path))
    engine.load_encoding(str(EXAMPLES / "encodings" / "divisors.pl"))
    runs = compare(SEVERAL, ["twice_over", "divisors"], limit=0, repeat=1)
    assert [(run.encoding, run.agrees) for run in runs] == [("twice_over", False), ("divisors", True)]


def test_a_timed_out_run_shows_as_such_and_is_not_repeated():
    runs = compare(NOTEBOOK_10X6, ["primes", "chain"], timeout=0.5, repeat=3)
    assert [(run.status, run.repeats) for run in runs] == [("limit", 3), ("timeout", 1)]
    assert runs[1].agrees is None and runs[1].choices is None and runs[1].seconds >= 0.5


def run(puzzle: str, encoding: str, seconds: float, status: str = "complete") -> Run:
    return Run(puzzle, "crossproduct", encoding, status, seconds, seconds, seconds, seconds, 1,
               0, 0, 0, 1, True, 1)


def test_summaries_count_solved_runs_and_take_geometric_means_of_ratios_to_the_default():
    runs = [run("a", "auto", 1.0), run("a", "rows", 2.0), run("a", "chain", 0.5),
            run("b", "auto", 1.0), run("b", "rows", 8.0), run("b", "chain", 10.0, "timeout"),
            run("c", "auto", 2.0, "timeout"), run("c", "rows", 3.0), run("c", "chain", 10.0, "timeout")]
    by_encoding = {s.encoding: s for s in summaries(runs)}
    assert list(by_encoding) == ["auto", "rows", "chain"]
    assert [(s.solved, s.puzzles) for s in by_encoding.values()] == [(2, 3), (3, 3), (1, 3)]
    assert by_encoding["auto"].ratio == 1.0 and by_encoding["chain"].ratio == 0.5
    assert by_encoding["rows"].ratio == pytest.approx(math.sqrt(2.0 * 8.0))  # c: the default timed out
    assert (by_encoding["rows"].total, by_encoding["rows"].median) == (13.0, 3.0)


# The command line


def test_compare_times_out_runs_after_ten_seconds_by_default(cli):
    assert TIMEOUT == 10
    run = cli("compare", RIDDLER, "--encodings", "rows", "--format", "json")
    assert run.code == 0 and run.jsonl()[0]["repeats"] == 3


def test_compare_over_a_directory_prints_the_runs_then_a_summary(cli, tmp_path):
    directory = tmp_path / "puzzles"
    directory.mkdir()
    for path in (RIDDLER, GIVENS):
        (directory / path.name).write_text(path.read_text())
    run = cli("compare", directory, "--encodings", "auto,rows,chain", "--repeat", "2")
    assert run.code == 0, run.err
    runs, summary = run.out.split("\n\n")
    assert len(runs.splitlines()) == 1 + 2 * 3
    assert [line.split()[:3] for line in summary.splitlines()] == [
        ["family", "encoding", "solved"], ["crossproduct", "auto", "2/2"],
        ["crossproduct", "rows", "2/2"], ["crossproduct", "chain", "2/2"]]
    records = cli("compare", directory, "--encodings", "auto,rows", "--format", "json").jsonl()
    assert [r["record"] for r in records] == ["run"] * 4 + ["summary"] * 2
    assert records[-2]["ratio"] == 1.0 and records[-1]["solved"] == 2
    rows = list(csv.DictReader(io.StringIO(
        cli("compare", directory, "--encodings", "auto,rows", "--format", "csv").out)))
    assert [(r["record"], r["encoding"]) for r in rows] == [("run", "auto"), ("run", "rows")] * 2 + [
        ("summary", "auto"), ("summary", "rows")]
    assert rows[0]["choices"] != "" and rows[-1]["puzzles"] == "2"


def test_a_malformed_puzzle_of_a_file_is_reported_and_the_others_compared(cli, write):
    path = write(RIDDLER.read_text() + "==\n6 6\n? ? 6\n? x 6\n")
    run = cli("compare", path, "--encodings", "auto", "--repeat", "1")
    assert run.code == 2
    assert [line.split()[:3] for line in run.out.splitlines()[1:]] == [[f"{path}:1", "auto", "complete"]]
    assert run.err.splitlines()[0].startswith(f"{path}:11:3: error: expected a digit")


def test_a_puzzle_not_compared_has_a_record_of_its_error_as_json_and_csv(cli, write):
    """A malformed puzzle of a file, and one no encoding named is for: each has a record,
    in the order of the inputs, its error as check's record of it says it."""
    path = write(RIDDLER.read_text() + "==\n6 6\n? ? 6\n? x 6\n")
    kenken = EXAMPLES / "kenken" / "issue-4x4.txt"
    found = cli("compare", path, kenken, "--encodings", "auto", "--repeat", "1", "--format", "json")
    assert found.code == 2
    records = found.jsonl()
    assert [(r["record"], r["puzzle"], r["status"]) for r in records] == [
        ("run", f"{path}:1", "complete"), ("error", f"{path}:8", "error"), ("error", str(kenken), "error")]
    assert records[1]["error"] == cli("check", path, "--format", "json").jsonl()[1]["error"]
    assert records[1]["error"].startswith(f"{path}:11:3: error: expected a digit")
    assert records[2]["error"].startswith(f"{kenken}: none of the encodings auto is for KenKen puzzles")
    rows = list(csv.DictReader(io.StringIO(
        cli("compare", path, kenken, "--encodings", "auto", "--repeat", "1", "--format", "csv").out)))
    assert [{key: row[key] for key in ("record", "puzzle", "status", "error")} for row in rows] == [
        {"record": "run", "puzzle": f"{path}:1", "status": "complete", "error": ""},
        *({key: r[key] for key in ("record", "puzzle", "status", "error")} for r in records[1:])]


def test_an_encoding_named_twice_runs_once_and_an_empty_name_is_a_usage_error(cli):
    assert [run.encoding for run in compare(SEVERAL, ["rows", "auto", "rows"], repeat=1)] == ["rows", "auto"]
    run = cli("compare", RIDDLER, "--encodings", "auto, auto", "--repeat", "1")
    assert run.code == 0 and [line.split()[1] for line in run.out.splitlines()] == ["encoding", "auto"]
    run = cli("compare", RIDDLER, "--encodings", "auto,,rows")
    assert run.code == 2 and run.err == "crossprolog: error: --encodings: names separated by commas, not 'auto,,rows'\n"


def test_a_puzzle_no_encoding_named_is_for_is_an_error_and_the_others_are_compared(cli, tmp_path):
    directory = tmp_path / "mixed"
    directory.mkdir()
    (directory / "a.txt").write_text(RIDDLER.read_text())
    (directory / "b.txt").write_text((EXAMPLES / "kenken" / "issue-4x4.txt").read_text())
    run = cli("compare", directory, "--encodings", "primes", "--repeat", "1")
    assert run.code == 2
    assert [line.split()[:3] for line in run.out.splitlines()[1:]] == [
        [str(directory / "a.txt"), "primes", "complete"]]
    assert run.err.startswith(f"{directory / 'b.txt'}: error: none of the encodings primes is for KenKen")


SLOW_TO_LOAD = """\
:- module({name}, [model/3]).
:- sleep(0.2).
model(_, [[3, 9, 5], [5, 9, 1], [8, 1, 8], [5, 7, 8], [5, 7, 2]], true).
"""


def test_loading_an_encoding_file_is_not_held_to_the_time_limit_of_a_run(cli, tmp_path, monkeypatch):
    """--timeout bounds each run (which may time out here: only the loading is in
    question); a file may take the longer of it and compare.LOADING to load, counted
    from its own start, and one that takes longer is refused, naming the file."""
    from crossprolog import compare

    slow = tmp_path / "slow.pl"
    slow.write_text(SLOW_TO_LOAD.format(name="slow"))
    found = cli("compare", RIDDLER, "--encoding-file", slow, "--encodings", "auto,slow",
                "--timeout", "0.1", "--repeat", "1")
    assert found.code == 0 and found.err == ""
    assert [line.split()[1] for line in found.out.splitlines()[1:]] == ["auto", "slow"]
    monkeypatch.setattr(compare, "LOADING", 0.1)
    slower = tmp_path / "slower.pl"
    slower.write_text(SLOW_TO_LOAD.format(name="slower"))
    found = cli("compare", RIDDLER, "--encoding-file", slower, "--timeout", "0.05")
    assert found.code == 3 and found.out == ""
    assert found.err == (f"crossprolog: error: {slower}: loading it did not end within the time limit "
                         "(a directive that does not end?)\n")


def test_compare_writes_a_cactus_plot(cli, tmp_path):
    chart = tmp_path / "cactus.svg"
    run = cli("compare", RIDDLER, GIVENS, "--encodings", "auto,primes", "--repeat", "1", "--plot", chart)
    assert run.code == 0, run.err
    text = chart.read_text()
    assert text.startswith("<?xml") and "<svg" in text and "puzzles solved" in text
    png = tmp_path / "cactus.png"
    assert cli("compare", RIDDLER, "--encodings", "auto", "--repeat", "1", "--plot", png).code == 0
    assert png.read_bytes().startswith(b"\x89PNG")


def test_compare_refuses_a_plot_it_cannot_write_before_running(cli, tmp_path):
    run = cli("compare", RIDDLER, "--plot", tmp_path / "cactus.pdf")
    assert run.code == 2 and "--plot" in run.err and ".svg or .png" in run.err and run.out == ""
    run = cli("compare", RIDDLER, "--plot", tmp_path / "no" / "such" / "dir.svg")
    assert run.code == 2 and "cannot write" in run.err


def test_a_run_that_raises_is_an_error_row_and_the_others_go_on(cli, tmp_path):
    path = tmp_path / "raises.pl"
    path.write_text(":- module(raises, [model/3]).\nmodel(_, _, _) :- atom_length(_, _).\n")
    run = cli("compare", RIDDLER, "--encoding-file", path, "--encodings", "rows,raises,primes",
              "--format", "json")
    assert run.code == 2
    assert [(r["encoding"], r["status"]) for r in run.jsonl()] == [
        ("rows", "complete"), ("raises", "error"), ("primes", "complete")]
    assert f"{path}: encoding raises raised an error" in run.err


def test_a_disagreeing_run_solved_nothing(tmp_path):
    """An encoding that finds no solution where there is one, fast, is not 'solved' in
    the summary, nor drawn in the cactus plot as if it had been."""
    path = tmp_path / "nothing.pl"
    path.write_text(":- module(nothing, [model/3]).\nmodel(_, _, fail).\n")
    engine.load_encoding(str(path))
    puzzles = [crossprolog.parse(RIDDLER.read_text()), crossprolog.parse(GIVENS.read_text())]
    runs = [run for puzzle in puzzles for run in compare(puzzle, ["rows", "nothing"], repeat=1)]
    assert [(run.encoding, run.solved) for run in runs] == [("rows", True), ("nothing", False)] * 2
    assert {s.encoding: s.solved for s in summaries(runs)} == {"rows": 2, "nothing": 0}


def test_compare_over_two_families_takes_each_family_its_own_encodings(cli):
    kenken = EXAMPLES / "kenken" / "issue-4x4.txt"
    run = cli("compare", RIDDLER, kenken, "--encodings", "rows,primes,tables", "--repeat", "1",
              "--format", "json")
    assert run.code == 0, run.err
    assert [(r["family"], r["encoding"]) for r in run.jsonl()] == [
        ("crossproduct", "rows"), ("crossproduct", "primes"), ("kenken", "tables")]
    typo = cli("compare", RIDDLER, "--encodings", "rows,prime")
    assert typo.code == 2 and "unknown encoding 'prime'" in typo.err


def test_ctrl_c_keeps_the_runs_that_finished(tmp_path):
    """Runs print as they end in JSON; Ctrl-C during a long one stops compare with exit
    130, and what finished stays printed."""
    import signal
    import subprocess
    import sys

    from conftest import NEVER_CROSSPRODUCT

    never = tmp_path / "never.txt"
    never.write_text(NEVER_CROSSPRODUCT)
    child = subprocess.Popen([sys.executable, "-m", "crossprolog", "compare", str(RIDDLER), str(never),
                              "--encodings", "chain", "--timeout", "600", "--repeat", "1",
                              "--format", "json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = child.stdout.readline()  # the riddler's run: the never-ending one has begun
    for _ in range(240):  # Ctrl-C, again until it is taken (one can land before Prolog is in)
        child.send_signal(signal.SIGINT)
        try:
            rest, err = child.communicate(timeout=0.5)
            break
        except subprocess.TimeoutExpired:
            continue
    assert child.returncode == 130 and "interrupted after 1 run" in err
    assert '"record": "run"' in first and str(RIDDLER) in first and rest.strip() == ""


def test_ctrl_c_in_a_lone_puzzles_comparison_keeps_the_runs_that_finished(tmp_path):
    """A lone puzzle is compared in the command's own process: Ctrl-C during its second
    encoding prints the first's row (it printed nothing)."""
    import signal
    import subprocess
    import sys

    slow = tmp_path / "slow.pl"
    slow.write_text(":- module(slow, [model/3]).\n"
                    "model(_, [[X]], slow:forever(X)) :- format(user_error, 'searching~n', []).\n"
                    "forever(_) :- repeat, fail.\n")
    child = subprocess.Popen([sys.executable, "-m", "crossprolog", "compare", str(RIDDLER), "--encoding-file",
                              str(slow), "--encodings", "auto,slow", "--repeat", "1", "--timeout", "600"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stderr.readline() == "searching\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 130 and err == "crossprolog: interrupted after 1 run\n"
    assert [line.split()[:3] for line in out.splitlines()[1:]] == [[str(RIDDLER), "auto", "complete"]]


def test_by_default_an_encoding_that_does_not_take_the_puzzles_rules_is_left_out(cli, write):
    """`rows` takes digits 1-9 only: among the family's encodings it is not for a puzzle
    with zero digits, as another family's are not; named, it says why it refuses."""
    path = write("# zero: yes\n0 12 6\n? ? ? 0\n? ? ? 12\n? ? ? 6\n")
    puzzle = crossprolog.parse(path.read_text())
    ran = [run.encoding for run in compare(puzzle, repeat=1, timeout=TIMEOUT)]
    assert "rows" not in ran and {"auto", "lines"} <= set(ran)
    assert cli("compare", path, "--repeat", "1").code == 0
    named = cli("compare", path, "--repeat", "1", "--encodings", "rows,lines")
    assert named.code == 2 and named.err == f"{path}: error: encoding rows: this encoding takes digits 1-9 only\n"
