:- module(crossprolog_explanations,
          [ restricted_solutions/6, % +Encoding, +Puzzle, +Cells, +Limit, +Seconds, -Result
            consequences/6,       % +Encoding, +Puzzle, +Cells, +Probe, +Seconds, -Result
            posted/5,             % +Encoding, +Puzzle, +Cells, -Solution, -Labeling
            restrictions/2        % +Solution, +Cells
          ]).
/** <module> Explanations: the solutions that meet some cells, and what the rules force.

What puzzle makers and stuck solvers ask: is there a solution in which
these cells are (or are not) these values, and what do the constraints
alone force?  Cells are [Path, Relation, Value] triples: Path is the
list of 0-based indices that leads to a cell's variable in the
Solution term (a grid: [Row, Column]; a flat list: [Index]), Relation
is "=" or "\\=".  A triple [Paths, "apart", Values] asks that at least
one of the cells at Paths is not its value in Values (a well-formed
puzzle's maker asks for a solution that breaks a clue it would hide).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(crossprolog_models, [guarded/2, encoding_model/4, checked_answer/2]).
:- use_module(crossprolog_runs, [collected/5, measured/3, status/4, is_true/1]).

%!  restricted_solutions(+Encoding, +Puzzle, +Cells, +Limit, +Seconds, -Result) is det.
%
%   As first_solutions/5, the solutions also meeting Cells.
restricted_solutions(Encoding, Puzzle, Cells, Limit, Seconds, Result) :-
    collected(Solution, guarded(Encoding, restricted(Encoding, Puzzle, Cells, Solution)), Limit,
              Seconds, Result).

restricted(Encoding, Puzzle, Cells, Solution) :-
    posted(Encoding, Puzzle, Cells, Solution, Labeling),
    call(Labeling),
    checked_answer(Encoding, Solution).

posted(Encoding, Puzzle, Cells, Solution, Labeling) :-
    encoding_model(Encoding, Puzzle, Solution, Labeling),
    restrictions(Solution, Cells).

%   Posts Cells on Solution.  The cells set to a value are bound in one
%   unification, so their constraints wake once for all of them, where
%   posting them one by one woke them for each: pushing 40 givens on a
%   12x8 CrossProduct's session took 12 ms instead of 20.
restrictions(Solution, Cells) :-
    partition(sets_a_value, Cells, Setting, Others),
    maplist(set_cell(Solution), Setting, Set, Values),
    Set = Values,
    maplist(restriction(Solution), Others).

sets_a_value([_, Relation, _]) :-
    atom_string(=, Relation).

set_cell(Solution, [Path, _, Value], Cell, Value) :-
    cell_at(Path, Solution, Cell).

restriction(Solution, [Paths, Relation, Values]) :-
    atom_string(apart, Relation), !,
    maplist(cell_of(Solution), Paths, Cells),
    apart(Cells, Values).
restriction(Solution, [Path, Relation, Value]) :-
    atom_string(\=, Relation),
    cell_at(Path, Solution, Cell),
    Cell #\= Value.

cell_of(Solution, Path, Cell) :-
    cell_at(Path, Solution, Cell).

%   At least one of Cells is not its value of Values.
apart([Cell], [Value]) :- !,
    Cell #\= Value.
apart(Cells, Values) :-
    maplist(differs, Cells, Values, Differences),
    sum(Differences, #>=, 1).

differs(Cell, Value, Differs) :-
    Differs #<==> (Cell #\= Value).

cell_at([], Cell, Cell).
cell_at([I|Is], Term, Cell) :-
    nth0(I, Term, Sub),
    cell_at(Is, Sub, Cell).

%!  consequences(+Encoding, +Puzzle, +Cells, +Probe, +Seconds, -Result) is det.
%
%   What the constraints of Encoding (and Cells) force without search.
%   Result.status is consistent or inconsistent (propagation alone finds
%   no solution), or timeout; when consistent, Result.propagated is the
%   Solution term with every variable replaced by the list of values
%   propagation leaves it, and with Probe true Result.probed the same
%   after probing: a value is dropped when setting the cell to it makes
%   propagation fail, and that is repeated until no more values go.
%   Probing is sound: a value it drops is in no solution.  Without Probe,
%   probed is what propagation left.
consequences(Encoding, Puzzle, Cells, Probe, Seconds, Result) :-
    Found = found(inconsistent),
    measured(guarded(Encoding,
                     (   posted(Encoding, Puzzle, Cells, Solution, _)
                     ->  domains(Solution, Propagated),
                         (   ( \+ is_true(Probe) ; probed(Solution) )
                         ->  domains(Solution, Probed),
                             nb_setarg(1, Found, consistent(Propagated, Probed))
                         ;   nb_setarg(1, Found, inconsistent)
                         )
                     ;   true
                     )),
             Seconds, Measures),
    arg(1, Found, Outcome),
    consequence_result(Outcome, Measures, Result).

consequence_result(_, Measures, Result) :-
    status(Measures, 0, 0, Status),
    Status \== complete, !,
    Result = Measures.put(status, Status).
consequence_result(inconsistent, Measures, Measures.put(status, inconsistent)).
consequence_result(consistent(Propagated, Probed), Measures,
                   Measures.put(_{status: consistent, propagated: Propagated, probed: Probed})).

%   The values each variable of Term may still take (a value is a list of one).
domains(Term, Domains) :-
    is_list(Term), !,
    maplist(domains, Term, Domains).
domains(Value, [Value]) :-
    integer(Value), !.
domains(Var, Values) :-
    fd_size(Var, Size),
    (   Size == sup
    ->  throw(crossprolog_usage(no_domains))
    ;   fd_dom(Var, Dom),
        findall(V, ( V in Dom, indomain(V) ), Values)
    ).

%!  probed(+Term) is semidet.
%
%   Drops from each variable of Term the values that propagation refutes
%   when tried, until none goes (singleton arc consistency); fails when a
%   variable is left no value.
probed(Term) :-
    term_variables(Term, Vars),
    foldl(probe, Vars, false, Changed),
    (   Changed == true
    ->  probed(Term)
    ;   true
    ).

probe(Var, Changed0, Changed) :-
    (   var(Var)
    ->  fd_dom(Var, Dom),
        findall(V, ( V in Dom, indomain(V), \+ \+ Var = V ), Kept),
        fd_size(Var, Size),
        length(Kept, Left),
        Left > 0,
        list_to_domain(Kept, Domain),
        Var in Domain,
        (   Left < Size
        ->  Changed = true
        ;   Changed = Changed0
        )
    ;   Changed = Changed0
    ).

list_to_domain([V|Vs], Domain) :-
    foldl(union_with, Vs, V, Domain).

union_with(V, Domain, Domain \/ V).
