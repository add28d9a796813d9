"""The CrossProduct layouts: plain text and the notebook's markdown table.

Plain text: a line of column products (first or last), then one line per row:
its cells (`?` or a given digit) and the row product.  `#` starts a comment
line; blank lines are ignored.

    6615 15552 420
       ?     ?   ? 210

Markdown: `|6615|15552|420|[6×3]|`, a `|---|...|` line, then rows such as
`|?|?|?|**210**|`.  The size tag and the bold are optional.

Directive (above the puzzle): `# zero: yes` lets digits run 0-9.
"""

from __future__ import annotations

import pyparsing as pp

import re
from typing import Sequence

from ..crossproduct import CrossProduct
from ..family import STRONG, WEAK, Claim, NONE
from .common import Line, Token, error_at, is_blank, located, number, parse_line

BLANK_AFTER = r"(?!\S)"  # plain-text tokens are separated by blanks: `??6` is no row
unknown = pp.Literal("?").set_parse_action(lambda: [None])
plain_unknown = pp.Regex(r"\?" + BLANK_AFTER).set_parse_action(lambda: [None])
cell_or_product = located(plain_unknown | number(BLANK_AFTER)).set_name("a digit, '?' or a product")
plain_line = pp.OneOrMore(cell_or_product)

bold = pp.Suppress("**")
md_value = located(unknown | number()).set_name("a digit, '?' or a product")
md_cell = (bold + md_value + bold) | md_value
size_tag = pp.Group(pp.Suppress("[") + number()("rows")
                    + pp.Suppress(pp.one_of("× x X")) + number()("columns")
                    + pp.Suppress("]"))("size")
bar = pp.Suppress("|")
md_header = bar + pp.OneOrMore(md_value + bar) + pp.Optional(size_tag + bar)
md_row = bar + pp.OneOrMore(md_cell + bar)
md_separator = pp.Regex(r"\|(\s*:?-+:?\s*\|)+")


# How a line of either layout looks, for claiming a text (the grammar proper is above).
PLAIN_LINE = re.compile(r"\s*(?:(?:\d[\d,]*|\?)(?:\s+|$))+")


def is_comment(line: Line) -> bool:
    return line.text.lstrip().startswith("#")


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for a markdown table, or for lines of numbers with `?` cells; weak for
    lines of numbers alone (another family may have such lines)."""
    body = [line.text for line in lines if not (is_blank(line) or is_comment(line))]
    if not body:
        return NONE
    if body[0].lstrip().startswith("|"):
        return Claim(STRONG, "a markdown table")
    plain = sum(bool(PLAIN_LINE.fullmatch(text)) for text in body)
    if plain < len(body):
        return Claim(WEAK * plain / len(body), f"{plain} of {len(body)} lines are numbers and '?'")
    if any("?" in text for text in body):
        return Claim(STRONG, "lines of numbers and '?' cells")
    return Claim(WEAK, "lines of numbers")


def parse(lines: Sequence[Line], *, zero: bool = False) -> CrossProduct:
    """The CrossProduct drawn in `lines`, in either layout.  Raises ParseError."""
    lines = [line for line in lines if not (is_blank(line) or is_comment(line))]
    if not lines:
        raise error_at("no puzzle here: the text is empty or only comments", Line(1, ""), 1)
    if lines[0].text.lstrip().startswith("|"):
        return _markdown_puzzle(lines, zero)
    return _plain_puzzle(lines, zero)


def _plain_puzzle(lines: list[Line], zero: bool) -> CrossProduct:
    tokens = [list(parse_line(plain_line, line, "a digit, '?' or a product")) for line in lines]
    below = _columns_below(tokens)
    header, header_line = (tokens[-1], lines[-1]) if below else (tokens[0], lines[0])
    row_lines = list(zip(lines[:-1], tokens[:-1]) if below else zip(lines[1:], tokens[1:]))
    column_products = [_product(token, header_line, zero) for token in header]
    width = len(column_products)
    row_products, givens = [], []
    for line, row in row_lines:
        product = _product(row[-1], line, zero)  # first: a row without its product ends in '?'
        if len(row) != width + 1:
            raise _row_length_error(line, row, width)
        givens.append([_cell(token, line, zero) for token in row[:-1]])
        row_products.append(product)
    return CrossProduct(tuple(row_products), tuple(column_products), tuple(map(tuple, givens)),
                        zero=zero, layout="text", columns_below=below)


def _columns_below(tokens: list[list[Token]]) -> bool:
    """Whether the column products are the last line rather than the first.

    A line with a `?` is a row; otherwise the product line is the one with a
    token fewer than the rows.
    """
    if len(tokens) < 2:
        return False
    first, last = tokens[0], tokens[-1]
    if any(t.value is None for t in first):
        return True
    if any(t.value is None for t in last):
        return False
    return len(last) < len(first)


def _markdown_puzzle(lines: list[Line], zero: bool) -> CrossProduct:
    header = parse_line(md_header, lines[0], "a column product or a size tag like [6×3] between bars")
    if len(lines) < 2 or not md_separator.matches(lines[1].text.strip()):
        line = lines[1] if len(lines) > 1 else lines[0]
        raise error_at("expected the |---|---| line under the markdown header", line, 1)
    column_products = [_product(token, lines[0], zero) for token in header if isinstance(token, Token)]
    width = len(column_products)
    row_products, givens = [], []
    for line in lines[2:]:
        row = list(parse_line(md_row, line, "a digit, '?' or a product between bars"))
        product = _product(row[-1], line, zero)  # first: a row without its product ends in '?'
        if len(row) != width + 1:
            raise _row_length_error(line, row, width)
        givens.append([_cell(token, line, zero) for token in row[:-1]])
        row_products.append(product)
    if "size" in header:
        size = header["size"]
        if (size["rows"], size["columns"]) != (len(row_products), width):
            column = lines[0].text.index("[") + 1
            raise error_at(f"the size tag says {size['rows']}×{size['columns']} but the table is "
                           f"{len(row_products)}×{width}", lines[0], column)
    return CrossProduct(tuple(row_products), tuple(column_products), tuple(map(tuple, givens)),
                        zero=zero, layout="markdown")


def _row_length_error(line: Line, row: list[Token], width: int):
    cells = len(row) - 1
    column = row[width].column if cells > width else row[-1].column
    return error_at(f"this row has {cells} cell{'s' * (cells != 1)} before its product; "
                    f"the puzzle has {width} column{'s' * (width != 1)}", line, column)


def _cell(token: Token, line: Line, zero: bool) -> int | None:
    digit = token.value
    if digit is None:
        return None
    if not 0 <= digit <= 9 or token.text != str(digit):
        raise error_at(f"a cell holds one digit or '?', not {token.text!r}", line, token.column)
    if digit == 0 and not zero:
        raise error_at("0 is not a digit 1-9 (allow zero digits with --zero or '# zero: yes')",
                       line, token.column)
    return digit


def _product(token: Token, line: Line, zero: bool) -> int:
    if token.value is None:
        raise error_at("a product is a number, not '?' (is this line's product missing?)",
                       line, token.column)
    if token.value == 0 and not zero:
        raise error_at("a product of 0 needs zero digits (allow them with --zero or '# zero: yes')",
                       line, token.column)
    return token.value
