:- module(sudoku_candidates,
          [ candidates_model/3,     % +Puzzle, -Rows, -Labeling
            label_candidates/2,     % +Grid, +Low-High
            optimal_candidates/3    % +Grid, +Low-High, +LineCells
          ]).
/** <module> Sudoku's default encoding, candidates: on the grid kernel.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(grid).
:- use_module(sudoku_rules, [sudoku/3, rows_of_nine/2]).
:- use_module(sudoku_gcd, [objective_lines/3, gcd_candidates/3, first_reached/3, incumbent_first/2,
                           digits_number/2, fitting_multiple/6]).

%   Compiled arithmetic: the candidates encoding is arithmetic on masks in
%   its inner loops.
:- set_prolog_flag(optimise, true).
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%   The candidates encoding is the grid kernel's search (grid.pl) over
%   sudoku/3's statement: naked and hidden singles on bitmasks, fewest
%   candidates first.  Two things are Sudoku's own, layered on it: the
%   digit a range of ten leaves out, chosen by the labeling before the
%   search (until then no unit has a cell for every digit, so none takes
%   hidden singles), and the objective's lines, a propagator keeping for
%   each line the table of multiples of the candidate G it can still
%   spell.  Cells are numbered 1..81 row by row.

%!  candidates_model(+Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of Puzzle, its givens and the singles they imply
%   placed on the kernel's state; Labeling labels every grid, or for an
%   objective the optimal grids.  Fails when the givens contradict each
%   other.
candidates_model(Puzzle, Rows, Labeling) :-
    _{low: Low, high: High, objective: ObjectiveText} :< Puzzle,
    atom_string(Objective, ObjectiveText),
    candidates(Puzzle, Rows, Grid),
    candidates_labeling(Objective, Grid, Low-High, Labeling).

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
