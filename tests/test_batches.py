"""Batches: directories, worker processes, the results file, Ctrl-C, the progress bar."""

from __future__ import annotations

import json
import fcntl
import os
import pty
import resource
import shutil
import signal
import stat
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from conftest import EXAMPLES, NEVER_CROSSPRODUCT, STOPS, stop_sent

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
    assert run.err == f"{tmp_path}:1:1: error: a directory without puzzle files (*.txt, *.md, *.sdk, *.sdm)\n"


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
                       f"cannot make a file in {tmp_path / 'missing'}: No such file or directory\n")


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="Linux's /proc")
def test_a_results_file_that_exists_where_no_file_can_be_made_says_so():
    """The records go to a file made beside the results file, then put in its place; in
    /proc none can be made, and "/proc/version: No such file or directory" misled."""
    run = subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(EXAMPLES / FAST[0]),
                          "--out", "/proc/version"], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("crossprolog: error: cannot write /proc/version: cannot make a file in /proc: ")


@pytest.mark.parametrize("command", [["solve", "{puzzle}", "--out", "{out}"],
                                     ["check", "{puzzle}", "--format", "html", "--out", "{out}"],
                                     ["export", "{puzzle}", "-o", "{out}"]])
def test_an_output_that_is_an_input_is_refused_and_the_puzzle_kept(cli, tmp_path, command):
    """The puzzle was replaced by its own results, silently."""
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text((EXAMPLES / FAST[0]).read_text())
    for out in (puzzle, tmp_path / "link.txt"):
        if out.name == "link.txt":
            out.symlink_to(puzzle)
        run = cli(*[arg.format(puzzle=puzzle, out=out) for arg in command])
        assert run.code == 2 and run.out == ""
        assert run.err == f"crossprolog: error: cannot write {out}: it is one of the inputs, which it would replace\n"
        assert puzzle.read_text() == (EXAMPLES / FAST[0]).read_text()


def closed(descriptor: int, *args: str, **options) -> subprocess.CompletedProcess:
    """The command line run with `descriptor` (0, 1 or 2) closed, as the shell's `<&-`,
    `>&-` or `2>&-` leave it."""
    return subprocess.run([sys.executable, "-m", "crossprolog", *args], text=True, timeout=120,
                          preexec_fn=lambda: os.close(descriptor), **options)


def test_a_closed_standard_stream_is_a_line_of_error_or_nothing_not_a_traceback():
    """Python makes a closed standard stream None: solve, generate and export printed
    a traceback and exited 1 (stdout, stdin), or exited 1 having printed the solution
    (stderr), and count printed nothing (stderr)."""
    riddler = str(EXAMPLES / "crossproduct" / "riddler-1.txt")
    for args in (["solve", riddler], ["generate", "crossproduct", "--rows", "3", "--cols", "3"],
                 ["export", riddler]):
        done = closed(1, *args, stderr=subprocess.PIPE)
        assert (done.returncode, done.stderr) == (2, "crossprolog: error: cannot write the output: "
                                                     "Bad file descriptor\n"), args
    done = closed(0, "solve", "-", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.endswith("error: cannot read standard input: Bad file descriptor\n")
    assert len(done.stderr.splitlines()) == 1
    done = closed(2, "solve", riddler, stdout=subprocess.PIPE)
    assert done.returncode == 0 and done.stdout.startswith("3000 3969 640\n")
    done = closed(2, "count", str(EXAMPLES / "crossproduct" / "notebook-10x6.txt"), "--limit", "5",
                  stdout=subprocess.PIPE)
    assert done.returncode == 0 and done.stdout == "at least 5 solutions (stopped at --limit 5)\n"


def test_a_character_the_outputs_encoding_lacks_is_escaped_not_a_traceback(tmp_path):
    """With a Latin-1 standard output, a CrossCells minus sign (U+2212, which the grammar
    reads) ended solve with a UnicodeEncodeError's traceback."""
    puzzle = tmp_path / "minus.txt"
    puzzle.write_text("+1 \u22121 =0\n#1 #1\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", str(puzzle)], capture_output=True,
                          timeout=120, env={**os.environ, "PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode("latin-1").splitlines()[0].split() == ["+1!", "\\u22121!", "=0"]


def test_standard_input_read_from_the_output_file_is_an_input_too(tmp_path):
    """`solve - --out puzzle.txt < puzzle.txt` replaced the puzzle by its record."""
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text((EXAMPLES / FAST[0]).read_text())
    with puzzle.open() as given:
        done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", "-", "--out", str(puzzle)],
                              stdin=given, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"crossprolog: error: cannot write {puzzle}: it is one of the inputs, which it would replace\n"
    assert puzzle.read_text() == (EXAMPLES / FAST[0]).read_text()
    with puzzle.open() as given:  # another file is written, as it was
        done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", "-", "--out", str(tmp_path / "r.jsonl")],
                              stdin=given, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and '"status": "solved"' in (tmp_path / "r.jsonl").read_text()


@pytest.mark.parametrize("form", [[], ["--format", "html"]])
def test_an_output_that_is_a_puzzle_of_an_input_directory_is_refused_and_the_puzzle_kept(cli, tmp_path, form):
    """Named as a file of a directory given as input, a puzzle was replaced by the
    records or the page, silently; a results file or page of a run before is not a
    puzzle, and is replaced."""
    directory = puzzle_directory(tmp_path, FAST[:2])
    puzzle = directory / "a.txt"
    kept = puzzle.read_text()
    run = cli("solve", directory, *form, "--out", puzzle)
    assert run.code == 2 and run.out == ""
    assert run.err == (f"crossprolog: error: cannot write {puzzle}: it is a puzzle file of an input "
                       "directory, which it would replace\n")
    assert puzzle.read_text() == kept
    out = directory / "results.txt"
    first, again = (cli("solve", directory, *form, "--out", out) for _ in range(2))
    assert first.code == again.code == 0 and out.read_text().startswith(("{", "<"))
    markdown = directory / "c.md"  # a puzzle whose first line is an HTML comment is still one
    markdown.write_text("<!-- mine -->\n" + kept)
    assert cli("solve", directory, *form, "--out", markdown).code == 2 and markdown.read_text().startswith("<!--")


def test_the_records_and_pages_of_other_runs_in_a_directory_of_inputs_are_not_read_as_puzzles(cli, tmp_path):
    """A page or records left there by a run with another --out were read as puzzles:
    "this looks like no puzzle family", exit 2."""
    directory = puzzle_directory(tmp_path, FAST[:2])
    assert cli("solve", directory, "--out", directory / "records.txt").code == 0
    assert cli("solve", directory, "--format", "html", "--out", directory / "page.md").code == 0
    run = cli("solve", directory, "--format", "json")
    assert run.code == 0 and [record["path"] for record in run.jsonl()] == \
        [str(directory / "a.txt"), str(directory / "b.txt")]


def test_a_results_file_in_a_directory_of_inputs_is_not_read_as_one(cli, tmp_path):
    """Run twice, a command read the records of the first run as a puzzle (an error)."""
    directory = puzzle_directory(tmp_path, FAST[:2])
    out = directory / "results.txt"
    first, again = (cli("solve", directory, "--out", out) for _ in range(2))
    assert first.code == again.code == 0
    assert [json.loads(line)["path"] for line in out.read_text().splitlines()] == \
        [str(directory / "a.txt"), str(directory / "b.txt")]


# SIGTERM stops a batch as Ctrl-C does; it used to lose every record.
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("stop, sent_to, code", STOPS)
def test_ctrl_c_stops_a_batch_and_keeps_what_was_finished(tmp_path, jobs, stop, sent_to, code):
    directory = puzzle_directory(tmp_path, [FAST[0], FAST[0]],
                                 {"c.txt": NEVER_CROSSPRODUCT, "d.txt": NEVER_CROSSPRODUCT})
    out = tmp_path / "results.jsonl"
    process = crossprolog("solve", directory, "--encoding", "chain", "--out", out, "--jobs", jobs,
                          start_new_session=True)
    # The two easy ones take milliseconds once started; the hard ones, minutes.
    wait_until(lambda: written(tmp_path) == 2)
    stop_sent(process, stop, sent_to)
    stdout, stderr = process.communicate(timeout=10)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert process.returncode == code
    assert stderr == f"crossprolog: interrupted after 2 of 4 puzzles; their records are in {out}\n"
    assert [r["path"] for r in records] == [str(directory / "a.txt"), str(directory / "b.txt")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["puzzles", "results.jsonl"]


@pytest.mark.parametrize("stop, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_batch_stopped_while_its_inputs_are_read_ends_with_its_workers(tmp_path, stop, code):
    """Its workers start while the inputs are read (here, a standard input that never
    ends).  Stopped then, the command waited for good at its exit for workers that
    ignore SIGTERM, which Python's multiprocessing ends them with."""
    directory = puzzle_directory(tmp_path, [FAST[0], FAST[0]])
    out = tmp_path / "results.jsonl"
    process = crossprolog("count", directory, "-", "--jobs", "2", "--out", out, stdin=subprocess.PIPE)
    try:
        wait_until(lambda: len([w for w in workers_of(process.pid) if ignores_sigterm(w)]) == 2)
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
        for worker in workers_of(process.pid):
            os.kill(worker, signal.SIGKILL)
    assert process.returncode == code and stderr == "crossprolog: interrupted\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["puzzles"]


def workers_of(parent: int) -> list[int]:
    """The worker processes (spawned by multiprocessing) whose parent is `parent`."""
    found = []
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
            command = (status.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == parent and b"spawn_main" in command:
            found.append(int(status.parent.name))
    return found


def ignores_sigterm(pid: int) -> bool:
    """Whether process `pid` ignores SIGTERM (a worker does once it is ready)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    ignored = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:")), 16)
    return bool(ignored & 1 << (signal.SIGTERM - 1))


def written(directory: Path) -> int:
    """How many records a run has written whole to its temporary results file in `directory`."""
    return sum(text.count("\n") for text in (p.read_text() for p in directory.glob("*.partial")))


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


# Workers that die, parents that die, results files that cannot be written


def worker_processes(parent: int) -> list[int]:
    """The worker processes of the crossprolog process `parent` (Linux: /proc)."""
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    return [int(pid) for pid in children
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def running(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie waiting to be reaped does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_until(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def test_a_killed_worker_gets_an_error_record_and_the_batch_ends(tmp_path):
    directory = puzzle_directory(tmp_path, [FAST[0], FAST[0]], {"ab.txt": NEVER_CROSSPRODUCT})
    out = tmp_path / "results.jsonl"
    process = crossprolog("solve", directory, "--encoding", "chain", "--jobs", "2", "--out", out)
    wait_until(lambda: len(worker_processes(process.pid)) == 2)
    wait_until(lambda: len(worker_processes(process.pid)) == 1)  # a and c are done: b is left
    [worker] = worker_processes(process.pid)
    os.kill(worker, signal.SIGKILL)
    _, stderr = process.communicate(timeout=30)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert process.returncode == 3
    assert [r["status"] for r in records] == ["solved", "error", "solved"]
    assert records[1]["error"] == (f"{directory / 'ab.txt'}: the worker process solving it was killed "
                                   "(SIGKILL: out of memory?)")
    assert stderr == f"{directory / 'ab.txt'}: error: {records[1]['error'].split(': ', 1)[1]}\n"


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_stop_when_their_parent_is_killed(tmp_path, how):
    directory = puzzle_directory(tmp_path, [], {"a.txt": NEVER_CROSSPRODUCT, "b.txt": NEVER_CROSSPRODUCT})
    process = crossprolog("solve", directory, "--encoding", "chain", "--jobs", "2")
    wait_until(lambda: len(worker_processes(process.pid)) == 2)
    workers = worker_processes(process.pid)
    process.send_signal(how)
    process.communicate(timeout=30)
    wait_until(lambda: not any(map(running, workers)), seconds=5)


def test_results_go_through_a_symlink_to_its_file_and_leave_the_link(cli, tmp_path):
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_text("old\n")
    link.symlink_to(real)
    cli("solve", EXAMPLES / FAST[0], "--out", link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert [json.loads(line)["status"] for line in real.read_text().splitlines()] == ["solved"]


def test_results_are_written_into_a_pipe_or_device_never_over_it(cli, tmp_path):
    fifo = tmp_path / "results.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    run = cli("solve", EXAMPLES / FAST[0], EXAMPLES / FAST[1], "--out", fifo)
    reader.join(timeout=60)
    assert run.code == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode)  # never replaced
    assert [json.loads(line)["status"] for line in received[0].splitlines()] == ["solved", "solved"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.fifo"]


def test_a_reader_that_closes_the_pipe_of_out_early_ends_the_command_quietly(tmp_path):
    """`--out /dev/stdout | head -1` said "cannot write /dev/stdout: Broken pipe", exit 2,
    where standard output itself ends quietly.  2,000 records outgrow the pipe's buffer:
    the command is still writing when the reader leaves."""
    batch = tmp_path / "many.txt"
    batch.write_text("".join(f"== {n}\n6 8\n? ? 6\n? ? 8\n" for n in range(2000)))
    process = crossprolog("solve", batch, "--out", "/dev/stdout")
    first = process.stdout.readline()
    process.stdout.close()
    assert json.loads(first)["status"] == "solved"
    assert process.wait(timeout=120) == 0 and process.stderr.read() == ""


def test_a_full_device_is_one_error_line(cli):
    run = cli("solve", EXAMPLES / FAST[0], "--out", "/dev/full")
    assert run.code == 2 and run.err == "crossprolog: error: cannot write /dev/full: No space left on device\n"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_disk_full_midway_keeps_the_records_written_and_says_where(tmp_path):
    """The disk fills up at the third record (a file may grow only past the first two,
    by less than the third): the first two stay, whole, in this run's own temporary file."""
    directory = puzzle_directory(tmp_path, FAST + FAST[:1])
    out = tmp_path / "results.jsonl"
    first = crossprolog("solve", directory, "--out", out)
    first.communicate(timeout=60)
    two = sum(len(line) + 1 for line in out.read_text().splitlines()[:2])
    limit = two + 40  # the seconds of a record vary by a few characters; the third is longer

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    process = crossprolog("solve", directory, "--out", out, preexec_fn=small_disk)
    _, stderr = process.communicate(timeout=60)
    [partial] = [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]
    assert partial.name.startswith("results.jsonl.")
    assert process.returncode == 2 and stderr.endswith(
        f"crossprolog: error: cannot write {out}: File too large; the 2 records written "
        f"before are in {partial}\n")
    assert [json.loads(line)["path"] for line in partial.read_text().splitlines()] == [
        str(directory / "a.txt"), str(directory / "b.txt")]
    assert [json.loads(line)["path"] for line in out.read_text().splitlines()] == [  # the first run's
        str(directory / name) for name in ("a.txt", "b.txt", "c.txt", "d.txt")]


def test_batches_writing_one_results_file_at_once_each_keep_their_own_until_the_end(tmp_path):
    """Two batches with the same --out: each writes a temporary file of its own (its
    records only), and the results file is one batch's records, whole."""
    out = tmp_path / "results.jsonl"
    directories = []
    for name in ("first", "second"):
        directory = tmp_path / name
        directory.mkdir()
        shutil.copy(EXAMPLES / FAST[0], directory / "a.txt")
        (directory / "b.txt").write_text(NEVER_CROSSPRODUCT)  # they are still at work on it
        directories.append(directory)
    processes = [crossprolog("solve", directory, "--encoding", "chain", "--out", out)
                 for directory in directories]
    try:
        partials = lambda: [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]
        wait_until(lambda: len(partials()) == 2 and all(p.stat().st_size for p in partials()))
        kept = sorted(json.loads(p.read_text())["path"] for p in partials())
        assert kept == [str(directory / "a.txt") for directory in directories]
        for process in processes:
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=30)
            assert process.returncode == 130
            assert stderr == f"crossprolog: interrupted after 1 of 2 puzzles; their records are in {out}\n"
    finally:
        for process in processes:  # their searches never end: none may outlive the test
            process.kill()
    [record] = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["path"] in kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first", "results.jsonl", "second"]


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/stderr", "/dev/fd/{fd}", "/proc/self/fd/{fd}"])
def test_results_go_into_a_pipe_named_as_a_descriptor(tmp_path, name):
    """The README's `--out /dev/stdout`, with standard output a pipe (its path is
    `pipe:[N]`: it cannot be reopened, nor replaced)."""
    reading, writing = os.pipe()
    target = {"/dev/stdout": {"stdout": writing}, "/dev/stderr": {"stderr": writing}}.get(name, {})
    process = crossprolog("solve", EXAMPLES / FAST[0], EXAMPLES / FAST[1], "--out", name.format(fd=writing),
                          pass_fds=(writing,), **target)
    os.close(writing)
    with os.fdopen(reading) as pipe:
        received = pipe.read()
    process.communicate(timeout=60)
    assert process.returncode == 0
    records = [json.loads(line) for line in received.splitlines() if line.startswith("{")]
    assert [record["status"] for record in records] == ["solved", "solved"]
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_results_file_keeps_its_mode_and_its_hard_links(cli, tmp_path):
    out, link = tmp_path / "results.jsonl", tmp_path / "link.jsonl"
    out.write_text("an earlier run\n")
    out.chmod(0o640)
    os.link(out, link)
    inode = out.stat().st_ino
    cli("solve", EXAMPLES / FAST[0], "--out", out)
    assert out.stat().st_ino == inode and out.stat().st_nlink == 2
    assert [json.loads(line)["status"] for line in link.read_text().splitlines()] == ["solved"]
    os.unlink(link)
    cli("solve", EXAMPLES / FAST[0], EXAMPLES / FAST[1], "--out", out)  # replaced, not linked
    assert len(out.read_text().splitlines()) == 2 and stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.jsonl"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may give a file to another user")
def test_as_root_a_results_file_keeps_its_owner(cli, tmp_path):
    """Root replacing another user's 0600 file left a root-owned 0644 file."""
    out = tmp_path / "results.jsonl"
    out.write_text("an earlier run\n")
    out.chmod(0o600)
    os.chown(out, 1000, 1000)
    cli("solve", EXAMPLES / FAST[0], "--out", out)
    done = out.stat()
    assert (done.st_uid, done.st_gid, stat.S_IMODE(done.st_mode)) == (1000, 1000, 0o600)
    assert [json.loads(line)["status"] for line in out.read_text().splitlines()] == ["solved"]


@pytest.mark.parametrize("target, message", [
    ("missing/puzzle.pl", "cannot make a file in {tmp_path}/missing: No such file or directory"),
    (".", "it is a directory"),
])
def test_export_onto_a_path_that_cannot_be_written_is_one_error_line(cli, tmp_path, target, message):
    run = cli("export", EXAMPLES / FAST[0], "-o", tmp_path / target)
    said = message.format(tmp_path=tmp_path)
    assert run.code == 2 and run.err == f"crossprolog: error: cannot write {tmp_path / target}: {said}\n"


def test_file_names_are_shown_escaped_never_raw(cli, tmp_path):
    """A newline or an escape sequence in a file name cannot forge a PATH:LINE:COL line."""
    path = tmp_path / "evil\n/tmp/x.txt:1:1: error: forged\x1b[2J.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("6 8\n? a 48\n")
    run = cli("solve", path)
    [head, shown, caret] = run.err.splitlines()
    assert head.startswith(str(tmp_path) + "/evil\\n/tmp/x.txt:1:1: error: forged\\x1b[2J.txt:2:3: error:")
    assert "\x1b" not in run.err


def test_export_onto_a_file_that_cannot_be_replaced_is_one_error_line(cli):
    """/proc/version cannot be written, not even by root (who may write any ordinary file)."""
    run = cli("export", EXAMPLES / FAST[0], "-o", "/proc/version")
    assert run.code == 2 and run.err.startswith("crossprolog: error: cannot write /proc/version: ")
    assert len(run.err.splitlines()) == 1


def test_output_onto_a_full_disk_is_one_error_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", EXAMPLES / FAST[0]],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "crossprolog: error: cannot write the output: No space left on device\n"



def test_an_item_queued_behind_one_whose_worker_dies_goes_to_another_worker():
    # A worker holds the item at work and, while others wait, the next one queued behind
    # it: the worker of item 3 dies once item 4 is queued; 3 alone gets a WorkerDied,
    # 4 goes to a fresh worker, every other item gets its result once.
    from crossprolog import batch

    results = list(batch.results(_doubled_but_3_dies, range(7), jobs=1, isolated=True))
    found = dict(results)
    assert sorted(index for index, _ in results) == list(range(7))
    assert isinstance(found[3], batch.WorkerDied) and "exit code 1" in str(found[3])
    assert [found[i] for i in (0, 1, 2, 4, 5, 6)] == [0, 2, 4, 8, 10, 12]


def _doubled_but_3_dies(item: int) -> int:
    if item == 3:
        from crossprolog import batch

        assert batch._parent_pipe.poll(60)  # item 4, queued behind this one
        os._exit(1)
    return 2 * item


def test_workers_start_while_the_inputs_are_read_and_no_more_than_the_puzzles(tmp_path, monkeypatch):
    from crossprolog import batch
    from crossprolog.cli.inputs import puzzles_named
    from crossprolog.registry import generate

    sudokus = [p.render() for p in generate("sudoku", 9, 9, n=2, seed=1)]
    texts = {"several": "== 1\n6 8\n? ? 6\n? a 8\n== 2\n6 8\n? ? 6\n? a 8\n",
             "lines": "# two puzzles, one a line\n\n" + "".join(_line_of_81(p) + "\n" for p in sudokus),
             "lone": "6 8\n? ? 6\n? a 8\n", "lone-sudoku": sudokus[0], "lone-line": _line_of_81(sudokus[0])}
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text)
    told = {name: puzzles_named([str(tmp_path / f"{name}.txt")], 30) for name in texts}
    assert told == {"several": 30, "lines": 30, "lone": 1, "lone-sudoku": 1, "lone-line": 1}
    lone = str(tmp_path / "lone.txt")
    assert puzzles_named([str(tmp_path)], 30) == 30 and puzzles_named([lone] * 2, 30) == 2
    assert puzzles_named([lone] * 9, 4) == 4 and puzzles_named(["-", str(tmp_path / "missing.txt")], 30) == 2
    assert puzzles_named(["-"], 30) == 1
    monkeypatch.setattr(batch, "cores", lambda: 64)  # whatever this machine has
    batch.prepare(1, None, lambda most: most)
    batch.prepare(30, None, lambda most: 1)
    assert not batch._prepared  # no workers asked for, or a lone puzzle
    batch.prepare(30, None, lambda most: 2)  # two puzzles, 30 jobs: two workers
    started = {process.pid for process, _ in batch._prepared}
    assert len(started) == 2
    results = list(batch.results(_process_id, range(5), jobs=2))
    assert sorted(index for index, _ in results) == list(range(5))
    assert {pid for _, pid in results} <= started and not batch._prepared


def test_a_batch_starts_no_more_workers_than_its_puzzles(cli, tmp_path, monkeypatch):
    """`count a.txt b.txt --jobs 30` started 30 workers (about 500 MB) for two puzzles."""
    from crossprolog import batch

    monkeypatch.setattr(batch, "cores", lambda: 64)  # whatever this machine has
    started = []
    worker = batch._worker
    monkeypatch.setattr(batch, "_worker", lambda context: started.append(1) or worker(context))
    directory = puzzle_directory(tmp_path, FAST[:2])
    run = cli("count", directory / "a.txt", directory / "b.txt", "--jobs", "30", "--format", "json")
    assert run.code == 0 and [record["count"] for record in run.jsonl()] == [1, 1]
    assert len(started) == 2


def test_no_more_workers_run_than_there_are_cores(monkeypatch):
    """--jobs 1000 ran 1000 Pythons: searches use a core each, and a worker more only
    waits for one, with a Prolog of its own in memory."""
    from crossprolog import batch

    monkeypatch.setattr(batch, "cores", lambda: 2)
    batch.prepare(1000, None, lambda most: most)
    started = {process.pid for process, _ in batch._prepared}
    assert len(started) == 2
    results = list(batch.results(_process_id, range(6), jobs=1000))
    assert sorted(index for index, _ in results) == list(range(6))
    assert {pid for _, pid in results} <= started and not batch._prepared
    monkeypatch.setattr(batch, "cores", lambda: 1)  # one core: the work runs here, as with --jobs 1
    batch.prepare(1000, None, lambda most: most)
    assert not batch._prepared
    assert {pid for _, pid in batch.results(_process_id, range(3), jobs=1000)} == {os.getpid()}


def _line_of_81(sudoku_text: str) -> str:
    return "".join(char for char in sudoku_text if char in ".0123456789")


def _process_id(item: int) -> int:
    return os.getpid()
