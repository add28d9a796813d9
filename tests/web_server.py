"""A real `crossprolog serve` on a loopback port, for the tests of the API and the page:
started as the command is, stopped (with its worker processes) whatever the test did."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
STARTING = 120  # seconds a server may take to listen: a busy machine is slow, never a failure


class Server:
    """A running server: its address, its process, and requests to it."""

    def __init__(self, process: subprocess.Popen, said: str):
        """`said`: the first line the server wrote on standard error, where it serves."""
        serving = re.match(r"crossprolog: serving http://127\.0\.0\.1:(\d+)/ ", said)
        assert serving and serving[1] != "0", f"the server did not say where it listens: {said!r}"
        self.process, self.port = process, int(serving[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.stderr = said  # what it wrote there (all of it once stopped)

    def request(self, method: str, path: str, data: bytes | None = None,
                headers: dict | None = None, timeout: float = 120) -> tuple[int, dict, dict]:
        """The status, headers and JSON body of a request."""
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, dict(response.headers), json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read())

    def post(self, path: str, fields: dict, **options) -> tuple[int, dict]:
        """The status and JSON body of a POST of `fields`."""
        status, _, body = self.request("POST", path, json.dumps(fields).encode(),
                                       {"Content-Type": "application/json"}, **options)
        return status, body

    def get(self, path: str) -> tuple[int, dict]:
        status, _, body = self.request("GET", path)
        return status, body

    def workers(self) -> list[int]:
        """The process ids of the server's worker processes (not multiprocessing's own
        resource tracker)."""
        return [pid for pid in children(self.process.pid)
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


@contextmanager
def served(*options: str) -> Iterator[Server]:
    """`crossprolog serve` with `options`, listening on the loopback port the system
    gives it (`--port 0`: no other process can take it first), which it says it serves,
    until the block ends; then stopped as Ctrl-C stops it, and killed if it does not stop."""
    process = subprocess.Popen([str(ROOT / ".venv" / "bin" / "crossprolog"), "serve", "--port", "0",
                                *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               cwd=ROOT, start_new_session=True)
    server = None
    try:
        deadline = time.monotonic() + STARTING
        server = Server(process, _first_line(process, deadline))
        while True:
            if process.poll() is not None:
                raise AssertionError(f"the server ended: {process.stderr.read().decode()}")
            try:
                if server.get("/api/health")[1]["ready"]:  # every worker has started its Prolog
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        rest = (process.stderr.read() or b"").decode()
        process.stderr.close()
        if server is not None:
            server.stderr += rest


def _first_line(process: subprocess.Popen, deadline: float) -> str:
    """The first line the server writes on standard error ("" if it ends without one)."""
    ready, _, _ = select.select([process.stderr], [], [], max(0.0, deadline - time.monotonic()))
    assert ready, "the server did not start"
    return process.stderr.readline().decode()
