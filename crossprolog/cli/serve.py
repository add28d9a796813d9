"""`crossprolog serve`: the web page and its JSON API, served by uvicorn until Ctrl-C."""

from __future__ import annotations

import logging
import socket
import sys

from ..batch import cores
from ..errors import UsageError
from .report import OK
from .state import Run

STOPPING = 1  # seconds the requests under way may take to be answered once Ctrl-C came


def serve(run: Run) -> int:
    args = run.args
    try:
        import uvicorn

        from ..server.app import Settings, create_app
    except ImportError as error:
        raise UsageError(f"serve needs the web extra ({error.name} is missing): "
                         "pip install 'crossprolog[web]'") from None
    listener = listening(args.host, args.port)
    # Searches are CPU-bound: a worker more than the cores only shares them, with a
    # Prolog of its own in memory and its requests' --timeout running as it waits.
    workers = min(args.workers, cores())
    settings = Settings(workers=workers, timeout=args.timeout, queue=args.queue, host=args.host)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    port = listener.getsockname()[1]  # the one bound: --port 0 leaves it to the system
    capped = f" ({args.workers} asked; this machine has {workers} cores)" if workers < args.workers else ""
    print(f"crossprolog: serving http://{shown}:{port}/ with {workers} worker "
          f"process{'es' * (workers != 1)}{capped} (Ctrl-C to stop)", file=sys.stderr, flush=True)
    # Ctrl-C stops the server at once: the searches under way are not waited for (each
    # could take --timeout), their workers are ended.
    config = uvicorn.Config(create_app(settings), log_level="warning", access_log=False,
                            timeout_graceful_shutdown=STOPPING)
    logging.getLogger("uvicorn.error").addFilter(not_stopping_searches)  # after Config sets it up
    uvicorn.Server(config).run(sockets=[listener])
    return OK


def not_stopping_searches(record: logging.LogRecord) -> bool:
    """uvicorn's log, but not its ERROR that the searches under way were stopped: that is
    what Ctrl-C asked for (each is answered 503, "the server is stopping")."""
    return "timeout graceful shutdown exceeded" not in record.getMessage()


def listening(host: str, port: int) -> socket.socket:
    """A socket bound to `host` and `port`, for the server to listen on; UsageError saying
    why not (a port in use, an address not of this machine)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except (OSError, OverflowError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UsageError(f"cannot listen on {host} port {port}: {reason}") from None
    return listener
