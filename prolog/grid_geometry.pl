:- module(grid_geometry,
          [ unit_geometry/3,      % +NCells, +UnitLists, -UnitGeometry
            cell_table_bits/3,    % +NCells, +TableNumbers, -CellTableBits
            table_units/6,        % +CellUnits, +Units, +Width, +Kind, +Numbers, -Table
            filled/4,             % +Name, +N, +Value, -Term
            cell_set/2,           % +Cells, -Set
            set_cells/2,          % +Set, -Cells
            mask_digit/2          % +Mask, -Digit
          ]).
/** <module> The grid kernel's geometry: units, peers, crossings, kept between puzzles.

What a grid's units make of its cells, worked out once per shape and
searched many times: each cell's units and peers, the units' crossings
(locked candidates look at them), and the units a table's cells share.
Cells and digits are numbers; a set of them is an integer, bit I for I
(cell_set/2, set_cells/2, mask_digit/2).  A shape's units and crossings
are kept between puzzles (grid_kept.pl).  See grid.pl for the kernel as a
whole.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(library(ordsets)).
:- use_module(grid_kept, [kept/5, kept_from_second_sight/5]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: sets of cells and digits are integers
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%!  unit_geometry(+NCells, +UnitLists, -UnitGeometry) is det.
%
%   UnitGeometry is units(CellUnits, CellUnitBits, Peers, Units, UnitSizes,
%   Locks, UnitSets): each cell's units (a list and a set), its peers, the
%   units' cells, their sizes, their crossings (unit_locks/4) and, for the
%   units of the largest size, their cells as a set (bit I for cell I; 0
%   for the others: see grid_sums.pl).
%   Kept as a fact from the second time a shape comes (a Sudoku's or a
%   size of KenKen's units are the same every time), the last few shapes
%   only (a Kakuro's runs are its own); not tabled, see grid.pl's header.
:- dynamic known_units/3.
:- multifile crossprolog:worked_out/1.
crossprolog:worked_out(grid_geometry:known_units/3).

unit_geometry(NCells, UnitLists, UnitGeometry) :-
    kept_from_second_sight(known_units, 16, NCells-UnitLists, worked_out_units(NCells, UnitLists),
                           UnitGeometry).

worked_out_units(NCells, UnitLists,
                 units(CellUnits, CellUnitBits, Peers, Units, UnitSizes, Locks, UnitSets)) :-
    Units =.. [units|UnitLists],
    maplist(length, UnitLists, Sizes),
    UnitSizes =.. [unit_sizes|Sizes],
    max_list([0|Sizes], Largest),
    maplist(largest_unit_set(Largest), UnitLists, Sizes, Sets),
    UnitSets =.. [unit_sets|Sets],
    filled(cell_units, NCells, [], Descending),
    foldl(unit_of_cells(Descending), UnitLists, 1, _),
    Descending =.. [_|Reversed],
    maplist(reverse, Reversed, UnitsOfCells),
    CellUnits =.. [cell_units|UnitsOfCells],
    maplist(bits, UnitsOfCells, UnitBits),
    CellUnitBits =.. [cell_unit_bits|UnitBits],
    numlist(1, NCells, Is),
    maplist(cell_peers(Units), UnitsOfCells, Is, PeerLists),
    Peers =.. [peers|PeerLists],
    unit_locks(Units, UnitSizes, CellUnits, Locks).

%!  unit_locks(+Units, +UnitSizes, +CellUnits, -Locks) is det.
%
%   Locks holds for each unit its crossings with other units: those
%   sharing two cells or more with it, among the units of the largest
%   size (a Sudoku's rows, columns and boxes, not a Killer Sudoku's
%   cages, whose crossings cost a fifth more inferences on the bench's
%   Killer Sudokus than they saved).  The crossings of a unit are
%   grouped so that those of a group do not overlap (a box's rows, then
%   its columns), each group a list of segment(Inside, Others): Inside
%   the cells the unit shares with another, Others that unit's other
%   cells; the unit's cells no crossing of the group holds make one more
%   segment, whose Others are [].  Only a unit with two groups or more
%   keeps them (a box, crossed by rows and by columns), the others []:
%   looking from the lines too (a row, crossed by boxes only) leaves a
%   tenth fewer choices on top1465 but costs more than that saves.  Kept
%   as a fact (the last few), as a Killer Sudoku's rows, columns and
%   boxes are the same whatever its cages.
unit_locks(Units, UnitSizes, CellUnits, Locks) :-
    UnitSizes =.. [_|Sizes],
    max_member(Full, [0|Sizes]),
    findall(U-Unit, ( nth1(U, Sizes, Full), arg(U, Units, Unit) ), FullUnits),
    kept(known_crossings, 16, FullUnits, full_crossings(FullUnits, UnitSizes-Full, CellUnits, Units),
         Crossings),
    length(Sizes, NUnits),
    filled(locks, NUnits, [], Locks),
    maplist(set_groups(Locks), Crossings).

:- dynamic known_crossings/3.
crossprolog:worked_out(grid_geometry:known_crossings/3).

%   (Locks is fresh: setarg/3 is safe.)
set_groups(Locks, U-Groups) :-
    setarg(U, Locks, Groups).

%   The crossings of the full units, from the cells each two of them share
%   (U < V, sorted, then each way), kept for the units crossed in two
%   groups or more.
full_crossings(FullUnits, UnitSizes-Full, CellUnits, Units, Crossings) :-
    findall((U-V)-I, ( member(U-Unit, FullUnits), member(I, Unit), arg(I, CellUnits, Vs),
                       member(V, Vs), V > U, arg(V, UnitSizes, Full) ),
            Pairs),
    msort(Pairs, Sorted),
    group_pairs_by_key(Sorted, Shared),
    foldl(both_ways(Units), Shared, ByUnit0, []),
    keysort(ByUnit0, ByUnit),
    group_pairs_by_key(ByUnit, PerUnit),
    foldl(crossed_two_ways(Units), PerUnit, Crossings, []).

%   Units U and V share Inside, two cells or more: a crossing of each, with
%   the other's other cells.
both_ways(Units, (U-V)-Inside, Crossings0, Crossings) :-
    (   Inside = [_, _|_]
    ->  other_cells(Units, V, Inside, OthersOfV),
        other_cells(Units, U, Inside, OthersOfU),
        Crossings0 = [U-(Inside-OthersOfV), V-(Inside-OthersOfU)|Crossings]
    ;   Crossings0 = Crossings
    ).

other_cells(Units, U, Inside, Others) :-
    arg(U, Units, Cells),
    msort(Cells, Sorted),
    ord_subtract(Sorted, Inside, Others).

crossed_two_ways(Units, U-Crossings, Kept0, Kept) :-
    disjoint_groups(Crossings, [], Groups0),
    (   Groups0 = [_, _|_]
    ->  arg(U, Units, Unit),
        msort(Unit, Sorted),
        maplist(group_segments(Sorted), Groups0, Groups),
        Kept0 = [U-Groups|Kept]
    ;   Kept0 = Kept
    ).

%   Crossings put in the first group they do not overlap, a new one if none.
disjoint_groups([], Groups, Groups).
disjoint_groups([Crossing|Crossings], Groups0, Groups) :-
    in_disjoint_group(Groups0, Crossing, Groups1),
    disjoint_groups(Crossings, Groups1, Groups).

in_disjoint_group([], Crossing, [[Crossing]]).
in_disjoint_group([Group|Groups], Inside-Others, [Group1|Groups1]) :-
    (   \+ ( member(Cells-_, Group), \+ ord_disjoint(Cells, Inside) )
    ->  append(Group, [Inside-Others], Group1),
        Groups1 = Groups
    ;   Group1 = Group,
        in_disjoint_group(Groups, Inside-Others, Groups1)
    ).

group_segments(Unit, Group, Segments) :-
    findall(segment(Inside, Others), member(Inside-Others, Group), Crossed),
    pairs_keys(Group, Insides),
    ord_union(Insides, Covered),
    ord_subtract(Unit, Covered, Rest),
    (   Rest == []
    ->  Segments = Crossed
    ;   append(Crossed, [segment(Rest, [])], Segments)
    ).

%   Unit U is put first in the list of each of its cells (Descending is
%   fresh: setarg/3 is safe).
unit_of_cells(Descending, Unit, U, U1) :-
    in_unit(Unit, Descending, U),
    U1 is U + 1.

in_unit([], _, _).
in_unit([I|Is], Descending, U) :-
    arg(I, Descending, Us),
    setarg(I, Descending, [U|Us]),
    in_unit(Is, Descending, U).

bits(Numbers, Bits) :-
    bits(Numbers, 0, Bits).

bits([], Bits, Bits).
bits([N|Ns], Bits0, Bits) :-
    Bits1 is Bits0 \/ (1 << N),
    bits(Ns, Bits1, Bits).

%   The peers of cell I: the cells of its units, itself left out.  A sort
%   (in C) of the units' cells is cheaper than sets of cells as integers,
%   which are bignums past 60 cells.
cell_peers(Units, CellUnits, I, Peers) :-
    units_cells(CellUnits, Units, Cells),
    sort(Cells, Sorted),
    (   selectchk(I, Sorted, Peers)
    ->  true
    ;   Peers = []                      % a cell in no unit
    ).

units_cells([], _, []).
units_cells([U|Us], Units, Cells) :-
    arg(U, Units, UnitCells),
    append(UnitCells, Rest, Cells),
    units_cells(Us, Units, Rest).

%!  cell_table_bits(+NCells, +TableNumbers, -CellTableBits) is det.
%
%   For each cell, the set of the tables it is in.
cell_table_bits(NCells, TableNumbers, CellTableBits) :-
    filled(cell_table_bits, NCells, 0, CellTableBits),
    foldl(cells_in_table(CellTableBits), TableNumbers, 1, _).

%   The cells of table T have bit T set (Bits is fresh: setarg/3 is safe).
cells_in_table(Bits, Numbers, T, T1) :-
    forall(member(I, Numbers),
           ( arg(I, Bits, B0), B is B0 \/ (1 << T), nb_setarg(I, Bits, B) )),
    T1 is T + 1.

%!  table_units(+CellUnits, +Units, +Width, +Kind, +Numbers, -Table) is det.
%
%   A table of packed fillings is table(Numbers, Crossings): for each unit
%   holding two or more of the cells Numbers, crossing(Shifts, Others),
%   Shifts the fields of those cells in a packed filling, Others the
%   unit's other cells.  A table of digit sets is sets(Numbers, Crossings):
%   for each such unit, crossing(Outside, Others), Outside the cells of
%   Numbers not in it.  A folded sum or product is fold(Numbers, Box)
%   (grid_folds.pl).
table_units(_, _, _, fold(Box), Numbers, fold(Numbers, Box)) :- !.
table_units(CellUnits, Units, Width, Kind, Numbers, Table) :-
    cells_units(Numbers, 0, Width, CellUnits, Pairs, []),
    keysort(Pairs, ByUnit),
    crossings(ByUnit, Units, Kind, Numbers, Crossings),
    table_term(Kind, Numbers, Crossings, Table).

table_term(sets, Numbers, Crossings, sets(Numbers, Crossings)).
table_term(packed, Numbers, Crossings, table(Numbers, Crossings)).

%   U-(I-Shift) for each unit U of each cell I of a table, Shift the
%   field of I in a packed filling.
cells_units([], _, _, _, Pairs, Pairs).
cells_units([I|Is], K, Width, CellUnits, Pairs0, Pairs) :-
    arg(I, CellUnits, Us),
    Shift is K * Width,
    cell_units(Us, I-Shift, Pairs0, Pairs1),
    K1 is K + 1,
    cells_units(Is, K1, Width, CellUnits, Pairs1, Pairs).

cell_units([], _, Pairs, Pairs).
cell_units([U|Us], Cell, [U-Cell|Pairs0], Pairs) :-
    cell_units(Us, Cell, Pairs0, Pairs).

%   A crossing for each run of pairs of one unit, two cells or more.
crossings([], _, _, _, []).
crossings([U-Cell|Pairs], Units, Kind, Numbers, Crossings) :-
    same_unit(Pairs, U, Cells, Rest),
    (   Cells == []
    ->  Crossings = Crossings1
    ;   arg(U, Units, Unit),
        pairs_keys_values([Cell|Cells], Inside, Shifts),
        subtract(Unit, Inside, Others),
        crossing(Kind, Numbers, Inside, Shifts, Others, Crossings, Crossings1)
    ),
    crossings(Rest, Units, Kind, Numbers, Crossings1).

same_unit([U-Cell|Pairs], U, [Cell|Cells], Rest) :- !,
    same_unit(Pairs, U, Cells, Rest).
same_unit(Pairs, _, [], Pairs).

crossing(sets, _, _, _, [], Crossings, Crossings) :- !.
crossing(sets, Numbers, Inside, _, Others, [crossing(Outside, Others)|Crossings], Crossings) :-
    subtract(Numbers, Inside, Outside).
crossing(packed, _, _, Shifts, Others, [crossing(Shifts, Others)|Crossings], Crossings).

%   A unit's cells as a set, when it has the largest size (0 otherwise).
largest_unit_set(Largest, Cells, Size, Set) :-
    (   Size =:= Largest
    ->  cell_set(Cells, Set)
    ;   Set = 0
    ).

%   Set is the set of the cells Vs.  (A rule that names a cell twice is an
%   error grid_fillings.pl's rule_table/7 raises.)
cell_set(Vs, Set) :-
    foldl(add_cell, Vs, 0, Set).

add_cell(I, Set0, Set) :-
    Set is Set0 \/ (1 << I).

set_cells(0, []) :- !.
set_cells(Set, [I|Cells]) :-
    I is lsb(Set),
    Rest is Set /\ \(1 << I),
    set_cells(Rest, Cells).

%!  mask_digit(+Mask, -Digit) is nondet.
%
%   The digits of Mask, smallest first.
mask_digit(Mask, Digit) :-
    Smallest is lsb(Mask),
    (   Digit = Smallest
    ;   Rest is Mask /\ (Mask - 1),
        Rest =\= 0,
        mask_digit(Rest, Digit)
    ).

%   Term is a fresh Name(Value, ..., Value) of N arguments: setarg/3 and
%   nb_setarg/3 may change it.
filled(Name, N, Value, Term) :-
    length(Values, N),
    maplist(=(Value), Values),
    Term =.. [Name|Values].
