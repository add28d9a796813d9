"""The web server: the page (static files of this package) and the JSON API it uses,
on Starlette.  Every search runs in the pool of worker processes (pool.py), each
question within its time limit, and the drawing of the text as it is typed in a worker
of its own; what a worker answers is in replies.py.

The API (docs/web.md): POST /api/solve, /api/check, /api/hint, /api/count and
/api/draw with {"text", "family"?, "encoding"?, "limit"? (count), "minimal"? (check),
"timeout"?};
POST /api/generate with {"family", "rows", "cols", "well_formed"?, "seed"?};
GET /api/families and /api/health.  No request names a file or carries code:
encodings are the bundled ones, by name.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, Router
from starlette.staticfiles import StaticFiles

from ..batch import WorkerDied
from ..cli.report import Outcome
from ..errors import UsageError
from ..families import BY_NAME, named
from . import replies
from .pool import Busy, Pool, WaitedOut
from .replies import NAME, Question

STATIC = Path(__file__).resolve().parent / "static"
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
PUZZLE_FIELDS = {"text", "family", "encoding", "limit", "minimal", "timeout", "drawings"}
GENERATE_FIELDS = {"family", "rows", "cols", "well_formed", "seed", "drawings"}
ENCODING_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a name, never a file
MAX_SIDE = 30  # rows or columns of a generated puzzle
RETRY_AFTER = 2  # seconds a refused request is told to wait
LATE = 5.0  # seconds past a question's limit (and its watchdog's) before its worker is ended
STARTING = 60.0  # seconds a worker may take to start its Prolog and load every family
FIRST_DRAWING = "2 2\n? ? 2\n? ? 2\n"  # drawn by the drawing worker as it starts: its imports done


@dataclass(frozen=True)
class Settings:
    """How the server runs: worker processes, the time limit of a question (seconds),
    questions that may wait for a worker, the largest text (UTF-8 bytes), and the host
    it listens on (off the loopback, requests for any host name are served)."""

    workers: int = 2
    timeout: float = 10.0
    queue: int = 32
    max_text: int = 256 * 1024
    host: str = "127.0.0.1"


class Refused(Exception):
    """A request the API does not take: its status and message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def create_app(settings: Settings = Settings()) -> Starlette:
    """The web application: the page at /, the API under /api/."""
    pool = Pool(replies.answer, settings.workers, settings.queue, warm=Question("families", {}, STARTING))
    # The puzzle drawn as it is typed never waits behind searches: a worker of its own.
    first_drawing = Question("draw", {"text": FIRST_DRAWING}, STARTING)
    drawer = Pool(replies.answer, 1, settings.queue, warm=first_drawing)
    known: dict[str, list] = {}  # the families, as a worker first told them
    starting: dict[str, asyncio.Future] = {}  # every worker's first question, asked at the start

    async def ask(question: Question) -> JSONResponse:
        """The answer to `question`, within its time limit, waiting for a worker included."""
        lane = drawer if question.kind == "draw" else pool

        def waited(seconds: float) -> tuple[Question, float]:
            taken = replace(question, waited=seconds)
            return taken, taken.left() + replies.GRACE + LATE

        try:
            answer = await lane.ask(waited, patience=question.timeout)
        except asyncio.CancelledError:  # Ctrl-C: the server stops without waiting for it
            return stopping()
        except WaitedOut:
            return JSONResponse({"status": "error", "error": "the server is busy: no worker was free "
                                 f"within the time limit of {question.timeout:g} s; try again in a moment"},
                                503, headers={"Retry-After": str(RETRY_AFTER)})
        except Busy:
            return JSONResponse({"status": "error", "error": "the server is busy: every worker is "
                                 "at work and the queue is full; try again in a moment"},
                                503, headers={"Retry-After": str(RETRY_AFTER)})
        if isinstance(answer, WorkerDied):
            return JSONResponse({"status": "error", "error": f"{NAME}: error: {answer}"}, 500)
        status, body = replies.replied(answer) if isinstance(answer, Outcome) else answer
        if not (question.fields.get("drawings") or question.kind == "draw"):
            body = {key: value for key, value in body.items() if key != "drawings"}
        return JSONResponse(body, status)

    def puzzle_route(kind: str) -> Route:
        async def endpoint(request: Request) -> JSONResponse:
            try:
                fields = puzzle_fields(await body(request, settings), settings)
            except Refused as refused:
                return refusal(refused)
            return await unless_gone(request, ask(Question(kind, fields, fields.pop("timeout"))))
        return Route(f"/{kind}", endpoint, methods=["POST"], name=kind)

    async def generate(request: Request) -> JSONResponse:
        try:
            fields = generate_fields(await body(request, settings))
        except Refused as refused:
            return refusal(refused)
        return await unless_gone(request, ask(Question("generate", fields, settings.timeout)))

    async def families(request: Request) -> JSONResponse:
        if "families" not in known:
            response = await ask(Question("families", {}, STARTING))
            answered = json.loads(response.body)
            if "families" not in answered:
                return response
            known["families"] = answered["families"]
        return JSONResponse({"families": known["families"]})

    async def health(request: Request) -> JSONResponse:
        warming = starting.get("warming")
        return JSONResponse({"status": "ok", "ready": bool(warming and warming.done()),
                             "workers": settings.workers, "busy": pool.busy,
                             "waiting": pool.waiting, "queue": settings.queue, "dropped": pool.dropped,
                             "replaced": pool.replaced, "timeout": settings.timeout,
                             "max_text": settings.max_text})

    @asynccontextmanager
    async def lifespan(app: Starlette):
        # Every worker starts its Prolog now, not at the first questions.
        warming = starting["warming"] = asyncio.gather(
            *(families(None) for _ in range(settings.workers)), ask(first_drawing), return_exceptions=True)
        warming.add_done_callback(lambda done: done.cancelled() or done.exception())  # seen
        try:
            yield
        finally:
            warming.cancel()
            pool.close()
            drawer.close()

    # The API apart from the page's files: a path of it asked with another method is a 405
    # there, where the files' mount at / took every GET (a 404 for GET /api/solve).
    api = [puzzle_route(kind) for kind in (*replies.COMMANDS, "draw")] + [
        Route("/generate", generate, methods=["POST"]), Route("/families", families), Route("/health", health)]
    # /api/solve/ is no path of the API: a 404, where Starlette answers an empty 307 to /api/solve
    routes = [Mount("/api", app=Router(api, redirect_slashes=False)),
              Mount("/", StaticFiles(directory=STATIC, html=True))]
    hosts = ["*"] if settings.host not in LOOPBACK else ["127.0.0.1", "localhost", "[::1]"]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error},
                     middleware=[Middleware(JsonRefusals), Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
                                 Middleware(SecurityHeaders)])


async def unless_gone(request: Request, asking) -> JSONResponse:
    """The response `asking` (a coroutine) makes, unless the client goes away first:
    then a question still waiting for a worker is dropped, and one at work is left to
    end within its time limit, its answer unsent."""
    answering = asyncio.ensure_future(asking)
    gone = asyncio.ensure_future(disconnected(request))
    try:
        await asyncio.wait({answering, gone}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:  # Ctrl-C: answered at once, the loop soon ends
        answering.cancel()
        return stopping()
    finally:
        gone.cancel()
    if not answering.done():
        answering.cancel()
        return refusal(Refused(400, "the client went away before its answer"))
    return answering.result()


async def disconnected(request: Request) -> None:
    """Returns once the client of `request`, whose body was read, has gone away."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def http_error(request: Request, error: HTTPException) -> Response:
    """Starlette's own refusals (no such path, not that method): JSON under /api/, as
    every other answer there is; plain text for the page's files."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"status": "error", "error": error.detail}, error.status_code, error.headers)
    return PlainTextResponse(error.detail, error.status_code, error.headers)


def stopping() -> JSONResponse:
    return JSONResponse({"status": "error", "error": "the server is stopping"}, 503)


def refusal(refused: Refused) -> JSONResponse:
    return JSONResponse({"status": "error", "error": str(refused)}, refused.status)


async def body(request: Request, settings: Settings) -> dict:
    """The JSON object a request carries, read no further than a text of the largest
    size could take.  Raises Refused (415, 413, 400)."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise Refused(415, "send the request as JSON (Content-Type: application/json)")
    most = 6 * settings.max_text + 4096  # JSON writes a character of text in up to 6 bytes
    if int(request.headers.get("content-length") or 0) > most:
        raise Refused(413, too_big(settings))
    try:
        data = await asyncio.wait_for(read(request, most, settings), settings.timeout)
    except TimeoutError:  # a client that never sends what it announced holds no worker, but
        # the connection: given up on as a search is, past the server's time limit
        raise Refused(408, f"the request's body did not arrive within {settings.timeout:g} s") from None
    except ClientDisconnect:  # nobody to answer: said so, not logged as the server's failure
        raise Refused(400, "the client went away before the end of its request") from None
    try:
        fields = json.loads(data)
    except (ValueError, RecursionError) as error:
        raise Refused(400, f"the body is not JSON: {error}") from None
    if not isinstance(fields, dict):
        raise Refused(400, "the body must be a JSON object")
    return fields


def too_big(settings: Settings) -> str:
    return f"the text is too big: the server takes at most {settings.max_text:,} bytes"


async def read(request: Request, most: int, settings: Settings) -> bytearray:
    """The body of `request`, refused (413) past `most` bytes."""
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > most:
            raise Refused(413, too_big(settings))
    return data


def puzzle_fields(fields: dict, settings: Settings) -> dict:
    """The fields of a question about a puzzle, checked; "timeout" at most the server's."""
    unknown(fields, PUZZLE_FIELDS)
    drawings(fields)
    text = fields.get("text")
    if not isinstance(text, str):
        raise Refused(400, '"text" must be the puzzle, as a string')
    if len(text.encode("utf-8", "surrogatepass")) > settings.max_text:
        raise Refused(413, too_big(settings))
    family(fields.get("family"), required=False)
    encoding = fields.get("encoding")
    if not (encoding is None or isinstance(encoding, str) and ENCODING_NAME.fullmatch(encoding)):
        raise Refused(400, '"encoding" must be the name of a bundled encoding')
    limit = fields.get("limit")
    if not (limit is None or is_integer(limit) and limit >= 0):
        raise Refused(400, '"limit" must be 0 (no limit) or a positive integer')
    if not isinstance(fields.get("minimal", False), bool):
        raise Refused(400, '"minimal" must be true or false')
    timeout = fields.get("timeout")
    timeout = settings.timeout if timeout is None else timeout  # null: not given, as for "limit"
    if not (is_integer(timeout) or isinstance(timeout, float) and math.isfinite(timeout)) or timeout <= 0:
        raise Refused(400, f'"timeout" must be a positive, finite number of seconds (more than '
                           f'{settings.timeout:g}, the server\'s limit, is taken as {settings.timeout:g})')
    return {**fields, "timeout": min(timeout, settings.timeout)}


def generate_fields(fields: dict) -> dict:
    """The fields of a request for a generated puzzle, checked."""
    unknown(fields, GENERATE_FIELDS)
    drawings(fields)
    record = family(fields.get("family"), required=True)
    if record.generator_name is None:
        raise Refused(400, f"{record.title} has no generator")
    for side in ("rows", "cols"):
        if not (is_integer(fields.get(side)) and 1 <= fields[side] <= MAX_SIDE):
            raise Refused(400, f'"{side}" must be an integer from 1 to {MAX_SIDE}')
    if fields.get("well_formed") is None:  # null: not given, as for "seed"
        fields = {**fields, "well_formed": False}
    if not isinstance(fields["well_formed"], bool):
        raise Refused(400, '"well_formed" must be true or false')
    if not (fields.get("seed") is None or is_integer(fields["seed"]) and fields["seed"] >= 0):
        raise Refused(400, '"seed" must be an integer, 0 or more (or null: a new puzzle each time)')
    return fields


def drawings(fields: dict) -> None:
    """"drawings": true asks for the pictures (SVG, and the text drawing) beside the record."""
    if not isinstance(fields.get("drawings", False), bool):
        raise Refused(400, '"drawings" must be true or false')


def unknown(fields: dict, known: set[str]) -> None:
    if extra := sorted(set(fields) - known):
        raise Refused(400, f"unknown field {extra[0]!r}; the fields are {', '.join(sorted(known))}")


def family(name, required: bool):
    """The record of the family `name` (None when not given and not `required`)."""
    if name is None and not required:
        return None
    if not isinstance(name, str):
        raise Refused(400, f'"family" must be one of {", ".join(BY_NAME)}')
    try:
        return named(name)
    except UsageError as error:
        raise Refused(400, str(error)) from None


def is_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class SecurityHeaders:
    """Every response says: nothing but this server's own scripts, styles and pictures
    (the page needs no network), and no guessing of content types."""

    HEADERS = [(b"content-security-policy",
                b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
               (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class JsonRefusals:
    """Under /api/ every answer is JSON, a refusal made before the API is reached too:
    the plain text of one (TrustedHostMiddleware's for a Host header naming another
    host) is sent as {"status": "error", "error": text}."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            return await self.app(scope, receive, send)
        held: dict = {}  # a plain-text answer's start, and its body so far

        async def send_as_json(message):
            if message["type"] == "http.response.start" and dict(message.get("headers", [])).get(
                    b"content-type", b"").startswith(b"text/plain"):
                held.update(start=message, body=b"")
                return
            if "start" not in held:
                return await send(message)
            held["body"] += message.get("body", b"")
            if message.get("more_body"):
                return
            body = json.dumps({"status": "error", "error": held["body"].decode(errors="replace")}).encode()
            headers = [(k, v) for k, v in held["start"].get("headers", [])
                       if k not in (b"content-type", b"content-length")]
            await send({**held["start"], "headers": [*headers, (b"content-type", b"application/json"),
                                                     (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, send_as_json)
