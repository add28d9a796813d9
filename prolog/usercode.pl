:- module(usercode,
          [ user_call/2,          % +Module, :Goal
            user_load/3           % +Module, +File, +Seconds
          ]).
/** <module> A user's encoding, run so that it cannot end or take over the process.

A user's encoding file is Prolog we do not control, loaded into the process
that holds a batch's records and an API caller's state.  While it loads, and
while its model/3 and labeling run (user_call/2):

  - halt/0 and halt/1 do not end the process.  An at_halt/1 hook cancels a
    halt called from within user code (found on the stack, so in any of its
    callees and whatever module they name), halt then fails, and when the
    user code is done the call throws usercode_halt(Module, Status, File,
    Line).  (A goal expansion would miss call(halt) and system:halt.)  A
    halt in a thread the user code started is cancelled with a warning.
  - Its output goes to standard error: standard output carries our records
    only, and nothing the encoding prints can pass for one of them.
  - Loading runs under a deadline and Ctrl-C.  load_files/2 blocks signals
    while it loads, so neither an alarm nor Ctrl-C would reach a looping
    directive; a heartbeat (the `heartbeat` flag: a hook called every so
    many inferences, signals or not) checks both while user_load/3 runs.
    The heartbeat is not called in a loop that only calls, never
    backtracks (`l :- l.`), so the load also runs within an inference
    limit, which is: load_inferences/2 per second of the deadline, or
    without one, load_inferences/2's own bound.

abort/0 cannot be trapped (Prolog re-throws '$aborted' past every catch),
so it is the driver's error_term/2 that reports it.
*/

:- meta_predicate user_call(+, 0).

:- dynamic halted/4.                  % Ticket, Status, File, Line
:- thread_local loading/1.            % Deadline (0: none), while user_load/3 runs
:- thread_local interrupted/0.        % Ctrl-C came during user_load/3

%!  user_call(+Module, :Goal) is nondet.
%
%   Goal, user code of the encoding Module, run with halt trapped and its
%   output sent to standard error, on every call and redo.  Throws
%   usercode_halt(Module, Status, File, Line) once Goal is done (exits,
%   fails or throws) if it called halt.
user_call(Module, Goal) :-
    first_hook,
    flag(usercode_tickets, Ticket, Ticket + 1),
    redirected(Saved),
    (   catch(running(Ticket, Goal), Error, ( restored(Saved), halt_check(Ticket, Module),
                                              throw(Error) )),
        restored(Saved),
        halt_check(Ticket, Module),
        (   true
        ;   redirected(_),          % redo into Goal: its output goes away again
            fail
        )
    ;   restored(Saved),
        halt_check(Ticket, Module),
        fail
    ).

%   Goal's frame marker for halt_hook/0: not a last call, so that the frame stays.
running(Ticket, Goal) :-
    call(Goal),
    nonvar(Ticket).

halt_check(Ticket, Module) :-
    (   retract(halted(Ticket, Status, File, Line))
    ->  throw(usercode_halt(Module, Status, File, Line))
    ;   true
    ).

%   Standard output (the current output and the user_output alias) to standard error.
redirected(saved(Output, UserOutput)) :-
    current_output(Output),
    stream_property(UserOutput, alias(user_output)), !,
    set_stream(user_error, alias(user_output)),
    set_output(user_error).

restored(saved(Output, UserOutput)) :-
    set_stream(UserOutput, alias(user_output)),
    set_output(Output).

%!  user_load(+Module, +File, +Seconds) is det.
%
%   Loads File, the user's module file of Module, as user code
%   (user_call/2), within Seconds (0: no limit) and interruptible by
%   Ctrl-C: throws time_limit_exceeded or usercode_interrupted when they
%   come first, or usercode_inferences(Most) when a load without a time
%   limit runs past load_inferences/2's bound.
user_load(Module, File, Seconds) :-
    get_time(Now),
    (   Seconds > 0
    ->  Deadline is Now + Seconds
    ;   Deadline = 0
    ),
    load_inferences(Seconds, Most),
    current_prolog_flag(heartbeat, Beat),
    setup_call_cleanup(( retractall(interrupted),
                         asserta(loading(Deadline)),
                         set_prolog_flag(heartbeat, 10000) ),
                       ( statistics(inferences, Before),
                         call_with_inference_limit(
                             user_call(Module, load_files(File, [silent(true), must_be_module(true),
                                                                 imports([])])),
                             Most, Ended),
                         statistics(inferences, After),
                         past_inferences(Ended, After - Before, Seconds, Most),
                         stopped(Deadline) ),
                       ( set_prolog_flag(heartbeat, Beat),
                         retractall(loading(_)) )).

%!  load_inferences(+Seconds, -Most) is det.
%
%   The inferences a load may take: 100 M a second of its time limit (a
%   loop of calls runs 80-110 M a second on the 2-core machine this was
%   measured on, so such a loop stops near the deadline, where the
%   heartbeat stops any other), or 2,000 M without one.
load_inferences(Seconds, Most) :-
    (   Seconds > 0
    ->  Most is max(1_000_000, ceiling(Seconds * 100_000_000))
    ;   Most = 2_000_000_000
    ).

%   What the inference limit stopped, also when the user's code (or the
%   runner of an initialization goal) caught its exception and the load went on.
past_inferences(Ended, Used, Seconds, Most) :-
    (   ( Ended == inference_limit_exceeded ; Used >= Most )
    ->  (   Seconds > 0
        ->  throw(time_limit_exceeded)
        ;   throw(usercode_inferences(Most))
        )
    ;   true
    ).

%   What stopped the load, should the user's code have caught it and gone on.
stopped(Deadline) :-
    (   interrupted
    ->  throw(usercode_interrupted)
    ;   Deadline > 0, get_time(Now), Now >= Deadline
    ->  throw(time_limit_exceeded)
    ;   true
    ).

:- multifile prolog:heartbeat/0.

%   Every 10,000 inferences while user_load/3 runs: stop a load past its
%   deadline or after Ctrl-C (which Python takes: a call into Python runs its
%   handler).  Neither is an error(_, _) term, which a directive's own catch
%   would report and go on; both stay thrown until the load is done, should
%   the user's code catch one.
prolog:heartbeat :-
    loading(Deadline), !,
    (   \+ interrupted,
        crossprolog_runs:python_interrupted
    ->  assertz(interrupted)
    ;   true
    ),
    stopped(Deadline).

%   Our hook runs first: '$run_at_halt' runs (and drops) the hooks before the
%   one that cancels, and a user's file may have added some.
first_hook :-
    once(clause(system:'$at_halt'(Goal, _), true)),
    Goal == usercode:halt_hook, !.
first_hook :-
    retractall(system:'$at_halt'(usercode:halt_hook, _)),
    at_halt(usercode:halt_hook).

:- initialization(first_hook).

%   halt/0,1 called from within user_call/2 (in this thread): cancelled, and
%   noted for user_call/2 to report.  Called in a thread other than main (one
%   a user's encoding started: ours never call halt/1 there), cancelled with
%   a warning: that thread may outlive the call, so there is none to report it.
%   A halt from C (Python ending, PL_cleanup) has no halt/1 frame and goes on.
:- public halt_hook/0.
halt_hook :-
    prolog_current_frame(Frame),
    prolog_frame_attribute(Frame, parent_goal, usercode:running(Ticket, _)), !,
    (   prolog_frame_attribute(Frame, parent_goal, system:halt(Status))
    ->  true
    ;   Status = unknown
    ),
    (   source_location(File, Line)
    ->  true
    ;   File = '', Line = 0
    ),
    assertz(halted(Ticket, Status, File, Line)),
    cancel_halt(usercode).
halt_hook :-
    thread_self(Thread),
    Thread \== main,
    prolog_current_frame(Frame),
    prolog_frame_attribute(Frame, parent_goal, system:halt(Status)), !,
    print_message(warning, format("a thread called halt(~w): cancelled, as no code but ours may end the process",
                                  [Status])),
    cancel_halt(usercode).
halt_hook.

:- multifile user:message_hook/3.

user:message_hook(cancel_halt(usercode), _, _).
