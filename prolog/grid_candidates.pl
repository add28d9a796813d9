:- module(grid_candidates,
          [ state_term/2,         % +Fields, -Grid
            field/3,              % +Name, +Grid, -Value
            set_field/3,          % +Name, +Grid, +Value
            goal_expansion/2,     % field/3, set_field/3 and state_term/2 of known names, compiled
            place/3,              % +Grid, +Cell, +Digit
            place_givens/2,       % +Grid, +Givens
            remove_digits/3,      % +Grid, +Bits, +Cell
            remove_from_cells/4,  % +Cells, +Bits, +Masks, +Grid
            cell_allowed/3,       % +Grid, +Cell, -Mask
            placed_cell/2,        % +Grid, +Cell
            digits_in_use/2,      % +Grid, -Mask
            use_digits/2,         % +Grid, +Mask
            placed_digits/2,      % +Grid, -Mask
            set_propagator/2      % +Grid, :Propagator
          ]).
/** <module> The grid kernel's search state: the cells' candidates, and placing a digit.

The state of a search is one term whose fields are named (field/3,
set_field/3, state_term/2): the cells' candidates as bitmasks, changed in
place so that backtracking restores them.  Placing a digit takes it from
the cell's peers and marks what changed as pending for propagation
(grid_propagation.pl).  A family's own layers (Sudoku's GCD objective)
read and narrow the state through the predicates at the end.

This module exports goal_expansion/2, so that a module importing it
compiles the fields it names to arg/3 and setarg/3.  user has its own
goal_expansion/2 and refuses it with a warning: load this module into
another module, or with except([goal_expansion/2]).
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(library(error), [domain_error/2]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the inner loops are all masks
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

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
%     tables     for each table, table(Cells, Crossings) (see grid_geometry.pl's
%                table_units/6)
%     cell_table_bits for each cell, the set of its tables
%     cell_weights  for each cell, one more than the units it is in, plus
%                for each of its tables one more than the times the table
%                failed: changed with nb_setarg/3, so they outlive
%                backtracking (dom/wdeg, see grid_search.pl)
%     locks      for each unit, its crossings with other units (see
%                grid_geometry.pl's unit_locks/4)
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
field_index(cell_weights, 18).
field_index(locks, 19).
field_index(pending_locks, 20).

goal_expansion(field(Name, Grid, Value), arg(I, Grid, Value)) :-
    atom(Name),
    field_index(Name, I).
goal_expansion(set_field(Name, Grid, Value), setarg(I, Grid, Value)) :-
    atom(Name),
    field_index(Name, I).
%   A state made from a list of fields written out is made when the clause
%   is compiled (state_term/2): a puzzle pays nothing for naming them.
goal_expansion(state_term(Fields, Grid), Grid = Term) :-
    is_list(Fields),
    state_term(Fields, Term).

field(Name, Grid, Value) :-
    field_index(Name, I),
    arg(I, Grid, Value).

set_field(Name, Grid, Value) :-
    field_index(Name, I),
    setarg(I, Grid, Value).

%!  state_term(+Fields, -Grid) is det.
%
%   Grid is a new state whose fields have the values Fields gives,
%   Name-Value pairs, one for each field.
state_term(Fields, Grid) :-
    findall(Name, field_index(Name, _), Names),
    pairs_keys(Fields, Given),
    (   msort(Names, Sorted),
        msort(Given, Sorted)
    ->  true
    ;   domain_error(every_field_once, Given)
    ),
    length(Names, N),
    functor(Grid, grid, N),
    maplist(field_value(Grid), Fields).

field_value(Grid, Name-Value) :-
    field_index(Name, I),
    arg(I, Grid, Value).

                 /*******************************
                 *    PLACING AND NARROWING     *
                 *******************************/

%!  place(+Grid, +Cell, +Digit) is semidet.
%
%   Cell takes Digit, which leaves its peers' candidates; a peer left one
%   candidate takes it in turn (a naked single).  Fails when Digit is no
%   candidate of Cell, or is placed already in one of its units.
place(Grid, I, Digit) :-
    field(masks, Grid, Masks),
    arg(I, Masks, Mask),
    (   Mask =\= 0                      % open, though a restriction may have bound it
    ->  field(cells, Grid, Cells),
        field(taken, Grid, Taken),
        take_cell(Grid, Cells, Masks, Taken, I, Mask, Digit, Bit),
        field(peers, Grid, Peers),
        arg(I, Peers, Ps),
        remove_from_cells(Ps, Bit, Masks, Grid)
    ;   placed_as(Grid, I, Digit)
    ).

%   Open cell I (candidates Mask) takes Digit (Bit), and its units have
%   it; its peers keep it.
take_cell(Grid, Cells, Masks, Taken, I, Mask, Digit, Bit) :-
    Bit is 1 << Digit,
    Mask /\ Bit =\= 0,
    arg(I, Cells, Cell),
    Cell = Digit,
    setarg(I, Masks, 0),
    changed(Grid, I),
    field(open, Grid, Open0),
    Open is Open0 - 1,
    set_field(open, Grid, Open),
    field(cell_units, Grid, CellUnits),
    arg(I, CellUnits, Us),
    units_take(Us, Bit, Taken).

%   Cell I, placed already, holds Digit.
placed_as(Grid, I, Digit) :-
    field(cells, Grid, Cells),
    arg(I, Cells, Cell),
    Cell =:= Digit.

%!  place_givens(+Grid, +Givens) is semidet.
%
%   Places every given(Cell, Digit) of Givens, as place/3 one by one
%   would, then takes from each open cell the digits its units hold: a
%   sweep of the cells instead of a given's peers each in turn (a Sudoku
%   of 25 givens: 81 cells narrowed once instead of 500 peers one digit
%   at a time; 3% of the instructions of checking magictour's top1465).
place_givens(Grid, Givens) :-
    field(cells, Grid, Cells),
    field(masks, Grid, Masks),
    field(taken, Grid, Taken),
    maplist(take_given(Grid, Cells, Masks, Taken), Givens),
    field(cell_units, Grid, CellUnits),
    functor(Masks, _, NCells),
    narrow_to_units(1, NCells, Masks, CellUnits, Taken, Grid).

%   Cell I takes Digit, and its units have it; its peers keep it for now.
take_given(Grid, Cells, Masks, Taken, given(I, Digit)) :-
    arg(I, Masks, Mask),
    (   Mask =\= 0
    ->  take_cell(Grid, Cells, Masks, Taken, I, Mask, Digit, _)
    ;   placed_as(Grid, I, Digit)
    ).

%   Each open cell loses the digits its units have taken.
narrow_to_units(I, NCells, _, _, _, _) :-
    I > NCells, !.
narrow_to_units(I, NCells, Masks, CellUnits, Taken, Grid) :-
    arg(I, Masks, Mask),
    (   Mask =:= 0
    ->  true
    ;   arg(I, CellUnits, Us),
        units_taken(Us, Taken, 0, Out),
        (   Mask /\ Out =:= 0
        ->  true
        ;   narrow(Grid, Masks, I, Mask, Out)
        )
    ),
    I1 is I + 1,
    narrow_to_units(I1, NCells, Masks, CellUnits, Taken, Grid).

units_taken([], _, Out, Out).
units_taken([U|Us], Taken, Out0, Out) :-
    arg(U, Taken, Bits),
    Out1 is Out0 \/ Bits,
    units_taken(Us, Taken, Out1, Out).

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
                 *  FOR A FAMILY'S OWN LAYERS   *
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
