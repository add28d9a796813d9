:- module(crossprolog,
          [ first_solutions/6,    % +Family, +Encoding, +Puzzle, +Limit, +Seconds, -Result
            count_solutions/6,    % +Family, +Encoding, +Puzzle, +Limit, +Seconds, -Result
            batch_solutions/7,    % +Family, +Encoding, +Puzzles, +Limit, +Seconds, +Keep, -Results
            open_solutions/4,     % +Name, +Family, +Encoding, +Puzzle
            next_solution/3,      % +Name, +Seconds, -Result
            close_solutions/1,    % +Name
            family_encodings/2,   % +Family, -Encodings
            show_solution/1,      % +Solution
            fact_text/3           % +Name, +Data, -Text
          ]).
/** <module> The search driver every puzzle family shares.

A family is a module Family that exports

  - Family(+Encoding, +Puzzle, -Solution): the pure relation, posting the
    constraints of Encoding on the variables of Solution;
  - search(+Encoding, +Puzzle, +Solution): the labeling that Encoding pairs
    with, binding every variable of Solution;
  - encodings(-Names): its encodings, the default first.

This module runs them under a solution limit and a time limit, and reports
what it found as a dict Python can read: solutions (or a count), a status
(complete, limit or timeout), and the inferences and CPU seconds spent.
Limit is a positive integer or 0 for none; Seconds a positive number or 0 for
none.  The family modules are loaded beside this one, by the Python bridge.
Puzzle data only ever arrives as terms, never as source text.
*/

:- use_module(library(time)).
:- use_module(library(apply)).
:- use_module(library(solution_sequences)).

family_encodings(Family, Encodings) :-
    Family:encodings(Encodings).

solution(Family, Encoding, Puzzle, Solution) :-
    Relation =.. [Family, Encoding, Puzzle, Solution],
    call(Family:Relation),
    Family:search(Encoding, Puzzle, Solution).

%!  first_solutions(+Family, +Encoding, +Puzzle, +Limit, +Seconds, -Result) is det.
%
%   Result holds up to Limit solutions, in search order.
first_solutions(Family, Encoding, Puzzle, Limit, Seconds, Result) :-
    Found = found([]),
    measured(( limited(Limit, solution(Family, Encoding, Puzzle, Solution)),
               arg(1, Found, Solutions0),
               nb_setarg(1, Found, [Solution|Solutions0]),
               fail
             ; true
             ),
             Seconds, Measures),
    arg(1, Found, Reversed),
    reverse(Reversed, Solutions),
    length(Solutions, N),
    status(Measures, Limit, N, Status),
    Result = Measures.put(_{solutions: Solutions, status: Status}).

%!  count_solutions(+Family, +Encoding, +Puzzle, +Limit, +Seconds, -Result) is det.
%
%   Result counts up to Limit solutions without keeping them.
count_solutions(Family, Encoding, Puzzle, Limit, Seconds, Result) :-
    Counter = count(0),
    measured(( limited(Limit, solution(Family, Encoding, Puzzle, _)),
               arg(1, Counter, N0),
               N1 is N0 + 1,
               nb_setarg(1, Counter, N1),
               fail
             ; true
             ),
             Seconds, Measures),
    arg(1, Counter, N),
    status(Measures, Limit, N, Status),
    Result = Measures.put(_{count: N, status: Status}).

%!  batch_solutions(+Family, +Encoding, +Puzzles, +Limit, +Seconds, +Keep, -Results) is det.
%
%   One Result per puzzle, as first_solutions/6 (Keep true) or
%   count_solutions/6 (Keep false) give it, each within its own Seconds: a
%   batch crosses from Python into Prolog once, not once per puzzle.
batch_solutions(Family, Encoding, Puzzles, Limit, Seconds, Keep, Results) :-
    maplist(batch_member(Family, Encoding, Limit, Seconds, Keep), Puzzles, Results).

batch_member(Family, Encoding, Limit, Seconds, true, Puzzle, Result) :- !,
    first_solutions(Family, Encoding, Puzzle, Limit, Seconds, Result).
batch_member(Family, Encoding, Limit, Seconds, _, Puzzle, Result) :-
    count_solutions(Family, Encoding, Puzzle, Limit, Seconds, Result).

limited(0, Goal) :- !,
    call(Goal).
limited(Limit, Goal) :-
    limit(Limit, Goal).

status(Measures, _, _, timeout) :-
    Measures.timed_out == true, !.
status(_, Limit, N, limit) :-
    Limit > 0, N >= Limit, !.
status(_, _, _, complete).

%!  measured(:Goal, +Seconds, -Measures) is det.
%
%   Runs Goal once, within Seconds (0: no limit), and gives the inferences
%   and CPU time it took and whether the time ran out.
measured(Goal, Seconds, _{inferences: Inferences, cpu: Cpu, timed_out: TimedOut}) :-
    statistics(inferences, I0),
    statistics(cputime, T0),
    catch(( once(within(Seconds, Goal)), TimedOut = false ),
          time_limit_exceeded,
          TimedOut = true),
    statistics(inferences, I1),
    statistics(cputime, T1),
    Inferences is I1 - I0,
    Cpu is T1 - T0.

%   Goal runs interruptible: Ctrl-C raises error(signal(int, _), _) in it.
%   An embedding Python handles Ctrl-C itself, but only between calls into
%   Prolog, so without this a long search could not be stopped; the
%   handler is put back as soon as Goal is done.
within(Seconds, Goal) :-
    setup_call_cleanup(on_signal(int, Handler, throw),
                       within_time(Seconds, Goal),
                       on_signal(int, _, Handler)).

within_time(Seconds, Goal) :-
    (   Seconds =:= 0
    ->  call(Goal)
    ;   call_with_time_limit(Seconds, Goal)
    ).

%!  open_solutions(+Name, +Family, +Encoding, +Puzzle) is det.
%
%   Starts an engine, called Name, that yields the solutions one by one, so
%   a caller can stop the search whenever it has seen enough.
open_solutions(Name, Family, Encoding, Puzzle) :-
    atom_string(Alias, Name),
    engine_create(Solution, solution(Family, Encoding, Puzzle, Solution), _,
                  [alias(Alias)]).

%!  next_solution(+Name, +Seconds, -Result) is det.
%
%   Result is _{status: solution, solution: S}, _{status: complete} when the
%   engine has no more, or _{status: timeout}.
next_solution(Name, Seconds, Result) :-
    atom_string(Alias, Name),
    catch(( within(Seconds, engine_next(Alias, Solution))
          ->  Result = _{status: solution, solution: Solution}
          ;   Result = _{status: complete}
          ),
          time_limit_exceeded,
          Result = _{status: timeout}).

close_solutions(Name) :-
    atom_string(Alias, Name),
    (   is_engine(Alias)
    ->  engine_destroy(Alias)
    ;   true
    ).

%!  show_solution(+Solution) is det.
%
%   Prints a solution for people: a grid (list of lists) a row per line, a
%   flat list on one line, a dict one key per line.
show_solution(Solution) :-
    is_dict(Solution), !,
    dict_pairs(Solution, _, Pairs),
    forall(member(Key-Value, Pairs),
           (   format("~w:~n", [Key]),
               show_solution(Value)
           )).
show_solution(Rows) :-
    is_list(Rows), Rows = [Row|_], is_list(Row), !,
    maplist(show_solution, Rows).
show_solution(Values) :-
    is_list(Values), !,
    atomic_list_concat(Values, ' ', Line),
    format("~w~n", [Line]).
show_solution(Value) :-
    format("~q~n", [Value]).

%!  fact_text(+Name, +Data, -Text) is det.
%
%   Text is the clause Name(Data), quoted and laid out by portray_clause/2,
%   so that reading it back gives Data whatever atoms it holds.
fact_text(Name, Data, Text) :-
    atom_string(Functor, Name),
    Fact =.. [Functor, Data],
    with_output_to(string(Text), portray_clause(Fact)).
