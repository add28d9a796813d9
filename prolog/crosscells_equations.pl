:- module(crosscells_equations,
          [ constraints/4       % +Puzzle, -Ons, -Named, -Goals
          ]).
/** <module> CrossCells as people write it by hand: a line is one equation.

What `crossprolog export --readable` writes for a CrossCells puzzle.  The
encodings that solve (crosscells.pl) state the same rules otherwise.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(crosscells_rules, [operation/2, precedence/2, cell/4]).

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
