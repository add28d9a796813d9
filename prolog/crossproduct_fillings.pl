:- module(crossproduct_fillings,
          [ rows_search/3,              % +RowProducts, +ColumnProducts, +Rows
            label_rows/2,               % +Order, +Rows
            filling_row/3,              % +ColumnProducts, +Product, ?Row
            row_filling/3,              % +Product, +ColumnProducts, -Row
            rows_by_fewest_fillings/3,  % +RowProducts, +ColumnProducts, -Order
            known/2,                    % +Product, -Known
            unknown/1                   % +Product
          ]).
/** <module> CrossProduct's rows as their fillings: the digits that multiply to a row's product.

A filling of a row is a list of digits 1-9 that multiply to its product,
each dividing its column's product (row_filling/3).  The `rows` encoding
searches over them in plain Prolog (rows_search/3), the `fillings`
encoding states each row as the table of its fillings (filling_row/3).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(library(aggregate)).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: fillings are divisions
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%   A product that is not known: its line has no product constraint.
unknown(Product) :-
    \+ integer(Product).

%!  rows_search(+RowProducts, +ColumnProducts, +Rows) is nondet.
%
%   The labeling of the rows encoding: plain search over the fillings of
%   the rows (see rows_dividing/3).
rows_search(RowProducts, ColumnProducts, Rows) :-
    pairs_keys_values(Pending, RowProducts, Rows),
    length(Rows, Height),
    Room is 9 ^ (Height - 1),
    maplist(column_digits(Room), ColumnProducts, Choices),
    maplist(row_candidate(Choices), Pending, Candidates),
    rows_dividing(Candidates, ColumnProducts, Height).

label_rows(Order, Rows) :-
    maplist(label_row(Rows), Order).

label_row(Rows, I) :-
    nth0(I, Rows, Row),
    label(Row).

%!  rows_dividing(+Candidates, +ColumnProducts, +Left) is nondet.
%
%   Plain search, the notebook's way with a dynamic order.  Candidates are
%   Count-(Row-Fillings) for the rows left, the fillings those that still
%   fit ColumnProducts: fill the row with the fewest, divide each column
%   product by its digit, keep the fillings of the others that still fit,
%   and go on.  Left rows remain; a column must end at 1, so what is left of
%   its product must stay within 9^Left, its Room.
rows_dividing([], ColumnProducts, _) :-
    maplist(==(1), ColumnProducts).
rows_dividing([C|Cs], ColumnProducts, Left) :-
    keysort([C|Cs], [_-(Row-Fillings)|Others]),
    member(Row, Fillings),
    maplist(divided, ColumnProducts, Row, ColumnProducts1),
    Left1 is Left - 1,
    rows_left(Others, ColumnProducts1, Left1).

%   The last row can only be what the columns leave: no filling to filter.
rows_left([_-(Row-Fillings)], ColumnProducts, _) :- !,
    memberchk(ColumnProducts, Fillings),
    Row = ColumnProducts.
rows_left(Others, ColumnProducts, Left) :-
    Room is 9 ^ max(0, Left - 1),
    maplist(still_fitting(ColumnProducts, Room), Others, Candidates),
    rows_dividing(Candidates, ColumnProducts, Left).

%   The first candidates: every filling of each row from the digits each
%   column allows (column_digits/3: those that leave room).
row_candidate(Choices, Product-Row, Count-(Row-Fillings)) :-
    same_length(Row, Filling),          % listed apart: only the search binds Row
    findall(Filling, filling(Choices, Product, Filling), Fillings),
    length(Fillings, Count).

still_fitting(ColumnProducts, Room, _-(Row-Fillings), Count-(Row-Fitting)) :-
    fitting(Fillings, ColumnProducts, Room, Fitting, 0, Count).

%   include/3 of fits/3, counted (the search's inner loop: no meta-call).
fitting([], _, _, [], Count, Count).
fitting([Filling|Fillings], ColumnProducts, Room, Fitting, Count0, Count) :-
    (   fits(ColumnProducts, Room, Filling)
    ->  Fitting = [Filling|Fitting1],
        Count1 is Count0 + 1
    ;   Fitting = Fitting1,
        Count1 = Count0
    ),
    fitting(Fillings, ColumnProducts, Room, Fitting1, Count1, Count).

fits(ColumnProducts, Room, Filling) :-
    maplist(fits_column(Room), ColumnProducts, Filling).

fits_column(Room, ColumnProduct, Digit) :-
    ColumnProduct mod Digit =:= 0,
    leaves_room(Room, ColumnProduct, Digit).

leaves_room(Room, ColumnProduct, Digit) :-
    ColumnProduct // Digit =< Room.

divided(ColumnProduct, Digit, Quotient) :-
    Quotient is ColumnProduct // Digit.

%   A product as far as divisors go: one not known divides like 0, by all.
known(Product, Product) :- integer(Product), !.
known(_, 0).

filling_row(_, Product, _) :-
    unknown(Product), !.
filling_row(_, 0, _) :- !.
filling_row(ColumnProducts, Product, Row) :-
    findall(Row, row_filling(Product, ColumnProducts, Row), Fillings),
    tuples_in([Row], Fillings).

%!  row_filling(+Product, +ColumnProducts, -Row) is nondet.
%
%   Row is a list of digits 1-9 multiplying to Product, each digit dividing
%   the product of its column.  A column product of 0 admits every digit.
row_filling(Product, ColumnProducts, Row) :-
    maplist(column_digits(inf), ColumnProducts, Choices),
    filling(Choices, Product, Row).

%!  column_digits(+Room, +ColumnProduct, -Digits) is det.
%
%   Digits are those of 1-9 that divide ColumnProduct and leave at most
%   Room of it to the other rows (0, or a product not known, is divided
%   by every digit).
column_digits(Room, ColumnProduct, Digits) :-
    known(ColumnProduct, Product),
    dividing_digits(9, Product, Room, [], Digits).

%   Digits are those of 1..D that divide Product leaving at most Room,
%   then Digits0.
dividing_digits(0, _, _, Digits, Digits) :- !.
dividing_digits(D, Product, Room, Digits0, Digits) :-
    (   Product mod D =:= 0,
        leaves_room(Room, Product, D)
    ->  Digits1 = [D|Digits0]
    ;   Digits1 = Digits0
    ),
    D1 is D - 1,
    dividing_digits(D1, Product, Room, Digits1, Digits).

%!  filling(+Choices, +Product, -Row) is nondet.
%
%   Row takes a digit from each list of Choices, and they multiply to
%   Product.  The digits are computed once per column, not once per row.
filling(Choices, Product, Row) :-
    length(Choices, Width),
    filling(Choices, Width, Product, Row).

% The last digit is whatever is left of the product: no need to try all nine.
filling([], _, Product, []) :-
    Product =:= 1.
filling([Digits], _, Product, [Product]) :- !,
    memberchk(Product, Digits).
filling([Digits|Choices], Width, Product, [D|Ds]) :-
    Product =< 9 ^ Width,
    member(D, Digits),
    Product mod D =:= 0,
    Rest is Product // D,
    Width1 is Width - 1,
    filling(Choices, Width1, Rest, Ds).

%!  rows_by_fewest_fillings(+RowProducts, +ColumnProducts, -Order) is det.
%
%   Order lists the 0-based row indices by increasing number of fillings,
%   ties kept in their given order.
rows_by_fewest_fillings(RowProducts, ColumnProducts, Order) :-
    length(RowProducts, Height),
    Last is Height - 1,
    findall(I, between(0, Last, I), Indices),
    maplist(filling_count(ColumnProducts), RowProducts, Counts),
    pairs_keys_values(Pairs, Counts, Indices),
    sort(1, @=<, Pairs, Sorted),       % sort/4 with @=< keeps ties in order
    pairs_values(Sorted, Order).

filling_count(_, Product, inf) :-      % sorts after every count
    unknown(Product), !.
filling_count(ColumnProducts, Product, Count) :-
    aggregate_all(count, row_filling(Product, ColumnProducts, _), Count).
