:- module(crossprolog_runs,
          [ collected/5,          % ?Solution, :Goal, +Limit, +Seconds, -Result
            measured/3,           % :Goal, +Seconds, -Measures
            limited/2,            % +Limit, :Goal
            status/4,             % +Measures, +Limit, +N, -Status
            within/2,             % +Seconds, :Goal
            with_batch_alarm/2,   % +Seconds, :Goal
            take_ctrl_c/0,
            take_sigterm/0,
            give_back_ctrl_c/0,
            error_term/2,         % +Error, -Term
            error_kind/2,         % +Error, -Kind
            error_message/2,      % +Error, -Message
            is_true/1             % +Flag
          ]).
/** <module> A search run within limits, measured, and its errors told.

Every search the driver runs goes through measured/3: within a time limit
(within/2, one alarm for a whole batch: with_batch_alarm/2), Ctrl-C heard,
its inferences and times counted, and an exception turned into a typed
error (error_term/2) Python maps by its form.  collected/5 keeps the first
solutions of a search, limited/2 stops it at a count, status/4 tells how
it ended.
*/

:- use_module(library(solution_sequences)).
% Loaded when first called: time limits are not needed by every command, and
% loading them took a third of Prolog's start.
:- autoload(library(time), [alarm/4, call_with_time_limit/2, install_alarm/2, remove_alarm/1,
                              uninstall_alarm/1]).

:- meta_predicate
    collected(?, 0, +, +, -),
    measured(0, +, -),
    limited(+, 0),
    within(+, 0),
    within_time(+, 0),
    with_batch_alarm(+, 0).

%!  collected(?Solution, :Goal, +Limit, +Seconds, -Result) is det.
%
%   Result holds the first Limit Solutions of Goal (all for 0), in search
%   order, found within Seconds, with what finding them cost (measured/3)
%   and a status: complete, limit, timeout or error.
collected(Solution, Goal, Limit, Seconds, Result) :-
    First = found(none, _),
    Last = last(First),
    measured(( limited(Limit, Goal),
               kept(Last, Solution),
               fail
             ; true
             ),
             Seconds, Measures),
    kept_list(First, Solutions),
    length(Solutions, N),
    status(Measures, Limit, N, Status),
    Result = Measures.put(_{solutions: Solutions, status: Status}).

%!  kept(+Last, +Solution) is det.
%
%   Solution kept after the solutions kept so far, where backtracking
%   leaves it (so that a search stopped by an error or a time limit keeps
%   what it found): a copy of it in a new found(Solution, Next) cell, tied
%   to the Next of the last cell, which Last then holds.  Only Solution is
%   copied (nb_setarg/3), not what came before, and the new cell, itself
%   out of backtracking's reach, is held without a copy (nb_linkarg/3).
kept(Last, Solution) :-
    arg(1, Last, Cell),
    nb_setarg(2, Cell, found(Solution, _)),
    arg(2, Cell, Next),
    nb_linkarg(1, Last, Next).

%!  kept_list(+First, -Solutions) is det.
%
%   The solutions kept after the cell First, in the order they came.
kept_list(Cell, Solutions) :-
    arg(2, Cell, Next),
    (   var(Next)
    ->  Solutions = []
    ;   arg(1, Next, Solution),
        Solutions = [Solution|Rest],
        kept_list(Next, Rest)
    ).

%   Goal, a batch whose calls of within_time/2 each have Seconds, runs with one
%   alarm, not one per call (an alarm costs a call 20 µs, a fifth of a small
%   search): the alarm goes off at the latest when the running call's time is
%   up, and then either ends it or, when its time is not up (the call began
%   after the alarm was set), goes off again when it is.
with_batch_alarm(Seconds0, Goal) :-
    Seconds0 > 0, !,
    Seconds is max(Seconds0, 0.01),
    setup_call_cleanup(( nb_setval(crossprolog_deadline, inf),
                         alarm(Seconds, batch_alarm(Seconds), Id, [remove(false)]),
                         nb_setval(crossprolog_batch_alarm, Id) ),
                       Goal,
                       ( nb_setval(crossprolog_batch_alarm, none),
                         remove_alarm(Id) )).
with_batch_alarm(_, Goal) :-
    call(Goal).

%   The batch's alarm went off: end the running call when its time is up,
%   else go off again when it is (or, between calls, Seconds later).  It goes
%   off no sooner than 10 ms after it last did: an alarm due sooner went off
%   again while this ran, and the two handlers' exceptions crossed ("nb_getval/2
%   did not clear exception"; calls of 2 ms each, three batches on two cores).
batch_alarm(Seconds) :-
    nb_getval(crossprolog_deadline, Deadline),
    nb_getval(crossprolog_batch_alarm, Id),
    get_time(Now),
    (   Now >= Deadline
    ->  uninstall_alarm(Id),
        install_alarm(Id, Seconds),  % for the calls after this one
        throw(time_limit_exceeded)
    ;   Deadline == inf             % between calls: inf - Now would overflow
    ->  uninstall_alarm(Id),
        install_alarm(Id, Seconds)
    ;   Delay is max(0.01, min(Deadline - Now, Seconds)),
        uninstall_alarm(Id),
        install_alarm(Id, Delay)
    ).

%   Python's True, as janus passes it, or the atom.
is_true(@(true)).
is_true(true).

limited(0, Goal) :- !,
    call(Goal).
limited(Limit, Goal) :-
    limit(Limit, Goal).

%   The status of a search from what it found, not from the clock: one that
%   found the Limit solutions it was asked for is done, even if its time ran
%   out as it did.
status(Measures, _, _, error) :-
    get_dict(error, Measures, _), !.
status(_, Limit, N, limit) :-
    Limit > 0, N >= Limit, !.
status(Measures, _, _, timeout) :-
    Measures.timed_out == true, !.
status(_, _, _, complete).

%!  measured(:Goal, +Seconds, -Measures) is det.
%
%   Runs Goal once, within Seconds (0: no limit), and gives the inferences,
%   CPU time and wall time (seconds) it took, whether the time ran out
%   before Goal ended (a time limit that strikes as it ends, before its
%   alarm is taken away, does not count), and the error it raised, if any
%   (see error_term/2).
measured(Goal, Seconds, Measures) :-
    Ended = ended(false),
    statistics(inferences, I0),
    statistics(cputime, T0),
    get_time(W0),
    catch(( once(within(Seconds, ( Goal, nb_setarg(1, Ended, true) ))), Outcome = done ),
          Error,
          outcome(Error, Ended, Outcome)),
    get_time(W1),
    statistics(inferences, I1),
    statistics(cputime, T1),
    Inferences is I1 - I0,
    Cpu is T1 - T0,
    Wall is W1 - W0,
    Measures0 = _{inferences: Inferences, cpu: Cpu, seconds: Wall, timed_out: false},
    outcome_measures(Outcome, Measures0, Measures).

outcome(time_limit_exceeded, ended(true), done) :- !.
outcome(time_limit_exceeded, _, timeout) :- !.
outcome(Error, _, error(Term)) :-
    error_term(Error, Term).

outcome_measures(done, Measures, Measures).
outcome_measures(timeout, Measures0, Measures0.put(timed_out, true)).
outcome_measures(error(Term), Measures0, Measures0.put(error, Term)).

%!  error_term(+Error, -Term) is det.
%
%   Term is _{kind: Kind, message: Message} for an exception: Kind says
%   what Python raises (resource: out of stack or memory; interrupt:
%   Ctrl-C; usage: an encoding refused the puzzle, by throwing
%   crossprolog_usage(Encoding, Message) or crossprolog_usage(Message), or
%   called halt (usercode:user_call/2); no_domains: reasoning was asked of
%   an encoding whose cells keep no CLP(FD) domains; abort: a user's
%   encoding called abort/0; encoding: anything else, a bug in an encoding).
error_term(Error, _{kind: Kind, message: Message}) :-
    error_kind(Error, Kind),
    error_message(Error, Message).

error_kind(error(resource_error(_), _), resource) :- !.
error_kind(resource_error(_), resource) :- !.
error_kind(error(signal(int, _), _), interrupt) :- !.
error_kind(signal(int, _), interrupt) :- !.
error_kind(usercode_interrupted, interrupt) :- !.
error_kind('$aborted', abort) :- !.      % only a user's code calls abort/0
error_kind(unwind(abort), abort) :- !.
error_kind(crossprolog_usage(no_domains), no_domains) :- !.
error_kind(crossprolog_usage(_), usage) :- !.
error_kind(crossprolog_usage(_, _), usage) :- !.
error_kind(usercode_halt(_, _, _, _), usage) :- !.
error_kind(_, encoding).

error_message(crossprolog_usage(no_domains), Message) :- !,
    Message = "its cells keep no CLP(FD) domains, which a hint's reasoning reads".
error_message(crossprolog_usage(Text), Message) :- !,
    Message = Text.
error_message(crossprolog_usage(Encoding, Text), Message) :- !,
    format(string(Message), "encoding ~w: ~w", [Encoding, Text]).
error_message(usercode_halt(Encoding, Status, _, _), Message) :- !,
    format(string(Message), "encoding ~w: it called halt(~w): an encoding may not end the process",
           [Encoding, Status]).
error_message('$aborted', Message) :- !,
    Message = "it called abort/0: an encoding may not abort the search".
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
%   Prolog, so without this a long search could not be stopped.  The
%   handler stays when Goal is done: SWI-Prolog takes a signal at once but
%   acts on it at the next call, and drops it if by then its handler is
%   gone, so putting Python's back here would lose a Ctrl-C that came in
%   Goal's last steps (one in twenty interrupted `solve --all` runs went
%   on for good).  The caller gives Ctrl-C back (give_back_ctrl_c/0).
within(Seconds, Goal) :-
    take_ctrl_c,
    within_time(Seconds, Goal).

%   Only the main thread takes Ctrl-C: the operating system hands it to that
%   thread, where Python's handler runs too.  Taken elsewhere (a helper
%   thread, an engine, whose caller took it), it would only keep Ctrl-C
%   from Python while the main thread runs Python.  SIGTERM is taken with
%   it once take_sigterm/0 asked.
take_ctrl_c :-
    thread_self(Self),
    (   Self == main
    ->  on_signal(int, Before, crossprolog_runs:ctrl_c),
        remember_handler(int, Before),
        (   sigterm_taken
        ->  on_signal(term, BeforeTerm, crossprolog_runs:terminated),
            remember_handler(term, BeforeTerm)
        ;   true
        ),
        (   ours(Before)                % taken already, in this call from Python
        ->  true
        ;   flag(crossprolog_ctrl_c, _, 0),
            (   python_interrupted
            ->  throw(error(signal(int, 2), _))
            ;   true
            )
        )
    ;   true
    ).

%   Ctrl-C in a search: an error thrown in it, which ends it.  One that
%   comes while a search goes on that caught the one before (a user's
%   encoding that catches every error, which would else run on however
%   often Ctrl-C comes) is told to Python first: the command line ends
%   the process there (engine.second_ctrl_c).  The count starts afresh
%   with each call from Python that takes Ctrl-C, and when it gives it
%   back (give_back_ctrl_c/0).
ctrl_c(_Signal) :-
    flag(crossprolog_ctrl_c, Before, Before + 1),
    (   Before > 0
    ->  python_told(second_ctrl_c)
    ;   true
    ),
    throw(error(signal(int, 2), _)).

%!  take_sigterm is det.
%
%   From now on SIGTERM (kill, timeout) stops a search as Ctrl-C does, and
%   is told to Python (engine.terminated).  The command line asks for it, so
%   that what finished is kept; a program that imports crossprolog keeps
%   SIGTERM's own effect, the end of its process.
:- dynamic sigterm_taken/0.

take_sigterm :-
    (   sigterm_taken
    ->  true
    ;   assertz(sigterm_taken)
    ).

%   SIGTERM in a search: told to Python, whose command then exits 143 (not
%   Ctrl-C's 130), and otherwise Ctrl-C: what finished is kept.
terminated(Signal) :-
    python_told(terminated),
    ctrl_c(Signal).

%   Call crossprolog.engine's function Name(), when Python runs Prolog.
python_told(Name) :-
    (   current_predicate(janus:py_call/2)
    ->  compound_name_arguments(Call, Name, []),
        catch(janus:py_call('crossprolog.engine':Call, _), _, true)
    ;   true
    ).

%   Whether Handler is ctrl_c/1 or terminated/1 (on_signal/3 names them
%   without their module).
ours(Handler) :-
    (   Handler == ctrl_c
    ;   Handler == crossprolog_runs:ctrl_c
    ;   Handler == terminated
    ;   Handler == crossprolog_runs:terminated
    ), !.

%!  python_interrupted is semidet.
%
%   A Ctrl-C came that Python's handler only noted: Python acts on it at
%   its next step, after the call into Prolog, which a search that never
%   ends never leaves.  A call into Python runs the handler, whose
%   KeyboardInterrupt comes back here as an error.  Such a Ctrl-C comes
%   after Python last ran its handlers and before a search takes Ctrl-C
%   (one of two commands interrupted just as they began a search ran on,
%   once in a full run of the tests), or while a user's file loads
%   (usercode.pl).  Fails outside Python.
python_interrupted :-
    current_predicate(janus:py_call/2),
    catch(janus:py_call('crossprolog.engine':poll_signals(), _), Error, true),
    nonvar(Error),
    Error = error(python_error('KeyboardInterrupt', _), _).

%   The handler of each signal before, kept for give_back_ctrl_c/0.
:- dynamic handler_before/2.

remember_handler(_, Before) :-
    ours(Before), !.
remember_handler(Signal, Before) :-
    handler_before(Signal, Before), !.
remember_handler(Signal, Before) :-
    retractall(handler_before(Signal, _)),
    assertz(handler_before(Signal, Before)).

%!  give_back_ctrl_c is det.
%
%   Puts back the handlers of Ctrl-C and SIGTERM within/2 replaced.  Called
%   in the main thread with both held by the operating system (engine.call
%   does), so that none comes meanwhile: one Prolog took but has not acted
%   on yet is thrown here, at this call, as it would have been in the search.
give_back_ctrl_c :-
    (   on_signal(int, Handler, Handler),
        ours(Handler)
    ->  forall(handler_before(Signal, Before), on_signal(Signal, _, Before)),
        flag(crossprolog_ctrl_c, _, 0)
    ;   true
    ).

within_time(Seconds, Goal) :-
    (   Seconds =:= 0
    ->  call(Goal)
    ;   nb_current(crossprolog_batch_alarm, Id), Id \== none
    ->  get_time(Now),
        Deadline is Now + Seconds,
        setup_call_cleanup(nb_setval(crossprolog_deadline, Deadline),
                           Goal,
                           nb_setval(crossprolog_deadline, inf))
    ;   call_with_time_limit(Seconds, Goal)
    ).
