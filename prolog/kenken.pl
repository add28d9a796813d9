:- module(kenken,
          [ encodings/1,        % -Names
            model/4,            % +Encoding, +Puzzle, -Rows, -Labeling
            constraints/4       % +Puzzle, -Rows, -Named, -Goals
          ]).
/** <module> KenKen: an NxN grid holding 1..N once in every row and column, cut
into cages whose digits combine to their targets.

A puzzle arrives from Python as a dict

    _{size: N, cages: [_{cells: [[Row, Column], ...], op: Op, target: T}, ...],
      givens: [[Row, Column, Digit], ...]}

with 0-based rows and columns, Op one of "+", "-", "*", "/" and "=" (a
one-cell cage: the cell is T), as text.  "-" and "/" cages have two cells:
the larger digit less, or divided by, the smaller is T.  Givens are digits
a solver has already placed.  The solution is the grid, a list of rows.

model/4 is the pure relation: it posts the constraints of an encoding and
hands back the labeling that goes with it.  Every encoding states the rows
and columns with all_distinct/1 and labels first-fail; they differ in how a
cage holds:

  - tables (the default): each cage is a table constraint over its
    fillings, the digits for its cells that make the target, no digit
    twice in a row or column of the cage.  A table is arc consistent: a
    digit that no filling uses leaves the domain at once.
  - arithmetic: each cage as CLP(FD) arithmetic: a sum, a chain of
    products, abs(A - B) #= T, or A #= B*T #\/ B #= A*T.  Propagates
    bounds only, as a person reasoning about sums would not.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).

encodings([tables, arithmetic]).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of digit variables of Puzzle, constrained the way
%   Encoding says; Labeling labels them.  Fails when the constraints are
%   found inconsistent.
model(Encoding, Puzzle, Rows, labeling([ff], Digits)) :-
    memberchk(Encoding, [tables, arithmetic]),
    _{size: N, cages: Cages, givens: Givens} :< Puzzle,
    length(Rows, N),
    maplist(length_(N), Rows),
    append(Rows, Digits),
    Digits ins 1..N,
    maplist(give(Rows), Givens),
    maplist(all_distinct, Rows),
    transpose(Rows, Columns),
    maplist(all_distinct, Columns),
    maplist(cage(Encoding, N, Rows), Cages).

length_(Length, List) :-
    length(List, Length).

give(Rows, [R, C, Digit]) :-
    cell(Rows, [R, C], Digit).

cell(Rows, [R, C], Digit) :-
    nth0(R, Rows, Row),
    nth0(C, Row, Digit).

%!  cage(+Encoding, +N, +Rows, +Cage) is semidet.
%
%   The digits of Cage's cells combine to its target, as Encoding states it.
cage(Encoding, N, Rows, Cage) :-
    _{cells: Places, op: OpText, target: Target} :< Cage,
    atom_string(Op, OpText),
    maplist(cell(Rows), Places, Digits),
    holds(Encoding, Op, Target, N, Places, Digits).

holds(tables, Op, Target, N, Places, Digits) :-
    same_length(Places, Filling),
    findall(Filling, filling(Op, Target, N, Places, Filling), Fillings),
    tuples_in([Digits], Fillings).
holds(arithmetic, Op, Target, _, _, Digits) :-
    combines(Op, Digits, Target).

%!  combines(+Op, +Digits, +Target) is semidet.
%
%   The arithmetic encoding's statement of a cage.
combines(+, Digits, Target) :-
    sum(Digits, #=, Target).
combines(*, Digits, Target) :-
    foldl(times, Digits, 1, Target).
combines(-, [A, B], Target) :-
    abs(A - B) #= Target.
combines(/, [A, B], Target) :-
    A #= B * Target #\/ B #= A * Target.
combines(=, [A], Target) :-
    A #= Target.

times(Digit, Product0, Product) :-
    Product #= Product0 * Digit.

%!  filling(+Op, +Target, +N, +Places, -Digits) is nondet.
%
%   Digits (one of 1..N per place of Places) combine to Target under Op,
%   and no digit stands twice in a row or column.  Sums and products are
%   pruned as the digits are chosen, so a big cage costs its fillings, not
%   N to the power of its size.
filling(Op, Target, N, Places, Digits) :-
    filled(Places, Digits, [], Op, Target, N, Rest),
    finished(Op, Rest, Digits, Target).

filled([], [], _, _, Rest, _, Rest).
filled([Place|Places], [Digit|Digits], Placed, Op, Rest0, N, Rest) :-
    between(1, N, Digit),
    \+ ( member(Other-Digit, Placed), lined_up(Place, Other) ),
    length(Places, Left),
    left(Op, Rest0, Digit, Left, Rest1),
    filled(Places, Digits, [Place-Digit|Placed], Op, Rest1, N, Rest).

lined_up([R, _], [R, _]).
lined_up([_, C], [_, C]).

%   What is left of the target once Digit is in, when that can still be
%   made by the Left cells to come: a sum needs at least 1 from each, a
%   product must be divisible.  The two-cell operations decide at the end.
left(+, Rest0, Digit, Left, Rest) :- !,
    Rest is Rest0 - Digit,
    Rest >= Left.
left(*, Rest0, Digit, _, Rest) :- !,
    Rest0 mod Digit =:= 0,
    Rest is Rest0 // Digit.
left(_, Rest, _, _, Rest).

finished(+, 0, _, _).
finished(*, 1, _, _).
finished(-, _, [A, B], Target) :-
    Target =:= abs(A - B).
finished(/, _, [A, B], Target) :-
    Target * min(A, B) =:= max(A, B).
finished(=, _, [Target], Target).


%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   The puzzle's own constraints as a person writes them by hand, for an
%   exported program to read: Goals are CLP(FD) goals on the digits of Rows
%   (not posted): their range, the givens, all_distinct for each row and
%   column, one goal per cage (arithmetic, as the encoding of that name
%   states it), then the labeling.  Named names no other variable.
constraints(Puzzle, Rows, [], Goals) :-
    _{size: N, cages: Cages, givens: Givens} :< Puzzle,
    length(Rows, N),
    maplist(length_(N), Rows),
    append(Rows, Digits),
    transpose(Rows, Columns),
    maplist(given_goal(Rows), Givens, GivenGoals),
    maplist(distinct_goal, Rows, RowGoals),
    maplist(distinct_goal, Columns, ColumnGoals),
    maplist(cage_goal(Rows), Cages, CageGoals),
    maplist(domain_goal(1..N), Rows, DomainGoals),
    append([DomainGoals, GivenGoals, RowGoals, ColumnGoals, CageGoals, [labeling([ff], Digits)]],
           Goals).

domain_goal(Domain, Row, Row ins Domain).

given_goal(Rows, [R, C, Digit], Cell #= Digit) :-
    cell(Rows, [R, C], Cell).

distinct_goal(Line, all_distinct(Line)).

cage_goal(Rows, Cage, Goal) :-
    _{cells: Places, op: OpText, target: Target} :< Cage,
    atom_string(Op, OpText),
    maplist(cell(Rows), Places, Digits),
    cage_statement(Op, Digits, Target, Goal).

cage_statement(+, [D|Ds], Target, Sum #= Target) :-
    foldl(plus_expression, Ds, D, Sum).
cage_statement(*, [D|Ds], Target, Product #= Target) :-
    foldl(times_expression, Ds, D, Product).
cage_statement(-, [A, B], Target, abs(A - B) #= Target).
cage_statement(/, [A, B], Target, A #= Target*B #\/ B #= Target*A).
cage_statement(=, [A], Target, A #= Target).

plus_expression(D, Expression, Expression + D).
times_expression(D, Expression, Expression * D).
