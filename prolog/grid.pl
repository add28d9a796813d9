:- module(grid,
          [ grid_model/5,         % +Encoding, +Rows, +Rules, +Low-High, -Labeling
            grid_rows/3,          % +Height, +Width, -Rows
            cell_at/3,            % +Rows, +[R, C], -Cell
            given_rule/3,         % +Rows, +[R, C, Digit], -Rule
            distinct_rule/2,      % +Cells, -Rule
            grid_constraints/4,   % +Rows, +Rules, +Low-High, -Goals
            grid_state/4,         % +Cells, +Low-High, +Rules, -Grid
            label_grid/1,         % +Grid
            search_grid/1,        % +Grid
            rule_goal/2,          % +Rule, -Goal
            rule_table_goal/3,    % +Rules, +Rule, -Goal
            is_given/1,           % +Rule
            cell_allowed/3,       % +Grid, +Cell, -Mask
            placed_cell/2,        % +Grid, +Cell
            remove_digits/3,      % +Grid, +Bits, +Cell
            propagate_grid/1,     % +Grid
            place_bound_cells/1,  % +Grid
            digits_in_use/2,      % +Grid, -Mask
            use_digits/2,         % +Grid, +Mask
            placed_digits/2,      % +Grid, -Mask
            set_propagator/2,     % +Grid, :Propagator
            mask_digit/2,         % +Mask, -Digit
            grid_blocks/4         % +Rows, +Height, +Width, -Blocks
          ]).
/** <module> The grid kernel: the fast search of every digit-grid family.

A family states its rules as data on its cell variables, and the kernel
reads that one statement three ways: as its own search (grid_state/4 and
label_grid/1), as CLP(FD) goals (rule_goal/2: what `export --readable`
prints and the `arithmetic` encodings post), and as CLP(FD) tables
(rule_table_goal/3).  The rules are

    all_distinct(Vs)        the cells of Vs hold different digits (a unit)
    sum(Vs, T)              their digits add up to T
    product(Vs, T)          their digits multiply to T
    difference(A, B, T)     |A - B| = T
    ratio(A, B, T)          the larger is T times the smaller
    table(Vs, Fillings)     Vs takes one of Fillings, lists of digits
    given(V, D)             V is D

Sudoku is nine rows, nine columns and nine boxes, each all_distinct;
KenKen rows and columns all_distinct and a sum, product, difference or
ratio per cage; Killer Sudoku Sudoku's units and a sum per cage.

The search reasons on a word per cell: the digits a cell can still take
are a bitmask (bit D for digit D), kept in a term changed with setarg/3,
so backtracking restores it.

  - A placed digit leaves every peer (a cell sharing a unit with it); a
    cell left one digit takes it (naked singles).
  - In a unit with as many cells as there are digits in use, a digit
    only one cell can take goes there (hidden singles).
  - Every arithmetic rule and table is a table of packed fillings: a
    filling is one integer, its cells' digits in fields of Width bits,
    so it fits the cells' masks, packed the same way, when it is a subset
    of them (one AND per filling).  A table keeps the fillings its cells
    allow, and its cells only the digits some kept filling has there
    (arc consistent).  Arithmetic fillings put no digit twice in a unit.
  - The digits every kept filling puts in a table's cells of one unit
    leave the unit's other cells (a 3+ domino takes 1 and 2 from its
    row).
  - A sum of four or more cells that must all differ (a Killer Sudoku's
    cage, a Kakuro's run) is a table of its sets of digits instead, a
    few where its fillings are those times every ordering (9! for a run
    of nine): a set stays while it holds the digits placed in the cells,
    some open cell can take each of its other digits, and each open cell
    one of them; a digit of every set one cell alone can take goes there,
    and one no cell of the sum outside a unit can take leaves the unit's
    other cells.
  - A unit with a cell for every digit holds each once, so it adds up
    to their total (45 for 1..9): the sums inside it leave its other
    cells the difference, and the sums that cover it put what they hold
    beyond that total in their cells outside it (a Killer Sudoku
    solver's innies and outies).  Those of three cells or fewer become
    sums of their own (implied_sums/4): on the bench's Killer Sudokus,
    218 choices where the search made 3,203.
  - In a unit with a cell for every digit in use, crossed by units of
    its size two ways (a box, by rows and by columns), a digit that only
    the cells it shares with one of them can take leaves that unit's
    other cells (locked candidates, pointing: a box's digit confined to
    one of its rows leaves the rest of the row), once singles have
    nothing more to do (see unit_locks/4).  On magictour's top1465
    Sudokus this takes the choices from 33 a puzzle to 13, and the
    search's work by two fifths; on the hard classics, made to need more,
    from 122 to 103, for the same work.
  - The search branches on an open cell with the fewest candidates,
    among those the one whose units have the fewest digits placed, and
    tries its digits smallest first; with tables, the fewest candidates
    per weight, a table weighing one more each time it failed (dom/wdeg).

A family may add a propagator of its own (Sudoku's GCD objective does),
called whenever the rest has nothing more to do.

No tabling: SWI-Prolog 9.2.9 corrupts its heap (an abort in garbage
collection, "relocation cells") when a table is completed inside a search
that keeps its state in terms changed with setarg/3 and later searches
reuse it (docs/reproducers/, tests/test_kenken_stress.py); the units'
geometry is kept as an asserted fact instead.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(library(ordsets)).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the inner loops are all masks

:- meta_predicate set_propagator(+, 2).

                 /*******************************
                 *   THE STATE, BY FIELD NAME   *
                 *******************************/

%   The search state is one term; its fields are read and set by name
%   (field/3, set_field/3), which compile to arg/3 and setarg/3.
%
%     cells      the grid variables, cells(V1, ..., Vn)
%     masks      their candidate masks, 0 once placed
%     open       how many cells are not placed
%     taken      for each unit, the mask of its placed digits
%     in_use     the mask of the digits the grid uses
%     lives      for each table, live(Seen, Fillings): the packed fillings
%                still allowed, Seen their union once the cells were
%                narrowed to it (-1 before)
%     pending_units, pending_tables
%                the sets (bit U, bit T) of units and tables whose cells
%                changed since they were last looked at
%     propagator none, or a family's goal called as call(P, Grid, Narrowed)
%
%   and the facts of the grid, which the search only reads:
%
%     width      the bits of a cell's field in a packed filling
%     cell_units for each cell, the list of its units
%     cell_unit_bits  the same as a set (bit U for unit U)
%     peers      for each cell, the cells sharing a unit with it
%     units      for each unit, the list of its cells
%     unit_sizes for each unit, how many cells it has
%     tables     for each table, table(Cells, Crossings) (see table_units/5)
%     cell_table_bits for each cell, the set of its tables
%     table_weights  for each table, one more than the times it failed:
%                changed with nb_setarg/3, so they outlive backtracking
%                (dom/wdeg, see branching_cell/3)
%     locks      for each unit, its crossings with other units (see
%                unit_locks/4)
%     pending_locks  the set of units whose crossings are to be looked
%                at: those whose hidden singles were, after them

field_index(cells, 1).
field_index(masks, 2).
field_index(open, 3).
field_index(taken, 4).
field_index(in_use, 5).
field_index(lives, 6).
field_index(pending_units, 7).
field_index(pending_tables, 8).
field_index(propagator, 9).
field_index(width, 10).
field_index(cell_units, 11).
field_index(cell_unit_bits, 12).
field_index(peers, 13).
field_index(units, 14).
field_index(unit_sizes, 15).
field_index(tables, 16).
field_index(cell_table_bits, 17).
field_index(table_weights, 18).
field_index(locks, 19).
field_index(pending_locks, 20).

goal_expansion(field(Name, Grid, Value), arg(I, Grid, Value)) :-
    atom(Name),
    field_index(Name, I).
goal_expansion(set_field(Name, Grid, Value), setarg(I, Grid, Value)) :-
    atom(Name),
    field_index(Name, I).

field(Name, Grid, Value) :-
    field_index(Name, I),
    arg(I, Grid, Value).

set_field(Name, Grid, Value) :-
    field_index(Name, I),
    setarg(I, Grid, Value).

                 /*******************************
                 *      MAKING THE STATE        *
                 *******************************/

%!  grid_rows(+Height, +Width, -Rows) is det.
%
%   Rows is a grid of Height rows of Width fresh cell variables.
grid_rows(Height, Width, Rows) :-
    length(Rows, Height),
    maplist(row_of(Width), Rows).

row_of(Width, Row) :-
    length(Row, Width).

%!  cell_at(+Rows, +Place, -Cell) is det.
%
%   Cell is the cell of Rows at Place, [Row, Column] counted from 0.
cell_at(Rows, [R, C], Cell) :-
    nth0(R, Rows, Row),
    nth0(C, Row, Cell).

%!  given_rule(+Rows, +Given, -Rule) is det.
%
%   Rule places the digit of Given, [Row, Column, Digit], in its cell.
given_rule(Rows, [R, C, Digit], given(Cell, Digit)) :-
    cell_at(Rows, [R, C], Cell).

%!  distinct_rule(+Cells, -Rule) is det.
%
%   Rule makes Cells a unit: all different.
distinct_rule(Cells, all_distinct(Cells)).

%!  grid_model(+Encoding, +Rows, +Rules, +Low-High, -Labeling) is semidet.
%
%   The three searches of a family stated on the kernel, on the cells of
%   Rows (its variables, digits Low..High; a place that holds a number,
%   as a Kakuro's black cell, is no cell) under Rules:
%
%     - candidates: the kernel's own search (grid_state/4, label_grid/1);
%     - tables: every rule a CLP(FD) table of its fillings
%       (rule_table_goal/3), first-fail labeling;
%     - arithmetic: every rule as CLP(FD) goals (rule_goal/2), first-fail
%       labeling.
%
%   Fails when the constraints are found inconsistent.
grid_model(candidates, Rows, Rules, Low-High, label_grid(Grid)) :-
    grid_cells(Rows, Cells),
    grid_state(Cells, Low-High, Rules, Grid).
grid_model(tables, Rows, Rules, Low-High, labeling([ff], Cells)) :-
    grid_cells(Rows, Cells),
    Cells ins Low..High,
    maplist(rule_table_goal(Rules), Rules, Goals),
    maplist(call, Goals).
grid_model(arithmetic, Rows, Rules, Low-High, labeling([ff], Cells)) :-
    grid_cells(Rows, Cells),
    Cells ins Low..High,
    maplist(rule_goal, Rules, Goals),
    maplist(call, Goals).

%!  grid_constraints(+Rows, +Rules, +Low-High, -Goals) is det.
%
%   The rules as a person writes them by hand, for an exported program to
%   read (not posted): each row's cells' range, Rules as rule_goal/2
%   states them, then the labeling of grid_model/5's arithmetic search.
grid_constraints(Rows, Rules, Low-High, Goals) :-
    maplist(grid_cells, Rows, RowCells),
    exclude(==([]), RowCells, Ranged),
    maplist(range_goal(Low..High), Ranged, RangeGoals),
    maplist(rule_goal, Rules, RuleGoals),
    grid_cells(Rows, Cells),
    append([RangeGoals, RuleGoals, [labeling([ff], Cells)]], Goals).

range_goal(Range, Cells, Cells ins Range).

%   The variables of a grid (or of a row), in reading order.
grid_cells(Rows, Cells) :-
    flatten(Rows, All),
    include(var, All, Cells).

%!  grid_state(+Variables, +Low-High, +Rules, -Grid) is semidet.
%
%   Grid is the search state of the cells Variables (unbound), each one
%   of the digits Low..High, under Rules (on those variables); the givens
%   and what they imply are placed.  Fails when the rules are found
%   inconsistent.
grid_state(Variables, Low-High, Rules, Grid) :-
    numbered_rules(Variables, Rules, NCells, Numbered),
    InUse is (1 << (High + 1)) - (1 << Low),
    filled(masks, NCells, InUse, Masks),
    Width is High + 1,
    include(is_unit, Numbered, UnitRules),
    maplist(arg(1), UnitRules, UnitLists),
    unit_geometry(NCells, UnitLists, UnitGeometry),
    implied_sums(Numbered, UnitGeometry, Low-High, Implied),
    include(table_rule, Numbered, StatedTables),
    append(StatedTables, Implied, TableRules),
    maplist(rule_table(UnitGeometry, Low-High, Width), TableRules, TableNumbers, Kinds, Fillings),
    UnitGeometry = units(CellUnits, CellUnitBits, Peers, Units, UnitSizes, Locks, _),
    maplist(table_units(CellUnits, Units, Width), Kinds, TableNumbers, TableTerms),
    Tables =.. [tables|TableTerms],
    cell_table_bits(NCells, TableNumbers, CellTableBits),
    length(UnitLists, NUnits),
    filled(taken, NUnits, 0, Taken),
    maplist(unseen, Fillings, LiveList),
    Lives =.. [lives|LiveList],
    length(TableNumbers, NTables),
    AllUnits is (1 << (NUnits + 1)) - 2,
    AllTables is (1 << (NTables + 1)) - 2,
    Cells =.. [cells|Variables],
    Grid = grid(Cells, Masks, NCells, Taken, InUse, Lives, AllUnits, AllTables, none,
                Width, CellUnits, CellUnitBits, Peers, Units, UnitSizes, Tables, CellTableBits,
                TableWeights, Locks, 0),
    filled(table_weights, NTables, 1, TableWeights),
    include(is_given, Numbered, Givens),
    maplist(place_given(Grid), Givens),
    propagate_grid(Grid).

%   Term is a fresh Name(Value, ..., Value) of N arguments: setarg/3 and
%   nb_setarg/3 may change it.
filled(Name, N, Value, Term) :-
    length(Values, N),
    maplist(=(Value), Values),
    Term =.. [Name|Values].

is_unit(all_distinct(_)).
is_given(given(_, _)).

table_rule(sum(_, _)).
table_rule(product(_, _)).
table_rule(difference(_, _, _)).
table_rule(ratio(_, _, _)).
table_rule(table(_, _)).

unseen(Fillings, live(-1, Fillings)).

%!  numbered_rules(+Variables, +Rules, -NCells, -Numbered) is det.
%
%   Numbered is Rules with each variable of Variables replaced by its
%   cell number, 1 for the first: a copy, so that Variables stay free.
numbered_rules(Variables, Rules, NCells, Numbered) :-
    copy_term_nat(Variables-Rules, Numbers-Numbered),
    length(Variables, NCells),
    numlist(1, NCells, Numbers).

place_given(Grid, given(I, Digit)) :-
    place(Grid, I, Digit).

%!  unit_geometry(+NCells, +UnitLists, -UnitGeometry) is det.
%
%   UnitGeometry is units(CellUnits, CellUnitBits, Peers, Units, UnitSizes,
%   Locks, UnitSets): each cell's units (a list and a set), its peers, the
%   units' cells, their sizes, their crossings (unit_locks/4) and, for the
%   units of the largest size, their cells as a set (bit I for cell I; 0
%   for the others: see implied_sums/4).
%   Kept as a fact from the second time a shape comes (a Sudoku's or a
%   size of KenKen's units are the same every time), the last few shapes
%   only (a Kakuro's runs are its own); not tabled, see the header.
:- dynamic known_units/3.
:- multifile crossprolog:worked_out/1.
crossprolog:worked_out(grid:known_units/3).

unit_geometry(NCells, UnitLists, UnitGeometry) :-
    kept(known_units, 16, NCells-UnitLists, worked_out_units(NCells, UnitLists), UnitGeometry).

%!  kept(+Table, +Most, +Key, :WorkOut, -Value) is det.
%
%   Value is what call(WorkOut, Value) gives for Key, worked out once and
%   kept as a fact Table(Hash, Key, Value), the last Most of Table's only.
kept(Table, Most, Key, WorkOut, Value) :-
    term_hash(Key, Hash),
    Fact =.. [Table, Hash, Key, Known],
    (   call(Fact)
    ->  Value = Known
    ;   call(WorkOut, Value),
        (   kept_on_second_sight(Table),
            \+ retract(seen(Table, Hash))
        ->  assertz(seen(Table, Hash)),
            forget_oldest(seen, 2, 4096)
        ;   New =.. [Table, Hash, Key, Value],
            assertz(New),
            forget_oldest(Table, Most)
        )
    ).

%   A shape's units are kept the second time they come: keeping copies
%   them, and a Killer Sudoku's or a Kakuro's units are its own (its cages
%   or runs), so they would be copied for nothing.
kept_on_second_sight(known_units).

:- dynamic seen/2.
crossprolog:worked_out(grid:seen/2).

forget_oldest(Table, Most) :-
    forget_oldest(Table, 3, Most).

forget_oldest(Table, Arity, Most) :-
    functor(Any, Table, Arity),
    (   predicate_property(Any, number_of_clauses(N)),
        N > Most
    ->  once(retract(Any))
    ;   true
    ).

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
crossprolog:worked_out(grid:known_crossings/3).

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
%   Numbers not in it.
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

                 /*******************************
                 *   SUMS THE RULES IMPLY        *
                 *******************************/

%!  implied_sums(+Rules, +UnitGeometry, +Low-High, -Implied) is det.
%
%   Implied are sums Rules (on cell numbers) imply without stating them,
%   of implied_cells/1 cells at most: a unit with a cell for every digit
%   of Low..High holds each once, so its cells add up to their total (45
%   for 1..9).  The sums inside such a unit leave the rest of its cells
%   the difference (a Killer Sudoku solver's innies), and the sums meeting
%   it, when they cover it without overlapping, put the difference in
%   their cells outside it (outies); a given in no sum counts as a sum of
%   one cell.  The search takes them as rules of its own; the statement,
%   and so an export, keeps the rules as stated.  Rules without sums imply
%   none (a Sudoku's), and only a unit with that few cells in no sum can:
%   a KenKen's rows, which mix products with sums, seldom do, and cost a
%   few inferences each.
implied_sums(Rules, Geometry, Low-High, Implied) :-
    findall(sum(Set, Total), (member(sum(Vs, Total), Rules), cell_set(Vs, Set)), Stated),
    (   Stated == []
    ->  Implied = []
    ;   foldl(add_sum_cells, Stated, 0, InStated),
        findall(sum(Set, Digit),
                ( member(given(I, Digit), Rules), Set is 1 << I, Set /\ InStated =:= 0 ),
                Placed),
        append(Stated, Placed, Sums),
        foldl(add_sum_cells, Placed, InStated, Summed),
        Size is High - Low + 1,
        findall(Unit, few_cells_unsummed(Geometry, Size, Summed, Unit), Full),
        Whole is (Low + High) * Size // 2,
        Geometry = units(CellUnits, _, _, _, _, _, _),
        functor(CellUnits, _, NCells),
        filled(sums_of_cells, NCells, [], SumsOfCells),
        maplist(add_to_cells(SumsOfCells), Sums),
        foldl(unit_implied_sums(SumsOfCells, Whole), Full, Found, []),
        sort(Found, Unique),
        findall(sum(Cells, Total),
                ( member(sum(Set, Total), Unique),
                  \+ memberchk(sum(Set, _), Sums),
                  set_cells(Set, Cells) ),
                Implied)
    ).

add_sum_cells(sum(Set, _), Cells0, Cells) :-
    Cells is Cells0 \/ Set.

%   Unit, Cells-Set, has Size cells, implied_cells/1 of them at most in no
%   sum (Summed: the cells in one).
few_cells_unsummed(units(_, _, _, Units, UnitSizes, _, UnitSets), Size, Summed, Cells-Set) :-
    implied_cells(Most),
    functor(UnitSizes, _, NUnits),      % arg/3 takes no atom: a grid of no unit
    between(1, NUnits, U),
    arg(U, UnitSizes, Size),
    arg(U, UnitSets, Set),
    Set =\= 0,
    popcount(Set /\ \Summed) =< Most,
    arg(U, Units, Cells).

%   A unit's cells as a set, when it has the largest size (0 otherwise).
largest_unit_set(Largest, Cells, Size, Set) :-
    (   Size =:= Largest
    ->  cell_set(Cells, Set)
    ;   Set = 0
    ).

%   More cells make a weaker sum whose table costs more than it saves: on
%   the bench's Killer Sudokus, three cells at most take 93% of the
%   choices away and 57% of the inferences; four, 10% more choices away
%   for no fewer inferences.
implied_cells(3).

%   The sums implied by a unit with a cell for every digit, Whole their
%   total, added to Found.  A set of cells is an integer, bit I for cell I.
unit_implied_sums(SumsOfCells, Whole, Cells-Unit, Found0, Found) :-
    maplist(arg_of(SumsOfCells), Cells, Lists),
    append(Lists, Listed),
    sort(Listed, Meeting),
    include(sum_inside(Unit), Meeting, Inside),
    (   Inside \== [],
        foldl(disjoint_add, Inside, 0-0, Covered-InsideTotal),
        few_implied(Unit /\ \Covered, Innies)
    ->  InniesTotal is Whole - InsideTotal,
        Found0 = [sum(Innies, InniesTotal)|Found1]
    ;   Found0 = Found1
    ),
    (   \+ memberchk([], Lists),
        foldl(disjoint_add, Meeting, 0-0, Met-MeetingTotal),
        few_implied(Met /\ \Unit, Outies)
    ->  OutiesTotal is MeetingTotal - Whole,
        Found1 = [sum(Outies, OutiesTotal)|Found]
    ;   Found1 = Found
    ).

%   Set is the set of the cells Vs.  (A rule that names a cell twice is an
%   error rule_table/7 raises: see different_cells/2.)
cell_set(Vs, Set) :-
    foldl(add_cell, Vs, 0, Set).

add_cell(I, Set0, Set) :-
    Set is Set0 \/ (1 << I).

set_cells(0, []) :- !.
set_cells(Set, [I|Cells]) :-
    I is lsb(Set),
    Rest is Set /\ \(1 << I),
    set_cells(Rest, Cells).

arg_of(Term, I, Value) :-
    arg(I, Term, Value).

add_to_cells(SumsOfCells, Sum) :-
    Sum = sum(Set, _),
    set_cells(Set, Cells),
    maplist(add_to_cell(SumsOfCells, Sum), Cells).

add_to_cell(SumsOfCells, Sum, Cell) :-
    arg(Cell, SumsOfCells, Sums),
    setarg(Cell, SumsOfCells, [Sum|Sums]).

sum_inside(Unit, sum(Set, _)) :-
    Set /\ Unit =:= Set.

few_implied(Expression, Set) :-
    Set is Expression,
    Set =\= 0,
    implied_cells(Most),
    popcount(Set) =< Most.

%   Union is the cells of the sums folded in, none in two of them; Total
%   their totals'.
disjoint_add(sum(Set, T), Union0-Total0, Union-Total) :-
    Set /\ Union0 =:= 0,
    Union is Union0 \/ Set,
    Total is Total0 + T.

                 /*******************************
                 *   RULES AS TABLES OF FILLINGS *
                 *******************************/

%!  rule_table(+UnitGeometry, +Low-High, +Width, +Rule, -Numbers, -Packed) is det.
%
%   The table of Rule (on cell numbers): the numbers of its cells and its
%   fillings packed (the K-th cell's digit D is bit D of the K-th field of
%   Width bits), sorted.  Arithmetic fillings put no digit twice in a
%   unit.
rule_table(units(CellUnits, _, _, _, _, _, _), Digits, Width, Rule, Numbers, Kind, Fillings) :-
    rule_cells(Rule, Numbers),
    different_cells(Rule, Numbers),
    lined_after(Numbers, CellUnits, Lined),
    (   distinct_sum(Rule, Lined, Digits, Sets)
    ->  Kind = sets,
        Fillings = Sets
    ;   Kind = packed,
        table_fillings(Rule, Lined, Digits, Width, Fillings)
    ).

%   A table reasons on each of its cells as a field of its own, so a
%   cell named twice would be two cells to it: a family's error, told
%   rather than searched wrongly.
different_cells(Rule, Numbers) :-
    sort(Numbers, Different),
    (   same_length(Numbers, Different)
    ->  true
    ;   domain_error(rule_of_different_cells, Rule)
    ).

%!  distinct_sum(+Rule, +Lined, +Low-High, -Sets) is semidet.
%
%   Rule is a sum of sets_from/1 cells or more that pairwise share a unit
%   (a Killer Sudoku's cage, a Kakuro's run, a straight KenKen cage), and
%   Sets the sets of different digits (masks) that add up to its total:
%   a few dozen at most, where its fillings are those times the orders of
%   their digits (9! for a Kakuro run of nine).
distinct_sum(sum(_, Total), Lined, Low-High, Sets) :-
    length(Lined, Cells),
    sets_from(Least),
    Cells >= Least,
    \+ ( member(Flags, Lined), memberchk(0, Flags) ),
    kept(known_fillings, 512, sets(Total, Cells, Low, High), digit_sets(Cells, Low, High, Total), Sets).

digit_sets(Cells, Low, High, Total, Sets) :-
    findall(Set, digit_set(Cells, Low, High, Total, 0, Set), Sets).

%   Sums of this many cells or more are tables of digit sets; smaller ones
%   keep their few fillings, which are arc consistent.
sets_from(4).

%   Set: Cells different digits of From..High adding up to Total, added to
%   the mask Set0, in increasing order.
digit_set(0, _, _, 0, Set, Set) :- !.
digit_set(Cells, From, High, Total, Set0, Set) :-
    Cells > 0,
    Left is Cells - 1,
    between(From, High, Digit),
    Rest is Total - Digit,
    Next is Digit + 1,
    (   Rest >= Left * Next + Left * (Left - 1) // 2
    ->  true
    ;   !, fail                         % a larger digit leaves less for larger digits
    ),
    Rest =< Left * High - Left * (Left - 1) // 2,
    Set1 is Set0 \/ (1 << Digit),
    digit_set(Left, Next, High, Rest, Set1, Set).

%   An arithmetic rule's fillings depend only on its operation and target,
%   which of its cells share a unit, the digits and the width: kept as facts
%   (the last few hundred; not tabled, see the header), as a Killer Sudoku's
%   cages and a Kakuro's runs repeat them within a grid and across grids.
:- dynamic known_fillings/3.
crossprolog:worked_out(grid:known_fillings/3).

table_fillings(Rule, Lined, Digits, Width, Packed) :-
    (   arithmetic_key(Rule, Lined, Digits, Width, Key)
    ->  kept(known_fillings, 512, Key, found_fillings(Rule, Lined, Digits, Width), Packed)
    ;   found_fillings(Rule, Lined, Digits, Width, Packed)
    ).

arithmetic_key(sum(_, T), Lined, Digits, Width, sum(T, Lined, Digits, Width)).
arithmetic_key(product(_, T), Lined, Digits, Width, product(T, Lined, Digits, Width)).
arithmetic_key(difference(_, _, T), Lined, Digits, Width, difference(T, Lined, Digits, Width)).
arithmetic_key(ratio(_, _, T), Lined, Digits, Width, ratio(T, Lined, Digits, Width)).

found_fillings(Rule, Lined, Digits, Width, Packed) :-
    findall(P, packed_filling(Rule, Lined, Digits, Width, P), Packed0),
    sort(Packed0, Packed).

%   Sums and products are packed as they are chosen, the rest once found.
packed_filling(sum(_, T), Lined, Digits, Width, P) :- !,
    chosen(Lined, Digits, +, T, Width, P).
packed_filling(product(_, T), Lined, Digits, Width, P) :- !,
    chosen(Lined, Digits, *, T, Width, P).
packed_filling(Rule, Lined, Digits, Width, P) :-
    rule_filling(Rule, Lined, Digits, Filling),
    packed(Filling, Width, P).

rule_cells(sum(Vs, _), Vs).
rule_cells(product(Vs, _), Vs).
rule_cells(difference(A, B, _), [A, B]).
rule_cells(ratio(A, B, _), [A, B]).
rule_cells(table(Vs, _), Vs).

%   For each cell, a flag (1 or 0) for each cell after it: whether the
%   two share a unit.
lined_after([], _, []).
lined_after([I|Is], CellUnits, [Flags|Lined]) :-
    arg(I, CellUnits, Us),
    maplist(shares_unit(CellUnits, Us), Is, Flags),
    lined_after(Is, CellUnits, Lined).

shares_unit(CellUnits, Us, J, Flag) :-
    arg(J, CellUnits, Vs),
    (   member(U, Us), memberchk(U, Vs)
    ->  Flag = 1
    ;   Flag = 0
    ).

packed(Filling, Width, Packed) :-
    foldl(packed_digit(Width), Filling, 0-0, Packed-_).

packed_digit(Width, Digit, P0-Shift, P-Shift1) :-
    P is P0 \/ (1 << (Digit + Shift)),
    Shift1 is Shift + Width.

%!  rule_filling(+Rule, +Lined, +Low-High, -Digits) is nondet.
%
%   Digits, one of Low..High for each cell of Rule, meet Rule, no digit
%   twice in cells Lined says share a unit.  Sums and products are pruned
%   as the digits are chosen, so a big cage costs its fillings, not the
%   digits to the power of its size.
rule_filling(table(_, Fillings), _, _, Digits) :-
    member(Digits, Fillings).
rule_filling(difference(_, _, T), [[Lined], []], Low-High, [A, B]) :-
    between(Low, High, A),
    ( B is A - T ; T =\= 0, B is A + T ),
    between(Low, High, B),
    \+ ( A =:= B, Lined =:= 1 ).
rule_filling(ratio(_, _, T), [[Lined], []], Low-High, [A, B]) :-
    between(Low, High, A),
    ( B is A * T ; T > 1, A mod T =:= 0, B is A // T ),
    between(Low, High, B),
    \+ ( A =:= B, Lined =:= 1 ).
rule_filling(sum(_, T), Lined, Digits, Filling) :-
    chosen(Lined, Digits, +, T, 16, P),
    unpacked(Lined, P, Filling).
rule_filling(product(_, T), Lined, Digits, Filling) :-
    chosen(Lined, Digits, *, T, 16, P),
    unpacked(Lined, P, Filling).

%   The digits of a filling packed in fields of 16 bits, one per cell.
unpacked([], _, []).
unpacked([_|Lined], P, [Digit|Digits]) :-
    Digit is lsb(P /\ 0xffff),
    Rest is P >> 16,
    unpacked(Lined, Rest, Digits).

%   chosen(+Lined, +Low-High, +Op, +Target, +Width, -P): a filling of a
%   sum or product, packed in fields of Width bits as it is chosen, each
%   cell's digit from its bounds less those forbidden to it by a cell
%   before it in one of its units (a mask per cell).
chosen(Lined, Digits, Op, Target, Width, P) :-
    same_length(Lined, Forbidden),
    maplist(=(0), Forbidden),
    length(Lined, Cells),
    chosen(Lined, Forbidden, Cells, Digits, Op, Target, Width, 0, 0, P).

chosen([], [], _, _, Op, Rest, _, _, P, P) :-
    finished(Op, Rest).
chosen([Flags|Lined], [F|Fs], Cells0, Low-High, Op, Rest0, Width, Shift, P0, P) :-
    Cells is Cells0 - 1,
    digit_bounds(Op, Rest0, Cells, Low-High, From, To),
    From =< To,
    Free is ((1 << (To + 1)) - (1 << From)) /\ \ F,
    Free =\= 0,
    mask_digit(Free, Digit),
    left(Op, Rest0, Digit, Rest1),
    Bit is 1 << Digit,
    forbid(Flags, Fs, Bit, Fs1),
    P1 is P0 \/ (Bit << Shift),
    Shift1 is Shift + Width,
    chosen(Lined, Fs1, Cells, Low-High, Op, Rest1, Width, Shift1, P1, P).

forbid([], [], _, []).
forbid([Flag|Flags], [F|Fs], Bit, [F1|Fs1]) :-
    (   Flag =:= 1
    ->  F1 is F \/ Bit
    ;   F1 = F
    ),
    forbid(Flags, Fs, Bit, Fs1).

%   The digits a cell may take when Rest0 is left of the target and Left
%   cells come after it: a sum needs from Low to High from each; the last
%   digit of a product is what is left.
digit_bounds(+, Rest0, Left, Low-High, From, To) :-
    From is max(Low, Rest0 - Left * High),
    To is min(High, Rest0 - Left * Low).
digit_bounds(*, Rest0, 0, Low-High, From, To) :- !,
    From is max(Low, Rest0),
    To is min(High, Rest0).
digit_bounds(*, _, _, Low-High, From, High) :-
    From is max(Low, 1).

left(+, Rest0, Digit, Rest) :-
    Rest is Rest0 - Digit.
left(*, Rest0, Digit, Rest) :-
    Rest0 mod Digit =:= 0,
    Rest is Rest0 // Digit.

finished(+, 0).
finished(*, 1).

                 /*******************************
                 *   THE RULES AS CLP(FD)       *
                 *******************************/

%!  rule_goal(+Rule, -Goal) is det.
%
%   Goal states Rule in CLP(FD), as a person writes it: the statement
%   `export --readable` prints, and the `arithmetic` encodings post.
rule_goal(all_distinct(Vs), all_distinct(Vs)).
rule_goal(given(V, D), V #= D).
rule_goal(sum([V|Vs], T), Sum #= T) :-
    foldl(plus_expression, Vs, V, Sum).
rule_goal(product([V|Vs], T), Product #= T) :-
    foldl(times_expression, Vs, V, Product).
rule_goal(difference(A, B, T), abs(A - B) #= T).
rule_goal(ratio(A, B, T), (A #= T*B #\/ B #= T*A)).
rule_goal(table(Vs, Fillings), tuples_in([Vs], Fillings)).

plus_expression(V, Expression, Expression + V).
times_expression(V, Expression, Expression * V).

%!  rule_table_goal(+Rules, +Rule, -Goal) is det.
%
%   Goal states Rule as a CLP(FD) table of its fillings (arc consistent),
%   the units of Rules keeping a filling from repeating a digit in one;
%   units and givens as rule_goal/2 states them.
rule_table_goal(Rules, Rule, tuples_in([Vs], Fillings)) :-
    table_rule(Rule), !,
    rule_cells(Rule, Vs),
    term_variables(Rules, Variables),
    numbered_rules(Variables, Rules-Rule, NCells, NumberedRules-Numbered),
    include(is_unit, NumberedRules, UnitRules),
    maplist(arg(1), UnitRules, UnitLists),
    unit_geometry(NCells, UnitLists, units(CellUnits, _, _, _, _, _, _)),
    rule_cells(Numbered, Numbers),
    lined_after(Numbers, CellUnits, Lined),
    maplist(fd_inf, Vs, Lows), min_list(Lows, Low),
    maplist(fd_sup, Vs, Highs), max_list(Highs, High),
    findall(F, rule_filling(Numbered, Lined, Low-High, F), Fillings).
rule_table_goal(_, Rule, Goal) :-
    rule_goal(Rule, Goal).

                 /*******************************
                 *   PLACING AND NARROWING      *
                 *******************************/

%!  place(+Grid, +Cell, +Digit) is semidet.
%
%   Cell takes Digit, which leaves its peers' candidates; a peer left one
%   candidate takes it in turn (a naked single).  Fails when Digit is no
%   candidate of Cell, or is placed already in one of its units.
place(Grid, I, Digit) :-
    field(cells, Grid, Cells),
    field(masks, Grid, Masks),
    arg(I, Cells, Cell),
    arg(I, Masks, Mask),
    (   Mask =\= 0                      % open, though a restriction may have bound it
    ->  Bit is 1 << Digit,
        Mask /\ Bit =\= 0,
        Cell = Digit,
        setarg(I, Masks, 0),
        changed(Grid, I),
        field(open, Grid, Open0),
        Open is Open0 - 1,
        set_field(open, Grid, Open),
        field(cell_units, Grid, CellUnits),
        field(peers, Grid, Peers),
        field(taken, Grid, Taken),
        arg(I, CellUnits, Us),
        units_take(Us, Bit, Taken),
        arg(I, Peers, Ps),
        remove_from_cells(Ps, Bit, Masks, Grid)
    ;   Cell =:= Digit
    ).

units_take([], _, _).
units_take([U|Us], Bit, Taken) :-
    arg(U, Taken, Taken0),
    Taken0 /\ Bit =:= 0,
    Taken1 is Taken0 \/ Bit,
    setarg(U, Taken, Taken1),
    units_take(Us, Bit, Taken).

remove_from_cells([], _, _, _).
remove_from_cells([I|Is], Bits, Masks, Grid) :-
    arg(I, Masks, Mask),
    (   Mask /\ Bits =:= 0
    ->  true
    ;   narrow(Grid, Masks, I, Mask, Bits)
    ),
    remove_from_cells(Is, Bits, Masks, Grid).

%!  remove_digits(+Grid, +Bits, +Cell) is semidet.
%
%   The digits of the mask Bits are no candidates of Cell (if it is open);
%   fails when that leaves it none, places it when it leaves one.
remove_digits(Grid, Bits, I) :-
    field(masks, Grid, Masks),
    arg(I, Masks, Mask),
    (   Mask /\ Bits =:= 0
    ->  true
    ;   narrow(Grid, Masks, I, Mask, Bits)
    ).

%   Cell I, whose mask Mask0 has some of Bits, loses them; left one
%   digit, it takes it.
narrow(Grid, Masks, I, Mask0, Bits) :-
    Mask is Mask0 /\ \ Bits,
    Mask =\= 0,
    setarg(I, Masks, Mask),
    changed(Grid, I),
    (   Mask /\ (Mask - 1) =:= 0
    ->  Digit is lsb(Mask),
        place(Grid, I, Digit)
    ;   true
    ).

%   The units and tables of a cell whose candidates changed are pending.
changed(Grid, I) :-
    field(cell_unit_bits, Grid, CellUnitBits),
    field(cell_table_bits, Grid, CellTableBits),
    arg(I, CellUnitBits, UnitBits),
    field(pending_units, Grid, Units0),
    Units is Units0 \/ UnitBits,
    set_field(pending_units, Grid, Units),
    arg(I, CellTableBits, TableBits),
    (   TableBits =:= 0
    ->  true
    ;   field(pending_tables, Grid, Tables0),
        Tables is Tables0 \/ TableBits,
        set_field(pending_tables, Grid, Tables)
    ).

                 /*******************************
                 *         PROPAGATION          *
                 *******************************/

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
        ;   weigh(table_weights, Grid, T)
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

%   Unit or table I failed once more; this fails.
weigh(Field, Grid, I) :-
    field(Field, Grid, Weights),
    arg(I, Weights, W0),
    W is W0 + 1,
    nb_setarg(I, Weights, W),
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

                 /*******************************
                 *           SEARCH             *
                 *******************************/

%!  label_grid(+Grid) is nondet.
%
%   Every solution: the cells a caller bound or restricted after
%   grid_state/4 (the driver does, to ask what the puzzle allows with a
%   cell set) are taken in first, then the search.
label_grid(Grid) :-
    place_bound_cells(Grid),
    search_grid(Grid).

%!  search_grid(+Grid) is nondet.
%
%   Places every open cell: after propagation, branches on the digits of
%   the cell branching_cell/3 picks, smallest first.
search_grid(Grid) :-
    propagate_grid(Grid),
    field(open, Grid, Open),
    (   Open =:= 0
    ->  true
    ;   branching_cell(Grid, I, Mask),
        mask_digit(Mask, Digit),
        place(Grid, I, Digit),
        search_grid(Grid)
    ).

%!  branching_cell(+Grid, -Cell, -Mask) is det.
%
%   Cell is an open cell with the fewest candidates (Mask) and, among
%   those, the fewest digits placed in its units: its digit leaves the
%   most open peers, so a wrong choice fails soonest (on the hard Sudoku
%   classics this takes two fifths of the choices off taking the first).
%   With tables, the fewest candidates per weight (dom/wdeg): a cell
%   weighs one more than its units, plus its tables' weights, each one more
%   than the times the table failed, so the search goes where it failed
%   before (a loose Kakuro with runs of nine cells: from over 20 s to a
%   fifth of a second).  Before a table fails, the cells of a family
%   weigh the same.
branching_cell(Grid, Cell, Mask) :-
    field(masks, Grid, Masks),
    field(taken, Grid, Taken),
    field(cell_units, Grid, CellUnits),
    field(table_weights, Grid, TableWeights),
    functor(Masks, _, NCells),
    (   functor(TableWeights, _, 0)
    ->  fewest_candidates(1, NCells, Masks, Taken, CellUnits, 0, 99, 0, Cell)
    ;   lightest_candidates(1, NCells, Masks, Grid, 0, 99, 1, 0, Cell)
    ),
    arg(Cell, Masks, Mask).

fewest_candidates(I, NCells, _, _, _, Cell, _, _, Cell) :-
    I > NCells, !.
fewest_candidates(I, NCells, Masks, Taken, CellUnits, Best0, Count0, Placed0, Best) :-
    arg(I, Masks, Mask),
    I1 is I + 1,
    (   Mask =\= 0,
        Count is popcount(Mask),
        Count =< Count0,
        arg(I, CellUnits, Us),
        placed_in_units(Us, Taken, 0, Placed),
        (   Count < Count0
        ;   Placed < Placed0
        )
    ->  fewest_candidates(I1, NCells, Masks, Taken, CellUnits, I, Count, Placed, Best)
    ;   fewest_candidates(I1, NCells, Masks, Taken, CellUnits, Best0, Count0, Placed0, Best)
    ).

lightest_candidates(I, NCells, _, _, Cell, _, _, _, Cell) :-
    I > NCells, !.
lightest_candidates(I, NCells, Masks, Grid, Best0, Count0, Weight0, Placed0, Best) :-
    arg(I, Masks, Mask),
    I1 is I + 1,
    (   Mask =\= 0,
        Count is popcount(Mask),
        cell_weight(Grid, I, Weight),
        Count * Weight0 =< Count0 * Weight,
        field(cell_units, Grid, CellUnits),
        arg(I, CellUnits, Us),
        field(taken, Grid, Taken),
        placed_in_units(Us, Taken, 0, Placed),
        (   Count * Weight0 < Count0 * Weight
        ;   Placed < Placed0
        )
    ->  lightest_candidates(I1, NCells, Masks, Grid, I, Count, Weight, Placed, Best)
    ;   lightest_candidates(I1, NCells, Masks, Grid, Best0, Count0, Weight0, Placed0, Best)
    ).

%   One more than how many units cell I is in, and the weights of its
%   tables.
cell_weight(Grid, I, Weight) :-
    field(cell_unit_bits, Grid, CellUnitBits),
    arg(I, CellUnitBits, UnitBits),
    field(cell_table_bits, Grid, CellTableBits),
    arg(I, CellTableBits, TableBits),
    field(table_weights, Grid, TableWeights),
    Units is popcount(UnitBits) + 1,    % a cell in no unit or table weighs something
    table_weights(TableBits, TableWeights, Units, Weight).

table_weights(0, _, Weight, Weight) :- !.
table_weights(Bits, Weights, Weight0, Weight) :-
    T is lsb(Bits),
    arg(T, Weights, W),
    Weight1 is Weight0 + W,
    Rest is Bits xor (1 << T),
    table_weights(Rest, Weights, Weight1, Weight).

placed_in_units([], _, Placed, Placed).
placed_in_units([U|Us], Taken, Placed0, Placed) :-
    arg(U, Taken, Bits),
    Placed1 is Placed0 + popcount(Bits),
    placed_in_units(Us, Taken, Placed1, Placed).

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

%!  place_bound_cells(+Grid) is semidet.
%
%   Places the open cells whose variables are bound, and takes from the
%   others the candidates their CLP(FD) domain (if any) lacks.
place_bound_cells(Grid) :-
    field(cells, Grid, Cells),
    functor(Cells, _, NCells),
    forall_cells(1, NCells, Grid, Cells).

forall_cells(I, NCells, _, _) :-
    I > NCells, !.
forall_cells(I, NCells, Grid, Cells) :-
    arg(I, Cells, Cell),
    (   nonvar(Cell)
    ->  place(Grid, I, Cell)
    ;   fd_var(Cell),
        cell_allowed(Grid, I, Mask),
        outside_domain(Mask, Cell, 0, Out),
        Out =\= 0
    ->  remove_digits(Grid, Out, I)
    ;   true
    ),
    I1 is I + 1,
    forall_cells(I1, NCells, Grid, Cells).

outside_domain(0, _, Out, Out) :- !.
outside_domain(Mask, Cell, Out0, Out) :-
    Digit is lsb(Mask),
    Bit is 1 << Digit,
    (   fd_dom(Cell, Dom),
        Digit in Dom
    ->  Out1 = Out0
    ;   Out1 is Out0 \/ Bit
    ),
    Rest is Mask xor Bit,
    outside_domain(Rest, Cell, Out1, Out).

                 /*******************************
                 *   FOR A FAMILY'S OWN LAYERS  *
                 *******************************/

%!  cell_allowed(+Grid, +Cell, -Mask) is det.
%
%   Mask: the digits Cell allows, its candidates or its placed digit.
cell_allowed(Grid, I, Mask) :-
    field(cells, Grid, Cells),
    arg(I, Cells, Cell),
    (   var(Cell)
    ->  field(masks, Grid, Masks),
        arg(I, Masks, Mask)
    ;   Mask is 1 << Cell
    ).

%!  placed_cell(+Grid, +Cell) is semidet.
placed_cell(Grid, I) :-
    field(cells, Grid, Cells),
    arg(I, Cells, Cell),
    nonvar(Cell).

%!  digits_in_use(+Grid, -Mask) is det.
digits_in_use(Grid, InUse) :-
    field(in_use, Grid, InUse).

%!  use_digits(+Grid, +Mask) is semidet.
%
%   The grid uses only the digits of Mask: the others leave every cell,
%   and every unit is looked at again (one with a cell per digit now
%   takes hidden singles).  Fails when a cell is left none.
use_digits(Grid, InUse) :-
    set_field(in_use, Grid, InUse),
    field(taken, Grid, Taken),
    functor(Taken, _, NUnits),
    AllUnits is (1 << (NUnits + 1)) - 2,
    set_field(pending_units, Grid, AllUnits),
    field(masks, Grid, Masks),
    functor(Masks, _, NCells),
    Out is \ InUse,
    numlist(1, NCells, Is),
    remove_from_cells(Is, Out, Masks, Grid).

%!  placed_digits(+Grid, -Mask) is det.
%
%   Mask: the digits placed in some cell.
placed_digits(Grid, Placed) :-
    field(taken, Grid, Taken),
    Taken =.. [_|Bits],
    foldl(bit_or, Bits, 0, Placed).

bit_or(Bits, Or0, Or) :-
    Or is Or0 \/ Bits.

%!  set_propagator(+Grid, :Propagator) is det.
%
%   From now on (undone on backtracking), propagation calls
%   call(Propagator, Grid, Narrowed) when nothing else is pending;
%   Narrowed is true when it took candidates away.
set_propagator(Grid, Propagator) :-
    set_field(propagator, Grid, Propagator).

                 /*******************************
                 *          GEOMETRY            *
                 *******************************/

%!  grid_blocks(+Rows, +Height, +Width, -Blocks) is semidet.
%
%   Blocks are the Height x Width blocks that tile the grid Rows (a list
%   of rows of equal length), in reading order, each its cells in
%   reading order: a Sudoku's boxes, of any size.  Fails when the blocks
%   do not tile the grid.
grid_blocks([], _, _, []).
grid_blocks(Rows, Height, Width, Blocks) :-
    length(Band, Height),
    append(Band, Below, Rows),
    band_blocks(Band, Width, BandBlocks),
    grid_blocks(Below, Height, Width, Rest),
    append(BandBlocks, Rest, Blocks).

band_blocks(Band, _, []) :-
    maplist(==([]), Band), !.
band_blocks(Band, Width, [Block|Blocks]) :-
    maplist(split_at(Width), Band, Fronts, Backs),
    append(Fronts, Block),
    band_blocks(Backs, Width, Blocks).

split_at(Width, Row, Front, Back) :-
    length(Front, Width),
    append(Front, Back, Row).
