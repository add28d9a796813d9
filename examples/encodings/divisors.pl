:- module(divisors, [model/3, family/1]).
/** <module> A CrossProduct encoding of one's own, written from the README alone.

Every line's product is a chain of CLP(FD) multiplications (as the built-in
`chain`), and every digit is limited up front to the divisors its row and
column products share, which `chain` leaves to propagation.  The labeling
takes the digits first-fail.

Run it beside the built-in encodings:

    crossprolog compare examples/crossproduct --encoding-file examples/encodings/divisors.pl
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).

%   The family whose puzzles this encoding is for.
family(crossproduct).

%!  model(+Puzzle, -Rows, -Labeling) is semidet.
%
%   Puzzle is _{rows: RowProducts, columns: ColumnProducts, givens: [[R, C, D], ...],
%   low: Low}, rows and columns counted from 0, digits Low..9; a product
%   that is not an integer is unknown (crossprolog asks such questions to
%   explain a hint).  Rows is the grid, a list of rows of digits; Labeling
%   labels them.
model(Puzzle, Rows, labeling([ff], Digits)) :-
    _{rows: RowProducts, columns: ColumnProducts, givens: Givens, low: Low} :< Puzzle,
    length(ColumnProducts, Width),
    maplist(row(Width), RowProducts, Rows),
    append(Rows, Digits),
    Digits ins Low..9,
    maplist(given(Rows), Givens),
    maplist(dividing_row(ColumnProducts), RowProducts, Rows),
    maplist(product, Rows, RowProducts),
    columns(Rows, Width, Columns),
    maplist(product, Columns, ColumnProducts).

row(Width, _, Row) :-
    length(Row, Width).

given(Rows, [R, C, Digit]) :-
    nth0(R, Rows, Row),
    nth0(C, Row, Digit).

columns([], Width, Columns) :- !,
    length(Columns, Width),
    maplist(=([]), Columns).
columns(Rows, _, Columns) :-
    transpose(Rows, Columns).

%   A digit other than 0 divides both its row's and its column's product
%   (a product of 0 only says that its line holds a 0).
dividing_row(ColumnProducts, RowProduct, Row) :-
    maplist(dividing_digit(RowProduct), ColumnProducts, Row).

dividing_digit(RowProduct, ColumnProduct, Digit) :-
    known(RowProduct, Row),
    known(ColumnProduct, Column),
    Shared is gcd(Row, Column),
    findall(D, ( between(1, 9, D), Shared mod D =:= 0 ), Divisors),
    list_to_fdset([0|Divisors], Set),
    Digit in_set Set.

%   An unknown product divides like 0: by every digit.
known(Product, Product) :- integer(Product), !.
known(_, 0).

product(Line, Product) :-
    integer(Product), !,
    foldl(times, Line, 1, Product).
product(_, _).

times(Digit, Product0, Product) :-
    Product #= Product0 * Digit.
