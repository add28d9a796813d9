:- module(crosscells_rules,
          [ operator/6,         % ?Op, ?Tier, ?N, ?V0, ?V, -Relation
            operation/2,        % +CellData, -Operation
            precedence/2,       % +Puzzle, -Precedence
            steps/4,            % +Precedence, +Cells, -Steps, -Products
            start_state/2,      % ?Start, ?State
            transition/4,       % +Step, ?On, +State0, -State
            has_value/2,        % +Total, +State
            max_states/1,       % -Max
            solved/4,           % +Relation, ?V0, ?V, -Goal
            exact_quotient/3,   % +V0, +N, -V
            relation_value/2,   % +Relation, ?V
            bounds_of/2,        % +V, -Bounds
            reading_holds/5,    % +Totals, +Rules, +Operations, +Ons, +Reading
            cell/4              % +Operations, +Ons, +I, -Cell
          ]).
/** <module> CrossCells' rules: the operators, and a line's total in CLP(FD).

operator/6 is the table every CrossCells encoding reads its operations
from (see crosscells.pl for the rules and the puzzle as Python sends it).
This module turns a line's cells into steps (steps/4) and states what a
line comes to three ways, as CLP(FD) constraints (reading_holds/5): as
tables over the line's states (`states`), as a fold (`fold`), or reified
step by step (`reified`).  The masks encoding (crosscells_lines.pl,
crosscells_masks.pl) reasons over the same states, worked out with
start_state/2 and transition/4, without CLP(FD).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the layers and exact_quotient/3 run once per state
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%!  operator(?Op, ?Tier, ?N, ?V0, ?V, -Relation) is nondet.
%
%   The operators, one row each; everything else in CrossCells' modules
%   follows from this table.  Relation is the CLP(FD) constraint that holds when V
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
