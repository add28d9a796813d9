/*  The grid kernel (prolog/grid.pl), tested in Prolog itself with plunit.
    Run by tests/test_prolog_units.py, or by hand from the repository root:

        swipl -g run_tests -t halt tests/prolog/test_grid.pl
*/

:- use_module('../../prolog/grid').
:- use_module(library(plunit)).
:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).

%   A 4x4 Latin square with 2x2 boxes (a Sudoku of four), its rows, its
%   cells in reading order and its rules.
shidoku(Rows, Cells, Rules) :-
    Rows = [[A,B,C,D],[E,F,G,H],[I,J,K,L],[M,N,O,P]],
    append(Rows, Cells),
    transpose(Rows, Columns),
    Boxes = [[A,B,E,F],[C,D,G,H],[I,J,M,N],[K,L,O,P]],
    append([Rows, Columns, Boxes], Units),
    maplist([U, all_distinct(U)]>>true, Units, Rules).

solutions(Cells, Digits, Rules, Solutions) :-
    findall(Cells, ( grid_state(Cells, Digits, Rules, Grid), label_grid(Grid) ), Solutions).

%   The kernel's solutions and CLP(FD)'s of the same rules, each sorted.
kernel_and_clpfd(Cells, Low-High, Rules, Kernel, Clpfd) :-
    solutions(Cells, Low-High, Rules, Kernel0),
    msort(Kernel0, Kernel),
    findall(Cells, ( Cells ins Low..High,
                     maplist(rule_goal, Rules, Goals), maplist(call, Goals),
                     label(Cells) ),
            Clpfd0),
    msort(Clpfd0, Clpfd).

:- begin_tests(units).

test(every_shidoku, [true(N == 288)]) :-
    shidoku(_, Cells, Rules),
    solutions(Cells, 1-4, Rules, Solutions),
    length(Solutions, N).

test(givens_leave_one_solution, [true(Solutions == [[[1,2,3,4],[3,4,1,2],[2,3,4,1],[4,1,2,3]]])]) :-
    shidoku(Rows, Cells, Rules0),
    Rows = [[A,B,C,_],[E,_,_,_],[I,J,_,_],_],
    append(Rules0, [given(A,1), given(B,2), given(C,3), given(E,3), given(I,2), given(J,3)],
           Rules),
    findall(Rows, ( grid_state(Cells, 1-4, Rules, Grid), label_grid(Grid) ), Solutions).

test(a_digit_twice_in_a_unit_fails, [fail]) :-
    shidoku([[A,B|_]|_], Cells, Rules0),
    append(Rules0, [given(A,1), given(B,1)], Rules),
    grid_state(Cells, 1-4, Rules, _).

test(a_given_out_of_the_digits_fails, [fail]) :-
    shidoku([[A|_]|_], Cells, Rules0),
    append(Rules0, [given(A,5)], Rules),
    grid_state(Cells, 1-4, Rules, _).

test(two_digits_given_one_cell_fail, [fail]) :-
    shidoku([[A|_]|_], Cells, Rules0),
    append(Rules0, [given(A,1), given(A,2)], Rules),
    grid_state(Cells, 1-4, Rules, _).

%   The givens are placed all at once (grid_candidates:place_givens/2):
%   the state is the one placing them one by one leaves, or both fail.
%   Sudokus of a known grid's digits, some of them changed to make
%   contradictions.
test(givens_at_once_as_one_by_one, [true(Differ == [])]) :-
    set_random(seed(23)),
    findall(Seed, ( between(1, 60, Seed),
                    \+ same_state_either_way(Seed) ), Differ).

same_state_either_way(_) :-
    Solved = [[5,3,4,6,7,8,9,1,2],[6,7,2,1,9,5,3,4,8],[1,9,8,3,4,2,5,6,7],
              [8,5,9,7,6,1,4,2,3],[4,2,6,8,5,3,7,9,1],[7,1,3,9,2,4,8,5,6],
              [9,6,1,5,3,7,2,8,4],[2,8,7,4,1,9,6,3,5],[3,4,5,2,8,6,1,7,9]],
    sudoku_rules(_, Cells, Units),
    append(Solved, Digits),
    foldl(maybe_given, Cells, Digits, Givens, []),
    append(Units, Givens, Rules),
    copy_term(Cells-Rules, Cells1-Rules1),
    state_masks(grid_state(Cells1, 1-9, Rules1, Grid1), Grid1, AtOnce),
    copy_term(Cells-Units-Givens, Cells2-Units2-Givens2),
    state_masks(( grid_state(Cells2, 1-9, Units2, Grid2),
                  maplist(place_numbered(Cells2, Grid2), Givens2),
                  grid_propagation:propagate_grid(Grid2) ), Grid2, OneByOne),
    AtOnce =@= OneByOne.

%   A cell is given its digit with odds of 3 in 10, and one of them a
%   random digit instead with odds of 1 in 50.
maybe_given(Cell, Digit, Givens0, Givens) :-
    random(P),
    (   P < 0.3
    ->  random(Q),
        (   Q < 0.02
        ->  random_between(1, 9, D)
        ;   D = Digit
        ),
        Givens0 = [given(Cell, D)|Givens]
    ;   Givens0 = Givens
    ).

place_numbered(Cells, Grid, given(V, D)) :-
    nth1(I, Cells, Cell), Cell == V, !,
    grid_candidates:place(Grid, I, D).

%   The masks and digits of a state, or `failed`.
state_masks(Goal, Grid, Masks) :-
    (   call(Goal)
    ->  arg(2, Grid, Masks0), arg(1, Grid, Cells0),
        copy_term(Masks0-Cells0, Masks)
    ;   Masks = failed
    ).

sudoku_rules(Rows, Cells, Units) :-
    length(Rows, 9), maplist([Row]>>length(Row, 9), Rows),
    append(Rows, Cells),
    transpose(Rows, Columns),
    grid_blocks(Rows, 3, 3, Boxes),
    append([Rows, Columns, Boxes], Lists),
    maplist([U, all_distinct(U)]>>true, Lists, Units).

:- end_tests(units).

:- begin_tests(singles).

%   Givens 1, 2, 3 in a row of four: the fourth cell takes 4 with no
%   search (a naked single), before any labeling.
test(naked_single, [true(D == 4)]) :-
    Row = [A,B,C,D],
    grid_state(Row, 1-4, [all_distinct(Row), given(A,1), given(B,2), given(C,3)], _).

%   Digit 1 is taken from three cells of a row by units they share with
%   a placed 1: the fourth takes it (a hidden single), with no search,
%   though nothing else keeps it from 2, 3 or 4.
test(hidden_single, [true(X == 1)]) :-
    Row = [X,P,Q,R],
    Rules = [all_distinct(Row), all_distinct([P,Y1]), all_distinct([Q,Y2]),
             all_distinct([R,Y3]), given(Y1,1), given(Y2,1), given(Y3,1)],
    grid_state([X,P,Q,R,Y1,Y2,Y3], 1-4, Rules, _).

%   A box of four crossed by a row (in A and B) and by a column (in A
%   and E), all of the largest size; E and F cannot take 1 (each shares a
%   unit with a placed 1), so the box's 1 is in A or B: it leaves C and
%   D, the rest of the row (locked candidates), with no search, though
%   no cell is left a single digit.
test(locked_candidates, [true(CDigits-DDigits == [2,3,4]-[2,3,4])]) :-
    box_row_and_column(Cells, Rules0),
    Cells = [_,_,_,_,E,F|_],
    append(Rules0, [all_distinct([E,X]), all_distinct([F,Y]), given(X,1), given(Y,1)], Rules),
    append(Cells, [X,Y], Variables),
    grid_state(Variables, 1-4, Rules, Grid),
    digits_allowed(Grid, 3, CDigits),
    digits_allowed(Grid, 4, DDigits).

%   The row's 1, confined to the cells it shares with the box, does not
%   leave the box's other cells: a unit crossed by one kind of unit only
%   (a row, by boxes) is not looked at (see grid_geometry:unit_locks/4).
test(locked_candidates_from_the_box_only, [true(EDigits == [1,2,3,4])]) :-
    box_row_and_column(Cells, Rules0),
    Cells = [_,_,C,D|_],
    append(Rules0, [all_distinct([C,X]), all_distinct([D,Y]), given(X,1), given(Y,1)], Rules),
    append(Cells, [X,Y], Variables),
    grid_state(Variables, 1-4, Rules, Grid),
    digits_allowed(Grid, 5, EDigits).

%   Cells [A,B,C,D,E,F,I,M]: the row A B C D, the box A B E F, the column
%   A E I M.
box_row_and_column([A,B,C,D,E,F,I,M], Rules) :-
    Rules = [all_distinct([A,B,C,D]), all_distinct([A,B,E,F]), all_distinct([A,E,I,M])].

digits_allowed(Grid, I, Digits) :-
    cell_allowed(Grid, I, Mask),
    findall(Digit, ( between(1, 9, Digit), Mask /\ (1 << Digit) =\= 0 ), Digits).

:- end_tests(singles).

:- begin_tests(tables).

%   A 2x2 Latin square of 1..2 whose first row sums to 3 has two
%   solutions; one whose first row multiplies to 2 also.
test(sum_and_product_as_tables, [true(Ns == [2, 2, 1])]) :-
    findall(N, ( member(Rule, [sum, product, difference]),
                 Rows = [[A,B],[C,D]],
                 append(Rows, Cells),
                 rule(Rule, A, B, C, Extra),
                 Rules = [all_distinct([A,B]), all_distinct([C,D]),
                          all_distinct([A,C]), all_distinct([B,D])|Extra],
                 solutions(Cells, 1-2, Rules, Solutions),
                 length(Solutions, N) ),
            Ns).

rule(sum, A, B, _, [sum([A,B], 3)]).
rule(product, A, B, _, [product([A,B], 2)]).
rule(difference, A, _, C, [difference(A, C, 1), given(A, 2)]).

%   A table keeps its cells to the digits its fillings have there (arc
%   consistency): [1,3] and [3,1] leave 2 to no cell, so the third takes it.
test(a_table_is_arc_consistent, [true(Z == 2)]) :-
    Cells = [X,Y,Z],
    grid_state(Cells, 1-3, [all_distinct(Cells), table([X,Y], [[1,3],[3,1]])], _).

%   A sum cage over cells of one row puts no digit twice there, and the
%   digits every filling puts in a row leave its other cells: a 3 in two
%   cells of a row of 1..3 is 1+2, so the third cell is 3.
test(a_cage_takes_its_digits_from_its_row, [true(Z == 3)]) :-
    Cells = [X,Y,Z],
    grid_state(Cells, 1-3, [all_distinct(Cells), sum([X,Y], 3)], _).

%   A cell in no unit and no table is labeled too, with tables weighed
%   for dom/wdeg: the six orders of 1, 2, 3 times three digits for the free cell.
test(a_free_cell_beside_a_table, [true(N == 18)]) :-
    Cells = [A,B,C,_],
    solutions(Cells, 1-3, [all_distinct([A,B,C]), sum([A,B,C], 6)], Solutions),
    length(Solutions, N).

test(a_cage_with_no_filling_fails, [fail]) :-
    Cells = [X,Y],
    grid_state(Cells, 1-3, [all_distinct(Cells), sum([X,Y], 2)], _).

%   Sums in a grid of no unit imply nothing, and a sum alone is searched.
test(sums_and_no_unit, [true(Solutions == [[1,6],[2,5],[3,4],[4,3],[5,2],[6,1]])]) :-
    solutions([X, Y], 1-9, [sum([X, Y], 7)], Solutions).

%   A rule naming a cell twice is a family's error, not two cells.
test(a_cell_twice_in_a_rule_is_an_error, [error(domain_error(rule_of_different_cells, _))]) :-
    grid_state([X, Y], 1-9, [sum([X, X, Y], 7)], _).

:- end_tests(tables).

:- begin_tests(digit_sets).

%   A sum of four or more cells that must differ is a table of digit sets
%   (a 9-cell Kakuro run has 9! fillings but one set): its solutions are
%   CLP(FD)'s, with or without crossing runs.
test(a_long_sum_agrees_with_clpfd, [true(Kernel == Clpfd)]) :-
    Row = [A,B,C,D,E],
    Rules = [all_distinct(Row), sum(Row, 20), all_distinct([A,B,F,G]), sum([A,B,F,G], 15),
             given(C, 7)],
    Cells = [A,B,C,D,E,F,G],
    kernel_and_clpfd(Cells, 1-9, Rules, Kernel, Clpfd),
    Kernel \== [].

test(crossing_long_sums_agree_with_clpfd, [true(Kernel == Clpfd)]) :-
    length(Rows, 4),
    maplist([Row]>>length(Row, 4), Rows),
    Rows = [[A|_], [_, F|_]|_],
    append(Rows, Cells),
    transpose(Rows, Columns),
    maplist([U, T, [all_distinct(U), sum(U, T)]]>>true, Rows, [10, 26, 13, 20], RowRules),
    maplist([U, T, [all_distinct(U), sum(U, T)]]>>true, Columns, [11, 24, 16, 18], ColumnRules),
    append([RowRules, ColumnRules, [[given(A, 1), given(F, 9)]]], Nested),
    append(Nested, Rules),
    kernel_and_clpfd(Cells, 1-9, Rules, Kernel, Clpfd),
    Kernel \== [].

%   10 in four different digits is 1+2+3+4: the 4 no other cell of the sum
%   can take goes to D (a hidden single of the sum), and the sum's digits
%   leave Y, in a unit with all four, with no search.
test(a_sum_places_and_takes_its_digits, [true(D-YDigits == 4-[5,6,7,8,9])]) :-
    Sum = [A,B,C,D],
    Rules = [all_distinct(Sum), sum(Sum, 10), all_distinct([A,B,C,X]), given(X, 4),
             all_distinct([A,B,C,D,Y])],
    grid_state([A,B,C,D,X,Y], 1-9, Rules, Grid),
    cell_allowed(Grid, 6, Mask),
    findall(Digit, ( between(1, 9, Digit), Mask /\ (1 << Digit) =\= 0 ), YDigits).

test(a_sum_no_set_of_digits_makes_fails, [fail]) :-
    Sum = [A,_,_,_],
    grid_state(Sum, 1-9, [all_distinct(Sum), sum(Sum, 9), given(A, 1)], _).

%   A unit holding each of 1..4 adds up to 10: the sum inside it leaves
%   its other two cells 7 (innies); the sums meeting it cover it, so their
%   cells outside it add up to what they hold beyond 10 (outies).  Cells
%   are numbered, as grid_state/4 numbers them.
test(innies_and_outies, [true(Implied == [sum([3,4], 7), sum([5,6], 6)])]) :-
    implied([all_distinct([1,2,3,4]), sum([2,1], 3), sum([3,5], 8), sum([6,4], 5)], 6, 1-4, Implied).

%   An implied sum the rules state already is not added again.
test(a_stated_sum_is_not_implied_again, [true(Implied == [sum([3,4], 7)])]) :-
    implied([all_distinct([1,2,3,4]), sum([2,1], 3), sum([3,5], 8), sum([6,4], 5), sum([5,6], 6)],
            6, 1-4, Implied).

%   A given in no sum counts as a sum of one cell: 1+2 and the given 4
%   leave 3 to the last cell of the unit.
test(a_given_is_a_sum_of_one_cell, [true(Implied == [sum([4], 3)])]) :-
    implied([all_distinct([1,2,3,4]), sum([1,2], 3), given(3, 4)], 4, 1-4, Implied).

%   A Shidoku with three cages, many solutions: its first row's innies
%   (A+D = 10-6) and outies (E+H+L = 4+6+9-10), the rests of its first
%   box (B+F), first column (I+M) and last column (P) are implied, and
%   the search with them finds what CLP(FD) finds from the rules alone.
test(implied_sums_keep_every_solution, [true(Kernel == Clpfd)]) :-
    shidoku(Rows, Cells, Units),
    Rows = [[A,B,C,D],[E,_,_,H],[_,_,_,L],_],
    Rules = [sum([A,E], 4), sum([B,C], 6), sum([D,H,L], 9)|Units],
    grid:numbered_rules(Cells, Rules, NCells, Numbered),
    implied(Numbered, NCells, 1-4, Implied),
    Implied == [sum([1,4], 4), sum([2,6], 6), sum([5,8,12], 9), sum([9,13], 6), sum([16], 1)],
    setup_call_cleanup(sums_from_digits(1),     % the search takes them in a grid of 4 digits
                       kernel_and_clpfd(Cells, 1-4, Rules, Kernel, Clpfd),
                       sums_from_digits(9)),
    length(Kernel, N),
    N > 1.

%   Nothing is implied by a unit short of a cell for every digit, by
%   sums that overlap, or by a sum stated already.
test(nothing_implied, [true(Implied == [])]) :-
    implied([all_distinct([1,2,3]), sum([1,2], 3), sum([3,5], 8)], 5, 1-4, Implied),
    implied([all_distinct([1,2,3,4]), sum([1,2], 3), sum([2,3], 5)], 4, 1-4, []),
    implied([all_distinct([1,2,3,4]), sum([1], 1), sum([2,3,4], 9)], 4, 1-4, []).

%   A rest of four cells is too weak a sum to be worth its table.
test(too_few_cells_in_sums, [true(Implied == [])]) :-
    implied([all_distinct([1,2,3,4,5,6]), sum([1,2], 3)], 6, 1-6, Implied).

%   Grids of fewer digits than grid:sums_from_digits/1 take no implied sums.
test(small_grids_take_no_implied_sums) :-
    grid:sums_pay(1-9),
    \+ grid:sums_pay(1-8).

sums_from_digits(Least) :-
    retractall(grid:sums_from_digits(_)),
    assertz(grid:sums_from_digits(Least)).

implied(Rules, NCells, Digits, Implied) :-
    include([Rule]>>(Rule = all_distinct(_)), Rules, UnitRules),
    maplist(arg(1), UnitRules, UnitLists),
    grid_geometry:unit_geometry(NCells, UnitLists, Geometry),
    grid_sums:implied_sums(Rules, Geometry, Digits, Implied).

:- end_tests(digit_sets).

:- begin_tests(clpfd_statement).

%   The same rules, read as CLP(FD) goals, have the same solutions as the
%   kernel's search.
test(the_statement_agrees_with_the_search, [true(Kernel == Clpfd)]) :-
    Rows = [[A,B,C],[D,E,F],[G,H,I]],
    append(Rows, Cells),
    transpose(Rows, Columns),
    maplist([U, all_distinct(U)]>>true, Rows, RowRules),
    maplist([U, all_distinct(U)]>>true, Columns, ColumnRules),
    append([RowRules, ColumnRules,
            [sum([A,B], 3), product([C,F], 6), ratio(D,G,2), difference(E,H,1), given(I,2)]],
           Rules),
    solutions(Cells, 1-3, Rules, Kernel),
    findall(Cells, ( Cells ins 1..3,
                     maplist(rule_goal, Rules, Goals), maplist(call, Goals),
                     label(Cells) ),
            Clpfd0),
    msort(Clpfd0, Clpfd),
    msort(Kernel, Kernel).

test(tables_as_clpfd, [true(Goal = tuples_in([[A,B]], [[1,2],[2,1]]))]) :-
    Rules = [all_distinct([A,B]), sum([A,B], 3)],
    [A,B] ins 1..3,
    rule_table_goal(Rules, sum([A,B], 3), Goal).

%   A unit with a cell for every digit adds up to their total anyway.
test(a_whole_unit_s_sum_as_clpfd, [true(Goals == [true, false])]) :-
    Rules = [all_distinct([A,B]), sum([A,B], 3)],
    [A,B] ins 1..2,
    findall(Goal, ( member(T, [3, 4]), rule_table_goal(Rules, sum([A,B], T), Goal) ), Goals).

:- end_tests(clpfd_statement).

:- begin_tests(geometry).

test(blocks_of_a_six_by_six, [true(Blocks == [[a,b,c,g,h,i],[d,e,f,j,k,l],
                                               [m,n,o,s,t,u],[p,q,r,v,w,x],
                                               [1,2,3,7,8,9],[4,5,6,10,11,12]])]) :-
    Rows = [[a,b,c,d,e,f],[g,h,i,j,k,l],[m,n,o,p,q,r],[s,t,u,v,w,x],
            [1,2,3,4,5,6],[7,8,9,10,11,12]],
    grid_blocks(Rows, 2, 3, Blocks).

test(blocks_keep_variables, [true(Blocks == [[A,B,E,F],[C,D,G,H],[I,J,M,N],[K,L,O,P]])]) :-
    Rows = [[A,B,C,D],[E,F,G,H],[I,J,K,L],[M,N,O,P]],
    grid_blocks(Rows, 2, 2, Blocks).

test(blocks_that_do_not_tile, [fail]) :-
    grid_blocks([[a,b,c],[d,e,f]], 2, 2, _).

:- end_tests(geometry).

:- begin_tests(big_rules).

%   Lined, as grid_fillings:lined_after/3 makes it, for cells R-C of a
%   Latin square: two cells share a unit when they share a row or column.
square_lined([], []).
square_lined([R-C|Places], [Flags|Lined]) :-
    maplist(square_flag(R-C), Places, Flags),
    square_lined(Places, Lined).

square_flag(R-C, R1-C1, Flag) :-
    (   ( R == R1 ; C == C1 )
    ->  Flag = 1
    ;   Flag = 0
    ).

%   The fillings of Op Target over Places, each a list of digits: as the
%   kernel's tables list them when the cells' strings of digits are more
%   than Most (guided by the fold) or not.
listed_with(Most, Op, Target, Places, Low-High, Fillings) :-
    square_lined(Places, Lined),
    with_most_fillings(Most, findall(F, ( rule_of(Op, Target, Places, Rule),
                                          grid_fillings:rule_filling(Rule, Lined, Low-High, F) ),
                                     Found)),
    msort(Found, Fillings).

%   Goal, with grid_fillings:most_fillings/1 set to Most (0: every rule folded).
with_most_fillings(Most, Goal) :-
    setup_call_cleanup(
        ( grid_fillings:most_fillings(Before),
          retractall(grid_fillings:most_fillings(_)),
          assertz(grid_fillings:most_fillings(Most)) ),
        Goal,
        ( retractall(grid_fillings:most_fillings(_)),
          assertz(grid_fillings:most_fillings(Before)) )).

rule_of(+, Target, Places, sum(Cells, Target)) :- same_length(Places, Cells).
rule_of(*, Target, Places, product(Cells, Target)) :- same_length(Places, Cells).

%   Every filling, by brute force: digits of Low..High, none twice in a row
%   or column, making the target.
brute_fillings(Op, Target, Places, Low-High, Fillings) :-
    findall(Ds, ( same_length(Places, Ds),
                  maplist(between(Low, High), Ds),
                  \+ ( nth0(I, Places, R1-C1), nth0(J, Places, R2-C2), I < J,
                       ( R1 == R2 ; C1 == C2 ),
                       nth0(I, Ds, D), nth0(J, Ds, D) ),
                  made(Op, Ds, Target) ),
            Found),
    msort(Found, Fillings).

made(+, Ds, T) :- sum_list(Ds, T).
made(*, Ds, T) :- foldl(times, Ds, 1, T).

times(D, P0, P) :- P is P0 * D.

%   Shapes of a 4x4's cells: rows, an L, a block over two rows, a
%   staircase, and cells apart.
shape([1-1, 1-2, 1-3, 1-4, 2-1, 2-2]).
shape([1-1, 2-1, 3-1, 3-2, 3-3]).
shape([1-2, 1-3, 2-2, 2-3, 3-3, 4-3, 4-4]).
shape([1-1, 1-2, 2-2, 2-3, 3-3, 3-4]).
shape([1-1, 2-3, 3-2, 4-4, 1-4]).

%   The guided listing (every rule, most_fillings 0) finds every filling the
%   plain one finds, and the brute force, for every target of each shape.
test(guided_listing_agrees_with_brute_force, [true(Disagree == [])]) :-
    findall(Op-T-Shape,
            ( shape(Shape), member(Op, [+, *]),
              length(Shape, N),
              ( Op == (+) -> between(N, 16, T) ; member(T, [1, 6, 8, 12, 24, 48, 96, 144, 288, 576, 7]) ),
              brute_fillings(Op, T, Shape, 1-4, Brute),
              listed_with(0, Op, T, Shape, 1-4, Guided),
              listed_with(1_000_000, Op, T, Shape, 1-4, Plain),
              \+ ( Guided == Brute, Plain == Brute ) ),
            Disagree).

%   Three rows of 1..6 add up to 63: a target of 64 has no filling, though
%   digits that may repeat make it.  Listing them cell by cell tried every
%   way to fill the rows first (35 s); the fold of the rows says at once.
test(a_target_only_the_rows_forbid_has_none, [true(Fillings-R == []-!)]) :-
    findall(Row-C, ( between(1, 3, Row), between(1, 6, C) ), Places),
    square_lined(Places, Lined),
    rule_of(+, 64, Places, Rule),
    call_with_inference_limit(grid_fillings:few_fillings(Rule, Lined, 1-6, Fillings), 1_000_000, R).

%   A product of fourteen cells over seven rows of a 9x9 (a KenKen's) has
%   more than ten thousand fillings: found to be more, to be folded, in a
%   few million inferences, where a listing cell by cell met dead ends for
%   39 s.
test(a_big_product_has_too_many_fillings_to_list, [true(R == !)]) :-
    Places = [2-9, 3-7, 3-8, 3-9, 4-7, 4-8, 4-9, 5-7, 5-8, 6-7, 6-8, 7-7, 7-8, 8-7],
    square_lined(Places, Lined),
    rule_of(*, 3762339840, Places, Rule),
    call_with_inference_limit(\+ grid_fillings:few_fillings(Rule, Lined, 1-9, _), 50_000_000, R).

%   An NxN Latin square's rows, its cells in reading order and its rules.
latin(N, Rows, Cells, Units) :-
    length(Rows, N),
    maplist(same_length(Rows), Rows),
    append(Rows, Cells),
    transpose(Rows, Columns),
    append(Rows, Columns, Lines),
    maplist([U, all_distinct(U)]>>true, Lines, Units).

%   Rows taken in whole by a sum or product leave it a rule of its other
%   cells (1+2+3+4 = 10, 1*2*3*4 = 24 a row), or none.
test(whole_units_leave_the_other_cells, [true(Lefts == [sum([9], 3), none, product([9, 10], 6)])]) :-
    findall(U, ( between(0, 3, R), findall(I, ( between(1, 4, C), I is R * 4 + C ), U) ), RowLists),
    findall(U, ( between(1, 4, C), findall(I, ( between(0, 3, R), I is R * 4 + C ), U) ), ColumnLists),
    append(RowLists, ColumnLists, UnitLists),
    grid_geometry:unit_geometry(16, UnitLists, Geometry),
    numlist(1, 9, Nine), numlist(1, 16, All), numlist(1, 10, Ten),
    findall(Left, ( member(Rule, [sum(Nine, 23), product(All, 331776), product(Ten, 3456)]),
                    grid_sums:whole_units_out(Geometry, 1-4, Rule, Left) ),
            Lefts).

%   What is left cannot be made: two rows add up to 20, never 19.
test(whole_units_leave_too_little, [fail]) :-
    numlist(1, 8, Eight),
    findall(U, ( between(0, 3, R), findall(I, ( between(1, 4, C), I is R * 4 + C ), U) ), Rows),
    grid_geometry:unit_geometry(16, Rows, Geometry),
    grid_sums:whole_units_out(Geometry, 1-4, sum(Eight, 19), _).

%   The kernel's search finds what CLP(FD) finds, with cages that take in
%   whole rows and columns.
test(whole_units_in_a_rule_agree_with_clpfd, [true(Kernels == Clpfds)]) :-
    findall(Kernel-Clpfd,
            ( member(Cage, [sum-rows(2)-23, product-rows(2)-1728, sum-rows(4)-40,
                            product-rows(4)-331776, sum-rows(3)-31, sum-column-13]),
              latin(4, Rows, Cells, Units),
              cage_rule(Cage, Rows, Rule),
              append(Units, [Rule], Rules),
              kernel_and_clpfd(Cells, 1-4, Rules, Kernel, Clpfd) ),
            Pairs),
    pairs_keys_values(Pairs, Kernels, Clpfds),
    Kernels = [First|_],
    First \== [].

%   A cage of a whole 9x9 multiplies to 9!^9 in every Latin square: no
%   table for the search (its fold took seconds a step), and one of any
%   other product has no solution.
test(a_cage_of_the_whole_grid_is_no_table, [true(Arity-Other == 0-none)]) :-
    latin(9, _, Cells, Units),
    Whole is 362880 ^ 9,
    append(Units, [product(Cells, Whole)], Rules),
    grid_state(Cells, 1-9, Rules, Grid),
    grid_candidates:field(tables, Grid, Tables),
    functor(Tables, _, Arity),
    Less is Whole // 2,
    append(Units, [product(Cells, Less)], Others),
    (   grid_state(Cells, 1-9, Others, _)
    ->  Other = some
    ;   Other = none
    ).

%   A folded rule's cells of one digit move the point the others start
%   from one at a time: three 8s are 2^9, past a product of 24's 2^3 and
%   past the room its exponent of 2 has (3 + 3), so that taken together
%   they would wrap into the exponent of 3 and look like 2^2 * 3, which a
%   2 makes 24.  Every rule folded, the fourth cell takes no digit; the
%   fillings of 24 otherwise are those of the brute force.
test(fixed_cells_past_a_folded_target, [true(Found-Kernel == []-Brute)]) :-
    Cells = [A, B, C, D],
    Rules = [product(Cells, 24)],
    brute_fillings(*, 24, [1-1, 2-2, 3-3, 4-4], 1-9, Brute),
    with_most_fillings(0, ( findall(D, ( grid_state(Cells, 1-9, Rules, Grid),
                                         A = 8, B = 8, C = 8, label_grid(Grid) ), Found),
                            findall(Cells, ( grid_state(Cells, 1-9, Rules, Grid),
                                             label_grid(Grid) ), Kernel0) )),
    msort(Kernel0, Kernel).

%   Rows (and the first cell below them), or the first column and the
%   first row's second cell, as a sum or product of Target.
cage_rule(Op-rows(N)-Target, Rows, Rule) :-
    length(Whole, N),
    append(Whole, Below, Rows),
    append(Whole, Cells0),
    (   Below = [[Cell|_]|_]
    ->  append(Cells0, [Cell], Cells)
    ;   Cells = Cells0
    ),
    Rule =.. [Op, Cells, Target].
cage_rule(Op-column-Target, Rows, Rule) :-
    transpose(Rows, [Column|_]),
    Rows = [[_, Second|_]|_],
    Rule =.. [Op, [Second|Column], Target].

%   A strip of three columns by five rows of a 6x6 adding up to 44 is out
%   of reach of its columns' five different digits each (45 at least,
%   though its rows of three make 30); one adding up to 46 is within it,
%   but leaves the three cells below it 63 - 46 = 17, more than 6+5+4.
%   Both are found before any search (the search of the strip's fillings
%   took 3 s, and hung), by both kernel encodings.
test(a_strip_adds_up_to_what_its_columns_allow, [forall(member(Target, [44, 46])),
                                                  true(Found-Goal == none-false)]) :-
    latin(6, Rows, Cells, Units),
    strip_of(Rows, Strip),
    append(Units, [sum(Strip, Target)], Rules),
    call_with_inference_limit(
        (   grid_state(Cells, 1-6, Rules, _)
        ->  Found = some
        ;   Found = none
        ), 1_000_000, !),
    Cells ins 1..6,
    rule_table_goal(Rules, sum(Strip, Target), Goal).

%   The strip's three columns add up to 63 and multiply to 720^3: the
%   cells below it make what it leaves (25: 5*5*1, which a row's
%   different digits cannot).  A rule within one column, or a staircase
%   whose rows and columns have more other cells than it has, leaves
%   none; a target past the columns' leaves nothing to make.
test(the_cells_around_a_strip, [true(Complements == [sum([31,32,33], 17), product([31,32,33], 25),
                                                     none, none, failed, failed])]) :-
    findall(U, ( between(0, 5, R), findall(I, ( between(1, 6, C), I is R * 6 + C ), U) ), RowLists),
    findall(U, ( between(1, 6, C), findall(I, ( between(0, 5, R), I is R * 6 + C ), U) ), ColumnLists),
    append(RowLists, ColumnLists, UnitLists),
    grid_geometry:unit_geometry(36, UnitLists, Geometry),
    Strip = [1,2,3,7,8,9,13,14,15,19,20,21,25,26,27],
    findall(Complement,
            ( member(Rule, [sum(Strip, 46), product(Strip, 14929920), sum([1,7,13,19,25,31], 21),
                            sum([1,2,8,9,15,16,22], 30), sum(Strip, 190),
                            product(Strip, 7)]),
              (   grid_sums:unit_complement(Geometry, 1-6, Rule, Complement)
              ->  true
              ;   Complement = failed
              ) ),
            Complements).

%   Strip: the first three cells of the first five rows.
strip_of(Rows, Strip) :-
    length(Five, 5),
    append(Five, _, Rows),
    maplist([Row, [A, B, C]]>>append([A, B, C], _, Row), Five, Threes),
    append(Threes, Strip).

%   A 5x5 KenKen with no solution, its cages as tables of their fillings:
%   SWI-Prolog 9.2.9's CLP(FD) labeling found a grid that breaks cage f's
%   table (its digits multiply to 720), which the tables encoding took for
%   a solution; the checked labeling finds none.
test(clpfd_labeling, [true(Found == [])]) :-
    latin(5, Rows, Cells, Units),
    Cages = [ (*)-20-[1-1, 2-1], (*)-4-[1-2],
              (+)-20-[1-3, 1-4, 1-5, 2-5, 3-5, 4-4, 4-5],
              (*)-900-[2-2, 2-3, 2-4, 3-2, 3-4, 4-2], (*)-1-[3-1],
              (*)-4320-[3-3, 4-1, 4-3, 5-1, 5-2, 5-3, 5-4, 5-5] ],
    maplist(cage_table(Rows), Cages, Tables),
    append(Units, Tables, Rules),
    findall(Cells, ( grid_model(tables, Rows, Rules, 1-5, Labeling), call(Labeling) ), Found).

cage_table(Rows, Op-Target-Places, table(Vs, Fillings)) :-
    listed_with(1_000_000, Op, Target, Places, 1-5, Fillings),
    maplist(place_cell(Rows), Places, Vs).

place_cell(Rows, R-C, V) :-
    nth1(R, Rows, Row),
    nth1(C, Row, V).

:- end_tests(big_rules).

:- begin_tests(known_fillings).

%   A sum's fillings are worked out once per kind (target, cells sharing
%   units, digits): a second grid with a sum of that kind finds them kept,
%   and both grids solve alike.
pair_summing_to_three(Solutions) :-
    Cells = [A, B],
    findall(Cells, ( grid_state(Cells, 1-4, [all_distinct(Cells), sum([A, B], 3)], Grid),
                     label_grid(Grid) ),
            Solutions).

test(fillings_are_kept_and_reused, [true(Second-Kept == [[1,2],[2,1]]-1)]) :-
    retractall(grid_fillings:known_fillings(_, _, _)),
    pair_summing_to_three(First),
    aggregate_all(count, grid_fillings:known_fillings(_, _, _), Kept),
    pair_summing_to_three(Second),
    aggregate_all(count, grid_fillings:known_fillings(_, _, _), Kept),
    First == Second.

:- end_tests(known_fillings).

:- begin_tests(grid_model).

%   The three searches of a statement find the same solutions: every shidoku.
test(three_searches_agree, [true(Counts == [288, 288, 288])]) :-
    findall(N, ( member(Encoding, [candidates, tables, arithmetic]),
                 shidoku(Rows, _, Rules),
                 grid_model(Encoding, Rows, Rules, 1-4, Labeling),
                 aggregate_all(count, call(Labeling), N) ),
            Counts).

%   A place holding a number (a Kakuro's black cell) is no cell: it gets no
%   range, no search, and is left as it is.
test(a_number_is_no_cell, [true(Solutions == [[[0,1,2]], [[0,2,1]]])]) :-
    grid_rows(1, 3, Rows),
    Rows = [[Black, A, B]],
    Black = 0,
    findall(Rows, ( grid_model(tables, Rows, [all_distinct([A, B]), sum([A, B], 3)], 1-9, Labeling),
                    call(Labeling) ), Solutions).

test(constraints_range_each_row_of_cells, [true(Goals = [[A, B] ins 1..9, all_distinct([A, B]), labeling([ff], [A, B])])]) :-
    Rows = [[0, A, B], [0, 0, 0]],
    grid_constraints(Rows, [all_distinct([A, B])], 1-9, Goals).

test(cells_and_givens_by_place, [true(Rule == given(F, 7))]) :-
    grid_rows(2, 2, Rows),
    Rows = [_, [_, F]],
    cell_at(Rows, [1, 1], Cell),
    Cell == F,
    given_rule(Rows, [1, 1, 7], Rule).

:- end_tests(grid_model).
