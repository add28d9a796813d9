:- module(crosscells,
          [ encodings/1,        % -Names
            model/4,            % +Encoding, +Puzzle, -Ons, -Labeling
            constraints/4       % +Puzzle, -Ons, -Named, -Goals
          ]).
/** <module> CrossCells: switch cells on or off so that every constrained line
adds up.

Each cell holds an operation, such as "+", 3.  A line reads its cells in
order: its value starts at 0, every ON cell applies its operation to the
value, OFF cells are skipped.  A total (=) fixes the value a line reads to; a
count (#) fixes how many of its cells are on.  What each operation does is
one row of operator/6; division is exact: an ON "/" cell must divide the
value it meets.  With first_cell "seeds", the first ON cell of a line sets
the value to its number, whatever its operation.  With precedence
"standard", the ON cells form an ordinary expression: an operator of
operator/6's sum tier ("+", "-") starts a new term, the others apply to the
term, and the value is the sum of the terms.

A puzzle arrives from Python as a dict

    _{cells: [[Op, N], ...], lines: [_{cells: Indices, kind: Kind, value: V}, ...],
      first_cell: First, precedence: Precedence}

with Op one of the symbols of operator/6 (text: an atom or a string), N >= 0
(N > 0 where the operation needs it, as "/" does), Indices the 0-based cells of
one reading (a row, column or group, already in the order the constraint
reads it), Kind "=" or "#", First "zero" or "seeds", and Precedence
"left-to-right" (also when the key is absent) or "standard".
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
  - states: every reading's states (has a cell been on yet, the sum of the
    finished terms, the current term) are worked out ahead, layer by layer,
    keeping only those on a way to the total, and numbered; each step is
    then a table constraint over (state before, On, state after), so each
    line is arc consistent.  Labels the cells of the line with the fewest
    unset cells first.  A reading with too many states (values that double
    at each step) is stated as in `fold` instead.
  - states_ffc: the same constraints, labeled most-constrained cell first.
  - fold: a total is a fold over the reading's cells; sum-tier steps are
    linear (V #= V0 + D*On), the others reified implications.  With
    first_cell "seeds", or where a standard-precedence reading starts a
    term that a later product may bind, no step is linear, and every step
    is reified, as in `reified`.  Labels like states.
  - reified: every step, whatever its operation, is
    (On #==> the operation) #/\ (#\On #==> nothing changes).  Labels like
    states.

A count is a sum of the ON variables in every encoding.  Running values are
bounded by what the operations propagate from the bounds before them, so
every domain is finite even when "*" chains grow large.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(assoc)).
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
    atom_string(Start, First),
    precedence(Puzzle, Precedence),
    maplist(operation, CellData, Operations),
    same_length(Operations, Ons),
    Ons ins 0..1,
    maplist(reading_holds(Totals, rules(Start, Precedence), Operations, Ons), Readings),
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

%!  operator(?Op, ?Tier, ?N, ?V0, ?V, -Relation) is nondet.
%
%   The operators, one row each; everything else in this module follows
%   from this table.  Relation is the CLP(FD) constraint that holds when V
%   is V0 with Op N applied.  Called with V0 known, it gives the next
%   running value of the states tables (or fails: a division that is not
%   exact); reified, it is a step of the fold and reified encodings; what
%   it propagates from the bounds of V0 bounds V; and a cell is valid when
%   it gives 0 a value (no division by 0).  Tier is `sum` for an operator
%   that adds what it gives 0 (its Relation is V #= V0 + D): the fold
%   encoding states it linearly, and under standard precedence it starts a
%   new term; `product` for one that binds tighter.
operator(+,   sum,     N, V0, V, V #= V0 + N).
operator(-,   sum,     N, V0, V, V #= V0 - N).
operator(*,   product, N, V0, V, V #= V0 * N).
operator(/,   product, N, V0, V, V0 #= V * N).
operator('%', product, N, V0, V, V #= V0 rem N).

%!  operation(+CellData, -Operation) is semidet.
%
%   Operation is op(Op, N, Tier) for a valid cell [Op, N].
operation([Text, N], op(Op, N, Tier)) :-
    atom_string(Op, Text),
    integer(N),
    N >= 0,
    operator(Op, Tier, N, 0, V, Relation),
    \+ \+ ( call(Relation), integer(V) ).

precedence(Puzzle, Precedence) :-
    (   get_dict(precedence, Puzzle, Text)
    ->  atom_string(Precedence, Text)
    ;   Precedence = 'left-to-right'
    ),
    memberchk(Precedence, ['left-to-right', standard]).

%!  steps(+Precedence, +Cells, -Steps, -Products) is det.
%
%   Steps holds step(op(Op, N, Role), On) for each cell(op(Op, N, Tier),
%   On) of a reading, in order; Products is yes when a product-tier cell
%   is among them.  Role is what the cell does, ON, to the reading's state:
%   `applies` its operation to the current term, or `starts` a new term,
%   the value its operation gives 0, and adds the finished term to the sum.
%   Left to right, every operation applies to the term, which is then the
%   whole value; under standard precedence a sum-tier cell starts a term
%   when a product-tier cell comes after it, which may bind to it (after
%   the last one, adding to the term is the same, and the fold stays linear).
steps(_, [], [], no).
steps(Precedence, [cell(op(Op, N, Tier), On)|Cells], [step(op(Op, N, Role), On)|Steps],
      Products) :-
    steps(Precedence, Cells, Steps, Later),
    role(Precedence, Tier, Later, Role),
    (   Tier == product
    ->  Products = yes
    ;   Products = Later
    ).

role(standard, sum, yes, starts) :- !.
role(_, _, _, applies).

%   A state of a reading: whether a cell has been on yet (1, or 0 with
%   first_cell seeds), the sum of the finished terms, and the current term.
%   The value is Sum + Term.
start_state(zero, state(1, 0, 0)).
start_state(seeds, state(0, 0, 0)).

%!  effect(+Operation, ?Sum0-Term0, ?Sum-Term, -Constraints) is det.
%
%   Constraints hold when an ON cell of Operation takes a started state's
%   Sum0-Term0 to Sum-Term.  An operation that applies to the term keeps
%   the sum: the very same variable.
effect(op(Op, N, applies), S-T0, S-T, [Relation]) :-
    operator(Op, _, N, T0, T, Relation).
effect(op(Op, N, starts), S0-T0, S-T, [S #= S0 + T0, Relation]) :-
    operator(Op, _, N, 0, T, Relation).

%!  reading_holds(+Totals, +Rules, +Operations, +Ons, +Reading) is semidet.
%
%   The constraint of one reading holds: its count or its total.
reading_holds(Totals, rules(Start, Precedence), Operations, Ons, Reading) :-
    _{cells: Indices, kind: KindText, value: Value} :< Reading,
    atom_string(Kind, KindText),
    maplist(cell(Operations, Ons), Indices, Cells),
    steps(Precedence, Cells, Steps, _),
    constraint(Kind, Totals, Start, Steps, Value).

cell(Operations, Ons, I, cell(Operation, On)) :-
    nth0(I, Operations, Operation),
    nth0(I, Ons, On).

constraint(#, _, _, Steps, Count) :-
    maplist(step_on, Steps, Ons),
    sum(Ons, #=, Count).
constraint(=, Totals, Start, Steps, Total) :-
    total(Totals, Start, Steps, Total).

step_on(step(_, On), On).

%!  total(+Totals, +Start, +Steps, ?Total) is semidet.
%
%   Total is the value the reading of Steps comes to.  Start is `zero` (the
%   value starts at 0) or `seeds` (the first ON cell sets it).  The fold is
%   linear only where every step applies to one running value from 0.
total(states, Start, Steps, Total) :-
    state_total(Start, Steps, Total).
total(reified, Start, Steps, Total) :-
    reified_total(Start, Steps, Total).
total(fold, Start, Steps, Total) :-
    (   Start == zero,
        \+ memberchk(step(op(_, _, starts), _), Steps)
    ->  foldl(linear_step, Steps, 0, Total)
    ;   reified_total(Start, Steps, Total)
    ).

% The fold of the fold encoding, over the term alone (the sum stays 0).
linear_step(step(Operation, On), V0, V) :-
    bounds_of(V0, Bounds0),
    reached(zero, Operation, b(0..0, Bounds0), b(_, Bounds)),
    V in Bounds,
    linear_or_reified(Operation, On, V0, V).

linear_or_reified(op(Op, N, _), On, V0, V) :-
    operator(Op, sum, N, 0, D, Relation), !,
    value(Relation),
    V #= V0 + D*On.
linear_or_reified(Operation, On, V0, V) :-
    effect(Operation, 0-V0, 0-V, Constraints),
    conjunction(Constraints, Effect),
    On #==> Effect,
    #\ On #==> V #= V0.

reified_total(Start, Steps, Total) :-
    start_state(Start, State0),
    foldl(reified_step(Start), Steps, State0, state(_, Sum, Term)),
    Total #= Sum + Term.

reified_step(Start, step(Operation, On), state(Started0, S0, T0), state(Started, S, T)) :-
    bounds_of(S0, SumBounds0),
    bounds_of(T0, TermBounds0),
    reached(Start, Operation, b(SumBounds0, TermBounds0), b(SumBounds, TermBounds)),
    effect(Operation, S0-T0, S-T, Constraints),
    S in SumBounds,
    T in TermBounds,
    Started #<==> Started0 #\/ On,
    conjunction(Constraints, Effect),
    On #/\ Started0 #==> Effect,
    Operation = op(_, N, _),
    On #/\ #\ Started0 #==> S #= 0 #/\ T #= N,
    #\ On #==> S #= S0 #/\ T #= T0.

conjunction([C], C) :- !.
conjunction([C|Cs], C #/\ Rest) :-
    conjunction(Cs, Rest).

bounds_of(V, Lo..Hi) :-
    fd_inf(V, Lo),
    fd_sup(V, Hi).

%!  reached(+Start, +Operation, +Bounds0, -Bounds) is det.
%
%   Bounds, b(SumLo..SumHi, TermLo..TermHi), holds every state a step can
%   reach from a state within Bounds0, on or off: what the effect of an ON
%   cell propagates from Bounds0, and with Start = seeds, the state a first
%   ON cell seeds.
reached(Start, Operation, Bounds0, Bounds) :-
    findall(B, reach(Start, Operation, Bounds0, B), Reached),
    hull(Reached, Bounds).

reach(_, _, Bounds, Bounds).
reach(_, Operation, b(SumBounds0, TermBounds0), b(SumBounds, TermBounds)) :-
    S0 in SumBounds0,
    T0 in TermBounds0,
    effect(Operation, S0-T0, S-T, Constraints),
    maplist(call, Constraints),
    bounds_of(S, SumBounds),
    bounds_of(T, TermBounds).
reach(seeds, op(_, N, _), _, b(0..0, N..N)).

hull([Bounds|More], Hull) :-
    foldl(widened, More, Bounds, Hull).

widened(b(Sum1, Term1), b(Sum0, Term0), b(Sum, Term)) :-
    spanned(Sum0, Sum1, Sum),
    spanned(Term0, Term1, Term).

spanned(Lo0..Hi0, Lo1..Hi1, Lo..Hi) :-
    Lo is min(Lo0, Lo1),
    Hi is max(Hi0, Hi1).

%!  state_total(+Start, +Steps, +Total) is semidet.
%
%   The states encoding.  The states each step can reach are worked out
%   ahead, layer by layer, then pruned back to those on a way to Total and
%   numbered; each step is then a table constraint over [State0, On,
%   State], by number, whatever a state holds.  Fails when no way reaches
%   Total.
%   A reading with more than max_states/1 states in all is stated as `fold`
%   states it instead: its tables would cost more than they prune.
state_total(Start, Steps, Total) :-
    start_state(Start, State0),
    max_states(Max),
    (   layers(Steps, [State0], Max, Layers)
    ->  tables(Steps, Layers, Total, Tables, [State0]),
        foldl(table_step, Steps, Tables, 0, _)
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

%   Tables holds each step's transitions that lead on to Total, from and to
%   the numbers of states among those that do; Reaching, the states of the
%   first layer they start from, in order.
tables([], [Last], Total, [], Reaching) :-
    include(has_value(Total), Last, Reaching).
tables([Step|Steps], [Layer|Layers], Total, [Table|Tables], Reaching) :-
    tables(Steps, Layers, Total, Tables, Next),
    numbered(Next, To),
    findall(S0-[On, I],
            ( member(S0, Layer),
              transition(Step, On, S0, S),
              get_assoc(S, To, I) ),
            Moves),
    pairs_keys(Moves, Sources),
    sort(Sources, Reaching),
    numbered(Reaching, From),
    findall([I0, On, I], ( member(S0-[On, I], Moves), get_assoc(S0, From, I0) ), Table).

has_value(Total, state(_, Sum, Term)) :-
    Total =:= Sum + Term.

%   Numbers maps each of the ordered States to its place, from 0.
numbered(States, Numbers) :-
    findall(S-I, nth0(I, States, S), Pairs),
    ord_list_to_assoc(Pairs, Numbers).

%!  transition(+Step, ?On, +State0, -State) is nondet.
%
%   The state a step leads to, OFF (0) or ON (1): the effect of an ON cell,
%   or the seed of a first ON cell.  No ON transition when the effect has
%   no value (a division that is not exact).
transition(_, 0, State, State).
transition(step(Operation, _), 1, state(1, S0, T0), state(1, S, T)) :-
    effect(Operation, S0-T0, S-T, Constraints),
    maplist(value, Constraints).
transition(step(op(_, N, _), _), 1, state(0, _, _), state(1, 0, N)).

%   Relation holds for known values: arithmetic where it is V #= Expr, CLP(FD) otherwise.
value(V #= Expr) :-
    var(V),
    ground(Expr), !,
    V is Expr.
value(Relation) :-
    call(Relation).

table_step(step(_, On), Table, I0, I) :-
    tuples_in([[I0, On, I]], Table).


%!  constraints(+Puzzle, -Ons, -Named, -Goals) is det.
%
%   The puzzle's own constraints as people write them by hand, for an
%   exported program to read: Goals are CLP(FD) goals on Ons, a 0/1
%   variable per cell (not posted).  A count is a sum; a total is one
%   equation that folds the line's operations in reading order, each cell
%   taking part through its variable: `+3` adds 3*On, `*3` multiplies by
%   1+2*On; `/2` divides by 1+On, and a goal before it says that division
%   is exact; `%3` takes the remainder when on.  Then the labeling.  Named
%   names no other variable.  Lines started by their first ON cell
%   (first_cell seeds) or read with standard precedence have no such
%   single equation: a usage error says so.
constraints(Puzzle, Ons, [], Goals) :-
    _{cells: CellData, lines: Readings, first_cell: First} :< Puzzle,
    precedence(Puzzle, Precedence),
    (   atom_string(zero, First),
        Precedence == 'left-to-right'
    ->  true
    ;   throw(crossprolog_usage(readable, "lines started by their first ON cell (first-cell: seeds) or read with standard precedence are not written as one equation each; export the program instead"))
    ),
    maplist(operation, CellData, Operations),
    same_length(Operations, Ons),
    foldl(reading_goals(Operations, Ons), Readings, LineGoals, []),
    append([[Ons ins 0..1], LineGoals, [labeling([ff], Ons)]], Goals).

reading_goals(Operations, Ons, Reading, Goals0, Goals) :-
    _{cells: Indices, kind: KindText, value: Value} :< Reading,
    atom_string(Kind, KindText),
    maplist(cell(Operations, Ons), Indices, Cells),
    reading_statement(Kind, Cells, Value, Goals0, Goals).

reading_statement(#, Cells, Count, [Sum #= Count|Goals], Goals) :-
    maplist(cell_on, Cells, [On|Ons]),
    foldl(plus_expression, Ons, On, Sum).
reading_statement(=, Cells, Total, Goals0, Goals) :-
    foldl(folded, Cells, 0-Goals0, Expression-[Expression #= Total|Goals]).

cell_on(cell(_, On), On).

plus_expression(Term, Expression, Expression + Term).

%!  folded(+Step, +Expression0-Goals0, -Expression-Goals) is det.
%
%   Expression is Expression0 with the step's operation applied when its
%   cell is on; Goals0 holds, before Goals, a goal that an ON division is
%   exact.  A step that changes nothing (+0, *1, /1, or * and / on 0)
%   leaves the expression as it is.
folded(cell(op(Op, N, _), On), Expression0-Goals0, Expression-Goals) :-
    factor(Op, N, On, Factor),
    folded_step(Op, N, On, Factor, Expression0, Expression, Goals0, Goals).

folded_step(+, N, On, _, E0, E, Goals, Goals) :-
    added(E0, N, On, E).
folded_step(-, N, On, _, E0, E, Goals, Goals) :-
    Minus is -N,
    added(E0, Minus, On, E).
folded_step(*, _, _, Factor, E0, E, Goals, Goals) :-
    (   ( E0 == 0 ; Factor == 1 )
    ->  E = E0
    ;   E = E0 * Factor
    ).
folded_step('%', N, On, _, E0, E, Goals, Goals) :-
    (   E0 == 0
    ->  E = E0
    ;   E = E0 - On * (E0 - E0 rem N)
    ).
folded_step(/, _, _, Factor, E0, E, Goals0, Goals) :-
    (   ( E0 == 0 ; Factor == 1 )
    ->  E = E0,
        Goals0 = Goals
    ;   E = E0 // Factor,
        Goals0 = [E0 mod Factor #= 0|Goals]
    ).

%   E0 plus N times On, written as a person would.
added(E0, 0, _, E0) :- !.
added(E0, N, On, E) :-
    times_on(N, On, Term),
    (   E0 == 0
    ->  E = Term
    ;   N < 0
    ->  Positive is -N,
        times_on(Positive, On, Subtracted),
        E = E0 - Subtracted
    ;   E = E0 + Term
    ).

times_on(1, On, On) :- !.
times_on(-1, On, -On) :- !.
times_on(N, On, N*On).

%   What a * or / cell multiplies or divides by: N when on, 1 when off.
factor(Op, N, On, Factor) :-
    memberchk(Op, [*, /]), !,
    K is N - 1,
    (   K =:= 0
    ->  Factor = 1
    ;   K =:= -1
    ->  Factor = 1 - On
    ;   times_on(K, On, Term),
        Factor = 1 + Term
    ).
factor(_, _, _, 1).
