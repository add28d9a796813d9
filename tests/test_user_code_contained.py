"""A user's encoding runs in our process but cannot end it, hang it, or write our output.

halt/0,1 at load, in a directive or in model/3 is an error naming the file (and
a batch keeps its records); abort/0 is an error too, not an interruption; a
looping directive is bounded by --timeout and Ctrl-C (one looping by calls alone,
which neither reaches, by inferences); a search that will not stop at its time
limit is ended by compare's watchdog, the runs so far reported, and one that catches
Ctrl-C's error by a second Ctrl-C; what an encoding prints goes to standard error.  Every run
that could end the process runs in a child process: a regression here would
otherwise end pytest itself, with exit code 0.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import EXAMPLES, ended

RIDDLER = EXAMPLES / "crossproduct" / "riddler-1.txt"
GIVENS = EXAMPLES / "crossproduct" / "givens.txt"


def crossprolog(*args, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "crossprolog", *map(str, args)], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **options)


def run(*args, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "crossprolog", *map(str, args)], text=True,
                          capture_output=True, timeout=timeout)


def module_file(tmp_path: Path, name: str, body: str) -> Path:
    """The encoding module `name`, exporting model/3, with `body` after its header."""
    path = tmp_path / f"{name}.pl"
    path.write_text(f":- module({name}, [model/3]).\n" + textwrap.dedent(body))
    return path


def one_error_line(stderr: str) -> str:
    [line] = stderr.splitlines()
    assert "Traceback" not in line
    return line


# halt/0, halt/1: an error naming the file, never the end of the process


@pytest.mark.parametrize("directive", [":- halt.", ":- halt(0).", ":- catch(call(halt), _, true)."])
def test_halt_while_loading_is_an_error_at_its_line(tmp_path, directive):
    path = module_file(tmp_path, "halts_loading", f"model(_, _, true).\n{directive}\n")
    done = run("solve", RIDDLER, "--encoding-file", path)
    assert done.returncode == 2 and done.stdout == ""
    assert one_error_line(done.stderr) == (f"crossprolog: error: {path}:3: it called halt(0) while "
                                           "loading: an encoding may not end the process")


@pytest.mark.parametrize("body", [
    "model(_, _, true) :- halt.\n",
    "model(_, _, true) :- halt(3).\n",
    "model(_, _, (system:halt(3) ; true)).\n",        # in the labeling, and then going on
])
def test_halt_in_a_search_is_an_error_and_a_batch_keeps_its_records(tmp_path, body):
    path = module_file(tmp_path, "halts_searching", body)
    out = tmp_path / "results.jsonl"
    done = run("solve", RIDDLER, GIVENS, "--encoding-file", path, "--encoding", "halts_searching",
               "--out", out)
    assert done.returncode == 2
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [record["status"] for record in records] == ["error", "error"]
    assert all(f"{path}: encoding halts_searching: it called halt(" in record["error"]
               and "an encoding may not end the process" in record["error"] for record in records)
    assert done.stdout.startswith(f"{out}: 2 records")


@pytest.mark.parametrize("halt", ["halt", "halt(5)"])
def test_halt_in_a_thread_an_encoding_starts_is_cancelled_and_the_search_goes_on(tmp_path, halt):
    """The process ended with exit code 0 (or 5) and nothing printed: a halt in
    another thread has no user_call frame under it."""
    path = module_file(tmp_path, "halts_in_a_thread", f"""
        model(_, Rows, true) :-
            thread_create({halt}, Thread, []), thread_join(Thread, _),
            Rows = [[2, 4, 1], [4, 2, 1], [1, 1, 1]].
        """)
    done = run("solve", GIVENS, "--encoding-file", path, "--encoding", "halts_in_a_thread")
    assert done.returncode == 0 and done.stdout.splitlines()[1:] == ["2 4 1 8", "4 2 1 8", "1 1 1 1"]
    assert "a thread called halt(" in done.stderr and "Traceback" not in done.stderr


def test_halt_is_an_error_for_an_api_caller_whose_process_goes_on(tmp_path):
    loading = module_file(tmp_path, "halts_at_load", ":- halt.\nmodel(_, _, true).\n")
    searching = module_file(tmp_path, "halts_in_model", "model(_, _, true) :- halt(5).\n")
    program = textwrap.dedent(f"""\
        import crossprolog
        from crossprolog import engine
        from crossprolog.errors import UsageError
        puzzle = crossprolog.parse(open({str(RIDDLER)!r}).read())
        try:
            engine.load_encoding({str(loading)!r})
        except engine.EncodingFileError as error:
            print("load:", error)
        name = engine.load_encoding({str(searching)!r})
        for ask in (puzzle.solve, puzzle.count, lambda **o: list(puzzle.solutions(**o)), puzzle.hint):
            try:
                ask(encoding=name)
            except UsageError as error:
                print("search:", error)
        print("still here:", puzzle.solve().values[0])
        """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"load: {loading}:2: it called halt(0) while loading: an encoding may not end the process"
    assert lines[1:5] == [f"search: {searching}: encoding halts_in_model: it called halt(5): "
                          "an encoding may not end the process"] * 4
    assert lines[5] == "still here: (3, 9, 5)"


# abort/0: an error naming the file, not an interruption


def test_abort_is_an_error_naming_the_file_not_an_interruption(tmp_path):
    path = module_file(tmp_path, "aborts", "model(_, _, true) :- abort.\n")
    done = run("count", RIDDLER, "--encoding-file", path, "--encoding", "aborts")
    assert done.returncode == 2 and "interrupted" not in done.stderr
    assert one_error_line(done.stderr) == (f"{RIDDLER}: error: {path}: encoding aborts: it called "
                                           "abort/0: an encoding may not abort the search")
    path = module_file(tmp_path, "aborts_loading", ":- abort.\nmodel(_, _, true).\n")
    done = run("count", RIDDLER, "--encoding-file", path)
    assert done.returncode == 2
    assert one_error_line(done.stderr) == (f"crossprolog: error: {path}: it called abort/0 while "
                                           "loading: an encoding may not abort")


# A directive that never ends: --timeout and Ctrl-C stop it


LOOPING = """\
    :- format(user_error, "looping~n", []).
    :- catch((repeat, fail), _, true).        % even one that catches what stops it
    :- repeat, fail.
    model(_, _, true).
    """


def test_a_looping_directive_is_bounded_by_the_timeout(tmp_path):
    path = module_file(tmp_path, "loops", LOOPING)
    done = run("solve", RIDDLER, "--encoding-file", path, "--timeout", "2")  # the loop never ends
    assert done.returncode == 3
    if "looping" in done.stderr:  # else starting Prolog took the 2 s (a machine under heavy load)
        assert done.stderr.splitlines()[-1] == (
            f"crossprolog: error: {path}: loading it did not end within the time limit "
            "(a directive that does not end?)")
    else:
        assert done.stderr == "crossprolog: error: time limit of 2 s reached\n"


@pytest.mark.parametrize("loop", [":- spin(0).", ":- l.", ":- initialization(l).", ":- initialization(l, now).",
                                  ":- catch(l, _, true)."])
def test_a_directive_that_loops_by_calls_alone_is_bounded_by_the_timeout_too(tmp_path, loop):
    """load_files/2 blocks signals, and the heartbeat that stands in for them is not
    called in a loop that never backtracks: such a directive ran until killed, --timeout
    and Ctrl-C unheard.  The load's inference limit stops it (an initialization goal's
    runner catching what stops it included)."""
    path = module_file(tmp_path, "calls", f"""\
        spin(N) :- N1 is N + 1, spin(N1).
        l :- l.
        {loop}
        model(_, _, true).
        """)
    done = run("solve", RIDDLER, "--encoding-file", path, "--timeout", "1", timeout=120)
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] in (
        f"crossprolog: error: {path}: loading it did not end within the time limit (a directive that does not end?)",
        "crossprolog: error: time limit of 1 s reached")  # starting Prolog took the second (a loaded machine)


def test_ctrl_c_stops_a_looping_directive(tmp_path):
    path = module_file(tmp_path, "loops_on", LOOPING)
    process = crossprolog("solve", RIDDLER, "--encoding-file", path)
    try:
        assert process.stderr.readline() == "looping\n"  # what it prints goes to standard error
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        process.kill()  # should it not have ended: it would loop on after the test
    assert process.returncode == 130 and stdout == ""
    assert stderr == "crossprolog: interrupted\n"


# A search that catches Ctrl-C's error and goes on for good.  It says "searching" within
# its first catch, so that a Ctrl-C sent once that line is read is caught, however slow
# the machine.
CATCHING = """\
    model(_, [[X]], catching:forever(X)).
    forever(X) :- catch(( format(user_error, "searching~n", []), repeat, fail ), _, true), spin(X).
    spin(X) :- catch((repeat, fail), _, true), spin(X).
"""


@pytest.mark.parametrize("stop, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_second_ctrl_c_ends_a_search_that_caught_the_first(tmp_path, stop, code):
    """The first Ctrl-C is an error thrown in the search, which this one catches; the
    second ends the command at once, as Ctrl-C would have (it used to run on for good).
    SIGTERM is taken as Ctrl-C, and exits 143 (it used to end the process at once)."""
    path = module_file(tmp_path, "catching", CATCHING)
    process = crossprolog("solve", RIDDLER, "--encoding-file", path, "--encoding", "catching")
    try:
        assert process.stderr.readline() == "searching\n"
        process.send_signal(stop)
        time.sleep(1)
        assert process.poll() is None  # the search caught it, and goes on
        process.send_signal(stop)
        stdout, stderr = ended(process)
    finally:
        process.kill()
    assert process.returncode == code and stdout == "" and stderr == "crossprolog: interrupted\n"


def program_searching_for_good(tmp_path) -> subprocess.Popen:
    """A Python program that imports crossprolog and solves with CATCHING."""
    path = module_file(tmp_path, "catching", CATCHING)
    program = (f"import crossprolog\nfrom crossprolog import engine\nengine.load_encoding({str(path)!r})\n"
               f"crossprolog.parse(open({str(RIDDLER)!r}).read()).solve(encoding='catching')\n")
    return subprocess.Popen([sys.executable, "-c", program], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_program_that_imports_crossprolog_keeps_its_process_at_a_second_ctrl_c(tmp_path):
    """Ending the process is the command line's choice: a program's search hears each
    Ctrl-C as an error, which this encoding catches, and the program goes on."""
    process = program_searching_for_good(tmp_path)
    try:
        assert process.stderr.readline() == "searching\n"
        for _ in range(2):
            process.send_signal(signal.SIGINT)
            time.sleep(0.5)
        assert process.poll() is None
    finally:
        process.kill()
        process.communicate()


def test_a_program_that_imports_crossprolog_ends_at_sigterm_even_in_a_search(tmp_path):
    """Taking SIGTERM as Ctrl-C is the command line's choice too: a program's process
    ends by it, as by default, even in a search that catches every error."""
    process = program_searching_for_good(tmp_path)
    try:
        assert process.stderr.readline() == "searching\n"
        process.send_signal(signal.SIGTERM)
        ended(process)
    finally:
        process.kill()
    assert process.returncode == -signal.SIGTERM


# No solution at first; then, as the command seeks the clues to blame with it, a search
# that catches its time limit's error and goes on for good (as a search whose alarm was
# lost would: an adversarial run saw one, 1 in 5 to 20, on a 300x300 CrossProduct).
FAILS_THEN_STUBBORN = """\
    model(_, [[X]], Labeling) :-
        (   nb_current(failed_once, true)
        ->  Labeling = failing_then:forever(X)
        ;   nb_setval(failed_once, true),
            Labeling = fail
        ).
    forever(X) :- catch((repeat, fail), _, true), forever(X).
"""


@pytest.mark.parametrize("command", ["solve", "check", "hint"])
def test_why_a_puzzle_has_no_solution_is_held_to_the_time_limit_too(tmp_path, command):
    """The search had a watchdog; what followed it (the clues to blame) had only Prolog's
    alarms, and ran on for good when one was not heard."""
    path = module_file(tmp_path, "failing_then", FAILS_THEN_STUBBORN)
    process = crossprolog(command, RIDDLER, "--encoding-file", path, "--encoding", "failing_then",
                          "--timeout", "2")
    try:
        stdout, stderr = ended(process)
    finally:
        process.kill()
    assert process.returncode == 1 and stderr == ""
    assert stdout.startswith(("no solution (no small set of clues to blame was found in time)",
                              "not well-formed: no solution (no small set of clues to blame was found in time)",
                              "no solution, so no hint (no small set of clues to blame was found in time)"))


# What an encoding prints: on standard error, never among the records


def test_what_an_encoding_prints_goes_to_standard_error_and_forges_no_record(tmp_path):
    forged = '{"family": "crossproduct", "status": "solved", "solution": [[1]]}'
    path = module_file(tmp_path, "prints", f"""\
        :- format('{forged}~n').
        model(_, [[3, 9, 5], [5, 9, 1], [8, 1, 8], [5, 7, 8], [5, 7, 2]], true) :-
            format('{forged}~n'),
            format(user_output, '{forged}~n', []),
            write(user_output, forged), nl(user_output).
        """)
    done = run("solve", RIDDLER, "--encoding-file", path, "--encoding", "prints", "--format", "json")
    assert done.returncode == 0
    [record] = [json.loads(line) for line in done.stdout.splitlines()]
    assert record["status"] == "solved" and record["solution"][0] == [3, 9, 5]
    assert done.stderr.count(forged) == 3 and "forged\n" in done.stderr


# A search that will not stop at its time limit: compare ends it, reporting the runs so far


STUCK = {
    "prolog": ("stubborn.pl", """\
        :- module(stubborn, [model/3]).
        model(_, [[X]], stubborn:forever(X)).
        forever(X) :- catch((repeat, fail), _, true), forever(X).  % catches what stops it
        """),
    "asp": ("stubborn.lp", """\
        % family: crossproduct
        n(1). n(X + 1) :- n(X).  % grounds for ever
        solution(0, 0, 1) :- n(1).
        #show solution/3.
        """),
}


def compared_rows(stdout: str) -> list[tuple[str, str, str, str]]:
    """(puzzle, encoding, status, agrees) of each row of compare's table."""
    rows = [line.split() for line in stdout.split("\n\n")[0].splitlines()[1:]]
    return [(row[0], row[1], row[2], row[-1]) for row in rows]


@pytest.mark.parametrize("language", STUCK)
def test_compare_ends_a_run_that_will_not_stop_and_reports_the_runs_before_it(tmp_path, language):
    name, text = STUCK[language]
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    done = run("compare", RIDDLER, "--encoding-file", path, "--encodings", "auto,stubborn",
               "--timeout", "0.5", "--repeat", "1")
    assert done.returncode == 2
    assert compared_rows(done.stdout) == [(str(RIDDLER), "auto", "complete", "yes"),
                                          (str(RIDDLER), "stubborn", "timeout", "-")]
    assert one_error_line(done.stderr) == (f"{RIDDLER}: error: stubborn did not stop at its time limit "
                                           "(0.5 s): the process running it was ended")


@pytest.mark.parametrize("repeat", [1, 2])
def test_compare_keeps_what_a_run_found_before_its_search_that_will_not_stop(tmp_path, repeat):
    """Its first search finishes and every later one never stops.  With one repeat, the
    one that never stops is the run counting its effort: the timed search's status,
    solution and time stand, its counters unknown.  With two, it is the second timed
    search: the run timed out, its times the first search's and the limit."""
    path = module_file(tmp_path, "late_stubborn", """\
        model(_, [[3, 9, 5], [5, 9, 1], [8, 1, 8], [5, 7, 8], [5, 7, 2]], late_stubborn:go).
        go :- flag(late_stubborn_searches, N, N + 1), ( N > 0 -> forever ; true ).
        forever :- catch((repeat, fail), _, true), forever.
        """)
    done = run("compare", RIDDLER, "--encoding-file", path, "--encodings", "auto,late_stubborn",
               "--timeout", "0.5", "--repeat", repeat, "--format", "json")
    assert done.returncode == 2
    auto, late = [json.loads(line) for line in done.stdout.splitlines()]
    assert (auto["status"], auto["agrees"]) == ("complete", True)
    assert (late["solutions"], late["repeats"]) == (1, repeat)
    assert late["choices"] is late["backtracks"] is late["propagated"] is None
    where = " in the run counting its effort" if repeat == 1 else ""
    error = f"late_stubborn did not stop at its time limit (0.5 s){where}: the process running it was ended"
    assert one_error_line(done.stderr) == f"{RIDDLER}: error: {error}" and late["error"] == error
    if repeat == 1:
        assert (late["status"], late["agrees"]) == ("complete", True)
        assert late["seconds"] < 0.5 and late["inferences"] > 0
    else:
        assert (late["status"], late["agrees"], late["inferences"]) == ("timeout", None, None)
        assert late["seconds_min"] < 0.5 == late["seconds_max"]


def test_compare_ends_a_reference_that_will_not_stop_checking_another_runs_solutions(tmp_path):
    """Two user encodings stop at the limit on different solutions of a puzzle that has
    many: the other's are checked under the reference's encoding, whose labeling never
    ends once the solution is in place."""
    path = tmp_path / "checks_forever.pl"
    path.write_text(textwrap.dedent("""\
        :- module(checks_forever, [model/3]).
        :- use_module(library(clpfd)).
        model(P, Rows, checks_forever:go(Ds)) :-
            _{rows: Rs, columns: Cs} :< P, length(Cs, W), maplist([_, R]>>length(R, W), Rs, Rows),
            append(Rows, Ds), Ds ins 1..9, maplist(product, Rows, Rs), transpose(Rows, Columns),
            maplist(product, Columns, Cs).
        product(Digits, P) :- foldl([D, A0, A]>>(A #= A0 * D), Digits, 1, P).
        go(Ds) :- ( ground(Ds) -> forever ; labeling([ff, down], Ds) ).
        forever :- catch((repeat, fail), _, true), forever.
        """))
    several = tmp_path / "several.txt"
    several.write_text("36 36 36\n? ? ? 36\n? ? ? 36\n? ? ? 36\n")
    done = run("compare", several, "--encoding-file", path, "--encoding-file",
               EXAMPLES / "encodings" / "divisors.pl", "--encodings", "checks_forever,divisors",
               "--limit", "5", "--timeout", "0.5", "--repeat", "1")
    assert done.returncode == 2
    assert compared_rows(done.stdout) == [(str(several), "checks_forever", "limit", "yes"),
                                          (str(several), "divisors", "limit", "-")]
    assert one_error_line(done.stderr) == (
        f"{several}: error: checks_forever did not stop at its time limit (0.5 s) checking another "
        "run's solutions: the process running it was ended")


def test_compare_of_several_puzzles_goes_on_past_a_run_that_will_not_stop(tmp_path):
    """Several puzzles run in a worker process, which the watchdog ends: the next
    puzzle goes on in a fresh one, and the summary counts the stuck runs."""
    name, text = STUCK["prolog"]
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    done = run("compare", RIDDLER, GIVENS, "--encoding-file", path, "--encodings", "auto,stubborn",
               "--timeout", "0.5", "--repeat", "1")
    assert done.returncode == 2
    assert compared_rows(done.stdout) == [(str(RIDDLER), "auto", "complete", "yes"),
                                          (str(RIDDLER), "stubborn", "timeout", "-"),
                                          (str(GIVENS), "auto", "complete", "yes"),
                                          (str(GIVENS), "stubborn", "timeout", "-")]
    assert "crossproduct  stubborn     0/2" in done.stdout
    assert done.stderr.count("error: stubborn did not stop at its time limit") == 2


def test_compare_reports_a_puzzle_whose_worker_was_killed_and_goes_on(tmp_path):
    path = module_file(tmp_path, "kills", "model(_, _, kills:go).\ngo :- shell('kill -9 $PPID').\n")
    done = run("compare", RIDDLER, GIVENS, "--encoding-file", path, "--encodings", "auto,kills",
               "--repeat", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"{puzzle}: error: the worker process solving it was killed (SIGKILL: out of memory?)"
        for puzzle in (RIDDLER, GIVENS)]
