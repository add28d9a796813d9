:- module(crosscells,
          [ encodings/1,        % -Names
            model/4             % +Encoding, +Puzzle, -Ons, -Labeling
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

The modules, each loading only those before it:

  - crosscells_rules.pl: the operators (operator/6), a line's cells as
    steps, and a line's total as CLP(FD) constraints (states, fold,
    reified);
  - crosscells_lines.pl: a line's states as sets of bits;
  - crosscells_masks.pl: the masks encoding's search on them;
  - crosscells_equations.pl: constraints/4, the rules as people write them
    by hand, for `crossprolog export --readable`;
  - this one: the encodings, model/4 and the CLP(FD) encodings' labelings.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(restarts, [restarted/3, shuffled/3, alternated/3]).
:- use_module(crosscells_rules, [operation/2, precedence/2, reading_holds/5]).
% masks_labeling/3 is the labeling goal model/4 hands back, called here by the driver.
:- use_module(crosscells_masks, [masks_model/5, masks_labeling/3]).
:- reexport(crosscells_equations, [constraints/4]).

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
    ->  masks_model(rules(Start, Precedence), Operations, Readings, Ons, Masks),
        (   Masks = labeling(Labeling)
        ->  true
        ;   model(restarts, Puzzle, Ons, Labeling)      % too many states: see masks_model/5
        )
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
    alternated(K, [0, 1], Values),
    shuffled(K, Lines, Shuffled0),
    maplist(shuffled(K), Shuffled0, Shuffled).
attempt(_, Ons, K, labeling([ffc, Order], Shuffled)) :-
    shuffled(K, Ons, Shuffled),
    alternated(K, [0, 1], Values),
    value_order(Values, Order).

labeled_lines(Values, Lines, Ons) :-
    label_nearly_set_lines_first(Values, Lines),
    label(Ons).

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
