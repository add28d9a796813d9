"""A real `crossprolog serve` on a loopback port, for the tests of the API and the page:
started as the command is, stopped (with its worker processes) whatever the test did."""

from __future__ import annotations

import json
import os
import signal
import socket
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

    def __init__(self, process: subprocess.Popen, port: int):
        self.process, self.port = process, port
        self.url = f"http://127.0.0.1:{port}"
        self.stderr = ""  # what it wrote there, once stopped

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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(*options: str) -> Iterator[Server]:
    """`crossprolog serve` with `options`, listening on a free loopback port, until the
    block ends; then stopped as Ctrl-C stops it, and killed if it does not stop."""
    port = free_port()
    process = subprocess.Popen([str(ROOT / ".venv" / "bin" / "crossprolog"), "serve", "--port", str(port),
                                *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               cwd=ROOT, start_new_session=True)
    server = Server(process, port)
    try:
        deadline = time.monotonic() + STARTING
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
        server.stderr = (process.stderr.read() or b"").decode()
        process.stderr.close()
