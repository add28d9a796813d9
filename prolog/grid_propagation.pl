:- module(grid_propagation,
          [ propagate_grid/1      % +Grid
          ]).
/** <module> The grid kernel's propagation: singles, locked candidates, tables.

What a placement or a removal implies, until nothing more: hidden singles
in the units that changed, locked candidates where a unit crosses others
two ways, and the tables' fillings the cells still allow; then a family's
own propagator.  grid.pl's header says what each does and gains.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(grid_folds, [fold_support/4]).
:- use_module(grid_candidates, [field/3, set_field/3, goal_expansion/2, place/3, remove_digits/3,
                                remove_from_cells/4, cell_allowed/3]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the inner loops are all masks
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%!  propagate_grid(+Grid) is semidet.
%
%   Looks at the pending tables (keeping the fillings their cells allow)
%   and units (placing hidden singles), then calls the family's
%   propagator, until none finds anything more; fails when a table has
%   no filling left or a unit a digit in use no cell can take.
propagate_grid(Grid) :-
    field(pending_tables, Grid, Tables),
    field(pending_units, Grid, Units),
    (   Tables =\= 0
    ->  T is lsb(Tables),
        RestTables is Tables xor (1 << T),
        set_field(pending_tables, Grid, RestTables),
        (   table_support(Grid, T)
        ->  true
        ;   table_failed(Grid, T)
        ),
        propagate_grid(Grid)
    ;   Units =\= 0
    ->  U is lsb(Units),
        RestUnits is Units xor (1 << U),
        set_field(pending_units, Grid, RestUnits),
        unit_singles(Grid, U),
        propagate_grid(Grid)
    ;   field(pending_locks, Grid, Locks),
        Locks =\= 0
    ->  U is lsb(Locks),
        RestLocks is Locks xor (1 << U),
        set_field(pending_locks, Grid, RestLocks),
        locked_candidates(Grid, U),
        propagate_grid(Grid)
    ;   field(propagator, Grid, Propagator),
        Propagator \== none
    ->  call(Propagator, Grid, Narrowed),
        (   Narrowed == true
        ->  propagate_grid(Grid)
        ;   true
        )
    ;   true
    ).

%   Table T failed once more: each of its cells weighs one more (dom/wdeg, see
%   grid_search.pl); this fails.
table_failed(Grid, T) :-
    field(tables, Grid, Tables),
    arg(T, Tables, Table),
    arg(1, Table, Numbers),
    field(cell_weights, Grid, Weights),
    forall(member(I, Numbers),
           (   arg(I, Weights, W0),
               W is W0 + 1,
               nb_setarg(I, Weights, W)
           )),
    fail.

%!  unit_singles(+Grid, +U) is semidet.
%
%   In a unit with a cell for every digit in use, places every digit only
%   one open cell can take; fails when a digit in use is neither placed in
%   it nor a candidate of any of its cells.
unit_singles(Grid, U) :-
    field(unit_sizes, Grid, UnitSizes),
    field(in_use, Grid, InUse),
    arg(U, UnitSizes, Size),
    (   popcount(InUse) =:= Size
    ->  field(units, Grid, Units),
        arg(U, Units, Unit),
        field(masks, Grid, Masks),
        once_twice(Unit, Masks, 0, 0, Once, Twice),
        field(taken, Grid, Taken),
        arg(U, Taken, Placed),
        Once \/ Placed =:= InUse,
        Hidden is Once /\ \ Twice,
        place_hidden(Hidden, U, Unit, Grid),
        lock_pending(Grid, U)
    ;   true
    ).

%   Unit U's crossings are looked at after its hidden singles, once
%   nothing else is pending (locked_candidates/2).
lock_pending(Grid, U) :-
    field(locks, Grid, Locks),
    arg(U, Locks, Groups),
    (   Groups == []
    ->  true
    ;   field(pending_locks, Grid, Pending0),
        Pending is Pending0 \/ (1 << U),
        set_field(pending_locks, Grid, Pending)
    ).

%!  locked_candidates(+Grid, +U) is semidet.
%
%   In unit U, which holds every digit in use, a digit that only one
%   segment of a group of its crossings can take must go there, and leaves
%   the other cells of the unit it shares the segment with (a digit of a
%   Sudoku box that only one of its rows can take leaves the rest of the
%   row).  Sound whatever that unit is: its digits differ.
locked_candidates(Grid, U) :-
    field(locks, Grid, Locks),
    arg(U, Locks, Groups),
    field(masks, Grid, Masks),
    groups_locked(Groups, Masks, Grid).

%   A group of three segments (a Sudoku box's rows, or its columns) is
%   spelled out: this is an inner loop.
groups_locked([], _, _).
groups_locked([[segment(I1, O1), segment(I2, O2), segment(I3, O3)]|Groups], Masks, Grid) :- !,
    masks_union(I1, Masks, 0, U1),
    masks_union(I2, Masks, 0, U2),
    masks_union(I3, Masks, 0, U3),
    Twice is (U1 /\ U2) \/ (U3 /\ (U1 \/ U2)),
    segment_locked(U1, Twice, O1, Masks, Grid),
    segment_locked(U2, Twice, O2, Masks, Grid),
    segment_locked(U3, Twice, O3, Masks, Grid),
    groups_locked(Groups, Masks, Grid).
groups_locked([Segments|Groups], Masks, Grid) :-
    segments_unions(Segments, Masks, 0, 0, Twice, Unions),
    segments_locked(Segments, Unions, Twice, Masks, Grid),
    groups_locked(Groups, Masks, Grid).

%   Unions: the digits each segment's cells can take; Twice those two
%   segments or more can.
segments_unions([], _, _, Twice, Twice, []).
segments_unions([segment(Inside, _)|Segments], Masks, Once0, Twice0, Twice, [Union|Unions]) :-
    masks_union(Inside, Masks, 0, Union),
    Twice1 is Twice0 \/ (Once0 /\ Union),
    Once1 is Once0 \/ Union,
    segments_unions(Segments, Masks, Once1, Twice1, Twice, Unions).

%   A segment of three (a Sudoku box's row) is spelled out: this is an
%   inner loop.
masks_union([A, B, C], Masks, 0, Union) :- !,
    arg(A, Masks, MA), arg(B, Masks, MB), arg(C, Masks, MC),
    Union is MA \/ MB \/ MC.
masks_union([], _, Union, Union).
masks_union([I|Is], Masks, Union0, Union) :-
    arg(I, Masks, Mask),
    Union1 is Union0 \/ Mask,
    masks_union(Is, Masks, Union1, Union).

segments_locked([], [], _, _, _).
segments_locked([segment(_, Others)|Segments], [Union|Unions], Twice, Masks, Grid) :-
    segment_locked(Union, Twice, Others, Masks, Grid),
    segments_locked(Segments, Unions, Twice, Masks, Grid).

%   The digits of a segment (Union) no other segment of its group can take
%   leave Others.
segment_locked(Union, Twice, Others, Masks, Grid) :-
    Locked is Union /\ \ Twice,
    (   Locked =:= 0
    ->  true
    ;   remove_from_cells(Others, Locked, Masks, Grid)
    ).

%   Once: the digits some open cell of the unit can take; Twice: those
%   two or more can.  A unit of nine (Sudoku's, a 9x9 KenKen's) is
%   spelled out: this is the inner loop, and the unrolled clause costs a
%   tenth less on the hard Sudoku classics.
once_twice([A, B, C, D, E, F, G, H, I], Masks, 0, 0, O9, T9) :- !,
    arg(A, Masks, M1), arg(B, Masks, M2), arg(C, Masks, M3),
    arg(D, Masks, M4), arg(E, Masks, M5), arg(F, Masks, M6),
    arg(G, Masks, M7), arg(H, Masks, M8), arg(I, Masks, M9),
    T2 is M1 /\ M2,               O2 is M1 \/ M2,
    T3 is T2 \/ (O2 /\ M3),       O3 is O2 \/ M3,
    T4 is T3 \/ (O3 /\ M4),       O4 is O3 \/ M4,
    T5 is T4 \/ (O4 /\ M5),       O5 is O4 \/ M5,
    T6 is T5 \/ (O5 /\ M6),       O6 is O5 \/ M6,
    T7 is T6 \/ (O6 /\ M7),       O7 is O6 \/ M7,
    T8 is T7 \/ (O7 /\ M8),       O8 is O7 \/ M8,
    T9 is T8 \/ (O8 /\ M9),       O9 is O8 \/ M9.
once_twice([], _, Once, Twice, Once, Twice).
once_twice([I|Is], Masks, Once0, Twice0, Once, Twice) :-
    arg(I, Masks, M),
    Twice1 is Twice0 \/ (Once0 /\ M),
    Once1 is Once0 \/ M,
    once_twice(Is, Masks, Once1, Twice1, Once, Twice).

%   Placing one hidden single may place the next one's digit by a chain of
%   naked singles (then it is taken in the unit already), or take it from
%   its only cell (then no cell has it, and this fails).
place_hidden(0, _, _, _) :- !.
place_hidden(Hidden, U, Unit, Grid) :-
    Digit is lsb(Hidden),
    Bit is 1 << Digit,
    field(taken, Grid, Taken),
    field(masks, Grid, Masks),
    arg(U, Taken, Placed),
    (   Placed /\ Bit =\= 0
    ->  true
    ;   member(I, Unit),
        arg(I, Masks, Mask),
        Mask /\ Bit =\= 0
    ->  place(Grid, I, Digit)
    ),
    Rest is Hidden xor Bit,
    place_hidden(Rest, U, Unit, Grid).

%!  table_support(+Grid, +T) is semidet.
%
%   Table T keeps the fillings its cells still allow, and its cells only
%   the digits some kept filling has there; the digits every kept filling
%   puts in its cells of a unit leave the unit's other cells.
table_support(Grid, T) :-
    field(tables, Grid, Tables),
    arg(T, Tables, Table),
    table_support(Table, Grid, T).

table_support(sets(Numbers, Crossings), Grid, T) :-
    sets_support(Numbers, Crossings, Grid, T).
table_support(fold(Numbers, Box), Grid, T) :-
    field(width, Grid, Width),
    field(lives, Grid, Lives),
    packed_allowed(Numbers, Grid, Width, 0, 0, Allowed),
    arg(T, Lives, live(Seen, _)),
    (   Allowed =:= Seen                % as it was left: every digit supported
    ->  true
    ;   fold_support(Numbers, Box, Grid, Narrowed),
        setarg(T, Lives, live(Narrowed, []))
    ).
table_support(table(Numbers, Crossings), Grid, T) :-
    field(width, Grid, Width),
    field(lives, Grid, Lives),
    packed_allowed(Numbers, Grid, Width, 0, 0, Allowed),
    arg(T, Lives, Live),
    Live = live(Seen, Fillings0),
    (   Allowed =:= Seen                % as it was left: every kept filling fits
    ->  true
    ;   fitting(Fillings0, Allowed, Fillings, 0, Support),
        Fillings \== [],
        Field is (1 << Width) - 1,
        (   Seen >= 0,                  % its units were looked at with these fillings
            same_length(Fillings0, Fillings)
        ->  setarg(1, Live, Support)
        ;   setarg(T, Lives, live(Support, Fillings)),
            crossings_musts(Crossings, Fillings, Field, Grid)
        ),
        narrow_to_support(Numbers, Support, Width, Field, Grid)
    ).

%!  sets_support(+Numbers, +Crossings, +Grid, +T) is semidet.
%
%   Table T of digit sets (a sum over cells Numbers that must differ)
%   keeps the sets holding every digit placed in its cells, whose other
%   digits some open cell can take, and that leave every open cell a
%   digit; its cells keep only the digits of some kept set.  A digit of
%   every kept set that one cell alone can take goes there (a hidden
%   single of the sum), and one no cell outside a unit can take leaves the
%   unit's other cells (the sum's digits that must lie in a row).
sets_support(Numbers, Crossings, Grid, T) :-
    field(width, Grid, Width),
    field(lives, Grid, Lives),
    packed_allowed(Numbers, Grid, Width, 0, 0, Allowed),
    arg(T, Lives, live(Seen, Sets0)),
    (   Allowed =:= Seen                % as it was left: every kept set fits
    ->  true
    ;   field(cells, Grid, Cells),
        field(masks, Grid, Masks),
        cells_digits(Numbers, Cells, Masks, 0, Placed, 0, Union, Open),
        fitting_sets(Sets0, Placed, Union, Open, Sets, 0, Possible, -1, Must),
        Sets \== [],
        setarg(T, Lives, live(Allowed, Sets)),
        Out is \ Possible,
        narrow_open(Numbers, Cells, Out, Grid),
        cells_once_twice(Numbers, Cells, Masks, 0, PlacedNow, 0, Once, 0, Twice),
        Needed is Must /\ \ PlacedNow,
        Needed /\ \ Once =:= 0,
        Hidden is Needed /\ \ Twice,
        place_in_cells(Hidden, Numbers, Grid),
        crossings_forced(Crossings, Must, Grid)
    ).

%   Placed: the digits of the placed cells; Union: those the open ones
%   can take; Open: the open cells' masks.
cells_digits([], _, _, Placed, Placed, Union, Union, []).
cells_digits([I|Is], Cells, Masks, Placed0, Placed, Union0, Union, Open) :-
    arg(I, Cells, Cell),
    (   var(Cell)
    ->  arg(I, Masks, Mask),
        Union1 is Union0 \/ Mask,
        Open = [Mask|Open1],
        cells_digits(Is, Cells, Masks, Placed0, Placed, Union1, Union, Open1)
    ;   Placed1 is Placed0 \/ (1 << Cell),
        cells_digits(Is, Cells, Masks, Placed1, Placed, Union0, Union, Open)
    ).

%   Sets: those of Sets0 that fit; Possible their union, Must their
%   intersection.
fitting_sets([], _, _, _, [], Possible, Possible, Must, Must).
fitting_sets([S|Ss], Placed, Union, Open, Sets, Possible0, Possible, Must0, Must) :-
    (   S /\ Placed =:= Placed,
        S /\ \ (Placed \/ Union) =:= 0,
        each_meets(Open, S)
    ->  Sets = [S|Sets1],
        Possible1 is Possible0 \/ S,
        Must1 is Must0 /\ S,
        fitting_sets(Ss, Placed, Union, Open, Sets1, Possible1, Possible, Must1, Must)
    ;   fitting_sets(Ss, Placed, Union, Open, Sets, Possible0, Possible, Must0, Must)
    ).

each_meets([], _).
each_meets([Mask|Masks], S) :-
    Mask /\ S =\= 0,
    each_meets(Masks, S).

narrow_open([], _, _, _).
narrow_open([I|Is], Cells, Out, Grid) :-
    arg(I, Cells, Cell),
    (   var(Cell)
    ->  remove_digits(Grid, Out, I)
    ;   true
    ),
    narrow_open(Is, Cells, Out, Grid).

%   PlacedNow: the digits placed in the cells; Once: those some open cell
%   can take, Twice: those two or more can.
cells_once_twice([], _, _, P, P, O, O, T, T).
cells_once_twice([I|Is], Cells, Masks, P0, P, O0, O, T0, T) :-
    arg(I, Cells, Cell),
    (   var(Cell)
    ->  arg(I, Masks, M),
        T1 is T0 \/ (O0 /\ M),
        O1 is O0 \/ M,
        cells_once_twice(Is, Cells, Masks, P0, P, O1, O, T1, T)
    ;   P1 is P0 \/ (1 << Cell),
        cells_once_twice(Is, Cells, Masks, P1, P, O0, O, T0, T)
    ).

%   Each digit of Hidden goes to the one cell of Numbers that allows it
%   (placing one may have placed the next already, or taken it away).
place_in_cells(0, _, _) :- !.
place_in_cells(Hidden, Numbers, Grid) :-
    Digit is lsb(Hidden),
    Bit is 1 << Digit,
    (   member(I, Numbers),
        cell_allowed(Grid, I, Mask),
        Mask /\ Bit =\= 0
    ->  place(Grid, I, Digit)
    ),
    Rest is Hidden xor Bit,
    place_in_cells(Rest, Numbers, Grid).

crossings_forced([], _, _).
crossings_forced([crossing(Outside, Others)|Crossings], Must, Grid) :-
    allowed_union(Outside, Grid, 0, Elsewhere),
    Forced is Must /\ \ Elsewhere,
    (   Forced =:= 0
    ->  true
    ;   field(masks, Grid, Masks),
        remove_from_cells(Others, Forced, Masks, Grid)
    ),
    crossings_forced(Crossings, Must, Grid).

allowed_union([], _, Union, Union).
allowed_union([I|Is], Grid, Union0, Union) :-
    cell_allowed(Grid, I, Mask),
    Union1 is Union0 \/ Mask,
    allowed_union(Is, Grid, Union1, Union).

%   The digits a cell allows (its candidates, or its digit), in its field.
packed_allowed([], _, _, _, Allowed, Allowed).
packed_allowed([I|Is], Grid, Width, Shift, Allowed0, Allowed) :-
    cell_allowed(Grid, I, Mask),
    Allowed1 is Allowed0 \/ (Mask << Shift),
    Shift1 is Shift + Width,
    packed_allowed(Is, Grid, Width, Shift1, Allowed1, Allowed).

%   Fillings: those of Fillings0 within Allowed; Support their union.
fitting([], _, [], Support, Support).
fitting([F|Fs], Allowed, Fillings, Support0, Support) :-
    (   F /\ Allowed =:= F
    ->  Fillings = [F|Fillings1],
        Support1 is Support0 \/ F,
        fitting(Fs, Allowed, Fillings1, Support1, Support)
    ;   fitting(Fs, Allowed, Fillings, Support0, Support)
    ).

%   Each open cell of the table loses the digits no kept filling has in
%   its field.
narrow_to_support([], _, _, _, _).
narrow_to_support([I|Is], Support, Width, Field, Grid) :-
    Supported is Support /\ Field,
    remove_digits(Grid, \ Supported /\ Field, I),
    Rest is Support >> Width,
    narrow_to_support(Is, Rest, Width, Field, Grid).

crossings_musts([], _, _, _).
crossings_musts([crossing(Shifts, Others)|Crossings], Fillings, Field, Grid) :-
    must(Fillings, Shifts, Field, Field, Must),
    (   Must =:= 0
    ->  true
    ;   field(masks, Grid, Masks),
        remove_from_cells(Others, Must, Masks, Grid)
    ),
    crossings_musts(Crossings, Fillings, Field, Grid).

%   Must: the digits every filling puts in the fields Shifts.
must([], _, _, Must, Must).
must([F|Fs], Shifts, Field, Must0, Must) :-
    in_fields(Shifts, F, Field, 0, Digits),
    Must1 is Must0 /\ Digits,
    (   Must1 =:= 0
    ->  Must = 0
    ;   must(Fs, Shifts, Field, Must1, Must)
    ).

in_fields([], _, _, Digits, Digits).
in_fields([Shift|Shifts], F, Field, Digits0, Digits) :-
    Digits1 is Digits0 \/ ((F >> Shift) /\ Field),
    in_fields(Shifts, F, Field, Digits1, Digits).
