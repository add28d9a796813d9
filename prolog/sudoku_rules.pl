:- module(sudoku_rules,
          [ sudoku/3,           % +Puzzle, -Rows, -Rules
            grid/1,             % -Rows
            give/2,             % +Rows, +Given
            lines_and_boxes/3,  % +Rows, -Lines, -Boxes
            rows_of_nine/2      % +Cells, -Rows
          ]).
/** <module> Sudoku's grid and its rules in the grid kernel's terms.

The units of a 9x9 grid (rows, columns, 3x3 boxes), and sudoku/3, the
statement every encoding of sudoku.pl, the hints and `export --readable`
start from.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(clpfd), [transpose/2]).
:- use_module(grid, [given_rule/3, distinct_rule/2]).

%!  sudoku(+Puzzle, -Rows, -Rules) is det.
%
%   Rows is the 9x9 grid of cell variables of Puzzle; Rules its rules in
%   the kernel's terms: the givens, and every row, column and box all
%   different.
sudoku(Puzzle, Rows, Rules) :-
    _{givens: Givens} :< Puzzle,
    grid(Rows),
    maplist(given_rule(Rows), Givens, GivenRules),
    lines_and_boxes(Rows, Lines, Boxes),
    append(Lines, Boxes, Units),
    maplist(distinct_rule, Units, UnitRules),
    append(GivenRules, UnitRules, Rules).


grid(Rows) :-
    length(Rows, 9),
    maplist(length_(9), Rows).

length_(Length, List) :-
    length(List, Length).

give(Rows, [R, C, Digit]) :-
    nth0(R, Rows, Row),
    nth0(C, Row, Digit).


%!  lines_and_boxes(+Rows, -Lines, -Boxes) is det.
%
%   Lines are the rows and columns of the grid, Boxes its 3×3 boxes.
lines_and_boxes(Rows, Lines, Boxes) :-
    transpose(Rows, Columns),
    append(Rows, Columns, Lines),
    boxes(Rows, Boxes).

boxes([], []).
boxes([A, B, C|Rows], Boxes) :-
    band_boxes(A, B, C, Band),
    boxes(Rows, Rest),
    append(Band, Rest, Boxes).

band_boxes([], [], [], []).
band_boxes([A1, A2, A3|As], [B1, B2, B3|Bs], [C1, C2, C3|Cs],
           [[A1, A2, A3, B1, B2, B3, C1, C2, C3]|Boxes]) :-
    band_boxes(As, Bs, Cs, Boxes).


rows_of_nine([], []).
rows_of_nine(Cells, [Row|Rows]) :-
    length(Row, 9),
    append(Row, Rest, Cells),
    rows_of_nine(Rest, Rows).
