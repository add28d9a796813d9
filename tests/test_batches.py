"""Batches: directories, worker processes, the results file, Ctrl-C, the progress bar."""

from __future__ import annotations

import json
import fcntl
import os
import pty
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from conftest import EXAMPLES, NEVER_CROSSPRODUCT

FAST = ["crossproduct/riddler-1.txt", "crosscells/puzzle-25.txt", "sudoku/golden-nugget.txt"]


def puzzle_directory(tmp_path: Path, names=FAST, extra: dict[str, str] | None = None) -> Path:
    """A directory holding copies of the examples `names` (as a.txt, b.txt, ...) and `extra` files."""
    directory = tmp_path / "puzzles"
    directory.mkdir()
    for letter, name in zip("abcdefgh", names):
        shutil.copy(EXAMPLES / name, directory / f"{letter}{Path(name).suffix}")
    for name, text in (extra or {}).items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text, encoding="utf-8")
    return directory


def without_seconds(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in record.items() if k != "seconds"} for record in records]


def crossprolog(*args, **options) -> subprocess.Popen:
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return subprocess.Popen([sys.executable, "-m", "crossprolog", *map(str, args)],
                            text=True, **{**pipes, **options})


def test_a_directory_stands_for_its_puzzle_files_in_sorted_order(cli, tmp_path):
    directory = puzzle_directory(tmp_path, extra={
        "notes.pdf": "not a puzzle", ".hidden.txt": "not read", "deeper/z.md": "|4|[1x1]|\n|-|\n|?|**4**|\n"})
    run = cli("solve", directory, "--format", "json")
    records = run.jsonl()
    assert run.code == 0
    assert [r["path"] for r in records] == [str(directory / name) for name in
                                            ("a.txt", "b.txt", "c.txt", "deeper/z.md")]
    assert [r["family"] for r in records] == ["crossproduct", "crosscells", "sudoku", "crossproduct"]
    assert records[3]["solution"] == [[4]]


def test_a_directory_without_puzzles_is_bad_input(cli, tmp_path):
    run = cli("solve", tmp_path)
    assert run.code == 2
    assert run.err == f"{tmp_path}:1:1: error: a directory without puzzle files (*.txt, *.md)\n"


def test_worker_processes_give_the_same_records_in_the_same_order(cli, tmp_path):
    directory = puzzle_directory(tmp_path, FAST * 2)
    alone = cli("count", directory, "--format", "json")
    together = cli("count", directory, "--format", "json", "--jobs", "3")
    assert together.code == alone.code == 0
    assert without_seconds(together.jsonl()) == without_seconds(alone.jsonl())


def test_text_output_of_a_batch_names_each_puzzle(cli, tmp_path):
    directory = puzzle_directory(tmp_path, FAST[:2])
    run = cli("check", directory, "--jobs", "2")
    assert run.out == (f"== {directory / 'a.txt'}\nwell-formed: exactly one solution\n"
                       f"== {directory / 'b.txt'}\nwell-formed: exactly one solution\n")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_one_bad_file_gets_its_own_record_and_the_worst_exit_code(cli, tmp_path, jobs):
    directory = puzzle_directory(tmp_path, extra={"b2.txt": "6 8\n? ? 6\n? ? x 8\n"})
    out = tmp_path / "results.jsonl"
    run = cli("solve", directory, "--jobs", jobs, "--out", out)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert run.code == 2
    assert [r["status"] for r in records] == ["solved", "solved", "error", "solved"]
    assert records[2] == {"path": str(directory / "b2.txt"), "status": "error",
                          "error": f"{directory / 'b2.txt'}:3:5: error: expected a digit, '?' or a "
                                   "product, found 'x' (read as CrossProduct: 2 of 3 lines are numbers "
                                   "and '?'; name the family with --family if it is another)"
                                   "\n? ? x 8\n    ^"}
    assert run.out == f"{out}: 4 records (3 solved, 1 error)\n"  # --out takes the records
    assert run.err == records[2]["error"] + "\n"


def test_the_results_file_replaces_an_old_one_whole_and_leaves_no_temporary_file(cli, tmp_path):
    directory = puzzle_directory(tmp_path, FAST[:1])
    out = tmp_path / "results.jsonl"
    out.write_text("an earlier run\n" * 1000)
    cli("solve", directory, "--out", out)
    assert [json.loads(line)["status"] for line in out.read_text().splitlines()] == ["solved"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["puzzles", "results.jsonl"]


def test_a_results_file_that_cannot_be_written_is_refused_before_any_work(cli, tmp_path):
    run = cli("solve", EXAMPLES / FAST[0], "--out", tmp_path / "missing" / "results.jsonl")
    assert run.code == 2 and run.out == ""
    assert run.err == (f"crossprolog: error: cannot write {tmp_path / 'missing' / 'results.jsonl'}: "
                       "No such file or directory\n")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_batch_and_keeps_what_was_finished(tmp_path, jobs):
    directory = puzzle_directory(tmp_path, [FAST[0], FAST[0]],
                                 {"c.txt": NEVER_CROSSPRODUCT, "d.txt": NEVER_CROSSPRODUCT})
    out = tmp_path / "results.jsonl"
    process = crossprolog("solve", directory, "--encoding", "chain", "--out", out, "--jobs", jobs)
    time.sleep(4)  # the two easy ones take milliseconds once started; the hard ones, minutes
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=10)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert process.returncode == 130
    assert stderr == f"crossprolog: interrupted after 2 of 4 puzzles; their records are in {out}\n"
    assert [r["path"] for r in records] == [str(directory / "a.txt"), str(directory / "b.txt")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["puzzles", "results.jsonl"]


def test_ctrl_c_stops_a_lone_long_search_at_once(write):
    process = crossprolog("solve", write(NEVER_CROSSPRODUCT), "--encoding", "chain")
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    started = time.perf_counter()
    _, stderr = process.communicate(timeout=10)
    assert time.perf_counter() - started < 2
    assert process.returncode == 130 and stderr == "crossprolog: interrupted\n"


def test_a_progress_bar_shows_on_a_terminal_only(tmp_path):
    directory = puzzle_directory(tmp_path, FAST)
    piped = crossprolog("check", directory)
    _, piped_err = piped.communicate(timeout=60)
    assert piped.returncode == 0 and piped_err == ""

    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 80 columns
    shown = crossprolog("check", directory, stderr=terminal)  # stdout stays a pipe
    os.close(terminal)
    shown.communicate(timeout=60)
    drawn = b""
    while chunk := _read_available(controller):
        drawn += chunk
    os.close(controller)
    assert shown.returncode == 0
    assert b"3/3" in drawn and b"puzzle" in drawn


def _read_available(fd: int) -> bytes:
    try:
        return os.read(fd, 4096)
    except OSError:  # the terminal's other end is closed: all was read
        return b""
