:- module(crossprolog_sessions,
          [ open_session/3,       % +Name, +Encoding, +Puzzle
            session_solutions/6,  % +Name, +Cells, +Limit, +Seconds, +Inferences, -Result
            session_push/2,       % +Name, +Cells
            session_pop/1         % +Name
          ]).
/** <module> Sessions: one puzzle posted once, asked many questions.

A session keeps one puzzle's constraints posted in an engine of its own
and answers restricted_solutions/6 questions about it without posting
them again: each question runs in a findall/3, whose backtracking gives
the store back as it was.  Making a well-formed puzzle asks dozens of
them, and posting costs more than answering.  Restrictions can also be
pushed, to hold for every question until they are popped (a stack, last
pushed first popped): a maker that asks about nearly the same givens
again and again posts each of them a few times, not once a question.
*/

:- use_module(crossprolog_models, [guarded/2, checked_answer/2]).
:- use_module(crossprolog_runs, [measured/3, limited/2, status/4, take_ctrl_c/0]).
:- use_module(crossprolog_explanations, [posted/5, restrictions/2]).

%!  open_session(+Name, +Encoding, +Puzzle) is det.
open_session(Name, Encoding, Puzzle) :-
    atom_string(Alias, Name),
    engine_create(_, session(Encoding, Puzzle), _, [alias(Alias)]),
    engine_next(Alias, ready).

session(Encoding, Puzzle) :-
    (   guarded(Encoding, posted(Encoding, Puzzle, [], Solution, Labeling))
    ->  Posted = posted(Encoding, Solution, Labeling)
    ;   Posted = inconsistent
    ),
    engine_yield(ready),
    served(Posted).

%   Serves the session's commands until a pop, which ends the push that
%   called it: returning undoes what that push posted (see pushed/3).
served(Posted) :-
    engine_fetch(Command),
    (   Command == pop
    ->  true
    ;   serve(Command, Posted),
        served(Posted)
    ).

serve(question(Cells, Limit, Seconds, Inferences), Posted) :-
    \+ \+ ( answer(Posted, Cells, Limit, Seconds, Inferences, Result),
            engine_yield(Result) ).
serve(push(Cells), Posted) :-
    \+ \+ ( pushed(Posted, Cells, Pushed),
            engine_yield(pushed),
            served(Pushed) ),
    engine_yield(popped).

%   The store with Cells posted too (inconsistent when they cannot hold).
pushed(inconsistent, _, inconsistent).
pushed(posted(Encoding, Solution, Labeling), Cells, Pushed) :-
    (   guarded(Encoding, restrictions(Solution, Cells))
    ->  Pushed = posted(Encoding, Solution, Labeling)
    ;   Pushed = inconsistent
    ).

answer(inconsistent, _, _, _, _, _{status: complete, solutions: [], inferences: 0, cpu: 0,
                                    seconds: 0}).
answer(posted(Encoding, Solution, Labeling), Cells, Limit, Seconds, Inferences, Result) :-
    measured(guarded(Encoding,
                     within_inferences(Inferences,
                                       findall(Solution, limited(Limit, ( restrictions(Solution, Cells),
                                                                          call(Labeling),
                                                                          checked_answer(Encoding, Solution) )),
                                               Solutions))),
             Seconds, Measures),
    (   var(Solutions)
    ->  Solutions = []
    ;   true
    ),
    length(Solutions, N),
    status(Measures, Limit, N, Status),
    Result = Measures.put(_{solutions: Solutions, status: Status}).

%!  session_solutions(+Name, +Cells, +Limit, +Seconds, +Inferences, -Result) is det.
%
%   As restricted_solutions/6, of the puzzle of session Name, within
%   Inferences too (0: no bound): past them, status timeout, as past
%   Seconds.  An inference bound is the same on every machine: a maker
%   that gives up a question past it makes the same puzzles everywhere.
%
%   Prolog takes Ctrl-C before an engine resumes (here and below): one the
%   engine took as it last yielded is acted on when it goes on, and with
%   no handler then it would be dropped.
session_solutions(Name, Cells, Limit, Seconds, Inferences, Result) :-
    atom_string(Alias, Name),
    take_ctrl_c,
    engine_post(Alias, question(Cells, Limit, Seconds, Inferences), Result).

%!  session_push(+Name, +Cells) is det.
%
%   Cells (as restricted_solutions/6 takes them) hold in session Name's
%   questions until the matching session_pop/1.
session_push(Name, Cells) :-
    atom_string(Alias, Name),
    take_ctrl_c,
    engine_post(Alias, push(Cells), pushed).

%!  session_pop(+Name) is det.
%
%   Undoes session Name's last push.
session_pop(Name) :-
    atom_string(Alias, Name),
    take_ctrl_c,
    engine_post(Alias, pop, popped).

%   Goal, unless it takes more than Limit inferences (0: no limit): then
%   time_limit_exceeded, which measured/3 reports as a timeout.
within_inferences(0, Goal) :- !,
    call(Goal).
within_inferences(Limit, Goal) :-
    call_with_inference_limit(Goal, Limit, Result),
    (   Result == inference_limit_exceeded
    ->  throw(time_limit_exceeded)
    ;   true
    ).
