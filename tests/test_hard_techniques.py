"""The techniques past the subsets (hard_techniques.py) and those trying a candidate (forcing.py).

Each pattern is built as pencil marks on an empty 9x9 Sudoku, as the strategy
pages of SudokuWiki (Andrew Stuart: "X-Wing"/"Swordfish"/"Jellyfish", "Y-Wing",
"XYZ-Wing", "W-Wing", "X-Chains", "XY-Chains", "Unique Rectangles", "Nishio
Forcing Chains") and HoDoKu's "Single Digit Patterns" (skyscraper, 2-string
kite) draw them: a few cells or one digit's places restricted, every other cell
open to every digit, so that the technique is the easiest step the ladder
finds.  The forcing chains are checked on the hard classics of examples/sudoku,
where nothing easier applies, against their solutions.
"""

from __future__ import annotations

import pytest

import crossprolog
from crossprolog import forcing, hard_techniques, solving, techniques

from conftest import EXAMPLES

ROWS = [tuple(9 * r + c for c in range(9)) for r in range(9)]
COLUMNS = [tuple(9 * r + c for r in range(9)) for c in range(9)]
BOXES = [tuple(9 * (3 * br + r) + 3 * bc + c for r in range(3) for c in range(3))
         for br in range(3) for bc in range(3)]


def cell(name: str) -> int:
    """`r2c3` as its index."""
    return 9 * (int(name[1]) - 1) + int(name[3]) - 1


def sudoku(cands: dict[str, str] = {}, only: dict[tuple[int, str], tuple[str, ...]] = {},
           unique: bool = False) -> techniques.Marks:
    """Pencil marks on an empty 9x9 Sudoku: `cands` gives cells their digits ("r5c5": "12");
    `only` keeps a digit in a row or column to the cells listed ((1, "r3"): ("r3c1", "r3c5"))."""
    places = tuple((r, c) for r in range(9) for c in range(9))
    statement = techniques.Statement(places, tuple(map(solving.short, places)), tuple(range(1, 10)),
                                     tuple(solving.named_units(places, ROWS + COLUMNS + BOXES)), (), {},
                                     unique=unique)
    marks = techniques.Marks(statement)
    for name, digits in cands.items():
        marks.cands[cell(name)] = set(map(int, digits))
    for (digit, line), keep in only.items():
        for i in (ROWS if line[0] == "r" else COLUMNS)[int(line[1:]) - 1]:
            if statement.names[i] not in keep:
                marks.cands[i].discard(digit)
    return marks


def easiest(marks: techniques.Marks) -> techniques.Step:
    """The step the ladder gives first: the technique must be the easiest that applies."""
    return solving.chosen(solving.next_steps(marks))


def removed(step: techniques.Step) -> set[tuple[str, int]]:
    return {(f"r{i // 9 + 1}c{i % 9 + 1}", d) for i, d in step.removed}


def test_swordfish_is_a_fish_of_three_rows():
    marks = sudoku(only={(1, "r1"): ("r1c1", "r1c5"), (1, "r5"): ("r5c5", "r5c9"), (1, "r9"): ("r9c1", "r9c9")})
    step = easiest(marks)
    assert (step.technique, step.place, step.rating) == ("swordfish", "row 1 and row 5 and row 9", 3.8)
    assert removed(step) == {(f"r{r}c{c}", 1) for r in (2, 3, 4, 6, 7, 8) for c in (1, 5, 9)}


def test_jellyfish_is_a_fish_of_four_rows_with_no_smaller_one_inside():
    marks = sudoku(only={(1, "r1"): ("r1c1", "r1c4"), (1, "r4"): ("r4c4", "r4c7"), (1, "r7"): ("r7c7", "r7c2"),
                         (1, "r8"): ("r8c1", "r8c2", "r8c4")})
    step = easiest(marks)
    assert step.technique == "jellyfish" and step.rating == 5.2
    assert removed(step) == {(f"r{r}c{c}", 1) for r in (2, 3, 5, 6, 9) for c in (1, 2, 4, 7)}


def test_skyscraper():
    marks = sudoku(only={(1, "r3"): ("r3c1", "r3c5"), (1, "r7"): ("r7c1", "r7c6")})
    step = easiest(marks)
    assert (step.technique, step.place) == ("skyscraper", "row 3 and row 7")
    assert removed(step) == {("r1c6", 1), ("r2c6", 1), ("r8c5", 1), ("r9c5", 1)}


def test_two_string_kite():
    marks = sudoku(only={(1, "r1"): ("r1c2", "r1c7"), (1, "c1"): ("r3c1", "r7c1")})
    step = easiest(marks)
    assert (step.technique, step.place) == ("2-string kite", "row 1 and column 1")
    assert removed(step) == {("r7c7", 1)}


def test_xy_wing():
    step = easiest(sudoku({"r5c5": "12", "r5c1": "13", "r1c5": "23"}))
    assert (step.technique, step.place, step.rating) == ("XY-wing", "r5c5", 4.2)
    assert removed(step) == {("r1c1", 3)}


def test_xyz_wing():
    step = easiest(sudoku({"r5c5": "123", "r5c4": "13", "r1c5": "23"}))
    assert (step.technique, step.place) == ("XYZ-wing", "r5c5")
    assert removed(step) == {("r4c5", 3), ("r6c5", 3)}


def test_w_wing():
    step = easiest(sudoku({"r1c1": "12", "r5c9": "12"}, only={(1, "c5"): ("r1c5", "r5c5")}))
    assert (step.technique, step.place) == ("W-wing", "r1c1 and r5c9")
    assert removed(step) == {("r1c9", 2), ("r5c1", 2)}


def test_x_chain_of_three_strong_links():
    marks = sudoku(only={(1, "r1"): ("r1c1", "r1c5"), (1, "r4"): ("r4c5", "r4c8"), (1, "r7"): ("r7c8", "r7c2")})
    step = easiest(marks)
    assert step.technique == "X-chain" and "r1c1 = r1c5 - r4c5 = r4c8 - r7c8 = r7c2" in step.text
    assert removed(step) == {("r2c2", 1), ("r3c2", 1), ("r8c1", 1), ("r9c1", 1)}


def test_xy_chain_of_four_cells():
    step = easiest(sudoku({"r1c1": "12", "r1c5": "23", "r5c5": "34", "r5c9": "41"}))
    assert step.technique == "XY-chain" and "r1c1 - r1c5 - r5c5 - r5c9" in step.text
    assert removed(step) == {("r1c9", 1), ("r5c1", 1)}


def test_unique_rectangle_only_when_the_puzzle_is_known_unique():
    cands = {"r1c1": "12", "r1c4": "12", "r2c1": "12", "r2c4": "123"}
    (step,) = hard_techniques.unique_rectangles(sudoku(cands, unique=True))
    assert step.technique == "unique rectangle" and removed(step) == {("r2c4", 1), ("r2c4", 2)}
    assert not list(hard_techniques.unique_rectangles(sudoku(cands)))
    # in four boxes, the two digits could not swap alone: no rectangle
    assert not list(hard_techniques.unique_rectangles(
        sudoku({"r1c1": "12", "r1c4": "12", "r4c1": "12", "r4c4": "123"}, unique=True)))


def classic(name: str):
    puzzle = crossprolog.parse((EXAMPLES / "sudoku" / f"{name}.txt").read_text())
    statement = puzzle.statement()
    grid = puzzle.solve().to_json()
    return statement, {i: grid[r][c] for i, (r, c) in enumerate(statement.places)}


def test_nishio_is_the_first_step_of_tarek_052():
    """Nothing on the ladder applies to Tarek 052 as given; 1 at r6c4 empties a unit by singles."""
    statement, solution = classic("tarek-052")
    marks = techniques.Marks(statement)
    assert solving.next_steps(marks) == []
    step = solving.trying(marks)
    assert step.technique == "Nishio forcing chain" and step.removed == ((statement.names.index("r6c4"), 1),)
    assert "if r6c4 were 1, singles alone would follow until" in step.text
    assert all(solution[i] != d for i, d in step.removed)


def test_nishio_plus_follows_locked_candidates_in_inkala_2012():
    """Inkala 2012 as given: no trial breaks by singles alone, nor agrees on a cell; with locked
    candidates and pairs followed too, one does."""
    statement, solution = classic("inkala-2012")
    marks = techniques.Marks(statement)
    assert not list(forcing.nishio()(marks)) and not list(forcing.forcing_chains()(marks))
    step = solving.trying(marks)
    assert step.technique == "Nishio forcing chain (+)" and step.rating == forcing.NISHIO_PLUS
    assert all(solution[i] != d for i, d in step.removed)


def test_a_cell_forcing_chain_places_what_every_candidate_leads_to():
    """On Tarek 052's path, where a cell's every candidate leads by singles to one digit elsewhere."""
    statement, solution = classic("tarek-052")
    marks = techniques.Marks(statement)
    for _ in range(200):
        chains = list(forcing.forcing_chains()(marks))
        if chains:
            break
        found = solving.next_steps(marks)
        step = solving.chosen(found) if found else solving.trying(marks)
        if step is None:
            i = min((i for i in solution if i not in marks.values), key=lambda i: len(marks.cands[i]))
            step = techniques.Step("search", 9.0, "", "", (i,), placed=(i, solution[i]))
        marks.apply(step)
    (chain,) = chains
    assert chain.technique in ("cell forcing chain", "unit forcing chain") and chain.rating == forcing.FORCING
    i, d = chain.placed
    assert solution[i] == d and i not in chain.cells[:-1]


@pytest.mark.parametrize("name", ["ai-escargot", "platinum-blonde"])
def test_the_hard_classics_paths_agree_with_their_solutions_and_use_the_new_techniques(name):
    statement, solution = classic(name)
    found, done = solving.path(statement, lambda: solution)
    assert done
    for step in found:
        assert step.placed is None or solution[step.placed[0]] == step.placed[1], step
        assert all(solution[i] != d for i, d in step.removed), step
    used = {step.technique for step in found}
    assert "Nishio forcing chain" in used and used & {"XY-wing", "XY-chain", "swordfish", "skyscraper"}
