"""CrossCells variants against a brute force: every encoding, every rule, small random puzzles.

The brute force knows nothing of the model: it draws its own puzzle (a grid
of cells, constraints at the ends of its lines, groups), writes it as text,
and works out every solution itself by trying every on/off vector, with an
evaluator of its own that lets Python's parser decide what binds tighter.
"""

from __future__ import annotations

import ast
import itertools
import math
import random
from dataclasses import dataclass, field
from functools import cache

import pytest

import crossprolog
from crossprolog import ParseError
from conftest import EXAMPLES, example_encodings

ENCODINGS = ["masks", "restarts", "states", "states_ffc", "fold", "reified"]
RULES = [{"first_cell": first, "precedence": precedence}
         for first in ("zero", "seeds") for precedence in ("left-to-right", "standard")]


# An evaluator of its own: Python's parser reads the expression, so Python decides precedence.


class Undefined(Exception):
    """An operation without a value: a division that is not exact."""


@cache
def evaluate(on_cells: tuple[tuple[str, int], ...], first_cell: str, precedence: str) -> int | None:
    """The value of a line whose ON cells are `on_cells`, as (operator, number); None when undefined."""
    if first_cell == "seeds" and on_cells:
        text = str(on_cells[0][1])
        on_cells = on_cells[1:]
    else:
        text = "0"
    for op, number in on_cells:
        text = f"{text} {op} {number}" if precedence == "standard" else f"({text} {op} {number})"
    try:
        return value(ast.parse(text, mode="eval").body)
    except Undefined:
        return None


def value(node: ast.expr) -> int:
    if isinstance(node, ast.Constant):
        return node.value
    a, b = value(node.left), value(node.right)
    if isinstance(node.op, ast.Add):
        return a + b
    if isinstance(node.op, ast.Sub):
        return a - b
    if isinstance(node.op, ast.Mult):
        return a * b
    if isinstance(node.op, ast.Div):
        if a % b:
            raise Undefined
        return a // b
    if isinstance(node.op, ast.Mod):  # the remainder with the sign of the dividend, as C has it
        return int(math.fmod(a, b))
    raise AssertionError(f"no such operator here: {ast.dump(node.op)}")


def test_the_evaluator_itself():
    cells = (("+", 1), ("+", 2), ("*", 4), ("+", 2))
    assert evaluate(cells, "zero", "standard") == 11
    assert evaluate(cells, "zero", "left-to-right") == 14
    assert evaluate((("*", 3), ("+", 2)), "seeds", "standard") == 5
    assert evaluate((("-", 6), ("/", 3)), "zero", "standard") == -2
    assert evaluate((("+", 7), ("/", 2), ("*", 2)), "zero", "standard") is None
    assert evaluate((), "seeds", "standard") == 0
    assert evaluate((("-", 7), ("%", 3)), "zero", "left-to-right") == -1
    assert evaluate((("+", 1), ("-", 7), ("%", 3)), "zero", "standard") == 0


# Puzzles drawn by the test: a grid, the ON cells of a chosen solution, constraints from it


@dataclass
class Drawn:
    """A random puzzle as the test drew it: its text and its lines, each as the
    cells (row, column) its constraint reads, in the order it reads them."""

    cells: dict[tuple[int, int], tuple[str, int, str]]  # (row, column) -> (op, number, groups)
    lines: list[tuple[list[tuple[int, int]], str, int]] = field(default_factory=list)  # cells, kind, value
    text: str = ""


def drawn_puzzle(rng: random.Random, operators: str, rules: dict, groups: str = "") -> Drawn:
    """A puzzle of at most 12 cells with operators from `operators`; every row and
    column constrained at one end or the other, every group letter too."""
    height = rng.choice([1, 2, 2, 3])
    width = rng.randint(3, 12 // height)
    cells = {}
    for r, c in itertools.product(range(height), range(width)):
        op = rng.choice(operators)
        letters = "".join(sorted(rng.sample(groups, rng.randint(0, min(2, len(groups))))))
        cells[r, c] = (op, rng.randint(2, 4) if op in "*/%" else rng.randint(0, 9), letters)
    on = {place: rng.random() < 0.8 for place in cells}
    puzzle = Drawn(cells)

    def constrain(places: list[tuple[int, int]]) -> tuple[str, int]:
        total = evaluate(tuple(cells[p][:2] for p in places if on[p]), **rules)
        if total is None or rng.random() < 0.15:
            return "#", sum(on[p] for p in places)
        return "=", total

    rows = [[(r, c) for c in range(width)] for r in range(height)]
    columns = [[(r, c) for r in range(height)] for c in range(width)]
    ends: dict[tuple[str, int], str] = {}
    for kind_of_line, lines in (("row", rows), ("column", columns)):
        for n, places in enumerate(lines):
            forward = rng.random() < 0.5
            reading = places if forward else places[::-1]
            kind, total = constrain(reading)
            puzzle.lines.append((reading, kind, total))
            ends[kind_of_line, n] = (forward, f"{kind}{total}")
    group_text = []
    for letter in sorted({g for *_, letters in cells.values() for g in letters}):
        places = sorted(p for p in cells if letter in cells[p][2])  # reading order
        kind, total = constrain(places)
        puzzle.lines.append((places, kind, total))
        group_text.append(f"{letter}{kind}{total}")
    puzzle.text = text_of(cells, height, width, ends, group_text)
    return puzzle


STRIDE = 7


def text_of(cells, height, width, ends, group_text) -> str:
    """The puzzle typed as a grid: a column every STRIDE characters, a row's constraint
    at its left end (reading it right to left) or right end, a column's above or below."""

    def line(tokens: dict[int, str]) -> str:
        return "".join(tokens.get(k, "").ljust(STRIDE) for k in range(width + 2)).rstrip()

    above = line({c + 1: text for c in range(width) if not (end := ends["column", c])[0]
                  for text in [end[1]]})
    below = line({c + 1: text for c in range(width) if (end := ends["column", c])[0]
                  for text in [end[1]]})
    rows = []
    for r in range(height):
        forward, constraint = ends["row", r]
        tokens = {c + 1: f"{op}{n}{g}" for (row, c), (op, n, g) in cells.items() if row == r}
        tokens[width + 1 if forward else 0] = constraint
        rows.append(line(tokens))
    return "\n".join(filter(None, [above, *rows, below, "  ".join(group_text)])) + "\n"


def brute_force(puzzle: Drawn, rules: dict) -> list[tuple[tuple[int, ...], ...]]:
    """Every on/off assignment meeting every line, as rows of 0/1, sorted."""
    places = sorted(puzzle.cells)
    height = max(r for r, _ in places) + 1
    found = []
    for bits in itertools.product((0, 1), repeat=len(places)):
        on = dict(zip(places, bits))
        if all(holds(puzzle, reading, kind, total, on, rules)
               for reading, kind, total in puzzle.lines):
            found.append(tuple(tuple(on[p] for p in places if p[0] == r) for r in range(height)))
    return sorted(found)


def holds(puzzle: Drawn, reading, kind, total, on, rules) -> bool:
    on_cells = tuple(puzzle.cells[p][:2] for p in reading if on[p])
    if kind == "#":
        return len(on_cells) == total
    return evaluate(on_cells, **rules) == total


def solutions(puzzle: crossprolog.Puzzle, encoding: str) -> list[tuple]:
    return sorted(s.values for s in puzzle.solutions(encoding=encoding))


def drawn_puzzles(rules: dict, operators: str = "++--*/", groups: str = "", n: int = 20) -> list[Drawn]:
    """`n` puzzles drawn for `rules`, the same every run."""
    rng = random.Random(f"{rules} {operators} {groups}")
    return [drawn_puzzle(rng, operators, rules, groups) for _ in range(n)]


def other(rules: dict, name: str) -> dict:
    """`rules` with the rule `name` the other way."""
    ways = {"first_cell": ("zero", "seeds"), "precedence": ("left-to-right", "standard")}[name]
    return {**rules, name: ways[1 - ways.index(rules[name])]}


def agree_with_the_brute_force(drawn: list[Drawn], rules: dict) -> None:
    """Every encoding, the bundled example encodings for CrossCells too, finds every
    solution the brute force finds, and no other."""
    encodings = ENCODINGS + example_encodings("crosscells")
    for puzzle in drawn:
        parsed = crossprolog.parse(puzzle.text, family="crosscells", **rules)
        expected = brute_force(puzzle, rules)
        assert expected, puzzle.text  # the drawn ON cells are a solution
        for encoding in encodings:
            assert solutions(parsed, encoding) == expected, (encoding, puzzle.text)


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: "/".join(rules.values()))
def test_every_encoding_agrees_with_the_brute_force_under_every_rule(rules):
    agree_with_the_brute_force(drawn_puzzles(rules), rules)


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: "/".join(rules.values()))
def test_the_drawn_puzzles_tell_the_rules_apart(rules):
    """Else an encoding that ignored a rule would pass the test above."""
    for name in ("first_cell", "precedence"):
        told_apart = sum(brute_force(p, rules) != brute_force(p, other(rules, name))
                         for p in drawn_puzzles(rules))
        assert told_apart >= 2, name


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: "/".join(rules.values()))
def test_remainders_agree_with_the_brute_force_in_every_encoding(rules):
    drawn = drawn_puzzles(rules, operators="+-*/%%")
    assert sum("%" in p.text for p in drawn) >= len(drawn) // 2
    agree_with_the_brute_force(drawn, rules)


# Standard precedence, by example


def parse(text: str, **options) -> crossprolog.Puzzle:
    return crossprolog.parse(text, family="crosscells", **options)


def all_solutions(text: str, **options) -> list[tuple]:
    return sorted(s.values for s in parse(text, **options).solutions())


def test_standard_precedence_multiplies_before_it_adds():
    assert ((1, 1, 1, 1),) in all_solutions("+1 +2 *4 +2 =11", precedence="standard")
    assert ((1, 1, 1, 1),) not in all_solutions("+1 +2 *4 +2 =14", precedence="standard")
    assert ((1, 1, 1, 1),) in all_solutions("+1 +2 *4 +2 =14")  # left to right: ((1+2)*4)+2


def test_under_standard_precedence_the_value_still_starts_at_zero():
    assert all_solutions("*3 +2 =2", precedence="standard") == [((0, 1),), ((1, 1),)]  # 0*3 + 2
    assert all_solutions("*3 +2 =5", precedence="standard", first_cell="seeds") == [((1, 1),)]


def test_a_product_term_goes_left_to_right_each_division_exact():
    assert all_solutions("+6 /3 *2 =4", precedence="standard") == [((1, 1, 1),)]
    assert all_solutions("+7 /2 *2 =7", precedence="standard") == [((1, 0, 0),)]  # not 7/2*2
    assert all_solutions("+1 -6 /3 =-1", precedence="standard") == [((1, 1, 1),)]  # 1 - 6/3


def test_totals_read_toward_their_constraint_under_standard_precedence_too():
    assert all_solutions("=7 +1 *3 +2 +0", precedence="standard") == [((1, 1, 1, 0),), ((1, 1, 1, 1),)]
    assert all_solutions("+1 *3 +2 =7", precedence="standard") == []  # forward, all on: 1*3 + 2


# Rules in the file: directives, which the command line overrides and a solution keeps

STANDARD = "# precedence: standard\n+1 +2 *4 +2 =11\n"


def test_the_precedence_directive_sets_the_rule():
    assert parse(STANDARD).precedence == "standard"
    assert parse(STANDARD).solve().values == ((1, 1, 1, 1),)
    assert parse(STANDARD, precedence="left-to-right").solve() is None
    assert parse(STANDARD).prolog_data()["precedence"] == "standard"


def test_the_command_line_overrides_the_precedence_of_the_file_and_a_solution_keeps_it(cli, write):
    path = write(STANDARD)
    solved = cli("solve", path)
    assert solved.code == 0 and solved.out == "# precedence: standard\n+1! +2! *4! +2! =11\n"
    assert parse(solved.out) == parse(STANDARD).placing({(0, k): 1 for k in range(4)})
    assert cli("solve", path, "--precedence", "left-to-right").code == 1
    assert cli("solve", write("+1 +2 *4 +2 =11\n", "plain.txt"), "--precedence", "standard").code == 0


def test_both_rules_in_one_file():
    puzzle = parse("# first-cell: seeds\n# precedence: standard\n*3 +2 *2 =7\n")
    assert (puzzle.first_cell, puzzle.precedence) == ("seeds", "standard")
    assert puzzle.solve().values == ((1, 1, 1),)  # 3 + 2*2
    assert puzzle.directives() == ["# first-cell: seeds", "# precedence: standard"]


@pytest.mark.parametrize("text, line, column, message", [
    ("# precedence: sideways\n+1 =1\n", 1, 15, "expected left-to-right or standard, not 'sideways'"),
    ("# precedance: standard\n+1 =1\n", 1, 1,
     "unknown directive 'precedance' (known: game, first-cell, precedence)"),
    ("+1 =1\n# precedence: standard\n", 2, 1, "must come above the grid"),
])
def test_a_bad_precedence_directive_is_a_located_error(text, line, column, message):
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert message in caught.value.message


def test_a_bad_precedence_on_the_command_line_is_a_usage_error(cli, write, capsys):
    with pytest.raises(SystemExit) as caught:
        cli("solve", write("+1 =1\n"), "--precedence", "sideways")
    assert caught.value.code == 2 and "invalid choice: 'sideways'" in capsys.readouterr().err


# The operator table: aliases are read as their operator


def test_every_alias_reads_as_its_operator():
    assert parse("+1 x2 ×3 ÷2 −1 =2") == parse("+1 *2 *3 /2 -1 =2")
    assert parse("+6 ÷2 =6").solve().values == ((1, 0),)
    with pytest.raises(ParseError, match="division by 0: a ÷ cell needs a number above 0"):
        parse("+6 ÷0 =6")


# The remainder: added as one row of each operator table


def test_the_remainder_keeps_the_sign_of_the_value():
    assert all_solutions("+7 %3 =1") == [((1, 1),)]
    assert all_solutions("-7 %3 =-1") == [((1, 1),)]
    assert all_solutions("-7 %3 =2") == []  # not a floored modulo
    assert all_solutions("#2 +9 %3 =0") == [((1, 1),)]


def test_the_remainder_binds_as_a_product_under_standard_precedence():
    assert all_solutions("#3 +2 -7 %3 =1", precedence="standard") == [((1, 1, 1),)]  # 2 - 7%3
    assert all_solutions("#3 +2 -7 %3 =-2") == [((1, 1, 1),)]  # left to right: (2 - 7) % 3


def test_a_remainder_by_zero_is_a_located_error(cli, write):
    path = write("+1 +2 =3\n+4 %0 =4\n")
    run = cli("solve", path)
    assert run.code == 2 and run.err.splitlines() == [
        f"{path}:2:4: error: remainder of a division by 0: a % cell needs a number above 0 (read as "
        "CrossCells: cells like +3 and constraints like =24; name the family with --family if it "
        "is another)", "+4 %0 =4", "   ^"]


# The game's own notation: constraints in words, wherever a constraint may stand


def test_constraints_in_words_mean_totals_and_counts():
    assert parse("+1 +2 *4 +2 14 total") == parse("+1 +2 *4 +2 =14")
    assert parse("[2] tiles +1 +2 +3") == parse("#2 +1 +2 +3")
    assert parse("+1 +2 [1] tile") == parse("+1 +2 #1")
    assert parse("+5 -8 -3 Total") == parse("+5 -8 =-3")  # a negative total is no -3 cell
    assert parse("+1a +2a\na: 3 total  a: [2] tiles\n") == parse("+1a +2a\na=3  a#2\n")


def test_the_number_of_a_constraint_in_words_decides_its_column():
    compact = parse("+1  +2  +3\n=1  #2  =-3\n")
    assert parse("+1  +2  +3\n1 total\n    [2] tiles\n        -3 total\n") == compact
    assert parse("1 total\n    [2] tiles\n        -3 total\n+1  +2  +3\n") == parse(
        "=1  #2  =-3\n+1  +2  +3\n")
    assert parse("+1  +2  +3\n1 total -3 total\n    [2] tiles\n") == compact


def test_a_solution_keeps_the_words_as_typed():
    solved = parse("# precedence: standard\n[4] tiles +1 +2 *4 +2 +3 11 total\n").solve()
    assert str(solved) == "# precedence: standard\n[4] tiles +1! +2! *4! +2! +3~ 11 total"


WORD_ERRORS = [
    ("+1  +2\n1 total\n[1] tiles\n", 3, 1, "this column already has a constraint below it (line 2)"),
    ("+1  +2\n+3  +4\n  5 total\n", 3, 3, "overlaps no column"),
    ("+1 +2 3 totals\n", 1, 7, "found '3'"),
    ("+1 +2 [3]tiles\n", 1, 7, "found '[3]tiles'"),
    ("+1 +2 [-3] tiles\n", 1, 7, "found '[-3]'"),
    ("+1 +2\n4 total\n+3 +4\n", 2, 1, "between rows only group constraints"),
    ("+1a +2\nb: 3 total\n", 2, 1, "no cell is in group 'b'"),
]


@pytest.mark.parametrize("text, line, column, message", WORD_ERRORS)
def test_mistakes_in_words_are_located_errors(text, line, column, message):
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert (caught.value.line, caught.value.column) == (line, column), caught.value
    assert message in caught.value.message


def test_words_are_claimed_as_crosscells():
    assert crossprolog.parse("+1 +2 3 total\n[1] tiles\n").family == "crosscells"


# A cell in several groups


def test_a_cell_may_belong_to_several_groups():
    puzzle = parse("+1ab +2a *3b\na=3 b=3\n")
    assert [cell.group for cell in puzzle.cells] == ["ab", "a", "b"]
    readings = {r.constraint.group: r.cells for r in puzzle.readings()}
    assert readings == {"a": (0, 1), "b": (0, 2)}
    assert all_solutions("+1ab +2a *3b\na=3 b=3\n") == [((1, 1, 1),)]
    assert parse("+1ba +2a *3b\na=3 b=3\n") == puzzle  # the order of the letters is no matter


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: "/".join(rules.values()))
def test_several_groups_agree_with_the_brute_force_in_every_encoding(rules):
    drawn = drawn_puzzles(rules, groups="ab")
    assert sum(any(len(g) == 2 for *_, g in p.cells.values()) for p in drawn) >= len(drawn) // 2
    agree_with_the_brute_force(drawn, rules)


def test_a_hint_keeps_constraints_in_words_under_their_columns(cli):
    path = EXAMPLES / "crosscells" / "in-words.txt"
    hinted = cli("hint", path).out.splitlines()
    comment, *original = path.read_text().splitlines()
    assert hinted[:2] == [comment, "# hint - only filling in column 4 ([3] tiles): its only filling left "
                                   "has +5ab at r1c4 ON"]
    assert hinted[2:] == [original[0].replace("+5ab  ", "+5ab! ")] + original[1:]


@pytest.mark.parametrize("precedence", ["left-to-right", "standard"])
def test_a_reading_whose_values_double_at_each_step_falls_back_before_its_tables_explode(precedence):
    """30 cells +1 +2 +4 ... +2^29: 2^k states after k cells, more than any stack holds;
    `states` states such a reading as `fold` does."""
    row = " ".join(f"+{2 ** k}" for k in range(30)) + f" ={sum(2 ** k for k in range(0, 30, 3))}"
    puzzle = parse(row, precedence=precedence)
    for encoding in ENCODINGS:
        assert solutions(puzzle, encoding) == [(tuple(int(k % 3 == 0) for k in range(30)),)], encoding
