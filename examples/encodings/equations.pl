:- module(equations, [model/3, family/1]).
/** <module> A CrossCells encoding of one's own: one CLP(FD) equation per line.

This is how people model a CrossCells puzzle by hand: a 0/1 variable per
cell, and for every line one equation that folds the line's operations,
in the order the line is read, over the cells that are on.  A cell `*3`
multiplies by 1 + 2*On: by 3 when on, by 1 when off; `+4` adds 4*On.  An
ON division must be exact, so `/2` also posts that the value it meets is
a multiple of 1 + On.  A count is the sum of the line's variables.

Lines starting from their first ON cell (`# first-cell: seeds`) are not
modeled: the encoding says so instead of answering wrongly.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).

family(crosscells).

%!  model(+Puzzle, -Ons, -Labeling) is det.
%
%   Puzzle is _{cells: [[Op, N], ...], lines: [_{cells: Indices, kind: Kind,
%   value: Value}, ...], first_cell: Rule}, cells in reading order and each
%   line's Indices (from 0) in the order it reads them; Op and Kind are
%   atoms (+, -, *, /; = for a total, # for a count), Rule is zero or
%   seeds.  Ons is one 0/1 per cell; Labeling labels them.
model(Puzzle, Ons, labeling([ff], Ons)) :-
    _{cells: Cells, lines: Lines, first_cell: Rule} :< Puzzle,
    (   Rule == zero
    ->  true
    ;   domain_error(first_cell_zero, Rule)
    ),
    same_length(Cells, Ons),
    Ons ins 0..1,
    maplist(equation(Cells, Ons), Lines).

equation(Cells, Ons, Line) :-
    _{cells: Indices, kind: Kind, value: Value} :< Line,
    foldl(step(Kind, Cells, Ons), Indices, 0, Expression),
    Expression #= Value.

%   Expression0, then the cell I, on or off, is Expression.
step(#, _, Ons, I, Expression0, Expression0 + On) :-
    nth0(I, Ons, On).
step(=, Cells, Ons, I, Expression0, Expression) :-
    nth0(I, Cells, [Op, N]),
    nth0(I, Ons, On),
    applied(Op, N, On, Expression0, Expression).

applied(+, N, On, E, E + N*On).
applied(-, N, On, E, E - N*On).
applied(*, N, On, E, E * (1 + (N - 1)*On)).
applied(/, N, On, E, E // (1 + (N - 1)*On)) :-
    E mod (1 + (N - 1)*On) #= 0.
