"""How a text finds its family, and becomes puzzles: detecting, splitting, parsing,
and generating, by the families' records (crossprolog.families)."""

from __future__ import annotations

import re
from typing import Any, Iterator, Mapping, NamedTuple, Sequence

from .errors import InvalidValue, ParseError, UsageError, shown
from .families import BY_NAME, FAMILIES, named
from .family import CERTAIN, STRONG, Claim, Family, Option, OptionError
from .grammars.common import (MAX_TEXT_CHARS, MAX_TEXTS_CHARS, Line, directive_word, is_blank, source_lines,
                              split_directives)
from .batch import PUZZLE_SUFFIXES
from .puzzle import Puzzle, integer

def detect(lines: Sequence[Line], options: Mapping[str, Any] | None = None) -> tuple[Family, Claim]:
    """The family with the strongest claim to `lines`, and its claim: certain for the
    first family one of whose directives they hold, else what the grammars say, ties
    going to the first family that takes one of `options` (given on the command line,
    by model keyword: `--game killer-sudoku` is a Killer Sudoku's, as its directive
    is), else to the family named first.

    A grammar claims no more than STRONG, so once one does, those after it are not
    asked, unless options are given.  Raises ParseError when no family claims the lines.
    """
    words = {directive_word(line) for line in lines}
    directed = [record for record in FAMILIES if words & record.option_names]
    if directed:  # several families may have a directive: the first whose values all read
        chosen = next((record for record in directed if _reads(record, lines)), None)
        if chosen is None:
            _refuse_unknown_choice(lines, directed)
            chosen = directed[0]  # its grammar says what is wrong with the value, and where
        return chosen, Claim(CERTAIN, f"the directive '# {min(words & chosen.option_names)}:'")
    given = {key: value for key, value in (options or {}).items() if value is not None}
    claims: list[tuple[Family, Claim]] = []
    for candidate in FAMILIES:
        claims.append((candidate, candidate.grammar.claim(lines)))
        if claims[-1][1].strength >= STRONG and not given:
            break
    strongest = max(claim.strength for _, claim in claims)
    if strongest > 0:
        tied = [(record, claim) for record, claim in claims if claim.strength == strongest]
        return next((pair for pair in tied if _takes(pair[0], given)), tied[0])
    body = [line for line in lines if not is_blank(line)]
    if all(line.text.lstrip().startswith("#") for line in body):
        raise ParseError("no puzzle here: the text is empty or only comments", 1, 1)
    raise ParseError(f"this looks like no puzzle family crossprolog knows ({', '.join(BY_NAME)}); "
                     "name one with --family to see where it goes wrong",
                     body[0].number, 1, body[0].text)


def _reads(record: Family, lines: Sequence[Line]) -> bool:
    """Whether every directive of `lines` that names an option of `record` has a value
    it reads (`# game: killer-sudoku` is Killer Sudoku's, `# game: sumplete` CrossCells')."""
    for line in lines:
        option = record.option(directive_word(line) or "")
        if option is not None and not _reads_value(option, line.text.split(":", 1)[1]):
            return False
    return True


def _refuse_unknown_choice(lines: Sequence[Line], directed: Sequence[Family]) -> None:
    """ParseError at the first directive naming a choice (`# game:`) that none of the
    `directed` families offers, saying every choice they do (CrossCells' and Killer
    Sudoku's games), not only the first family's."""
    for line in lines:
        options = [option for record in directed if (option := record.option(directive_word(line) or ""))]
        text = line.text.split(":", 1)[1] if options else ""
        if options and all(option.choices for option in options) \
                and not any(_reads_value(option, text) for option in options):
            choices = list(dict.fromkeys(choice for option in options for choice in option.choices))
            raise ParseError(f"expected {', '.join(choices[:-1])} or {choices[-1]}, not {text.strip()!r}",
                             line.number, len(line.text) - len(text.lstrip()) + 1, line.text)


def _takes(record: Family, options: Mapping[str, Any]) -> bool:
    """Whether one of `options` is an option of `record` with a value it takes (a string
    one it reads, as the command line's)."""
    return any(option.key in options and (not isinstance(value := options[option.key], str)
                                          or _reads_value(option, value))
               for option in record.options)


def _reads_value(option: Option, text: str) -> bool:
    """Whether `option` reads `text` as a value."""
    try:
        option.value(text)
    except OptionError:
        return False
    return True


def family_of(text: str) -> str:
    """The name of the family whose layout `text` looks like.  Raises ParseError."""
    return detect(source_lines(text))[0].name


# Several puzzles in one text: a line `== NAME` (NAME optional) starts each one.

SEPARATOR = re.compile(r"\s*==(?:\s+(?P<name>.*?))?\s*")
COMMENT = re.compile(r"\s*#(\s|$)")  # a comment in every family (`#6` may be a CrossCells count)
SUFFIXES = tuple(dict.fromkeys(PUZZLE_SUFFIXES + tuple(s for f in FAMILIES for s in f.suffixes)))


class Piece(NamedTuple):
    """One puzzle's lines in a text that may hold several, and what is known of it."""

    lines: list[Line]
    number: int         # its place among the text's puzzles, from 1
    line: int           # the line it starts on: its separator's, or its first
    name: str           # what its separator line calls it ("" for nothing)
    shared: list[Line]  # the directives (and comments) above the first separator
    family: str | None  # named, or guessed (None: no family claims it; parsing says so)
    reason: str         # why it was guessed ("" when it was named)
    weak: bool = False  # guessed from a layout another family's may look like (a weak claim)


def pieces(text: str, family: str | None = None, options: Mapping[str, Any] | None = None) -> list[Piece]:
    """The puzzles `text` holds, unparsed: one, or several.

    A line that starts with `==` (then a blank, or nothing) starts a puzzle,
    and the rest of it names the puzzle.  Lines above the first such line
    that hold only directives and comments state the options of every
    puzzle (a puzzle's own directives win).  A family's own format may hold
    several puzzles without separators (Sudoku's .sdm files, one per line).
    Raises ParseError for text that is no text (binary, too big: MAX_TEXTS_CHARS
    in all, MAX_TEXT_CHARS a puzzle).
    """
    lines = source_lines(text, MAX_TEXTS_CHARS)
    starts = [n for n, line in enumerate(lines) if SEPARATOR.fullmatch(line.text)]
    if not starts:
        return _within_limits(_split(lines, 1, "", [], family, options=options))
    head = lines[:starts[0]]
    shared = [] if any(_drawn(line) for line in head) else head
    chunks = ([(head[0].number, "", head)] if head and not shared else []) + [
        (lines[n].number, SEPARATOR.fullmatch(lines[n].text)["name"] or "", lines[n + 1:end])
        for n, end in zip(starts, starts[1:] + [len(lines)])]
    drawn = [chunk for chunk in chunks if any(_drawn(line) for line in chunk[2])] or chunks[-1:]
    found: list[Piece] = []
    for start, name, chunk in drawn:
        found += _split(chunk, start, name, shared, family, first=len(found) + 1, options=options)
    return _within_limits(found)


def _within_limits(found: list[Piece]) -> list[Piece]:
    """`found`; ParseError at the first piece of more than MAX_TEXT_CHARS characters."""
    for piece in found:
        size = sum(len(line.text) + 1 for line in piece.lines)
        if size > MAX_TEXT_CHARS:
            raise ParseError(f"this puzzle has {size:,} characters; puzzles are limited to "
                             f"{MAX_TEXT_CHARS:,}", piece.line, 1)
    return found


def _drawn(line: Line) -> bool:
    """Whether a line may draw part of a puzzle: not blank, a comment or a directive."""
    return not (is_blank(line) or COMMENT.match(line.text) or directive_word(line))


def _split(lines: list[Line], start: int, name: str, shared: list[Line], family: str | None,
           first: int = 1, options: Mapping[str, Any] | None = None) -> list[Piece]:
    """The pieces of one chunk: itself, or those its family's own format splits it into."""
    try:
        record, claimed = (named(family), None) if family else detected(shared, lines, options)
    except ParseError:
        return [Piece(lines, first, start, name, shared, None, "")]
    reason = claimed.reason if claimed else ""
    weak = claimed is not None and claimed.strength < STRONG
    parts = record.grammar.split(lines) if hasattr(record.grammar, "split") else [lines]
    return [Piece(part, first + n, start if len(parts) == 1 else _last_drawn(part, start), name,
                  shared, record.name, reason, weak)
            for n, part in enumerate(parts)]


def detected(shared: list[Line], lines: list[Line],
             options: Mapping[str, Any] | None = None) -> tuple[Family, Claim]:
    """`detect` for a puzzle's `lines` under the directives `shared` by every puzzle of its
    text: its own lines decide when they claim it strongly, as the directives of one
    family (`# zero: yes`) must not make another family's puzzles that family's."""
    try:
        own = detect(lines, options)
    except ParseError:
        return detect(shared + lines, options)
    if own[1].strength >= STRONG or not shared:
        return own
    try:
        with_shared = detect(shared + lines, options)
    except ParseError:
        return own
    return with_shared if with_shared[1].strength > own[1].strength else own


def _last_drawn(lines: list[Line], default: int) -> int:
    """Where a puzzle of a family's own several-puzzle format stands: below the lines it
    shares with the others (.sdm: a line of 81 cells under the directives)."""
    return next((line.number for line in reversed(lines) if _drawn(line)), default)


def parse_piece(piece: Piece, **options: Any) -> Puzzle:
    """The puzzle a piece draws, as `parse` reads one.  Raises ParseError."""
    if piece.family:
        record, reason = named(piece.family), piece.reason
    else:
        record, claimed = detected(piece.shared, piece.lines, options)
        reason = claimed.reason
    try:
        is_header = getattr(record.grammar, "is_header", lambda line: False)
        shared, _ = split_directives(_own_directives(piece.shared, record), record.options,
                                     record.grammar.is_comment, is_header)
        settings, body = split_directives(piece.lines, record.options, record.grammar.is_comment,
                                          is_header)
        return record.grammar.parse(body, **{**shared, **settings, **given(record, options)})
    except ParseError as error:
        raise error.assuming(record.title, reason) if reason else error


def _own_directives(shared: list[Line], record: Family) -> list[Line]:
    """The lines `shared` by every puzzle of a text less the directives of other families
    only (`# zero: yes` is CrossProduct's: a KenKen beside it has no such option, as
    it ignores --zero); a directive no family has is kept, to be reported."""
    others = {word for other in FAMILIES if other is not record for word in other.option_names}
    return [line for line in shared
            if not ((word := directive_word(line)) in others and word not in record.option_names)]


def parse(text: str, family: str | None = None, **options: Any) -> Puzzle:
    """The puzzle drawn in `text`.

    `family` names the family; otherwise the strongest claim decides (of two as
    strong, the one that takes `options`).  `options` (by model keyword:
    `zero=True`, `first_cell="seeds"`) override the directives of the text;
    options the family does not have are
    ignored, and None means not given.  A string value is read as the
    command line reads it.  Raises ParseError with the line and column of
    the first problem, saying which family was assumed when it was guessed;
    and for a text that holds several puzzles (read those with `parse_all`).
    """
    checked_call(text, options)
    first, *others = pieces(text, family, options)
    if others:
        line = others[0].line
        raise ParseError(f"a second puzzle starts here, of {len(others) + 1} in all: read them with "
                         "crossprolog.parse_all, or with the command line", line, 1,
                         source_lines(text)[line - 1].text)
    return parse_piece(first, **options)


OPTIONS = frozenset(option.key for record in FAMILIES for option in record.options)  # model keywords


def checked_call(text: Any, options: dict[str, Any]) -> None:
    """TypeError for a call no text could mend: a text that is no str, or an option
    no family has (one another family has is ignored: see `parse`)."""
    if not isinstance(text, str):
        decode = " (decode the bytes first: data.decode())" if isinstance(text, (bytes, bytearray)) else ""
        raise TypeError(f"a puzzle's text is a str, not {type(text).__name__}{decode}")
    checked_options(options)


def checked_options(options: dict[str, Any]) -> None:
    """TypeError for an option no family has."""
    unknown = sorted(set(options) - OPTIONS)
    if unknown:
        raise TypeError(f"no family has the option {unknown[0]!r}; the options are "
                        + ", ".join(sorted(OPTIONS)))


def parse_all(text: str, family: str | None = None, **options: Any) -> list[Puzzle]:
    """Every puzzle `text` holds (see `pieces`), read as `parse` reads one.  Raises
    ParseError at the first problem."""
    checked_call(text, options)
    at_once = _read_at_once(text, family, options)
    if at_once is not None:
        return at_once[1]
    return [parse_piece(piece, **options) for piece in pieces(text, family, options)]


def read_pieces(text: str, family: str | None = None, **options: Any
                ) -> list[tuple[Piece, Puzzle | None]]:
    """The pieces of `text` (see `pieces`), each with its puzzle when its family's
    reader read the whole text in one pass (see `_read_at_once`), else with None:
    `parse_piece` reads it then, and says where it fails.  Raises ParseError for text
    that is no text."""
    named = family or _first_family(text, options)
    at_once = _read_at_once(text, named, options) if named else None
    if at_once is not None:
        record, puzzles = at_once
        found = pieces(text, record.name)  # the family known: no piece needs guessing
        if len(found) == len(puzzles):
            return list(zip(found, puzzles))
    return [(piece, None) for piece in pieces(text, family, options)]


def most_puzzles(text: str) -> int:
    """The most puzzles `text` may hold after separator lines (one more than they):
    cheap, for sharing out a time limit before the text is read.  A collection of
    one puzzle a line counts as one: a lone puzzle's lines must not count."""
    return 1 + sum(1 for line in text.split("\n") if SEPARATOR.fullmatch(line))


def several_in(head: str) -> bool:
    """Whether a text that begins with the whole lines `head` holds several puzzles, as
    far as they tell: one is a separator line, or a family's own format splits the
    first two drawn lines into two puzzles (Sudoku's lines of 81 cells).  A guess,
    for starting the work on them while the whole text is read (a wrong one costs
    that work's start: a lone puzzle under one `==` line, or lines of 81 cells that
    go on as a grid, count as several); it may load every family's grammar, to
    guess which the first lines are."""
    lines = head.split("\n")
    if any(SEPARATOR.fullmatch(line) for line in lines):
        return True
    try:
        first = source_lines("\n".join(lines[:FIRST_LINES]))
    except ParseError:
        return False
    drawn = [n for n, line in enumerate(first) if _drawn(line)][:2]
    return len(drawn) == 2 and len(_split(first[:drawn[1] + 1], 1, "", [], None)) == 2


FIRST_LINES = 64  # where `several_in` looks for the first two drawn lines: below comments, directives


# The separator lines a family's `read_all` may take: a part of SEPARATOR's.
PLAIN_SEPARATOR = r" *==(?: [ -~]*)?"


def _first_family(text: str, options: Mapping[str, Any] | None = None) -> str | None:
    """The family of the first puzzle of `text`, as `pieces` guesses it (None: none
    claims it): guessed once, not for every puzzle of the text, nor by trying every
    family's reader (which would load them all)."""
    lines = text.split("\n")
    starts = [n for n, line in enumerate(lines) if SEPARATOR.fullmatch(line)][:2]
    found = pieces("\n".join(lines[:starts[1]]) if len(starts) == 2 else text, options=options)
    return found[0].family if found else None


def _largest_piece(text: str) -> int:
    """The most characters from one separator line of `text` to the next (or its ends)."""
    most = start = end = 0
    for line in text.split("\n"):
        if SEPARATOR.fullmatch(line):
            most, start = max(most, end - start), end
        end += len(line) + 1
    return max(most, end - start)


def _read_at_once(text: str, family: str | None, options: dict[str, Any]
                  ) -> tuple[Family, list[Puzzle]] | None:
    """The family and puzzles of `text` read in one pass by the grammar of the family
    named (or, guessing, of the first family whose grammar reads it so), when it has a
    `read_all` and the text is one it reads so; None otherwise.

    A `read_all` takes only texts whose every puzzle `detect` gives to its family,
    so that guessing needs no claim: a family's `read_all` refuses another's text
    at its first lines, in less time than one `detect`."""
    if len(text) > MAX_TEXTS_CHARS or _largest_piece(text) > MAX_TEXT_CHARS:
        return None  # reading piece by piece says which is too big
    records = [BY_NAME[family]] if family in BY_NAME else [] if family else FAMILIES
    for record in records:
        read_all = getattr(record.grammar, "read_all", None)
        try:
            settings = given(record, options)
        except UsageError:
            continue  # reading piece by piece says so, in its turn
        if read_all and (puzzles := read_all(text, PLAIN_SEPARATOR, **settings)) is not None:
            return record, puzzles
    return None


def generate(family: str, rows: int, cols: int, n: int = 1, seed: int | None = None, *,
             well_formed: bool = False, **options: Any) -> Iterator[Puzzle]:
    """`n` random puzzles of `family`, `rows` by `cols`, the same for the same seed;
    with `well_formed`, each with exactly one solution and no clue to spare (a
    KenKen: cut into cages until unique, not minimal).
    `options` (by model keyword, as for `parse`) are the rules the puzzles
    follow; a generator refuses, with UsageError, rules it cannot make.  `rows`,
    `cols`, `n` and `seed` may be integers of any kind (numpy's too); InvalidValue
    for anything else (None aside, for `seed`), for a negative `n`, and for a negative seed (Python's
    random takes -s as s) or a `well_formed` that is not True or False; TypeError for
    an option no family has, UsageError for one of another family."""
    rows, cols, n = integer(rows, "rows"), integer(cols, "cols"), integer(n, "n")
    if n < 0:  # the command line refuses it too: none made would be no answer
        raise InvalidValue(f"n must be 0 or more, not {n}")
    seed = None if seed is None else integer(seed, "seed")
    if seed is not None and seed < 0:
        raise InvalidValue(f"seed must be 0 or more, not {seed}")
    if not isinstance(well_formed, bool):
        raise InvalidValue(f"well_formed must be True or False, not {shown(well_formed)}")
    checked_options(options)
    record = named(family)
    foreign = sorted(key for key, value in options.items()
                     if value is not None and key not in {option.key for option in record.options})
    if foreign:
        raise UsageError(f"{record.title} has no option {foreign[0]!r}")
    if (record.well_formed_name if well_formed else record.generator_name) is None:
        raise UsageError(f"{record.title} has no generator")
    make = record.well_formed if well_formed else record.generator
    return make(rows, cols, n, seed, **given(record, options))


def given(record: Family, options: dict[str, Any]) -> dict[str, Any]:
    """The options of `record` among `options` (None: not given), strings read as text.
    Raises UsageError for a text that does not read, InvalidValue for another value
    the option cannot take."""
    values = {}
    for option in record.options:
        value = options.get(option.key)
        if value is None:
            continue
        if isinstance(value, str):
            try:
                value = option.value(value)
            except OptionError as error:
                raise UsageError(f"--{option.name}: {error}") from None
        elif (wanted := option.refusal(value)) is not None:
            raise InvalidValue(f"{option.key} must be {wanted}, not {shown(value)}")
        values[option.key] = value
    return values


__all__ = ["BY_NAME", "FAMILIES", "Family", "Piece", "SUFFIXES", "detect", "family_of", "generate",
           "named", "parse", "parse_all", "parse_piece", "pieces"]
