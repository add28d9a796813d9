"""Random CrossCells puzzles (and Sumplete and Number Sums ones), and well-formed
ones made by showing constraints, and groups that tell two solutions apart,
until one solution is left."""

from __future__ import annotations

import random
import string
from dataclasses import replace
from typing import Iterator

from .. import making
from ..answers import Clue
from ..drawing import aligned
from ..errors import UsageError
from ..puzzle import unchecked_change
from ..regions import joined, random_partition
from .model import CrossCells
from .rules import COUNT, NUMBER_SUMS, OPERATORS, TOTAL, Cell, Constraint, unfit_rules, value_of


Rules = dict  # the options of a puzzle: game, first_cell, precedence (by model keyword)


LARGEST = 200  # rows and columns a generated puzzle has at most: a 200x200 prints
               # 0.7 M characters, a 250x250 more than the readers take (MAX_TEXT_CHARS)


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None,
                   **rules: str) -> Iterator[CrossCells]:
    """`n` random rows × cols puzzles, every row and column constrained, under
    `rules` (game, first_cell, precedence; the defaults when left out).

    Each puzzle is made from a random table of operations (of numbers, for
    Sumplete and Number Sums) and a random on/off table; each line is then
    given the total or the count that the table gives it (a Sumplete or
    Number Sums line, and region, its total).  Deterministic for a given seed.
    """
    checked(rows, cols, rules)
    rng = random.Random(seed)
    for _ in range(n):
        yield random_solved(rows, cols, rng, **rules)[0]


def well_formed_puzzles(rows: int, cols: int, n: int, seed: int | None = None,
                        **rules: str) -> Iterator[CrossCells]:
    """`n` puzzles with exactly one solution: from a random table and a random choice
    of ON cells, line constraints shown (and groups made where lines cannot tell
    two solutions apart) until the solution is unique, then every constraint not
    needed hidden (`making.well_formed`).  Sumplete and Number Sums show every
    line's and region's total, as the games do: such a puzzle is drawn anew
    until its solution is unique."""
    checked(rows, cols, rules)
    rng = random.Random(seed)

    def drawn() -> CrossCells | None:
        full, on = random_solved(rows, cols, rng, **rules)
        if full.game != "crosscells":
            return None if making.other_solutions(full, on) else full
        return making.well_formed(full, on, rng, new_clue=group_apart)

    yield from making.made_puzzles(drawn, n, f"{rows}x{cols} {GAME_TITLES[rules.get('game', 'crosscells')]}")


def checked(rows: int, cols: int, rules: Rules) -> None:
    """UsageError unless the generators can make such puzzles: of a size whose text
    reads back in, under rules a game can follow (as reading its text asks)."""
    making.checked_size("CrossCells", rows, cols, 1, LARGEST, " (its text must read back in)")
    if why := unfit_rules(rules.get("game", "crosscells"), rules.get("first_cell", "zero")):
        raise UsageError(why)


GAME_TITLES = {"crosscells": "CrossCells", "sumplete": "Sumplete", NUMBER_SUMS: "Number Sums"}
GROUP_LETTERS = string.ascii_letters  # a to z, then A to Z: the letters the grammar reads as groups


def group_apart(full: CrossCells, intended: list, other: list) -> tuple[CrossCells, Clue] | None:
    """`full` with a new group that `other` breaks and `intended` keeps: the first cell
    where they differ (in reading order, one in no group yet first) with up to five
    cells of the block below and to its right (GROUP_BLOCK), and the total (or else
    the count) `intended` gives them; None when no letter is left.

    A total of six cells tells far more solutions apart than a count of three: on
    15x15 the groups needed fell from about 50 (more than there are letters, so
    three draws in four were thrown away) to about 25.  A cell may join a second
    group, as the game allows (`*2ab`), when every cell where the two differ has one."""
    table = [[full.cells[i] for i in row.cells] for row in full.rows]
    inside = {(r, c) for r, row in enumerate(table) for c in range(len(row))}
    apart = sorted((cell for cell in inside if intended[cell[0]][cell[1]] != other[cell[0]][cell[1]]),
                   key=lambda cell: (bool(table[cell[0]][cell[1]].group), cell))
    used = {letter for row in table for cell in row for letter in cell.group}
    letters = [letter for letter in GROUP_LETTERS if letter not in used]
    if not apart or not letters:
        return None
    r, c = apart[0]
    block = [(r + i, c + j) for i, j in GROUP_BLOCK if (r + i, c + j) in inside]
    for members in (block[:GROUP_SIZE], [(r, c)]):
        constraint = telling_apart(members, table, intended, other, full)
        if constraint:
            break
    letter = letters[0]
    group = replace(constraint, group=letter, text="")
    grouped = [[replace(cell, group=cell.group + letter, text="") if (i, j) in members else cell
                for j, cell in enumerate(row)] for i, row in enumerate(table)]  # from_table places them
    made = CrossCells.from_table(grouped, [row.tail for row in full.rows],
                                 [column.tail for column in full.columns_left_to_right()],
                                 full.first_cell, [*full.groups, group])
    return unchecked_change(made, precedence=full.precedence), Clue("group", "", name=letter)


# A new group's cells: its first, then the nearest below and to the right, at most GROUP_SIZE.
GROUP_BLOCK = [(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (1, 2), (2, 0), (2, 1)]
GROUP_SIZE = 6


def telling_apart(members: list[tuple[int, int]], table, intended: list, other: list,
                  rules: CrossCells) -> Constraint | None:
    """The total (under the `rules` of that puzzle), or else the count, of `members`
    (in reading order) that `intended` gives and `other` does not."""
    def ons(grid: list) -> list[Cell]:
        return [table[r][c] for r, c in sorted(members) if grid[r][c]]

    def total(cells: list[Cell]) -> int | None:
        return value_of(cells, rules.first_cell, rules.precedence)

    for kind, measure in ((TOTAL, total), (COUNT, len)):
        mine, theirs = measure(ons(intended)), measure(ons(other))
        if mine is not None and mine != theirs:
            return Constraint(kind, mine)
    return None


def random_puzzle(height: int, width: int, rng: random.Random) -> CrossCells:
    return random_solved(height, width, rng)[0]


def random_solved(height: int, width: int, rng: random.Random, game: str = "crosscells",
                  first_cell: str = "zero", precedence: str = "left-to-right"
                  ) -> tuple[CrossCells, list[list[int]]]:
    """A random puzzle with every line constrained, and the on/off table it was made
    from (one of its solutions, 1 for on)."""
    if game != "crosscells":
        return random_sums(height, width, rng, game)
    table = [[random_cell(rng) for _ in range(width)] for _ in range(height)]
    on = [[rng.random() < 0.5 for _ in range(width)] for _ in range(height)]
    row_kinds = [rng.choice((TOTAL, COUNT)) for _ in range(height)]
    column_kinds = [rng.choice((TOTAL, COUNT)) for _ in range(width)]
    rows = [[(r, c) for c in range(width)] for r in range(height)]
    columns = [[(r, c) for r in range(height)] for c in range(width)]
    totals = [line for line, kind in zip(rows + columns, row_kinds + column_kinds) if kind == TOTAL]
    _switch_off_inexact_divisions(table, on, totals)

    def constraint(line: list[tuple[int, int]], kind: str) -> Constraint:
        on_cells = [table[r][c] for r, c in line if on[r][c]]
        total = value_of(on_cells, first_cell, precedence)
        if kind == COUNT or total is None:  # no total where these rules divide inexactly
            return Constraint(COUNT, len(on_cells))
        return Constraint(TOTAL, total)

    puzzle = CrossCells.from_table(table, [constraint(row, k) for row, k in zip(rows, row_kinds)],
                                   [constraint(col, k) for col, k in zip(columns, column_kinds)],
                                   first_cell)
    return replace(puzzle, precedence=precedence), [[int(on_cell) for on_cell in row] for row in on]


# Sumplete: numbers 1-9, a few of them negative; Number Sums adds regions of two to five,
# joined into larger ones past the 52 a letter each can name (past 12x12 or so).
NEGATIVE_SHARE = 0.1
REGION_SIZES = {2: 2, 3: 3, 4: 3, 5: 2}


def random_sums(height: int, width: int, rng: random.Random,
                game: str) -> tuple[CrossCells, list[list[int]]]:
    """A random Sumplete or Number Sums puzzle and its kept/deleted table (1 kept):
    written as the game shows it, and read by the grammar, which owns that layout."""
    from ..registry import parse  # the registry imports this module: import it late

    numbers = [[rng.randint(1, 9) * (-1 if rng.random() < NEGATIVE_SHARE else 1)
                for _ in range(width)] for _ in range(height)]
    kept = [[int(rng.random() < 0.5) for _ in range(width)] for _ in range(height)]
    regions = (joined(random_partition(height, width, REGION_SIZES, rng), len(GROUP_LETTERS))
               if game == NUMBER_SUMS else [])
    letter = {place: GROUP_LETTERS[k] for k, region in enumerate(regions) for place in region}

    def total(places) -> int:
        return sum(numbers[r][c] for r, c in places if kept[r][c])

    rows = [[f"{numbers[r][c]}{letter.get((r, c), '')}" for c in range(width)]
            + [str(total((r, c) for c in range(width)))] for r in range(height)]
    columns = [str(total((r, c) for r in range(height))) for c in range(width)]
    targets = [" ".join(f"{GROUP_LETTERS[k]}={total(region)}" for k, region in enumerate(regions))]
    text = "\n".join([f"# game: {game}"] + aligned(rows + [columns]) + targets[:bool(regions)])
    return parse(text), kept


def random_cell(rng: random.Random) -> Cell:
    """A cell of an operator the generator deals, by the weights of the table."""
    dealt = [operator for operator in OPERATORS.values() if operator.weight]
    [operator] = rng.choices(dealt, weights=[operator.weight for operator in dealt])
    return Cell(operator.symbol, rng.choice(operator.numbers))


def _switch_off_inexact_divisions(table, on, totals) -> None:
    """Switch off ON division cells that a total line meets with a value they
    do not divide, one at a time, until there are none."""
    while inexact := next(filter(None, (_inexact_division(table, on, line) for line in totals)), None):
        r, c = inexact
        on[r][c] = False


def _inexact_division(table, on, line) -> tuple[int, int] | None:
    """The first ON division cell of `line` that does not divide the value it meets, if any."""
    value = 0
    for r, c in line:
        if on[r][c]:
            value = table[r][c].applied(value)
            if value is None:
                return r, c
    return None
