:- module(crossprolog,
          [ first_solutions/5,    % +Encoding, +Puzzle, +Limit, +Seconds, -Result
            incumbent/1,          % +Solution
            count_solutions/5,    % +Encoding, +Puzzle, +Limit, +Seconds, -Result
            effort_solutions/5,   % +Encoding, +Puzzle, +Limit, +Seconds, -Result
            effort_digest/5,      % +Encoding, +Puzzle, +Limit, +Seconds, -Result
            accepts/3,            % +Encoding, +Puzzle, +Solution
            count_solutions/6,    % +Encoding, +Puzzle, +Limit, +Seconds, +Progress, -Result
            found_so_far/2,       % +Progress, -Count
            batch_solutions/6,    % +Encoding, +Puzzles, +Limit, +Seconds, +Keep, -Results
            open_solutions/3,     % +Name, +Encoding, +Puzzle
            next_solution/3,      % +Name, +Seconds, -Result
            close_solutions/1,    % +Name
            family_encodings/2,   % +Module, -Names
            forget_worked_out/0
          ]).
/** <module> The search driver every puzzle family shares.

An encoding of a family is a module that posts the family's constraints and
hands back the search that goes with them:

  - a family's own module exports model(+Name, +Puzzle, -Solution, -Labeling)
    and encodings(-Names), its default first;
  - a user's encoding is a module exporting model(+Puzzle, -Solution, -Labeling),
    loaded from the user's file by load_encoding/4.

model posts the constraints of Puzzle on the variables of Solution (the
family's shape) and gives Labeling, a goal in the same module that binds
them.  The caller chooses the labeling by choosing the encoding; nothing is
worked out twice.

From Python an encoding arrives as encoding(Module, Name) for a family's
own, or encoding(Module, Shape) for a user's module, Shape being the lengths
of the nested lists its solutions must be ([9, 9]: nine lists of nine
integers): a user's answer is checked, a family's trusted.  The driver runs
it under a solution limit and a time limit, and reports what it found as a
dict Python can read: solutions (or a count), a status (complete, limit,
timeout or error), and the inferences and CPU seconds spent (and, for
compare, the labeling's effort: effort_solutions/5).  An exception becomes status error with a typed
error(Kind, Message): Kind is resource, interrupt, usage or encoding, so
Python maps errors by their form, never by their text.  Limit is a positive
integer or 0 for none; Seconds a positive number or 0 for none.  Puzzle data
only ever arrives as terms, never as source text; a user's file path
arrives as data too.

This module runs the searches; what they share and what else Python asks
of Prolog are the modules it loads, each loading only those before it:

  - crossprolog_models.pl: an encoding's model posted, a user's goal
    guarded, a user's answer checked;
  - crossprolog_runs.pl: a search within its limits, measured, its errors
    told (error_term/2), Ctrl-C heard;
  - crossprolog_loading.pl: a user's encoding loaded (load_encoding/4);
  - crossprolog_export.pl: the texts of an exported program (a module with
    crossprolog's modules inlined: module_text/3; a family's constraints
    written for people: readable_clause/4);
  - crossprolog_explanations.pl: the solutions that meet some cells, and
    what the rules force (restricted_solutions/6, consequences/6);
  - crossprolog_sessions.pl: one puzzle posted once, asked many questions.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(crossprolog_models, [guarded/2, encoding_model/4, encoding_takes/2, checked_answer/2]).
:- use_module(crossprolog_runs, [collected/5, measured/3, limited/2, status/4, within/2,
                                 with_batch_alarm/2, is_true/1]).
:- reexport(crossprolog_runs, [give_back_ctrl_c/0, take_sigterm/0, error_term/2]).
:- reexport(crossprolog_loading, [load_encoding/4]).
:- reexport(crossprolog_export, [fact_text/3, module_text/3, defined_of/3, readable_clause/4]).
:- reexport(crossprolog_explanations, [restricted_solutions/6, consequences/6]).
:- reexport(crossprolog_sessions, [open_session/3, session_solutions/6, session_push/2,
                                   session_pop/1]).

%   A time limit that strikes while Prolog autoloads a predicate leaves it
%   undefined for the rest of the process: every search after it fails with
%   "Unknown procedure".  library(lists) autoloads must_be/2 the first time
%   a search calls append/2 (the only autoload under a time limit, over every
%   family's encodings, hints, typos and conflicts): it is loaded here, with
%   the driver, by calling it once.
:- lists:must_be(list, []).

%   SWI-Prolog 9.2.9 gives every thread but main (an engine, a session, a
%   Python thread's, a Dask task's) a max_integer_size of 0 bytes, so that an
%   integer past about a kilobyte (a long line's states as bits) raises a
%   resource error there (docs/reproducers/swipl-thread-big-integers.pl).
%   Every thread gets the stack limit, where the integers live, main too
%   (excluding it crashes engines: docs/reproducers/swipl-engine-thread-self.pl).
:- thread_initialization(( current_prolog_flag(stack_limit, Bytes),
                           set_prolog_flag(max_integer_size, Bytes) )).

%!  family_encodings(+Module, -Names) is det.
family_encodings(Module, Names) :-
    atom_string(M, Module),
    M:encodings(Names).

%!  solution(+Encoding, +Puzzle, -Solution) is nondet.
%
%   Posts the constraints of Encoding, then runs the labeling it handed
%   back.  A user's solution must be ground and of its Shape.
solution(Encoding, Puzzle, Solution) :-
    guarded(Encoding, watched_solution(Encoding, Puzzle, unwatched, Solution)).

%!  watched_solution(+Encoding, +Puzzle, +Effort, -Solution) is nondet.
%
%   solution/3, the labeling's bindings counted into Effort (see
%   watched/2) unless Effort is `unwatched`.
watched_solution(Encoding, Puzzle, Effort, Solution) :-
    encoding_model(Encoding, Puzzle, Solution, Labeling),
    watched(Effort, Solution-Labeling),
    call(Labeling),
    checked_answer(Encoding, Solution).

%!  accepts(+Encoding, +Puzzle, +Solution) is semidet.
%
%   Solution, ground, is a solution of Puzzle under Encoding: its model
%   holds with the solution in place, and so does its labeling (which then
%   only checks; for an objective, that nothing is better).
accepts(Encoding, Puzzle, Solution) :-
    once(guarded(Encoding, placed_solution(Encoding, Puzzle, Solution))).

%   The model is posted on fresh variables, and Solution put in place after:
%   posted on numbers, a grid family's model would take them for no cells
%   (as a Kakuro's black ones) and fail.
placed_solution(Encoding, Puzzle, Solution) :-
    encoding_model(Encoding, Puzzle, Answer, Labeling),
    Answer = Solution,
    call(Labeling),
    checked_answer(Encoding, Answer).

%!  first_solutions(+Encoding, +Puzzle, +Limit, +Seconds, -Result) is det.
%
%   Result holds up to Limit solutions, in search order.
first_solutions(Encoding, Puzzle, Limit, Seconds, Result) :-
    nb_setval(crossprolog_incumbent, none),
    collected(Solution, solution(Encoding, Puzzle, Solution), Limit, Seconds, Result0),
    nb_getval(crossprolog_incumbent, Best),
    with_best(Result0.status, Best, Result0, Result).

%!  incumbent(+Solution) is det.
%
%   A labeling that searches for the best solutions (an objective's) may
%   report Solution, ground, as the best it has found so far, before it
%   proves any optimal: when the time runs out, first_solutions/5 gives it
%   as `best`.
:- multifile incumbent/1.        % a family module may refer to it without the driver

incumbent(Solution) :-
    nb_setval(crossprolog_incumbent, Solution).

%!  forget_worked_out is det.
%
%   Forgets what the family modules keep of what they worked out once for
%   many puzzles (each names such a table with worked_out/1), as a fresh
%   process has none of it: a benchmark repeats a workload from there, so
%   that no repeat finds the lines or fillings of the one before.
:- multifile worked_out/1.        % a family module names its tables without the driver
:- dynamic worked_out/1.

forget_worked_out :-
    forall(worked_out(Module:Name/Arity),
           ( functor(Head, Name, Arity),
             retractall(Module:Head) )).

with_best(timeout, Best, Result0, Result) :-
    Best \== none, !,
    Result = Result0.put(best, Best).
with_best(_, _, Result, Result).

%!  effort_solutions(+Encoding, +Puzzle, +Limit, +Seconds, -Result) is det.
%
%   As first_solutions/5, and Result also tells the search's effort:
%   `choices`, the bindings the labeling made itself, `backtracks`, the
%   choices it undid, and `propagated`, the bindings propagation made (see
%   watched/2).
effort_solutions(Encoding, Puzzle, Limit, Seconds, Result) :-
    Effort = effort(0, 0, 0),
    collected(Solution, guarded(Encoding, watched_solution(Encoding, Puzzle, Effort, Solution)),
              Limit, Seconds, Result0),
    Effort = effort(Choices, Backtracks, Propagated),
    Result = Result0.put(_{choices: Choices, backtracks: Backtracks, propagated: Propagated}).

%!  effort_digest(+Encoding, +Puzzle, +Limit, +Seconds, -Result) is det.
%
%   effort_solutions/5 without the solutions: their count and digest
%   (solution_digest/2, added modulo digest_modulus/1), so that two
%   searches can be told to agree on many solutions in memory that does
%   not grow with them.
effort_digest(Encoding, Puzzle, Limit, Seconds, Result) :-
    Effort = effort(0, 0, 0),
    Tally = tally(0, 0),
    measured(( limited(Limit, guarded(Encoding, watched_solution(Encoding, Puzzle, Effort, Solution))),
               tallied(Tally, Solution),
               fail
             ; true
             ),
             Seconds, Measures),
    Tally = tally(N, Digest),
    Effort = effort(Choices, Backtracks, Propagated),
    status(Measures, Limit, N, Status),
    Result = Measures.put(_{count: N, digest: Digest, status: Status, choices: Choices,
                            backtracks: Backtracks, propagated: Propagated}).

tallied(Tally, Solution) :-
    solution_digest(Solution, Digest),
    digest_modulus(Modulus),
    arg(1, Tally, N0),
    arg(2, Tally, Sum0),
    N is N0 + 1,
    Sum is (Sum0 + Digest) mod Modulus,
    nb_setarg(1, Tally, N),
    nb_setarg(2, Tally, Sum).

%!  solution_digest(+Solution, -Digest) is det.
%
%   Digest is a hash of the integers of Solution (nested lists), in order:
%   H := (H * 1000003 + V + 1) mod digest_modulus, from 0.  Python's
%   compare.solution_digest is the same function, for the solutions other
%   solvers give.
solution_digest(Solution, Digest) :-
    flatten(Solution, Values),
    digest_modulus(Modulus),
    foldl(digest_step(Modulus), Values, 0, Digest).

digest_step(Modulus, Value, Digest0, Digest) :-
    Digest is (Digest0 * 1000003 + Value + 1) mod Modulus.

digest_modulus(2305843009213693951).    % 2^61 - 1, a prime

%!  watched(+Effort, +Term) is det.
%
%   Every variable of Term (a solution and its labeling goal: what the
%   labeling sets) counts its bindings into Effort, a term
%   effort(Choices, Backtracks, Propagated) updated in place:
%
%     - a binding clpfd makes, because a domain is down to one value, is
%       Propagated (also after labeling/2's `X #\= V` branch);
%     - any other is a choice of the labeling itself: labeling/2 setting a
%       variable to a value, or plain Prolog unifying it (a
%       generate-and-test search binds a whole row at once: a choice per
%       cell);
%     - a choice undone by backtracking, at once or later, is a backtrack.
%
%   Counting is generic: it watches bindings, whatever the labeling goal
%   is.  SWI-Prolog's library(clpfd) keeps no statistics of its own (no
%   fd_statistics/2 as in SICStus), so propagator runs are not counted.
%   Bindings the model made before the labeling are not counted, nor are
%   those of auxiliary variables the labeling does not name.
watched(unwatched, _) :- !.
watched(Effort, Term) :-
    term_variables(Term, Variables),
    maplist(watch(Effort), Variables).

%   Effort's attribute comes first, so that its hook runs before clpfd's,
%   which may fail.  A variable without a domain is bound by plain Prolog
%   only: no propagation to tell apart.
watch(Effort, Variable) :-
    (   get_attrs(Variable, Attributes)
    ->  Watch = domain(Effort)
    ;   Attributes = [],
        Watch = plain(Effort)
    ),
    put_attrs(Variable, att(crossprolog, Watch, Attributes)).

attr_unify_hook(plain(Effort), _) :-
    chosen(Effort).
attr_unify_hook(domain(Effort), _) :-
    (   propagating
    ->  counted(3, Effort)
    ;   chosen(Effort)
    ).

chosen(Effort) :-
    counted(1, Effort),
    (   true
    ;   counted(2, Effort),
        fail
    ).

counted(I, Effort) :-
    arg(I, Effort, N0),
    N is N0 + 1,
    nb_setarg(I, Effort, N).

%   The binding whose hook runs now was made by clpfd's propagation: the
%   first predicate above the unification machinery and the libraries it
%   may call is clpfd's, and not one of its labeling's.
propagating :-
    prolog_current_frame(Frame),
    prolog_frame_attribute(Frame, parent, Hook),
    prolog_frame_attribute(Hook, parent, Machinery),
    binder(Machinery, clpfd:Predicate),
    \+ labeling_step(Predicate).

%   The predicate of the first frame from Frame up that is neither
%   clpfd's nor a library's, or clpfd's.
binder(Frame, Binder) :-
    prolog_frame_attribute(Frame, predicate_indicator, Predicate),
    (   Predicate = Module:_,
        passed(Module)
    ->  prolog_frame_attribute(Frame, parent, Parent),
        binder(Parent, Binder)
    ;   Binder = Predicate
    ).

passed('$attvar') :- !.                 % the unification machinery: the usual case
passed(clpfd) :- !,
    fail.
passed(Module) :-
    module_property(Module, class(Class)),
    memberchk(Class, [system, library]).

%   The predicates of clpfd's labeling/2 that set a variable to a value.
labeling_step(choice_order_variable/7).
labeling_step(domain_direction_element/3).

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
    with_batch_alarm(Seconds, maplist(batch_member(Encoding, Limit, Seconds, Keep), Puzzles, Results)).

batch_member(Encoding, Limit, Seconds, Keep, Puzzle, Result) :-
    is_true(Keep), !,
    first_solutions(Encoding, Puzzle, Limit, Seconds, Result).
batch_member(Encoding, Limit, Seconds, _, Puzzle, Result) :-
    count_solutions(Encoding, Puzzle, Limit, Seconds, Result).

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
    Next = next(none),
    catch(( within(Seconds, ( engine_next(Alias, Solution)
                            ->  nb_setarg(1, Next, _{status: solution, solution: Solution})
                            ;   nb_setarg(1, Next, _{status: complete})
                            )),
            arg(1, Next, Result)
          ),
          Error,
          next_error(Error, Next, Result)).

%   A time limit that struck once the engine had answered is no time-out.
next_error(time_limit_exceeded, next(Answered), Result) :- !,
    (   Answered == none
    ->  Result = _{status: timeout}
    ;   Result = Answered
    ).
next_error(Error, _, _{status: error, error: Term}) :-
    error_term(Error, Term).

close_solutions(Name) :-
    atom_string(Alias, Name),
    (   is_engine(Alias)
    ->  engine_destroy(Alias)
    ;   true
    ).
