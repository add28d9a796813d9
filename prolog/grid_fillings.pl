:- module(grid_fillings,
          [ rule_table/7,         % +UnitGeometry, +Low-High, +Width, +Rule, -Numbers, -Kind, -Fillings
            rule_cells/2,         % +Rule, -Cells
            lined_after/3,        % +Numbers, +CellUnits, -Lined
            rule_filling/4,       % +Rule, +Lined, +Low-High, -Digits
            few_fillings/4,       % +Rule, +Lined, +Low-High, -Fillings
            folded_rule/3,        % +Rule, -Op, -Target
            most_fillings/1,      % -Most
            few_digit_strings/3   % +Cells, +Low-High, +Most
          ]).
/** <module> A grid's arithmetic rules as tables of fillings.

Every sum, product, difference, ratio and table of a grid is a table of
its fillings for the kernel's search: each filling one integer, its
cells' digits in fields of Width bits (packed), or for a sum of four
cells or more that must differ, the sets of digits that add up to it.
Fillings put no digit twice in cells that share a unit, and are kept
between puzzles (a Killer Sudoku's cages repeat them).  A sum or product
of more than most_fillings/1 fillings (a KenKen cage of ten cells over
two rows has millions) is folded instead (grid_folds.pl); whether it has
that many is found by listing them, guided by the fold where its cells
could take more strings of digits than that.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(error), [domain_error/2]).
:- use_module(grid_kept, [kept/5]).
:- use_module(grid_geometry, [mask_digit/2]).
:- use_module(grid_folds, [fold_box/4, fold_guide/5]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: fillings are masks
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%!  rule_table(+UnitGeometry, +Low-High, +Width, +Rule, -Numbers, -Kind, -Fillings) is det.
%
%   The table of Rule (on cell numbers): the numbers of its cells, and
%   its Kind and Fillings: packed and its fillings packed (the K-th
%   cell's digit D is bit D of the K-th field of Width bits), sorted;
%   sets and the sets of digits of a distinct sum; or fold(Box) and []
%   for a sum or product of more than most_fillings/1 fillings.
%   Arithmetic fillings put no digit twice in a unit.
rule_table(units(CellUnits, _, _, _, _, _, _), Digits, Width, Rule, Numbers, Kind, Fillings) :-
    rule_cells(Rule, Numbers),
    different_cells(Rule, Numbers),
    lined_after(Numbers, CellUnits, Lined),
    (   distinct_sum(Rule, Lined, Digits, Sets)
    ->  Kind = sets,
        Fillings = Sets
    ;   table_fillings(Rule, Lined, Digits, Width, Packed),
        Packed \== many
    ->  Kind = packed,
        Fillings = Packed
    ;   folded_rule(Rule, Op, Target),
        fold_box(Op, Target, Digits, Box)
    ->  Kind = fold(Box),
        Fillings = []
    ;   Kind = packed,
        found_fillings(Rule, Lined, Digits, Width, inf, Fillings)
    ).

%!  folded_rule(+Rule, -Op, -Target) is semidet.
%
%   Rule is a sum (Op +) or product (Op *) of Target: one that is folded
%   when it has too many fillings to list.
folded_rule(sum(_, Target), +, Target).
folded_rule(product(_, Target), *, Target).

%!  most_fillings(-Most) is det.
%
%   A sum or product of more fillings than Most is folded, not listed:
%   by the kernel's search (grid_folds.pl), by the tables encodings (as
%   arithmetic) and by the hints (statement.pl).  A run of nine cells
%   adding up to 45 has 9! = 362,880, which took seconds and gigabytes
%   to list.
:- dynamic most_fillings/1.    % the tests set it to 0, to fold every sum and product
most_fillings(10_000).

%!  few_fillings(+Rule, +Lined, +Low-High, -Fillings) is semidet.
%
%   Fillings is the sorted list of Rule's fillings (as rule_filling/4
%   gives them), when there are at most most_fillings/1; fails when more.
few_fillings(Rule, Lined, Digits, Fillings) :-
    most_fillings(Most),
    listed(Rule, Lined, Digits, Most, Filling, rule_filling(Rule, Lined, Digits, Filling), Fillings0),
    sort(Fillings0, Fillings).

%   Found: the Templates of Goal's solutions, Goal finding Rule's fillings,
%   when it has Most or fewer; fails when more.  A rule of so few cells that
%   it cannot have more is listed outright.
:- meta_predicate listed(+, +, +, +, ?, 0, -).
listed(_, Lined, Digits, Most, Template, Goal, Found) :-
    few_digit_strings(Lined, Digits, Most), !,
    findall(Template, Goal, Found).
listed(_, _, _, Most, Template, Goal, Found) :-
    at_most(Most, Template, Goal, Found).

%!  few_digit_strings(+Cells, +Low-High, +Most) is semidet.
%
%   Cells (a list as long as them: their Lined too) take no more than Most
%   strings of digits, alike or not: a rule of them is listed outright.
few_digit_strings(Cells0, Low-High, Most) :-
    length(Cells0, Cells),
    (High - Low + 1) ^ Cells =< Most.

%   Found: the Templates of Goal's solutions, when it has Most or fewer.
:- meta_predicate at_most(+, ?, 0, -).
at_most(Most, Template, Goal, Found) :-
    Over is Most + 1,
    (   findnsols(Over, Template, Goal, Found)
    ->  true
    ),
    length(Found, N),
    N =< Most.

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
%   (the last few hundred; not tabled, see grid.pl's header), as a Killer Sudoku's
%   cages and a Kakuro's runs repeat them within a grid and across grids.
:- dynamic known_fillings/3.
:- multifile crossprolog:worked_out/1.
crossprolog:worked_out(grid_fillings:known_fillings/3).

%   Packed: the fillings, or many when there are more than most_fillings/1.
table_fillings(Rule, Lined, Digits, Width, Packed) :-
    most_fillings(Most),
    (   arithmetic_key(Rule, Lined, Digits, Width, Key)
    ->  kept(known_fillings, 512, Key, found_fillings(Rule, Lined, Digits, Width, Most), Packed)
    ;   found_fillings(Rule, Lined, Digits, Width, inf, Packed)
    ).

arithmetic_key(sum(_, T), Lined, Digits, Width, sum(T, Lined, Digits, Width)).
arithmetic_key(product(_, T), Lined, Digits, Width, product(T, Lined, Digits, Width)).
arithmetic_key(difference(_, _, T), Lined, Digits, Width, difference(T, Lined, Digits, Width)).
arithmetic_key(ratio(_, _, T), Lined, Digits, Width, ratio(T, Lined, Digits, Width)).

%   The fillings, sorted, or many when there are more than Most (inf: all).
found_fillings(Rule, Lined, Digits, Width, inf, Packed) :- !,
    findall(P, packed_filling(Rule, Lined, Digits, Width, P), Packed0),
    sort(Packed0, Packed).
found_fillings(Rule, Lined, Digits, Width, Most, Packed) :-
    (   listed(Rule, Lined, Digits, Most, P, packed_filling(Rule, Lined, Digits, Width, P), Packed0)
    ->  sort(Packed0, Packed)
    ;   Packed = many
    ).

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
%   before it in one of its units (a mask per cell).  Where the cells may
%   take more strings of digits than most_fillings/1, a digit is taken
%   only when the cells after it can still finish (fold_guide/5), so a
%   big cage costs its fillings, not its dead ends, and one whose target
%   its lines' different digits forbid (three rows of 1..6 adding up to
%   64) none.
chosen(Lined, Digits, Op, Target, Width, P) :-
    length(Lined, Cells),
    within_reach(Op, Target, Cells, Digits),
    same_length(Lined, Forbidden),
    maplist(=(0), Forbidden),
    most_fillings(Most),
    (   \+ few_digit_strings(Lined, Digits, Most),
        lined_runs(Lined, Runs),
        fold_guide(Op, Target, Digits, Runs, guide(Fits, Shifts, [Start|Reaching]))
    ->  Start /\ 1 =\= 0,
        guided(Lined, Forbidden, Fits, Shifts, Reaching, 0, Width, 0, 0, P)
    ;   chosen(Lined, Forbidden, Cells, Digits, Op, Target, Width, 0, 0, P)
    ).

%   No digits of Cells cells make more than this, or less: a target typed
%   with a digit too many has no filling, without a fold as long as it is.
within_reach(+, Target, Cells, Low-High) :-
    Target >= Cells * Low,
    Target =< Cells * High.
within_reach(*, Target, Cells, Low-High) :-
    Target >= Low ^ Cells,
    Target =< High ^ Cells.

%   Runs: the lengths of the stretches of Lined's cells, in order, whose
%   cells pairwise share a unit (a cage's rows, read row by row).
lined_runs([], []).
lined_runs([Flags|Lined], [Length|Runs]) :-
    run_from(Lined, [Flags], 1, Length, Rest),
    lined_runs(Rest, Runs).

run_from([Flags|Lined], Members, Length0, Length, Rest) :-
    maplist(shares_next, Members, Tails), !,
    Length1 is Length0 + 1,
    run_from(Lined, [Flags|Tails], Length1, Length, Rest).
run_from(Lined, _, Length, Length, Lined).

shares_next([1|Flags], Flags).

%   A filling chosen as chosen/10 does, each digit taking the point (the sum
%   or the product's exponents) to one from which the cells after it can
%   reach the target: the first of Reaching.
guided([], [], _, _, [], _, _, _, P, P).
guided([Flags|Lined], [F|Fs], Fits, Shifts, [Next|Reaching], Point0, Width, Shift, P0, P) :-
    Free is Fits /\ \ F,
    Free =\= 0,
    mask_digit(Free, Digit),
    I is Digit + 1,
    arg(I, Shifts, Step),
    Point is Point0 + Step,
    (Next >> Point) /\ 1 =:= 1,
    Bit is 1 << Digit,
    forbid(Flags, Fs, Bit, Fs1),
    P1 is P0 \/ (Bit << Shift),
    Shift1 is Shift + Width,
    guided(Lined, Fs1, Fits, Shifts, Reaching, Point, Width, Shift1, P1, P).

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
