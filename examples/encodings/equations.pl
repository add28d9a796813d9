:- module(equations, [model/3, family/1]).
/** <module> A CrossCells encoding of one's own: every line stated as CLP(FD) equations.

This is how people model a CrossCells puzzle by hand: a 0/1 variable per
cell, and for every line its running value, worked out cell by cell in the
order the line is read, each step an equation over the cell's variable On.
A cell `*3` multiplies by 1 + 2*On: by 3 when on, by 1 when off; `+4` adds
4*On; `/2` divides exactly (the value it meets is 1 + On times the value
after it); `%3` takes the remainder when on (with the sign of the value, as
C's `%` and Prolog's `rem`).  A count is the sum of the line's variables.

Every rule of the puzzle dict is honoured:

  - `first_cell: seeds`: the first ON cell of a line sets the value to its
    number, whatever its operator (a 0/1 First per cell says which one is);
  - `precedence: standard`: `*`, `/` and `%` bind tighter than `+` and `-`.
    The value is then a sum of finished terms and the current term: an ON
    `+` or `-` cell adds the term to the sum and starts a new one with its
    own number, every other cell works on the current term.  Left to right
    (the default), every cell works on the term, which is the whole value.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).

family(crosscells).

%!  model(+Puzzle, -Ons, -Labeling) is det.
%
%   Puzzle is _{cells: [[Op, N], ...], lines: [_{cells: Indices, kind: Kind,
%   value: Value}, ...], first_cell: Rule, precedence: Precedence}, cells in
%   reading order and each line's Indices (from 0) in the order it reads
%   them; Op and Kind are atoms (+, -, *, /, '%'; = for a total, # for a
%   count), Rule is zero or seeds, Precedence 'left-to-right' or standard.
%   Ons is one 0/1 per cell; Labeling labels them.
model(Puzzle, Ons, labeling([ff], Ons)) :-
    _{cells: Cells, lines: Lines, first_cell: Rule, precedence: Precedence} :< Puzzle,
    same_length(Cells, Ons),
    Ons ins 0..1,
    maplist(line(rules(Rule, Precedence), Cells, Ons), Lines).

line(_, _, Ons, Line) :-
    _{cells: Indices, kind: #, value: Count} :< Line, !,
    maplist(nth_of(Ons), Indices, LineOns),
    sum(LineOns, #=, Count).
line(Rules, Cells, Ons, Line) :-
    _{cells: Indices, kind: =, value: Total} :< Line,
    foldl(step(Rules, Cells, Ons), Indices, state(0, 0, 0), state(_, Sum, Term)),
    Total #= Sum + Term.

nth_of(List, I, Element) :-
    nth0(I, List, Element).

%   The line's state after cell I, from the state before it: state(Seen, Sum,
%   Term), Seen 1 once an ON cell was met, Sum the finished terms, Term the
%   current one.
step(rules(Rule, Precedence), Cells, Ons, I, state(Seen0, Sum0, Term0), state(Seen, Sum, Term)) :-
    nth0(I, Cells, [Op, N]),
    nth0(I, Ons, On),
    applied(Precedence, Op, N, On, Sum0-Term0, Sum-Worked),
    seeded(Rule, Op, N, On, Seen0, Seen, Worked, Term).

%   Under standard precedence an ON + or - cell finishes the term (into the
%   sum) and starts the next with its signed number; any other cell, and
%   every cell left to right, works on the term.
applied(standard, Op, N, On, Sum0-Term0, Sum-Term) :-
    signed(Op, N, Start), !,
    Sum #= Sum0 + On*Term0,
    Term #= Term0 + On*(Start - Term0).
applied(_, Op, N, On, Sum-Term0, Sum-Term) :-
    worked(Op, N, On, Term0, Term).

signed(+, N, N).
signed(-, N, Minus) :-
    Minus is -N.

%   Term is Term0 with the cell's operation when On is 1, Term0 when it is 0.
worked(+, N, On, Term0, Term) :-
    Term #= Term0 + N*On.
worked(-, N, On, Term0, Term) :-
    Term #= Term0 - N*On.
worked(*, N, On, Term0, Term) :-
    Term #= Term0 * (1 + (N - 1)*On).
worked(/, N, On, Term0, Term) :-          % exact: only a multiple of N is divided
    Term0 #= Term * (1 + (N - 1)*On).
worked('%', N, On, Term0, Term) :-
    Term #= Term0 - On*(Term0 - Term0 rem N).

%   With `seeds`, the line's first ON cell (First, 1 when it is on and none was
%   before) sets the term to its number.  Before it the term is 0, so what the
%   operation made of it is what the operation makes of 0 (Zero): replaced.
seeded(zero, _, _, _, Seen, Seen, Term, Term).
seeded(seeds, Op, N, On, Seen0, Seen, Worked, Term) :-
    First #= On * (1 - Seen0),
    Seen #= Seen0 + First,
    of_zero(Op, N, Zero),
    Term #= Worked + First*(N - Zero).

of_zero(Op, N, Zero) :-
    (   signed(Op, N, Zero)
    ->  true
    ;   Zero = 0                          % 0 times, divided by or modulo N
    ).
