"""`make bench`: the web server (`crossprolog serve`) under load, on the loopback only.

A real server with 2 worker processes gets 1,000 requests (200 with --quick) from
20 concurrent clients: solve, check, count and hint on puzzles of every family,
bad inputs (a typo, a text that is not JSON, an unknown family, a text over the
size limit) and searches that run out of their time limit.  Every answer is held
to what the Python API finds in this process (the same first solution, the same
count, a hinted value that is the solution's), every bad input to its 4xx, every
time-out to its status.  Then an overload: more clients at once than the queue
takes, to see 503 with Retry-After and no other 5xx.  Reported: requests per
second, p50 and p99 latency, statuses, wrong answers, and the memory of the
server and its workers after the first and the last requests.

    bench/load.py [--quick] [--requests N] [--clients N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # web_server: a real server on a loopback port, as the tests run it

from crossprolog import parse  # noqa: E402
from crossprolog.registry import generate  # noqa: E402
from web_server import children, served  # noqa: E402

EXAMPLES = ["crossproduct/riddler-1.txt", "crossproduct/riddler-3.txt", "crosscells/puzzle-25.txt",
            "crosscells/sumplete.txt", "sudoku/tarek-052.txt", "sudoku/golden-nugget.txt",
            "kenken/issue-4x4.txt", "kenken/random-6x6.txt"]
GENERATED = [("crossproduct", 3, 3), ("crossproduct", 4, 3), ("crosscells", 4, 4), ("kenken", 4, 4),
             ("kenken", 5, 5)]
NO_HINTS = {"sudoku"}  # a hard Sudoku's hint takes seconds: the mix keeps to quick questions
COUNT_LIMIT = 50
EMPTY_SUDOKU = ". . . . . . . . .\n" * 9  # counting its solutions never ends
TIMEOUT = 0.3  # the time limit the time-outs of the mix ask for


@dataclass(frozen=True)
class Request:
    """One request of the mix and how to judge its answer: `judge(status, body)` is None
    when the answer is right, else what is wrong with it."""

    kind: str
    path: str
    data: bytes
    judge: Callable[[int, dict], str | None]
    content_type: str = "application/json"


def expected(text: str) -> dict:
    """What the Python API finds for a puzzle: its first solution, whether it is unique,
    and its count up to COUNT_LIMIT."""
    puzzle = parse(text)
    found = puzzle.search(limit=COUNT_LIMIT)
    first = found.solutions[0] if found.solutions else None
    return {"family": puzzle.family, "solution": first and first.to_json(), "count": found.count,
            "complete": found.status == "complete"}


def puzzle_requests(text: str, known: dict) -> list[Request]:
    body = json.dumps({"text": text}).encode()

    def solved(status, answer):
        if status != 200 or answer["solution"] != known["solution"]:
            return f"solve: {status} {answer.get('solution')} != {known['solution']}"

    def checked(status, answer):
        if status != 200 or answer["well_formed"] != (known["count"] == 1):
            return f"check: {status} {answer.get('well_formed')} with {known['count']} solutions"

    def counted(status, answer):
        if status != 200 or (answer["count"], answer["complete"]) != (known["count"], known["complete"]):
            return f"count: {status} {answer.get('count')} != {known['count']}"

    def hinted(status, answer):
        if status != 200:
            return f"hint: {status}"
        if known["count"] == 1 and answer["status"] == "hint":
            cell = answer["cells"][0]
            if known["solution"][cell["row"]][cell["col"]] != cell["value"]:
                return f"hint: {cell} against the solution {known['solution']}"

    limited = json.dumps({"text": text, "limit": COUNT_LIMIT}).encode()
    made = [Request("solve", "/api/solve", body, solved), Request("check", "/api/check", body, checked),
            Request("count", "/api/count", limited, counted)]
    if known["family"] not in NO_HINTS:
        made.append(Request("hint", "/api/hint", body, hinted))
    return made


def refused(expected_status: int) -> Callable[[int, dict], str | None]:
    def judge(status, answer):
        if status != expected_status or answer.get("status") != "error":
            return f"expected {expected_status}, got {status} {answer}"
    return judge


def timed_out(status, answer):
    if status != 200 or answer["status"] != "timeout":
        return f"expected a time-out, got {status} {answer.get('status')}"


def bad_requests() -> list[Request]:
    riddler = (ROOT / "examples" / EXAMPLES[0]).read_text()
    return [Request("typo", "/api/solve", json.dumps({"text": riddler.replace("? 135", "x 135")}).encode(),
                    refused(400)),
            Request("not JSON", "/api/check", b'{"text": "3000 ', refused(400)),
            Request("unknown family", "/api/solve", json.dumps({"text": riddler, "family": "chess"}).encode(),
                    refused(400)),
            Request("too big", "/api/solve", json.dumps({"text": "? " * 140_000}).encode(), refused(413))]


def mix(n: int, seed: int = 19) -> list[Request]:
    """`n` requests: about 85% questions about puzzles, 10% bad inputs, 5% time-outs."""
    texts = [(ROOT / "examples" / name).read_text() for name in EXAMPLES]
    texts += [p.render() for family, rows, cols in GENERATED for p in generate(family, rows, cols, 2, seed)]
    questions = [r for text in texts for r in puzzle_requests(text, expected(text))]
    bad = bad_requests()
    late = Request("time-out", "/api/count", json.dumps({"text": EMPTY_SUDOKU, "timeout": TIMEOUT}).encode(),
                   timed_out)
    rng = random.Random(seed)
    return [rng.choice(questions) if roll < 0.85 else rng.choice(bad) if roll < 0.95 else late
            for roll in (rng.random() for _ in range(n))]


def send(url: str, request: Request) -> tuple[int, dict, dict, float]:
    """The status, headers and body of one request, and its latency in seconds."""
    started = time.perf_counter()
    sent = urllib.request.Request(url + request.path, data=request.data, method="POST",
                                  headers={"Content-Type": request.content_type})
    try:
        with urllib.request.urlopen(sent, timeout=120) as response:
            status, headers, body = response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, dict(error.headers), error.read()
    return status, headers, json.loads(body), time.perf_counter() - started


def hammer(url: str, requests: list[Request], clients: int) -> dict:
    """Send `requests` from `clients` threads at once; what came back."""
    pending = list(reversed(requests))
    lock = threading.Lock()
    latencies, statuses, wrong, retry_after = [], Counter(), [], []

    def client():
        while True:
            with lock:
                if not pending:
                    return
                request = pending.pop()
            status, headers, body, seconds = send(url, request)
            problem = None if status == 503 else request.judge(status, body)
            with lock:
                latencies.append(seconds)
                statuses[status] += 1
                if problem:
                    wrong.append(f"{request.kind}: {problem}")
                if status == 503:
                    retry_after.append(headers.get("retry-after"))

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"seconds": time.perf_counter() - started, "latencies": sorted(latencies),
            "statuses": statuses, "wrong": wrong, "retry_after": retry_after}


def memory_mb(server) -> float:
    """The resident memory of the server and its worker processes, in MB."""
    total = 0
    for pid in [server.process.pid, *children(server.process.pid)]:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))]


def report(quick: bool = False, requests: int | None = None, clients: int = 20) -> str:
    """The load test's lines, as `make bench` prints them."""
    n = requests or (200 if quick else 1000)
    requests_made = mix(n)
    lines = []
    with served("--workers", "2", "--queue", "64") as server:
        warm = hammer(server.url, mix(40, seed=1), clients)
        before = memory_mb(server)
        run = hammer(server.url, requests_made, clients)
        after = memory_mb(server)
    kinds = Counter(r.kind for r in requests_made)
    latencies = run["latencies"]
    lines.append(f"{n} requests from {clients} clients, 2 workers: "
                 + ", ".join(f"{count} {kind}" for kind, count in kinds.most_common()))
    lines.append(f"  {n / run['seconds']:.1f} requests/s ({run['seconds']:.1f} s); latency p50 "
                 f"{1000 * statistics.median(latencies):.0f} ms, p99 {1000 * percentile(latencies, 0.99):.0f} ms, "
                 f"max {1000 * latencies[-1]:.0f} ms")
    lines.append("  statuses: " + ", ".join(f"{status}: {count}" for status, count in sorted(run["statuses"].items()))
                 + f"; wrong answers: {len(run['wrong']) + len(warm['wrong'])}")
    lines.append(f"  memory of the server and its workers: {before:.0f} MB after {len(warm['latencies'])} "
                 f"requests, {after:.0f} MB after {len(warm['latencies']) + n} more")
    lines += [f"  wrong: {problem}" for problem in (warm["wrong"] + run["wrong"])[:5]]
    burst = [r for r in mix(n // 5, seed=7) if r.kind == "time-out"] or mix(1)
    overload = [burst[0]] * (n // 5)
    with served("--workers", "2", "--queue", "8") as server:
        crowd = hammer(server.url, overload, clients * 2)
    others = sum(count for status, count in crowd["statuses"].items() if status >= 500 and status != 503)
    lines.append(f"overload: {len(overload)} time-outs of {TIMEOUT:g} s from {clients * 2} clients, 2 workers, "
                 f"queue 8: " + ", ".join(f"{status}: {count}" for status, count in sorted(crowd["statuses"].items()))
                 + f"; Retry-After {sorted(set(crowd['retry_after']))}; other 5xx: {others}; "
                 f"wrong answers: {len(crowd['wrong'])}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="200 requests instead of 1,000")
    parser.add_argument("--requests", type=int, default=None)
    parser.add_argument("--clients", type=int, default=20)
    args = parser.parse_args()
    print(report(args.quick, args.requests, args.clients))
    return 0


if __name__ == "__main__":
    sys.exit(main())
