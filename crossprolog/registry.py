"""The puzzle families crossprolog knows, one record each, and how a text finds its family.

Adding a family: its grammar module (grammars/), its model module
(crossprolog/), its Prolog module (prolog/), and one record here.  The
command line, the engine and the API read everything else from the record.
"""

from __future__ import annotations

from typing import Any, Sequence

from . import crosscells, crossproduct, sudoku
from .errors import ParseError, UsageError
from .family import CERTAIN, Claim, Family, Option, OptionError
from .grammars import crosscells as crosscells_grammar
from .grammars import crossproduct as crossproduct_grammar
from .grammars import sudoku as sudoku_grammar
from .grammars.common import Line, directive_word, is_blank, source_lines, split_directives
from .puzzle import Puzzle

FAMILIES: tuple[Family, ...] = (
    Family(
        name="crossproduct", title="CrossProduct", grammar=crossproduct_grammar,
        model=crossproduct.CrossProduct, prolog="crossproduct",
        summary="fill digits 1-9 so every row and column multiplies to its product",
        options=(Option("zero", "digits run 0-9 instead of 1-9", default=False, flag=True),),
        generator=crossproduct.random_puzzles,
        sizes=((3, 3), (3, 4), (4, 3), (3, 5), (5, 3), (4, 4), (6, 3))),
    Family(
        name="crosscells", title="CrossCells", grammar=crosscells_grammar,
        model=crosscells.CrossCells, prolog="crosscells",
        summary="switch operation cells on or off so every line's total or count matches",
        options=(Option("first-cell", "a line's value starts at 0 (zero), or its first ON cell "
                        "sets it to its number (seeds)", default="zero",
                        choices=crosscells.FIRST_CELL_RULES),),
        generator=crosscells.random_puzzles,
        sizes=((4, 4), (5, 5), (6, 6))),
    Family(
        name="sudoku", title="Sudoku", grammar=sudoku_grammar, model=sudoku.Sudoku, prolog="sudoku",
        summary="every row, column and box holds the same nine digits; maybe a GCD to maximize",
        options=(Option("digits", "the digits in use: 1-9, or a range of ten such as "
                        "'0-9 choose 9'", default=sudoku.CLASSIC, read=sudoku_grammar.read_digit_set),
                 Option("maximize", "an objective: gcd(rows) or gcd(cols)", default=None,
                        read=sudoku_grammar.read_objective, key="objective"))),
)

BY_NAME = {family.name: family for family in FAMILIES}


def named(name: str) -> Family:
    """The family called `name`; UsageError naming the choices otherwise."""
    if name not in BY_NAME:
        raise UsageError(f"unknown family {name!r}; choose from {', '.join(BY_NAME)}")
    return BY_NAME[name]


def claim(record: Family, lines: Sequence[Line]) -> Claim:
    """How sure `record` is that `lines` are its own: certain when they hold one of
    its directives, else what its grammar says."""
    words = {directive_word(line) for line in lines} & record.option_names
    if words:
        return Claim(CERTAIN, f"the directive '# {min(words)}:'")
    return record.grammar.claim(lines)


def detect(lines: Sequence[Line]) -> tuple[Family, Claim]:
    """The family with the strongest claim to `lines`, and its claim.

    Raises ParseError when no family claims them.
    """
    strongest, record = max(((claim(record, lines), record) for record in FAMILIES),
                            key=lambda pair: pair[0].strength)
    if strongest.strength > 0:
        return record, strongest
    body = [line for line in lines if not is_blank(line)]
    if all(line.text.lstrip().startswith("#") for line in body):
        raise ParseError("no puzzle here: the text is empty or only comments", 1, 1)
    raise ParseError(f"this looks like no puzzle family crossprolog knows ({', '.join(BY_NAME)}); "
                     "name one with --family to see where it goes wrong",
                     body[0].number, 1, body[0].text)


def family_of(text: str) -> str:
    """The name of the family whose layout `text` looks like.  Raises ParseError."""
    return detect(source_lines(text))[0].name


def parse(text: str, family: str | None = None, **options: Any) -> Puzzle:
    """The puzzle drawn in `text`.

    `family` names the family; otherwise the strongest claim decides.
    `options` (by model keyword: `zero=True`, `first_cell="seeds"`) override
    the directives of the text; options the family does not have are
    ignored, and None means not given.  A string value is read as the
    command line reads it.  Raises ParseError with the line and column of
    the first problem, saying which family was assumed when it was guessed.
    """
    lines = source_lines(text)
    record, guessed = (named(family), None) if family else detect(lines)
    try:
        settings, body = split_directives(lines, record.options, record.grammar.is_comment,
                                          getattr(record.grammar, "is_header", lambda line: False))
        return record.grammar.parse(body, **{**settings, **given(record, options)})
    except ParseError as error:
        raise error.assuming(record.title, guessed.reason) if guessed else error


def given(record: Family, options: dict[str, Any]) -> dict[str, Any]:
    """The options of `record` among `options` (None: not given), strings read as text."""
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
        values[option.key] = value
    return values


__all__ = ["BY_NAME", "FAMILIES", "Family", "detect", "family_of", "named", "parse"]
