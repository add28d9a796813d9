"""The command line contract: output, JSON, exit codes and error messages."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest

import crossprolog
from crossprolog.cli.questions import at_least

from conftest import EXAMPLES, NEVER_CROSSPRODUCT

RIDDLER_2 = EXAMPLES / "crossproduct" / "riddler-2.md"
NOTEBOOK_10X6 = EXAMPLES / "crossproduct" / "notebook-10x6.txt"
SOLUTION_2 = [[7, 6, 5], [9, 8, 2], [3, 9, 2], [5, 9, 3], [1, 4, 1], [7, 1, 7]]


def test_solve_prints_the_solution_in_its_layout(cli):
    run = cli("solve", RIDDLER_2)
    assert run.code == 0
    assert run.out.splitlines()[2] == "|7|6|5|**210**|"


def test_solve_json_follows_the_contract(cli):
    run = cli("solve", RIDDLER_2, "--format", "json")
    record = run.json()
    assert run.code == 0
    assert {k: record[k] for k in ("family", "status", "solution")} == {
        "family": "crossproduct", "status": "solved", "solution": SOLUTION_2}
    assert isinstance(record["seconds"], float)


def test_solve_can_redraw_in_another_format(cli):
    run = cli("solve", RIDDLER_2, "--format", "text")
    assert run.out.splitlines()[1].split() == ["7", "6", "5", "210"]


def test_unsolvable_puzzle_exits_1(cli, write):
    run = cli("solve", write("8 8 2\n? ? ? 8\n? ? ? 8\n? ? ? 1\n"), "--format", "json")
    assert run.code == 1
    assert run.json()["status"] == "unsolvable" and run.json()["solution"] is None


def test_solve_all_prints_every_solution(cli, write):
    path = write("8 8 1\n? ? ? 8\n? ? ? 8\n? ? ? 1\n")
    run = cli("solve", "--all", path, "--format", "json")
    assert run.code == 0
    assert len(run.json()["solutions"]) == 4
    text = cli("solve", "--all", path)
    assert text.out.count("8 8 1\n") == 4 and "4 solutions" in text.out


def test_count_and_its_limit(cli, write):
    path = write("8 8 1\n? ? ? 8\n? ? ? 8\n? ? ? 1\n")
    assert cli("count", path, "--format", "json").json() | {"seconds": 0} == {
        "family": "crossproduct", "count": 4, "complete": True, "status": "several", "seconds": 0}
    limited = cli("count", path, "--limit", "3")
    assert limited.code == 0 and "at least 3 solutions" in limited.out and "--limit 3" in limited.out
    assert cli("count", path, "--limit", "3", "--format", "json").json()["complete"] is False


def test_a_search_stopped_short_says_what_it_found_and_never_at_least_0():
    assert [at_least(n) for n in (0, 1, 2)] == ["no solution found yet", "at least 1 solution",
                                                "at least 2 solutions"]


def test_check_says_well_formed_or_not(cli, write):
    unique = cli("check", RIDDLER_2, "--format", "json")
    assert unique.code == 0 and unique.json()["well_formed"] is True and unique.json()["count"] == 1
    several = cli("check", write("7 7\n? ? 7\n? ? 7\n"), "--format", "json")
    assert several.code == 1 and several.json()["well_formed"] is False and several.json()["count"] == 2
    none = cli("check", write("8 8 2\n? ? ? 8\n? ? ? 8\n? ? ? 1\n"))
    assert none.code == 1 and "no solution" in none.out


def test_timeout_exits_3_with_status_timeout(cli, write):
    run = cli("solve", write(NEVER_CROSSPRODUCT), "--encoding", "chain", "--timeout", "0.3", "--format", "json")
    assert run.code == 3
    assert run.json()["status"] == "timeout" and run.json()["solution"] is None


def test_bad_input_is_one_located_line_and_exit_2(cli, write):
    path = write("6 8\n? ? 6\n? a 8\n")
    run = cli("solve", path)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines() == [f"{path}:3:3: error: expected a digit, '?' or a product, found 'a' "
                                    "(read as CrossProduct: 2 of 3 lines are numbers and '?'; "
                                    "name the family with --family if it is another)",
                                    "? a 8", "  ^"]
    named = cli("solve", path, "--family", "crossproduct")
    assert named.err.splitlines()[0] == f"{path}:3:3: error: expected a digit, '?' or a product, found 'a'"


def test_missing_file_and_binary_file_exit_2(cli, tmp_path):
    missing = cli("solve", tmp_path / "nothing.txt")
    assert missing.code == 2 and "cannot read" in missing.err
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    run = cli("solve", binary)
    assert run.code == 2 and "not UTF-8" in run.err


def test_unknown_encoding_is_a_usage_error(cli):
    run = cli("solve", RIDDLER_2, "--encoding", "nonsense")
    assert run.code == 2 and "unknown encoding 'nonsense'" in run.err


def test_several_files_give_the_worst_exit_code(cli, write):
    bad = write("6 8\n? a 8\n", name="bad.txt")
    run = cli("solve", RIDDLER_2, bad, "--format", "json")
    records = run.jsonl()
    assert run.code == 2
    assert [r["status"] for r in records] == ["solved", "error"]
    assert records[1]["path"] == str(bad)


def test_generate_reproduces_the_notebooks_seed_42_puzzle(cli):
    run = cli("generate", "crossproduct", "--rows", "10", "--cols", "6", "--seed", "42")
    without_comment = NOTEBOOK_10X6.read_text().split("\n", 1)[1]
    assert run.out == without_comment


@pytest.mark.parametrize("family, largest", [("crossproduct", 100), ("crosscells", 200)])
def test_generate_makes_only_puzzles_whose_text_reads_back(cli, family, largest):
    """A 1000x1000 CrossProduct took 9 s to print over a million characters, more than
    any reader takes; 100000x100000 ran on: such sizes are refused at once."""
    run = cli("generate", family, "--rows", str(largest + 1), "--cols", "3")
    assert run.code == 2 and run.out == ""
    assert f"1x1 to {largest}x{largest}" in run.err and len(run.err.splitlines()) == 1
    text = cli("generate", family, "--rows", str(largest), "--cols", "3", "--seed", "1").out
    assert len(crossprolog.parse_all(text)) == 1


def test_stats_prints_the_notebooks_table(cli):
    run = cli("stats", "crossproduct", "--sizes", "3x3,6x3", "-n", "200", "--seed", "42", "--format", "json")
    assert run.json()["well_formed"] == {"3x3": 0.33, "6x3": 0.005}


def test_stats_looks_at_a_size_named_twice_once(cli):
    """Each size was counted once per time it was named, but divided by -n once: shares
    doubled, and one past 1 broke the Wilson interval (a traceback)."""
    def table(sizes: str) -> dict:
        run = cli("stats", "crossproduct", "--sizes", sizes, "-n", "200", "--seed", "42", "--format", "json")
        assert run.code == 0, run.err
        return run.json()

    alone = table("3x3")
    for sizes in ("3x3,3x3", "3x3,3X3", "3x3,4x4,3x3,3x3,3x3"):
        named = table(sizes)
        assert list(named["well_formed"]) == list(dict.fromkeys(sizes.lower().split(",")))
        assert named["well_formed"]["3x3"] == alone["well_formed"]["3x3"] == 0.33
        assert named["interval_95"]["3x3"] == alone["interval_95"]["3x3"]


def test_usage_errors_exit_2_without_traceback():
    for args in (["solve"], ["frobnicate"], ["generate", "crossproduct", "--rows", "0", "--cols", "3"]):
        done = subprocess.run([sys.executable, "-m", "crossprolog", *args], capture_output=True, text=True)
        assert done.returncode == 2 and "Traceback" not in done.stderr


@pytest.mark.parametrize("option, value, said", [
    ("--limit", "abc", "argument --limit: must be 0 (no limit) or a positive integer, not 'abc'"),
    ("--timeout", "abc", "argument --timeout: must be a positive number of seconds up to 1e+09, not 'abc'"),
    ("--timeout", "1e10", "argument --timeout: must be a positive number of seconds up to 1e+09, not '1e10'"),
    ("--timeout", "inf", "argument --timeout: must be a positive number of seconds up to 1e+09, not 'inf'"),
    ("--jobs", "x", "argument --jobs: must be a positive integer, not 'x'"),
    ("--out", "", "argument --out: must name a file or directory, not ''"),
    ("--out", "-", "argument --out: must name a file or directory, not '-' (without --out, the answers go to "
                   "standard output)")])
def test_an_option_error_says_what_the_option_wants(option, value, said, tmp_path, monkeypatch):
    """Not "invalid _count_limit value" (the name of a function); an empty --out was
    ignored, the records going to standard output; `--out -` wrote a file named "-"; a
    timeout past what the system's timer counts (9e9 s) was a traceback."""
    monkeypatch.chdir(tmp_path)
    done = subprocess.run([sys.executable, "-m", "crossprolog", "count", str(EXAMPLES / "kenken" / "issue-4x4.txt"),
                           option, value], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.splitlines()[-1].endswith(said)
    assert not list(tmp_path.iterdir())


def test_a_usage_error_asked_for_in_json_is_a_json_record_too():
    """A pipeline reading JSON got only argparse's usage text on standard error."""
    done = subprocess.run([sys.executable, "-m", "crossprolog", "count", "--format", "json",
                           str(EXAMPLES / "kenken" / "issue-4x4.txt"), "--limit", "abc"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "usage:" in done.stderr
    assert json.loads(done.stdout) == {"status": "error", "error": "crossprolog count: argument --limit: "
                                       "must be 0 (no limit) or a positive integer, not 'abc'"}


def test_standard_input(write):
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", "-"], capture_output=True,
                          text=True, input="6 8\n? ? 6\n? ? 8\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr


def test_every_command_speaks_one_vocabulary_of_statuses(cli, write, tmp_path):
    """solve, count, check and hint say what is known of a puzzle in the same words, in
    their records and in --out's summary; count --limit 0 counts them all, as compare's
    and the API's 0 do."""
    several = write("8 8 1\n? ? ? 8\n? ? ? 8\n? ? ? 1\n", "several.txt")
    none = write("6 8\n? ? 7\n? ? 8\n", "none.txt")
    status = {command: cli(command, several, "--format", "json").json()["status"]
              for command in ("solve", "count", "check")}
    assert status == {"solve": "solved", "count": "several", "check": "several"}
    assert {cli(command, none, "--format", "json").json()["status"]
            for command in ("solve", "count", "check", "hint")} == {"unsolvable"}
    assert cli("check", RIDDLER_2, "--format", "json").json()["status"] == "unique"
    assert cli("count", several, "--limit", "0", "--format", "json").json()["count"] == 4
    out = tmp_path / "records.jsonl"
    summary = cli("check", several, none, RIDDLER_2, "--out", out).out
    assert "(1 several, 1 unsolvable, 1 unique)" in summary


# Every write to standard output is checked: a failed one is one line and exit 2


def crossprolog_onto(stdout, *args, env=None, **options) -> subprocess.CompletedProcess:
    """crossprolog with its standard output onto the file object `stdout`."""
    return subprocess.run([sys.executable, "-m", "crossprolog", *map(str, args)], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60,
                          env={**os.environ, **(env or {})}, **options)


@pytest.mark.parametrize("args", [
    ["--version"], ["--help"], ["solve", "--help"], ["export", NOTEBOOK_10X6],
    ["generate", "crossproduct", "--rows", "3", "--cols", "3"], ["count", RIDDLER_2, "--format", "json"],
])
def test_output_onto_a_full_device_is_one_error_line_and_exit_2(args):
    with open("/dev/full", "w") as full:
        done = crossprolog_onto(full, *args)
    assert done.returncode == 2
    assert done.stderr == "crossprolog: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_output_onto_a_nearly_full_disk_is_never_cut_short_in_silence(tmp_path, unbuffered):
    """A file that may grow to 8 KB stands for a disk with 8 KB left; the program is 27 KB.
    Unbuffered, Python's text layer used to drop what a short write left (exit 0)."""
    limit = 8192

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with open(os.devnull, "w") as null:  # first, unlimited: Prolog's QLF files are brought up to date
        assert crossprolog_onto(null, "export", NOTEBOOK_10X6).returncode == 0
    with open(tmp_path / "program.pl", "w") as file:
        done = crossprolog_onto(file, "export", NOTEBOOK_10X6, env={"PYTHONUNBUFFERED": unbuffered},
                                preexec_fn=small_disk)
    assert done.returncode == 2
    assert done.stderr == "crossprolog: error: cannot write the output: File too large\n"
    assert (tmp_path / "program.pl").stat().st_size == limit  # and the program is known to be cut


def test_a_reader_that_closes_the_pipe_ends_the_command_quietly():
    """`| head` took what it wanted: no error line, no traceback, exit 0."""
    done = subprocess.run(f"set -o pipefail; {sys.executable} -m crossprolog generate crossproduct --rows 3 --cols 3 "
                          "-n 2000 --seed 1 | head -1", shell=True, capture_output=True, text=True,
                          timeout=120, executable="/bin/bash")
    assert done.returncode == 0 and done.stdout == "== 1\n" and done.stderr == ""


@pytest.mark.parametrize("argv, said", [
    (["grade", "--limit", "3", "x.txt"], "crossprolog grade: error: unrecognized arguments: --limit"),
    (["generate", "crossproduct", "--rows", "3", "--cols", "3", "--zero"],
     "crossprolog generate crossproduct: error: unrecognized arguments: --zero"),
])
def test_an_unknown_argument_is_said_by_its_command(argv, said):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "crossprolog", *argv], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and done.stderr.splitlines()[-1] == said


def test_steps_and_all_go_apart(cli):
    done = cli("solve", "--steps", "--all", EXAMPLES / "crossproduct" / "riddler-1.txt")
    assert done.code == 2 and done.err == ("crossprolog: error: --steps and --all go apart: a person's "
                                           "steps lead to one solution\n")
