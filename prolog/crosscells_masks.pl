:- module(crosscells_masks,
          [ masks_model/5,      % +Rules, +Operations, +Readings, +Ons, -Model
            masks_labeling/3    % +Grid, +Unit, ?Ons
          ]).
/** <module> CrossCells' masks encoding: the search on state sets as bits.

See the comment below for how it reasons; crosscells_lines.pl works out
each line's states.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(crosscells_lines, [line_states/4]).
:- use_module(restarts, [restarted/3, shuffled/3, alternated/3]).

                 /*******************************
                 *   MASKS: STATE SETS AS BITS   *
                 *******************************/

%   The masks encoding reasons as states does (each line arc consistent
%   over the states it can pass through), but in plain Prolog on a word
%   or two per layer instead of CLP(FD) propagators: a line's states, once
%   pruned to those on a way to its total, are few (a median of 29 in all
%   for a 15x15 line, at most 133 in 20x20), so the set of states still
%   alive between two cells is an integer whose bit R stands for the
%   state of rank R.  An OFF cell keeps the state, the same bit; an ON
%   cell moves each state by the difference of ranks its operation makes,
%   and the moves of a step are grouped by that difference, so the image
%   of a set is a few ANDs and shifts.  A sweep forward and back over a
%   line keeps the states on a way from its start to its total and
%   settles every cell only one of whose values has such a way.  Setting
%   a cell is binding a plain variable, and the sets live in a term
%   changed with setarg/3, so backtracking restores them: no attributed
%   variable wakes up (posting and waking CLP(FD) tables took about 20,000
%   inferences per choice on 15x15 puzzles).
%
%   Why this is not on the grid kernel (grid.pl), which Sudoku and KenKen
%   use: the kernel's lines are tables of fillings, one integer per way
%   to fill the line, and a CrossCells line of 15 ON/OFF cells has up to
%   2^15 of them (a thousand or more on a 15x15 line with a loose total),
%   where its states number a few dozen.  A table of fillings is a flat
%   automaton; the states, layer by layer, are its compact form, and the
%   sweep above is the kernel's table support done on that form.  The
%   kernel also reasons about digits in units (singles, a digit taken
%   from a unit), which ON/OFF cells do not have.
%
%   The state of the search is
%
%       masks(Values, Lines, CellLines, Unset, Pending, Open, OnCounts, Weights)
%
%   Values: one plain variable per cell (1-based), bound when the cell is
%   set; Lines: lines(Line, ...), each count(Cells, Count) or
%   total(Cells, Alive, Moves), with Cells a term of cell numbers in
%   reading order, Alive alive(A0, ..., AL) the sets of states alive before
%   each cell and after the last, and Moves moves(G1, ..., GL), Gk the
%   moves of an ON k-th cell as a list of move(Sources, Shift); CellLines:
%   for each cell the set of its lines (bit J for line J, from 1); Unset:
%   for each line the number of its cells not set; Pending: the set of
%   lines whose cells changed since they were last swept; Open: the
%   number of cells not set; OnCounts: for each line the number of its
%   cells set ON; Weights: each line's failures so far (see
%   masks_labeling/3), `none` while the model posts.  The Ons of model/4
%   are bound to Values once every cell is set.
:- set_prolog_flag(optimise, true).     % compiled arithmetic: the sweeps are all masks
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%!  masks_model(+Rules, +Operations, +Readings, +Ons, -Model) is semidet.
%
%   Posts nothing on Ons (the search binds them to 0 or 1; a CLP(FD)
%   domain would wake up at each binding, a tenth of a 15x15 check): builds the search state,
%   propagates every line once (failing when the lines are inconsistent)
%   and gives Model = labeling(Labeling).  Model is too_many_states when a
%   line has more than max_states/1 states: the caller states the puzzle
%   otherwise.
masks_model(Rules, Operations, Readings, Ons, Model) :-
    OperationsOf =.. [operations|Operations],   % by cell number: a line's are looked up, not searched
    foldl(mask_line(Rules, OperationsOf), Readings, Lines0, fits, Fits),
    (   Fits == too_many_states
    ->  Model = too_many_states
    ;   length(Ons, N),
        length(Vs, N),
        Values =.. [values|Vs],
        Lines =.. [lines|Lines0],
        cell_lines(Lines0, N, CellLines),
        maplist(line_length, Lines0, Lengths),
        Unset =.. [unset|Lengths],
        length(Lines0, M),
        length(Zeros, M),
        maplist(=(0), Zeros),
        OnCounts =.. [on_counts|Zeros],
        All is (1 << (M + 1)) - 2,
        Grid = masks(Values, Lines, CellLines, Unset, All, N, OnCounts, none),
        propagate_masks(Grid),
        Unit is max(N * N, 5_000),      % inferences: twice as many cost a tenth more
        Model = labeling(masks_labeling(Grid, Unit, Ons))
    ).

%!  mask_line(+Rules, +OperationsOf, +Reading, -Line, +Fits0, -Fits) is semidet.
%
%   Line is the count or total line of Reading (OperationsOf holds each
%   cell's operation, by cell number from 1); Fits becomes
%   too_many_states when its states outnumber max_states/1.  Fails when
%   no way through the line reaches its total.
mask_line(Rules, OperationsOf, Reading, Line, Fits0, Fits) :-
    _{cells: Indices, kind: KindText, value: Value} :< Reading,
    atom_string(Kind, KindText),
    maplist(succ, Indices, Numbers),
    Cells =.. [cells|Numbers],
    (   Kind == (#)
    ->  Line = count(Cells, Value),
        Fits = Fits0
    ;   maplist(arg_of(OperationsOf), Numbers, LineOperations),
        line_states(Rules, LineOperations, Value, States),
        (   States = states(Alive, Moves)
        ->  Line = total(Cells, Alive, Moves),
            Fits = Fits0
        ;   States == too_many_states
        ->  Line = none,
            Fits = too_many_states
        )
    ).

arg_of(Term, N, Arg) :-
    arg(N, Term, Arg).

line_length(count(Cells, _), N) :-
    functor(Cells, _, N).
line_length(total(Cells, _, _), N) :-
    functor(Cells, _, N).

%   CellLines holds, for each of the N cells, the set of lines it is in.
cell_lines(Lines, N, CellLines) :-
    length(Zeros, N),
    maplist(=(0), Zeros),
    CellLines =.. [cell_lines|Zeros],
    foldl(line_cells_bit(CellLines), Lines, 1, _).

%   The cells of line J get bit J (CellLines is fresh: nb_setarg/3 is safe).
line_cells_bit(CellLines, Line, J, J1) :-
    arg(1, Line, Cells),
    functor(Cells, _, Length),
    Bit is 1 << J,
    forall(between(1, Length, K),
           ( arg(K, Cells, I), arg(I, CellLines, B0), B is B0 \/ Bit, nb_setarg(I, CellLines, B) )),
    J1 is J + 1.

%!  set_cell(+Grid, +I, +Value) is semidet.
%
%   Cell I is Value: its lines become pending.  Fails when it is set to
%   the other value already.
set_cell(Grid, I, Value) :-
    Grid = masks(Values, _, CellLines, Unset, Pending0, Open0, OnCounts, _),
    arg(I, Values, X),
    (   var(X)
    ->  X = Value,
        arg(I, CellLines, Bits),
        one_less_unset(Bits, Unset),
        (   Value =:= 1
        ->  one_more_on(Bits, OnCounts)
        ;   true
        ),
        Pending is Pending0 \/ Bits,
        setarg(5, Grid, Pending),
        Open is Open0 - 1,
        setarg(6, Grid, Open)
    ;   X =:= Value
    ).

one_more_on(0, _) :- !.
one_more_on(Bits, OnCounts) :-
    J is lsb(Bits),
    arg(J, OnCounts, N0),
    N is N0 + 1,
    setarg(J, OnCounts, N),
    Rest is Bits xor (1 << J),
    one_more_on(Rest, OnCounts).

one_less_unset(0, _) :- !.
one_less_unset(Bits, Unset) :-
    J is lsb(Bits),
    arg(J, Unset, N0),
    N is N0 - 1,
    setarg(J, Unset, N),
    Rest is Bits xor (1 << J),
    one_less_unset(Rest, Unset).

%!  propagate_masks(+Grid) is semidet.
%
%   Sweeps the pending lines until none is; fails when a line has no way
%   left.  A line's sweep leaves it consistent, so the cells it sets do
%   not make it pending again.
propagate_masks(Grid) :-
    arg(5, Grid, Pending),
    (   Pending =:= 0
    ->  true
    ;   J is lsb(Pending),
        Rest is Pending xor (1 << J),
        setarg(5, Grid, Rest),
        arg(2, Grid, Lines),
        arg(J, Lines, Line),
        (   sweep(Line, J, Grid)
        ->  true
        ;   arg(8, Grid, Weights),
            weighed(Weights, J),
            fail
        ),
        arg(5, Grid, After),
        Left is After /\ \ (1 << J),
        setarg(5, Grid, Left),
        propagate_masks(Grid)
    ).

%!  sweep(+Line, +J, +Grid) is semidet.
%
%   A count: the ON cells so far are at most the count, and with the
%   unset ones at least; when either is exact the unset cells are set.  A
%   total: the states alive are narrowed to those on a way from the start
%   to the total, forward then back, and a cell only one of whose values
%   lies on such a way takes it.
sweep(count(Cells, Count), J, Grid) :-
    Grid = masks(Values, _, _, UnsetCounts, _, _, OnCounts, _),
    arg(J, OnCounts, Ons),
    arg(J, UnsetCounts, Unset),
    functor(Cells, _, N),
    Ons =< Count,
    Ons + Unset >= Count,
    (   Unset =:= 0
    ->  true
    ;   Ons =:= Count
    ->  set_unset(1, N, Cells, Values, 0, Grid)
    ;   Ons + Unset =:= Count
    ->  set_unset(1, N, Cells, Values, 1, Grid)
    ;   true
    ).
sweep(total(Cells, Alive, Moves), _, Grid) :-
    arg(1, Grid, Values),
    functor(Cells, _, N),
    arg(1, Alive, A0),
    forward_back(0, N, A0, Cells, Alive, Moves, Values, Grid, B0),
    (   B0 =:= A0
    ->  true
    ;   setarg(1, Alive, B0)
    ).

set_unset(K, N, Cells, Values, Value, Grid) :-
    (   K > N
    ->  true
    ;   arg(K, Cells, I),
        arg(I, Values, X),
        (   var(X)
        ->  set_cell(Grid, I, Value)
        ;   true
        ),
        K1 is K + 1,
        set_unset(K1, N, Cells, Values, Value, Grid)
    ).

%!  forward_back(+K, +N, +F, +Cells, +Alive, +Moves, +Values, +Grid, -B) is semidet.
%
%   F is the set of states alive before cell K+1 that the start reaches;
%   B those of them from which the total is reached.  Forward, each cell
%   lets states through by its values still allowed (OFF: the same
%   state, ON: its moves); back, a cell left one value with a way through
%   takes it, and each layer keeps what it reached both ways.
forward_back(N, N, F, _, _, _, _, _, F) :- !,
    F =\= 0.
forward_back(K, N, F, Cells, Alive, Moves, Values, Grid, B) :-
    K1 is K + 1,
    arg(K1, Cells, I),
    arg(I, Values, X),
    arg(K1, Moves, Groups),
    K2 is K + 2,
    arg(K2, Alive, A1),
    (   var(X)
    ->  image(Groups, F, 0, Moved),
        F1 is A1 /\ (F \/ Moved)
    ;   X =:= 0
    ->  F1 is A1 /\ F
    ;   image(Groups, F, 0, Moved),
        F1 is A1 /\ Moved
    ),
    F1 =\= 0,
    forward_back(K1, N, F1, Cells, Alive, Moves, Values, Grid, B1),
    (   B1 =:= A1
    ->  true
    ;   setarg(K2, Alive, B1)
    ),
    (   var(X)
    ->  Off is F /\ B1,
        preimage(Groups, B1, 0, Back),
        On is F /\ Back,
        B is Off \/ On,
        (   Off =:= 0
        ->  set_cell(Grid, I, 1)
        ;   On =:= 0
        ->  set_cell(Grid, I, 0)
        ;   true
        )
    ;   X =:= 0
    ->  B is F /\ B1
    ;   preimage(Groups, B1, 0, Back),
        B is F /\ Back
    ).

%   The states the moves take the set States to.
image([], _, Image, Image).
image([move(Sources, Shift)|Moves], States, Image0, Image) :-
    Image1 is Image0 \/ ((States /\ Sources) << Shift),
    image(Moves, States, Image1, Image).

%   The states the moves take into the set States.
preimage([], _, Pre, Pre).
preimage([move(Sources, Shift)|Moves], States, Pre0, Pre) :-
    Pre1 is Pre0 \/ ((States >> Shift) /\ Sources),
    preimage(Moves, States, Pre1, Pre).

%!  masks_labeling(+Grid, +Unit, ?Ons) is nondet.
%
%   Ons, each solution in turn: the cells a caller bound or restricted
%   after model/4 are set first, then the search runs in restarted
%   attempts (see restarted/3) within Unit * luby(K) inferences each.
%   Every line starts with weight 1, and a line's weight grows by one
%   each time its sweep fails; the weights outlive backtracking and
%   restarts (they are set with nb_setarg/3), so later choices and
%   attempts look first where earlier ones failed.  They start afresh
%   with each call, so a call's solutions come in the same order each
%   time.
masks_labeling(Grid, Unit, Ons) :-
    arg(2, Grid, Lines),
    functor(Lines, _, M),
    functor(Weights, weights, M),
    findall(J, between(1, M, J), Js),
    forall(member(J, Js), nb_setarg(J, Weights, 1)),
    setarg(8, Grid, Weights),
    foldl(set_outside(Grid), Ons, 1, _),
    propagate_masks(Grid),
    restarted(masks_attempt(Grid, Ons), Unit, Ons).

set_outside(Grid, On, I, I1) :-
    (   var(On)
    ->  true
    ;   set_cell(Grid, I, On)
    ),
    I1 is I + 1.

%!  masks_attempt(+Grid, +Ons, +K, -Labeling) is det.
%
%   Attempt K labels as masks_search/4 does, the ties between lines
%   broken in the K-th order of shuffled/3 (the first attempt: in
%   reading order), OFF first in two attempts of four, ON first in the
%   others.
masks_attempt(Grid, Ons, K, masks_search(Grid, Order, Values, Ons)) :-
    arg(2, Grid, Lines),
    functor(Lines, _, M),
    findall(J, between(1, M, J), Js),
    (   K =:= 1
    ->  Order = Js
    ;   shuffled(K, Js, Order)
    ),
    alternated(K, [0, 1], Values).

%!  masks_search(+Grid, +Order, +Values, ?Ons) is nondet.
%
%   Sets the first unset cell of the line with the largest weight per
%   unset cell (the first such in Order) to each of Values in turn,
%   propagates, and goes on until every cell is set; then Ons are the
%   cells' values.  While no sweep has failed, that is the line with
%   the fewest unset cells, as in states: its constraint bites soonest.
%   Weighing the lines by their failures (as dom/wdeg weighs constraints)
%   takes the seed-1 15x15 checks from 7.7 M inferences to 3.5 M, and
%   the 20x20 ones from 15 M to 7 M.
masks_search(Grid, Order, Values, Ons) :-
    arg(6, Grid, Open),
    (   Open =:= 0
    ->  arg(1, Grid, Cells),
        Cells =.. [_|Ons]
    ;   arg(4, Grid, Unset),
        arg(8, Grid, Weights),
        heaviest(Order, Unset, Weights, none, 0, 1, J),
        arg(1, Grid, Vals),
        (   J == none                   % unset cells in no line
        ->  first_unset_cell(1, Vals, I)
        ;   arg(2, Grid, Lines),
            arg(J, Lines, Line),
            arg(1, Line, Cells),
            first_unset(1, Cells, Vals, I)
        ),
        member(V, Values),
        set_cell(Grid, I, V),
        propagate_masks(Grid),
        masks_search(Grid, Order, Values, Ons)
    ).

%   Line J failed once more (none: no weights, while the model posts).
weighed(none, _) :- !.
weighed(Weights, J) :-
    arg(J, Weights, W0),
    W is W0 + 1,
    nb_setarg(J, Weights, W).

%   Best is the line of Js with unset cells whose weight per unset cell
%   is largest (W0/U0 the best so far), the first such; none if no line
%   has unset cells.
heaviest([], _, _, J, _, _, J).
heaviest([J|Js], Unset, Weights, Best0, W0, U0, Best) :-
    arg(J, Unset, U),
    (   U > 0,
        arg(J, Weights, W),
        W * U0 > W0 * U
    ->  heaviest(Js, Unset, Weights, J, W, U, Best)
    ;   heaviest(Js, Unset, Weights, Best0, W0, U0, Best)
    ).

%   I is the first cell of Cells (cell numbers) not set.
first_unset(K, Cells, Values, I) :-
    arg(K, Cells, I0),
    arg(I0, Values, X),
    (   var(X)
    ->  I = I0
    ;   K1 is K + 1,
        first_unset(K1, Cells, Values, I)
    ).

%   I is the first cell not set.
first_unset_cell(K, Values, I) :-
    arg(K, Values, X),
    (   var(X)
    ->  I = K
    ;   K1 is K + 1,
        first_unset_cell(K1, Values, I)
    ).
