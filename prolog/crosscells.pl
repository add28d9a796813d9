:- module(crosscells,
          [ encodings/1,        % -Names
            model/4             % +Encoding, +Puzzle, -Ons, -Labeling
          ]).
/** <module> CrossCells: switch cells on or off so that every constrained line
adds up.

Each cell holds an operation, such as "+", 3.  A line reads its cells in
order: its value starts at 0, every ON cell applies its operation to the
value, OFF cells are skipped.  A total (=) fixes the value a line reads to; a
count (#) fixes how many of its cells are on.  Division is exact: an ON "/" cell
must divide the value it meets.  With first_cell "seeds", the first ON cell of
a line sets the value to its number, whatever its operation.

A puzzle arrives from Python as a dict

    _{cells: [[Op, N], ...], lines: [_{cells: Indices, kind: Kind, value: V}, ...],
      first_cell: First}

with Op one of "+", "-", "*", "/" (text: an atom or a string), N >= 0
(N > 0 for "/"), Indices the 0-based cells of one reading (a row, column or
group, already in the order the constraint reads it), Kind "=" or "#", and
First "zero" or "seeds".
Rows, columns and groups are all just readings here.

model/4 is the pure relation: Ons is one 0/1 variable per cell, in the
order of the cells, and the solution; Labeling the search that goes with
the encoding.  An encoding is a way to state totals and a labeling (the
default first):

  - restarts: the constraints of states, and its labeling restarted (see
    restarts/3): within a budget of inferences that grows along the Luby
    sequence, each attempt labels in another order, nearly set lines first
    or most-constrained cell first, OFF or ON first.  The search of states
    has a heavy tail: the 5th seed-1 10x10 puzzle takes it over 7 s, and
    some others more than 10 s, where another order takes a fraction of a
    second; restarting bounds what a bad order costs.
  - states: every reading's states (has a cell been on yet, and the value)
    are worked out ahead, layer by layer, keeping only those on a way to the
    total; each step is then a table constraint over (state before, On,
    state after), so each line is arc consistent.  Labels the cells of the
    line with the fewest unset cells first.  A reading with too many states
    (values that double at each step) is stated as in `fold` instead.
  - states_ffc: the same constraints, labeled most-constrained cell first.
  - fold: a total is a fold over the reading's cells; "+" and "-" steps are
    linear (V #= V0 + N*On), "*" and "/" steps reified implications (with
    first_cell "seeds", every step is reified, as in `reified`).
    Labels like states.
  - reified: every step, whatever its operation, is
    (On #==> V is V0 op N) #/\ (#\On #==> V #= V0).  Labels like states.

A count is a sum of the ON variables in every encoding.  Running values are
bounded by interval arithmetic over the operations, so every domain is
finite even when "*" chains grow large.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(ordsets)).
:- use_module(library(pairs)).
:- use_module(restarts).

%!  encoding(?Name, ?Totals, ?Labeling)
%
%   An encoding states totals one way and labels one way.
encoding(restarts,   states,  restarts).
encoding(states,     states,  lines).
encoding(states_ffc, states,  ffc).
encoding(fold,       fold,    lines).
encoding(reified,    reified, lines).

encodings(Names) :-
    findall(Name, encoding(Name, _, _), Names).

%!  model(+Encoding, +Puzzle, -Ons, -Labeling) is semidet.
%
%   Ons holds one 0/1 variable per cell of Puzzle (1: on), constrained as
%   Encoding says; Labeling labels them.  Fails when the constraints are
%   found inconsistent.
model(Encoding, Puzzle, Ons, Labeling) :-
    encoding(Encoding, Totals, Search),
    _{cells: CellData, lines: Readings, first_cell: First} :< Puzzle,
    maplist(operation, CellData, Operations),
    same_length(Operations, Ons),
    Ons ins 0..1,
    atom_string(Start, First),
    maplist(reading_holds(Totals, Start, Operations, Ons), Readings),
    maplist(reading_ons(Ons), Readings, Lines),
    labeling_of(Search, Lines, Ons, Labeling).

%!  labeling_of(+Search, +Lines, +Ons, -Labeling) is det.
labeling_of(ffc, _, Ons, labeling([ffc], Ons)).
labeling_of(lines, Lines, Ons, labeled_lines([0, 1], Lines, Ons)).
labeling_of(restarts, Lines, Ons, restarts(Unit, Lines, Ons)) :-
    length(Ons, Size),                  % the unit is measured: see restarts/3
    Unit is max(20 * Size * Size, 20_000).

%   The cells of a reading, in the order it reads them.
reading_ons(Ons, Reading, LineOns) :-
    get_dict(cells, Reading, Indices),
    maplist(nth0_of(Ons), Indices, LineOns).

nth0_of(List, I, Element) :-
    nth0(I, List, Element).

%!  restarts(+Unit, +Lines, +Ons) is nondet.
%
%   Labels Ons, the cells of Lines, in attempts: attempt K labels as
%   attempt/4 says within Unit * luby(K) inferences, and restarted/3 runs
%   the attempts and gives every solution once.  The search takes Unit as
%   20 inferences per cell squared (each labeling step costs about as
%   much as the lines are long), at least 20,000: 200,000 for 10x10,
%   about 1,000,000 for 15x15; a unit per cell, as CrossProduct's, cut off 15x15 attempts
%   that were about to finish, a larger one let 10x10 attempts wander.
restarts(Unit, Lines, Ons) :-
    restarted(attempt(Lines, Ons), Unit, Ons).

%!  attempt(+Lines, +Ons, +K, -Labeling) is det.
%
%   Labeling labels Ons as attempt K does.  The first labels as states
%   does; then odd attempts label nearly set lines first, and even ones the
%   most constrained cell first, taking the lines and cells in the K-th
%   order of shuffled/3 (which breaks the ties of either heuristic) and
%   trying OFF first in two attempts of four, ON first in the others.
attempt(Lines, Ons, 1, labeled_lines([0, 1], Lines, Ons)) :- !.
attempt(Lines, Ons, K, labeled_lines(Values, Shuffled, Ons)) :-
    K mod 2 =:= 1, !,
    values(K, Values),
    shuffled(K, Lines, Shuffled0),
    maplist(shuffled(K), Shuffled0, Shuffled).
attempt(_, Ons, K, labeling([ffc, Order], Shuffled)) :-
    shuffled(K, Ons, Shuffled),
    values(K, Values),
    value_order(Values, Order).

labeled_lines(Values, Lines, Ons) :-
    label_nearly_set_lines_first(Values, Lines),
    label(Ons).

values(K, [0, 1]) :- K mod 4 < 2, !.
values(_, [1, 0]).

value_order([0, 1], up).
value_order([1, 0], down).

%!  label_nearly_set_lines_first(+Values, +Lines) is nondet.
%
%   Sets a cell of the line with the fewest unset cells, to each of Values
%   in turn, and goes on until every line is set: a line's constraint then
%   bites as early as it can.
label_nearly_set_lines_first(Values, Lines) :-
    include(has_unset, Lines, Open),
    (   Open == []
    ->  true
    ;   map_list_to_pairs(unset_count, Open, Pairs),
        keysort(Pairs, [_-Line|_]),
        once(( member(On, Line), var(On) )),
        member(On, Values),
        label_nearly_set_lines_first(Values, Open)
    ).

has_unset(Line) :-
    \+ ground(Line).

unset_count(Line, Count) :-
    term_variables(Line, Unset),
    length(Unset, Count).

%   The operations a cell may hold, translated by a fixed table.
operation([OpText, N], op(Op, N)) :-
    atom_string(OpName, OpText),
    operator(OpName, Op),
    integer(N),
    N >= 0,
    ( Op == (/) -> N > 0 ; true ).

operator('+', +).
operator('-', -).
operator('*', *).
operator('/', /).

%!  reading_holds(+Totals, +Start, +Operations, +Ons, +Reading) is semidet.
%
%   The constraint of one reading holds: its count or its total.
reading_holds(Totals, Start, Operations, Ons, Reading) :-
    _{cells: Indices, kind: KindText, value: Value} :< Reading,
    atom_string(Kind, KindText),
    maplist(step(Operations, Ons), Indices, Steps),
    constraint(Kind, Totals, Start, Steps, Value).

step(Operations, Ons, I, step(Op, N, On)) :-
    nth0(I, Operations, op(Op, N)),
    nth0(I, Ons, On).

constraint(#, _, _, Steps, Count) :-
    maplist(step_on, Steps, Ons),
    sum(Ons, #=, Count).
constraint(=, Totals, Start, Steps, Total) :-
    total(Totals, Start, Steps, Total).

step_on(step(_, _, On), On).

%!  total(+Totals, +Start, +Steps, ?Total) is semidet.
%
%   Total is the value the reading of Steps comes to.  Start is `zero` (the
%   value starts at 0) or `seeds` (the first ON cell sets it).
total(states, Start, Steps, Total) :-
    state_total(Start, Steps, Total).
total(reified, Start, Steps, Total) :-
    reified_total(Start, Steps, Total).
total(fold, zero, Steps, Total) :-
    foldl(linear_step, Steps, 0-(0..0), Total-_).
total(fold, seeds, Steps, Total) :-
    reified_total(seeds, Steps, Total).

reified_total(Start, Steps, Total) :-
    start_state(Start, S0),
    foldl(reified_step, Steps, S0, state(_, Total)).

% The fold of the fold encoding: the value V, within the bounds Lo..Hi.
linear_step(step(Op, N, On), V0-Bounds0, V-Bounds) :-
    bounds(Op, N, zero, Bounds0, Bounds),
    V in Bounds,
    linear_or_reified(Op, N, On, V0, V).

linear_or_reified(+, N, On, V0, V) :- !,
    V #= V0 + N*On.
linear_or_reified(-, N, On, V0, V) :- !,
    V #= V0 - N*On.
linear_or_reified(Op, N, On, V0, V) :-
    applied(Op, N, V0, V, Applied),
    On #==> Applied,
    #\ On #==> V #= V0.

%   A state of a reading: whether a cell has been on yet, and the value.
%   Counting from 0, the reading has started before its first cell.
start_state(zero, state(1, 0)).
start_state(seeds, state(0, 0)).

reified_step(step(Op, N, On), state(Started0, V0), state(Started, V)) :-
    bounds_of(V0, Bounds0),
    start_of(Started0, Start),
    bounds(Op, N, Start, Bounds0, Bounds),
    V in Bounds,
    Started #<==> Started0 #\/ On,
    applied(Op, N, V0, V, Applied),
    On #/\ Started0 #==> Applied,
    On #/\ #\ Started0 #==> V #= N,
    #\ On #==> V #= V0.

bounds_of(V, Lo..Hi) :-
    fd_inf(V, Lo),
    fd_sup(V, Hi).

%   Started0 may still be a variable: test it, never bind it.
start_of(Started0, zero) :- Started0 == 1, !.
start_of(_, seeds).

%!  applied(+Op, +N, ?V0, ?V, -Constraint) is det.
%
%   Constraint says that V is V0 with Op N applied (exactly, for "/").
applied(+, N, V0, V, V #= V0 + N).
applied(-, N, V0, V, V #= V0 - N).
applied(*, N, V0, V, V #= V0 * N).
applied(/, N, V0, V, V0 #= V * N).

%!  bounds(+Op, +N, +Start, +Lo0..Hi0, -Lo..Hi) is det.
%
%   Lo..Hi holds every value a step can reach from Lo0..Hi0, on or off;
%   with Start = seeds, also N, which a first ON cell sets.
bounds(Op, N, Start, Lo0..Hi0, Lo..Hi) :-
    reached(Op, N, Lo0, Hi0, Reached),
    seeded(Start, N, Seeded),
    append([[Lo0, Hi0], Reached, Seeded], Candidates),
    min_list(Candidates, Lo),
    max_list(Candidates, Hi).

reached(+, N, Lo0, Hi0, [Lo, Hi]) :- Lo is Lo0 + N, Hi is Hi0 + N.
reached(-, N, Lo0, Hi0, [Lo, Hi]) :- Lo is Lo0 - N, Hi is Hi0 - N.
reached(*, N, Lo0, Hi0, [Lo, Hi]) :- Lo is Lo0 * N, Hi is Hi0 * N.
reached(/, N, Lo0, Hi0, [Lo, Hi]) :- Lo is Lo0 div N, Hi is -((-Hi0) div N).

seeded(zero, _, []).
seeded(seeds, N, [N]).

%!  state_total(+Start, +Steps, +Total) is semidet.
%
%   The states encoding.  A state is state(Started, Value).  The states each
%   step can reach are worked out ahead, layer by layer, then pruned back to
%   those on a way to Total; each step is then a table constraint over
%   [Started0, V0, On, Started, V].  Fails when no way reaches Total.
%   A reading with more than max_states/1 states in all is stated as `fold`
%   states it instead: its tables would cost more than they prune.
state_total(Start, Steps, Total) :-
    start_state(Start, S0),
    max_states(Max),
    (   layers(Steps, [S0], Max, Layers)
    ->  tables(Steps, Layers, Total, Tables, [S0]),
        S0 = state(Started0, V0),
        foldl(table_step, Steps, Tables, Started0-V0, _-Total)
    ;   total(fold, Start, Steps, Total)
    ).

%   Values that double at every step make 2^K states after K steps, which
%   no stack holds for long lines; random 20x20 puzzles need at most about
%   26,000 states for a reading.
max_states(100_000).

%   Layers lists, for every point between the steps, the states reachable
%   there; fails when they would number more than Budget in all.
layers([], Layer, _, [Layer]).
layers([Step|Steps], Layer0, Budget0, [Layer0|Layers]) :-
    findall(S, (member(S0, Layer0), transition(Step, _, S0, S)), States),
    sort(States, Layer),
    length(Layer, N),
    Budget is Budget0 - N,
    Budget >= 0,
    layers(Steps, Layer, Budget, Layers).

%   Tables holds each step's transitions that lead on to Total; Reaching,
%   the states of the first layer they start from.
tables([], [Last], Total, [], Reaching) :-
    include(has_value(Total), Last, Reaching).
tables([Step|Steps], [Layer|Layers], Total, [Table|Tables], Reaching) :-
    tables(Steps, Layers, Total, Tables, Next),
    findall([F0, V0, On, F, V],
            ( member(state(F0, V0), Layer),
              transition(Step, On, state(F0, V0), state(F, V)),
              ord_memberchk(state(F, V), Next) ),
            Table),
    findall(state(F0, V0), member([F0, V0|_], Table), Sources),
    sort(Sources, Reaching).

has_value(Total, state(_, Total)).

%!  transition(+Step, ?On, +State0, -State) is nondet.
%
%   The state a step leads to, OFF (0) or ON (1); no ON transition when a
%   division is not exact.
transition(_, 0, State, State).
transition(step(Op, N, _), 1, state(1, V0), state(1, V)) :-
    value_after(Op, N, V0, V).
transition(step(_, N, _), 1, state(0, _), state(1, N)).

value_after(+, N, V0, V) :- V is V0 + N.
value_after(-, N, V0, V) :- V is V0 - N.
value_after(*, N, V0, V) :- V is V0 * N.
value_after(/, N, V0, V) :- V0 mod N =:= 0, V is V0 // N.

table_step(step(_, _, On), Table, Started0-V0, Started-V) :-
    tuples_in([[Started0, V0, On, Started, V]], Table).
