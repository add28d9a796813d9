"""The tokens of the CrossCells layouts: cells (`+3`, `*2a`), constraints (`=24`, `#1`,
`a#6`, `24 total`, `[6] tiles`), comments, and what the claim counts (see
grammars.crosscells for the layouts)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

import pyparsing as pp

from ..crosscells import COUNT, DECIDED, OPERATORS, TOTAL, Cell, Constraint, Place
from .common import FENCE_LINE, MAX_DIGITS, Line, Token, is_blank, located

WHAT = "a cell like +3 or *2a, or a constraint like =24, #1 or a#6"

# The pieces of a token, as regular expressions with named groups.
END = r"(?!\S)"  # tokens are separated by blanks
SPELLINGS = {spelling: operator for operator in OPERATORS.values()
             for spelling in (operator.symbol, *operator.aliases)}
OPERATOR = f"(?:{'|'.join(map(re.escape, sorted(SPELLINGS, key=len, reverse=True)))})"
LETTER = r"[A-Za-z]"
MARKED = {mark: on for on, mark in DECIDED.items()}  # a solver's mark after a cell: ! on, ~ off
CELL_PATTERN = rf"(?P<op>{OPERATOR})(?P<number>\d+)(?P<group>{LETTER}*)(?P<decided>[!~]?)"
TOTAL_PATTERN = rf"(?P<group>{LETTER}?)=(?P<value>-?\d+)"
COUNT_PATTERN = rf"(?P<group>{LETTER}?)#(?P<value>\d+)"
# In words, as the game shows them: `24 total`, `[6] tiles`, `a: 24 total`.
GROUP_IN_WORDS = rf"(?:(?P<group>{LETTER}): *)?"
TOTAL_IN_WORDS = rf"{GROUP_IN_WORDS}(?P<value>-?\d+) +(?i:total)"
COUNT_IN_WORDS = rf"{GROUP_IN_WORDS}\[(?P<value>\d+)\] +(?i:tiles?)"


def checked_number(text: str, loc: int, digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise pp.ParseFatalException(text, loc, f"numbers have at most {MAX_DIGITS:,} digits")
    return int(digits)


def _cell(text: str, loc: int, t: pp.ParseResults) -> Cell:
    operator = SPELLINGS[t["op"]]
    number = checked_number(text, loc, t["number"])
    if operator.positive and number == 0:
        raise pp.ParseFatalException(text, loc, f"{operator.name} by 0: a {t['op']} cell needs "
                                                "a number above 0")
    return Cell(operator.symbol, number, t["group"], text=t[0], decided=MARKED.get(t["decided"]))


def constraint_action(kind: str):
    """The parse action for a constraint of `kind`."""

    def constraint(text: str, loc: int, t: pp.ParseResults) -> Constraint:
        return Constraint(kind, checked_number(text, loc, t["value"]), t["group"] or "", text=t[0])

    return constraint


cell_element = pp.Regex(CELL_PATTERN + END).set_name("cell").set_parse_action(_cell)
total = pp.Regex(TOTAL_PATTERN + END).set_name("total").set_parse_action(constraint_action(TOTAL))
count = pp.Regex(COUNT_PATTERN + END).set_name("count").set_parse_action(constraint_action(COUNT))
in_words = (pp.Regex(TOTAL_IN_WORDS + END).set_parse_action(constraint_action(TOTAL))
            | pp.Regex(COUNT_IN_WORDS + END).set_parse_action(constraint_action(COUNT)))
constraint_element = in_words | total | count  # in words first: `-3 total` is no cell


def _misspelt_tiles(text: str, loc: int, t: pp.ParseResults):
    """`[6]` is a count in words only before `tiles`: say so at the word that stands there."""
    word = t["word"]
    at = loc + len(t[0]) - len(word)
    raise pp.ParseFatalException(text, at, f"expected 'tiles' after {t['count']}"
                                           + (f", found {word!r}" if word else ""))


misspelt_tiles = pp.Regex(rf"{GROUP_IN_WORDS}(?P<count>\[\d+\])(?!\S) *(?P<word>\S*)") \
    .set_parse_action(_misspelt_tiles)
token_line = pp.OneOrMore(located((constraint_element | cell_element | misspelt_tiles).set_name(WHAT))) \
    .parse_with_tabs()

COMMENT = re.compile(r"\s*#(\s|$)")


def unnamed(*patterns: str) -> str:
    """Any of `patterns`, their named groups made plain (so that they combine)."""
    return "|".join(re.sub(r"\(\?P<\w+>", "(?:", pattern) for pattern in patterns)


# What the claim counts: a constraint in words is one token.
CELL_TOKEN = re.compile(unnamed(CELL_PATTERN))
CONSTRAINT_TOKEN = re.compile(unnamed(TOTAL_PATTERN, COUNT_PATTERN, TOTAL_IN_WORDS, COUNT_IN_WORDS))
TOKEN = re.compile(rf"(?:{unnamed(TOTAL_IN_WORDS, COUNT_IN_WORDS)}){END}|\S+")


def is_comment(line: Line) -> bool:
    """`#` then a blank, or alone, opens a comment (`#6` is a count); fence lines are skipped."""
    return bool(COMMENT.match(line.text) or FENCE_LINE.match(line.text))


def puzzle_lines(lines: Sequence[Line]) -> list[Line]:
    """The lines that draw the puzzle: no blanks, comments or code fences."""
    return [line for line in lines if not (is_blank(line) or is_comment(line))]


def layout_of(lines: Sequence[Line]) -> str:
    return "markdown" if any(FENCE_LINE.match(line.text) for line in lines) else "text"


def placed(token: Token, line: Line) -> Cell | Constraint:
    return replace(token.value, place=Place(line.number - 1, token.column - 1))
