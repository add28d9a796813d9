"""The CrossProduct layouts: plain text and the notebook's markdown table.

Plain text: a line of column products (first or last), then one line per row:
its cells (`?` or a given digit) and the row product.  The product line may end
with the notebook's size tag, `[6×3]`.  `#` starts a comment line; blank lines
are ignored.

    6615 15552 420 [6×3]
       ?     ?   ? 210

Markdown: `|6615|15552|420|[6×3]|`, an alignment line (`|---|`, `|:---:|`),
then rows such as `|?|?|?|**210**|`.  The size tag (or an empty corner), the bold
and the outer bars are optional; an empty cell is unknown, like `?`.

Directive (above the puzzle): `# zero: yes` lets digits run 0-9.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple, Sequence

import pyparsing as pp

from ..crossproduct import CrossProduct
from ..family import STRONG, WEAK, Claim, NONE
from .common import (MAX_DIGITS, NUMBER, Line, Token, error_at, is_blank, is_comment, located, number,
                     parse_line)


class SizeTag(NamedTuple):
    """The notebook's `[rows×columns]` after the column products."""

    rows: int
    columns: int


BLANK_AFTER = r"(?!\S)"  # plain-text tokens are separated by blanks: `??6` is no row
PLAIN_WHAT = "a digit, '?' or a product"


@cache
def plain_line() -> pp.ParserElement:
    """A line of plain text, token by token: built for the first text that plain_text
    refuses (below), to say where and why; a well-formed text never needs it."""
    plain_unknown = pp.Regex(r"\?" + BLANK_AFTER).set_parse_action(lambda: [None])
    cell_or_product = located(plain_unknown | number(BLANK_AFTER)).set_name(PLAIN_WHAT)
    size_tag = (pp.Suppress("[") + number() + pp.Suppress(pp.one_of("× x X")) + number()
                + pp.Suppress("]")).set_parse_action(lambda t: SizeTag(t[0], t[1]))
    return pp.OneOrMore(cell_or_product) + pp.Optional(located(size_tag).set_name("a size tag"))

# The same tokens, a whole plain text (its lines joined) as one regular expression: a
# well-formed text is read in one pass by one pyparsing element, where plain_line
# takes an element a token (the size tag five), each a line: a twentieth of the time,
# and a third of a pass that takes an element a line.  A text it refuses is read line
# by line with plain_line, which says where and why.
TAG = rf"\[ *{NUMBER} *[×xX] *{NUMBER} *\]"
PLAIN_LINE_PATTERN = rf" *(?:(?:\?|{NUMBER}){BLANK_AFTER} *)+(?:{TAG} *)?"
TOKEN = re.compile(rf"\?|{NUMBER}|(?P<tag>{TAG})|(?P<newline>\n)")


def _text_tokens(text: str, loc: int, t: pp.ParseResults) -> list[list[list[Token]]]:
    """The tokens of each line of the text matched at `loc`, as plain_line gives them."""
    lines: list[list[Token]] = [[]]
    start = loc  # where the line starts
    for m in TOKEN.finditer(text, loc, loc + len(t[0])):
        if m["newline"]:
            lines.append([])
            start = m.end()
        else:
            lines[-1].append(Token(m[0], _tag(m[0]) if m["tag"] else _value(m[0]), m.start() - start + 1))
    return [lines]


def _value(token: str) -> int | None:
    """The value of a cell or product: None for `?`.  ParseException for a number too long
    (plain_line then says so)."""
    if token == "?":
        return None
    digits = token.replace(",", "")
    if len(digits) > MAX_DIGITS:
        raise pp.ParseException(token)
    return int(digits)


def _tag(token: str) -> SizeTag:
    return SizeTag(*map(_value, re.findall(NUMBER, token)))


plain_text = pp.Regex(rf"{PLAIN_LINE_PATTERN}(?:\n{PLAIN_LINE_PATTERN})*").leave_whitespace() \
    .set_parse_action(_text_tokens) + pp.StringEnd()


# A whole text of plain puzzles, each after a separator line, read in one pass (see
# read_all): lines of bare tokens (`?`, digits; no thousands separators, size tag,
# comment, directive or tab), blank lines, and separator lines as the registry gives them.
BARE_TOKEN = rf"(?:\?|[0-9]{{1,{MAX_DIGITS}}})"
BARE_LINE = rf" *{BARE_TOKEN}(?: +{BARE_TOKEN})* *"
GIVEN = {str(digit): digit for digit in range(1, 10)} | {"?": None}
GIVEN_OR_ZERO = GIVEN | {"0": 0}


@cache
def _bare_text(separator: str) -> pp.ParserElement:
    """The element that reads a whole text of bare lines, blank lines and lines that
    fully match `separator`, into the token texts of each puzzle's lines."""
    line = rf"(?:{BARE_LINE}|{separator}|)"
    return pp.Regex(rf"{line}(?:\n{line})*").leave_whitespace() \
        .set_parse_action(_bare_pieces) + pp.StringEnd()


def _bare_pieces(text: str, loc: int, t: pp.ParseResults) -> list[list[list[list[str]]]]:
    """The token texts of each line (blank lines left out) of each puzzle, a puzzle
    starting at the text or at a separator line (a line not blank that starts with no
    token); puzzles without lines left out."""
    puzzles: list[list[list[str]]] = [[]]
    for line in t[0].split("\n"):
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0][0] == "?" or tokens[0][0].isdigit():
            puzzles[-1].append(tokens)
        elif puzzles[-1]:
            puzzles.append([])
    return [[puzzle for puzzle in puzzles if puzzle]]


def read_all(text: str, separator: str, *, zero: bool = False) -> list[CrossProduct] | None:
    """Every puzzle of `text`, read in one pass, when the text holds only puzzles in the
    bare plain layout (see BARE_LINE), each with a `?` cell (so that this family's
    claim is strong) and each well-formed, apart by blank lines and lines that fully
    match `separator`; None for any other text, which `parse` then reads piece by piece
    and refuses where it must.  The puzzles are those `parse` gives."""
    try:
        pieces = _bare_text(separator).parse_string(text)[0]
    except pp.ParseBaseException:
        return None
    given = GIVEN_OR_ZERO if zero else GIVEN
    puzzles = [_bare_puzzle(lines, given, zero) for lines in pieces]
    return None if not puzzles or None in puzzles else puzzles


def _bare_puzzle(lines: list[list[str]], given: dict[str, int | None],
                 zero: bool) -> CrossProduct | None:
    """The puzzle of one piece's token texts, or None where `_plain_puzzle` would refuse
    it (or this family's claim would not be strong: no `?`)."""
    below = len(lines) >= 2 and columns_below([[token == "?" for token in line]
                                               for line in (lines[0], lines[-1])])
    header = lines[-1] if below else lines[0]
    rows = lines[:-1] if below else lines[1:]
    if not rows or "?" in header or not any("?" in row for row in rows):
        return None
    try:
        columns = tuple(map(int, header))
        products = tuple(int(row[-1]) for row in rows)
        givens = tuple(tuple(given[cell] for cell in row[:-1]) for row in rows)
    except (KeyError, ValueError):  # a cell that is no digit, a product that is '?'
        return None
    if any(len(row) != len(header) + 1 for row in rows) or not zero and 0 in columns + products:
        return None
    return CrossProduct.from_checked(products, columns, givens, zero=zero, columns_below=below)


# Markdown cells, read one by one between the bars: patterns that re compiles (and
# keeps) when a markdown table is first read, not at every start.
MD_VALUE = rf"\*\*\s*(?P<bold>\?|{NUMBER})\s*\*\*|(?P<plain>\?|{NUMBER}|)"
MD_TAG = rf"\[\s*(?P<rows>{NUMBER})\s*[×xX]\s*(?P<columns>{NUMBER})\s*\]"
ALIGNMENT = r"\s*\|?(?:\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?\s*"

# How a line of either layout looks, for claiming a text (the grammar proper is above).
PLAIN_LINE = re.compile(r"\s*(?:(?:[0-9][0-9,]*|\?)(?:\s+|$))+(?:\[\s*[0-9]+\s*[×xX]\s*[0-9]+\s*\]\s*)?")


def claim(lines: Sequence[Line]) -> Claim:
    """Strong for a markdown table of products, or for lines of numbers with `?` cells;
    weak for lines of numbers alone or a table with no products on top (another family
    may have such lines)."""
    body = [line for line in lines if not (is_blank(line) or is_comment(line))]
    if not body:
        return NONE
    if is_markdown(body):
        if all(is_product_text(cell.text) or re.fullmatch(MD_TAG, cell.text)
               for cell in markdown_cells(body[0])):
            return Claim(STRONG, "a markdown table of products")
        return Claim(WEAK, "a markdown table")
    texts = [line.text for line in body]
    plain = sum(bool(PLAIN_LINE.fullmatch(text)) for text in texts)
    if plain < len(texts):
        return Claim(WEAK * plain / len(texts), f"{plain} of {len(texts)} lines are numbers and '?'")
    if is_grid_of_cells(texts):
        return Claim(WEAK, "nine rows of nine cells, but no products")
    if any("?" in text for text in texts):
        return Claim(STRONG, "lines of numbers and '?' cells")
    return Claim(WEAK, "lines of numbers")


SUDOKU_SIZE = 9


def is_grid_of_cells(texts: Sequence[str]) -> bool:
    """Nine lines of nine one-character cells (digits, `?`): a Sudoku's shape, which no
    CrossProduct has, since its line of column products is a token shorter than its rows."""
    return len(texts) == SUDOKU_SIZE and all(
        len(tokens := text.split()) == SUDOKU_SIZE and all(len(token) == 1 for token in tokens)
        for text in texts)


def is_markdown(lines: Sequence[Line]) -> bool:
    """A markdown table: a first line with bars, or one with the alignment line under it."""
    return lines[0].text.lstrip().startswith("|") or (
        "|" in lines[0].text and len(lines) > 1 and is_alignment(lines[1]))


def is_product_text(text: str) -> bool:
    match = re.fullmatch(MD_VALUE, text)
    return bool(match) and (match["bold"] or match["plain"]) not in ("?", "")


def is_alignment(line: Line) -> bool:
    return "|" in line.text and bool(re.fullmatch(ALIGNMENT, line.text))


def parse(lines: Sequence[Line], *, zero: bool = False) -> CrossProduct:
    """The CrossProduct drawn in `lines`, in either layout.  Raises ParseError."""
    lines = [line for line in lines if not (is_blank(line) or is_comment(line))]
    if not lines:
        raise error_at("no puzzle here: the text is empty or only comments", Line(1, ""), 1)
    if "|" in lines[0].text:
        return _markdown_puzzle(lines, zero)
    return _plain_puzzle(lines, zero)


def _plain_puzzle(lines: list[Line], zero: bool) -> CrossProduct:
    parsed = plain_tokens(lines)
    tokens = [[t for t in tokens if not isinstance(t.value, SizeTag)] for tokens in parsed]
    tags = [next((t for t in tokens if isinstance(t.value, SizeTag)), None) for tokens in parsed]
    below = bool(tags[-1]) if any(tags) else _columns_below(tokens)
    header = len(lines) - 1 if below else 0
    if stray := next((tag for n, tag in enumerate(tags) if tag and n != header), None):
        raise error_at("a size tag goes at the end of the line of column products",
                       lines[tags.index(stray)], stray.column)
    if len(lines) < 2:
        raise error_at("no rows here: a puzzle has a line of column products, then a line per "
                       "row (its cells and its product)", lines[0], 1)
    column_products = [_product(token, lines[header], zero) for token in tokens[header]]
    row_lines = [(line, row) for n, (line, row) in enumerate(zip(lines, tokens)) if n != header]
    row_products, givens = _rows(row_lines, len(column_products), zero)
    _check_size(tags[header], lines[header], len(row_products), len(column_products))
    return CrossProduct(tuple(row_products), tuple(column_products), tuple(map(tuple, givens)),
                        zero=zero, layout="text", columns_below=below, size_tag=bool(tags[header]))


def plain_tokens(lines: list[Line]) -> list[list[Token]]:
    """The tokens of each line, in one pass over the text when it is well-formed.  Raises
    ParseError at the first token that is not a digit, '?', a product or a size tag."""
    try:
        return plain_text.parse_string("\n".join(line.text for line in lines))[0]
    except pp.ParseBaseException:
        return [list(parse_line(plain_line(), line, PLAIN_WHAT)) for line in lines]


def _columns_below(tokens: list[list[Token]]) -> bool:
    """Whether the column products are the last line rather than the first."""
    return len(tokens) >= 2 and columns_below([[t.value is None for t in line]
                                               for line in (tokens[0], tokens[-1])])


def columns_below(unknowns: list[list[bool]]) -> bool:
    """Whether the column products are the last line rather than the first, given for
    the first and the last line whether each token is a `?`.

    A line with a `?` is a row; otherwise the product line is the one with a
    token fewer than the rows.
    """
    first, last = unknowns
    if any(first):
        return True
    if any(last):
        return False
    return len(last) < len(first)


def _rows(row_lines: list[tuple[Line, list[Token]]], width: int,
          zero: bool) -> tuple[list[int], list[list[int | None]]]:
    """The row products and the givens of the rows, each `width` cells and a product."""
    row_products, givens = [], []
    for line, row in row_lines:
        product = _product(row[-1], line, zero)  # first: a row without its product ends in '?'
        if len(row) != width + 1:
            raise _row_length_error(line, row, width)
        givens.append([_cell(token, line, zero) for token in row[:-1]])
        row_products.append(product)
    return row_products, givens


def _markdown_puzzle(lines: list[Line], zero: bool) -> CrossProduct:
    if len(lines) < 2 or not is_alignment(lines[1]):
        line = lines[1] if len(lines) > 1 else lines[0]
        raise error_at("expected the |---|---| line under the markdown header", line, 1)
    cells = markdown_cells(lines[0])
    header = [_markdown_value(cell, lines[0], "a column product or a size tag like [6×3]",
                              tag=cell is cells[-1]) for cell in cells]
    tag = header.pop() if isinstance(header[-1].value, SizeTag) else None
    if (not tag and header[-1].text == "" and len(lines) > 2
            and len(markdown_cells(lines[2])) == len(header)):  # an empty corner above the products
        header.pop()
    if len(lines) < 3:
        raise error_at("no rows here: a table has a line of column products, the |---| line, "
                       "then a line per row (its cells and its product)", lines[0], 1)
    column_products = [_product(token, lines[0], zero) for token in header]
    rows = [(line, [_markdown_value(cell, line, "a digit, '?' or a product")
                    for cell in markdown_cells(line)]) for line in lines[2:]]
    row_products, givens = _rows(rows, len(column_products), zero)
    _check_size(tag, lines[0], len(row_products), len(column_products))
    return CrossProduct(tuple(row_products), tuple(column_products), tuple(map(tuple, givens)),
                        zero=zero, layout="markdown")


def markdown_cells(line: Line) -> list[Token]:
    """The cells of a markdown table line, as tokens of their raw text (outer bars optional).

    A cell's column is where its text starts (for a blank cell, its first blank).
    """
    text = line.text.rstrip()
    start = len(text) - len(text.lstrip())
    if text[start:start + 1] == "|":
        start += 1
    end = len(text) - 1 if text.endswith("|") and len(text) - 1 >= start else len(text)
    cells, at = [], start
    for part in text[start:end].split("|"):
        blanks = len(part) - len(part.lstrip()) if part.strip() else 0
        cells.append(Token(part.strip(), None, at + blanks + 1))
        at += len(part) + 1
    return cells


def _markdown_value(cell: Token, line: Line, what: str, tag: bool = False) -> Token:
    """The cell's value: a number, None for `?` or a blank cell, or (where `tag`) a SizeTag.
    Its column is the number's own, inside any bold."""
    if tag and (match := re.fullmatch(MD_TAG, cell.text)):
        size = SizeTag(_digits(match["rows"], line, cell.column + match.start("rows")),
                       _digits(match["columns"], line, cell.column + match.start("columns")))
        return Token(cell.text, size, cell.column)
    match = re.fullmatch(MD_VALUE, cell.text)
    if match is None:
        found = cell.text if len(cell.text) <= 20 else cell.text[:20] + "..."
        raise error_at(f"expected {what} between bars, found {found!r}", line, cell.column)
    group = "bold" if match["bold"] is not None else "plain"
    value, column = match[group], cell.column + match.start(group)
    if value in ("?", ""):
        return Token(value, None, column)
    return Token(value, _digits(value, line, column), column)


def _digits(text: str, line: Line, column: int) -> int:
    digits = text.replace(",", "")
    if len(digits) > MAX_DIGITS:
        raise error_at(f"numbers have at most {MAX_DIGITS:,} digits", line, column)
    return int(digits)


def _check_size(tag: Token | None, line: Line, height: int, width: int) -> None:
    if tag and (tag.value.rows, tag.value.columns) != (height, width):
        raise error_at(f"the size tag says {tag.value.rows}×{tag.value.columns} but the table is "
                       f"{height}×{width}", line, tag.column)


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
        shown = token.text if len(token.text) <= 20 else token.text[:20] + "..."
        raise error_at(f"a cell holds one digit or '?', not {shown!r}", line, token.column)
    if digit == 0 and not zero:
        raise error_at("0 is not a digit 1-9 (allow zero digits with --zero or '# zero: yes')",
                       line, token.column)
    return digit


def _product(token: Token, line: Line, zero: bool) -> int:
    if token.value is None:
        what = "'?'" if token.text else "an empty cell"
        raise error_at(f"a product is a number, not {what} (is this line's product missing?)",
                       line, token.column)
    if token.value == 0 and not zero:
        raise error_at("a product of 0 needs zero digits (allow them with --zero or '# zero: yes')",
                       line, token.column)
    return token.value
