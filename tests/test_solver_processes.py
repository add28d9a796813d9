"""A MiniZinc search leaves nothing behind, whatever ends it: minizinc runs its solver
(fzn-gecode) in a process group of its own, which outlived the minizinc it was ended
with, an orphan at 100% CPU for good.  Real minizinc, processes found in /proc (Linux)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import NEVER_CROSSCELLS, STOPS, stop_sent

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")


def processes() -> dict[int, tuple[str, int, int]]:
    """Every process that runs (zombies left out): pid -> (name, parent, session)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        state, parent, _, session = stat[stat.rindex(")") + 2:].split()[:4]
        if state not in "ZX":
            found[int(entry.name)] = (name, int(parent), int(session))
    return found


def solver_sessions(command: int) -> dict[int, list[str]]:
    """The sessions of the minizinc processes the crossprolog process `command` started
    (itself or its workers), each with the FlatZinc file its solver was given."""
    running = processes()

    def descends(pid: int) -> bool:
        while pid in running and pid > 1:
            if running[pid][1] == command:
                return True
            pid = running[pid][1]
        return False

    sessions = {pid: [] for pid, (name, _, _) in running.items() if name == "minizinc" and descends(pid)}
    for pid, (name, _, session) in running.items():
        if session in sessions and name.startswith("fzn-"):
            sessions[session] += [arg for arg in Path(f"/proc/{pid}/cmdline").read_bytes()
                                  .decode().split("\0") if arg.endswith(".fzn")]
    return sessions


def left_running(sessions) -> list[str]:
    return [name for name, _, session in processes().values() if session in sessions]


def wait_until(condition, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)
    return found


def searching(tmp_path, *args, jobs: int = 1):
    """crossprolog counting what no machine finishes with minizinc, in a session of its
    own (as a terminal's job), its temporary files in tmp_path/tmp; with its solvers'
    sessions once each has its solver running."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    puzzles = []
    for n in range(jobs):
        puzzles.append(tmp_path / f"never-{n}.txt")
        puzzles[-1].write_text(NEVER_CROSSCELLS)
    where = [str(tmp_path)] if jobs > 1 else [str(puzzles[0])]
    process = subprocess.Popen([sys.executable, "-m", "crossprolog", "count", *where, "--encoding", "minizinc",
                                *args, *(["--jobs", str(jobs)] if jobs > 1 else [])],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env={**os.environ, "TMPDIR": str(temporary)})
    sessions = wait_until(lambda: (found := solver_sessions(process.pid)) and len(found) == jobs
                          and all(found.values()) and found)
    return process, sessions, temporary


def assert_nothing_left(sessions, temporary):
    try:
        wait_until(lambda: not left_running(sessions), seconds=30)
    finally:  # what a failing run left, not left running on the machine
        for pid, (_, _, session) in processes().items():
            if session in sessions:
                os.kill(pid, signal.SIGKILL)
    assert list(temporary.iterdir()) == []  # crossprolog's data files, and minizinc's own
    solver_files = [file for files in sessions.values() for file in files]
    assert solver_files and not any(map(os.path.exists, solver_files)), solver_files  # minizinc's, if not there


@pytest.mark.parametrize("stop, sent_to, code", STOPS)
def test_ctrl_c_ends_minizinc_and_its_solver(tmp_path, stop, sent_to, code):
    process, sessions, temporary = searching(tmp_path)
    stop_sent(process, stop, sent_to)
    out, err = process.communicate(timeout=60)
    assert process.returncode == code and out == "no solution found yet (interrupted)\n", (out, err)
    assert_nothing_left(sessions, temporary)


def test_minizinc_and_its_solver_end_with_crossprolog_however_it_is_killed(tmp_path):
    process, sessions, temporary = searching(tmp_path)
    process.kill()
    process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL
    assert_nothing_left(sessions, temporary)


@pytest.mark.parametrize("stop, sent_to, code", STOPS)
def test_ctrl_c_ends_the_searches_of_worker_processes(tmp_path, stop, sent_to, code):
    """The parent kills its workers (SIGKILL), which cannot end what they started; the
    workers ignore Ctrl-C and SIGTERM, and what they start must not."""
    process, sessions, temporary = searching(tmp_path, jobs=2)
    stop_sent(process, stop, sent_to)
    _, err = process.communicate(timeout=60)
    assert process.returncode == code and "Traceback" not in err, err
    assert_nothing_left(sessions, temporary)


def test_data_too_long_for_a_command_line_goes_in_a_file_removed_after(tmp_path, monkeypatch):
    from crossprolog.paradigms import minizinc

    model = tmp_path / "sum.mzn"
    model.write_text("array[int] of int: t;\narray[1..1] of var 0..100: solution;\n"
                     "constraint solution[1] = sum(t);\nsolve satisfy;\n")
    monkeypatch.setattr(minizinc, "ARGUMENT_CHARACTERS", 10)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    found = minizinc.search(str(model), {"t": list(range(10))}, [1])
    assert found["solutions"] == [[45]] and sorted(tmp_path.iterdir()) == [model]
