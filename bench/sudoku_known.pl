:- module(sudoku_known, [known_gcd/3]).   % +Givens, -Rows, -G
/** <module> The known program's approach to the GCD Sudoku: the baseline
that prolog/sudoku.pl is measured against.

For each sum S of nine digits of 0..9 and each divisor G of S × 111111111,
largest G first, it builds a fresh model (all_different units, the same
unused digit in every unit, digits summing to S per row) with
`Row mod G #= 0` for every row number, and labels the digits leftmost; the
first G with a grid is the optimum.  The propagation is weak: nothing ties
a row number to its digits beyond the `mod` constraint on their sum.

    ?- known_gcd([[0,7,2],[1,4,2],[1,8,5],[2,1,2],[3,2,0],
                  [5,3,2],[6,4,0],[7,5,2],[8,6,5]], Rows, G).

Givens are [Row, Column, Digit], 0-based.  Run it from Python with
janus_swi.query_once("sudoku_known:known_gcd(Gs, _Rows, G)", {"Gs": ...})
after consulting this file.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).

known_gcd(Givens, Rows, G) :-
    candidates(Candidates),
    member(G-S, Candidates),
    grid_with_gcd(Givens, S, G, Rows), !.

%   [G-S] for every digit sum S and divisor G of S × 111111111, largest G first.
candidates(Candidates) :-
    findall(G-S, ( between(0, 9, Unused),
                   S is 45 - Unused,
                   N is S * 111111111,
                   Root is truncate(sqrt(N)),
                   between(1, Root, D),
                   N mod D =:= 0,
                   ( G = D ; G is N // D ),
                   G =< 987654321 ),
            Pairs),
    sort(0, @>=, Pairs, Candidates).

grid_with_gcd(Givens, S, G, Rows) :-
    length(Rows, 9),
    maplist(length_(9), Rows),
    maplist(give(Rows), Givens),
    append(Rows, Cells),
    Cells ins 0..9,
    Unused #= 45 - S,
    transpose(Rows, Columns),
    boxes(Rows, Boxes),
    append([Rows, Columns, Boxes], Units),
    maplist(different_with(Unused), Units),
    maplist(row_sum(S), Rows),
    maplist(row_divisible(G), Rows),
    label(Cells).

length_(N, List) :-
    length(List, N).

give(Rows, [R, C, D]) :-
    nth0(R, Rows, Row),
    nth0(C, Row, D).

different_with(Unused, Unit) :-
    all_different([Unused|Unit]).

row_sum(S, Row) :-
    sum(Row, #=, S).

row_divisible(G, Row) :-
    foldl(shift_in, Row, 0, N),
    N mod G #= 0.

shift_in(D, N0, N) :-
    N #= 10 * N0 + D.

boxes([], []).
boxes([A, B, C|Rows], Boxes) :-
    box_band(A, B, C, Band),
    boxes(Rows, Rest),
    append(Band, Rest, Boxes).

box_band([], [], [], []).
box_band([A1, A2, A3|As], [B1, B2, B3|Bs], [C1, C2, C3|Cs],
         [[A1, A2, A3, B1, B2, B3, C1, C2, C3]|Boxes]) :-
    box_band(As, Bs, Cs, Boxes).
