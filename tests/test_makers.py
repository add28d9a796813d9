"""For puzzle makers and stuck solvers: well-formed puzzles, hints, why not unique, why no solution.

Where it can, each test checks against an independent brute force written here,
not against the solver under test.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import string
import subprocess
import sys
from functools import lru_cache

import pytest

import crossprolog
from crossprolog import diagnosis, making, searches
from crossprolog.crosscells import Cell, Constraint, CrossCells, group_apart, value_of
from crossprolog.crossproduct import CrossProduct
from crossprolog.kenken import KenKen

from conftest import EXAMPLES
from test_kenken import brute_force as kenken_solutions


# Independent brute forces


@lru_cache(maxsize=None)
def digit_rows(product: int, width: int) -> tuple[tuple[int, ...], ...]:
    """Every row of `width` digits 1-9 with `product`."""
    return tuple(row for row in itertools.product(range(1, 10), repeat=width)
                 if math.prod(row) == product)


def crossproduct_solutions(puzzle: CrossProduct) -> set:
    """Every assignment of digits to the cells the known products and givens speak of
    (a cell no clue speaks of may hold any digit, and is left out), as a sorted
    tuple of ((row, column), digit): a join of each known line's fillings."""
    lines = [([(r, c) for c in range(puzzle.width)], p) for r, p in enumerate(puzzle.row_products)
             if p is not None]
    lines += [([(r, c) for r in range(puzzle.height)], p)
              for c, p in enumerate(puzzle.column_products) if p is not None]
    givens = {(r, c): d for r, row in enumerate(puzzle.givens) for c, d in enumerate(row)
              if d is not None}
    found = set()

    def join(k: int, assigned: dict) -> None:
        if k == len(lines):
            found.add(tuple(sorted({**givens, **assigned}.items())))
            return
        cells, product = lines[k]
        for filling in digit_rows(product, len(cells)):
            if all({**givens, **assigned}.get(cell, digit) == digit for cell, digit in zip(cells, filling)):
                join(k + 1, {**assigned, **dict(zip(cells, filling))})

    join(0, {})
    return found


def value_at(solution, cell):
    """The value of `cell` in a solution of any of the brute forces here."""
    if isinstance(solution[0], tuple) and len(solution[0]) == 2 and isinstance(solution[0][0], tuple):
        return dict(solution).get(cell)
    return solution[cell[0]][cell[1]]


def crosscells_solutions(puzzle: CrossCells) -> set:
    """Every on/off table (rows as drawn) meeting every constraint, evaluated here."""
    def reading_value(indices, ons):
        return value_of([puzzle.cells[i] for i in indices if ons[i]], puzzle.first_cell)

    found = set()
    for ons in itertools.product((0, 1), repeat=len(puzzle.cells)):
        if all((sum(ons[i] for i in r.cells) if r.constraint.kind == "#"
                else reading_value(r.cells, ons)) == r.constraint.value for r in puzzle.readings()) \
                and all(c.decided is None or c.decided == on for c, on in zip(puzzle.cells, ons)):
            found.add(tuple(tuple(ons[i] for i in row.cells) for row in puzzle.rows))
    return found


def solutions(puzzle) -> set:
    if isinstance(puzzle, CrossProduct):
        return crossproduct_solutions(puzzle)
    if isinstance(puzzle, CrossCells):
        return crosscells_solutions(puzzle)
    return kenken_solutions(puzzle)


# 1. Well-formed puzzles on demand

SMALL = [("crossproduct", 3, 3), ("crossproduct", 4, 2), ("crosscells", 3, 4), ("kenken", 4, 4)]


@pytest.mark.parametrize("family, rows, cols", SMALL)
def test_well_formed_puzzles_have_one_solution_and_no_clue_to_spare(family, rows, cols):
    for puzzle in crossprolog.generate(family, rows, cols, 4, seed=1, well_formed=True):
        assert_unique_and_minimal(family, puzzle)


def assert_unique_and_minimal(family: str, puzzle) -> None:
    """The brute force finds one solution, and two or more without any clue the maker
    chose (a KenKen's cages are cut anew until unique: unique, not minimal)."""
    assert len(solutions(puzzle)) == 1, puzzle
    if family == "kenken":
        return
    droppable = [c for c in puzzle.clues() if family != "crossproduct" or c.kind == "given"]
    for clue in droppable:
        fewer = puzzle.keeping([c for c in puzzle.clues() if c != clue])
        assert len(solutions(fewer)) > 1, f"{clue.text} is not needed in\n{puzzle}"


def test_a_clue_a_solution_found_before_shows_needed_is_needed(monkeypatch):
    """The hide keeps a clue without a search when a solution found earlier meets every
    other shown clue (making.Witnesses): the brute force agrees that each is needed,
    on puzzles where that shortcut was taken (CrossCells ones with groups among them)."""
    taken = []
    meeting = making.Witnesses.meeting
    monkeypatch.setattr(making.Witnesses, "meeting",
                        lambda self, clues: taken.append(meeting(self, clues)) or taken[-1])
    for family, rows, cols in [("crossproduct", 3, 3), ("crosscells", 3, 4)]:
        taken.clear()
        puzzles = list(crossprolog.generate(family, rows, cols, 4, seed=1, well_formed=True))
        assert any(found is not None for found in taken), family
        assert family != "crosscells" or any(puzzle.groups for puzzle in puzzles)
        for puzzle in puzzles:
            assert_unique_and_minimal(family, puzzle)


def test_a_restriction_apart_keeps_the_solutions_differing_in_one_of_its_cells():
    puzzle = CrossProduct((24, 12, 30), (40, 18, 12))
    every = [dict(solution) for solution in crossproduct_solutions(puzzle)]
    intended = every[0]
    for apart in ([(0, 0)], [(0, 0), (1, 2)], [(r, c) for r in range(3) for c in range(3)]):
        found = searches.restricted("crossproduct", puzzle.prolog_data(),
                                  [[[list(cell) for cell in apart], "apart", [intended[cell] for cell in apart]]],
                                  shape=(3, 3))
        got = {tuple(map(tuple, grid)) for grid in found["solutions"]}
        assert got == {tuple(tuple(s[r, c] for c in range(3)) for r in range(3)) for s in every
                       if any(s[cell] != intended[cell] for cell in apart)}
        assert len(got) < len(every)


def test_a_session_s_pushed_restrictions_hold_until_popped():
    """searches.Session.push: each question then meets the pushed restrictions too, and
    pop gives back the questions of before (pushes nest, last pushed first popped)."""
    puzzle = CrossProduct((24, 12, 30), (40, 18, 12))
    every = {tuple(tuple(dict(s)[r, c] for c in range(3)) for r in range(3))
             for s in crossproduct_solutions(puzzle)}

    def meeting(*cells):
        return {grid for grid in every if all(grid[r][c] == value for (r, c), value in cells)}

    def asked(session, cells=()):
        return {tuple(map(tuple, grid)) for grid in
                session.restricted([[[r, c], "=", value] for (r, c), value in cells])["solutions"]}

    first, second = next(iter(every))[0][0], next(iter(every))[1][1]
    assert len(meeting(((0, 0), first), ((1, 1), second))) < len(meeting(((0, 0), first))) < len(every)
    with searches.Session("crossproduct", puzzle.prolog_data()) as session:
        session.push([[[0, 0], "=", first]])
        assert asked(session) == meeting(((0, 0), first))
        session.push([[[1, 1], "=", second]])
        assert asked(session) == meeting(((0, 0), first), ((1, 1), second))
        session.pop()
        assert asked(session, [((2, 2), 1)]) == meeting(((0, 0), first), ((2, 2), 1))
        session.pop()
        assert asked(session) == every


def test_the_hide_asks_with_the_givens_pushed_and_makes_the_same_puzzles(monkeypatch):
    """Pushing the shown givens changes what each question sends, not what it answers:
    the same puzzles as when every question sends every shown given."""
    sent = []
    restricted = searches.Session.restricted
    monkeypatch.setattr(searches.Session, "restricted",
                        lambda self, cells, **options: sent.append(len(cells)) or
                        restricted(self, cells, **options))
    pushed = list(crossprolog.generate("crossproduct", 5, 4, 3, seed=2, well_formed=True))
    assert sent and max(sent) <= 1  # at most the "apart" restriction: the givens were pushed
    for name in ("push", "pop", "pop_all"):
        monkeypatch.setattr(making.Givens, name, lambda self, *_: None)
    sent.clear()
    assert pushed == list(crossprolog.generate("crossproduct", 5, 4, 3, seed=2, well_formed=True))
    assert max(sent) > 3


def test_a_reveal_shows_several_of_the_clues_that_tell_two_solutions_apart(monkeypatch):
    """With few givens shown a second solution differs in dozens of cells: a reveal
    shows a quarter of them, so a 10x6 CrossProduct asks about 8 reveal questions
    (one given a question asked 25-28 for the same tables)."""
    reveals = []
    others = making.Givens.others
    monkeypatch.setattr(making.Givens, "others", lambda self, shown, intended, apart=():
                        reveals.append(not apart) or others(self, shown, intended, apart))
    for seed in range(3):
        reveals.clear()
        [puzzle] = crossprolog.generate("crossproduct", 10, 6, 1, seed=seed, well_formed=True)
        assert puzzle.well_formed()
        assert 0 < sum(reveals) <= 12, seed


def test_well_formed_sudoku_is_unique_and_minimal():
    [puzzle] = crossprolog.generate("sudoku", 9, 9, 1, seed=4, well_formed=True)
    assert puzzle.count(2) == 1 and 17 <= len(puzzle.clues()) < 40
    for clue in puzzle.clues()[:6]:
        assert puzzle.keeping([c for c in puzzle.clues() if c != clue]).count(2) == 2


def test_the_same_arguments_make_the_same_puzzles():
    first = list(crossprolog.generate("crosscells", 5, 5, 3, seed=7, well_formed=True))
    assert first == list(crossprolog.generate("crosscells", 5, 5, 3, seed=7, well_formed=True))
    assert first != list(crossprolog.generate("crosscells", 5, 5, 3, seed=8, well_formed=True))


def test_without_well_formed_generate_stays_the_notebooks_procedure(cli):
    run = cli("generate", "crossproduct", "--rows", "10", "--cols", "6", "--seed", "42")
    assert run.out.splitlines()[0].split() == ["24576", "979776", "274400", "2177280", "1792000",
                                               "524880"]


def test_generate_well_formed_as_json_lines_reads_back(cli, write):
    run = cli("generate", "crossproduct", "--rows", "4", "--cols", "3", "-n", "3", "--seed", "5",
              "--well-formed", "--format", "json")
    records = run.jsonl()
    assert len(records) == 3 and all(r["family"] == "crossproduct" for r in records)
    for record in records:
        puzzle = crossprolog.parse(record["puzzle"])
        assert puzzle.well_formed()
        assert record["givens"] == sum(c.kind == "given" for c in puzzle.clues())
        assert record["constraints"] == 4 + 3


def test_generate_refuses_sizes_a_family_cannot_have(cli):
    run = cli("generate", "sudoku", "--rows", "4", "--cols", "4", "--well-formed")
    assert run.code == 2 and "a sudoku is 9x9" in run.err


# 2. Hints

EXAMPLE_PUZZLES = [p for p in sorted(EXAMPLES.glob("*/*.*")) if p.suffix in (".txt", ".md")
                   and "10x6" not in p.name and "gcd" not in p.name and "random-10x10" not in p.name]


@pytest.mark.parametrize("path", EXAMPLE_PUZZLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_hint_is_the_value_the_solution_has(path):
    puzzle = crossprolog.parse(path.read_text())
    solution = puzzle.solve().to_json()
    hint = puzzle.hint(timeout=60)
    assert hint.status == "hint"
    [forced] = hint.cells
    assert forced.value == solution[forced.cell[0]][forced.cell[1]]
    assert forced.cell in puzzle.open_cells() and forced.reason


@pytest.mark.parametrize("family, rows, cols", SMALL[:3])
def test_forced_cells_hold_in_every_solution_of_puzzles_with_several(family, rows, cols):
    for puzzle in crossprolog.generate(family, rows, cols, 6, seed=3):
        every = solutions(puzzle)
        if len(every) < 2:
            continue
        forced = {f.cell: f.value for f in puzzle.forced_cells(timeout=60)}
        for cell in puzzle.open_cells():
            values = {value_at(s, cell) for s in every}
            assert (cell in forced) == (len(values) == 1), (cell, values)
            if cell in forced:
                assert values == {forced[cell]}


def test_a_reason_names_clues_that_alone_force_the_cell():
    puzzle = crossprolog.parse((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text())
    for forced in puzzle.forced_cells()[:6]:
        alone = puzzle.keeping(forced.clues)
        assert {value_at(s, forced.cell) for s in solutions(alone)} == {forced.value}


def test_a_hint_never_repeats_what_is_given_and_reads_back(cli, write):
    path = write((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text())
    first = cli("hint", path)
    assert first.code == 0 and first.out.startswith("# ")
    second = cli("hint", write(first.out, "next.txt"), "--format", "json").json()
    given = crossprolog.parse(first.out).givens
    assert [given[c["row"]][c["col"]] for c in second["cells"]] == [None]


@pytest.mark.parametrize("example", ["kenken/issue-4x4.txt", "crosscells/puzzle-25.txt", "kakuro/tiny.txt"])
def test_a_hint_in_markdown_reads_back_as_the_next_step_in_markdown(cli, write, example):
    """Read back, the fences of the hint's own markdown were kept as comments: an empty
    fenced block above the next reason."""
    first = cli("hint", write((EXAMPLES / example).read_text()), "--format", "markdown")
    second = cli("hint", write(first.out, "next.md"), "--format", "markdown")
    assert first.code == second.code == 0
    assert second.out.count("```") == first.out.count("```") == 2


def test_a_hint_in_markdown_keeps_a_text_puzzles_comments_as_code_not_headings(cli, write):
    """A comment of a puzzle typed as text, as a markdown line of its own, would be a
    heading: indented like the hint's reason, it is a code line, and reads back once."""
    first = cli("hint", write((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text()), "--format", "markdown")
    comment = "    # The Riddler's first CrossProduct"
    assert first.code == 0 and first.out.startswith(comment)
    assert not any(line.startswith("#") for line in first.out.splitlines())
    second = cli("hint", write(first.out, "next.md"), "--format", "markdown")
    assert second.code == 0 and second.out.startswith(comment) and second.out.count(comment) == 1


def test_hint_statuses_in_json(cli, write):
    one_left = write("6 8\n2 4 8\n3 ? 6\n", "one.txt")
    record = cli("hint", one_left, "--format", "json").json()
    assert record["status"] == "hint" and [(c["row"], c["col"], c["value"]) for c in record["cells"]] \
        == [(1, 1, 2)]
    done = write("6 8\n2 4 8\n3 2 6\n", "done.txt")
    record = cli("hint", done, "--format", "json").json()
    assert record.pop("seconds") >= 0
    assert record == {"family": "crossproduct", "status": "solved", "cells": []}
    none = write("8 8 1\n? ? ? 8\n? ? ? 8\n? ? ? 1\n", "none.txt")  # four solutions
    record = cli("hint", none, "--format", "json").json()
    assert record["status"] == "hint" and {(c["row"], c["col"]) for c in record["cells"]} <= {
        (0, 2), (1, 2), (2, 0), (2, 1), (2, 2)}
    free = write("+1 +1 #1\n", "free.txt")
    assert cli("hint", free, "--format", "json").json()["status"] == "stuck"
    bad = write("6 8\n? ? 7\n? ? 8\n", "bad.txt")
    record = cli("hint", bad, "--format", "json").json()
    assert record["status"] == "unsolvable" and (record.get("conflict") or record["blame"])


def test_crosscells_cells_decided_in_the_layout():
    puzzle = crossprolog.parse("+1 +2 +3 =3\n")
    assert len(solutions(puzzle)) == 2
    decided = crossprolog.parse("+1! +2 +3 =3\n")
    assert solutions(decided) == {((1, 1, 0),)} and decided.solve().values == ((1, 1, 0),)
    assert crossprolog.parse("+1~ +2 +3 =3\n").solve().values == ((0, 0, 1),)
    assert crossprolog.parse(decided.render()) == decided


def test_hint_bad_input_and_timeouts_behave_as_solve(cli, write):
    run = cli("hint", write("6 8\n? a 6\n"))
    assert run.code == 2 and ":2:3: error:" in run.err
    big = write("\n".join([" ".join(["5040"] * 12)] + [" ".join(["?"] * 12 + ["5040"])] * 12))
    run = cli("hint", big, "--timeout", "0.5", "--format", "json")
    assert run.code == 3 and run.json()["status"] == "timeout"


# 3. Why not unique


def test_check_draws_two_solutions_marks_differences_and_suggests_a_given(cli, write):
    path = write("8 8 1\n? ? ? 8\n? ? ? 8\n? ? ? 1\n")
    record = cli("check", path, "--format", "json").json()
    first, second = record["solutions"]
    every = {tuple(tuple(dict(s)[r, c] for c in range(3)) for r in range(3))
             for s in solutions(CrossProduct((8, 8, 1), (8, 8, 1)))}
    assert first != second and {tuple(map(tuple, s)) for s in record["solutions"]} <= every
    assert record["difference"] == [[r, c] for r in range(3) for c in range(3)
                                    if first[r][c] != second[r][c]]
    assert record["suggestion"] == "give 1 at row 1, column 1"  # leaves (1 8 1)(8 1 1)(1 1 1) alone
    given = CrossProduct((8, 8, 1), (8, 8, 1), givens=((1, None, None), (None,) * 3, (None,) * 3))
    assert len(solutions(given)) == 1
    (kept,) = solutions(given)
    assert record["solutions"][record["leaves"]] == [[dict(kept)[r, c] for c in range(3)] for r in range(3)]
    text = cli("check", path).out
    assert "in brackets" in text and text.count("[") == 2 * len(record["difference"])


def test_the_suggested_clue_makes_the_puzzle_unique():
    puzzle = crossprolog.parse("+1 +2 +3 =3\n+2 +1 +4 #2\n")
    assert len(solutions(puzzle)) == 2 * 3
    first, second = puzzle.search(limit=2).solutions
    seen = diagnosis.ambiguity(puzzle, first, second)
    assert seen.suggestion and seen.difference
    text, stricter = next((t, p) for t, p in puzzle.additions(seen.solutions[seen.leaves].to_json(),
                                                                seen.difference) if t == seen.suggestion)
    assert len(solutions(stricter)) == 1


@pytest.mark.parametrize("text, count, said", [
    ("      =1   =1\n =1   +1   +1   =1\n =1   +1   +1   =1\n      =1   =1\n", 2,
     "mark +1 at row 1, column 1 ON, and only the first is left"),
    ("18 36 80\n? ? ? 36\n? ? ? 60\n? ? ? 24\n", 11,
     "no one more clue that either of these meets makes the solution unique"),
    ("48 48 48\n? ? ? 48\n? ? ? 24\n? ? ? 96\n", 108,
     "no one more clue that either of these meets makes the solution unique")])
def test_no_clue_is_said_to_make_it_unique_only_when_none_would(cli, write, text, count, said):
    """check said "no one more clue makes the solution unique" of the 11-solution
    CrossProduct, where six givens leave one of the other nine (brute force): it tried
    only the clues the two solutions shown meet.  It says so now, and "no one more
    clue" only of a puzzle with no third solution, where none of the additions
    leaves one: of two solutions, a cell where they differ, given (or for CrossCells
    decided, here where every line is clued at both ends), always does."""
    every = solutions(crossprolog.parse(text))
    assert len(every) == count
    run = cli("check", write(text))
    assert run.code == 1 and run.out.rstrip().endswith(said)


# 4. Why no solution


def mistyped(puzzle: CrossProduct, row: int, factor: int) -> CrossProduct:
    products = list(puzzle.row_products)
    products[row] *= factor
    return CrossProduct(tuple(products), puzzle.column_products)


@pytest.mark.parametrize("puzzle", [
    mistyped(CrossProduct((6, 120, 504), (28, 80, 162)), 1, 2),
    CrossProduct((6, 120, 504), (28, 80, 162 * 11)),
    crossprolog.parse("+1 +2 =4\n+3 +4 =7\n=4 #2\n"),
    crossprolog.parse("+1a +2 =3\n+3a +4 #1\na=5\n=1 =6\n"),
    KenKen(3, crossprolog.parse("a a b\nc d b\nc e e\na 3+\nb 4+\nc 5+\nd 3\ne 3+\n").cages[:-1]
           + (crossprolog.parse("a a b\nc d b\nc e e\na 3+\nb 4+\nc 5+\nd 3\ne 4+\n").cages[-1],)),
], ids=["crossproduct-mistyped", "crossproduct-prime-11", "crosscells", "crosscells-group", "kenken"])
def test_a_conflict_is_unsolvable_alone_and_solvable_without_any_one_of_its_clues(puzzle):
    assert not solutions(puzzle)
    clues = puzzle.conflict(timeout=60)
    assert clues and not solutions(puzzle.keeping(clues))
    for clue in clues:
        assert solutions(puzzle.keeping([c for c in clues if c != clue])), clue.text


def test_a_solvable_puzzle_has_no_conflict():
    assert CrossProduct((6, 120, 504), (28, 80, 162)).conflict() is None


def test_a_mistyped_10x6_product_is_diagnosed_from_the_command_line(cli, write):
    text = (EXAMPLES / "crossproduct" / "notebook-10x6.txt").read_text().replace("40320", "80640")
    run = cli("solve", write(text), "--format", "json")
    record = run.json()
    assert run.code == 1 and record["status"] == "unsolvable"
    assert len(record["conflict"]) == 16  # the rows multiply to twice what the columns do
    drawn = cli("solve", write(text, "again.txt")).out
    assert drawn.startswith("no solution: row 1 (480), row 2 (252)") and "[80640]" in drawn


def test_conflict_items_name_lines_groups_and_givens():
    puzzle = crossprolog.parse("6 8\n2 4 6\n? ? 8\n")  # 2 x 4 is not 6; and column 1 leaves 3 for 8
    items = [c.to_json() for c in puzzle.conflict()]
    assert items in ([{"kind": "row", "index": 0}, {"kind": "given", "row": 0, "col": 1}],
                     [{"kind": "row", "index": 1}, {"kind": "column", "index": 0},
                      {"kind": "given", "row": 0, "col": 0}])
    puzzle = crossprolog.parse("+1a +2 =3\n+3a +4 #1\na=5\n=1 =6\n")
    assert {"kind": "group", "name": "a"} in [c.to_json() for c in puzzle.conflict()]


def test_stats_for_every_family_that_generates(cli):
    run = cli("stats", "crosscells", "--sizes", "3x3", "-n", "20", "--format", "json")
    assert set(json.loads(run.out)["well_formed"]) == {"3x3"}


# Generated puzzles follow the family's rules: CrossCells' rule variants and games


@pytest.mark.parametrize("rules", [{"first_cell": "seeds"}, {"precedence": "standard"},
                                   {"first_cell": "seeds", "precedence": "standard"},
                                   {"game": "sumplete"}, {"game": "number-sums"}],
                         ids=lambda rules: ",".join(f"{k}={v}" for k, v in rules.items()))
def test_crosscells_generated_under_every_rule_and_game_are_well_formed(rules):
    for puzzle in crossprolog.generate("crosscells", 3, 4, 3, seed=2, well_formed=True, **rules):
        assert all(getattr(puzzle, key) == value for key, value in rules.items())
        assert len(solutions(puzzle)) == 1, puzzle
        assert crossprolog.parse(puzzle.render()) == puzzle  # the directives travel with it


def test_generate_takes_the_rules_on_the_command_line_and_refuses_what_it_cannot_make(cli, write):
    run = cli("generate", "crosscells", "--rows", "4", "--cols", "4", "--game", "sumplete", "-n", "2",
              "--seed", "3", "--well-formed")
    assert run.out.startswith("== 1\n# game: sumplete\n")
    assert cli("check", write(run.out)).code == 0
    # generate offers only the rules a family's generator makes: the others are no options
    for refused in (["crossproduct", "--rows", "3", "--cols", "3", "--zero"],
                    ["sudoku", "--maximize", "gcd(rows)"], ["kenken", "--rows", "4", "--cols", "4", "--zero"]):
        with pytest.raises(SystemExit) as exit:
            cli("generate", *refused)
        assert exit.value.code == 2
    assert "--zero" not in cli_help("generate", "crossproduct") and "--game" in cli_help("generate", "crosscells")


def cli_help(*command: str) -> str:
    done = subprocess.run([sys.executable, "-m", "crossprolog", *command, "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    return done.stdout


def test_generate_sudoku_needs_no_size_and_gives_answer_keys(cli):
    run = cli("generate", "sudoku", "--seed", "1", "--with-solutions")
    first, solved = crossprolog.parse_all(run.out)
    assert run.code == 0 and run.out.startswith("== 1\n") and "\n== 1 solved\n" in run.out
    assert solved.count() == 1 and all(all(row) for row in solved.givens)
    assert first.solve().values.grid == tuple(map(tuple, solved.givens))
    record = cli("generate", "kenken", "--rows", "4", "--cols", "4", "--seed", "2",
                 "--with-solutions", "--format", "json").json()
    assert crossprolog.parse(record["puzzle"]).holds(record["solution"])


def test_a_crosscells_maker_names_groups_past_z_as_the_grammar_reads_them():
    """A 15x15 may need more groups than there are lower-case letters: the next is A."""
    cells = [Cell("+", 1, group=letter) for letter in string.ascii_lowercase] + [Cell("+", 1)]
    full = CrossCells.from_table([cells], [None], [None] * len(cells),
                                 groups=[Constraint("#", 1, group=g) for g in string.ascii_lowercase])
    intended, other = [[1] * len(cells)], [[1] * (len(cells) - 1) + [0]]
    made, clue = group_apart(full, intended, other)
    assert clue.name == "A" and made.group_cells("A") == (len(cells) - 1,)
    again = crossprolog.parse(made.render(), family="crosscells")
    assert {g.group: g.text for g in again.groups}["A"] == "A=1"  # a total tells more apart


def test_a_crosscells_maker_s_new_group_tells_apart_by_a_total_and_may_share_a_grouped_cell():
    """The new group is the first differing cell and the block below and to its right,
    with the total the intended solution gives it; when every differing cell is in a
    group already, one of them joins a second group (`+2ab`), which reads back."""
    cells = [[Cell("+", 2, group="a"), Cell("*", 3), Cell("+", 1)], [Cell("+", 4), Cell("+", 5), Cell("+", 1)]]
    full = CrossCells.from_table(cells, [None, None], [None] * 3, groups=[Constraint("#", 1, group="a")])
    intended = [[1, 1, 0], [0, 1, 1]]
    other = [[0, 1, 0], [0, 1, 1]]  # differs only in the grouped cell
    made, clue = group_apart(full, intended, other)
    assert clue.name == "b" and made.group_cells("b") == (0, 1, 2, 3, 4, 5)
    assert {g.group: g.text for g in made.groups}["b"] == "b=" + str(made.groups[-1].value)
    assert made.groups[-1].value != 0
    again = crossprolog.parse(made.render(), family="crosscells")
    assert again.cells[0].group == "ab"
    assert again.holds(sum(intended, [])) and not again.holds(sum(other, []))


def test_a_hint_keeps_the_file_s_comments_and_drops_the_last_step_s_reason(cli, write):
    """A hint loop keeps what the file says of itself, and only the newest reason; in
    markdown the reason is an indented code line, not a heading, and still reads back."""
    path = write("# from the Riddler\n" + (EXAMPLES / "crossproduct" / "riddler-1.txt").read_text())
    first = cli("hint", path).out
    second = cli("hint", write(first, "next.txt")).out
    comments = ["# from the Riddler", "# The Riddler's first CrossProduct: every row and column "
                "multiplies to its product."]
    for out in (first, second):
        lines = out.splitlines()
        assert lines[:2] == comments and lines[2].startswith("# hint - ") and out.count("# hint - ") == 1
    markdown = cli("hint", EXAMPLES / "crossproduct" / "riddler-2.md").out
    assert markdown.startswith("    # hint - ") and "\n# " not in "\n" + markdown
    assert crossprolog.parse(markdown).solve().values == crossprolog.parse(
        (EXAMPLES / "crossproduct" / "riddler-2.md").read_text()).solve().values


def test_a_question_past_its_inferences_gives_the_puzzle_up_and_another_is_drawn(monkeypatch):
    """A 12x12 Kakuro of seed 6 asked one question for minutes: `generate` never ended.
    The bound is in inferences, so the puzzles made are the same on every machine."""
    full = crossprolog.parse((EXAMPLES / "sudoku" / "ai-escargot.txt").read_text())
    grid = full.solve().to_json()
    full = full.placing({(r, c): grid[r][c] for r in range(9) for c in range(9)})
    with searches.Session("sudoku", full.keeping([]).prolog_data()) as session:
        assert session.restricted([], limit=2, inferences=1)["status"] == "timeout"
        assert session.restricted([], limit=1)["status"] == "limit"
    monkeypatch.setattr(making, "QUESTION_INFERENCES", 1)
    assert making.well_formed(full, grid, random.Random(1), shown=full.clues()) is None
    draws = iter([None, None, "made", None, "made again"])
    assert list(making.made_puzzles(lambda: next(draws), 2, "3x3 puzzle")) == ["made", "made again"]
    monkeypatch.undo()
    made = cli_text("generate", "kakuro", "--rows", "12", "--cols", "12", "--well-formed", "--seed", "6")
    assert crossprolog.parse(made).count(limit=2) == 1


def cli_text(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "crossprolog", *args], capture_output=True, text=True,
                          check=True, timeout=120).stdout


def test_a_maker_gives_up_a_puzzle_after_draws_in_a_row_that_made_none(cli, monkeypatch):
    """A 12x12 Sumplete is seldom unique by its totals (one 11x11 in thousands): drawn
    anew without end, `generate` ran on for good, silently.  Now DRAWS draws in a row
    that make none give the puzzle up, saying so (exit 1, as for --difficulty), after
    the puzzles made before; the bound is in draws, the same on every machine."""
    draws = iter(["made", None, "made again", None, None, None])
    made = making.made_puzzles(lambda: next(draws), 3, "3x3 puzzle")
    monkeypatch.setattr(making, "DRAWS", 3)
    assert [next(made), next(made)] == ["made", "made again"]  # a draw that makes one starts anew
    with pytest.raises(making.GaveUp, match="^3 draws in a row made no well-formed 3x3 puzzle; "
                                            "a smaller size makes them more often$"):
        next(made)
    done = cli("generate", "crosscells", "--rows", 12, "--cols", 12, "--game", "sumplete", "--seed", 1,
               "--well-formed")
    assert (done.code, done.out) == (1, "")
    assert done.err == ("crossprolog: gave up after 0 of 1 puzzle: 3 draws in a row made no well-formed "
                        "12x12 Sumplete; a smaller size makes them more often\n")
    with pytest.raises(making.GaveUp):
        list(crossprolog.generate("crosscells", 12, 12, game="sumplete", seed=1, well_formed=True))
    monkeypatch.undo()
    [made] = crossprolog.generate("crosscells", 6, 6, game="sumplete", seed=1, well_formed=True)
    assert made.count(limit=2) == 1


def test_generate_refuses_rules_its_game_cannot_follow_as_reading_does_before_any_work(cli, write, tmp_path):
    """`--game sumplete --first-cell seeds` made a Sumplete that did not read back in;
    the rule is stated once (crosscells.unfit_rules), for reading and for making."""
    said = "sumplete adds its numbers: the first-cell rule 'seeds' does not apply"
    read = cli("check", write("# game: sumplete\n 3  2  5\n 8 -4  4\n11 -2\n"), "--first-cell", "seeds")
    assert read.code == 2 and said in read.err
    out = tmp_path / "made.txt"
    out.write_text("an earlier run's\n")
    for jobs in (1, 2):
        made = cli("generate", "crosscells", "--rows", 3, "--cols", 3, "--game", "sumplete", "--first-cell",
                   "seeds", "--precedence", "standard", "--well-formed", "-n", 20, "--jobs", jobs, "--out", out)
        assert (made.code, made.out, made.err) == (2, "", f"crossprolog: error: {said}\n")
    assert out.read_text() == "an earlier run's\n" and list(tmp_path.glob("*.partial")) == []
    with pytest.raises(crossprolog.UsageError, match="number-sums adds its numbers"):
        next(crossprolog.generate("crosscells", 3, 3, game="number-sums", first_cell="seeds"))
    standard = cli("generate", "crosscells", "--rows", 3, "--cols", 3, "--game", "sumplete",
                   "--precedence", "standard", "--seed", 1)  # every cell adds: no rule to break
    assert standard.code == 0 and crossprolog.parse(standard.out).game == "sumplete"


def test_paper_is_a_pdf_book_s_and_refused_for_another_format(cli):
    said = "--paper letter is the paper of a PDF book: it takes --format pdf"
    for format in ("text", "markdown", "svg", "html"):
        done = cli("generate", "sudoku", "--seed", 1, "--format", format, "--paper", "letter")
        assert (done.code, done.out, done.err) == (2, "", f"crossprolog: error: {said}\n")
    done = cli("generate", "sudoku", "--seed", 1, "--format", "json", "--paper", "letter")
    assert done.code == 2 and done.json() == {"status": "error", "error": said}


def test_what_generate_writes_reads_back_however_many_puzzles_it_holds(cli, tmp_path):
    """200 30x30 CrossCells print 1.2 M characters, and reading them back refused them:
    a text was held to the 1,000,000 characters of one puzzle.  Now each puzzle is, and
    a text of several to 4,000,000, which generate stops short of, saying so."""
    from crossprolog.registry import read_pieces

    out = tmp_path / "made.txt"
    done = cli("generate", "crosscells", "--rows", 30, "--cols", 30, "-n", 200, "--seed", 1, "--out", out)
    assert done.code == 0 and len(out.read_text()) > 1_000_000
    read = read_pieces(out.read_text())
    assert len(read) == 200 and all(puzzle is not None for _, puzzle in read)  # in one pass still
    done = cli("generate", "crossproduct", "--rows", 100, "--cols", 100, "-n", 8, "--seed", 1, "--out", out)
    assert done.code == 3 and done.err == (
        "crossprolog: stopped after 6 of 8 puzzles: with the next, the text would pass the 4,000,000 "
        "characters a text of puzzles may have to read back in; make the others in another run, of "
        f"another --seed; they are in {out}\n")
    assert 3_000_000 < len(out.read_text()) <= 4_000_000 and len(crossprolog.parse_all(out.read_text())) == 6
    counted = cli("count", out, "--format", "json", "--timeout", 0.05)  # the command line reads them too
    assert [record["status"] != "error" for record in counted.jsonl()] == [True] * 6


def test_a_text_of_puzzles_is_held_to_its_limit_and_each_puzzle_to_its_own():
    small = "== small\n6 8\n? ? 6\n? ? 8\n"
    big = "== big\n" + "7\n" + "? 7\n" * 260_000  # 1,040,000 characters
    with pytest.raises(crossprolog.ParseError, match="this puzzle has 1,040,00[0-9] characters; puzzles "
                                                     "are limited to 1,000,000") as caught:
        crossprolog.parse_all(small + big)
    assert (caught.value.line, caught.value.column) == (5, 1)
    assert len(crossprolog.parse_all(small + big.replace("? 7\n" * 20_000, "", 1))) == 2
    with pytest.raises(crossprolog.ParseError, match="a text of several puzzles is limited to 4,000,000"):
        crossprolog.parse_all(small * 170_000)
