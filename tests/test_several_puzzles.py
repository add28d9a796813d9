"""Several puzzles in one text, for every family: `== NAME` lines, generate's output piped
back in, Sudoku's .sdm files (a puzzle per line), the API's parse_all."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import crossprolog
from crossprolog import ParseError
from crossprolog.grammars.crossproduct import read_all
from crossprolog.registry import PLAIN_SEPARATOR, parse_piece, pieces

from conftest import EXAMPLES

RIDDLER_1 = (EXAMPLES / "crossproduct" / "riddler-1.txt").read_text()
INKALA = (EXAMPLES / "sudoku" / "inkala-2012.txt").read_text()
PUZZLE_25 = (EXAMPLES / "crosscells" / "puzzle-25.txt").read_text()
MIXED = f"# three families in one file\n== riddler 1\n{RIDDLER_1}\n== inkala\n{INKALA}==\n{PUZZLE_25}"


def line_of(text: str, separator: str) -> int:
    return text.splitlines().index(separator) + 1


def test_a_line_starting_with_two_equals_signs_starts_a_puzzle_and_names_it():
    found = pieces(MIXED)
    assert [(p.number, p.name, p.family) for p in found] == [
        (1, "riddler 1", "crossproduct"), (2, "inkala", "sudoku"), (3, "", "crosscells")]
    assert [p.line for p in found] == [line_of(MIXED, "== riddler 1"), line_of(MIXED, "== inkala"),
                                       line_of(MIXED, "==")]
    puzzles = crossprolog.parse_all(MIXED)
    assert [p.family for p in puzzles] == ["crossproduct", "sudoku", "crosscells"]
    assert puzzles[0] == crossprolog.parse(RIDDLER_1) and puzzles[2] == crossprolog.parse(PUZZLE_25)


def test_parse_takes_one_puzzle_and_says_where_a_second_starts():
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(MIXED)
    assert caught.value.line == line_of(MIXED, "== inkala") and "parse_all" in caught.value.message
    assert crossprolog.parse("== only one\n" + RIDDLER_1) == crossprolog.parse(RIDDLER_1)


def test_directives_above_the_first_separator_are_every_puzzles_and_a_puzzles_own_win():
    text = "# zero: yes\n== a\n0 6\n? ? 0\n? ? 6\n== b\n# zero: no\n6 8\n? ? 48\n"
    first, second = crossprolog.parse_all(text)
    assert first.zero and not second.zero


def test_a_family_s_directives_above_the_first_separator_leave_other_families_puzzles_alone():
    """`# zero: yes` above a KenKen and a Kakuro made them CrossProducts (a located
    error); a directive no family has is still one."""
    kenken, kakuro = ((EXAMPLES / name).read_text() for name in ("kenken/issue-4x4.txt", "kakuro/tiny.txt"))
    text = f"# zero: yes\n== a\n0 6\n? ? 0\n? ? 6\n== b\n{kenken}== c\n{kakuro}"
    first, second, third = crossprolog.parse_all(text)
    assert (first.family, second.family, third.family) == ("crossproduct", "kenken", "kakuro") and first.zero
    assert second.count() == third.count() == 1
    with pytest.raises(ParseError, match="unknown directive 'zerro'") as caught:
        crossprolog.parse_all(text.replace("zero", "zerro"))
    assert (caught.value.line, caught.value.column) == (1, 1)


def test_errors_point_at_lines_of_the_whole_text():
    text = f"== good\n{RIDDLER_1}== bad\n6 8\n? a 48\n"
    with pytest.raises(ParseError) as caught:
        crossprolog.parse_all(text)
    assert caught.value.line == len(text.splitlines()) and caught.value.column == 3


@pytest.mark.parametrize("family", ["crossproduct", "crosscells"])
def test_generated_puzzles_piped_back_in_are_checked_each(family):
    made = subprocess.run([sys.executable, "-m", "crossprolog", "generate", family, "--rows", "3",
                           "--cols", "3", "-n", "4", "--seed", "5"], capture_output=True, text=True)
    assert made.returncode == 0 and made.stdout.count("\n== ") == 3 and made.stdout.startswith("== 1\n")
    checked = subprocess.run([sys.executable, "-m", "crossprolog", "check", "-", "--format", "json"],
                             input=made.stdout, capture_output=True, text=True, timeout=120)
    records = [json.loads(line) for line in checked.stdout.splitlines()]
    assert checked.stderr == "" and checked.returncode in (0, 1)
    assert [(r["path"], r["puzzle"], r["name"]) for r in records] == [
        ("<stdin>", n, str(n)) for n in range(1, 5)]
    assert all(r["family"] == family and r["status"] in ("unique", "several", "unsolvable")
               for r in records)


def test_text_output_names_each_puzzle_by_file_line_and_name(cli, write):
    path = write(MIXED)
    run = cli("check", path)
    heads = [line for line in run.out.splitlines() if line.startswith("== ")]
    assert heads == [f"== {path}:{line_of(MIXED, '== riddler 1')} riddler 1",
                     f"== {path}:{line_of(MIXED, '== inkala')} inkala", f"== {path}:{line_of(MIXED, '==')}"]
    assert run.code == 0 and run.out.count("well-formed: exactly one solution") == 3


def test_an_sdm_file_is_a_puzzle_per_line_read_as_a_batch(cli, tmp_path):
    line = "".join("." if d is None else str(d)
                   for row in crossprolog.parse(INKALA).givens for d in row)
    sdm = tmp_path / "collection.sdm"
    sdm.write_text(f"{line}\n{line.replace('.', '0')}\n{line[:-1] + 'x'}\n")
    directory_run = cli("solve", tmp_path, "--format", "json")
    records = directory_run.jsonl()
    assert [(r["puzzle"], r["line"], r["status"]) for r in records] == [
        (1, 1, "solved"), (2, 2, "solved"), (3, 3, "error")]
    assert records[0]["solution"] == records[1]["solution"]
    assert records[2]["error"].startswith(f"{sdm}:3:81: error: expected a digit, '.', '_' or '?', found 'x'")
    assert directory_run.code == 2


def test_commands_of_one_puzzle_refuse_a_file_of_several(cli, write):
    run = cli("export", write(MIXED))
    assert run.code == 2 and "holds 3 puzzles; this command takes one" in run.err


def test_compare_runs_every_encoding_on_every_puzzle_of_a_file(cli, write):
    path = write(f"== a\n{RIDDLER_1}== b\n{RIDDLER_1}")
    records = [r for r in cli("compare", path, "--format", "json", "--encodings", "rows,primes").jsonl()
               if r["record"] == "run"]
    assert [(r["puzzle"], r["encoding"], r["agrees"]) for r in records] == [
        (f"{path}:1", "rows", True), (f"{path}:1", "primes", True),
        (f"{path}:{line_of(path.read_text(), '== b')}", "rows", True),
        (f"{path}:{line_of(path.read_text(), '== b')}", "primes", True)]


def _read(text: str, **options):
    """What parse_all gives (the puzzles, with how each was drawn), or its error."""
    try:
        return [vars(puzzle) for puzzle in crossprolog.parse_all(text, **options)]
    except crossprolog.CrossprologError as error:
        return type(error), str(error)


def _read_piece_by_piece(text: str, **options):
    family = options.pop("family", None)
    try:
        return [vars(parse_piece(piece, **options)) for piece in pieces(text, family)]
    except crossprolog.CrossprologError as error:
        return type(error), str(error)


def test_plain_puzzles_read_in_one_pass_are_those_read_piece_by_piece():
    import random

    rng = random.Random(5)
    made = list(crossprolog.generate("crossproduct", 4, 3, n=20, seed=5))
    text = "\n".join(f"== {n}\n{puzzle.render()}\n" for n, puzzle in enumerate(made, start=1))
    assert crossprolog.parse_all(text) == made
    assert read_all(text, PLAIN_SEPARATOR) == made  # in one pass, not piece by piece
    texts = [text, made[0].render(), "? ? 6\n2 3\n", "2 3\n? ? 6\n", "0 3\n? ? 0\n", "6 6\n? ? 36\n",
             "== a\n\n== b\n2 3\n? ? 6\n", "==\n==\n", "\t2 3\n? ? 6\n", "2 3\r\n? ? 6\n"]
    for _ in range(100):  # a few characters changed: refused, or read otherwise, the same way
        chars = list(made[0].render() + "\n== x\n" + made[1].render())
        for _ in range(rng.randint(1, 3)):
            chars[rng.randrange(len(chars))] = rng.choice("?0123456789 \n=#a|,")
        texts.append("".join(chars))
    for text in texts:
        for options in ({}, {"family": "crossproduct"}, {"zero": True}, {"zero": "maybe"}):
            assert _read(text, **options) == _read_piece_by_piece(text, **options), (text, options)
