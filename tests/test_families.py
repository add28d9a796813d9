"""The family records: options as directives or flags, detection by claims, a CLI built from records."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import crossprolog
from crossprolog import ParseError, UsageError
from crossprolog.batch import PUZZLE_SUFFIXES
from crossprolog.registry import FAMILIES, detect, family_of, named
from crossprolog.grammars.common import source_lines

from conftest import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent


# Options: a directive in the file, or a flag on the command line, which wins.

ZERO = "0 6\n0 ? 0\n? ? 6\n"
SEEDS = "+7  *2  =2\n"  # one ON cell, *2, seeds the value: 2


def test_a_directive_sets_an_option_of_any_family():
    assert crossprolog.parse("# zero: yes\n" + ZERO).zero
    assert crossprolog.parse("# first-cell: seeds\n" + SEEDS).first_cell == "seeds"
    assert crossprolog.parse("# first-cell: seeds\n" + SEEDS).solve().values == ((0, 1),)
    assert crossprolog.parse(SEEDS).solve() is None  # from 0, *2 gives 0 and +7 gives 7


def test_an_option_given_to_parse_overrides_the_file():
    assert crossprolog.parse("# first-cell: seeds\n" + SEEDS, first_cell="zero").first_cell == "zero"
    assert crossprolog.parse("# zero: no\n" + ZERO, zero=True).zero


def test_a_solution_keeps_the_directives_so_it_reads_back(cli, write):
    path = write("# first-cell: seeds\n" + SEEDS)
    drawn = cli("solve", path).out
    assert drawn.splitlines()[0] == "# first-cell: seeds"
    assert crossprolog.parse(drawn).first_cell == "seeds"
    assert cli("solve", write("# zero: yes\n" + ZERO, "z.txt")).out.startswith("# zero: yes\n")


def test_the_command_line_overrides_the_file(cli, write):
    path = write("# first-cell: seeds\n" + SEEDS)
    assert cli("solve", path).code == 0
    assert cli("solve", path, "--first-cell", "zero").code == 1
    assert cli("solve", write(ZERO, "z.txt"), "--zero").code == 0


def test_sudoku_directives_are_command_line_options_too(cli, tmp_path):
    grid = "\n".join((EXAMPLES / "sudoku" / "gcd-2025-01.txt").read_text().splitlines()[6:])
    path = tmp_path / "plain.txt"
    path.write_text(grid.replace("0", "1").replace("1", "0") + "\n")  # the digits, no directives
    run = cli("solve", path, "--digits", "0-9 choose 9", "--maximize", "gcd(rows)", "--format", "json")
    assert run.code == 0 and run.json()["objective"] == {"gcd": 12345679, "optimal": True}
    bad = cli("solve", path, "--digits", "1-8")
    assert bad.code == 2 and "--digits: 1-8 has 8 digits; a unit needs 9" in bad.err


@pytest.mark.parametrize("text, line, column, words", [
    ("# first-cell: sideways\n" + SEEDS, 1, 15, "expected zero or seeds, not 'sideways'"),
    ("# zero: maybe\n" + ZERO, 1, 9, "expected yes or no"),
    ("# colour: red\n" + ZERO, 1, 1, "unknown directive 'colour' (known: zero)"),
    ("# first-cell: seeds\n# first-cell: zero\n" + SEEDS, 2, 1, "given twice"),
    (SEEDS + "# first-cell: seeds\n", 2, 1, "must come above the grid"),
    ("# colour: red\n" + (EXAMPLES / "kenken" / "issue-4x4.txt").read_text(), 1, 1,
     "unknown directive 'colour' (known: none)"),
])
def test_bad_directives_are_located_errors(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(text)
    assert (caught.value.line, caught.value.column) == (line, column), caught.value
    assert words in caught.value.message


def test_an_unknown_directive_below_the_puzzle_is_a_comment():
    assert crossprolog.parse(ZERO + "# note: from the paper\n", zero=True).zero


# Detection: every family claims its own text, positively


@pytest.mark.parametrize("path", [p for p in sorted(EXAMPLES.glob("*/*.*")) if p.suffix in PUZZLE_SUFFIXES],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_is_claimed_by_its_own_family(path):
    assert family_of(path.read_text()) == path.parent.name


@pytest.mark.parametrize("path", [p for p in sorted(EXAMPLES.glob("*/*.txt"))], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_reads_the_same_in_a_markdown_code_block(path):
    """Fence lines were skipped by some families (KenKen, Kakuro, Killer Sudoku, CrossCells)
    and refused by others (Sudoku, CrossProduct: "expected a digit, found '```'")."""
    text = path.read_text()
    fenced = crossprolog.parse(f"```text\n{text}```\n")
    assert type(fenced) is type(crossprolog.parse(text)) and fenced.prolog_data() == crossprolog.parse(text).prolog_data()


def test_claims_say_why():
    record, claim = detect(source_lines((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text()))
    assert record.name == "crossproduct" and claim.reason == "lines of numbers and '?' cells"
    record, claim = detect(source_lines("# first-cell: seeds\n" + SEEDS))
    assert record.name == "crosscells" and claim.reason == "the directive '# first-cell:'"


def test_a_misread_puzzle_says_which_family_was_assumed_and_suggests_another(cli, write):
    path = write("a a b\nc d b\nc e e\na 3+\nb 4+\nc 5+\nd 3\ne 3%\n")
    run = cli("check", path)
    assert run.code == 2
    assert "(read as KenKen: a grid of cage letters and clue lines like 'a 12*'; name the family " \
           "with --family if it is another)" in run.err.splitlines()[0]


def test_text_no_family_claims_is_one_error():
    with pytest.raises(ParseError, match="looks like no puzzle family crossprolog knows"):
        crossprolog.parse("hello world\n")


# The command line is built from the records


def test_no_family_is_named_in_the_command_line_package():
    for path in (ROOT / "crossprolog" / "cli").glob("*.py"):
        source = path.read_text().lower()
        for record in FAMILIES:
            assert record.name not in source and record.title.lower() not in source, (path, record.name)


def test_every_option_of_every_family_is_a_flag_of_every_puzzle_command(cli):
    for command in ("solve", "count", "check", "export", "compare"):
        with pytest.raises(SystemExit):
            cli(command, "--help")
    for record in FAMILIES:
        for option in record.options:
            run = cli("count", EXAMPLES / "crossproduct" / "givens.txt", f"--{option.name}",
                      *(() if option.flag else (option.choices[0] if option.choices else "x",)))
            assert run.code in (0, 2)  # taken (and ignored by a CrossProduct), or refused by its family


def test_unknown_family_names_are_refused_with_the_choices():
    with pytest.raises(UsageError, match="choose from crossproduct, crosscells, sudoku, kenken"):
        named("nonogram")
    with pytest.raises(UsageError, match="unknown family 'nonogram'"):
        crossprolog.parse(ZERO, family="nonogram")


def test_records_spell_the_choices_and_defaults_as_their_models_do():
    from crossprolog import crosscells, sudoku

    options = {option.name: option for record in FAMILIES for option in record.options}
    assert named("crosscells").option("game").choices == crosscells.GAMES
    assert options["first-cell"].choices == crosscells.FIRST_CELL_RULES
    assert options["precedence"].choices == crosscells.PRECEDENCES
    assert options["digits"].default_value() is sudoku.CLASSIC


def test_a_crossproduct_command_loads_no_other_family():
    code = ("import sys; from crossprolog import cli; cli.main(['count', sys.argv[1]]); "
            "print(sorted(m for m in sys.modules if m.startswith('crossprolog')))")
    loaded = subprocess.run([sys.executable, "-c", code, str(EXAMPLES / "crossproduct" / "givens.txt")],
                            capture_output=True, text=True, check=True).stdout
    for record in FAMILIES[1:]:
        assert f"crossprolog.{record.name}'" not in loaded, record.name
        assert f"crossprolog.grammars.{record.name}'" not in loaded, record.name
