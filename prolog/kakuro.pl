:- module(kakuro,
          [ encodings/1,        % -Names
            model/4,            % +Encoding, +Puzzle, -Rows, -Labeling
            constraints/4,      % +Puzzle, -Rows, -Named, -Goals
            kakuro/3            % +Puzzle, -Rows, -Rules
          ]).
/** <module> Kakuro: white cells hold digits 1-9; the digits of every run (the
white cells right of, or below, a clue) are different and add up to the clue.

A puzzle arrives from Python as a dict

    _{height: H, width: W, black: [[Row, Column], ...],
      runs: [_{cells: [[Row, Column], ...], sum: S}, ...],
      givens: [[Row, Column, Digit], ...]}

with 0-based rows and columns.  A run without `sum` (a clue left out, as
explanations leave clues out) keeps its digits different only.  The
solution is the grid, a list of rows, 0 in every black cell.

The rules are stated once, by kakuro/3, in the grid kernel's terms
(grid.pl): each run is a unit (all_distinct) with a sum.  Each encoding
reads that statement its own way:

  - candidates (the default): the kernel's search, the runs as units
    with sum tables (of fillings, kept arc consistent, up to three cells;
    of sets of digits from four), the digits a run must put where a
    crossing run is leaving that run's other cells; fewest candidates per
    weight first (dom/wdeg: a run weighs more each time it fails).
  - tables: CLP(FD), each run all_distinct and a table constraint over
    its sum's fillings (past ten thousand, a linear equation);
    first-fail labeling.
  - arithmetic: CLP(FD), each run all_distinct and a linear equation
    (bounds only); first-fail labeling.

constraints/4 gives the same statement as CLP(FD) goals, for an exported
program (export --readable).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(grid).

encodings([candidates, tables, arithmetic]).

%!  kakuro(+Puzzle, -Rows, -Rules) is det.
%
%   Rows is the grid of Puzzle, 0 in its black cells and a variable in
%   each white one; Rules its rules: the digits given, and every run's
%   digits different and adding up to its clue.
kakuro(Puzzle, Rows, Rules) :-
    _{height: H, width: W, black: Black, runs: Runs, givens: Givens} :< Puzzle,
    grid_rows(H, W, Rows),
    maplist(black_cell(Rows), Black),
    maplist(given_rule(Rows), Givens, GivenRules),
    foldl(run_rules(Rows), Runs, RunRules, []),
    append(GivenRules, RunRules, Rules).

black_cell(Rows, Place) :-
    cell_at(Rows, Place, 0).

%   A run: its digits all different, adding up to its clue (if it has one).
run_rules(Rows, Run, [all_distinct(Cells)|Sum], Rules) :-
    maplist(cell_at(Rows), Run.cells, Cells),
    (   get_dict(sum, Run, Total)
    ->  Sum = [sum(Cells, Total)|Rules]
    ;   Sum = Rules
    ).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   kakuro/3's statement searched as Encoding says (grid:grid_model/5).
model(Encoding, Puzzle, Rows, Labeling) :-
    kakuro(Puzzle, Rows, Rules),
    grid_model(Encoding, Rows, Rules, 1-9, Labeling).

%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   kakuro/3's statement as export --readable writes it (grid:grid_constraints/4).
constraints(Puzzle, Rows, [], Goals) :-
    kakuro(Puzzle, Rows, Rules),
    grid_constraints(Rows, Rules, 1-9, Goals).
