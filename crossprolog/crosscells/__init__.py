"""CrossCells: switch cells on or off so that every constrained line adds up.

Each cell holds an operation (`+3`, `*2`, `-1`, `/2`) and maybe the letters
of the groups it belongs to (`*2a`, `*2ab`).  A line's value starts at 0 and
every ON cell applies its operation to it, in the order the line is read;
OFF cells are skipped.  A total (`=24`) fixes that value, a count (`#1`) the
number of ON cells.  Rows, columns and groups (cells sharing a letter) carry
constraints.  Variants of the rules are options of the puzzle: the first ON
cell may seed the value with its number (`first_cell="seeds"`), and `*` and
`/` may bind tighter than `+` and `-` (`precedence="standard"`).  Sumplete
and Number Sums are CrossCells games whose cells all add (`game`).

What an operator is and does is one row of OPERATORS: the grammar, the
model and the generator all read it there (and prolog/crosscells_rules.pl has the
one table of its own, operator/6).

The model keeps what the puzzle means (cells, the rows and columns they form,
the constraints) apart from how it was drawn (where each token stood), so a
solution is drawn in the layout the puzzle came in, and two drawings of the
same puzzle compare equal.

The package is split by job: `rules` (the operator table and the tokens),
`model` (the puzzle), `drawing` (how it is drawn) and `generators` (random and
well-formed puzzles).  Everything is importable from here.
"""


from .drawing import PLACEHOLDERS, anchored, drawn
from .generators import (GROUP_LETTERS, group_apart, random_puzzle, random_puzzles, random_solved,
                         telling_apart, well_formed_puzzles)
from .model import CrossCells
from .rules import (COUNT, DECIDED, FIRST_CELL_RULES, GAMES, NUMBER_SUMS, OPERATORS, PRECEDENCES,
                    PRODUCT, SUM, SUMPLETE, TOTAL, Cell, Constraint, Line, OnOff, Ons, Operator,
                    Place, Reading, drawn_at, ends, exact_division, unfit_rules, unmarked, value_of)

__all__ = ["PLACEHOLDERS", "anchored", "drawn", "GROUP_LETTERS", "group_apart", "random_puzzle",
           "random_puzzles", "random_solved", "telling_apart", "well_formed_puzzles", "CrossCells",
           "COUNT", "DECIDED", "FIRST_CELL_RULES", "GAMES", "NUMBER_SUMS", "OPERATORS",
           "PRECEDENCES", "PRODUCT", "SUM", "SUMPLETE", "TOTAL", "Cell", "Constraint", "Line",
           "OnOff", "Ons", "Operator", "Place", "Reading", "drawn_at", "ends", "exact_division", "unfit_rules", "unmarked",
           "value_of"]
