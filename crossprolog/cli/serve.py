"""`crossprolog serve`: the web page and its JSON API, served by uvicorn until Ctrl-C."""

from __future__ import annotations

import sys

from ..errors import UsageError
from .report import OK
from .state import Run


def serve(run: Run) -> int:
    args = run.args
    try:
        import uvicorn

        from ..server.app import Settings, create_app
    except ImportError as error:
        raise UsageError(f"serve needs the web extra ({error.name} is missing): "
                         "pip install 'crossprolog[web]'") from None
    settings = Settings(workers=args.workers, timeout=args.timeout, queue=args.queue, host=args.host)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"crossprolog: serving http://{shown}:{args.port}/ with {args.workers} worker "
          f"process{'es' * (args.workers != 1)} (Ctrl-C to stop)", file=sys.stderr, flush=True)
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level="warning",
                access_log=False)
    return OK
