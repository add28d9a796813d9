:- module(killer_sudoku,
          [ encodings/1,        % -Names
            model/4,            % +Encoding, +Puzzle, -Rows, -Labeling
            constraints/4,      % +Puzzle, -Rows, -Named, -Goals
            killer_sudoku/3     % +Puzzle, -Rows, -Rules
          ]).
/** <module> Killer Sudoku: a Sudoku (every row, column and box holds 1..N
once) cut into cages, each cage's digits different and adding up to its sum.

A puzzle arrives from Python as a dict

    _{size: N, box: [Height, Width], cages: [_{cells: [[Row, Column], ...],
      sum: S}, ...], givens: [[Row, Column, Digit], ...]}

with 0-based rows and columns: an NxN grid (4, 6 or 9) of Height x Width
boxes.  The solution is the grid, a list of rows.

The rules are stated once, by killer_sudoku/3, in the grid kernel's terms
(grid.pl): Sudoku's units (rows, columns, boxes: all_distinct) and, per
cage, all_distinct and sum.  A cage is a unit, so the kernel's sum tables
never repeat a digit in it.  Each encoding reads that statement its own
way:

  - candidates (the default): the kernel's search (naked and hidden
    singles, each sum a table of its fillings kept arc consistent, or of
    its sets of digits for four cells or more, the digits a cage must put
    in a row, column or box leaving its other cells, and at 9x9 the sums
    of three cells or fewer that a unit's 45 implies: innies and outies,
    which 4x4 and 6x6 grids settle as well without, grid:sums_pay/1),
    fewest candidates per weight first (dom/wdeg).
  - tables: CLP(FD), the units all_distinct, each sum a table constraint
    over its fillings (past ten thousand, a linear equation); first-fail
    labeling.
  - arithmetic: CLP(FD), the units all_distinct, each sum a linear
    equation (bounds only); first-fail labeling.

constraints/4 gives the same statement as CLP(FD) goals, for an exported
program (export --readable).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(grid).

encodings([candidates, tables, arithmetic]).

%!  killer_sudoku(+Puzzle, -Rows, -Rules) is det.
%
%   Rows is the grid of cell variables of Puzzle; Rules its rules: the
%   digits given, every row, column and box all different, every cage
%   all different and adding up to its sum.
killer_sudoku(Puzzle, Rows, Rules) :-
    _{size: N, box: [Height, Width], cages: Cages, givens: Givens} :< Puzzle,
    grid_rows(N, N, Rows),
    transpose(Rows, Columns),
    grid_blocks(Rows, Height, Width, Boxes),
    append([Rows, Columns, Boxes], Units),
    maplist(given_rule(Rows), Givens, GivenRules),
    maplist(distinct_rule, Units, UnitRules),
    foldl(cage_rules(Rows), Cages, CageRules, []),
    append([GivenRules, UnitRules, CageRules], Rules).

%   A cage: its cells all different, adding up to its sum.
cage_rules(Rows, Cage, [all_distinct(Cells), sum(Cells, Sum)|Rules], Rules) :-
    _{cells: Places, sum: Sum} :< Cage,
    maplist(cell_at(Rows), Places, Cells).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   killer_sudoku/3's statement searched as Encoding says (grid:grid_model/5).
model(Encoding, Puzzle, Rows, Labeling) :-
    killer_sudoku(Puzzle, Rows, Rules),
    grid_model(Encoding, Rows, Rules, 1-Puzzle.size, Labeling).

%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   killer_sudoku/3's statement as export --readable writes it (grid:grid_constraints/4).
constraints(Puzzle, Rows, [], Goals) :-
    killer_sudoku(Puzzle, Rows, Rules),
    grid_constraints(Rows, Rules, 1-Puzzle.size, Goals).
