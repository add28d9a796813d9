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

  - candidates (the default): the grid kernel's search (grid.pl) over
    sudoku/3's statement of the rules (every row, column and box all
    different): naked and hidden singles on bitmasks rather than CLP(FD)
    propagators, and locked candidates from each box (a box's digit
    confined to one of its rows or columns leaves the rest of the line),
    branching on a cell with the fewest candidates, among those the one
    with the fewest digits placed in its units.  For a
    range of ten digits, the labeling first chooses the digit left out.
    For an objective, the GCD candidates are tried as for distinct,
    largest first: each line keeps the table of the multiples it can
    still spell, narrowed as its cells are (a propagator added to the
    kernel's), and its cells keep only the digits some entry has; a line
    with too many multiples to list is checked once placed.
  - cardinality: each row and column holds each digit once
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
:- use_module(library(aggregate)).
:- use_module(grid).

%   Compiled arithmetic: the candidates encoding is arithmetic on masks in
%   its inner loops (the flag holds for this file only).
:- set_prolog_flag(optimise, true).

encodings([candidates, cardinality, distinct, modulo, different]).

%   The largest number nine distinct digits spell: no GCD exceeds it.
largest_line_number(987654321).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of digit variables of Puzzle, constrained the way
%   Encoding says; Labeling labels them (the optimal grids only, for an
%   objective).  Fails when the constraints are found inconsistent.
model(candidates, Puzzle, Rows, Labeling) :- !,
    _{low: Low, high: High, objective: ObjectiveText} :< Puzzle,
    atom_string(Objective, ObjectiveText),
    candidates(Puzzle, Rows, Grid),
    candidates_labeling(Objective, Grid, Low-High, Labeling).
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

%!  candidates_labeling(+Objective, +Grid, +Low-High, -Labeling) is det.
%
%   The labeling of the candidates encoding: every grid, or for an
%   objective the optimal grids, whose lines are the rows or columns of
%   cell numbers.
candidates_labeling(none, Grid, Digits, label_candidates(Grid, Digits)).
candidates_labeling(Objective, Grid, Digits, optimal_candidates(Grid, Digits, LineCells)) :-
    numlist(1, 81, Numbers),
    rows_of_nine(Numbers, NumberRows),
    objective_lines(Objective, NumberRows, LineCells).

rows_of_nine([], []).
rows_of_nine(Cells, [Row|Rows]) :-
    length(Row, 9),
    append(Row, Rest, Cells),
    rows_of_nine(Rest, Rows).

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

		 /*******************************
		 *   CANDIDATES: ON THE KERNEL  *
		 *******************************/

%   The candidates encoding is the grid kernel's search (grid.pl) over
%   sudoku/3's statement: naked and hidden singles on bitmasks, fewest
%   candidates first.  Two things are Sudoku's own, layered on it: the
%   digit a range of ten leaves out, chosen by the labeling before the
%   search (until then no unit has a cell for every digit, so none takes
%   hidden singles), and the objective's lines, a propagator keeping for
%   each line the table of multiples of the candidate G it can still
%   spell.  Cells are numbered 1..81 row by row.

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

%!  candidates(+Puzzle, -Rows, -Grid) is semidet.
%
%   Grid is the kernel's state of Puzzle's grid Rows, its givens and the
%   singles they imply placed.  Fails when the givens contradict each
%   other.
candidates(Puzzle, Rows, Grid) :-
    _{low: Low, high: High} :< Puzzle,
    sudoku(Puzzle, Rows, Rules),
    append(Rows, Cells),
    grid_state(Cells, Low-High, Rules, Grid).

%!  label_candidates(+Grid, +Low-High) is nondet.
%
%   Every grid: for a range of ten, each digit no given takes left out in
%   turn.
label_candidates(Grid, Digits) :-
    place_bound_cells(Grid),
    leave_out(Grid, Digits, _),
    search_grid(Grid).

%!  leave_out(+Grid, +Low-High, ?Out) is nondet.
%
%   The grid leaves out the digit Out (`none` when nine are in use): Out
%   is no candidate anywhere, and every unit holds each other digit once.
leave_out(Grid, _, none) :-
    digits_in_use(Grid, InUse),
    popcount(InUse) =:= 9, !.
leave_out(Grid, Low-High, Out) :-
    placed_digits(Grid, Taken),
    between(Low, High, Out),
    Taken /\ (1 << Out) =:= 0,
    digits_mask(Low, High, All),
    InUse is All xor (1 << Out),
    use_digits(Grid, InUse).

digits_mask(Low, High, Mask) :-
    Mask is (1 << (High + 1)) - (1 << Low).

%!  optimal_candidates(+Grid, +Low-High, +LineCells) is nondet.
%
%   The grids whose lines (LineCells: the cell numbers of each) spell
%   numbers with the greatest GCD any grid reaches, as optimal_grids/4
%   finds them: candidates from the largest down, each by a complete
%   search, stopping after the first that has grids.  For a range of ten,
%   a candidate G comes with the digit sums S it divides S × 111111111 for,
%   and S says which digit is left out.
optimal_candidates(Grid, Low-High, LineCells) :-
    place_bound_cells(Grid),
    propagate_grid(Grid),
    grid_rows(Grid, Rows),
    incumbent_first(label_candidates(Grid, Low-High), Rows),
    candidate_outs(Grid, Low-High, Candidates),
    pairs_keys(Candidates, Gs0),
    sort(Gs0, Ascending),
    reverse(Ascending, Gs),
    first_reached(Gs, _, candidate_grids(Grid, Low-High, LineCells, Candidates)).

%   The grids whose lines spell multiples of G, for each digit left out
%   with G among Candidates.
candidate_grids(Grid, Low-High, LineCells, Candidates, G) :-
    member(G-Out, Candidates),
    leave_out(Grid, Low-High, Out),
    maplist(line_table(Grid, G), LineCells, Tables),
    Lines =.. [lines|Tables],
    set_propagator(Grid, lines_support(Lines)),
    search_grid(Grid).

grid_rows(Grid, Rows) :-
    numlist(1, 81, Numbers),
    maplist(grid_cell(Grid), Numbers, Cells),
    rows_of_nine(Cells, Rows).

grid_cell(Grid, I, Cell) :-
    arg(1, Grid, Cells),
    arg(I, Cells, Cell).

%   Candidates are G-Out: a candidate GCD and the digit left out with it
%   (none for a range of nine), Out taken by no given.
candidate_outs(Grid, Low-High, Candidates) :-
    gcd_candidates(Low, High, Pairs),
    placed_digits(Grid, Taken),
    Total is (Low + High) * (High - Low + 1) // 2,
    findall(G-Out, ( member([G, S], Pairs),
                     left_out_digit(Low-High, Total, S, Out),
                     (   Out == none
                     ->  true
                     ;   Taken /\ (1 << Out) =:= 0
                     ) ),
            Candidates).

left_out_digit(Low-High, _, _, none) :-
    High - Low =:= 8, !.
left_out_digit(_, Total, S, Out) :-
    Out is Total - S.

%!  line_table(+Grid, +G, +Cells, -Line) is semidet.
%
%   Line is line(Cells, Table): Table lists the multiples of G that the
%   cells can spell, as digit lists, or is many(G) when there are too many
%   to list (then the line is checked once it is placed).  Fails when there
%   are none: most candidates fail while their tables are listed.
line_table(Grid, G, Cells, line(Cells, Table)) :-
    maplist(cell_allowed(Grid), Cells, Allowed),
    maplist(lowest_digit, Allowed, Lows),
    maplist(highest_digit, Allowed, Highs),
    digits_number(Lows, Low),
    digits_number(Highs, High),
    First is (Low + G - 1) // G,
    Last is High // G,
    (   Last - First > 10000
    ->  Table = many(G)
    ;   findall(Digits, fitting_multiple(G, First, Last, allows, Allowed, Digits), Table),
        Table \== []
    ).

lowest_digit(Mask, Digit) :-
    Digit is lsb(Mask).

highest_digit(Mask, Digit) :-
    Digit is msb(Mask).

allows(Digit, Allowed) :-
    Allowed /\ (1 << Digit) =\= 0.

%!  lines_support(+Lines, +Grid, -Narrowed) is semidet.
%
%   The objective's propagator: keeps in each line's table the digit
%   lists its cells still allow, and takes from every open cell the digits
%   no kept list has there (Narrowed is true if that took any).  Fails
%   when a table runs empty, or a placed line of many(G) spells no
%   multiple of G.
lines_support(Lines, Grid, Narrowed) :-
    functor(Lines, _, N),
    numlist(1, N, Ks),
    foldl(line_support(Grid, Lines), Ks, false, Narrowed).

line_support(Grid, Lines, K, Narrowed0, Narrowed) :-
    arg(K, Lines, line(Cells, Table)),
    maplist(cell_allowed(Grid), Cells, Allowed),
    line_table_support(Table, Cells, Allowed, Grid, Lines, K, Narrowed0, Narrowed).

line_table_support(many(G), Cells, Allowed, Grid, _, _, Narrowed, Narrowed) :- !,
    (   maplist(placed_cell(Grid), Cells)
    ->  maplist(lowest_digit, Allowed, Digits),
        digits_number(Digits, Number),
        Number mod G =:= 0
    ;   true
    ).
line_table_support(Table, Cells, Allowed, Grid, Lines, K, Narrowed0, Narrowed) :-
    include(allowed_digits(Allowed), Table, Kept),
    Kept \== [],
    setarg(K, Lines, line(Cells, Kept)),
    length(Zeros, 9),
    maplist(=(0), Zeros),
    foldl(support_masks, Kept, Zeros, Supports),
    foldl(keep_supported(Grid), Cells, Supports, Narrowed0, Narrowed).

allowed_digits(Allowed, Digits) :-
    maplist(allows, Digits, Allowed).

support_masks(Digits, Masks0, Masks) :-
    maplist(support_mask, Digits, Masks0, Masks).

support_mask(Digit, Mask0, Mask) :-
    Mask is Mask0 \/ (1 << Digit).

keep_supported(Grid, I, Support, Narrowed0, Narrowed) :-
    cell_allowed(Grid, I, Mask),
    Unsupported is Mask /\ \ Support,
    (   Unsupported =:= 0
    ->  Narrowed = Narrowed0
    ;   remove_digits(Grid, Unsupported, I),
        Narrowed = true
    ).

%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   The puzzle's own constraints as a person writes them by hand, for an
%   exported program to read: Goals are CLP(FD) goals on the digits of Rows
%   (not posted): their range, then sudoku/3's statement (the givens, and
%   all_distinct for every row, column and box, each with `Unused`, the
%   digit left out, when nine are chosen from ten), then the labeling.
%   An objective adds each line's number (`Row1`..`Row9`, or
%   `Column1`..), their sum, and that `G`
%   divides them, G one of the candidates; the labeling tries G from the
%   largest down, each by a complete search of the digits, so the first
%   solution is an optimal grid.  That is the `modulo` encoding: plain to
%   read, slow to run (25 s on the January 2025 puzzle).  Named names
%   Unused, G and the line numbers.
constraints(Puzzle, Rows, Named, Goals) :-
    _{low: Low, high: High, objective: ObjectiveText} :< Puzzle,
    atom_string(Objective, ObjectiveText),
    sudoku(Puzzle, Rows, Rules),
    Left is High - Low + 1 - 9,
    length(Unused, Left),
    unused_named(Unused, Low-High, UnusedGoals, UnusedNamed),
    partition(is_given, Rules, GivenRules, UnitRules),
    maplist(rule_goal, GivenRules, GivenGoals),
    maplist(unit_goal(Unused), UnitRules, UnitGoals),
    objective_goals(Objective, Rows, Unused, Low-High, ObjectiveNamed, ObjectiveGoals, Labeling),
    append(UnusedNamed, ObjectiveNamed, Named),
    maplist(domain_goal(Low..High), Rows, DomainGoals),
    append([DomainGoals, UnusedGoals, GivenGoals, UnitGoals, ObjectiveGoals, Labeling], Goals).

domain_goal(Domain, Row, Row ins Domain).


unused_named([], _, [], []).
unused_named([Unused], Low-High, [Unused in Low..High], ['Unused' = Unused]).

%   A unit of sudoku/3's statement, with the digit a range of ten leaves out
%   (Unused) among its cells: the ten are then all different.
unit_goal(Unused, all_distinct(Unit), all_distinct(Cells)) :-
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
    rule_goal(sum(Numbers, Sum*111111111), SumGoal),
    maplist(divisible_goal(G), Numbers, DivisibleGoals),
    gcd_candidates(Low, High, Pairs),
    findall(C, member([C, _], Pairs), Candidates0),
    sort(Candidates0, Ascending),
    reverse(Ascending, [First|Candidates]),
    foldl(union_expression, Candidates, First, Domain),
    append([NumberGoals, [SumGoal, G in Domain], DivisibleGoals], Goals).

%   The number Line spells, its first digit the most significant.
number_goal(Line, Number, Number #= Expression) :-
    place_values(Values),
    maplist(place_term, Values, Line, Terms),
    rule_goal(sum(Terms, Number), Expression #= Number).

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

divisible_goal(G, Number, Number mod G #= 0).

union_expression(Value, Domain, Domain \/ Value).
