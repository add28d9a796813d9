"""Properties of every grammar, over random, mutated and randomly drawn puzzle texts.

1. Whatever the text, parsing (a family named, or guessed) gives a puzzle or a
   ParseError that points into the text and shows a printable line: never any
   other exception.
2. Every layout a grammar accepts round-trips: text -> puzzle -> drawing -> the
   same puzzle, and drawing it again gives the same drawing.

The default run keeps the example counts modest; `pytest -m slow` runs the
long variants, with many more examples.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crossprolog import ParseError
from crossprolog.crossproduct import CrossProduct
from crossprolog.registry import BY_NAME as GRAMMARS, family_of, parse
from crossprolog.sudoku import SIZE, DigitSet, Sudoku

from conftest import EXAMPLES, unexpand

QUICK = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAMILIES = [None, *GRAMMARS]
# The drawings each grammar reads back (a Sudoku's markdown table is for reading only).
READ_BACK = {"crossproduct": ("text", "markdown"), "crosscells": ("text", "markdown"),
             "sudoku": ("text", "markdown"), "kenken": ("text", "markdown"),
             "killer_sudoku": ("text", "markdown"), "kakuro": ("text", "markdown")}

# 1. Only ParseError escapes

EXAMPLE_TEXTS = [path.read_text(encoding="utf-8") for path in sorted(EXAMPLES.glob("*/*"))]
PUZZLE_CHARS = list(" \t\n+-*/x×=#?|.,_:[]()0123456789abcX`")
ODD = ["\x00", "\x1b", "\x7f", "\r", "\r\n", "\ufeff", "\u00a0", "\u200b", "\u202e", "\u2028", "é",
       "٣", "６", "²", "```", "**", "**6**", "|---|", "[6×3]", "# digits: 0-9 choose 9",
       "# maximize: gcd(cols)", "# word:", "a#6", "=-3", "/0", "9" * 40, "1,234", "6,61",
       "0", "0+", "0*", "a:", "|----+----|", "?"]  # a KenKen target of 0 escaped once
CHARACTERS = st.sampled_from(PUZZLE_CHARS) | st.sampled_from(ODD) | st.characters()
TOKENS = ["?", "6", "12", "6,615", "**210**", "|", "|?|", ".", "_", "5", "+1", "*2a", "x3", "/2", "=4",
          "#1", "a#6", "b=-2", "------+-------+------", "#", "# note", "a", "b", "a4", "a 12*", "b 2-",
          "c 3/", "d 3"]


@st.composite
def mutated_examples(draw) -> str:
    """A bundled example after a few edits: characters inserted, deleted or replaced,
    lines swapped, a token duplicated, odd characters (control, unicode) put in."""
    text = draw(st.sampled_from(EXAMPLE_TEXTS))
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "replace", "swap", "duplicate", "odd"]))
        if edit == "insert":
            text = text[:at] + draw(CHARACTERS) + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 4)):]
        elif edit == "replace":
            text = text[:at] + draw(CHARACTERS) + text[at + 1:]
        elif edit == "swap":
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif edit == "duplicate":
            tokens = list(re.finditer(r"\S+", text))
            if tokens:
                token = tokens[draw(st.integers(0, len(tokens) - 1))]
                text = text[:token.end()] + " " + token.group() + text[token.end():]
        else:
            text = text[:at] + draw(st.sampled_from(ODD)) + text[at:]
    return text


RANDOM_TEXTS = st.one_of(
    st.lists(CHARACTERS, max_size=120).map("".join),
    st.lists(st.lists(st.sampled_from(TOKENS), max_size=10).map(" ".join), max_size=12).map("\n".join),
)


def parses_or_fails_cleanly(text: str, family: str | None, zero: bool = False) -> None:
    """A puzzle of the family asked for (or guessed), which draws and parses back the same;
    or a ParseError whose line and column point into the text and whose report is printable."""
    try:
        puzzle = parse(text, family=family, zero=zero, first_cell="zero")
    except ParseError as error:
        lines = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")) if text else [""]
        assert 1 <= error.line <= len(lines), (error, len(lines))
        assert 1 <= error.column <= len(error.text) + 1, error
        report = error.report("p.txt")
        assert report.startswith(f"p.txt:{error.line}:{error.column}: error: ")
        assert all(line.isprintable() for line in report.splitlines()), report
        return
    assert puzzle.family == (family or family_of(text))
    for format in READ_BACK[puzzle.family]:
        again = parse(puzzle.render(format=format), family=puzzle.family, zero=zero)
        assert again == puzzle and again.prolog_data() == puzzle.prolog_data(), format


@settings(QUICK, max_examples=400)
@given(mutated_examples(), st.sampled_from(FAMILIES), st.booleans())
def test_mutated_examples_give_a_puzzle_or_a_parse_error(text, family, zero):
    """Edits of the bundled examples: a puzzle that round-trips, or a located ParseError."""
    parses_or_fails_cleanly(text, family, zero)


@settings(QUICK, max_examples=300)
@given(RANDOM_TEXTS, st.sampled_from(FAMILIES))
def test_random_text_gives_a_puzzle_or_a_parse_error(text, family):
    """Random characters and random token soup: never an exception other than ParseError."""
    parses_or_fails_cleanly(text, family)


@pytest.mark.slow
@LONG
@given(mutated_examples(), st.sampled_from(FAMILIES), st.booleans())
def test_mutated_examples_at_length(text, family, zero):
    parses_or_fails_cleanly(text, family, zero)


@pytest.mark.slow
@LONG
@given(RANDOM_TEXTS, st.sampled_from(FAMILIES))
def test_random_text_at_length(text, family):
    parses_or_fails_cleanly(text, family)


# 2. Round trips: random puzzles, drawn in every layout their grammar accepts


def round_trips(text: str, expected, family: str, **options) -> None:
    """`text` reads as `expected`, in its family and layout; its drawings read back the same,
    and drawing what was read back gives the very same drawing."""
    assert family_of(text) == family
    puzzle = parse(text, **options)
    assert puzzle == expected and puzzle.layout == expected.layout
    for format in READ_BACK[family]:
        drawing = puzzle.render(format=format)
        again = parse(drawing, family=family, **options)
        assert again == puzzle and again.prolog_data() == puzzle.prolog_data()
        assert again.render(format=format) == drawing


def blanks(draw, choices=(" ", "  ", "\t", " \t", "\u00a0")) -> str:
    return draw(st.sampled_from(choices))


def interleave_comments(draw, lines: list[str], comment: str = "# a note") -> list[str]:
    """`lines` with comment and blank lines put between them now and then."""
    out = []
    for line in lines:
        out += draw(st.lists(st.sampled_from(["", "   ", comment, "  " + comment]), max_size=1))
        out.append(line)
    return out + draw(st.lists(st.sampled_from(["", comment]), max_size=2))


@st.composite
def crossproduct_texts(draw) -> tuple[str, CrossProduct, bool]:
    """A random CrossProduct (products need not be reachable), drawn as plain text (column
    products first or last, ragged blanks, a size tag) or as a markdown table (size tag,
    bold, padding, outer bars or none, blank cells for unknowns)."""
    zero = draw(st.booleans())
    low = 0 if zero else 1
    height, width = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    product = st.integers(low, 10 ** 15)
    rows = draw(st.lists(product, min_size=height, max_size=height))
    columns = draw(st.lists(product, min_size=width, max_size=width))
    givens = draw(st.lists(st.lists(st.none() | st.integers(low, 9), min_size=width, max_size=width),
                           min_size=height, max_size=height))
    layout = draw(st.sampled_from(["text", "markdown"]))

    def number(n: int) -> str:
        return f"{n:,}" if n >= 1000 and draw(st.booleans()) else str(n)

    def cell(digit) -> str:
        return "?" if digit is None else str(digit)

    if layout == "text":
        def line(tokens: list[str]) -> str:
            return draw(st.sampled_from(["", " ", "\t"])) + "".join(
                token + blanks(draw) for token in tokens).rstrip(draw(st.sampled_from(["", " \t"])))

        tag = draw(st.sampled_from([[], [f"[{height}×{width}]"], [f"[{height}x{width}]"]]))
        header = line([number(c) for c in columns] + tag)
        body = [line([cell(d) for d in row] + [number(p)]) for row, p in zip(givens, rows)]
        below = draw(st.booleans())
        lines = body + [header] if below else [header] + body
    else:
        def pad(text: str) -> str:
            return draw(st.sampled_from(["", " ", "  "])) + text + draw(st.sampled_from(["", " "]))

        tag = draw(st.sampled_from([[], [f"[{height}×{width}]"], [f"[{height}x{width}]"]]))
        # The outer bars, or none where the header has a bar inside (a table needs one).
        bar = draw(st.sampled_from(["|", ""])) if width + len(tag) > 1 else "|"

        def md_line(cells: list[str]) -> str:
            return bar + "|".join(pad(text) for text in cells) + bar

        def md_cell(digit) -> str:  # a blank cell needs the outer bars: `|?|...` opens with one
            blank = ["", " "] if bar else []
            return draw(st.sampled_from(["?", *blank])) if digit is None else str(digit)

        def md_product(p: int) -> str:
            return f"**{number(p)}**" if draw(st.booleans()) else number(p)

        header = md_line([number(c) for c in columns] + tag)
        rule = md_line([draw(st.sampled_from(["---", ":--", "--:", " :---: ", "-"]))
                        for _ in range(width + 1)])
        body = [md_line([md_cell(d) for d in row] + [md_product(p)]) for row, p in zip(givens, rows)]
        lines = [header, rule] + body
    text = "\n".join(interleave_comments(draw, lines))
    return text, CrossProduct(tuple(rows), tuple(columns), tuple(map(tuple, givens)), zero=zero,
                              layout=layout), zero


CELL_OPERATORS = ["+", "-", "*", "/", "%", "x", "×", "÷", "−"]
STRIDE = 7  # a token is at most 5 characters wide and may stand one column right of its place


@st.composite
def crosscells_texts(draw) -> tuple[str, dict]:
    """A random CrossCells drawing: ragged rows (not every column in every row), constraints
    at either end of rows and above or below columns, group letters and group constraints,
    comments, blank lines, tabs, a code fence.  Returns the text and what it must read as."""
    height, width = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    letters = draw(st.lists(st.sampled_from("abzX"), max_size=3, unique=True))

    in_groups: set[str] = set()

    def cell() -> str:
        op = draw(st.sampled_from(CELL_OPERATORS))
        groups = st.lists(st.sampled_from(letters), max_size=2, unique=True) if letters else st.just([])
        letter = "".join(draw(groups))  # in several groups, maybe
        in_groups.update(letter)
        return f"{op}{draw(st.integers(1 if op in '/%÷' else 0, 99))}{letter}"

    def constraint() -> str:
        kind = draw(st.sampled_from("=#"))
        return f"{kind}{draw(st.integers(-99 if kind == '=' else 0, 99))}"

    def at(line: list[str], column: int, token: str) -> None:
        """Put `token` into the character list `line`, starting at `column`."""
        line.extend(" " * (column + len(token) - len(line)))
        line[column:column + len(token)] = token

    present = [draw(st.lists(st.booleans(), min_size=width, max_size=width)) for _ in range(height)]
    for row in present:
        row[draw(st.integers(0, width - 1))] = True  # every row has a cell
    expected = {"rows": [], "heads": [], "tails": [], "column_ends": 0, "groups": set()}
    grid = []
    for row in present:
        line: list[str] = []
        cells = [(c, cell()) for c, here in enumerate(row) if here]
        for c, token in cells:
            at(line, (c + 1) * STRIDE + draw(st.integers(0, 1)), token)
        head = constraint() if draw(st.booleans()) else None
        tail = constraint() if draw(st.booleans()) else None
        if head:
            at(line, draw(st.integers(0, 1)), head)
        if tail:
            at(line, (width + 1) * STRIDE + 1 + draw(st.integers(0, 2)), tail)
        grid.append("".join(line))
        expected["rows"].append(len(cells))
        expected["heads"].append(head)
        expected["tails"].append(tail)
    used = [c for c in range(width) if any(row[c] for row in present)]
    ends = []
    for _ in ("above", "below"):
        line = []
        for c in used:
            if draw(st.booleans()):
                at(line, (c + 1) * STRIDE + draw(st.integers(0, 1)), constraint())
                expected["column_ends"] += 1
        ends.append("".join(line))
    drawing = ([ends[0]] if ends[0] else []) + grid + ([ends[1]] if ends[1] else [])
    groups = [(letter, kind) for letter in sorted(in_groups) for kind in "=#" if draw(st.booleans())]
    if groups:
        drawing.append("  ".join(f"{letter}{kind}{draw(st.integers(0, 99))}" for letter, kind in groups))
        expected["groups"] = set(groups)
    if draw(st.booleans()):  # aligned with tabs
        drawing = [unexpand(line) for line in drawing]
    lines = interleave_comments(draw, drawing)
    if draw(st.booleans()):
        lines = ["```text"] + lines + ["```"]
    expected["layout"] = "markdown" if lines[0] == "```text" else "text"
    return "\n".join(lines), expected


@st.composite
def sudoku_texts(draw) -> tuple[str, Sudoku]:
    """A random Sudoku with consistent givens: digit set, objective, with or without
    directives (spelt loosely), unknowns as `.` or `_`, with or without box marks, comments."""
    digits = draw(st.sampled_from([DigitSet(1, 9), DigitSet(0, 8), DigitSet(0, 9)]))
    used = draw(st.permutations(range(digits.low, digits.high + 1)))[:SIZE]
    solved = [[used[(3 * r + r // 3 + c) % SIZE] for c in range(SIZE)] for r in range(SIZE)]
    shown = draw(st.lists(st.lists(st.booleans(), min_size=SIZE, max_size=SIZE), min_size=SIZE,
                          max_size=SIZE))
    givens = tuple(tuple(d if keep else None for d, keep in zip(row, keeps))
                   for row, keeps in zip(solved, shown))
    objective = draw(st.sampled_from([None, "gcd(rows)", "gcd(cols)"]))
    unknown = draw(st.sampled_from([".", "_"] + ["0"] * (0 not in digits)))
    written = draw(st.sampled_from(["spaced", "compact", "line"]))
    boxes = written != "line" and draw(st.booleans())
    directives = []
    if digits != DigitSet() or draw(st.booleans()):
        key = draw(st.sampled_from(["digits", "Digits", "DIGITS"]))
        choose = f"{draw(st.sampled_from([' ', '  ']))}{draw(st.sampled_from(['choose', 'CHOOSE']))} 9"
        directives.append(f"#{blanks(draw, (' ', ''))}{key}{blanks(draw, (':', ' :'))} "
                          f"{digits.low}-{digits.high}{choose if digits.chosen else ''}")
    if objective:
        spelt = draw(st.sampled_from([objective, objective.upper(), objective.replace("(", "( ")]))
        directives.append(f"# maximize: {spelt}")
    directives = draw(st.permutations(directives))

    def row_text(row) -> str:
        cells = [unknown if d is None else str(d) for d in row]
        apart = {"spaced": blanks(draw, (" ", "  ", "\t")), "compact": ""}[written]
        if not boxes:
            return apart.join(cells)
        return draw(st.sampled_from([" | ", "|"])).join(apart.join(cells[c:c + 3]) for c in (0, 3, 6))

    rule = draw(st.sampled_from(["------+-------+------", "---------------------", "- - -+- - -",
                                 "---+---+---"]))
    rows = [row_text(row) for row in givens] if written != "line" else [
        "".join(unknown if d is None else str(d) for row in givens for d in row)]
    grid = rows[:3] + [rule] + rows[3:6] + [rule] + rows[6:] if boxes and draw(st.booleans()) else rows
    lines = (draw(st.lists(st.just("# from the seeds"), max_size=1)) + list(directives)
             + interleave_comments(draw, grid, "# just a comment")
             + draw(st.lists(st.just("# note: below the grid"), max_size=1)))
    return "\n".join(lines), Sudoku(givens, digits, objective, unknown=unknown, boxes=boxes,
                                    written=written)


def check_crosscells(text: str, expected: dict) -> None:
    puzzle = parse(text)
    assert family_of(text) == "crosscells" and puzzle.layout == expected["layout"]
    assert [len(row.cells) for row in puzzle.rows] == expected["rows"]
    assert [row.head and row.head.text for row in puzzle.rows] == expected["heads"]
    assert [row.tail and row.tail.text for row in puzzle.rows] == expected["tails"]
    assert sum((c.head is not None) + (c.tail is not None) for c in puzzle.columns) == expected["column_ends"]
    assert {(g.group, g.kind) for g in puzzle.groups} == expected["groups"]
    for format in ("text", "markdown"):
        drawing = puzzle.render(format=format)
        again = parse(drawing, family="crosscells")
        assert again == puzzle and again.prolog_data() == puzzle.prolog_data()
        assert again.render(format=format) == drawing


@QUICK
@given(crossproduct_texts())
def test_crossproduct_layouts_round_trip(drawn):
    """Plain text and markdown, however spaced, commented and separated: parse, draw, parse."""
    text, expected, zero = drawn
    round_trips(text, expected, "crossproduct", zero=zero)


@QUICK
@given(crosscells_texts())
def test_crosscells_layouts_round_trip(drawn):
    """Ragged rows, both ends, columns above and below, groups, tabs, fences: parse, draw, parse."""
    check_crosscells(*drawn)


@QUICK
@given(sudoku_texts())
def test_sudoku_layouts_round_trip(drawn):
    """With and without directives and box marks, unknowns as `.`, `_` or `0`, cells apart,
    together or all on one line: parse, draw (the same way), parse."""
    text, expected = drawn
    round_trips(text, expected, "sudoku")
    read = parse(text)
    assert (read.written, read.unknown, read.boxes) == (expected.written, expected.unknown, expected.boxes)


@pytest.mark.slow
@LONG
@given(crossproduct_texts())
def test_crossproduct_layouts_round_trip_at_length(drawn):
    text, expected, zero = drawn
    round_trips(text, expected, "crossproduct", zero=zero)


@pytest.mark.slow
@LONG
@given(crosscells_texts())
def test_crosscells_layouts_round_trip_at_length(drawn):
    check_crosscells(*drawn)


@pytest.mark.slow
@LONG
@given(sudoku_texts())
def test_sudoku_layouts_round_trip_at_length(drawn):
    text, expected = drawn
    round_trips(text, expected, "sudoku")


# 3. CrossProduct's one-pass reading of a plain text agrees with its token-by-token grammar

PLAIN_TOKENS = ["?", "6", "12", "07", "0", "6,615", "1,234,567", "[6×3]", "[ 2 x 3 ]", "[2X1]"]
ODD_TOKENS = ["??", "6,61", "1,234,5", "9" * 1001, "[2×", "x", "?6", "6?", "|", "-1", "+2"]


PLAIN_TOKEN = st.sampled_from(PLAIN_TOKENS * 8 + ODD_TOKENS)


@st.composite
def plain_texts(draw) -> list[str]:
    """Lines of CrossProduct-like tokens apart by one blank or more, some at the start."""
    return [blanks(draw, ("", " ", "   ")) + draw(st.lists(PLAIN_TOKEN, min_size=1, max_size=6).map(" ".join))
            + blanks(draw, ("", " ")) for _ in range(draw(st.integers(1, 6)))]


def one_pass_agrees(texts: list[str]) -> None:
    """The one-pass grammar reads a text when the token-by-token grammar reads each of its
    lines, and gives the same tokens."""
    import pyparsing as pp
    from crossprolog.grammars import crossproduct as grammar
    from crossprolog.grammars.common import Line, parse_line

    try:
        tokens = [list(parse_line(grammar.plain_line(), Line(n, text), "x"))
                  for n, text in enumerate(texts, start=1)]
    except ParseError:
        tokens = None
    try:
        fast = grammar.plain_text.parse_string("\n".join(texts))[0]
    except pp.ParseBaseException:
        fast = None
    assert fast == tokens


@QUICK
@given(plain_texts())
def test_crossproduct_one_pass_reading_agrees(texts):
    one_pass_agrees(texts)


@pytest.mark.slow
@LONG
@given(plain_texts())
def test_crossproduct_one_pass_reading_agrees_at_length(texts):
    one_pass_agrees(texts)
