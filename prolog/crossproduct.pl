:- module(crossproduct,
          [ encodings/1,                % -Names
            crossproduct/3,             % +Encoding, +Puzzle, -Rows
            search/3,                   % +Encoding, +Puzzle, +Rows
            row_filling/3,              % +Product, +ColumnProducts, -Row
            rows_by_fewest_fillings/3   % +RowProducts, +ColumnProducts, -Order
          ]).
/** <module> CrossProduct: fill a grid with digits so that every row and column
multiplies to its given product.

A puzzle arrives from Python as a dict

    _{rows: RowProducts, columns: ColumnProducts,
      givens: [[Row, Column, Digit], ...], low: Low}

with 0-based Row and Column; digits range over Low..9, Low being 0 or 1.
crossproduct/3 is the pure relation: it posts the constraints of one encoding and
leaves the digits unbound.  search/3 is the labeling that encoding pairs with.

  - auto (the default): rows for narrow or small puzzles, primes for the
    rest (see auto_encoding/2).
  - primes: the constraints of exponents, labeled prime by
    prime: first where the 7s go, then the 5s, the 3s and the 2s (first-fail
    within each), so the sparse 0/1 matrices of 7s and 5s are settled while
    the sums still prune hard.
  - rows: no constraints at all, plain generate-and-test: the row with the
    fewest fillings left is filled next and divides the column products
    (digits 1-9 only).
  - fillings: a row is a table constraint over its fillings
    (the rows of digits with its product whose digits divide their column's
    product); columns are exponent sums.  Labels rows, fewest fillings first.
  - exponents: a product is a sum over the exponents of 2, 3, 5 and 7 of its
    digits, so every line is four linear equations; a table constraint ties
    each digit to its exponents.  Labels first-fail.
  - chain: a product is a chain of CLP(FD) multiplications.  Labels first-fail.

A line whose product is 0 holds a zero and has no other product constraint.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).

encodings([auto, primes, rows, fillings, exponents, chain]).

%!  crossproduct(+Encoding, +Puzzle, -Rows) is semidet.
%
%   Rows is the grid of digit variables of Puzzle, constrained the way
%   Encoding says.  Fails when the constraints are found inconsistent.
crossproduct(auto, Puzzle, Rows) :- !,
    auto_encoding(Puzzle, Encoding),
    crossproduct(Encoding, Puzzle, Rows).
crossproduct(rows, Puzzle, Rows) :- !,
    _{rows: RowProducts, columns: ColumnProducts, givens: Givens, low: Low} :< Puzzle,
    must_be_without_zero(rows, Low),
    grid(RowProducts, ColumnProducts, Rows, _),
    maplist(give(Rows), Givens).
crossproduct(Encoding, Puzzle, Rows) :-
    _{rows: RowProducts, columns: ColumnProducts, givens: Givens, low: Low} :< Puzzle,
    grid(RowProducts, ColumnProducts, Rows, Columns),
    append(Rows, Digits),
    Digits ins Low..9,
    maplist(give(Rows), Givens),
    zero_lines(Low, RowProducts-Rows, ColumnProducts-Columns),
    lines(Encoding, RowProducts-Rows, ColumnProducts-Columns).

%!  auto_encoding(+Puzzle, -Encoding) is det.
%
%   rows for puzzles at most three columns wide or of at most 30 cells:
%   their rows have few fillings, and plain search beats the cost of posting
%   CLP(FD) constraints (about 5,000 inferences a cell).  primes for the
%   rest, where plain search blows up (the seed-7 10x6 set), and whenever
%   digits include 0.  The thresholds are measured: see bench/run.py.
auto_encoding(Puzzle, rows) :-
    _{rows: RowProducts, columns: ColumnProducts, low: 1} :< Puzzle,
    length(RowProducts, Height),
    length(ColumnProducts, Width),
    ( Width =< 3 ; Height * Width =< 30 ), !.
auto_encoding(_, primes).

must_be_without_zero(_, 1) :- !.
must_be_without_zero(Encoding, _) :-
    throw(crossprolog_usage(Encoding, "this encoding takes digits 1-9 only")).

%!  search(+Encoding, +Puzzle, +Rows) is nondet.
%
%   Labels the digits of Rows in the order Encoding pairs with.
search(auto, Puzzle, Rows) :- !,
    auto_encoding(Puzzle, Encoding),
    search(Encoding, Puzzle, Rows).
search(rows, Puzzle, Rows) :- !,
    _{rows: RowProducts, columns: ColumnProducts} :< Puzzle,
    pairs_keys_values(Pending, RowProducts, Rows),
    length(Rows, Height),
    Room is 9 ^ (Height - 1),
    maplist(row_candidate(ColumnProducts, Room), Pending, Candidates),
    rows_dividing(Candidates, ColumnProducts, Height).
search(fillings, Puzzle, Rows) :- !,
    _{rows: RowProducts, columns: ColumnProducts} :< Puzzle,
    rows_by_fewest_fillings(RowProducts, ColumnProducts, Order),
    maplist(label_row(Rows), Order).
search(primes, Puzzle, Rows) :- !,
    _{columns: ColumnProducts} :< Puzzle,
    exponent_grid(Rows, ColumnProducts, ExponentRows, _),
    append(ExponentRows, Exponents),
    transpose(Exponents, [Twos, Threes, Fives, Sevens]),
    maplist(label_first_fail, [Sevens, Fives, Threes, Twos]),
    append(Rows, Digits),
    label(Digits).      % only 0s and 1s are left: they have no exponents
search(_, _, Rows) :-
    append(Rows, Digits),
    label_first_fail(Digits).

label_first_fail(Vars) :-
    labeling([ff], Vars).

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
    Room is 9 ^ max(0, Left1 - 1),
    maplist(still_fitting(ColumnProducts1, Room), Others, Candidates),
    rows_dividing(Candidates, ColumnProducts1, Left1).

%   The first candidates: every filling of each row, kept if it leaves room.
row_candidate(ColumnProducts, Room, Product-Row, Count-(Row-Fillings)) :-
    findall(Row, ( row_filling(Product, ColumnProducts, Row),
                   maplist(leaves_room(Room), ColumnProducts, Row) ),
            Fillings),
    length(Fillings, Count).

still_fitting(ColumnProducts, Room, _-(Row-Fillings), Count-(Row-Fitting)) :-
    include(fits(ColumnProducts, Room), Fillings, Fitting),
    length(Fitting, Count).

fits(ColumnProducts, Room, Filling) :-
    maplist(fits_column(Room), ColumnProducts, Filling).

fits_column(Room, ColumnProduct, Digit) :-
    ColumnProduct mod Digit =:= 0,
    leaves_room(Room, ColumnProduct, Digit).

leaves_room(Room, ColumnProduct, Digit) :-
    ColumnProduct // Digit =< Room.

divided(ColumnProduct, Digit, Quotient) :-
    Quotient is ColumnProduct // Digit.

%!  grid(+RowProducts, +ColumnProducts, -Rows, -Columns) is det.
%
%   Rows and Columns are the same fresh grid of variables, read both ways.
grid(RowProducts, ColumnProducts, Rows, Columns) :-
    length(ColumnProducts, Width),
    length(RowProducts, Height),
    length(Rows, Height),
    maplist(length_(Width), Rows),
    lines_transposed(Rows, Width, Columns).

% transpose/2 cannot know the width of a grid without rows.
lines_transposed([], Width, Columns) :- !,
    length(Columns, Width),
    maplist(=([]), Columns).
lines_transposed(Rows, _, Columns) :-
    transpose(Rows, Columns).

length_(Length, List) :-
    length(List, Length).

give(Rows, [R, C, Digit]) :-
    nth0(R, Rows, Row),
    nth0(C, Row, Digit).

% With digits 1-9 there are no zeros to place.
zero_lines(1, _, _) :- !.
zero_lines(0, RowProducts-Rows, ColumnProducts-Columns) :-
    maplist(zero_line, RowProducts, Rows),
    maplist(zero_line, ColumnProducts, Columns).

zero_line(0, Line) :- !,
    maplist(is_zero, Line, Zeros),
    sum(Zeros, #>=, 1).
zero_line(_, Line) :-
    maplist(#\=(0), Line).

is_zero(D, Z) :-
    Z #<==> D #= 0.

%!  lines(+Encoding, +RowProducts-Rows, +ColumnProducts-Columns) is semidet.
lines(chain, RowProducts-Rows, ColumnProducts-Columns) :-
    maplist(chain_product, RowProducts, Rows),
    maplist(chain_product, ColumnProducts, Columns).
lines(primes, RowProducts-Rows, ColumnProducts-Columns) :-
    lines(exponents, RowProducts-Rows, ColumnProducts-Columns).
lines(exponents, RowProducts-Rows, ColumnProducts-_) :-
    exponent_grid(Rows, ColumnProducts, ExponentRows, ExponentColumns),
    maplist(exponent_product, RowProducts, ExponentRows),
    maplist(exponent_product, ColumnProducts, ExponentColumns).
lines(fillings, RowProducts-Rows, ColumnProducts-_) :-
    maplist(filling_row(ColumnProducts), RowProducts, Rows),
    exponent_grid(Rows, ColumnProducts, _, ExponentColumns),
    maplist(exponent_product, ColumnProducts, ExponentColumns).

chain_product(0, _) :- !.
chain_product(Product, Line) :-
    foldl(times, Line, 1, Product).

times(D, P0, P) :-
    P #= P0 * D.

%!  exponent_grid(+Rows, +ColumnProducts, -ExponentRows, -ExponentColumns)
%
%   Every digit D of Rows gets its exponents [E2, E3, E5, E7], tied to it
%   by a table constraint; the exponent lists form a grid of their own.
exponent_grid(Rows, ColumnProducts, ExponentRows, ExponentColumns) :-
    maplist(maplist(digit_exponents), Rows, ExponentRows),
    length(ColumnProducts, Width),
    lines_transposed(ExponentRows, Width, ExponentColumns).

digit_exponents(Digit, Exponents) :-
    length(Exponents, 4),
    digits_with_exponents(Table),
    tuples_in([[Digit|Exponents]], Table).

%   [Digit, E2, E3, E5, E7] for every digit; 0 has no exponents.
digits_with_exponents([[0, 0, 0, 0, 0], [1, 0, 0, 0, 0], [2, 1, 0, 0, 0],
                       [3, 0, 1, 0, 0], [4, 2, 0, 0, 0], [5, 0, 0, 1, 0],
                       [6, 1, 1, 0, 0], [7, 0, 0, 0, 1], [8, 3, 0, 0, 0],
                       [9, 0, 2, 0, 0]]).

exponent_product(0, _) :- !.
exponent_product(Product, Exponents) :-
    prime_exponents(Product, Sums),
    foldl(prime_sum(Exponents), Sums, 1, _).

prime_sum(Exponents, Sum, I, I1) :-
    maplist(nth1(I), Exponents, Es),
    sum(Es, #=, Sum),
    I1 is I + 1.

%!  prime_exponents(+N, -Exponents) is semidet.
%
%   Exponents are those of 2, 3, 5 and 7 in N; fails when N has another
%   prime factor.  0 counts as having none, for the table of digits.
prime_exponents(0, [0, 0, 0, 0]) :- !.
prime_exponents(N, Exponents) :-
    foldl(divide_out, [2, 3, 5, 7], Exponents, N, 1).

divide_out(P, E, N0, N) :-
    (   N0 mod P =:= 0
    ->  N1 is N0 // P,
        divide_out(P, E0, N1, N),
        E is E0 + 1
    ;   E = 0,
        N = N0
    ).

filling_row(_, 0, _) :- !.
filling_row(ColumnProducts, Product, Row) :-
    findall(Row, row_filling(Product, ColumnProducts, Row), Fillings),
    tuples_in([Row], Fillings).

%!  row_filling(+Product, +ColumnProducts, -Row) is nondet.
%
%   Row is a list of digits 1-9 multiplying to Product, each digit dividing
%   the product of its column.  A column product of 0 admits every digit.
row_filling(Product, ColumnProducts, Row) :-
    length(ColumnProducts, Width),
    row_filling(ColumnProducts, Width, Product, Row).

% The last digit is whatever is left of the product: no need to try all nine.
row_filling([], _, Product, []) :-
    Product =:= 1.
row_filling([Column], _, Product, [Product]) :- !,
    between(1, 9, Product),
    Column mod Product =:= 0.
row_filling([Column|Columns], Width, Product, [D|Ds]) :-
    Product =< 9 ^ Width,
    between(1, 9, D),
    Product mod D =:= 0,
    Column mod D =:= 0,
    Rest is Product // D,
    Width1 is Width - 1,
    row_filling(Columns, Width1, Rest, Ds).

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

filling_count(ColumnProducts, Product, Count) :-
    aggregate_all(count, row_filling(Product, ColumnProducts, _), Count).
