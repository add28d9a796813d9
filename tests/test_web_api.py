"""The JSON API of `crossprolog serve`, against a real server on a loopback port: the
command line's records, located errors with 4xx statuses, and the limits that make the
server safe to leave running (time, size, queue, a worker that dies)."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import threading
import time

import pytest

import crossprolog

from conftest import EMPTY_SUDOKU, EXAMPLES, NEVER_CROSSPRODUCT
from web_server import ROOT, served

CORES = len(os.sched_getaffinity(0))  # the most search workers a server starts

EXAMPLE = {"crossproduct": "crossproduct/riddler-1.txt", "crosscells": "crosscells/puzzle-25.txt",
           "sudoku": "sudoku/tarek-052.txt", "kenken": "kenken/issue-4x4.txt",
           "killer_sudoku": "killer_sudoku/shidoku-4x4.txt", "kakuro": "kakuro/tiny.txt"}
SEVERAL = "2 2\n? ? 2\n? ? 2\n"
TYPO = (ROOT / "docs" / "examples" / "typo.txt").read_text()


@pytest.fixture(scope="module")
def server():
    with served("--workers", "2") as running:
        yield running


def without_seconds(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "seconds"}


def text_of(family: str) -> str:
    return (EXAMPLES / EXAMPLE[family]).read_text()


# A hard Sudoku's hint takes seconds (the kind of hint this page gives is the command's);
# the other families' hints stand for it.
QUESTIONS = [(family, command) for family in EXAMPLE for command in ("solve", "check", "hint", "count")
             if (family, command) != ("sudoku", "hint")]


@pytest.mark.parametrize("family, command", QUESTIONS)
def test_the_api_answers_with_the_records_the_command_line_prints(server, cli, family, command):
    status, body = server.post(f"/api/{command}", {"text": text_of(family)})
    printed = cli(command, EXAMPLES / EXAMPLE[family], "--format", "json")
    assert status == 200
    assert without_seconds({k: v for k, v in body.items() if k not in ("output", "drawings")}) \
        == without_seconds(printed.json())
    assert body["output"] == cli(command, EXAMPLES / EXAMPLE[family]).out.rstrip("\n")


def test_records_are_the_command_lines_and_pictures_come_when_asked(server, cli):
    status, body = server.post("/api/solve", {"text": text_of("kenken")})
    assert status == 200 and "drawings" not in body
    assert set(body) == set(cli("solve", EXAMPLES / EXAMPLE["kenken"], "--format", "json").json()) | {"output"}
    status, refused = server.post("/api/solve", {"text": text_of("kenken"), "drawings": "yes"})
    assert status == 400 and '"drawings" must be true or false' in refused["error"]


def test_a_solution_is_drawn_as_the_command_line_draws_it(server, cli):
    status, body = server.post("/api/solve", {"drawings": True, "text": text_of("kenken")})
    (drawn,) = body["drawings"]
    assert status == 200 and drawn["kind"] == "svg" and drawn["text"] == body["output"]
    assert body["output"].startswith("a4 a3 b2 c1\n")
    assert svg_texts(drawn["svg"]).count("12*") == 2  # a picture: both 12* cages' clues, drawn


def test_check_draws_the_conflict_and_the_differences(server):
    _, unsolvable = server.post("/api/check", {"drawings": True, "text": TYPO})
    assert unsolvable["status"] == "unsolvable" and "conflict" not in unsolvable
    assert [typo["clues"] for typo in unsolvable["blame"]] == [[{"kind": "row", "index": 4}]]
    assert [d["text"].splitlines()[-1] for d in unsolvable["drawings"]] == ["   ?    ?   ? [71]"]
    _, several = server.post("/api/check", {"drawings": True, "text": SEVERAL})
    assert several["status"] == "several" and several["suggestion"] == "give 1 at row 1, column 1"
    assert [d["text"].splitlines()[1] for d in several["drawings"]] == ["[1] [2] 2", "[2] [1] 2"]


def test_check_says_which_clues_are_to_spare_when_asked(server):
    filled_in = (EXAMPLES / "sudoku" / "ai-escargot.txt").read_text().replace(
        "1 . . | . . 7 | . 9 .", "1 6 2 | . . 7 | . 9 .")
    status, body = server.post("/api/check", {"drawings": True, "text": filled_in, "minimal": True})
    assert status == 200 and body["minimal"] is False and len(body["spare"]) == 3
    assert body["output"].startswith("well-formed, not minimal: exactly one solution")
    assert "1 [6] [2] | . . 7 | . 9 ." in body["drawings"][0]["text"].splitlines()
    _, plain = server.post("/api/check", {"text": filled_in})
    assert plain["status"] == "unique" and "minimal" not in plain
    status, refused = server.post("/api/check", {"text": filled_in, "minimal": "yes"})
    assert status == 400 and refused["error"] == '"minimal" must be true or false'


def test_hint_after_hint_applied_to_the_text_solves_the_puzzle(server):
    text, steps = text_of("crossproduct"), 0
    while True:
        status, body = server.post("/api/hint", {"drawings": True, "text": text})
        assert status == 200
        if body["status"] == "solved":
            break
        assert body["status"] == "hint" and len(body["cells"]) == 1
        cell = body["cells"][0]
        assert f"[{cell['value']}]" in body["drawings"][0]["text"]  # the hinted cell, marked
        assert re.search(r'class="[^"]*\bmarked\b', body["drawings"][0]["svg"])  # coloured in the picture
        text, steps = body["output"], steps + 1
    assert steps == 15  # every cell of the 5x3 grid, one at a time
    _, solved = server.post("/api/solve", {"drawings": True, "text": text_of("crossproduct")})
    assert text.endswith(solved["output"])
    assert sum(line.startswith("# hint - ") for line in text.splitlines()) == 1  # the last step's


def test_count_stops_at_its_limit(server, cli):
    status, body = server.post("/api/count", {"text": SEVERAL, "limit": 1})
    assert status == 200 and (body["count"], body["complete"], body["status"]) == (1, False, "solved")


def test_an_encoding_is_chosen_by_name(server):
    _, families = server.get("/api/families")
    kenken = next(f for f in families["families"] if f["name"] == "kenken")
    for encoding in kenken["encodings"]:
        status, body = server.post("/api/solve", {"text": text_of("kenken"), "encoding": encoding})
        assert status == 200 and body["solution"][0] == [4, 3, 2, 1], encoding


def test_the_families_come_from_the_records(server):
    from crossprolog.families import FAMILIES

    status, body = server.get("/api/families")
    assert status == 200
    assert [f["name"] for f in body["families"]] == [record.name for record in FAMILIES]
    assert all(f["encodings"] and f["sizes"] for f in body["families"])


def test_draw_shows_the_puzzle_or_its_located_error(server, cli, write):
    status, body = server.post("/api/draw", {"drawings": True, "text": text_of("crosscells")})
    assert status == 200 and body["family"] == "crosscells"
    assert body["drawings"][0]["text"] == body["output"]
    typo = text_of("crossproduct").replace("?   ? 280", "?   x 280")
    status, body = server.post("/api/solve", {"drawings": True, "text": typo})
    printed = cli("solve", write(typo), "--format", "json").json()
    assert status == 400 and (body["line"], body["column"]) == (6, 13)
    assert body["error"] == printed["error"].replace(str(write(typo)), "<text>")
    assert body["error"].splitlines()[0].startswith("<text>:6:13: error: ")
    status, again = server.post("/api/draw", {"drawings": True, "text": typo})
    assert (status, again) == (400, body)


def test_a_text_of_two_puzzles_is_refused_at_the_second(server):
    status, body = server.post("/api/solve", {"text": f"== a\n{SEVERAL}== b\n{SEVERAL}"})
    assert status == 400 and body["line"] == 5 and "a second puzzle starts here" in body["error"]


def test_generate_makes_the_same_puzzle_as_the_command_line(server, cli):
    fields = {"family": "kenken", "rows": 4, "cols": 4, "well_formed": True, "seed": 3}
    status, body = server.post("/api/generate", {**fields, "drawings": True})
    printed = cli("generate", "kenken", "--rows", "4", "--cols", "4", "--well-formed", "--seed", "3",
                  "--format", "json").json()
    assert status == 200 and {k: body[k] for k in printed} == printed
    assert [(d["kind"], d["text"]) for d in body["drawings"]] == [("svg", printed["puzzle"])]
    _, checked = server.post("/api/check", {"drawings": True, "text": body["puzzle"]})
    assert checked["well_formed"] is True


@pytest.mark.parametrize("fields, message", [
    ({"family": "kenken", "rows": 3, "cols": 5}, "a KenKen is square"),
    ({"family": "kenken", "rows": 0, "cols": 5}, '"rows" must be an integer from 1 to 30'),
    ({"family": "kenken", "rows": 4, "cols": 4, "seed": "x"}, '"seed" must be an integer'),
    ({"family": "kenken", "rows": 4, "cols": 4, "seed": -3}, '"seed" must be an integer, 0 or more'),
    ({"family": "chess", "rows": 4, "cols": 4}, "unknown family 'chess'"),
    ({"family": "kenken", "rows": 4, "cols": 4, "shape": 1}, "unknown field 'shape'"),
])
def test_generate_refuses_what_it_cannot_make(server, fields, message):
    status, body = server.post("/api/generate", fields)
    assert status == 400 and message in body["error"]


def test_null_is_a_field_not_given(server):
    """"limit" and "seed" took null, "timeout" and "well_formed" refused it."""
    assert server.post("/api/solve", {"text": SEVERAL, "timeout": None, "limit": None})[0] == 200
    status, body = server.post("/api/generate", {"family": "kenken", "rows": 4, "cols": 4, "seed": None,
                                                 "well_formed": None})
    assert status == 200 and crossprolog.parse(body["puzzle"]).family == "kenken"


@pytest.mark.parametrize("fields, message", [
    ({"text": 3}, '"text" must be the puzzle'),
    ({"text": SEVERAL, "family": "chess"}, "unknown family 'chess'"),
    ({"text": SEVERAL, "encoding": "/etc/passwd"}, "bundled encoding"),
    ({"text": SEVERAL, "encoding": "examples/encodings/divisors.pl"}, "bundled encoding"),
    ({"text": SEVERAL, "encoding": "divisors"}, "unknown encoding 'divisors'"),
    ({"text": SEVERAL, "limit": -1}, '"limit" must be 0'),
    ({"text": SEVERAL, "timeout": 0}, '"timeout" must be a positive, finite number'),
    ({"text": SEVERAL, "timeout": float("inf")}, '"timeout" must be a positive, finite number'),
    ({"text": SEVERAL, "timeout": -10 ** 400}, '"timeout" must be a positive, finite number'),
    ({"text": SEVERAL, "program": ":- halt."}, "unknown field 'program'"),
])
def test_bad_requests_are_4xx_with_a_message(server, fields, message):
    status, body = server.post("/api/solve", fields)
    assert status == 400 and body["status"] == "error" and message in body["error"]


def test_a_timeout_past_the_servers_is_the_servers_however_large(server):
    """An integer too large for a float (10**309) was a 500 in plain text: the check of
    a finite number turned it into one."""
    for timeout in (11, 10 ** 309, 10 ** 4000):
        assert server.post("/api/solve", {"text": SEVERAL, "timeout": timeout}) == (
            200, server.post("/api/solve", {"text": SEVERAL})[1] | {"seconds": ANY_SECONDS})


class _AnySeconds(float):
    def __eq__(self, other):
        return isinstance(other, float)


ANY_SECONDS = _AnySeconds()


def test_what_is_not_json_is_refused(server):
    status, _, body = server.request("POST", "/api/solve", b"{not json", {"Content-Type": "application/json"})
    assert status == 400 and "not JSON" in body["error"]
    status, _, body = server.request("POST", "/api/solve", b'{"text": "1"}', {"Content-Type": "text/plain"})
    assert status == 415
    # A media type is named in any case (RFC 9110): this one was a 415
    status, _, body = server.request("POST", "/api/solve", json.dumps({"text": SEVERAL}).encode(),
                                     {"Content-Type": "Application/JSON; charset=UTF-8"})
    assert status == 200 and body["status"] == "solved"


def test_every_answer_under_api_is_json_even_starlettes_own(server):
    """No such path, or a method the path does not take, was plain text "Not Found"."""
    for method, path, expected in (("GET", "/api/nothing", 404), ("PUT", "/api/solve", 405),
                                   ("POST", "/api/solve/", 404), ("GET", "/api/health/", 404),  # 307, no body
                                   ("GET", "/api/solve", 405), ("GET", "/api/generate", 405),
                                   ("POST", "/api/families", 405)):  # GET /api/solve was a 404
        status, headers, body = server.request(method, path)
        assert status == expected and headers["content-type"] == "application/json", (method, path)
        assert body["status"] == "error" and body["error"]
        assert expected == 404 or "POST" in headers["allow"] or "GET" in headers["allow"]


def test_a_client_that_leaves_mid_request_is_no_error_of_the_server():
    """A body shorter than its Content-Length, then the connection closed: the server
    logged "Exception in ASGI application" with a traceback."""
    with served("--workers", "1") as own:
        connection = http.client.HTTPConnection("127.0.0.1", own.port, timeout=120)
        connection.putrequest("POST", "/api/solve")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", "100")
        connection.endheaders()
        connection.send(b'{"text": ')
        connection.close()
        assert own.get("/api/health")[0] == 200
        os.set_blocking(own.process.stderr.fileno(), False)
        logged = b""
        for _ in range(20):  # the log line came at once; give a slow machine 2 s
            time.sleep(0.1)
            logged += own.process.stderr.read() or b""
        assert b"Traceback" not in logged and b"Exception in ASGI" not in logged, logged.decode()


def test_a_text_over_the_size_limit_is_413(server):
    big = "? " * (128 * 1024 + 1)
    status, body = server.post("/api/solve", {"text": big})
    assert status == 413 and "at most 262,144 bytes" in body["error"]
    # A body announced too big is refused before it is sent (the server does not read it).
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    try:
        connection.putrequest("POST", "/api/solve")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(2 * 1024 * 1024))
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 413 and "at most 262,144 bytes" in json.loads(response.read())["error"]
    finally:
        connection.close()


def test_only_a_loopback_host_name_is_served(server):
    status, _, _ = server.request("GET", "/api/health", headers={"Host": f"localhost:{server.port}"})
    assert status == 200
    status, _, answer = server.request("GET", "/api/health", headers={"Host": "attacker.example"})
    assert status == 400 and answer == {"status": "error", "error": "Invalid host header"}  # JSON, as all of /api
    import urllib.request
    with pytest.raises(urllib.error.HTTPError) as refused:  # the page's files are refused too, as text
        urllib.request.urlopen(urllib.request.Request(server.url + "/index.html",
                                                      headers={"Host": "attacker.example"}))
    assert refused.value.code == 400 and refused.value.read() == b"Invalid host header"


def test_the_page_needs_no_network(server):
    for name in ("index.html", "page.js", "page.css"):
        text = (ROOT / "crossprolog" / "server" / "static" / name).read_text()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name
    status, headers, _ = server.request("GET", "/api/health")
    assert "default-src 'self'" in headers["content-security-policy"]


def test_a_search_past_the_time_limit_says_it_timed_out(server):
    status, body = server.post("/api/count", {"text": EMPTY_SUDOKU, "timeout": 0.5})
    assert status == 200 and body["status"] == "timeout" and "time limit of 0.5 s" in body["output"]
    status, body = server.post("/api/solve", {"text": NEVER_CROSSPRODUCT, "encoding": "chain",
                                              "timeout": 0.5})
    assert status == 200 and body["status"] == "timeout" and body["output"] == "time limit of 0.5 s reached"
    assert server.post("/api/solve", {"text": SEVERAL})[0] == 200  # the workers go on


@pytest.fixture(scope="module")
def lone_worker():
    """A server with one worker and room for one request to wait."""
    with served("--workers", "1", "--queue", "1", "--timeout", "2") as running:
        yield running


def in_thread(function, *args) -> dict:
    answered: dict = {}
    thread = threading.Thread(target=lambda: answered.update(reply=function(*args)))
    thread.start()
    answered["thread"] = thread
    return answered


def wait_for(condition, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.05)


def test_a_full_queue_is_503_with_retry_after(lone_worker):
    never = {"text": EMPTY_SUDOKU}
    first = in_thread(lone_worker.post, "/api/count", never)
    wait_for(lambda: lone_worker.get("/api/health")[1]["busy"] == 1)
    second = in_thread(lone_worker.post, "/api/count", never)
    wait_for(lambda: lone_worker.get("/api/health")[1]["waiting"] == 1)
    status, headers, body = lone_worker.request("POST", "/api/count", json.dumps(never).encode(),
                                                {"Content-Type": "application/json"})
    assert status == 503 and int(headers["retry-after"]) > 0 and "queue is full" in body["error"]
    first["thread"].join()
    assert first["reply"][0] == 200 and first["reply"][1]["status"] == "timeout"
    second["thread"].join()  # its time limit ran as it waited: out of time, at a worker or before
    assert second["reply"][0] == 200 and second["reply"][1]["status"] == "timeout" or (
        second["reply"][0] == 503 and "no worker was free" in second["reply"][1]["error"])


def test_a_request_waits_for_a_worker_within_its_time_limit(lone_worker):
    """Waiting in the queue was not counted: behind 18 long searches a small solve took
    89 s on a server whose time limit is 10 s.  Now it waits no longer than its limit,
    and what it waited is taken from the search's."""
    searching = in_thread(lone_worker.post, "/api/count", {"text": EMPTY_SUDOKU})
    wait_for(lambda: lone_worker.get("/api/health")[1]["busy"] == 1)
    status, headers, body = lone_worker.request("POST", "/api/solve", json.dumps(
        {"text": SEVERAL, "timeout": 0.5}).encode(), {"Content-Type": "application/json"})
    assert status == 503 and int(headers["retry-after"]) > 0
    assert body["error"] == ("the server is busy: no worker was free within the time limit of 0.5 s; "
                             "try again in a moment")
    searching["thread"].join()
    assert searching["reply"][0] == 200 and searching["reply"][1]["status"] == "timeout"
    assert lone_worker.post("/api/solve", {"text": SEVERAL})[0] == 200


def test_a_request_whose_client_left_never_takes_a_worker(lone_worker):
    """Clients that hung up were still searched for, each for its whole time limit, while
    those still waiting waited behind them."""
    health = lambda: lone_worker.get("/api/health")[1]  # noqa: E731
    searching = in_thread(lone_worker.post, "/api/count", {"text": EMPTY_SUDOKU})
    wait_for(lambda: health()["busy"] == 1)
    dropped = health()["dropped"]
    leaving = http.client.HTTPConnection("127.0.0.1", lone_worker.port, timeout=120)
    leaving.request("POST", "/api/count", json.dumps({"text": EMPTY_SUDOKU}),
                    {"Content-Type": "application/json"})
    wait_for(lambda: health()["waiting"] == 1)
    leaving.close()
    wait_for(lambda: health()["dropped"] == dropped + 1)
    assert health()["waiting"] == 0
    searching["thread"].join()
    wait_for(lambda: health()["busy"] == 0)


def test_a_body_that_never_comes_is_408(lone_worker):
    """A client that announced a body and sent part of it held its request open for good."""
    connection = http.client.HTTPConnection("127.0.0.1", lone_worker.port, timeout=120)
    try:
        connection.putrequest("POST", "/api/solve")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", "100")
        connection.endheaders()
        connection.send(b'{"text": ')
        response = connection.getresponse()
        assert response.status == 408 and json.loads(response.read()) == {
            "status": "error", "error": "the request's body did not arrive within 2 s"}
    finally:
        connection.close()


def test_a_worker_that_dies_is_replaced_and_its_request_answered(lone_worker):
    asked = in_thread(lone_worker.post, "/api/count", {"text": EMPTY_SUDOKU})
    wait_for(lambda: lone_worker.get("/api/health")[1]["busy"] == 1)
    replaced = lone_worker.get("/api/health")[1]["replaced"]
    killed = lone_worker.workers()
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    asked["thread"].join()
    status, body = asked["reply"]
    assert status == 500 and "killed (SIGKILL" in body["error"]
    wait_for(lambda: lone_worker.workers() not in ([], killed))  # a fresh one, before it is asked
    status, body = lone_worker.post("/api/solve", {"text": SEVERAL})
    assert status == 200 and body["status"] == "solved"
    assert lone_worker.get("/api/health")[1]["replaced"] == replaced + 1


def test_the_puzzle_is_drawn_while_every_search_worker_is_at_work_and_ctrl_c_stops_both():
    """The page draws the text as it is typed: that never waits behind a search.  Ctrl-C
    does not wait for the search either (a minute here): it is answered 503, where
    waiting for it would have the server killed (`served` allows 30 s) and no answer."""
    with served("--workers", "1", "--timeout", "60") as running:
        searching = in_thread(running.post, "/api/count", {"text": EMPTY_SUDOKU})
        wait_for(lambda: running.get("/api/health")[1]["busy"] == 1)
        status, body = running.post("/api/draw", {"text": SEVERAL})
        assert status == 200 and body["output"] == SEVERAL.rstrip("\n")
        assert "reply" not in searching and running.get("/api/health")[1]["busy"] == 1
    searching["thread"].join()
    assert searching["reply"] == (503, {"status": "error", "error": "the server is stopping"})
    assert running.process.returncode == 130
    assert running.stderr.splitlines()[1:] == ["crossprolog: interrupted"]  # no traceback, no ERROR


def test_stopping_the_server_ends_its_workers():
    with served("--workers", "2") as running:
        running.post("/api/solve", {"text": SEVERAL})
        workers = running.workers()
        assert len(workers) == min(2, CORES) + 1  # the searching ones, one drawing
    for pid in workers:
        wait_for(lambda: not os.path.exists(f"/proc/{pid}") or "Z" in
                 open(f"/proc/{pid}/stat").read().split(")")[1].split()[0], 30)


def test_no_more_search_workers_than_cores_and_the_server_says_so():
    """`serve --workers 30` started 30 searching processes on a 2-core machine, each
    with a Prolog of its own, to share the cores."""
    with served("--workers", str(CORES + 3)) as running:
        assert f"with {CORES} worker process" in running.stderr
        assert f"({CORES + 3} asked; this machine has {CORES} cores)" in running.stderr
        wait_for(lambda: running.get("/api/health")[1]["ready"], 120)
        assert running.get("/api/health")[1]["workers"] == CORES
        assert len(running.workers()) == CORES + 1  # and the one drawing


def test_the_server_listens_on_this_machine_only_unless_told(cli):
    from crossprolog.cli.parser import parser

    args = parser().parse_args(["serve"])
    assert (args.host, args.port, args.workers, args.timeout, args.queue) == ("127.0.0.1", 8000, 2, 10.0, 32)


def test_port_0_is_a_port_the_system_picks_and_the_server_says_which(server):
    """`serve --port 0` said it served on port 0.  Every test's server is started on
    port 0 and found on the port it says (web_server.served)."""
    assert server.port != 0 and server.get("/api/health")[0] == 200


def test_a_port_in_use_is_a_message_not_a_traceback(server):
    import subprocess

    done = subprocess.run([str(ROOT / ".venv" / "bin" / "crossprolog"), "serve", "--port", str(server.port)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "crossprolog: error: cannot listen on 127.0.0.1 port" in done.stderr and "in use" in done.stderr


def test_a_generation_past_the_time_limit_says_it_timed_out(lone_worker):
    """Making a puzzle has no time limit of its own: the worker's watchdog answers for it,
    and the worker is replaced."""
    replaced = lone_worker.get("/api/health")[1]["replaced"]
    fields = {"family": "crosscells", "rows": 30, "cols": 30, "well_formed": True, "seed": 1}
    status, body = lone_worker.post("/api/generate", fields)
    assert status == 200 and body["status"] == "timeout" and body["output"] == "time limit of 2 s reached"
    assert lone_worker.post("/api/solve", {"text": SEVERAL})[0] == 200
    assert lone_worker.get("/api/health")[1]["replaced"] == replaced + 1


def test_the_wheel_ships_the_page():
    import tomllib

    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "crossprolog.server" in setup["packages"]
    shipped = setup["package-data"]["crossprolog.server"]
    files = sorted((ROOT / "crossprolog" / "server" / "static").iterdir())
    assert {"index.html", "page.js", "page.css"} <= {file.name for file in files}
    assert all(any(file.relative_to(ROOT / "crossprolog" / "server").match(pattern) for pattern in shipped)
               for file in files)


def svg_texts(svg: str) -> list[str]:
    """The texts an SVG picture writes (it must parse as XML)."""
    import xml.etree.ElementTree as ET

    return [element.text or "" for element in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
