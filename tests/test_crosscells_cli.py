"""The command line with CrossCells: the same contract as for CrossProduct."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, NEVER_CROSSCELLS

import crossprolog

PUZZLE_25 = EXAMPLES / "crosscells" / "puzzle-25.txt"
SOLVED_25 = """\
         +1a~ +2a! *4a~ +2!         =4
         +2a! *2a~ +2a! +1!         =5
 +1! *2! *2a~ *3a! *2a~ *3~ *4! +8~ =24
         +1a! *2a! +2a~ *2~         =2
         +3!  +3~  *2~  *2!         =6
          =6  =12   #1  =6
a#6"""
SOLUTION_25 = [[0, 1, 0, 1], [1, 0, 1, 1], [1, 1, 0, 1, 0, 0, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]


def without_group(write):
    return write(PUZZLE_25.read_text().replace("a#6", ""))


def test_solve_draws_the_solution_with_every_cell_marked_on_or_off_and_it_reads_back(cli):
    run = cli("solve", PUZZLE_25)
    assert run.code == 0 and run.out == SOLVED_25 + "\n"
    again = crossprolog.parse(run.out)
    assert [cell.decided for cell in again.cells] == [on for row in SOLUTION_25 for on in row]
    assert cli("hint", PUZZLE_25).code == 0 and cli("solve", PUZZLE_25).out == run.out


def test_solve_json_has_one_list_per_line_of_cells(cli):
    record = cli("solve", PUZZLE_25, "--format", "json").json()
    assert {k: record[k] for k in ("family", "status", "solution")} == {
        "family": "crosscells", "status": "solved", "solution": SOLUTION_25}


def test_solve_markdown_is_a_code_block(cli):
    run = cli("solve", PUZZLE_25, "--format", "markdown")
    assert run.out == f"```text\n{SOLVED_25}\n```\n"


def test_solve_all_and_count_and_check(cli, write):
    path = without_group(write)
    every = cli("solve", "--all", path, "--format", "json").json()
    assert every["count"] == 2 and every["solutions"][0] == SOLUTION_25
    assert "2 solutions" in cli("solve", "--all", path).out
    assert cli("count", path, "--format", "json").json()["count"] == 2
    limited = cli("count", path, "--limit", "1")
    assert limited.code == 0 and "at least 1 solution (stopped at --limit 1)" in limited.out
    assert cli("check", PUZZLE_25).code == 0
    several = cli("check", path)
    assert several.code == 1 and "more than one solution" in several.out


def test_unsolvable_exits_1(cli, write):
    run = cli("solve", write("+1 +2 =4\n"), "--format", "json")
    assert run.code == 1 and run.json()["status"] == "unsolvable"
    assert cli("check", write("+1 +2 =4\n")).code == 1


def test_a_mistyped_mark_is_blamed_where_it_stands_in_text_and_svg(cli, write):
    """The blamed cell's mark is the clue: it stands in brackets, and a picture marks it
    a conflict, as in every other family (the brackets and the mark were missing)."""
    mistyped = write("+1~ +2~ =1\n+3~ +4! =4\n=1  =4\n", name="mine.txt")
    for args in (["solve", mistyped], ["hint", write("+1 +2 =1\n+3 +4 =4\n=1  =4\n"), "--entries", mistyped]):
        run = cli(*args)
        said, drawn = run.out.splitlines()[:2]
        assert run.code == 1 and "+1 at row 1, column 1 OFF" in said
        assert drawn.startswith("[+1~] +2~")
        assert cli(*args, "--format", "svg").out.count("conflict") == 1
    sumplete = write("# game: sumplete\n6! 7~ 2! 8~ 2\n4! 9~ 9~ 3! 7\n-1! 9! 1~ 2! 10\n7~ -3! 5! 7! 9\n"
                     "3 6 7 12\n")
    assert "[6!]" in cli("solve", sumplete).out


def test_timeout_exits_3(cli, write):
    run = cli("solve", write(NEVER_CROSSCELLS), "--encoding", "reified", "--timeout", "0.3", "--format", "json")
    assert run.code == 3 and run.json()["status"] == "timeout"


def test_every_encoding_is_offered_and_an_unknown_one_is_a_usage_error(cli):
    for encoding in ("states", "states_ffc", "fold", "reified"):
        assert cli("solve", PUZZLE_25, "--encoding", encoding).out == SOLVED_25 + "\n"
    run = cli("solve", PUZZLE_25, "--encoding", "nope")
    assert run.code == 2 and "states, states_ffc, fold, reified" in run.err


def test_first_cell_seeds_option(cli, write):
    path = write("*3 +2 =5\n")
    assert cli("solve", path).code == 1
    seeded = cli("solve", path, "--first-cell", "seeds", "--format", "json")
    assert seeded.code == 0 and seeded.json()["solution"] == [[1, 1]]


def test_bad_input_is_one_located_line_and_exit_2(cli, write):
    path = write("+1 +2 =3\n+1 /0 =1\n")
    run = cli("solve", path)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines() == [
        f"{path}:2:4: error: division by 0: a / cell needs a number above 0 (read as CrossCells: cells "
        "like +3 and constraints like =24; name the family with --family if it is another)",
        "+1 /0 =1", "   ^"]


def test_several_inputs_of_both_families_exit_with_the_worst(cli, write):
    run = cli("check", PUZZLE_25, EXAMPLES / "crossproduct" / "riddler-1.txt", write("+1 =2\n"))
    assert run.code == 1 and run.out.count("== ") == 3


def test_generate_prints_seeded_puzzles_that_parse(cli):
    first = cli("generate", "crosscells", "--rows", "4", "--cols", "5", "-n", "2", "--seed", "9")
    again = cli("generate", "crosscells", "--rows", "4", "--cols", "5", "-n", "2", "--seed", "9")
    assert first.code == 0 and first.out == again.out
    puzzles = [crossprolog.parse(text) for text in first.out.strip().split("\n\n")]
    assert [p.family for p in puzzles] == ["crosscells"] * 2
    assert all(len(p.rows) == 4 and len(p.columns) == 5 for p in puzzles)



def test_check_suggests_a_line_clue_past_a_line_whose_total_is_undefined(cli, write):
    """Row 1 of the two solutions totals 0+1/2, not a whole number: the suggestion is
    its count instead (the check ended with an error before)."""
    path = write("+1    /2    +1\n#1    #1\n")
    run = cli("check", path)
    assert run.code == 1 and "more than one solution" in run.out
    assert "add #2 after row 1, and only the first is left" in run.out
    assert cli("check", path, "--format", "json").json()["status"] == "several"


@pytest.mark.parametrize("text, said, marked", [
    ("+1 +1 =1\n+1 +1 =1\n=1 =1\n", "mark +1 at row 1, column 1 OFF", "+1~ +1 =1\n+1 +1 =1\n=1 =1\n"),
    ("# game: sumplete\n1 1 1\n1 1 1\n1 1\n", "mark the 1 at row 1, column 1 deleted",
     "# game: sumplete\n1~ 1 1\n1 1 1\n1 1\n"),
    ("# game: number-sums\n1a 1a 1\n1a 1a 1\n1 1\na=2\n", "mark the 1 at row 1, column 1 deleted",
     "# game: number-sums\n1a~ 1a 1\n1a 1a 1\n1 1\na=2\n")])
def test_check_suggests_a_decided_cell_where_no_line_clue_tells_the_two_apart(cli, write, text, said, marked):
    """Two solutions that every free line end sees alike (or, in Sumplete and Number
    Sums, no free line end at all): a cell decided as in one of them, as a solver marks
    it, leaves that one (check said no clue could, and offered CrossCells' own line
    clues to a game that has none)."""
    run = cli("check", write(text))
    assert run.code == 1 and run.out.rstrip().endswith(f"{said}, and only the first is left")
    assert cli("check", write(marked, "marked.txt")).out == "well-formed: exactly one solution\n"


def test_check_suggests_no_total_longer_than_a_puzzle_may_state(cli, write):
    """Row 1 multiplies 1,000-digit numbers to a total of 6,001 digits, which no
    reader takes (and Python would not print): the suggestion is a count (the check
    ended with a traceback before)."""
    nines = "9" * 1000
    path = write(f"+{nines} *{nines} *{nines} *{nines} *{nines} *{nines} *{nines} +1 #7\n")
    run = cli("check", path)
    assert run.code == 1 and "Traceback" not in run.err and "more than one solution" in run.out
    assert run.out.rstrip().endswith("add #0 below column 1, and only the first is left")
