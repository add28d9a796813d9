:- module(crossprolog,
          [ first_solutions/5,    % +Encoding, +Puzzle, +Limit, +Seconds, -Result
            count_solutions/5,    % +Encoding, +Puzzle, +Limit, +Seconds, -Result
            count_solutions/6,    % +Encoding, +Puzzle, +Limit, +Seconds, +Progress, -Result
            found_so_far/2,       % +Progress, -Count
            batch_solutions/6,    % +Encoding, +Puzzles, +Limit, +Seconds, +Keep, -Results
            open_solutions/3,     % +Name, +Encoding, +Puzzle
            next_solution/3,      % +Name, +Seconds, -Result
            close_solutions/1,    % +Name
            family_encodings/2,   % +Module, -Names
            error_term/2,         % +Error, -Term
            show_solution/1,      % +Solution
            fact_text/3           % +Name, +Data, -Text
          ]).
/** <module> The search driver every puzzle family shares.

An encoding of a family is a module that posts the family's constraints and
hands back the search that goes with them:

  - a family's own module exports model(+Name, +Puzzle, -Solution, -Labeling)
    and encodings(-Names), its default first;
  - a user's encoding is a module exporting model(+Puzzle, -Solution, -Labeling).

model posts the constraints of Puzzle on the variables of Solution (the
family's shape) and gives Labeling, a goal in the same module that binds
them.  The caller chooses the labeling by choosing the encoding; nothing is
worked out twice.

From Python an encoding arrives as encoding(Module, Name), Name "" for a
user's module.  This module runs it under a solution limit and a time limit,
and reports what it found as a dict Python can read: solutions (or a
count), a status (complete, limit, timeout or error), and the inferences
and CPU seconds spent.  An exception becomes status error with a typed
error(Kind, Message): Kind is resource, interrupt, usage or encoding, so
Python maps errors by their form, never by their text.  Limit is a positive
integer or 0 for none; Seconds a positive number or 0 for none.  Puzzle data
only ever arrives as terms, never as source text.
*/

:- use_module(library(time)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(solution_sequences)).

%!  family_encodings(+Module, -Names) is det.
family_encodings(Module, Names) :-
    atom_string(M, Module),
    M:encodings(Names).

%!  solution(+Encoding, +Puzzle, -Solution) is nondet.
%
%   Posts the constraints of Encoding, then runs the labeling it handed back.
solution(encoding(Module, Name), Puzzle, Solution) :-
    atom_string(M, Module),
    (   Name == ""
    ->  M:model(Puzzle, Solution, Labeling)
    ;   atom_string(N, Name),
        M:model(N, Puzzle, Solution, Labeling)
    ),
    call(M:Labeling).

%!  first_solutions(+Encoding, +Puzzle, +Limit, +Seconds, -Result) is det.
%
%   Result holds up to Limit solutions, in search order.
first_solutions(Encoding, Puzzle, Limit, Seconds, Result) :-
    Found = found([]),
    measured(( limited(Limit, solution(Encoding, Puzzle, Solution)),
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

%!  count_solutions(+Encoding, +Puzzle, +Limit, +Seconds, -Result) is det.
%!  count_solutions(+Encoding, +Puzzle, +Limit, +Seconds, +Progress, -Result) is det.
%
%   Result counts up to Limit solutions without keeping them.  Progress
%   names a flag that holds the count so far, for another thread to read
%   with found_so_far/2 while the search runs ("" for none).
count_solutions(Encoding, Puzzle, Limit, Seconds, Result) :-
    count_solutions(Encoding, Puzzle, Limit, Seconds, "", Result).

count_solutions(Encoding, Puzzle, Limit, Seconds, Progress, Result) :-
    Counter = count(0),
    measured(( limited(Limit, solution(Encoding, Puzzle, _)),
               arg(1, Counter, N0),
               N1 is N0 + 1,
               nb_setarg(1, Counter, N1),
               reported(Progress, N1),
               fail
             ; true
             ),
             Seconds, Measures),
    arg(1, Counter, N),
    status(Measures, Limit, N, Status),
    Result = Measures.put(_{count: N, status: Status}).

reported("", _) :- !.
reported(Progress, N) :-
    atom_string(Flag, Progress),
    flag(Flag, _, N).

%!  found_so_far(+Progress, -Count) is det.
%
%   Count is the number of solutions the search reporting to the flag
%   Progress has found so far (flags are shared by all threads).
found_so_far(Progress, Count) :-
    atom_string(Flag, Progress),
    flag(Flag, Count, Count).

%!  batch_solutions(+Encoding, +Puzzles, +Limit, +Seconds, +Keep, -Results) is det.
%
%   One Result per puzzle, as first_solutions/5 (Keep true) or
%   count_solutions/5 (Keep false) give it, each within its own Seconds: a
%   batch crosses from Python into Prolog once, not once per puzzle.
batch_solutions(Encoding, Puzzles, Limit, Seconds, Keep, Results) :-
    maplist(batch_member(Encoding, Limit, Seconds, Keep), Puzzles, Results).

batch_member(Encoding, Limit, Seconds, true, Puzzle, Result) :- !,
    first_solutions(Encoding, Puzzle, Limit, Seconds, Result).
batch_member(Encoding, Limit, Seconds, _, Puzzle, Result) :-
    count_solutions(Encoding, Puzzle, Limit, Seconds, Result).

limited(0, Goal) :- !,
    call(Goal).
limited(Limit, Goal) :-
    limit(Limit, Goal).

status(Measures, _, _, error) :-
    get_dict(error, Measures, _), !.
status(Measures, _, _, timeout) :-
    Measures.timed_out == true, !.
status(_, Limit, N, limit) :-
    Limit > 0, N >= Limit, !.
status(_, _, _, complete).

%!  measured(:Goal, +Seconds, -Measures) is det.
%
%   Runs Goal once, within Seconds (0: no limit), and gives the inferences,
%   CPU time and wall time (seconds) it took, whether the time ran out, and
%   the error it raised, if any (see error_term/2).
measured(Goal, Seconds, Measures) :-
    statistics(inferences, I0),
    statistics(cputime, T0),
    get_time(W0),
    catch(( once(within(Seconds, Goal)), Outcome = done ),
          Error,
          outcome(Error, Outcome)),
    get_time(W1),
    statistics(inferences, I1),
    statistics(cputime, T1),
    Inferences is I1 - I0,
    Cpu is T1 - T0,
    Wall is W1 - W0,
    Measures0 = _{inferences: Inferences, cpu: Cpu, seconds: Wall, timed_out: false},
    outcome_measures(Outcome, Measures0, Measures).

outcome(time_limit_exceeded, timeout) :- !.
outcome(Error, error(Term)) :-
    error_term(Error, Term).

outcome_measures(done, Measures, Measures).
outcome_measures(timeout, Measures0, Measures0.put(timed_out, true)).
outcome_measures(error(Term), Measures0, Measures0.put(error, Term)).

%!  error_term(+Error, -Term) is det.
%
%   Term is _{kind: Kind, message: Message} for an exception: Kind says
%   what Python raises (resource: out of stack or memory; interrupt:
%   Ctrl-C; usage: an encoding refused the puzzle, by throwing
%   crossprolog_usage(Encoding, Message); encoding: anything else, a bug in
%   an encoding).
error_term(Error, _{kind: Kind, message: Message}) :-
    error_kind(Error, Kind),
    error_message(Error, Message).

error_kind(error(resource_error(_), _), resource) :- !.
error_kind(resource_error(_), resource) :- !.
error_kind(error(signal(int, _), _), interrupt) :- !.
error_kind(signal(int, _), interrupt) :- !.
error_kind('$aborted', interrupt) :- !.
error_kind(unwind(abort), interrupt) :- !.
error_kind(crossprolog_usage(_, _), usage) :- !.
error_kind(_, encoding).

error_message(crossprolog_usage(Encoding, Text), Message) :- !,
    format(string(Message), "encoding ~w: ~w", [Encoding, Text]).
error_message(Error, Message) :-
    catch(first_message_line(Error, Message), _, fail), !.
error_message(Error, Message) :-
    format(string(Message), "~q", [Error]).

%   The first line of the message SWI-Prolog itself prints for Error.
first_message_line(Error, Line) :-
    phrase(prolog:translate_message(Error), Lines),
    with_output_to(string(Text), print_message_lines(current_output, '', Lines)),
    split_string(Text, "\n", "", [Line|_]).

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

%!  open_solutions(+Name, +Encoding, +Puzzle) is det.
%
%   Starts an engine, called Name, that yields the solutions one by one, so
%   a caller can stop the search whenever it has seen enough.
open_solutions(Name, Encoding, Puzzle) :-
    atom_string(Alias, Name),
    engine_create(Solution, solution(Encoding, Puzzle, Solution), _,
                  [alias(Alias)]).

%!  next_solution(+Name, +Seconds, -Result) is det.
%
%   Result is _{status: solution, solution: S}, _{status: complete} when the
%   engine has no more, _{status: timeout}, or _{status: error, error: E}.
next_solution(Name, Seconds, Result) :-
    atom_string(Alias, Name),
    catch(( within(Seconds, engine_next(Alias, Solution))
          ->  Result = _{status: solution, solution: Solution}
          ;   Result = _{status: complete}
          ),
          Error,
          next_error(Error, Result)).

next_error(time_limit_exceeded, _{status: timeout}) :- !.
next_error(Error, _{status: error, error: Term}) :-
    error_term(Error, Term).

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
