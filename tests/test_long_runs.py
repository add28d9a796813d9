"""Long runs: progress on terminals, Ctrl-C that keeps what was found, time limits that bound
the whole command, --version.  Every search here is one no machine finishes (conftest)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from conftest import EMPTY_SUDOKU, EXAMPLES, NEVER_CROSSPRODUCT, ended

ROOT = Path(__file__).resolve().parent.parent


STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def no_search_outlives_its_test():
    """Kill what a test started: a failed one may leave a search that never ends."""
    yield
    while STARTED:
        STARTED.pop().kill()


def crossprolog(*args, **options) -> subprocess.Popen:
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    STARTED.append(subprocess.Popen([sys.executable, "-m", "crossprolog", *map(str, args)],
                                    text=True, **{**pipes, **options}))
    return STARTED[-1]


def on_a_terminal(*args) -> tuple[subprocess.Popen, int]:
    """crossprolog with its standard error on a terminal (stdout stays a pipe), and the
    terminal's reading end."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 80 columns
    process = crossprolog(*args, stderr=terminal)
    os.close(terminal)
    os.set_blocking(controller, False)
    return process, controller


def read_terminal(controller: int, seconds: float) -> str:
    """What the terminal shows within `seconds`."""
    shown = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            shown += os.read(controller, 4096)
        except BlockingIOError:
            time.sleep(0.05)
        except OSError:  # the other end is closed
            break
    return shown.decode(errors="replace")


def test_a_count_shows_its_progress_on_a_terminal_and_ctrl_c_gives_what_it_found(write):
    process, controller = on_a_terminal("count", write(EMPTY_SUDOKU))
    shown = read_terminal(controller, 3)
    process.send_signal(signal.SIGINT)
    stdout, _ = ended(process)
    os.close(controller)
    counts = [int(n.replace(",", "")) for n in re.findall(r"([\d,]+) solutions so far \(\d\d:\d\d\)", shown)]
    assert len(counts) >= 2 and counts == sorted(counts)  # and the time spent, mm:ss
    [line] = stdout.splitlines()
    found = int(re.fullmatch(r"at least (\d+) solutions? \(interrupted\)", line)[1])
    assert process.returncode == 130 and found >= counts[-1]


def test_an_interrupted_count_in_json_says_it_is_not_complete(write):
    process = crossprolog("count", write(EMPTY_SUDOKU), "--format", "json")
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    stdout, stderr = ended(process)
    record = json.loads(stdout)
    assert process.returncode == 130 and stderr == ""
    assert record["complete"] is False and record["status"] == "interrupted" and record["count"] >= 0


def test_an_interrupted_solve_all_keeps_every_solution_it_printed(write):
    process = crossprolog("solve", "--all", write(EMPTY_SUDOKU), "--format", "json")
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    stdout, _ = ended(process)
    record = json.loads(stdout)
    assert process.returncode == 130 and record["complete"] is False
    assert record["status"] == "interrupted" and record["count"] == len(record["solutions"])

    process = crossprolog("solve", "--all", write(EMPTY_SUDOKU))
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    stdout, _ = ended(process)
    found = int(re.search(r"at least (\d+) solutions? \(interrupted\)\n$", stdout)[1])
    rows = re.findall(r"^(?:\d ){8}\d$", stdout, re.MULTILINE)
    assert process.returncode == 130 and len(rows) == 9 * found


def test_no_ctrl_c_is_lost_whatever_step_of_the_search_it_comes_in(write):
    """Twelve runs of `solve --all`, interrupted at twelve moments: each stops.  A
    Ctrl-C that came as Prolog gave it back to Python used to be dropped (one run in
    fifteen searched on for good)."""
    path = write(EMPTY_SUDOKU)
    delays = [0.3 + 0.07 * k for k in range(12)]  # from when Prolog is loaded
    for pair in zip(delays[::2], delays[1::2]):  # two at a time, one a core
        processes = [crossprolog("solve", "--all", path, "--format", "json") for _ in pair]
        for process, delay in zip(processes, pair):
            while not loaded(process.pid, "libswipl"):
                time.sleep(0.01)
            time.sleep(delay)
            process.send_signal(signal.SIGINT)
        for process in processes:
            record = json.loads(ended(process)[0])
            assert process.returncode == 130 and record["status"] == "interrupted"


def loaded(pid: int, library: str) -> bool:
    """Whether process `pid` has loaded a file whose path holds `library` (Linux: /proc)."""
    return library in Path(f"/proc/{pid}/maps").read_text()


@pytest.mark.parametrize("delay", [0, 0.2, 0.5, 1.0, 1.5])
def test_ctrl_c_stops_the_command_whenever_it_comes(write, delay):
    """While the grammars load, Prolog starts, or the search runs: `delay` seconds after
    crossprolog's own code started loading (before, Python itself is starting)."""
    process = crossprolog("solve", write(NEVER_CROSSPRODUCT), "--encoding", "chain")
    while not loaded(process.pid, "_typing"):  # a library only crossprolog.cli loads, early on
        time.sleep(0.01)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, stderr = ended(process)
    assert process.returncode == 130 and "Traceback" not in stderr


COMMAND = Path(sys.executable).with_name("crossprolog")  # as installed: bin/crossprolog


@pytest.mark.skipif(not COMMAND.exists(), reason="the crossprolog command is not installed beside Python")
def test_ctrl_c_in_the_first_moments_ends_the_command_quietly(write):
    """Python takes Ctrl-C as it starts, while it imports its site packages, before any
    code of ours: the command starts it with Ctrl-C blocked, and takes it once ready.
    The search never ends, so every Ctrl-C comes before the command is done."""
    never = write(NEVER_CROSSPRODUCT)
    seen = set()
    for delay in [0, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05, 0.06] * 5:
        code, stdout, stderr = interrupted_after(delay, "solve", never, "--encoding", "chain")
        assert "Traceback" not in stderr, stderr
        assert (code, stdout, stderr) in [(130, "", "crossprolog: interrupted\n"), (-signal.SIGINT, "", "")], stderr
        seen.add(code)
    assert 130 in seen  # not every one came before Python started


def interrupted_after(delay: float, *args) -> tuple[int, str, str]:
    """The exit code, standard output and error of the installed command run with `args`
    and sent Ctrl-C `delay` seconds after it started."""
    process = subprocess.Popen([COMMAND, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()  # a search that never ends may not outlive the test
    return process.returncode, stdout, stderr


@pytest.mark.skipif(not COMMAND.exists(), reason="the crossprolog command is not installed beside Python")
def test_a_command_that_said_it_was_interrupted_exits_130():
    """Said "crossprolog: interrupted", the process was still killed by SIGINT 5 times in
    40 (exit -2, not 130) when Ctrl-C came in its first 100 ms: a Ctrl-C sent again from
    a thread (one Python could only print) came as Prolog's handlers were gone at the
    exit.  Once the command has its exit code, Ctrl-C is blocked."""
    notebook = EXAMPLES / "crossproduct" / "notebook-10x6.txt"
    for delay in [0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1] * 4:
        code, _, stderr = interrupted_after(delay, "solve", "--all", notebook)
        assert "Traceback" not in stderr, stderr
        assert code == 130 or (code, stderr) == (-signal.SIGINT, ""), (delay, code, stderr)


def test_only_the_searching_thread_can_take_ctrl_c(write):
    """Prolog takes Ctrl-C in whichever thread the kernel hands it to: every other thread
    (Prolog's garbage collector and alarm scheduler, tqdm's) must block it.  Which of
    them are alive when the command ends varies (a run on a loaded machine listed
    one), so the test asks for at least one, and that each there blocks Ctrl-C."""
    program = ("import sys, os\n"
               "from crossprolog.cli import main\n"
               "main(sys.argv[1:])\n"
               "for task in os.listdir('/proc/self/task'):\n"
               "    if int(task) != os.getpid():\n"
               "        status = open(f'/proc/self/task/{task}/status').read()\n"
               "        blocked = int(status.split('SigBlk:')[1].split()[0], 16)\n"
               "        print(task, blocked >> (2 - 1) & 1)\n")
    done = subprocess.run([sys.executable, "-c", program, "count", write(EMPTY_SUDOKU), "--timeout", "0.5"],
                          capture_output=True, text=True, timeout=60)
    threads = [line.split() for line in done.stdout.splitlines()[1:]]
    assert len(threads) >= 1 and all(blocked == "1" for _, blocked in threads), done.stdout


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0"])
def test_a_timeout_must_be_a_positive_finite_number(cli, value):
    with pytest.raises(SystemExit) as caught:
        cli("solve", EXAMPLES / "crossproduct" / "riddler-1.txt", "--timeout", value)
    assert caught.value.code == 2


def test_the_time_limit_bounds_reading_a_huge_file(tmp_path):
    """240,000 rows take many seconds to read; the command still ends at its limit."""
    path = tmp_path / "tall.txt"
    path.write_text("7\n" + "? 7\n" * 240_000)
    started = time.monotonic()
    process = crossprolog("solve", path, "--timeout", "1", "--format", "json")
    stdout, stderr = process.communicate(timeout=60)
    assert time.monotonic() - started < 1 + 2.5  # the interpreter's start and end included
    assert process.returncode == 3 and json.loads(stdout)["status"] == "timeout"


def test_a_search_that_overruns_its_limit_is_cut_off(tmp_path):
    """Prolog may take seconds to unwind a huge search after its limit: the command does not
    wait for it.  Here a search that never returns stands for one."""
    program = ("import sys, time\n"
               "from crossprolog.puzzle import Puzzle\n"
               "Puzzle.search = lambda self, **options: time.sleep(60)\n"
               "from crossprolog.cli import main\n"
               "sys.exit(main(sys.argv[1:]))\n")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", program, "solve",
                           EXAMPLES / "crossproduct" / "riddler-1.txt", "--timeout", "1", "--format", "json"],
                          capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 1 + 1.5
    assert done.returncode == 3 and json.loads(done.stdout)["status"] == "timeout"


def test_version_names_crossprolog_and_what_it_runs_on(capsys):
    from crossprolog.cli import main
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    out = capsys.readouterr().out
    assert caught.value.code == 0
    assert re.fullmatch(r"crossprolog \S+ \(SWI-Prolog 9\.\d+\.\d+, janus-swi \S+, Python 3\.\d+\.\d+\)\n", out)


def test_ctrl_c_in_generate_keeps_the_whole_puzzles_made_in_its_out_file(tmp_path):
    """Ctrl-C once a few puzzles are in the temporary file: those finished are put in
    place, whole, and read back; with none finished an existing file stays as it was."""
    out = tmp_path / "made.txt"
    out.write_text("an earlier run's\n")
    process = crossprolog("generate", "sudoku", "-n", 300, "--seed", 1, "--well-formed", "--out", out)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and sum(
            partial.read_text().count("== ") for partial in tmp_path.glob("made.txt.*.partial")) < 3:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    made = out.read_text()
    count = made.count("\n== ") + made.startswith("== ")
    assert process.returncode == 130 and 3 <= count < 300
    assert stderr.splitlines()[-1] == f"crossprolog: interrupted after {count} of 300 puzzles; they are in {out}"
    checked = subprocess.run([sys.executable, "-m", "crossprolog", "check", out, "--format", "json"],
                             capture_output=True, text=True, timeout=120)  # every puzzle whole
    assert [json.loads(line)["status"] for line in checked.stdout.splitlines()] == ["unique"] * count
    assert list(tmp_path.glob("*.partial")) == []

    out.write_text("an earlier run's\n")  # a 20x20 CrossProduct's first draw takes a minute or more
    process = crossprolog("generate", "crossproduct", "--rows", 20, "--cols", 20, "--seed", 1,
                          "--well-formed", "--out", out)
    while not loaded(process.pid, "libswipl"):
        time.sleep(0.01)
    time.sleep(1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130 and out.read_text() == "an earlier run's\n"
    assert stderr == f"crossprolog: interrupted after 0 of 1 puzzle; {out} is left as it was\n"


def test_generate_s_time_limit_keeps_the_puzzles_made_and_ends_a_draw_that_would_not(tmp_path):
    """--timeout bounds the whole command: a puzzle being made is left (a 20x20
    CrossProduct's first draw takes a minute or more), those made are kept, whole."""
    out = tmp_path / "made.txt"
    out.write_text("an earlier run's\n")
    started = time.monotonic()
    process = crossprolog("generate", "crossproduct", "--rows", 20, "--cols", 20, "--seed", 1,
                          "--well-formed", "--timeout", 2, "--out", out)
    _, stderr = process.communicate(timeout=60)
    assert time.monotonic() - started < 2 + 10  # the interpreter's start and end included
    assert process.returncode == 3 and out.read_text() == "an earlier run's\n"
    assert stderr == f"crossprolog: time limit of 2 s reached after 0 of 1 puzzle; {out} is left as it was\n"

    process = crossprolog("generate", "sudoku", "-n", 100_000, "--seed", 1, "--well-formed",
                          "--timeout", 3, "--out", out)
    _, stderr = process.communicate(timeout=60)
    made = out.read_text()
    count = made.count("\n== ") + made.startswith("== ")
    assert process.returncode == 3
    assert stderr == f"crossprolog: time limit of 3 s reached after {count} of 100000 puzzles; they are in {out}\n"
    checked = subprocess.run([sys.executable, "-m", "crossprolog", "check", out, "--format", "json"],
                             capture_output=True, text=True, timeout=120)  # every puzzle whole
    assert [json.loads(line)["status"] for line in checked.stdout.splitlines()] == ["unique"] * count


def test_a_puzzle_being_made_shows_its_time_and_the_draws_given_up_on_a_terminal():
    """Well-formed puzzles may take long, or never come: the progress bar's time runs
    while one is made, and it counts the draws given up (a 20x20 Sumplete is never
    unique by its totals)."""
    process, controller = on_a_terminal("generate", "crosscells", "--rows", 20, "--cols", 20,
                                        "--game", "sumplete", "--seed", 1, "--well-formed")
    shown, deadline = "", time.monotonic() + 120
    while time.monotonic() < deadline and (len(set(re.findall(r"\[(\d\d:\d\d)", shown))) < 2
                                           or "draws given up" not in shown):
        shown += read_terminal(controller, 0.5)
    process.send_signal(signal.SIGINT)
    stdout, _ = process.communicate(timeout=30)
    shown += read_terminal(controller, 1)
    os.close(controller)
    given_up = [int(n.replace(",", "")) for n in re.findall(r"([\d,]+) draws given up", shown)]
    assert given_up and given_up == sorted(given_up) and stdout == ""
    assert process.returncode == 130 and "crossprolog: interrupted after 0 of 1 puzzle" in shown \
        or process.returncode == 1 and "crossprolog: gave up after 0 of 1 puzzle" in shown  # a machine past fast
