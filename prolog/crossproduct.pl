:- module(crossproduct,
          [ encodings/1,                % -Names
            model/4,                    % +Encoding, +Puzzle, -Rows, -Labeling
            takes/2,                    % +Encoding, +Puzzle
            constraints/4               % +Puzzle, -Rows, -Named, -Goals
          ]).
/** <module> CrossProduct: fill a grid with digits so that every row and column
multiplies to its given product.

A puzzle arrives from Python as a dict

    _{rows: RowProducts, columns: ColumnProducts,
      givens: [[Row, Column, Digit], ...], low: Low}

with 0-based Row and Column; digits range over Low..9, Low being 0 or 1.
A product that is not an integer (Python's None) is not known: its line
has no product constraint (crossprolog asks such questions to find which
lines explain a hint or a conflict).  The solution is the grid: a list of
rows of digits.

model/4 is the pure relation: it posts the constraints of one encoding on
the digits of Rows and hands back Labeling, the search that encoding pairs
with (crossprolog.pl runs it).

  - auto (the default): rows for narrow or small puzzles, lines for
    the rest (see auto_encoding/2).
  - lines: each line's product as the set of states (exponents of 2, 3, 5
    and 7 so far) its cells can pass through, in bits, swept forward and
    back so that every line is arc consistent; the cell with the fewest
    digits left is set first (crossproduct_lines.pl).
  - primes: the constraints of exponents, labeled prime by
    prime: first where the 7s go, then the 5s, the 3s and the 2s (first-fail
    within each), so the sparse 0/1 matrices of 7s and 5s are settled while
    the sums still prune hard.
  - restarts: the constraints of primes, and its labeling restarted
    with a budget of inferences that grows along the Luby sequence, the
    cells taken in another order at each attempt.  The search of primes
    has a heavy tail: on the 17th seed-3 12x8 puzzle it runs past 20 s,
    where labeling the 5s before the 7s, or the same cells in another
    order, takes under a million inferences; restarting bounds what a bad
    order costs.
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

The rows' fillings, which the rows and fillings encodings search or state,
are worked out in crossproduct_fillings.pl.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(restarts).
% rows_search/3, label_rows/2 and lines_labeling/2 are labeling goals model/4 hands
% back, called here by the driver.
:- use_module(crossproduct_fillings, [rows_search/3, label_rows/2, filling_row/3, known/2, unknown/1]).
:- reexport(crossproduct_fillings, [row_filling/3, rows_by_fewest_fillings/3]).
:- use_module(crossproduct_lines, [lines_model/3, lines_labeling/2, prime_exponents/2]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the model divides products
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

encodings([auto, lines, primes, restarts, rows, fillings, exponents, chain]).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of digit variables of Puzzle, constrained the way
%   Encoding says; Labeling is the goal that labels them.  Fails when the
%   constraints are found inconsistent.
model(auto, Puzzle, Rows, Labeling) :- !,
    auto_encoding(Puzzle, Encoding),
    model(Encoding, Puzzle, Rows, Labeling).
model(_, Puzzle, Rows, true) :-
    _{rows: RowProducts, columns: ColumnProducts} :< Puzzle,
    ( RowProducts == [] ; ColumnProducts == [] ), !,
    empty_grid(RowProducts, ColumnProducts, Rows).
model(lines, Puzzle, Rows, Labeling) :- !,
    _{rows: RowProducts, columns: ColumnProducts} :< Puzzle,
    totals_agree(RowProducts, ColumnProducts),  % what no single line's consistency sees
    lines_model(Puzzle, Rows, Model),
    (   Model = labeling(Labeling)
    ->  true
    ;   model(restarts, Puzzle, Rows, Labeling)    % a line of too many states
    ).
model(rows, Puzzle, Rows, rows_search(RowProducts, ColumnProducts, Rows)) :- !,
    takes(rows, Puzzle),
    _{rows: RowProducts, columns: ColumnProducts, givens: Givens} :< Puzzle,
    totals_agree(RowProducts, ColumnProducts),
    grid_rows(RowProducts, ColumnProducts, Rows),
    maplist(give(Rows), Givens).
model(Encoding, Puzzle, Rows, Labeling) :-
    _{rows: RowProducts, columns: ColumnProducts, givens: Givens, low: Low} :< Puzzle,
    (   Encoding == chain           % the weak baseline: its lines' chains, nothing more
    ->  true
    ;   totals_agree(RowProducts, ColumnProducts)
    ),
    grid(RowProducts, ColumnProducts, Rows, Columns),
    append(Rows, Digits),
    Digits ins Low..9,
    maplist(give(Rows), Givens),
    zero_lines(Low, RowProducts-Rows, ColumnProducts-Columns),
    maplist(dividing_row(ColumnProducts), RowProducts, Rows),
    lines(Encoding, RowProducts-Rows, ColumnProducts-Columns, Exponents),
    labeling_of(Encoding, RowProducts-ColumnProducts, Rows, Exponents, Labeling).

%!  empty_grid(+RowProducts, +ColumnProducts, -Rows) is semidet.
%
%   A grid of no cells (no row, or no column): its rows are empty, and
%   every line's product, when known, is that of no digits, 1.  The
%   encodings' searches would label nothing, some of them forever
%   (restarts' budget of 0 inferences a cell).
empty_grid(RowProducts, ColumnProducts, Rows) :-
    maplist(empty_product, RowProducts),
    maplist(empty_product, ColumnProducts),
    same_length(Rows, RowProducts),
    maplist(=([]), Rows).

empty_product(Product) :-
    (   unknown(Product)
    ->  true
    ;   Product =:= 1
    ).

%!  totals_agree(+RowProducts, +ColumnProducts) is semidet.
%
%   The rows multiply to the same total as the columns, both being the
%   product of every digit of the grid.  Only arithmetic, but without it a
%   search proves a mistyped product wrong by trying every way the other
%   lines can be filled.  (A line holding 0, or not known, says nothing.)
%   Every encoding states it but chain, the weak baseline.
totals_agree(RowProducts, ColumnProducts) :-
    append(RowProducts, ColumnProducts, Products),
    (   maplist(positive, Products)
    ->  foldl(times_, RowProducts, 1, Total),
        foldl(times_, ColumnProducts, 1, Total)
    ;   true
    ).

positive(Product) :-
    integer(Product),
    Product > 0.

times_(Product, Total0, Total) :-
    Total is Total0 * Product.

%!  auto_encoding(+Puzzle, -Encoding) is det.
%
%   rows for puzzles at most three columns wide or of at most 30 cells:
%   their rows have few fillings, and plain search beats the cost of
%   building the lines' states (0.1-0.8 ms a puzzle against 1-3 ms, up to
%   6x4).  lines for the rest, where plain search blows up (the seed-7
%   10x6 set), and whenever digits include 0: each line arc consistent
%   leaves a search of a few dozen choices where the primes encoding's
%   CLP(FD) sums of exponents leave a heavy tail (its 17th seed-3 12x8
%   puzzle runs past 20 s; lines takes every one of the 20 in under 50 ms).
%   The thresholds are measured: see bench/run.py.
auto_encoding(Puzzle, rows) :-
    _{rows: RowProducts, columns: ColumnProducts, low: 1} :< Puzzle,
    maplist(integer, RowProducts),
    maplist(integer, ColumnProducts),
    length(RowProducts, Height),
    length(ColumnProducts, Width),
    ( Width =< 3 ; Height * Width =< 30 ), !.
auto_encoding(_, lines).

%!  takes(+Encoding, +Puzzle) is det.
%
%   Throws crossprolog_usage(Encoding, Message) when Encoding cannot take
%   Puzzle: rows searches digits 1-9 only, and needs every product.  model/4
%   asks first, and so does export, which posts no model.
takes(rows, Puzzle) :- !,
    _{rows: RowProducts, columns: ColumnProducts, low: Low} :< Puzzle,
    must_be_without_zero(rows, Low),
    must_know_products(rows, RowProducts-ColumnProducts).
takes(_, _).

must_be_without_zero(_, 1) :- !.
must_be_without_zero(Encoding, _) :-
    throw(crossprolog_usage(Encoding, "this encoding takes digits 1-9 only")).

must_know_products(_, RowProducts-ColumnProducts) :-
    maplist(integer, RowProducts),
    maplist(integer, ColumnProducts), !.
must_know_products(Encoding, _) :-
    throw(crossprolog_usage(Encoding, "this encoding needs every product")).

%!  labeling_of(+Encoding, +RowProducts-ColumnProducts, +Rows, +Exponents, -Labeling) is det.
%
%   The search Encoding pairs with.  Exponents is the grid of [E2, E3, E5,
%   E7] lists lines/4 tied to the digits (unbound when it tied none).
labeling_of(primes, _, Rows, Exponents, label_primes([7, 5, 3, 2], Cells, Rows)) :- !,
    append(Exponents, Cells).
labeling_of(restarts, _, Rows, Exponents, restarts(Unit, Cells, Rows)) :- !,
    append(Exponents, Cells),
    length(Cells, Size),
    Unit is 5000 * Size.        % about what labeling takes when nothing fails
labeling_of(fillings, RowProducts-ColumnProducts, Rows, _, label_rows(Order, Rows)) :- !,
    rows_by_fewest_fillings(RowProducts, ColumnProducts, Order).
labeling_of(_, _, Rows, _, label_first_fail(Digits)) :-
    append(Rows, Digits).

label_first_fail(Vars) :-
    labeling([ff], Vars).

%!  label_primes(+Primes, +Cells, +Rows) is nondet.
%
%   Labels the exponents of Cells (a list of [E2, E3, E5, E7], one a digit
%   of Rows) prime by prime in the order of Primes, first-fail within each;
%   then the digits, where only 0s and 1s are left (they have no exponents).
label_primes(Primes, Cells, Rows) :-
    transpose(Cells, [Twos, Threes, Fives, Sevens]),
    pairs_keys_values(ByPrime, [2, 3, 5, 7], [Twos, Threes, Fives, Sevens]),
    maplist(prime_exponents_in(ByPrime), Primes, Exponents),
    maplist(label_first_fail, Exponents),
    append(Rows, Digits),
    label(Digits).

prime_exponents_in(ByPrime, Prime, Exponents) :-
    memberchk(Prime-Exponents, ByPrime).

%!  restarts(+Unit, +Cells, +Rows) is nondet.
%
%   Attempt K labels the cells as label_primes/3 does, in the K-th order of
%   attempt_order/4, within Unit * luby(K) inferences: restarted/3 runs
%   the attempts and gives every solution once.
restarts(Unit, Cells, Rows) :-
    restarted(attempt(Cells, Rows), Unit, Rows).

%   Attempt K labels as label_primes/3 does, in the order attempt_order/4
%   gives (worked out before the budget starts).
attempt(Cells, Rows, K, label_primes(Primes, Ordered, Rows)) :-
    attempt_order(K, Cells, Primes, Ordered).

%!  attempt_order(+K, +Cells, -Primes, -Ordered) is det.
%
%   The first attempt takes the cells as they come, 5s before 7s; later
%   ones alternate 7s and 5s first and take the cells in the K-th order of
%   shuffled/3.
attempt_order(1, Cells, [5, 7, 3, 2], Cells) :- !.
attempt_order(K, Cells, Primes, Ordered) :-
    (   K mod 2 =:= 0
    ->  Primes = [7, 5, 3, 2]
    ;   Primes = [5, 7, 3, 2]
    ),
    shuffled(K, Cells, Ordered).

%!  grid(+RowProducts, +ColumnProducts, -Rows, -Columns) is det.
%
%   Rows and Columns are the same fresh grid of variables, read both ways.
grid(RowProducts, ColumnProducts, Rows, Columns) :-
    grid_rows(RowProducts, ColumnProducts, Rows),
    length(ColumnProducts, Width),
    lines_transposed(Rows, Width, Columns).

%   Rows is a fresh grid of variables, a list per row.
grid_rows(RowProducts, ColumnProducts, Rows) :-
    length(ColumnProducts, Width),
    same_length(RowProducts, Rows),
    maplist(length_(Width), Rows).

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

%!  dividing_row(+ColumnProducts, +RowProduct, ?Row) is semidet.
%
%   A digit of Row is 0 or divides both its row's and its column's
%   product (a product of 0 leaves it free).
dividing_row(ColumnProducts, RowProduct, Row) :-
    maplist(dividing_digit(RowProduct), ColumnProducts, Row).

dividing_digit(RowProduct, ColumnProduct, Digit) :-
    known(RowProduct, Row),
    known(ColumnProduct, Column),
    Common is gcd(Row, Column),
    findall(D, ( between(1, 9, D), Common mod D =:= 0 ), Divisors),
    foldl(or_value, Divisors, 0, Domain),
    Digit in Domain.

or_value(Value, Domain, Domain \/ Value).

% With digits 1-9 there are no zeros to place, and a line of product 0 has no filling.
zero_lines(1, RowProducts-_, ColumnProducts-_) :- !,
    \+ ( member(Product, RowProducts), Product == 0 ),
    \+ ( member(Product, ColumnProducts), Product == 0 ).
zero_lines(0, RowProducts-Rows, ColumnProducts-Columns) :-
    maplist(zero_line, RowProducts, Rows),
    maplist(zero_line, ColumnProducts, Columns).

zero_line(Product, _) :-
    unknown(Product), !.
zero_line(0, Line) :- !,
    maplist(is_zero, Line, Zeros),
    sum(Zeros, #>=, 1).
zero_line(_, Line) :-
    maplist(#\=(0), Line).

is_zero(D, Z) :-
    Z #<==> D #= 0.

%!  lines(+Encoding, +RowProducts-Rows, +ColumnProducts-Columns, -Exponents) is semidet.
%
%   Posts the line products of Encoding.  Exponents is the grid of [E2,
%   E3, E5, E7] lists tied to the digits, for the encodings that tie them.
lines(chain, RowProducts-Rows, ColumnProducts-Columns, _) :-
    maplist(chain_product, RowProducts, Rows),
    maplist(chain_product, ColumnProducts, Columns).
lines(primes, Products, Lines, Exponents) :-
    lines(exponents, Products, Lines, Exponents).
lines(restarts, Products, Lines, Exponents) :-
    lines(exponents, Products, Lines, Exponents).
lines(exponents, RowProducts-Rows, ColumnProducts-_, ExponentRows) :-
    exponent_grid(Rows, ColumnProducts, ExponentRows, ExponentColumns),
    maplist(exponent_product, RowProducts, ExponentRows),
    maplist(exponent_product, ColumnProducts, ExponentColumns).
lines(fillings, RowProducts-Rows, ColumnProducts-_, ExponentRows) :-
    maplist(filling_row(ColumnProducts), RowProducts, Rows),
    exponent_grid(Rows, ColumnProducts, ExponentRows, ExponentColumns),
    maplist(exponent_product, ColumnProducts, ExponentColumns).

chain_product(Product, _) :-
    unknown(Product), !.
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

exponent_product(Product, _) :-
    unknown(Product), !.
exponent_product(0, _) :- !.
exponent_product(Product, Exponents) :-
    prime_exponents(Product, Sums),
    foldl(prime_sum(Exponents), Sums, 1, _).

prime_sum(Exponents, Sum, I, I1) :-
    maplist(nth1(I), Exponents, Es),
    sum(Es, #=, Sum),
    I1 is I + 1.

%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   The puzzle's own constraints as a person writes them by hand, for an
%   exported program to read: Goals are CLP(FD) goals on the digits of Rows
%   (not posted): their range, the givens, each row's and each column's
%   product as a chain of multiplications.  Then what makes it run in
%   seconds, where the chains alone (bounds reasoning, first-fail on the
%   digits) ran past 120 s on the notebook's 10x6: each digit's exponents
%   of 2, 3, 5 and 7 (E2_R1C1...) tied to it by the table of digits, every
%   known product as four sums of exponents, and the labeling of the
%   exponents prime by prime, 7s first (the primes encoding), then the
%   digits.  Named names the exponents.
constraints(Puzzle, Rows, Named, Goals) :-
    _{rows: RowProducts, columns: ColumnProducts, givens: Givens, low: Low} :< Puzzle,
    grid(RowProducts, ColumnProducts, Rows, Columns),
    append(Rows, Digits),
    maplist(given_goal(Rows), Givens, GivenGoals),
    foldl(product_goal, RowProducts, Rows, RowGoals, []),
    foldl(product_goal, ColumnProducts, Columns, ColumnGoals, []),
    maplist(domain_goal(Low..9), Rows, DomainGoals),
    exponent_goals(Low, RowProducts-Rows, ColumnProducts, Named, ExponentGoals, ByPrime),
    maplist(label_goal, ByPrime, PrimeLabeling),
    append([DomainGoals, GivenGoals, RowGoals, ColumnGoals, ExponentGoals, PrimeLabeling,
            [labeling([ff], Digits)]], Goals).

label_goal(Variables, labeling([ff], Variables)).

%!  exponent_goals(+Low, +RowProducts-Rows, +ColumnProducts, -Named, -Goals, -ByPrime) is det.
%
%   Goals tie every digit of Rows to its exponents by the table of digits
%   Low..9 (0's exponents all 0: a line holding it has no sums to meet),
%   then state every known product (not 0, no prime above 7) as a sum of
%   exponents per prime.  Named names each exponent for its prime and cell
%   (E7_R2C3); ByPrime lists them for 7, 5, 3, then 2.
exponent_goals(Low, RowProducts-Rows, ColumnProducts, Named, Goals, [Sevens, Fives, Threes, Twos]) :-
    maplist(maplist(fresh_exponents), Rows, ExponentRows),
    length(ColumnProducts, Width),
    lines_transposed(ExponentRows, Width, ExponentColumns),
    append(Rows, Digits),
    append(ExponentRows, Cells),
    length(Cells, Count),
    numlist(1, Count, Places),
    digits_with_exponents(AllDigits),
    include(digit_at_least(Low), AllDigits, Table),
    maplist(table_goal(Table), Digits, Cells, TableGoals),
    maplist(exponent_names(Width), Places, Cells, Names),
    append(Names, Named),
    foldl(exponent_sum_goals, RowProducts, ExponentRows, RowSums, []),
    foldl(exponent_sum_goals, ColumnProducts, ExponentColumns, ColumnSums, []),
    append([TableGoals, RowSums, ColumnSums], Goals),
    transpose(Cells, [Twos, Threes, Fives, Sevens]).

fresh_exponents(_Digit, [_E2, _E3, _E5, _E7]).

digit_at_least(Low, [Digit|_]) :-
    Digit >= Low.

table_goal(Table, Digit, Exponents, tuples_in([[Digit|Exponents]], Table)).

%   The names of the exponents of the Place-th digit (1-based, in reading order).
exponent_names(Width, Place, Exponents, Names) :-
    R is (Place - 1) // Width + 1,
    C is (Place - 1) mod Width + 1,
    maplist(exponent_name(R, C), [2, 3, 5, 7], Exponents, Names).

exponent_name(R, C, Prime, Exponent, Name = Exponent) :-
    format(atom(Name), "E~w_R~wC~w", [Prime, R, C]).

%   A line's product, if known and made of 2, 3, 5 and 7, as one sum of exponents per prime.
exponent_sum_goals(Product, Exponents, Goals0, Goals) :-
    integer(Product),
    Product > 0,
    prime_exponents(Product, Sums), !,
    transpose(Exponents, ByPrime),
    foldl(sum_goal, ByPrime, Sums, Goals0, Goals).
exponent_sum_goals(_, _, Goals, Goals).

sum_goal([E|Es], Sum, [Expression #= Sum|Goals], Goals) :-
    foldl(plus_expression, Es, E, Expression).

plus_expression(Term, Expression, Expression + Term).

domain_goal(Domain, Row, Row ins Domain).

given_goal(Rows, [R, C, Digit], Cell #= Digit) :-
    give(Rows, [R, C, Cell]).

%   A line's product, if known, as D1*D2*...*Dn #= Product.
product_goal(Product, [D|Ds], [Expression #= Product|Goals], Goals) :-
    integer(Product), !,
    foldl(times_expression, Ds, D, Expression).
product_goal(_, _, Goals, Goals).

times_expression(D, Expression, Expression*D).
