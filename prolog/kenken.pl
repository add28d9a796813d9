:- module(kenken,
          [ encodings/1,        % -Names
            model/4,            % +Encoding, +Puzzle, -Rows, -Labeling
            constraints/4,      % +Puzzle, -Rows, -Named, -Goals
            kenken/3            % +Puzzle, -Rows, -Rules
          ]).
/** <module> KenKen: an NxN grid holding 1..N once in every row and column, cut
into cages whose digits combine to their targets.

A puzzle arrives from Python as a dict

    _{size: N, cages: [_{cells: [[Row, Column], ...], op: Op, target: T}, ...],
      givens: [[Row, Column, Digit], ...]}

with 0-based rows and columns, Op one of "+", "-", "*", "/" and "=" (a
one-cell cage: the cell is T), as text.  "-" and "/" cages have two cells:
the larger digit less, or divided by, the smaller is T.  Givens are digits
a solver has already placed.  The solution is the grid, a list of rows.

The rules are stated once, by kenken/3, in the grid kernel's terms (see
grid.pl); each encoding reads that statement its own way:

  - candidates (the default): the kernel's search: naked and hidden
    singles in the rows and columns, each cage a table of its fillings
    kept arc consistent (folded past ten thousand: grid_folds.pl), the
    digits a cage takes from a row or column leaving the rest of it, and
    in a 9x9 the sums of three cells or fewer
    that a row's total (45) implies from the + cages and = cages in it or
    covering it (innies and outies; smaller grids settle as much without
    them: grid:sums_pay/1), fewest candidates first.
  - tables: CLP(FD), rows and columns all_distinct, each cage a table
    constraint over its fillings (past ten thousand, as arithmetic);
    first-fail labeling.
  - arithmetic: CLP(FD), each cage as arithmetic (a sum, a product,
    abs(A - B) #= T, A #= T*B #\/ B #= T*A), propagating bounds only, as
    a person reasoning about sums would not; first-fail labeling.

constraints/4 gives the same statement as CLP(FD) goals, for an exported
program (export --readable).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(grid).

encodings([candidates, tables, arithmetic]).

%!  kenken(+Puzzle, -Rows, -Rules) is det.
%
%   Rows is the grid of cell variables of Puzzle; Rules its rules: the
%   digits placed, every row and column all different, each cage's digits
%   combining to its target.
kenken(Puzzle, Rows, Rules) :-
    _{size: N, cages: Cages, givens: Givens} :< Puzzle,
    grid_rows(N, N, Rows),
    transpose(Rows, Columns),
    maplist(given_rule(Rows), Givens, GivenRules),
    maplist(distinct_rule, Rows, RowRules),
    maplist(distinct_rule, Columns, ColumnRules),
    maplist(cage_rule(Rows), Cages, CageRules),
    append([GivenRules, RowRules, ColumnRules, CageRules], Rules).

%   A cage's rule: its operation, one row of this table.
cage_rule(Rows, Cage, Rule) :-
    _{cells: Places, op: OpText, target: Target} :< Cage,
    atom_string(Op, OpText),
    maplist(cell_at(Rows), Places, Cells),
    operation_rule(Op, Cells, Target, Rule).

operation_rule(+, Cells, Target, sum(Cells, Target)).
operation_rule(*, Cells, Target, product(Cells, Target)).
operation_rule(-, [A, B], Target, difference(A, B, Target)).
operation_rule(/, [A, B], Target, ratio(A, B, Target)).
operation_rule(=, [A], Target, given(A, Target)).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   kenken/3's statement searched as Encoding says (grid:grid_model/5).
model(Encoding, Puzzle, Rows, Labeling) :-
    kenken(Puzzle, Rows, Rules),
    grid_model(Encoding, Rows, Rules, 1-Puzzle.size, Labeling).

%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   kenken/3's statement as export --readable writes it (grid:grid_constraints/4).
constraints(Puzzle, Rows, [], Goals) :-
    kenken(Puzzle, Rows, Rules),
    grid_constraints(Rows, Rules, 1-Puzzle.size, Goals).
