:- module(grid_kept,
          [ kept/5,               % :Table, +Most, +Key, :WorkOut, -Value
            kept_from_second_sight/5 % :Table, +Most, +Key, :WorkOut, -Value
          ]).
/** <module> What the grid kernel works out once and keeps for many puzzles.

A shape's units and crossings (grid_geometry.pl) and a rule's fillings
(grid_fillings.pl) are the same for many puzzles: each is kept as a fact
of a dynamic table in the module that works it out, the last few only,
and crossprolog:forget_worked_out/0 forgets them all (each module names
its tables with crossprolog:worked_out/1).  Facts, not tabling: see
grid.pl's header.
*/

:- meta_predicate
    kept(:, +, +, 1, -),
    kept_from_second_sight(:, +, +, 1, -).

%!  kept(:Table, +Most, +Key, :WorkOut, -Value) is det.
%
%   Value is what call(WorkOut, Value) gives for Key, worked out once and
%   kept as a fact Table(Hash, Key, Value) (dynamic, in the module of
%   Table), the last Most of Table's only.
kept(Table, Most, Key, WorkOut, Value) :-
    kept(first, Table, Most, Key, WorkOut, Value).

%!  kept_from_second_sight(:Table, +Most, +Key, :WorkOut, -Value) is det.
%
%   As kept/5, but Value is kept the second time Key comes only: keeping
%   copies it, for nothing when most keys come once (a Killer Sudoku's
%   units: its cages are its own).
kept_from_second_sight(Table, Most, Key, WorkOut, Value) :-
    kept(second, Table, Most, Key, WorkOut, Value).

kept(Sight, Module:Table, Most, Key, WorkOut, Value) :-
    term_hash(Key, Hash),
    Fact =.. [Table, Hash, Key, Known],
    (   call(Module:Fact)
    ->  Value = Known
    ;   call(WorkOut, Value),
        (   Sight == second,
            \+ retract(seen(Module:Table, Hash))
        ->  assertz(seen(Module:Table, Hash)),
            forget_oldest(seen(_, _), 4096)
        ;   New =.. [Table, Hash, Key, Value],
            assertz(Module:New),
            functor(Any, Table, 3),
            forget_oldest(Module:Any, Most)
        )
    ).

%   The keys seen once, of the tables kept from second sight.
:- dynamic seen/2.
:- multifile crossprolog:worked_out/1.
crossprolog:worked_out(grid_kept:seen/2).

%   The first clause of Any's predicate goes when it has more than Most.
forget_oldest(Any, Most) :-
    (   predicate_property(Any, number_of_clauses(N)),
        N > Most
    ->  once(retract(Any))
    ;   true
    ).
