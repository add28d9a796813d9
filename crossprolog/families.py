"""The puzzle families crossprolog knows: one record each, as data.

Adding a family: its grammar module (grammars/), its model module
(crossprolog/), its Prolog module (prolog/), and one record here.  The
command line, the engine and the API read everything else from the record;
crossprolog.registry reads texts into puzzles with it.  This module imports
no model: a record names its modules, found on first use.
"""

from __future__ import annotations

from .errors import UsageError
from .family import Family, Imported, Option

# A record names its modules' functions and values (Imported), not imports them: a
# command loads only the families it reads.  Choices are spelt here, as the model
# modules spell them (tests/test_families.py holds them equal).
FAMILIES: tuple[Family, ...] = (
    Family(
        name="crossproduct", title="CrossProduct", model_name="CrossProduct", prolog="crossproduct",
        summary="fill digits 1-9 so every row and column multiplies to its product",
        options=(Option("zero", "digits run 0-9 instead of 1-9", default=False, flag=True),),
        generator_name="random_puzzles", well_formed_name="well_formed_puzzles",
        sizes=((3, 3), (3, 4), (4, 3), (3, 5), (5, 3), (4, 4), (6, 3)),
        reasoning="primes"),
    Family(
        name="crosscells", title="CrossCells", model_name="CrossCells", prolog="crosscells",
        summary="switch operation cells on or off so every line's total or count matches",
        options=(Option("game", "the game and its layout: CrossCells' operation cells, or "
                        "Sumplete's or Number Sums' numbers to keep or delete", default="crosscells",
                        choices=("crosscells", "sumplete", "number-sums")),
                 Option("first-cell", "a line's value starts at 0 (zero), or its first ON cell "
                        "sets it to its number (seeds)", default="zero",
                        choices=("zero", "seeds")),
                 Option("precedence", "a line's operations apply one after another "
                        "(left-to-right), or * and / before + and - (standard)",
                        default="left-to-right", choices=("left-to-right", "standard"))),
        generator_name="random_puzzles", well_formed_name="well_formed_puzzles",
        sizes=((4, 4), (5, 5), (6, 6)), reasoning="restarts",
        generated_options=("game", "first-cell", "precedence")),
    Family(
        name="sudoku", title="Sudoku", model_name="Sudoku", prolog="sudoku",
        summary="every row, column and box holds the same nine digits; maybe a GCD to maximize",
        suffixes=(".sdk", ".sdm"),
        options=(Option("digits", "the digits in use: 1-9, or a range of ten such as "
                        "'0-9 choose 9'", default=Imported("sudoku", "CLASSIC"),
                        read=Imported("grammars.sudoku", "read_digit_set")),
                 Option("maximize", "an objective: gcd(rows) or gcd(cols)", default=None,
                        read=Imported("grammars.sudoku", "read_objective"), key="objective")),
        generator_name="random_puzzles", well_formed_name="well_formed_puzzles", sizes=((9, 9),),
        reasoning="cardinality"),
    Family(
        name="kenken", title="KenKen", model_name="KenKen", prolog="kenken",
        summary="1..N once per row and column; each cage's digits make its target",
        generator_name="random_puzzles", well_formed_name="well_formed_puzzles",
        sizes=((4, 4), (5, 5), (6, 6)), reasoning="tables"),
    Family(
        name="killer_sudoku", title="Killer Sudoku", model_name="KillerSudoku", prolog="killer_sudoku",
        summary="a Sudoku (4x4, 6x6, 9x9) cut into cages of different digits adding up to their sums",
        options=(Option("game", "the game: a Killer Sudoku", choices=("killer-sudoku",)),),
        generator_name="random_puzzles", well_formed_name="well_formed_puzzles",
        sizes=((4, 4), (6, 6)), reasoning="tables"),
    Family(
        name="kakuro", title="Kakuro", model_name="Kakuro", prolog="kakuro",
        summary="digits 1-9 in the white cells; every run's digits differ and add up to its clue",
        generator_name="random_puzzles", well_formed_name="well_formed_puzzles",
        sizes=((5, 5), (7, 7)), reasoning="tables"),
)

BY_NAME = {family.name: family for family in FAMILIES}


def named(name: str) -> Family:
    """The family called `name`; UsageError naming the choices otherwise."""
    if name not in BY_NAME:
        raise UsageError(f"unknown family {name!r}; choose from {', '.join(BY_NAME)}")
    return BY_NAME[name]


