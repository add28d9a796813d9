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
encoding(masks,      masks,   masks).
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
    (   Totals == masks
    ->  masks_model(rules(Start, Precedence), Operations, Readings, Ons, Labeling, Puzzle)
    ;   Ons ins 0..1,
        maplist(reading_holds(Totals, rules(Start, Precedence), Operations, Ons), Readings),
        maplist(reading_ons(Ons), Readings, Lines),
        labeling_of(Search, Lines, Ons, Labeling)
    ).

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

arg_of(Term, N, Arg) :-
    arg(N, Term, Arg).

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
    solved(Relation, 0, V, Goal),
    \+ \+ catch(Goal, error(evaluation_error(_), _), fail).

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
    ;   throw(crossprolog_usage("--readable writes each line as one equation, which lines started by their first ON cell (first-cell: seeds) or read with standard precedence are not; export without --readable"))
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


                 /*******************************
                 *   MASKS: STATE SETS AS BITS   *
                 *******************************/

%   The masks encoding reasons as states does (each line arc consistent
%   over the states it can pass through), but in plain Prolog on a word
%   or two per layer instead of CLP(FD) propagators: a line's states, once
%   pruned to those on a way to its total, are few (a median of 29 in all
%   for a 15x15 line, at most 133 in 20x20), so the set of states still
%   alive between two cells is an integer whose bit R stands for the
%   state of rank R.  An OFF cell keeps the state, the same bit; an ON
%   cell moves each state by the difference of ranks its operation makes,
%   and the moves of a step are grouped by that difference, so the image
%   of a set is a few ANDs and shifts.  A sweep forward and back over a
%   line keeps the states on a way from its start to its total and
%   settles every cell only one of whose values has such a way.  Setting
%   a cell is binding a plain variable, and the sets live in a term
%   changed with setarg/3, so backtracking restores them: no attributed
%   variable wakes up (posting and waking CLP(FD) tables took about 20,000
%   inferences per choice on 15x15 puzzles).
%
%   Why this is not on the grid kernel (grid.pl), which Sudoku and KenKen
%   use: the kernel's lines are tables of fillings, one integer per way
%   to fill the line, and a CrossCells line of 15 ON/OFF cells has up to
%   2^15 of them (a thousand or more on a 15x15 line with a loose total),
%   where its states number a few dozen.  A table of fillings is a flat
%   automaton; the states, layer by layer, are its compact form, and the
%   sweep above is the kernel's table support done on that form.  The
%   kernel also reasons about digits in units (singles, a digit taken
%   from a unit), which ON/OFF cells do not have.
%
%   The state of the search is
%
%       masks(Values, Lines, CellLines, Unset, Pending, Open, OnCounts)
%
%   Values: one plain variable per cell (1-based), bound when the cell is
%   set; Lines: lines(Line, ...), each count(Cells, Count) or
%   total(Cells, Alive, Moves), with Cells a term of cell numbers in
%   reading order, Alive alive(A0, ..., AL) the sets of states alive before
%   each cell and after the last, and Moves moves(G1, ..., GL), Gk the
%   moves of an ON k-th cell as a list of move(Sources, Shift); CellLines:
%   for each cell the set of its lines (bit J for line J, from 1); Unset:
%   for each line the number of its cells not set; Pending: the set of
%   lines whose cells changed since they were last swept; Open: the
%   number of cells not set; OnCounts: for each line the number of its
%   cells set ON.  The Ons of model/4 are bound to Values once
%   every cell is set.

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the sweeps are all masks

%!  masks_model(+Rules, +Operations, +Readings, +Ons, -Labeling, +Puzzle) is semidet.
%
%   Posts nothing on Ons (the search binds them to 0 or 1; a CLP(FD)
%   domain would wake up at each binding, a tenth of a 15x15 check): builds the search state,
%   propagates every line once (failing when the lines are inconsistent)
%   and gives the labeling.  A puzzle with a line of more than max_states/1
%   states is left to the restarts encoding, which states such a line as
%   fold does.
masks_model(Rules, Operations, Readings, Ons, Labeling, Puzzle) :-
    OperationsOf =.. [operations|Operations],   % by cell number: a line's are looked up, not searched
    foldl(mask_line(Rules, OperationsOf), Readings, Lines0, fits, Fits),
    (   Fits == too_many_states
    ->  model(restarts, Puzzle, Ons, Labeling)
    ;   length(Ons, N),
        length(Vs, N),
        Values =.. [values|Vs],
        Lines =.. [lines|Lines0],
        cell_lines(Lines0, N, CellLines),
        maplist(line_length, Lines0, Lengths),
        Unset =.. [unset|Lengths],
        length(Lines0, M),
        length(Zeros, M),
        maplist(=(0), Zeros),
        OnCounts =.. [on_counts|Zeros],
        All is (1 << (M + 1)) - 2,
        Grid = masks(Values, Lines, CellLines, Unset, All, N, OnCounts, none),
        propagate_masks(Grid),
        Unit is max(N * N, 5_000),      % inferences: twice as many cost a tenth more
        Labeling = masks_labeling(Grid, Unit, Ons)
    ).

%!  mask_line(+Rules, +OperationsOf, +Reading, -Line, +Fits0, -Fits) is semidet.
%
%   Line is the count or total line of Reading (OperationsOf holds each
%   cell's operation, by cell number from 1); Fits becomes
%   too_many_states when its states outnumber max_states/1.  Fails when
%   no way through the line reaches its total.
mask_line(Rules, OperationsOf, Reading, Line, Fits0, Fits) :-
    _{cells: Indices, kind: KindText, value: Value} :< Reading,
    atom_string(Kind, KindText),
    maplist(succ, Indices, Numbers),
    Cells =.. [cells|Numbers],
    (   Kind == (#)
    ->  Line = count(Cells, Value),
        Fits = Fits0
    ;   maplist(arg_of(OperationsOf), Numbers, LineOperations),
        line_states(Rules, LineOperations, Value, States),
        (   States = states(Alive, Moves)
        ->  Line = total(Cells, Alive, Moves),
            Fits = Fits0
        ;   States == too_many_states
        ->  Line = none,
            Fits = too_many_states
        )
    ).

%!  line_states(+Rules, +Operations, +Total, -States) is det.
%
%   States is states(Alive, Moves) of a total line whose cells hold
%   Operations (see total_line/6), too_many_states, or no_way when no way
%   through the line reaches Total.
%   Worked out once and kept as a fact, the last few hundred lines only: a
%   line's states depend on nothing else, and making a puzzle asks about
%   the same lines a hundred times or more (a 15x15's 122 questions post
%   3,363 total lines, 43 of them different), as hints and blame do.
:- dynamic known_lines/3.
:- multifile crossprolog:worked_out/1.
crossprolog:worked_out(crosscells:known_lines/3).

line_states(Rules, Operations, Total, States) :-
    Key = line(Rules, Operations, Total),
    term_hash(Key, Hash),
    (   known_lines(Hash, Key, Known)
    ->  States = Known
    ;   worked_out_states(Rules, Operations, Total, States),
        assertz(known_lines(Hash, Key, States)),
        forget_old_lines(512)
    ).

forget_old_lines(Kept) :-
    (   predicate_property(known_lines(_, _, _), number_of_clauses(N)),
        N > Kept
    ->  once(retract(known_lines(_, _, _)))
    ;   true
    ).

worked_out_states(rules(Start, Precedence), Operations, Total, States) :-
    maplist(cell_operation, Operations, CellOps),
    steps(Precedence, CellOps, Steps, _),
    max_states(Max),
    (   \+ ( Start == zero,
             \+ memberchk(step(op(_, _, starts), _), Steps) )
    ->  start_state(Start, State0),
        Forward = forward_layers(Steps, [State0], Max, Layers, Moves),
        Reaching = reaching(Total)
    ;   State0 = 0,                    % the state is the value: its term, the sum staying 0
        coming_to(Steps, Total, Within),
        Forward = value_layers(Steps, Within, [State0], Max, Layers, Moves),
        Reaching = [Total]
    ),
    (   call(Forward)
    ->  (   total_line(Layers, Moves, State0, Reaching, Alive, MoveGroups)
        ->  States = states(Alive, MoveGroups)
        ;   States = no_way
        )
    ;   States = too_many_states
    ).

cell_operation(Operation, cell(Operation, _)).

%!  forward_layers(+Steps, +Layer0, +Budget, -Layers, -Moves) is semidet.
%
%   Layers lists the states reachable before each step and after the
%   last (ordered sets); Moves, for each step, its ON moves To-From
%   (keysorted).  Fails past Budget states in all.
forward_layers([], Layer, _, [Layer], []).
forward_layers([Step|Steps], Layer0, Budget0, [Layer0|Layers], [Moves|MovesRest]) :-
    findall(To-From, ( member(From, Layer0), transition(Step, 1, From, To) ), Moves0),
    next_layer(Moves0, Layer0, Budget0, Moves, Layer, Budget),
    forward_layers(Steps, Layer, Budget, Layers, MovesRest).

%   The moves keysorted, and the layer they lead to with the states kept
%   (OFF cells move nothing), within what is left of the budget.
next_layer(Moves0, Layer0, Budget0, Moves, Layer, Budget) :-
    keysort(Moves0, Moves),
    pairs_keys(Moves, Tos),
    append(Layer0, Tos, All),
    sort(All, Layer),
    length(Layer, Count),
    Budget is Budget0 - Count,
    Budget >= 0.

%!  value_layers(+Steps, +Within, +Layer0, +Budget, -Layers, -Moves) is semidet.
%
%   As forward_layers/5, for a reading whose states are its values (it
%   starts at 0, and every step applies to the one running value): a
%   step's moves are its operation's arithmetic on each value of the
%   layer, worked out with `is` rather than through transition/4.  Each
%   layer keeps only the values within its bounds of Within (see
%   coming_to/3): the others have no way on to the total, and were six in
%   seven of the values a random 15x15's lines reach.
value_layers([], [], Layer, _, [Layer], []).
value_layers([step(op(Op, N, _), _)|Steps], [Bounds|Within], Layer0, Budget0, [Layer0|Layers],
             [Moves|MovesRest]) :-
    operator(Op, _, N, V0, V, Relation),
    solved(Relation, V0, V, Goal),
    findall(V-V0, ( member(V0, Layer0), call(Goal), within(Bounds, V) ), Moves0),
    include(within(Bounds), Layer0, Kept),
    next_layer(Moves0, Kept, Budget0, Moves, Layer, Budget),
    value_layers(Steps, Within, Layer, Budget, Layers, MovesRest).

%!  coming_to(+Steps, +Total, -Within) is det.
%
%   Within holds, for the point after each step, bounds Lo..Hi of the
%   values there from which the steps after it may still come to Total
%   (the last: Total..Total).  Worked back from Total: the values before a
%   step are those after it (an OFF cell keeps the value) and those its
%   operation takes there (preimage/5; inf or sup: no bound on that side,
%   as before a `*0` or `%` cell).  Bounds may be loose, never too tight.
coming_to(Steps, Total, Within) :-
    reverse(Steps, Backward),
    foldl(bounds_before, Backward, Reversed, Total..Total, _),
    reverse(Reversed, Within).

bounds_before(step(op(Op, N, _), _), After, After, Before) :-
    operator(Op, _, N, V0, V, Relation),
    (   preimage(Relation, V0, V, After, Taken)
    ->  spanned_or_open(After, Taken, Before)
    ;   Before = After                  % no value before the step takes an ON cell there
    ).

%!  preimage(+Relation, ?V0, ?V, +After, -Before) is semidet.
%
%   Before bounds the values of V0 from which Relation gives V within
%   After; fails when there are none.  Plain arithmetic for the forms the
%   operators' relations take (a number added, subtracted, multiplied by,
%   or divided by exactly), as solved/4 solves them; CLP(FD) for any other,
%   which costs about as much as the values it saves sweeping.
preimage(Relation, V0, V, Lo..Hi, Before) :-
    Relation = (Left #= Right),
    Left == V,
    Right =.. [Op, X, N],
    X == V0,
    integer(N),
    N >= 0,
    memberchk(Op, [+, -, *]), !,
    preimage_of(Op, N, Lo, Hi, Before).
preimage(Relation, V0, V, Lo..Hi, Lo1..Hi1) :-   % V0 #= V * N: an exact division by N
    Relation = (Left #= V1 * N),
    Left == V0,
    V1 == V,
    integer(N),
    N > 0, !,
    scaled(Lo, N, Lo1),
    scaled(Hi, N, Hi1).
preimage(Relation, V0, V, After, Before) :-
    findall(Bounds, ( V in After, call(Relation), bounds_of(V0, Bounds) ), [Before]).

preimage_of(+, N, Lo, Hi, Lo1..Hi1) :-
    shifted(Lo, -N, Lo1),
    shifted(Hi, -N, Hi1).
preimage_of(-, N, Lo, Hi, Lo1..Hi1) :-
    shifted(Lo, N, Lo1),
    shifted(Hi, N, Hi1).
preimage_of(*, 0, Lo, Hi, inf..sup) :-
    ( Lo == inf -> true ; Lo =< 0 ),
    ( Hi == sup -> true ; Hi >= 0 ).
preimage_of(*, N, Lo, Hi, Lo1..Hi1) :-
    N > 0,
    (   Lo == inf
    ->  Lo1 = inf
    ;   Lo1 is -((-Lo) div N)           % the least V0 with V0 * N >= Lo
    ),
    (   Hi == sup
    ->  Hi1 = sup
    ;   Hi1 is Hi div N
    ),
    ( ( Lo1 == inf ; Hi1 == sup ) -> true ; Lo1 =< Hi1 ).

shifted(Bound, _, Bound) :- atom(Bound), !.
shifted(Bound, D, Shifted) :- Shifted is Bound + D.

scaled(Bound, _, Bound) :- atom(Bound), !.
scaled(Bound, N, Scaled) :- Scaled is Bound * N.

%   The hull of two bounds, either side of which may be open (inf, sup).
spanned_or_open(Lo0..Hi0, Lo1..Hi1, Lo..Hi) :-
    (   ( Lo0 == inf ; Lo1 == inf )
    ->  Lo = inf
    ;   Lo is min(Lo0, Lo1)
    ),
    (   ( Hi0 == sup ; Hi1 == sup )
    ->  Hi = sup
    ;   Hi is max(Hi0, Hi1)
    ).

within(Lo..Hi, V) :-
    ( Lo == inf -> true ; V >= Lo ),
    ( Hi == sup -> true ; V =< Hi ).

%!  solved(+Relation, ?V0, ?V, -Goal) is det.
%
%   Goal gives V from a known V0 as Relation does, or fails where V has no
%   value: Relation solved for V as plain arithmetic where it has a form
%   that solves (V #= Expr, or V0 #= V * N: an exact division), and
%   Relation itself (CLP(FD)) otherwise.
solved(Relation, _, V, V is Expr) :-
    Relation = (Left #= Expr),
    Left == V, !.
solved(Relation, V0, V, exact_quotient(V0, N, V)) :-
    Relation = (Left #= Right * N),
    Left == V0,
    Right == V,
    integer(N),
    N =\= 0, !.
solved(Relation, _, V, relation_value(Relation, V)).

%   One goal each, not a conjunction: call/1 of a conjunction compiles it
%   anew at every call, and these are called once per state.
exact_quotient(V0, N, V) :-
    V0 mod N =:= 0,
    V is V0 // N.

relation_value(Relation, V) :-
    call(Relation),
    integer(V).

%!  total_line(+Layers, +Moves, +State0, +Reaching, -Alive, -MoveGroups) is semidet.
%
%   Alive holds the states of Layers pruned back to those on a way to the
%   states of Reaching (the ordered states that make the total, or
%   reaching(Total) for those of the last layer that do), ranked, as sets
%   (bits) per layer; MoveGroups each step's ON moves between them grouped
%   by shift.  Fails when State0 is on no way to Total.
total_line(Layers, Moves, State0, Reaching0, Alive, MoveGroups) :-
    last(Layers, Last),
    (   Reaching0 = reaching(Total)
    ->  include(has_value(Total), Last, Reaching)
    ;   Reaching = Reaching0
    ),
    backward_layers(Layers, Moves, Reaching, Kept, Edges),
    Kept = [[State0]|_],
    append(Kept, AllStates),
    sort(AllStates, States),
    findall(S-R, nth0(R, States, S), Ranked),
    ord_list_to_assoc(Ranked, Ranks),
    maplist(layer_mask(Ranks), Kept, Masks),
    Alive =.. [alive|Masks],
    maplist(move_groups(Ranks), Edges, Groups),
    MoveGroups =.. [moves|Groups].

%   Kept: the states of each layer on a way to the last layer's Reaching;
%   Edges, for each step, the ON moves To-From between kept states.
backward_layers([Layer], [], Reaching, [Kept], []) :- !,
    ord_intersection(Layer, Reaching, Kept).
backward_layers([Layer|Layers], [Moves|MovesRest], Reaching, [Kept, Next|Rest], [Edges|EdgesRest]) :-
    backward_layers(Layers, MovesRest, Reaching, [Next|Rest], EdgesRest),
    ord_intersection(Layer, Next, Stay),
    moves_into(Moves, Next, Edges),
    pairs_values(Edges, Froms),
    append(Stay, Froms, Both),
    sort(Both, Kept).

%   The moves (keysorted To-From) whose To is in the ordered set Next.
moves_into([], _, []).
moves_into([To-From|Moves], Next, Edges) :-
    moves_into_(Next, To, From, Moves, Edges).

moves_into_([], _, _, _, []).
moves_into_([N|Ns], To, From, Moves, Edges) :-
    compare(Order, To, N),
    moves_into_(Order, To, From, Moves, N, Ns, Edges).

moves_into_(<, _, _, Moves, N, Ns, Edges) :-
    moves_into(Moves, [N|Ns], Edges).
moves_into_(=, To, From, Moves, N, Ns, [To-From|Edges]) :-
    moves_into(Moves, [N|Ns], Edges).
moves_into_(>, To, From, Moves, _, Ns, Edges) :-
    moves_into_(Ns, To, From, Moves, Edges).

layer_mask(Ranks, Layer, Mask) :-
    foldl(rank_bit(Ranks), Layer, 0, Mask).

rank_bit(Ranks, State, Mask0, Mask) :-
    get_assoc(State, Ranks, R),
    Mask is Mask0 \/ (1 << R).

%   The ON moves of a step, grouped by how far they shift a state's rank:
%   move(Sources, Shift), Sources the set of states that move by Shift.
move_groups(Ranks, Edges, Groups) :-
    maplist(edge_shift(Ranks), Edges, Shifted),
    keysort(Shifted, Sorted),
    group_pairs_by_key(Sorted, ByShift),
    maplist(shift_group, ByShift, Groups).

edge_shift(Ranks, To-From, Shift-Bit) :-
    get_assoc(To, Ranks, RTo),
    get_assoc(From, Ranks, RFrom),
    Shift is RTo - RFrom,
    Bit is 1 << RFrom.

shift_group(Shift-Bits, move(Sources, Shift)) :-
    sum_list(Bits, Sources).

line_length(count(Cells, _), N) :-
    functor(Cells, _, N).
line_length(total(Cells, _, _), N) :-
    functor(Cells, _, N).

%   CellLines holds, for each of the N cells, the set of lines it is in.
cell_lines(Lines, N, CellLines) :-
    length(Zeros, N),
    maplist(=(0), Zeros),
    CellLines =.. [cell_lines|Zeros],
    foldl(line_cells_bit(CellLines), Lines, 1, _).

%   The cells of line J get bit J (CellLines is fresh: nb_setarg/3 is safe).
line_cells_bit(CellLines, Line, J, J1) :-
    arg(1, Line, Cells),
    functor(Cells, _, Length),
    Bit is 1 << J,
    forall(between(1, Length, K),
           ( arg(K, Cells, I), arg(I, CellLines, B0), B is B0 \/ Bit, nb_setarg(I, CellLines, B) )),
    J1 is J + 1.

%!  set_cell(+Grid, +I, +Value) is semidet.
%
%   Cell I is Value: its lines become pending.  Fails when it is set to
%   the other value already.
set_cell(Grid, I, Value) :-
    Grid = masks(Values, _, CellLines, Unset, Pending0, Open0, OnCounts, _),
    arg(I, Values, X),
    (   var(X)
    ->  X = Value,
        arg(I, CellLines, Bits),
        one_less_unset(Bits, Unset),
        (   Value =:= 1
        ->  one_more_on(Bits, OnCounts)
        ;   true
        ),
        Pending is Pending0 \/ Bits,
        setarg(5, Grid, Pending),
        Open is Open0 - 1,
        setarg(6, Grid, Open)
    ;   X =:= Value
    ).

one_more_on(0, _) :- !.
one_more_on(Bits, OnCounts) :-
    J is lsb(Bits),
    arg(J, OnCounts, N0),
    N is N0 + 1,
    setarg(J, OnCounts, N),
    Rest is Bits xor (1 << J),
    one_more_on(Rest, OnCounts).

one_less_unset(0, _) :- !.
one_less_unset(Bits, Unset) :-
    J is lsb(Bits),
    arg(J, Unset, N0),
    N is N0 - 1,
    setarg(J, Unset, N),
    Rest is Bits xor (1 << J),
    one_less_unset(Rest, Unset).

%!  propagate_masks(+Grid) is semidet.
%
%   Sweeps the pending lines until none is; fails when a line has no way
%   left.  A line's sweep leaves it consistent, so the cells it sets do
%   not make it pending again.
propagate_masks(Grid) :-
    arg(5, Grid, Pending),
    (   Pending =:= 0
    ->  true
    ;   J is lsb(Pending),
        Rest is Pending xor (1 << J),
        setarg(5, Grid, Rest),
        arg(2, Grid, Lines),
        arg(J, Lines, Line),
        (   sweep(Line, J, Grid)
        ->  true
        ;   arg(8, Grid, Weights),
            weighed(Weights, J),
            fail
        ),
        arg(5, Grid, After),
        Left is After /\ \ (1 << J),
        setarg(5, Grid, Left),
        propagate_masks(Grid)
    ).

%!  sweep(+Line, +J, +Grid) is semidet.
%
%   A count: the ON cells so far are at most the count, and with the
%   unset ones at least; when either is exact the unset cells are set.  A
%   total: the states alive are narrowed to those on a way from the start
%   to the total, forward then back, and a cell only one of whose values
%   lies on such a way takes it.
sweep(count(Cells, Count), J, Grid) :-
    Grid = masks(Values, _, _, UnsetCounts, _, _, OnCounts, _),
    arg(J, OnCounts, Ons),
    arg(J, UnsetCounts, Unset),
    functor(Cells, _, N),
    Ons =< Count,
    Ons + Unset >= Count,
    (   Unset =:= 0
    ->  true
    ;   Ons =:= Count
    ->  set_unset(1, N, Cells, Values, 0, Grid)
    ;   Ons + Unset =:= Count
    ->  set_unset(1, N, Cells, Values, 1, Grid)
    ;   true
    ).
sweep(total(Cells, Alive, Moves), _, Grid) :-
    arg(1, Grid, Values),
    functor(Cells, _, N),
    arg(1, Alive, A0),
    forward_back(0, N, A0, Cells, Alive, Moves, Values, Grid, B0),
    (   B0 =:= A0
    ->  true
    ;   setarg(1, Alive, B0)
    ).

set_unset(K, N, Cells, Values, Value, Grid) :-
    (   K > N
    ->  true
    ;   arg(K, Cells, I),
        arg(I, Values, X),
        (   var(X)
        ->  set_cell(Grid, I, Value)
        ;   true
        ),
        K1 is K + 1,
        set_unset(K1, N, Cells, Values, Value, Grid)
    ).

%!  forward_back(+K, +N, +F, +Cells, +Alive, +Moves, +Values, +Grid, -B) is semidet.
%
%   F is the set of states alive before cell K+1 that the start reaches;
%   B those of them from which the total is reached.  Forward, each cell
%   lets states through by its values still allowed (OFF: the same
%   state, ON: its moves); back, a cell left one value with a way through
%   takes it, and each layer keeps what it reached both ways.
forward_back(N, N, F, _, _, _, _, _, F) :- !,
    F =\= 0.
forward_back(K, N, F, Cells, Alive, Moves, Values, Grid, B) :-
    K1 is K + 1,
    arg(K1, Cells, I),
    arg(I, Values, X),
    arg(K1, Moves, Groups),
    K2 is K + 2,
    arg(K2, Alive, A1),
    (   var(X)
    ->  image(Groups, F, 0, Moved),
        F1 is A1 /\ (F \/ Moved)
    ;   X =:= 0
    ->  F1 is A1 /\ F
    ;   image(Groups, F, 0, Moved),
        F1 is A1 /\ Moved
    ),
    F1 =\= 0,
    forward_back(K1, N, F1, Cells, Alive, Moves, Values, Grid, B1),
    (   B1 =:= A1
    ->  true
    ;   setarg(K2, Alive, B1)
    ),
    (   var(X)
    ->  Off is F /\ B1,
        preimage(Groups, B1, 0, Back),
        On is F /\ Back,
        B is Off \/ On,
        (   Off =:= 0
        ->  set_cell(Grid, I, 1)
        ;   On =:= 0
        ->  set_cell(Grid, I, 0)
        ;   true
        )
    ;   X =:= 0
    ->  B is F /\ B1
    ;   preimage(Groups, B1, 0, Back),
        B is F /\ Back
    ).

%   The states the moves take the set States to.
image([], _, Image, Image).
image([move(Sources, Shift)|Moves], States, Image0, Image) :-
    Image1 is Image0 \/ ((States /\ Sources) << Shift),
    image(Moves, States, Image1, Image).

%   The states the moves take into the set States.
preimage([], _, Pre, Pre).
preimage([move(Sources, Shift)|Moves], States, Pre0, Pre) :-
    Pre1 is Pre0 \/ ((States >> Shift) /\ Sources),
    preimage(Moves, States, Pre1, Pre).

%!  masks_labeling(+Grid, +Unit, ?Ons) is nondet.
%
%   Ons, each solution in turn: the cells a caller bound or restricted
%   after model/4 are set first, then the search runs in restarted
%   attempts (see restarted/3) within Unit * luby(K) inferences each.
%   Every line starts with weight 1, and a line's weight grows by one
%   each time its sweep fails; the weights outlive backtracking and
%   restarts (they are set with nb_setarg/3), so later choices and
%   attempts look first where earlier ones failed.  They start afresh
%   with each call, so a call's solutions come in the same order each
%   time.
masks_labeling(Grid, Unit, Ons) :-
    arg(2, Grid, Lines),
    functor(Lines, _, M),
    functor(Weights, weights, M),
    findall(J, between(1, M, J), Js),
    forall(member(J, Js), nb_setarg(J, Weights, 1)),
    setarg(8, Grid, Weights),
    foldl(set_outside(Grid), Ons, 1, _),
    propagate_masks(Grid),
    restarted(masks_attempt(Grid, Ons), Unit, Ons).

set_outside(Grid, On, I, I1) :-
    (   var(On)
    ->  true
    ;   set_cell(Grid, I, On)
    ),
    I1 is I + 1.

%!  masks_attempt(+Grid, +Ons, +K, -Labeling) is det.
%
%   Attempt K labels as masks_search/4 does, the ties between lines
%   broken in the K-th order of shuffled/3 (the first attempt: in
%   reading order), OFF first in two attempts of four, ON first in the
%   others.
masks_attempt(Grid, Ons, K, masks_search(Grid, Order, Values, Ons)) :-
    arg(2, Grid, Lines),
    functor(Lines, _, M),
    findall(J, between(1, M, J), Js),
    (   K =:= 1
    ->  Order = Js
    ;   shuffled(K, Js, Order)
    ),
    values(K, Values).

%!  masks_search(+Grid, +Order, +Values, ?Ons) is nondet.
%
%   Sets the first unset cell of the line with the largest weight per
%   unset cell (the first such in Order) to each of Values in turn,
%   propagates, and goes on until every cell is set; then Ons are the
%   cells' values.  While no sweep has failed, that is the line with
%   the fewest unset cells, as in states: its constraint bites soonest.
%   Weighing the lines by their failures (as dom/wdeg weighs constraints)
%   takes the seed-1 15x15 checks from 7.7 M inferences to 3.5 M, and
%   the 20x20 ones from 15 M to 7 M.
masks_search(Grid, Order, Values, Ons) :-
    arg(6, Grid, Open),
    (   Open =:= 0
    ->  arg(1, Grid, Cells),
        Cells =.. [_|Ons]
    ;   arg(4, Grid, Unset),
        arg(8, Grid, Weights),
        heaviest(Order, Unset, Weights, none, 0, 1, J),
        arg(1, Grid, Vals),
        (   J == none                   % unset cells in no line
        ->  first_unset_cell(1, Vals, I)
        ;   arg(2, Grid, Lines),
            arg(J, Lines, Line),
            arg(1, Line, Cells),
            first_unset(1, Cells, Vals, I)
        ),
        member(V, Values),
        set_cell(Grid, I, V),
        propagate_masks(Grid),
        masks_search(Grid, Order, Values, Ons)
    ).

%   Line J failed once more (none: no weights, while the model posts).
weighed(none, _) :- !.
weighed(Weights, J) :-
    arg(J, Weights, W0),
    W is W0 + 1,
    nb_setarg(J, Weights, W).

%   Best is the line of Js with unset cells whose weight per unset cell
%   is largest (W0/U0 the best so far), the first such; none if no line
%   has unset cells.
heaviest([], _, _, J, _, _, J).
heaviest([J|Js], Unset, Weights, Best0, W0, U0, Best) :-
    arg(J, Unset, U),
    (   U > 0,
        arg(J, Weights, W),
        W * U0 > W0 * U
    ->  heaviest(Js, Unset, Weights, J, W, U, Best)
    ;   heaviest(Js, Unset, Weights, Best0, W0, U0, Best)
    ).

%   I is the first cell of Cells (cell numbers) not set.
first_unset(K, Cells, Values, I) :-
    arg(K, Cells, I0),
    arg(I0, Values, X),
    (   var(X)
    ->  I = I0
    ;   K1 is K + 1,
        first_unset(K1, Cells, Values, I)
    ).

%   I is the first cell not set.
first_unset_cell(K, Values, I) :-
    arg(K, Values, X),
    (   var(X)
    ->  I = K
    ;   K1 is K + 1,
        first_unset_cell(K1, Values, I)
    ).
