:- module(grid,
          [ grid_model/5,         % +Encoding, +Rows, +Rules, +Low-High, -Labeling
            checked_labeling/2,   % +Cells, +Checks
            grid_rows/3,          % +Height, +Width, -Rows
            cell_at/3,            % +Rows, +[R, C], -Cell
            given_rule/3,         % +Rows, +[R, C, Digit], -Rule
            distinct_rule/2,      % +Cells, -Rule
            grid_constraints/4,   % +Rows, +Rules, +Low-High, -Goals
            grid_state/4,         % +Cells, +Low-High, +Rules, -Grid
            rule_goal/2,          % +Rule, -Goal
            rule_table_goal/3,    % +Rules, +Rule, -Goal
            is_unit/1,            % +Rule
            is_given/1,           % +Rule
            table_rule/1,         % +Rule
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
  - A sum or product that takes in a unit with a cell for every digit
    (a KenKen cage of whole rows) is a rule of its other cells: the unit
    adds up to the digits' total, or multiplies to their product, in any
    order (grid_sums.pl); a cage of the whole grid is none.
  - The lines of one kind (rows, or columns) that a big sum or product
    meets, two or more, add up to their digits' total each (multiply to
    their product): when their other cells are fewer than its own, what
    they leave of the target is a rule of those cells (grid_sums.pl; a
    strip of a 6x6's three columns adding up to 46 leaves the three cells
    below it 17, more than a row's three different digits make).
  - A sum or product of more than ten thousand fillings (a KenKen cage
    of ten cells over two rows has millions) is folded instead: its
    partial sums, or products as prime exponents, reachable from either
    end are sets of bits, and a cell keeps the digits that join them
    (grid_folds.pl; arc consistent on the rule alone, which lets two of
    its cells in a unit share a digit: the unit forbids that).
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
    sums of their own (grid_sums.pl) where units hold nine digits or
    more: on the bench's Killer Sudokus, 218 choices where the search
    made 3,203.  With fewer digits, singles and the stated tables settle
    as much, and the implied sums only cost (sums_pay/1).
  - In a unit with a cell for every digit in use, crossed by units of
    its size two ways (a box, by rows and by columns), a digit that only
    the cells it shares with one of them can take leaves that unit's
    other cells (locked candidates, pointing: a box's digit confined to
    one of its rows leaves the rest of the row), once singles have
    nothing more to do (see grid_geometry.pl's unit_locks/4).  On magictour's top1465
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

The kernel's modules, each loading only modules listed before it:

  - grid_kept.pl: what is worked out once and kept for many puzzles;
  - grid_geometry.pl: units, peers and crossings, worked out once per
    shape; sets of cells and digits as integers;
  - grid_candidates.pl: the search state (the cells' candidates) by field
    name, placing and narrowing;
  - grid_folds.pl: a sum or product of too many fillings to list, folded;
  - grid_fillings.pl: the arithmetic rules as tables of fillings;
  - grid_sums.pl: what the units imply of the rules: sums (innies and
    outies), whole units out of a rule, its target out of reach, the
    rest of the lines around a big one;
  - grid_propagation.pl: singles, locked candidates, the tables' support;
  - grid_search.pl: the search;
  - grid.pl (this one): a family's rules made into a state or posted as
    CLP(FD), and every predicate a family uses.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(grid_geometry, [unit_geometry/3, cell_table_bits/3, table_units/6, filled/4]).
:- use_module(grid_fillings, [rule_table/7, rule_cells/2, lined_after/3, few_fillings/4]).
:- use_module(grid_sums, [implied_sums/4, around_left/5]).
:- use_module(grid_candidates, [state_term/2, place_givens/2, goal_expansion/2]).
:- reexport(grid_search, [label_grid/1, search_grid/1, place_bound_cells/1]).
:- use_module(grid_search, [cell_weights/3]).
:- reexport(grid_candidates, [cell_allowed/3, placed_cell/2, remove_digits/3, digits_in_use/2,
                              use_digits/2, placed_digits/2, set_propagator/2]).
:- reexport(grid_propagation, [propagate_grid/1]).

                 /*******************************
                 *       MAKING THE STATE       *
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
grid_model(tables, Rows, Rules, Low-High, checked_labeling(Cells, Checks)) :-
    grid_cells(Rows, Cells),
    Cells ins Low..High,
    maplist(rule_table_goal(Rules), Rules, Goals),
    maplist(call, Goals),
    maplist(rule_goal, Rules, Checks).
grid_model(arithmetic, Rows, Rules, Low-High, checked_labeling(Cells, Goals)) :-
    grid_cells(Rows, Cells),
    Cells ins Low..High,
    maplist(rule_goal, Rules, Goals),
    maplist(call, Goals).

%!  checked_labeling(+Cells, +Checks) is nondet.
%
%   First-fail labeling of Cells, each labeling that meets every goal of
%   Checks, the rules as rule_goal/2 states them, on the digits in place.
%   SWI-Prolog 9.2.9's CLP(FD) gave a labeling of a 5x5 KenKen that breaks
%   a tuples_in/2 posted beside all_distinct/1 (tests/prolog/test_grid.pl,
%   clpfd_labeling): what it gives is checked, as the kernel's own search
%   need not be.
checked_labeling(Cells, Checks) :-
    labeling([ff], Cells),
    maplist(call, Checks).

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
    (   sums_pay(Low-High)
    ->  implied_sums(Numbered, UnitGeometry, Low-High, Implied)
    ;   Implied = []
    ),
    include(table_rule, Numbered, StatedTables0),
    foldl(rule_left(UnitGeometry, Low-High), StatedTables0, StatedTables, []),
    append(StatedTables, Implied, TableRules),
    maplist(filled_table(UnitGeometry, Low-High, Width), TableRules, TableNumbers, Kinds, Fillings),
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
    cell_weights(CellUnitBits, CellTableBits, CellWeights),
    state_term([cells-Cells, masks-Masks, open-NCells, taken-Taken, in_use-InUse,
                lives-Lives, pending_units-AllUnits, pending_tables-AllTables,
                propagator-none, width-Width, cell_units-CellUnits,
                cell_unit_bits-CellUnitBits, peers-Peers, units-Units,
                unit_sizes-UnitSizes, tables-Tables, cell_table_bits-CellTableBits,
                cell_weights-CellWeights, locks-Locks, pending_locks-0], Grid),
    include(is_given, Numbered, Givens),
    place_givens(Grid, Givens),
    propagate_grid(Grid).

%   What the units around a stated rule imply of their other cells
%   (unit_complement/4), then the rule itself, each less the units it
%   takes in whole (around_left/5); none of them when they are none.
rule_left(Geometry, Digits, Rule, Rules0, Rules) :-
    around_left(Geometry, Digits, Rule, Left, Around),
    kept_rule(Around, Rules0, Rules1),
    kept_rule(Left, Rules1, Rules).

kept_rule(none, Rules, Rules) :- !.
kept_rule(Rule, [Rule|Rules], Rules).

%   A rule's table (grid_fillings:rule_table/7); fails when it lists no
%   filling, before the rules after it are listed (an implied rule of
%   three cells before the big rule it comes from).
filled_table(Geometry, Digits, Width, Rule, Numbers, Kind, Fillings) :-
    rule_table(Geometry, Digits, Width, Rule, Numbers, Kind, Fillings),
    (   Kind = fold(_)
    ->  true
    ;   Fillings \== []
    ).

%!  sums_pay(+Low-High) is semidet.
%
%   The sums the rules imply are worth their tables in a grid of these
%   digits: nine or more.  With fewer they took no choice away on the
%   bench's KenKens (4x4 to 8x8, ten each: 478 choices with them, 495
%   without), and cost 22%, 13%, 7%, 5% and 3% of the inferences of a
%   4x4, 5x5, 6x6, 7x7 and 8x8 check, and 37% and 26% of a well-formed
%   4x4 and 6x6 Killer Sudoku's, which none of them takes a choice in
%   (compare's counted runs, issue 23's seventeenth session).
sums_pay(Low-High) :-
    sums_from_digits(Least),
    High - Low + 1 >= Least.

:- dynamic sums_from_digits/1.  % the tests set it lower, to search small grids with the sums
sums_from_digits(9).

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

                 /*******************************
                 *     THE RULES AS CLP(FD)     *
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
%   the units of Rules keeping a filling from repeating a digit in one,
%   less the units it takes in whole (whole_units_out/4: true when they
%   are all it has, false when the rest cannot be made), and with what the
%   units around it imply of their other cells (unit_complement/4); units, givens,
%   and a sum or product of too many fillings to list
%   (grid_fillings:most_fillings/1) as rule_goal/2 states them.
rule_table_goal(Rules, Rule, Goal) :-
    (   table_rule(Rule)
    ->  table_goal(Rules, Rule, Goal)
    ;   rule_goal(Rule, Goal)
    ).

table_goal(Rules, Rule, Goal) :-
    term_variables(Rules, Variables),
    numbered_rules(Variables, Rules-Rule, NCells, NumberedRules-Numbered),
    include(is_unit, NumberedRules, UnitRules),
    maplist(arg(1), UnitRules, UnitLists),
    unit_geometry(NCells, UnitLists, Geometry),
    rule_cells(Rule, Vs),
    maplist(fd_inf, Vs, Lows), min_list(Lows, Low),
    maplist(fd_sup, Vs, Highs), max_list(Highs, High),
    (   around_left(Geometry, Low-High, Numbered, Left, Around)
    ->  Cells =.. [cells|Variables],
        left_goal(Around, none-none, Cells, Geometry, Low-High, AroundGoal),
        (   AroundGoal == false             % before listing the rule, the bigger
        ->  Goal = false
        ;   left_goal(Left, Numbered-Rule, Cells, Geometry, Low-High, LeftGoal),
            goals_conjoined(AroundGoal, LeftGoal, Goal)
        )
    ;   Goal = false
    ).

goals_conjoined(true, Goal, Goal) :- !.
goals_conjoined(Goal, true, Goal) :- !.
goals_conjoined(Goal1, Goal2, (Goal1, Goal2)).

%   Goal states Left, the numbered rule less its whole units, on the cells'
%   variables: a table of its fillings when few enough to list.  Numbered-Rule
%   is the rule it comes from, numbered and as stated (none-none for one
%   the units imply): left whole, it is stated as it was.
left_goal(none, _, _, _, _, true) :- !.
left_goal(Left, Numbered-Rule, Cells, units(CellUnits, _, _, _, _, _, _), Digits, Goal) :-
    rule_cells(Left, Numbers),
    lined_after(Numbers, CellUnits, Lined),
    (   Left == Numbered
    ->  Stated = Rule
    ;   Left =.. [Op, _, Target],               % a sum or product of fewer cells
        maplist(cell_variable(Cells), Numbers, Vs),
        Stated =.. [Op, Vs, Target]
    ),
    (   few_fillings(Left, Lined, Digits, Fillings)
    ->  (   Fillings == []
        ->  Goal = false
        ;   rule_cells(Stated, StatedVs),
            Goal = tuples_in([StatedVs], Fillings)
        )
    ;   rule_goal(Stated, Goal)
    ).

cell_variable(Cells, I, V) :-
    arg(I, Cells, V).

                 /*******************************
                 *           GEOMETRY           *
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
