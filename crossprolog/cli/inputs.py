"""A command's inputs: files, directories and standard input, read and split into
puzzles (each within --timeout), and the options the command line gives them."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from functools import cache

from .. import batch, engine
from ..errors import CrossprologError, ParseError, TimeLimitExceeded, UsageError, printable
from ..families import FAMILIES
from ..grammars.common import MAX_TEXT_CHARS, decode
from ..puzzle import Puzzle
from ..registry import SUFFIXES, Piece, most_puzzles, parse_piece, pieces, read_pieces, several_in
from ..text_files import capped_bytes
from .limits import remaining, time_limit
from .state import Run


# A puzzle of MAX_TEXT_CHARS (a UTF-8 character takes at most 4 bytes), or a text of several
# in ASCII, as generate writes them, of MAX_TEXTS_CHARS (grammars/common.py).
MAX_INPUT_BYTES = 4 * MAX_TEXT_CHARS


@dataclass(frozen=True)
class Input:
    """One puzzle among a command's inputs: its piece of text (and the puzzle, when its
    file was read in one pass), or why there is none."""

    path: str           # its file ("-": standard input), as its errors name it
    name: str           # what output calls it: the file, or FILE:LINE for one of several in it
    keys: dict          # where its JSON record says it is: path (and puzzle, line, name)
    piece: Piece | None
    problem: CrossprologError | None = None
    puzzle: Puzzle | None = None


def read_inputs(run: Run) -> list[Input]:
    """Every puzzle of the command's paths, read and split: each file (standard input
    once) within --timeout for each puzzle it may hold, counted from the command's
    start for the first file and from its own for the others (its bytes, which a
    pipe may be slow to give, within --timeout of asking for them)."""
    inputs: list[Input] = []
    timeout = run.args.timeout
    for n, path in enumerate(batch.expand(run.args.paths, SUFFIXES, written=getattr(run.args, "out", None))):
        started = run.started if n == 0 else time.monotonic()
        try:
            with time_limit(timeout, time.monotonic()):
                text = read_text(path)
            # one pass reads every puzzle of the file: it has the time of all of them
            with time_limit(timeout and timeout * most_puzzles(text), started):
                found = read_pieces(text, run.args.family, **option_values(run.args))
        except (ParseError, TimeLimitExceeded) as problem:
            inputs.append(Input(path, path_name(path), {"path": path_name(path, escaped=False)}, None, problem))
            continue
        inputs += [_input(path, piece, puzzle, len(found)) for piece, puzzle in found]
    return inputs


def puzzles_named(paths: list[str], most: int) -> int:
    """How many puzzles `paths` name, guessed before they are read and counted no
    further than `most` (for batch.prepare): a directory's puzzle files each
    count, a file one, or `most` when its first lines say it holds several
    (registry.several_in); standard input, which cannot be peeked at, one."""
    found = 0
    for path in batch.expand(paths, SUFFIXES):
        found += most if path != "-" and _several_in_file(path) else 1
        if found >= most:
            return most
    return found


def _several_in_file(path: str) -> bool:
    try:
        with open(path, "rb") as file:
            head = file.read(MAX_PEEK_BYTES)
    except OSError:  # a directory without puzzle files, a file that cannot be read: one error
        return False
    whole_lines = head if len(head) < MAX_PEEK_BYTES else head[:head.rfind(b"\n") + 1]
    return several_in(whole_lines.decode("utf-8", "replace"))


MAX_PEEK_BYTES = 1 << 20  # of a file, that `puzzles_named` looks at


def _input(path: str, piece: Piece, puzzle: Puzzle | None, pieces_in_file: int) -> Input:
    keys = {"path": path_name(path, escaped=False)}
    if pieces_in_file == 1:
        return Input(path, path_name(path), keys, piece, puzzle=puzzle)
    keys |= {"puzzle": piece.number, "line": piece.line} | ({"name": piece.name} if piece.name else {})
    name = f"{path_name(path)}:{piece.line}" + (f" {printable(piece.name)}" if piece.name else "")
    return Input(path, name, keys, piece, puzzle=puzzle)


def path_name(path: str, escaped: bool = True) -> str:
    """How output names a path: standard input as <stdin>; escaped (see errors.printable)
    for a terminal, or as it is for JSON."""
    name = "<stdin>" if path == "-" else path
    return printable(name) if escaped else name


@cache
def stdin_bytes() -> bytes:
    """Standard input's bytes, but no more than MAX_INPUT_BYTES + 1 (as `read_text` reads
    a file): read once, however many times `-` is named."""
    return sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)


def read_text(path: str) -> str:
    """The text of the file at `path` ("-": standard input).  Raises ParseError."""
    if path == "-":
        try:
            data = stdin_bytes()
        except OSError as error:  # closed (`<&-`), or a directory (`< /`)
            raise ParseError(f"cannot read standard input: {error.strerror}") from None
    elif os.path.isdir(path):
        raise ParseError("a directory without puzzle files (" + ", ".join(f"*{s}" for s in SUFFIXES) + ")")
    else:
        try:
            data = capped_bytes(path, MAX_INPUT_BYTES)
        except OSError as error:
            raise ParseError(f"cannot read the file: {error.strerror}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise ParseError(f"the input has more than {MAX_INPUT_BYTES:,} bytes: too big for a puzzle")
    return decode(data)


def read_puzzle(path: str, args) -> Puzzle:
    """The one puzzle in the file at `path` ("-": standard input).  Raises ParseError, and
    UsageError for a file of several puzzles."""
    found = pieces(read_text(path), family=args.family, options=option_values(args))
    if len(found) > 1:
        raise UsageError(f"{path_name(path)} holds {len(found)} puzzles; this command takes one "
                         "(put it in a file of its own)")
    return parse_piece(found[0], **option_values(args))


def load_encodings(args, started: float) -> None:
    """Load the user's encodings the command names (once per process: workers load them
    too), within the --timeout counted from `started` (time.monotonic).  A command whose
    --timeout bounds each run instead (compare) sets `least_loading`: then each file may
    take the longer of --timeout and that many seconds, counted from its own start."""
    least = getattr(args, "least_loading", None)
    for path in getattr(args, "encoding_file", ()):
        timeout = getattr(args, "timeout", None)
        engine.load_encoding(path, timeout=max(timeout, least) if least is not None
                             else remaining(timeout, started))


def option_values(args) -> dict[str, object]:
    """The family options given on the command line, by model keyword (None: not given)."""
    return {owners[0][1].key: getattr(args, owners[0][1].key, None) for owners in options().values()}


def options() -> dict[str, list[tuple]]:
    """Every option name any family declares, with the families (and options) behind it."""
    options: dict[str, list[tuple]] = {}
    for record in FAMILIES:
        for option in record.options:
            options.setdefault(option.name, []).append((record, option))
    return options
