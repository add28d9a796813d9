:- module(sudoku_gcd,
          [ objective/6,        % +Objective, +Encoding, +Rows, +Low-High, +Sum, -Labeling
            objective_lines/3,  % +Objective, +Rows, -Lines
            gcd_candidates/3,   % +Low, +High, -Pairs
            first_reached/3,    % +Candidates, -C, :Solutions
            incumbent_first/2,  % :Labeling, +Rows
            digits_number/2,    % +Digits, -Number
            fitting_multiple/6, % +G, +First, +Last, :Fits, +Cells, -Digits
            place_values/1,     % -Values
            label_grid/5,       % +Encoding, +Rows, +Lines, ?G, +Value
            optimal_grids/4     % +Encoding, +Rows, +Lines, ?G
          ]).
/** <module> Sudoku's objective: the rows (or columns) with the greatest common divisor.

What the objective is (see sudoku.pl): the candidates a GCD may be
(gcd_candidates/3), tried largest first, each by a complete search
(first_reached/3); and how the CLP(FD) encodings search for it
(objective/6, optimal_grids/4).  The candidates encoding, on the grid
kernel, has its own propagator for the same lines (sudoku_candidates.pl).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).

:- set_prolog_flag(optimise, true).
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

:- meta_predicate
    incumbent_first(0, +),
    fitting_multiple(+, +, +, 2, +, -).

%   The largest number nine distinct digits spell: no GCD exceeds it.
largest_line_number(987654321).

%!  objective(+Objective, +Encoding, +Rows, +Low-High, +Sum, -Labeling) is semidet.
%
%   Posts what the objective needs, and gives the labeling: every grid
%   without an objective, the optimal grids with one.
objective(none, Encoding, Rows, _, _, label_grid(Encoding, Rows, [], 1, 1)).
objective(Objective, Encoding, Rows, Digits, Sum, optimal_grids(Encoding, Rows, Lines, G)) :-
    objective_lines(Objective, Rows, Lines),
    common_divisor(Digits, Lines, Sum, G).

%!  common_divisor(+Low-High, +Lines, +Sum, -G) is semidet.
%
%   G divides each of the numbers the Lines spell, and is one of the
%   candidates for the digit sum Sum.
common_divisor(Low-High, Lines, Sum, G) :-
    maplist(line_number, Lines, Numbers),
    sum(Numbers, #=, Sum * 111111111),
    gcd_candidates(Low, High, Pairs),
    tuples_in([[G, Sum]], Pairs),
    maplist(divides(G), Numbers).

objective_lines('gcd(rows)', Rows, Rows).
objective_lines('gcd(cols)', Rows, Columns) :-
    transpose(Rows, Columns).

%   The number a line spells, its first digit the most significant.
line_number(Line, Number) :-
    place_values(Values),
    scalar_product(Values, Line, #=, Number).

place_values([100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1]).

divides(G, Number) :-
    Number mod G #= 0.

%!  gcd_candidates(+Low, +High, -Pairs) is det.
%
%   Pairs are the [G, S] with S the sum of nine digits of Low..High and G a
%   divisor of S × 111111111 no larger than any line number can be.
gcd_candidates(Low, High, Pairs) :-
    findall(S, digit_sum(Low, High, S), Sums0),
    sort(Sums0, Sums),
    largest_line_number(Largest),
    findall([G, S], ( member(S, Sums),
                      Total is S * 111111111,
                      divisor(Total, G),
                      G =< Largest ),
            Pairs).

digit_sum(Low, High, S) :-
    numlist(Low, High, Digits),
    length(Nine, 9),
    sublist_of(Nine, Digits),
    sum_list(Nine, S).

sublist_of([], _).
sublist_of([X|Xs], [X|Ys]) :-
    sublist_of(Xs, Ys).
sublist_of(Xs, [_|Ys]) :-
    Xs = [_|_],
    sublist_of(Xs, Ys).

%!  divisor(+N, -D) is nondet.
%
%   D is a divisor of the positive integer N, from its prime factors.
divisor(N, D) :-
    prime_factors(N, Factors),
    msort(Factors, Sorted),
    clumped_pairs(Sorted, Powers),
    foldl(power_part, Powers, 1, D).

power_part(P-E, D0, D) :-
    between(0, E, K),
    D is D0 * P ^ K.

clumped_pairs(Sorted, Pairs) :-
    pairs_keys_values(Keyed, Sorted, Sorted),
    group_pairs_by_key(Keyed, Groups),
    maplist(power_count, Groups, Pairs).

power_count(P-Ps, P-E) :-
    length(Ps, E).

prime_factors(N, Factors) :-
    prime_factors(N, 2, Factors).

prime_factors(1, _, []) :- !.
prime_factors(N, F, [N]) :-
    F * F > N, !.
prime_factors(N, F, [F|Factors]) :-
    N mod F =:= 0, !,
    N1 is N // F,
    prime_factors(N1, F, Factors).
prime_factors(N, F, Factors) :-
    F1 is F + 1,
    prime_factors(N, F1, Factors).

%!  optimal_grids(+Encoding, +Rows, +Lines, ?G) is nondet.
%
%   Labels the grids whose Lines have the greatest GCD G any grid reaches.
optimal_grids(Encoding, Rows, Lines, G) :-
    incumbent_first(( append(Rows, Digits), labeling([ff], Digits) ), Rows),
    greatest_first(G, Candidates),
    first_reached(Candidates, _, label_grid(Encoding, Rows, Lines, G)).

%!  first_reached(+Candidates, -C, :Solutions) is nondet.
%
%   The solutions of call(Solutions, C) for the first candidate C of
%   Candidates, in their order, that has any: every candidate before it
%   stands refuted by a complete search, and none after it is tried.
:- meta_predicate first_reached(+, -, 1).

first_reached(Candidates, C, Solutions) :-
    Reached = reached(none),
    member(C, Candidates),
    (   arg(1, Reached, none)
    ->  true
    ;   !, fail                 % an earlier candidate has solutions: stop here
    ),
    call(Solutions, C),
    nb_setarg(1, Reached, C).

%!  incumbent_first(:Labeling, +Rows) is det.
%
%   Reports the first grid Labeling finds (if any) as the best so far, and
%   undoes it: the search for the optimum may take longer than the time it
%   is given, and then that grid is the answer it has.
incumbent_first(Labeling, Rows) :-
    \+ \+ (   once(Labeling)
          ->  ignore(crossprolog:incumbent(Rows))
          ;   true
          ).

%   The driver's hook; a program exported to run on its own has no driver, and
%   then nobody listens.
:- multifile crossprolog:incumbent/1.

%   The candidates are tried largest first, each by a complete search for
%   its grids; the first to have any is the optimum, and the search stops
%   before the next, so every larger candidate stands refuted.
greatest_first(G, Candidates) :-
    fd_dom(G, Domain),
    findall(C, ( C in Domain, labeling([down], [C]) ), Candidates).

%!  label_grid(+Encoding, +Rows, +Lines, ?G, +Value) is nondet.
%
%   Labels every digit of Rows, G being Value; the numbers Lines spell are
%   multiples of G.
label_grid(Encoding, Rows, Lines, G, Value) :-
    memberchk(Encoding, [cardinality, distinct]), !,
    maplist(multiples_table(Value), Lines, Tables),
    maplist(spells_one_of, Lines, Tables),
    G = Value,
    append(Rows, Digits),
    labeling([ff], Digits).
label_grid(modulo, Rows, _, G, Value) :- !,
    G = Value,
    append(Rows, Digits),
    labeling([ff], Digits).
label_grid(different, Rows, _, G, Value) :-
    G = Value,
    append(Rows, Digits),
    label(Digits).

%!  multiples_table(+G, +Line, -Table) is semidet.
%
%   Table lists the multiples of G whose digits fit the cells of Line, or
%   is `many` when there are too many to list (the model's `mod` constraint
%   covers those).  Fails when there are none: listing the tables of all
%   lines before posting any refutes most candidates without waking a
%   single propagator.
multiples_table(G, Line, Table) :-
    line_number_bounds(Line, Low, High),
    First is (Low + G - 1) // G,
    Last is High // G,
    (   Last - First > 10000
    ->  Table = many
    ;   findall(Digits, fitting_multiple(G, First, Last, fits, Line, Digits), Table),
        Table \== []
    ).

spells_one_of(_, many) :- !.
spells_one_of(Line, Table) :-
    tuples_in([Line], Table).

line_number_bounds(Line, Low, High) :-
    maplist(fd_inf, Line, Lows),
    maplist(fd_sup, Line, Highs),
    digits_number(Lows, Low),
    digits_number(Highs, High).

digits_number(Digits, Number) :-
    foldl(shift_in, Digits, 0, Number).

shift_in(Digit, N0, N) :-
    N is 10 * N0 + Digit.

%!  fitting_multiple(+G, +First, +Last, :Fits, +Cells, -Digits) is nondet.
%
%   Digits spell a multiple G*K, K in First..Last, with nine distinct
%   digits, each of which call(Fits, Digit, Cell) allows in its cell.
fitting_multiple(G, First, Last, Fits, Cells, Digits) :-
    between(First, Last, K),
    Multiple is G * K,
    number_line(Multiple, Digits),
    maplist(Fits, Digits, Cells).

number_line(Number, Digits) :-
    place_values(Values),
    maplist(place_digit(Number), Values, Digits),
    sort(Digits, Distinct),
    length(Distinct, 9).

place_digit(Number, Value, Digit) :-
    Digit is Number // Value mod 10.

fits(Digit, Cell) :-
    fd_dom(Cell, Domain),
    Digit in Domain.
