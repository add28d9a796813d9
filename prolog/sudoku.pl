:- module(sudoku,
          [ encodings/1,        % -Names
            model/4,            % +Encoding, +Puzzle, -Rows, -Labeling
            constraints/4       % +Puzzle, -Rows, -Named, -Goals
          ]).
/** <module> Sudoku: every row, column and 3×3 box holds the same nine distinct
digits, optionally chosen so that the numbers the rows (or columns) spell
have the greatest possible common divisor.

A puzzle arrives from Python as a dict

    _{givens: [[Row, Column, Digit], ...], low: Low, high: High,
      objective: Objective}

with 0-based Row and Column.  The digits in use are nine of Low..High (so
all of them for 1..9; for 0..9 one digit is left out, the same one in every
unit).  Objective is "none", "gcd(rows)" or "gcd(cols)" (a string or an
atom): maximize the greatest common divisor of the nine 9-digit numbers the
rows (or columns, read top to bottom) spell, leading zeros allowed.

The solution is the grid, a list of rows; with an objective, only grids
whose GCD is the largest any valid grid reaches are solutions.

Two facts shape the objective.  Every row holds the same digits, so each
column holds them too, and the line numbers add up to S × 111111111, S
being the sum of the digits in use: the GCD divides S × 111111111, which
leaves a few hundred candidates.  And a line number is linear in its
digits, so fixing it to a multiple of a candidate fixes all nine digits.

model/4 is the pure relation, and hands back the labeling.  For an
objective, the labeling first finds the largest candidate G that some grid
reaches, proving by complete search that every larger one is reached by
none, then labels the grids whose GCD is G, so every solution is an
optimal grid.

Encodings (same solutions, different strength and search):

  - cardinality (the default): each row and column holds each digit once
    as a global_cardinality/3 with value consistency, which counts for
    every digit the cells that can still take it (naked and hidden
    singles) at little cost per wake-up; the boxes are all_distinct,
    whose matching also finds naked and hidden subsets.  First-fail
    labeling; the objective as in distinct.  Counting on every unit, or
    matching on every unit (distinct), or on the lines instead of the
    boxes, each costs more inferences on the hard classics.
  - distinct: all_distinct on every unit, first-fail labeling; for an
    objective each line is also given the table of the multiples of the
    candidate that its cells can spell.
  - modulo: all_distinct, first-fail labeling of the digits; the objective
    prunes only through `Number mod G #= 0`.
  - different: all_different (weaker propagation), leftmost labeling;
    objective as in modulo.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).

encodings([cardinality, distinct, modulo, different]).

%   The largest number nine distinct digits spell: no GCD exceeds it.
largest_line_number(987654321).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of digit variables of Puzzle, constrained the way
%   Encoding says; Labeling labels them (the optimal grids only, for an
%   objective).  Fails when the constraints are found inconsistent.
model(Encoding, Puzzle, Rows, Labeling) :-
    _{givens: Givens, low: Low, high: High, objective: ObjectiveText} :< Puzzle,
    atom_string(Objective, ObjectiveText),
    grid(Rows),
    maplist(give(Rows), Givens),
    unused_digits(Low, High, Rows, Unused, Sum),
    lines_and_boxes(Rows, Lines, Boxes),
    maplist(unit(Encoding, line, Low-High, Unused), Lines),
    maplist(unit(Encoding, box, Low-High, Unused), Boxes),
    objective(Objective, Encoding, Rows, Low-High, Sum, Labeling).

grid(Rows) :-
    length(Rows, 9),
    maplist(length_(9), Rows).

length_(Length, List) :-
    length(List, Length).

give(Rows, [R, C, Digit]) :-
    nth0(R, Rows, Row),
    nth0(C, Row, Digit).

%!  unused_digits(+Low, +High, +Rows, -Unused, -Sum) is det.
%
%   Unused lists the digits of Low..High that the grid leaves out: none
%   for nine digits, one for ten.  Sum is the sum of the nine in use.
unused_digits(Low, High, Rows, Unused, Sum) :-
    append(Rows, Digits),
    Digits ins Low..High,
    Left is High - Low + 1 - 9,
    length(Unused, Left),
    Unused ins Low..High,
    sum(Unused, #=, Out),
    Sum #= (Low + High) * (High - Low + 1) // 2 - Out.

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

%!  unit(+Encoding, +Kind, +Low-High, +Unused, +Unit) is semidet.
%
%   Unit (a line or a box, as Kind says) and the unused digits together
%   hold every digit of Low..High once, so all units leave out the same
%   digits.
unit(cardinality, line, Digits, Unused, Unit) :- !,
    append(Unused, Unit, Cells),
    each_digit_once(Digits, Cells).
unit(different, _, _, Unused, Unit) :- !,
    append(Unused, Unit, Cells),
    all_different(Cells).
unit(_, _, _, Unused, Unit) :-           % distinct, modulo; boxes of cardinality
    append(Unused, Unit, Cells),
    all_distinct(Cells).

%!  each_digit_once(+Low-High, +Cells) is semidet.
%
%   Every digit of Low..High is taken by exactly one of Cells.  Value
%   consistency counts, for each digit, the cells whose domain still
%   holds it: one left takes the digit (a hidden single), a placed digit
%   leaves the other cells' domains (a naked single).
each_digit_once(Low-High, Cells) :-
    numlist(Low, High, Digits),
    maplist(once_pair, Digits, Pairs),
    global_cardinality(Cells, Pairs, [consistency(value)]).

once_pair(Digit, Digit-1).

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
    greatest_first(G, Candidates),
    Reached = reached(none),
    member(Value, Candidates),
    (   arg(1, Reached, none)
    ->  true
    ;   !, fail                 % a larger candidate has grids: stop here
    ),
    label_grid(Encoding, Rows, Lines, G, Value),
    nb_setarg(1, Reached, Value).

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
    ;   findall(Digits, fitting_multiple(G, First, Last, Line, Digits), Table),
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

fitting_multiple(G, First, Last, Line, Digits) :-
    between(First, Last, K),
    Multiple is G * K,
    number_line(Multiple, Digits),
    maplist(fits, Digits, Line).

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


%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   The puzzle's own constraints as a person writes them by hand, for an
%   exported program to read: Goals are CLP(FD) goals on the digits of Rows
%   (not posted): their range, the givens, all_distinct for every row,
%   column and box (each with `Unused`, the digit left out, when nine are
%   chosen from ten), then the labeling.  An objective adds each line's
%   number (`Row1`..`Row9`, or `Column1`..), their sum, and that `G`
%   divides them, G one of the candidates; the labeling tries G from the
%   largest down, each by a complete search of the digits, so the first
%   solution is an optimal grid.  That is the `modulo` encoding: plain to
%   read, slow to run (25 s on the January 2025 puzzle).  Named names
%   Unused, G and the line numbers.
constraints(Puzzle, Rows, Named, Goals) :-
    _{givens: Givens, low: Low, high: High, objective: ObjectiveText} :< Puzzle,
    atom_string(Objective, ObjectiveText),
    grid(Rows),
    maplist(given_goal(Rows), Givens, GivenGoals),
    Left is High - Low + 1 - 9,
    length(Unused, Left),
    unused_named(Unused, Low-High, UnusedGoals, UnusedNamed),
    lines_and_boxes(Rows, Lines, Boxes),
    append(Lines, Boxes, Units),
    maplist(unit_goal(Unused), Units, UnitGoals),
    objective_goals(Objective, Rows, Unused, Low-High, ObjectiveNamed, ObjectiveGoals, Labeling),
    append(UnusedNamed, ObjectiveNamed, Named),
    maplist(domain_goal(Low..High), Rows, DomainGoals),
    append([DomainGoals, UnusedGoals, GivenGoals, UnitGoals, ObjectiveGoals, Labeling], Goals).

domain_goal(Domain, Row, Row ins Domain).

given_goal(Rows, [R, C, Digit], Cell #= Digit) :-
    give(Rows, [R, C, Cell]).

unused_named([], _, [], []).
unused_named([Unused], Low-High, [Unused in Low..High], ['Unused' = Unused]).

unit_goal(Unused, Unit, all_distinct(Cells)) :-
    append(Unused, Unit, Cells).

objective_goals(none, Rows, _, _, [], [], [labeling([ff], Digits)]) :- !,
    append(Rows, Digits).
objective_goals(Objective, Rows, Unused, Low-High, ['G' = G|NumberNames], Goals,
                [labeling([down], [G]), labeling([ff], Digits)]) :-
    append(Rows, Digits),
    objective_lines(Objective, Rows, Lines),
    same_length(Lines, Numbers),
    maplist(number_goal, Lines, Numbers, NumberGoals),
    numbers_named(Objective, Numbers, NumberNames),
    sum_in_use(Low-High, Unused, Sum),
    Numbers = [N|Ns],
    foldl(plus_expression, Ns, N, Total),
    maplist(divisible_goal(G), Numbers, DivisibleGoals),
    gcd_candidates(Low, High, Pairs),
    findall(C, member([C, _], Pairs), Candidates0),
    sort(Candidates0, Ascending),
    reverse(Ascending, [First|Candidates]),
    foldl(union_expression, Candidates, First, Domain),
    append([NumberGoals, [Total #= Sum*111111111, G in Domain], DivisibleGoals], Goals).

%   The number Line spells, its first digit the most significant.
number_goal(Line, Number, Number #= Expression) :-
    place_values(Values),
    maplist(place_term, Values, Line, [Term|Terms]),
    foldl(plus_expression, Terms, Term, Expression).

place_term(1, Digit, Digit) :- !.
place_term(Value, Digit, Value*Digit).

numbers_named(Objective, Numbers, Named) :-
    (   Objective == 'gcd(rows)'
    ->  Prefix = 'Row'
    ;   Prefix = 'Column'
    ),
    foldl(number_named(Prefix), Numbers, Named, 1, _).

number_named(Prefix, Number, Name = Number, I, I1) :-
    atom_concat(Prefix, I, Name),
    I1 is I + 1.

%   The sum of the nine digits in use, less the one left out of ten.
sum_in_use(Low-High, Unused, Sum) :-
    All is (Low + High) * (High - Low + 1) // 2,
    (   Unused = [Out]
    ->  Sum = All - Out
    ;   Sum = All
    ).

plus_expression(Term, Expression, Expression + Term).

divisible_goal(G, Number, Number mod G #= 0).

union_expression(Value, Domain, Domain \/ Value).
