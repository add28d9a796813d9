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
    kept arc consistent, the digits a cage takes from a row or column
    leaving the rest of it, fewest candidates first.
  - tables: CLP(FD), rows and columns all_distinct, each cage a table
    constraint over its fillings; first-fail labeling.
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
    length(Rows, N),
    maplist(length_(N), Rows),
    transpose(Rows, Columns),
    maplist(given_rule(Rows), Givens, GivenRules),
    maplist(distinct_rule, Rows, RowRules),
    maplist(distinct_rule, Columns, ColumnRules),
    maplist(cage_rule(Rows), Cages, CageRules),
    append([GivenRules, RowRules, ColumnRules, CageRules], Rules).

length_(Length, List) :-
    length(List, Length).

distinct_rule(Line, all_distinct(Line)).

given_rule(Rows, [R, C, Digit], given(Cell, Digit)) :-
    cell(Rows, [R, C], Cell).

cell(Rows, [R, C], Cell) :-
    nth0(R, Rows, Row),
    nth0(C, Row, Cell).

%   A cage's rule: its operation, one row of this table.
cage_rule(Rows, Cage, Rule) :-
    _{cells: Places, op: OpText, target: Target} :< Cage,
    atom_string(Op, OpText),
    maplist(cell(Rows), Places, Cells),
    operation_rule(Op, Cells, Target, Rule).

operation_rule(+, Cells, Target, sum(Cells, Target)).
operation_rule(*, Cells, Target, product(Cells, Target)).
operation_rule(-, [A, B], Target, difference(A, B, Target)).
operation_rule(/, [A, B], Target, ratio(A, B, Target)).
operation_rule(=, [A], Target, given(A, Target)).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of digit variables of Puzzle, constrained the way
%   Encoding says; Labeling labels them.  Fails when the constraints are
%   found inconsistent.
model(candidates, Puzzle, Rows, label_grid(Grid)) :-
    kenken(Puzzle, Rows, Rules),
    N = Puzzle.size,
    append(Rows, Cells),
    grid_state(Cells, 1-N, Rules, Grid).
model(tables, Puzzle, Rows, labeling([ff], Cells)) :-
    kenken(Puzzle, Rows, Rules),
    append(Rows, Cells),
    Cells ins 1..Puzzle.size,
    maplist(rule_table_goal(Rules), Rules, Goals),
    maplist(call, Goals).
model(arithmetic, Puzzle, Rows, labeling([ff], Cells)) :-
    kenken(Puzzle, Rows, Rules),
    append(Rows, Cells),
    Cells ins 1..Puzzle.size,
    maplist(rule_goal, Rules, Goals),
    maplist(call, Goals).

%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   The puzzle's rules as a person writes them by hand, for an exported
%   program to read: Goals are CLP(FD) goals on the digits of Rows (not
%   posted): their range, then kenken/3's rules as rule_goal/2 states
%   them, then the labeling.  Named names no other variable.
constraints(Puzzle, Rows, [], Goals) :-
    kenken(Puzzle, Rows, Rules),
    N = Puzzle.size,
    maplist(domain_goal(1..N), Rows, DomainGoals),
    maplist(rule_goal, Rules, RuleGoals),
    append(Rows, Cells),
    append([DomainGoals, RuleGoals, [labeling([ff], Cells)]], Goals).

domain_goal(Domain, Row, Row ins Domain).
