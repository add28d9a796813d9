"""Pieces every layout grammar shares: clean lines, numbers, located tokens, errors."""

from __future__ import annotations

import re
import unicodedata
from difflib import get_close_matches
from functools import cache
from typing import Any, Callable, NamedTuple, Sequence

import pyparsing as pp

from ..drawing import FENCE
from ..errors import ParseError
from ..family import Option, OptionError
from ..puzzle import MAX_DIGITS
from ..text_files import NotUtf8, utf8_text

# What a reader takes, so that no text holds its time and memory for long: a puzzle's
# text (a generated 200x200 CrossCells has 0.7 M characters), and a text of several
# puzzles (`generate -n` writes them), each within the first.
MAX_TEXT_CHARS = 1_000_000
MAX_TEXTS_CHARS = 4 * MAX_TEXT_CHARS
TAB_SIZE = 8
# Spaces pasted from web pages and word processors (no-break, thin, ideographic...): blanks.
NEWLINE = re.compile(r"\r\n|\r|\n")
SPACES = {code: " " for code in (0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000)}


class Line(NamedTuple):
    """One line of puzzle text, numbered from 1."""

    number: int
    text: str


class Token(NamedTuple):
    """A token of a line: its text, the value it stands for, and where it starts (1-based)."""

    text: str
    value: object
    column: int

    @property
    def end(self) -> int:
        """The column just after the token."""
        return self.column + len(self.text)


def source_lines(text: str, most: int = MAX_TEXT_CHARS) -> list[Line]:
    """The lines of `text`, as people paste them: BOM dropped, CRLF or CR read as LF,
    tabs expanded to stops every 8 columns (so tokens stand where they are seen),
    no-break and other wide spaces read as spaces.

    Raises ParseError for text that cannot be a puzzle: binary, or too big (more
    than `most` characters: a puzzle's MAX_TEXT_CHARS, or MAX_TEXTS_CHARS for a
    text of several puzzles, each of which `pieces` holds to MAX_TEXT_CHARS).
    """
    if len(text) > most:
        what = "puzzles are" if most == MAX_TEXT_CHARS else "a text of several puzzles is"
        raise ParseError(f"the text has {len(text):,} characters; {what} limited to {most:,}", 1, 1)
    text = text.removeprefix("\ufeff")
    if not text.isascii():
        text = text.translate(SPACES)
    if "\t" in text:  # a line break ends a tab's run: expanding the text expands each line
        text = text.expandtabs(TAB_SIZE)
    lines = [Line(n, line) for n, line in enumerate(NEWLINE.split(text) if "\r" in text
                                                     else text.split("\n"), start=1)]
    for line in lines:
        if not line.text.isprintable():  # the scan below only for a line that has something to say
            refuse_unprintable(line)
    return lines


def refuse_unprintable(line: Line) -> None:
    """ParseError at the first character of `line` that is not printable."""
    for column, char in enumerate(line.text, start=1):
        if not char.isprintable():
            what = "control" if unicodedata.category(char) == "Cc" else "invisible"
            shown = "".join(c if c.isprintable() else "\ufffd" for c in line.text)
            raise ParseError(f"unexpected {what} character {char!r}: this does not look like "
                             "puzzle text", line.number, column, shown)


def is_blank(line: Line) -> bool:
    return not line.text.strip()


FENCE_LINE = re.compile(r"\s*" + FENCE)


def is_comment(line: Line) -> bool:
    """A `#` comment line, or a markdown code fence (a drawing may sit in a code block,
    as `--format markdown` writes one)."""
    return line.text.lstrip().startswith("#") or bool(FENCE_LINE.match(line.text))


def decode(data: bytes) -> str:
    """Text of a puzzle file's bytes (UTF-8, BOM allowed); ParseError if not UTF-8."""
    try:
        return utf8_text(data)
    except NotUtf8 as error:
        raise ParseError(f"{error}: this does not look like puzzle text", error.line, error.column) from None


# A non-negative integer, maybe with thousands separators, as a regular expression.
NUMBER = r"(?:[0-9]{1,3}(?:,[0-9]{3})+(?![0-9,])|[0-9]+)"


def number(end: str = "") -> pp.ParserElement:
    """A non-negative integer, with thousands separators allowed (6,615).

    `end`, a regular expression, must match (without consuming) what follows it.
    """

    def value(text: str, loc: int, t: pp.ParseResults) -> int:
        digits = t[0].replace(",", "")
        if len(digits) > MAX_DIGITS:
            raise pp.ParseFatalException(text, loc, f"numbers have at most {MAX_DIGITS:,} digits")
        return int(digits)

    return pp.Regex(NUMBER + end).set_name("number").set_parse_action(value)


def located(expr: pp.ParserElement) -> pp.ParserElement:
    """`expr`, yielding a Token that remembers its source text and 1-based column.

    `expr` must yield exactly one value; the `?` of an unknown cell yields None.
    """

    def token(text: str, _loc: int, t: pp.ParseResults) -> Token:
        value = t.value[0] if len(t.value) else None
        raw = text[t.locn_start:t.locn_end]
        start = t.locn_start + len(raw) - len(raw.lstrip())  # Located counts skipped blanks
        return Token(raw.strip(), value, start + 1)

    return pp.Located(expr).set_parse_action(token).set_name(expr.name)


def quoted(text: str) -> str:
    """`text` in quotes as the user typed it (`'3\\'`: repr would double the
    backslash), or as repr writes it when it holds a quote or a character a terminal
    would act on."""
    return f"'{text}'" if text.isprintable() and "'" not in text else repr(text)


def parse_line(grammar: pp.ParserElement, line: Line, what: str) -> pp.ParseResults:
    """Parse one whole line; a mismatch becomes a ParseError pointing at its column."""
    try:
        return entire(grammar).parse_string(line.text)
    except pp.ParseFatalException as error:  # a token that cannot be, said by a parse action
        raise ParseError(error.msg, line.number, error.loc + 1, line.text) from None
    except pp.ParseBaseException as error:
        found = re.match(r"[^\s|]+|\S?", line.text[error.loc:]).group()
        if len(found) > 20:
            found = found[:20] + "..."
        raise ParseError(f"expected {what}, found {quoted(found)}" if found
                         else f"expected {what} before the end of the line",
                         line.number, error.loc + 1, line.text) from None


@cache
def entire(grammar: pp.ParserElement) -> pp.ParserElement:
    """`grammar`, then the end of the text: what `parse_string(text, parse_all=True)`
    matches, built once (parse_all builds its end anew at every call)."""
    return grammar + pp.StringEnd()


def error_at(message: str, line: Line, column: int) -> ParseError:
    return ParseError(message, line.number, column, line.text)


def check_ascii_digits(line: Line) -> None:
    """ParseError at the first digit of another script (Arabic-Indic, full-width,
    Devanagari, superscript...): numbers are written with 0-9 alone, everywhere,
    so that no layout reads a digit another would refuse."""
    if line.text.isascii():
        return
    for column, char in enumerate(line.text, start=1):
        if char.isdigit() and not char.isascii():
            raise error_at(f"{char!r} ({unicodedata.name(char, 'a digit')}) is not one of the digits "
                           "0-9: write numbers with 0-9", line, column)


# Directives: `# word: value` lines above the puzzle, one per option of its family.

DIRECTIVE = re.compile(r"(\s*)#\s*([A-Za-z][\w-]*)\s*:")


def directive_word(line: Line) -> str | None:
    """The lower-cased word of a `# word:` line, or None for any other line."""
    match = DIRECTIVE.match(line.text)
    return match.group(2).lower() if match else None


def split_directives(lines: Sequence[Line], options: Sequence[Option],
                     is_comment: Callable[[Line], bool],
                     is_header: Callable[[Line], bool] = lambda line: False,
                     ) -> tuple[dict[str, Any], list[Line]]:
    """The option values that the directive lines above the puzzle state (by model
    keyword), and the lines that draw the puzzle.

    Above the puzzle (before its first line that is neither blank nor a
    comment), `# word:` must name one of `options`, once: a misspelt
    directive is never silently ignored.  The one exception is a header
    line of the family's own file format (`is_header`: `#Uhttp://...` in a
    Sudoku .sdk file), unless its word nearly spells a known directive.
    Below the puzzle, a known directive is an error (directives belong
    above) and any other `# word:` line is a comment.  Raises ParseError at
    the word or in the value.
    """
    known = {option.name: option for option in options}
    values: dict[str, Any] = {}
    body: list[Line] = []
    started = False
    for line in lines:
        match = DIRECTIVE.match(line.text)
        if match is None:
            if not is_comment(line):
                check_ascii_digits(line)
            started = started or not (is_blank(line) or is_comment(line))
            body.append(line)
            continue
        check_ascii_digits(line)
        word, column = match.group(2).lower(), len(match.group(1)) + 1
        if word not in known:
            if started or (is_header(line) and not get_close_matches(word, known)):
                continue  # a comment below the puzzle, or a file format's header line
            raise error_at(f"unknown directive {word!r} (known: {', '.join(known) or 'none'}); "
                           "write free comments without 'word:' at their start", line, column)
        if started:
            raise error_at(f"the {word!r} directive must come above the grid", line, column)
        option = known[word]
        if option.key in values:
            raise error_at(f"the {word!r} directive is given twice", line, column)
        text = line.text[match.end():]
        try:
            values[option.key] = option.value(text)
        except OptionError as error:
            start = match.end() + len(text) - len(text.lstrip())
            raise error_at(str(error), line, start + error.offset + 1) from None
    return values, body
