:- module(grid_search,
          [ label_grid/1,         % +Grid
            search_grid/1,        % +Grid
            place_bound_cells/1,  % +Grid
            cell_weights/3        % +CellUnitBits, +CellTableBits, -CellWeights
          ]).
/** <module> The grid kernel's search: propagate, then branch on a cell.

The cell with the fewest candidates (per weight, once a table has
failed: dom/wdeg) is tried digit by digit, smallest first, after
propagation (grid_propagation.pl).
*/

:- use_module(library(clpfd)).
:- use_module(grid_candidates, [field/3, goal_expansion/2, place/3, remove_digits/3,
                                cell_allowed/3]).
:- use_module(grid_propagation, [propagate_grid/1]).
:- use_module(grid_geometry, [mask_digit/2]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the inner loops are all masks
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%!  label_grid(+Grid) is nondet.
%
%   Every solution: the cells a caller bound or restricted after
%   grid:grid_state/4 (the driver does, to ask what the puzzle allows with a
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
    field(tables, Grid, Tables),
    functor(Masks, _, NCells),
    (   functor(Tables, _, 0)
    ->  fewest_candidates(1, NCells, Masks, Taken, CellUnits, 0, 99, 0, Cell)
    ;   field(cell_weights, Grid, Weights),
        lightest_candidates(1, NCells, Masks, Taken, CellUnits, Weights, 0, 99, 1, 0, Cell)
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

lightest_candidates(I, NCells, _, _, _, _, Cell, _, _, _, Cell) :-
    I > NCells, !.
lightest_candidates(I, NCells, Masks, Taken, CellUnits, Weights, Best0, Count0, Weight0, Placed0, Best) :-
    arg(I, Masks, Mask),
    I1 is I + 1,
    (   Mask =\= 0,
        Count is popcount(Mask),
        arg(I, Weights, Weight),
        Count * Weight0 =< Count0 * Weight,
        arg(I, CellUnits, Us),
        placed_in_units(Us, Taken, 0, Placed),
        (   Count * Weight0 < Count0 * Weight
        ;   Placed < Placed0
        )
    ->  lightest_candidates(I1, NCells, Masks, Taken, CellUnits, Weights, I, Count, Weight, Placed, Best)
    ;   lightest_candidates(I1, NCells, Masks, Taken, CellUnits, Weights, Best0, Count0, Weight0, Placed0, Best)
    ).

%!  cell_weights(+CellUnitBits, +CellTableBits, -CellWeights) is det.
%
%   The weights of cells before any table failed: one more than the units
%   each is in (a cell in no unit or table weighs something), and one for
%   each of its tables.  A table that fails adds one to each of its cells
%   (grid_propagation.pl), so that a cell's weight need not be summed over
%   its tables at each choice (a Kakuro of 400 blocks took 2.2 s to solve,
%   three fifths of it summing).
cell_weights(CellUnitBits, CellTableBits, CellWeights) :-
    CellUnitBits =.. [_|UnitBits],
    CellTableBits =.. [_|TableBits],
    maplist(first_weight, UnitBits, TableBits, Weights),
    CellWeights =.. [cell_weights|Weights].

first_weight(UnitBits, TableBits, Weight) :-
    Weight is popcount(UnitBits) + 1 + popcount(TableBits).

placed_in_units([], _, Placed, Placed).
placed_in_units([U|Us], Taken, Placed0, Placed) :-
    arg(U, Taken, Bits),
    Placed1 is Placed0 + popcount(Bits),
    placed_in_units(Us, Taken, Placed1, Placed).

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
