"""--cluster: the same records as --jobs, from a real local Dask cluster of 2 worker processes.

One cluster serves the module (starting one takes seconds on a loaded machine);
its scheduler's address is what the commands get, as a user's would be.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import crossprolog
import crossprolog.cli
from crossprolog import cluster, studies
from conftest import EXAMPLES, NEVER_CROSSPRODUCT

distributed = pytest.importorskip("distributed")

FAST = ["crossproduct/riddler-1.txt", "crosscells/puzzle-25.txt", "kenken/issue-4x4.txt",
        "crossproduct/givens.txt"]


@pytest.fixture(scope="module")
def dask_cluster():
    """A local Dask cluster of 2 worker processes, one thread each, and a client of it.
    A task that a worker dies in fails at once (Dask retries it 3 times by default):
    every death costs a worker's restart, seconds.  As on crossprolog's own local
    clusters, a worker is given a task only once it is free (cluster.connected)."""
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                          "distributed.scheduler.worker-saturation": 1.0}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as local, distributed.Client(local) as client:
        yield client


@pytest.fixture
def address(dask_cluster) -> str:
    yield dask_cluster.scheduler_info()["address"]
    wait_until(lambda: idle(dask_cluster), seconds=60)  # the next test finds the workers free


def idle(client) -> bool:
    return not any(client.run(lambda dask_worker: len(dask_worker.state.executing)).values())


def wait_until(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def without_times(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in record.items() if k != "seconds"} for record in records]


def batch_file(tmp_path: Path, texts: list[str]) -> Path:
    """One file holding `texts` as puzzles `== 1`, `== 2`, ..."""
    path = tmp_path / "batch.txt"
    path.write_text("".join(f"== {n}\n{text}\n" for n, text in enumerate(texts, 1)))
    return path


def crossprolog_process(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "crossprolog", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_records_equal_those_of_one_process(cli, tmp_path, address, dask_cluster):
    texts = [(EXAMPLES / name).read_text() for name in FAST] * 3 + ["6 8\n? ? 6\n? a 8\n"]
    path = batch_file(tmp_path, texts)
    alone = cli("check", path, "--format", "json", "--jobs", "1")
    spread = cli("check", path, "--format", "json", "--cluster", address)
    assert spread.code == alone.code == 2  # the worst: the bad puzzle
    assert without_times(spread.jsonl()) == without_times(alone.jsonl())
    assert len(spread.jsonl()) == len(texts) and spread.err == alone.err
    out = tmp_path / "results.jsonl"
    written = cli("solve", path, "--cluster", address, "--out", out)
    assert written.code == 2 and written.out.startswith(f"{out}: 13 records")
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["puzzle"] for r in records] == list(range(1, 14))
    # Each worker started Prolog once, however many tasks and commands it ran.
    assert list(dask_cluster.run(_engine_starts).values()) == [1, 1]


def test_cluster_alone_takes_the_scheduler_dask_s_setting_names(cli, tmp_path, address, monkeypatch):
    """`--cluster` with no address was refused as "not ''" by argparse."""
    import dask

    path = batch_file(tmp_path, [(EXAMPLES / name).read_text() for name in FAST])
    alone = cli("check", path, "--format", "json")
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)
    try:
        dask.config.refresh()  # Dask reads its environment once, at import
        spread = cli("check", path, "--format", "json", "--cluster")
    finally:
        monkeypatch.delenv("DASK_SCHEDULER_ADDRESS")
        dask.config.refresh()
    assert spread.code == alone.code == 0 and spread.err == ""
    assert without_times(spread.jsonl()) == without_times(alone.jsonl())
    elsewhere = subprocess.run([sys.executable, "-m", "crossprolog", "check", path, "--cluster"],
                               capture_output=True, text=True, timeout=60,
                               env={**os.environ, "DASK_SCHEDULER_ADDRESS": "tcp://127.0.0.1:9"})
    assert done_unreachable(elsewhere, "tcp://127.0.0.1:9")


def done_unreachable(done: subprocess.CompletedProcess, address: str) -> bool:
    return done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1 and \
        done.stderr.startswith(f"crossprolog: error: cannot reach the Dask scheduler at {address}: ")


def _engine_starts() -> int:
    from crossprolog import dask_worker

    return dask_worker.engine_starts


def test_an_item_that_kills_its_workers_gets_worker_died_and_the_others_their_results(dask_cluster):
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import tests/
    try:
        results = list(cluster._chunked(dask_cluster, _doubled_but_3_kills, range(6), died=lambda why: why))
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    found = dict(results)
    assert sorted(index for index, _ in results) == list(range(6))  # each once
    assert [found[i] for i in (0, 1, 2, 4, 5)] == [0, 2, 4, 8, 10]
    # 3 killed its worker in its chunk, alone, and once more alone on the cluster: it alone is blamed
    assert found[3] == "the worker process solving it died, each time it was tried (on the Dask cluster)"
    wait_until(lambda: len(dask_cluster.scheduler_info()["workers"]) == 2, seconds=300)


def _doubled_but_3_kills(item: int) -> int:
    if item == 3:
        os._exit(1)
    return 2 * item


def test_a_workers_chunks_share_one_prolog_engine(dask_cluster):
    """Each search in the same engine, not a new one per call (janus's way in a thread
    other than the main one): what a chunk leaves in a Prolog global variable, the
    worker's next chunk finds."""
    import cloudpickle

    from crossprolog.dask_worker import PrologEngine, run_chunk

    dask_cluster.register_plugin(PrologEngine(), name="crossprolog-engine")  # as a command does
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        for worker in dask_cluster.scheduler_info()["workers"]:
            found = [dask_cluster.submit(run_chunk, _kept_in_prolog, pickle.dumps([item, item + 1]),
                                         workers=[worker], pure=False).result()[0] for item in (10, 20)]
            assert found[0][1] == 10 and found[1] == [11, 20]
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def _kept_in_prolog(item: int) -> object:
    """The value the last call left, and `item` left in its place."""
    from crossprolog import engine

    return engine.call("(nb_current(crossprolog_test_kept, B) -> true ; B = none), "
                       "nb_setval(crossprolog_test_kept, I)", {"I": item})["B"]


def test_a_puzzles_timeout_holds_on_the_workers(cli, tmp_path, address):
    path = batch_file(tmp_path, [NEVER_CROSSPRODUCT, (EXAMPLES / FAST[0]).read_text()])
    run = cli("solve", path, "--encoding", "chain", "--timeout", "1", "--format", "json",
              "--cluster", address)
    assert run.code == 3
    assert [r["status"] for r in run.jsonl()] == ["timeout", "solved"]


def test_a_worker_killed_mid_chunk_loses_and_duplicates_nothing(cli, tmp_path, address, dask_cluster):
    # Chunks of 2 (cluster.FIRST_CHUNK): each worker gets a slow puzzle (its --timeout)
    # with a fast one behind it; one worker is killed while it searches.
    slow = NEVER_CROSSPRODUCT
    fast = (EXAMPLES / FAST[0]).read_text()
    path = batch_file(tmp_path, [slow, fast, slow, fast, fast, fast])
    pids = dask_cluster.run(os.getpid)
    killed = []

    def kill_one_at_work() -> None:
        wait_until(lambda: all(dask_cluster.run(lambda dask_worker: len(dask_worker.state.executing)).values()))
        time.sleep(0.5)  # in the search of its slow puzzle, which takes 4 s
        worker = next(iter(pids))
        os.kill(pids[worker], signal.SIGKILL)
        killed.append(worker)

    killer = threading.Thread(target=kill_one_at_work)
    killer.start()
    run = cli("solve", path, "--encoding", "chain", "--timeout", "4", "--format", "json",
              "--cluster", address)
    killer.join()
    assert killed
    assert run.code == 3
    records = run.jsonl()
    assert [r["puzzle"] for r in records] == [1, 2, 3, 4, 5, 6]
    assert [r["status"] for r in records] == ["timeout", "solved", "timeout", "solved", "solved", "solved"]
    wait_until(lambda: len(dask_cluster.scheduler_info()["workers"]) == 2, seconds=300)  # the nanny's new one


@pytest.mark.parametrize("stop, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_cancels_the_tasks_and_keeps_finished_records(tmp_path, address, dask_cluster, stop, code):
    fast = (EXAMPLES / FAST[0]).read_text()
    path = batch_file(tmp_path, [fast, fast] + [NEVER_CROSSPRODUCT] * 6)
    out = tmp_path / "results.jsonl"
    process = crossprolog_process("solve", path, "--encoding", "chain", "--timeout", "3", "--out", out,
                                  "--cluster", address)
    wait_until(lambda: sum(p.read_text().count("\n") for p in tmp_path.glob("*.partial")) == 2)
    process.send_signal(stop)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == code
    assert stderr == f"crossprolog: interrupted after 2 of 8 puzzles; their records are in {out}\n"
    assert [json.loads(line)["puzzle"] for line in out.read_text().splitlines()] == [1, 2]
    # Nothing of the run is left on the cluster (what was at work stops at its next puzzle).
    wait_until(lambda: not dask_cluster.processing() or not any(dask_cluster.processing().values()))


def test_same_seed_same_table_and_puzzles_with_one_worker_or_two(cli, address):
    n = str(studies.STATS_CHUNK * 2 + 100)  # three chunks per size
    tables = [cli("stats", "crossproduct", "--sizes", "3x3,3x4", "-n", n, "--seed", "9", "--format", "json",
                  *where).json() for where in ([], ["--jobs", "2"], ["--cluster", address])]
    assert tables[0] == tables[1] == tables[2]
    n = str(studies.GENERATE_CHUNK * 2 + 5)
    made = [cli("generate", "kenken", "--rows", "4", "--cols", "4", "-n", n, "--seed", "5", *where).out
            for where in ([], ["--cluster", address])]
    assert made[0] == made[1] and made[0].count("\n== ") == int(n) - 1
    well = [cli("generate", "crossproduct", "--rows", "3", "--cols", "3", "-n", "12", "--seed", "5",
                "--well-formed", "--format", "json", *where).out for where in ([], ["--cluster", address])]
    assert well[0] == well[1]


def test_the_first_chunk_is_the_generators_own_draw_and_the_others_differ():
    first, second = studies.chunks("crossproduct", 3, 3, 7, 42, size=4)
    assert (first.seed, first.count, second.count) == (42, 4, 3)
    assert studies.made(first) == [(p, None) for p in crossprolog.generate("crossproduct", 3, 3, 4, seed=42)]
    assert studies.made(second) != studies.made(studies.Chunk("crossproduct", 3, 3, 3, 42))
    assert studies.chunk_seed(42, 1) == studies.chunk_seed(42, 1) != studies.chunk_seed(43, 1)


def test_stats_shows_a_wilson_interval_for_each_share(cli):
    assert studies.wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert studies.wilson(5, 10) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    run = cli("stats", "crossproduct", "--sizes", "3x3", "-n", "200", "--seed", "42")  # 66 of 200
    assert run.out == "size  well-formed\n3x3    33%  (27-40%)\n"
    assert cli("stats", "crossproduct", "--sizes", "3x3", "-n", "200", "--seed", "42",
               "--format", "json").json()["interval_95"] == {"3x3": [pytest.approx(0.2686, abs=1e-4),
                                                                    pytest.approx(0.3978, abs=1e-4)]}


def test_compare_over_many_puzzles_runs_on_the_cluster(cli, tmp_path, address):
    path = batch_file(tmp_path, [(EXAMPLES / name).read_text() for name in FAST[:2]])
    runs = [cli("compare", path, "--repeat", "1", "--format", "json", *where)
            for where in ([], ["--cluster", address])]
    measured = ("seconds", "seconds_min", "seconds_max", "cpu", "inferences", "total", "median", "ratio")
    kept = [[{k: v for k, v in record.items() if k not in measured} for record in run.jsonl()] for run in runs]
    assert runs[0].code == runs[1].code == 0 and kept[0] == kept[1] and len(kept[0]) > 4


def test_compare_ends_a_worker_whose_run_will_not_stop_and_goes_on(tmp_path, address, dask_cluster):
    """A user's encoding that catches its time limit: the watchdog gives up on its run
    and the puzzle's record comes back, the next puzzle goes on, and the worker that
    held the run ends (its nanny starts another), ending the search with it."""
    encoding = tmp_path / "stubborn.pl"
    encoding.write_text(":- module(stubborn, [model/3]).\n"
                        "model(_, [[X]], stubborn:forever(X)).\n"
                        "forever(X) :- catch((repeat, fail), _, true), forever(X).\n")
    riddler, givens = EXAMPLES / "crossproduct" / "riddler-1.txt", EXAMPLES / "crossproduct" / "givens.txt"
    before = dask_cluster.run(os.getpid)
    done = subprocess.run([sys.executable, "-m", "crossprolog", "compare", riddler, givens, "--encoding-file",
                           encoding, "--encodings", "auto,stubborn", "--timeout", "0.5", "--repeat", "1",
                           "--format", "json", "--cluster", address], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["puzzle"], r["encoding"], r["status"]) for r in records if r["record"] == "run"] == [
        (str(riddler), "auto", "complete"), (str(riddler), "stubborn", "timeout"),
        (str(givens), "auto", "complete"), (str(givens), "stubborn", "timeout")]
    assert done.stderr.count("error: stubborn did not stop at its time limit (0.5 s)") == 2
    assert "Traceback" not in done.stderr
    now: dict[str, set] = {}

    def replaced() -> bool:
        """Two workers again, not both of those before; a worker going while asked (its
        nanny restarting it) closes the question's connection: not yet."""
        try:
            now["pids"] = set(dask_cluster.run(os.getpid).values())
        except distributed.comm.core.CommClosedError:
            return False
        return (len(dask_cluster.scheduler_info()["workers"]) == 2 and len(now["pids"]) == 2
                and now["pids"] != set(before.values()))

    wait_until(replaced, seconds=300)
    ended = set(before.values()) - now["pids"]
    wait_until(lambda: not any(_alive(pid) for pid in ended), seconds=60)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_an_unreachable_scheduler_is_a_one_line_error_exit_2():
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "crossprolog", "check", EXAMPLES / FAST[0], EXAMPLES / FAST[1],
                           "--cluster", "tcp://127.0.0.1:9"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("crossprolog: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")
    assert done.stderr.count("\n") == 1
    assert time.monotonic() - started < 30  # cluster.CONNECT_SECONDS, not a hang


def test_cluster_addresses_and_dasks_own_setting(capsys, monkeypatch):
    for good in ("tcp://10.0.0.1:8786", "10.0.0.1:8786", "local", "local:3", "tls://host:8786"):
        assert cluster.address(good) == good
    for bad in ("puzzles/a.txt", "local:0", "local:x", "8786"):
        with pytest.raises(ValueError):
            cluster.address(bad)
    with pytest.raises(SystemExit) as exit:  # a path after a bare --cluster, say
        crossprolog.cli.main(["check", "--cluster", "puzzles.txt"])
    assert exit.value.code == 2 and "expected a Dask scheduler's address" in capsys.readouterr().err
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://10.1.2.3:8786")
    import dask

    dask.config.refresh()
    try:
        assert cluster.resolved("") == "tcp://10.1.2.3:8786" and cluster.resolved("local:2") == "local:2"
    finally:
        monkeypatch.delenv("DASK_SCHEDULER_ADDRESS")
        dask.config.refresh()
    assert cluster.resolved("") == "local"


def test_chunks_grow_to_the_measured_cost():
    assert cluster.chunk_size([0, 0.0], 10_000, 2) == cluster.FIRST_CHUNK
    assert cluster.chunk_size([100, 1.0], 10_000, 2) == round(cluster.TASK_SECONDS / 0.01)
    assert cluster.chunk_size([100, 0.0001], 10_000, 2) == cluster.MAX_CHUNK
    assert cluster.chunk_size([10, 100.0], 10_000, 2) == 1
    # Towards the end, a quarter of each worker's share of what is left: down to one item.
    assert cluster.chunk_size([100, 1.0], 80, 2) == 10
    assert cluster.chunk_size([100, 1.0], 3, 2) == 1
