:- module(crosscells_lines,
          [ line_states/4       % +Rules, +Operations, +Total, -States
          ]).
/** <module> A CrossCells total line's states, as sets of bits for the masks encoding.

line_states/4 works out the states a total line can pass through (see
start_state/2 and transition/4 in crosscells_rules.pl), keeps those on a
way to its total, ranks them, and gives, for each point between two cells,
the set of states alive there as an integer (bit R for the state of rank
R), and for each cell the moves an ON cell makes, grouped by how far they
shift a rank.  crosscells_masks.pl searches with them.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(assoc)).
:- use_module(library(pairs)).
:- use_module(library(ordsets)).
:- use_module(crosscells_rules,
              [ operator/6, steps/4, start_state/2, transition/4, has_value/2, max_states/1,
                solved/4, exact_quotient/3, relation_value/2, bounds_of/2   % the last three: goals solved/4 gives
              ]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the layers are worked out state by state
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

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
crossprolog:worked_out(crosscells_lines:known_lines/3).

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
