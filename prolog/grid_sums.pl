:- module(grid_sums,
          [ implied_sums/4,       % +Rules, +UnitGeometry, +Low-High, -Implied
            whole_units_out/4,    % +UnitGeometry, +Low-High, +Rule, -Left
            grouped_reach/3,      % +UnitGeometry, +Low-High, +Rule
            unit_complement/4,    % +UnitGeometry, +Low-High, +Rule, -Complement
            around_left/5         % +UnitGeometry, +Low-High, +Rule, -Left, -Around
          ]).
/** <module> What a grid's units imply of its rules: innies and outies, whole units.

A unit with a cell for every digit adds up to their total; with the
sums the rules state, that implies sums of a few cells more, which the
kernel's search takes as rules of its own (grid.pl's header says what
they gain); a sum or product that takes in such a unit whole is one of
its other cells; a big one's cells in one unit hold different digits,
which may put its target out of reach; and the units of one kind around
a big one leave their other cells what it does not make.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(grid_geometry, [filled/4, cell_set/2, set_cells/2]).
:- use_module(grid_folds, [fold_guide/5]).
:- use_module(grid_fillings, [folded_rule/3, rule_cells/2, most_fillings/1, few_digit_strings/3]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: sets of cells are integers
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

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
few_cells_unsummed(Geometry, Size, Summed, Cells-Set) :-
    implied_cells(Most),
    full_unit(Geometry, Size, U, Set),
    popcount(Set /\ \Summed) =< Most,
    Geometry = units(_, _, _, Units, _, _, _),
    arg(U, Units, Cells).

%   Unit U has a cell for every digit (Size cells), Set its cells: one
%   of the units of the largest size, the only ones whose sets are kept.
full_unit(units(_, _, _, _, UnitSizes, _, UnitSets), Size, U, Set) :-
    functor(UnitSizes, _, NUnits),      % arg/3 takes no atom: a grid of no unit
    between(1, NUnits, U),
    arg(U, UnitSizes, Size),
    arg(U, UnitSets, Set),
    Set =\= 0.

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

%!  around_left(+UnitGeometry, +Low-High, +Rule, -Left, -Around) is semidet.
%
%   Left is Rule (on cell numbers) less the units it takes in whole
%   (whole_units_out/4), none when they are all it has; Around is what the
%   units around it imply of their other cells (unit_complement/4), less
%   its own whole units, or none.  Fails when either's target is out of
%   reach (grouped_reach/3).  The implied rule is looked at first, as the
%   cheaper: a big rule's reach takes a fold.
around_left(Geometry, Digits, Rule, Left, Around) :-
    whole_units_out(Geometry, Digits, Rule, Left),
    (   big_rule(Left, Digits)
    ->  unit_complement(Geometry, Digits, Left, Complement),
        units_left(Geometry, Digits, Complement, Around),
        grouped_reach(Geometry, Digits, Left)
    ;   Around = none
    ).

%   Rule less the units it takes in whole: none, when they are all it
%   has; fails when its target is out of reach.
units_left(_, _, none, none) :- !.
units_left(Geometry, Digits, Rule, Left) :-
    whole_units_out(Geometry, Digits, Rule, Left),
    grouped_reach(Geometry, Digits, Left).

%   Rule is a sum or product whose cells take more strings of digits than
%   are listed outright.
big_rule(Rule, Digits) :-
    folded_rule(Rule, _, _),
    rule_cells(Rule, Cells),
    most_fillings(Most),
    \+ few_digit_strings(Cells, Digits, Most).

%!  whole_units_out(+UnitGeometry, +Low-High, +Rule, -Left) is semidet.
%
%   Left is Rule, on cell numbers, less the units among its cells with a
%   cell for every digit of Low..High, when Rule is a sum or a product of
%   digits from 1: each such unit holds every digit once, so it adds up to
%   their total, or multiplies to their product, whatever its order, and
%   the rest of the cells make what is left of the target.  Left is none
%   when no cell is left and nothing of the target either; Rule itself when
%   it takes in no unit whole.  Fails when what is left cannot be made (a
%   KenKen cage of three whole rows of 1..6 adding up to 64).  A cage of
%   the whole of a 9x9 multiplies to 9!^9 in every Latin square: its fold
%   took seconds a step.
whole_units_out(Geometry, Low-High, Rule, Left) :-
    whole_rule(Rule, Op, Cells, Target, Identity),
    (Op == (*) -> Low >= 1 ; true),
    Size is High - Low + 1,
    length(Cells, N),
    N >= Size,                          % most rules: too few cells to hold a unit
    cell_set(Cells, Set),
    findall(Unit, whole_unit_in(Geometry, Size, Set, Unit), Units),
    foldl(disjoint_unit, Units, 0-0, Taken-Count),
    Count > 0, !,
    numlist(Low, High, Digits),
    foldl(applied(Op), Digits, Identity, Whole),
    target_left(Op, Target, Whole, Count, Rest),
    exclude(cell_of_set(Taken), Cells, Others),
    (   Others == []
    ->  Rest =:= Identity,
        Left = none
    ;   whole_rule(Left, Op, Others, Rest, _)
    ).
whole_units_out(_, _, Rule, Rule).

whole_rule(sum(Cells, Target), +, Cells, Target, 0).
whole_rule(product(Cells, Target), *, Cells, Target, 1).

%   Unit, a set of cells, has a cell for every digit and all of them in Set.
whole_unit_in(Geometry, Size, Set, Unit) :-
    full_unit(Geometry, Size, _, Unit),
    Unit /\ Set =:= Unit.

%   Units overlapping one taken already (a row and a column) count once.
disjoint_unit(Unit, Taken0-Count0, Taken-Count) :-
    (   Unit /\ Taken0 =:= 0
    ->  Taken is Taken0 \/ Unit,
        Count is Count0 + 1
    ;   Taken = Taken0,
        Count = Count0
    ).

applied(+, Digit, Sum0, Sum) :- Sum is Sum0 + Digit.
applied(*, Digit, Product0, Product) :- Product is Product0 * Digit.

target_left(+, Target, Whole, Count, Rest) :-
    Rest is Target - Whole * Count,
    Rest >= 0.
target_left(*, Target, Whole, Count, Rest) :-
    Divisor is Whole ^ Count,
    Target mod Divisor =:= 0,
    Rest is Target // Divisor.

cell_of_set(Set, Cell) :-
    Set /\ (1 << Cell) =\= 0.

%!  grouped_reach(+UnitGeometry, +Low-High, +Rule) is semidet.
%
%   The target of Rule (on cell numbers), a sum or product whose cells
%   take more strings of digits than are listed outright, is in reach of
%   its cells cut into groups that each lie in one unit, and so hold
%   different digits, the units holding most of its cells first: a strip
%   of three columns by five rows of a 6x6 adds up to 45 at least (five
%   different digits a column), though its rows of three make 30, and the
%   listing's runs are its rows.  Any other rule passes.
grouped_reach(Geometry, Digits, Rule) :-
    big_rule(Rule, Digits), !,
    folded_rule(Rule, Op, Target),
    rule_cells(Rule, Cells),
    (   unit_groups(Geometry, Cells, Sizes),
        fold_guide(Op, Target, Digits, Sizes, guide(_, _, [Start|_]))
    ->  Start /\ 1 =\= 0
    ;   true
    ).
grouped_reach(_, _, _).

%   Sizes: those of groups of Cells, each in one unit, the units holding
%   most of them taken first; a cell in no group is a group of one.  Fails
%   when one unit holds them all: their listing takes them as one run.
unit_groups(units(CellUnits, _, _, Units, _, _, _), Cells, Sizes) :-
    foldl(cell_units_of(CellUnits), Cells, Met, []),
    msort(Met, Sorted),
    clumped(Sorted, Counted0),
    include(shared_by_two, Counted0, Counted1),
    length(Cells, N),
    \+ memberchk(_-N, Counted1),
    maplist(count_first, Counted1, Counted),
    sort(1, @>=, Counted, Largest),
    foldl(group_taken(Units), Largest, Cells-Sizes0, Left-[]),
    length(Left, Alone),
    length(Ones, Alone),
    maplist(=(1), Ones),
    append(Sizes0, Ones, Sizes).

cell_units_of(CellUnits, Cell, Met0, Met) :-
    arg(Cell, CellUnits, Us),
    append(Us, Met, Met0).

shared_by_two(_-Count) :-
    Count >= 2.

count_first(U-Count, Count-U).

in_cells(Cells, Cell) :-
    memberchk(Cell, Cells).

group_taken(Units, _-U, Left0-Sizes0, Left-Sizes) :-
    arg(U, Units, UnitCells),
    include(in_cells(Left0), UnitCells, Free),
    length(Free, N),
    (   N >= 2
    ->  subtract(Left0, Free, Left),
        Sizes0 = [N|Sizes]
    ;   Left = Left0,
        Sizes0 = Sizes
    ).

%!  unit_complement(+UnitGeometry, +Low-High, +Rule, -Complement) is semidet.
%
%   Complement is a rule the grid's units imply of the cells around Rule
%   (on cell numbers), a sum or product whose cells take more strings of
%   digits than are listed outright: the units of one kind (rows, or
%   columns: units with a cell for every digit of Low..High, no two
%   sharing a cell) that meet Rule's cells, two or more, hold all of them,
%   so their other cells make what those units' total (or product) leaves
%   of Rule's target.  The kind leaving the fewest other cells is taken,
%   when they are fewer than Rule's; Complement is `none` when no kind
%   does.  (Within one unit, that is an innie or outie: implied_sums/4.)
%   A strip of three columns by five rows of a 6x6 adding up to 46 leaves
%   the three cells below it 17, which three different digits of a row
%   cannot make: a search of every filling of the strip hung.  Fails when
%   the units cannot leave anything (their total under the target, or a
%   product the target does not divide).
unit_complement(Geometry, Low-High, Rule, Complement) :-
    big_rule(Rule, Low-High),
    whole_rule(Rule, Op, Cells, Target, Identity),
    (Op == (*) -> Low >= 1 ; true),
    Size is High - Low + 1,
    length(Cells, N),
    N > Size,                           % two units or more leave fewer other cells
    cell_set(Cells, Set),
    unit_kinds(Geometry, Size, Kinds),
    findall(Outside-Count,
            ( member(Kind, Kinds),
              covering(Kind, Set, 0, Union, 0, Count),
              Count >= 2,
              Outside is Union /\ \ Set,
              popcount(Outside) < N ),
            Options),
    map_list_to_pairs(outside_size, Options, Sized),
    keysort(Sized, [_-(Outside-Count)|_]), !,
    numlist(Low, High, Digits),
    foldl(applied(Op), Digits, Identity, Whole),
    around_target(Op, Target, Whole, Count, Rest),
    set_cells(Outside, OutsideCells),
    whole_rule(Complement, Op, OutsideCells, Rest, _).
unit_complement(_, _, _, none).

outside_size(Outside-_, Size) :-
    Size is popcount(Outside).

%   Kinds: the units with a cell for every digit (Size of them) as sets,
%   grouped into kinds, each kind units no two of which share a cell,
%   taken in order (a Sudoku's rows, then its columns, then its boxes).
unit_kinds(Geometry, Size, Kinds) :-
    findall(Unit, full_unit(Geometry, Size, _, Unit), Units),
    kinds(Units, Kinds).

kinds([], []).
kinds([Unit|Units], [Kind|Kinds]) :-
    foldl(same_kind, Units, [Unit]-Unit, Kind-_),
    subtract(Units, Kind, Others),
    kinds(Others, Kinds).

same_kind(Unit, Kind0-Taken0, Kind-Taken) :-
    (   Unit /\ Taken0 =:= 0
    ->  Kind = [Unit|Kind0],
        Taken is Taken0 \/ Unit
    ;   Kind = Kind0,
        Taken = Taken0
    ).

%   Union: the units of Kind meeting Set, Count of them; fails unless
%   they hold all of Set.
covering([], Set, Union, Union, Count, Count) :-
    Set /\ \ Union =:= 0.
covering([Unit|Units], Set, Union0, Union, Count0, Count) :-
    (   Unit /\ Set =\= 0
    ->  Union1 is Union0 \/ Unit,
        Count1 is Count0 + 1
    ;   Union1 = Union0,
        Count1 = Count0
    ),
    covering(Units, Set, Union1, Union, Count1, Count).

%   Rest: what Count units' total (Whole each) leaves of Target.
around_target(+, Target, Whole, Count, Rest) :-
    Rest is Whole * Count - Target,
    Rest >= 0.
around_target(*, Target, Whole, Count, Rest) :-
    Target > 0,
    All is Whole ^ Count,
    All mod Target =:= 0,
    Rest is All // Target.
