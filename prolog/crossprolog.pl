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
            load_encoding/4,      % +File, +Names, +Seconds, -Result
            error_term/2,         % +Error, -Term
            give_back_ctrl_c/0,
            fact_text/3,          % +Name, +Data, -Text
            module_text/3,        % +Module, -Text, -Inlined
            defined_of/3,         % +Module, +Indicators, -Defined
            readable_clause/4,    % +Module, +Puzzle, +Names, -Text
            restricted_solutions/6, % +Encoding, +Puzzle, +Cells, +Limit, +Seconds, -Result
            consequences/6,       % +Encoding, +Puzzle, +Cells, +Probe, +Seconds, -Result
            open_session/3,       % +Name, +Encoding, +Puzzle
            session_solutions/5,  % +Name, +Cells, +Limit, +Seconds, -Result
            session_push/2,       % +Name, +Cells
            session_pop/1,        % +Name
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
integers): a user's answer is checked, a family's trusted.  This module runs
it under a solution limit and a time limit, and reports what it found as a
dict Python can read: solutions (or a count), a status (complete, limit,
timeout or error), and the inferences and CPU seconds spent (and, for
compare, the labeling's effort: effort_solutions/5).  An exception becomes status error with a typed
error(Kind, Message): Kind is resource, interrupt, usage or encoding, so
Python maps errors by their form, never by their text.  Limit is a positive
integer or 0 for none; Seconds a positive number or 0 for none.  Puzzle data
only ever arrives as terms, never as source text; a user's file path
arrives as data too.  For exported programs it gives the text of a module
with crossprolog's modules inlined (module_text/3) and a family's
constraints written for people (readable_clause/4).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(solution_sequences)).
% Loaded when first called: time limits, and the layout of exported programs, are
% not needed by every command, and loading them took a third of Prolog's start.
:- autoload(library(time), [alarm/4, call_with_time_limit/2, install_alarm/2, remove_alarm/1,
                              uninstall_alarm/1]).
:- autoload(library(listing), [portray_clause/1, portray_clause/3]).
:- autoload(library(settings), [setting/2, set_setting/2]).

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

%!  guarded(+Encoding, :Goal) is nondet.
%
%   Goal, run as a user's code (usercode:user_call/2: halt trapped, output
%   to standard error) when Encoding is a user's.
guarded(encoding(Module, Shape), Goal) :-
    is_list(Shape), !,
    atom_string(M, Module),
    usercode:user_call(M, crossprolog:Goal).
guarded(_, Goal) :-
    call(Goal).

%!  watched_solution(+Encoding, +Puzzle, +Effort, -Solution) is nondet.
%
%   solution/3, the labeling's bindings counted into Effort (see
%   watched/2) unless Effort is `unwatched`.
watched_solution(Encoding, Puzzle, Effort, Solution) :-
    encoding_model(Encoding, Puzzle, Solution, Labeling),
    watched(Effort, Solution-Labeling),
    call(Labeling),
    checked_answer(Encoding, Solution).

%!  encoding_model(+Encoding, +Puzzle, -Solution, -Labeling) is semidet.
%
%   Posts the constraints of Encoding on Solution; Labeling, qualified by
%   its module, binds them.
encoding_model(encoding(Module, Shape), Puzzle, Solution, M:Labeling) :-
    is_list(Shape), !,
    atom_string(M, Module),
    M:model(Puzzle, Solution, Labeling).
encoding_model(encoding(Module, Name), Puzzle, Solution, M:Labeling) :-
    atom_string(M, Module),
    atom_string(N, Name),
    M:model(N, Puzzle, Solution, Labeling).

%!  checked_answer(+Encoding, +Solution) is det.
%
%   A user's Solution is ground and of its Shape; a family's is trusted.
checked_answer(encoding(Module, Shape), Solution) :-
    is_list(Shape), !,
    atom_string(M, Module),
    checked_answer(M, Shape, Solution).
checked_answer(_, _).

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

checked_answer(M, Shape, Solution) :-
    (   \+ ground(Solution)
    ->  format(string(Message), "its labeling left variables unbound: ~W",
               [Solution, [max_depth(8)]]),
        throw(crossprolog_usage(M, Message))
    ;   \+ shaped(Shape, Solution)
    ->  shape_text(Shape, Wanted, _),
        format(string(Message), "its solution is not ~w: ~W",
               [Wanted, Solution, [max_depth(8)]]),
        throw(crossprolog_usage(M, Message))
    ;   true
    ).

%!  shaped(+Shape, +Term) is semidet.
%
%   Term is nested lists of the lengths Shape lists, integers innermost.
shaped([], Value) :-
    integer(Value).
shaped([Length|Lengths], List) :-
    is_list(List),
    length(List, Length),
    maplist(shaped(Lengths), List).

%   "a list of 9 lists of 9 integers", and the plural, for Shape.
shape_text([], "an integer", "integers").
shape_text([Length|Lengths], One, Many) :-
    shape_text(Lengths, _, Inner),
    format(string(One), "a list of ~d ~w", [Length, Inner]),
    format(string(Many), "lists of ~d ~w", [Length, Inner]).

%!  load_encoding(+File, +Names, +Seconds, -Result) is det.
%
%   Loads the user's encoding in File, a module file, into its own module,
%   as user code (usercode:user_load/3: within Seconds, 0 for no limit,
%   Ctrl-C heard, halt trapped, output to standard error): Result is
%   _{module: Module, family: Family} (Family "" when the module exports no
%   family/1 naming one of Names.families), _{error: Message, line: Line}
%   (Line 0 when no line is to blame), or _{timeout: true}.  A module name
%   in Names.reserved (crossprolog's own modules and encodings), or one that
%   another file or a library already holds, is refused before loading.
%   Errors and warnings Prolog prints while loading (a syntax error, a
%   singleton variable, a failed directive) are taken, not printed: the
%   first is the Message.  After an error nothing of File stays loaded.
%   File is data from the caller, never read as a goal.
load_encoding(Path, Names, Seconds, Result) :-
    atom_string(File, Path),
    atoms(Names.reserved, Reserved),
    atoms(Names.families, Families),
    catch(( header_module(File, Module),
            free_name(Module, Reserved),
            loaded_or_undone(File, loaded_encoding(File, Module, Seconds, Families, Family)),
            Result = _{module: Module, family: Family} ),
          Error,
          load_error(Error, File, Result)).

%   Result for an Error that stopped loading File; any other is thrown on
%   (Ctrl-C, say).
load_error(crossprolog_file(Line, Message), _, _{error: Message, line: Line}) :- !.
load_error(usercode_halt(_, Status, HaltFile, HaltLine), File, _{error: Message, line: Line}) :- !,
    (   HaltFile == File
    ->  Line = HaltLine,
        Where = ""
    ;   HaltFile == ''                  % not in a directive: in an initialization goal, say
    ->  Line = 0,
        Where = ""
    ;   Line = 0,                       % in a file the encoding loads
        format(string(Where), " (in ~w, line ~w)", [HaltFile, HaltLine])
    ),
    format(string(Message), "it called halt(~w) while loading~w: an encoding may not end the process",
           [Status, Where]).
load_error(time_limit_exceeded, _, _{timeout: true}) :- !.
load_error(Error, _, _) :-
    throw(Error).

%   The module File declares in its first term.
header_module(File, Module) :-
    catch(setup_call_cleanup(open(File, read, In),
                             read_term(In, Term, []),
                             close(In)),
          Error,
          refused(Error)),
    (   Term = (:- module(Module, _)), atom(Module)
    ->  true
    ;   throw(crossprolog_file(1, "not a module file: it must begin with :- module(Name, [model/3])"))
    ).

atoms(Texts, Atoms) :-
    maplist(text_atom, Texts, Atoms).

text_atom(Text, Atom) :-
    atom_string(Atom, Text).

free_name(Module, Reserved) :-
    (   memberchk(Module, Reserved)
    ->  refuse(1, "the module name ~q is crossprolog's own: rename the module", [Module])
    ;   module_property(Module, class(Class)), Class \== user
    ->  refuse(1, "~q is the name of a SWI-Prolog ~w module: rename the module", [Module, Class])
    ;   module_property(Module, file(Other))
    ->  refuse(1, "a module named ~q is already loaded, from ~w: rename the module", [Module, Other])
    ;   true
    ).

refuse(Line, Format, Arguments) :-
    format(string(Message), Format, Arguments),
    throw(crossprolog_file(Line, Message)).

%   Runs Goal; if it throws, unloads File first.
loaded_or_undone(File, Goal) :-
    catch(Goal, Error, ( unload_file(File), throw(Error) )).

loaded_encoding(File, Module, Seconds, Families, Family) :-
    captured_load(File, Module, Seconds),
    module_property(Module, exports(Exports)),
    (   memberchk(model/3, Exports)
    ->  true
    ;   refuse(1, "the module ~q does not export model/3", [Module])
    ),
    declared_family(Module, Exports, Families, Family).

declared_family(Module, Exports, Families, Family) :-
    memberchk(family/1, Exports), !,
    (   catch(Module:family(Family), _, fail),
        atom(Family),
        memberchk(Family, Families)
    ->  true
    ;   atomic_list_concat(Families, ', ', Choices),
        refuse(0, "family/1 of ~q must name one family: ~w", [Module, Choices])
    ).
declared_family(_, _, _, "").

%!  captured_load(+File, +Module, +Seconds) is det.
%
%   Loads File, the module file of Module, as user code within Seconds
%   (see usercode:user_load/3); throws crossprolog_file(Line, Message) for
%   the first error or warning Prolog had to say while loading it, and
%   passes on what stops a load: a halt, the time limit, Ctrl-C.
:- thread_local capturing/0, captured/2.

captured_load(File, Module, Seconds) :-
    retractall(captured(_, _)),          % an abort/0 may have left some
    setup_call_cleanup(asserta(capturing),
                       catch(usercode:user_load(Module, File, Seconds),
                             Error,
                             captured_error(Error)),
                       retractall(capturing)),
    findall(Line-Message, retract(captured(Line, Message)), Problems),
    (   Problems = [Line-Message|_]
    ->  throw(crossprolog_file(Line, Message))
    ;   true
    ).

:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

user:message_hook(Term, Kind, _) :-
    memberchk(Kind, [error, warning]),
    crossprolog:capturing, !,
    crossprolog:captured_message(Term).

%   What stops a load is passed on; any other error is what Prolog had to say.
captured_error(Error) :-
    (   Error == time_limit_exceeded
    ;   Error = usercode_halt(_, _, _, _)
    ;   error_kind(Error, Kind),
        memberchk(Kind, [interrupt, resource, abort])
    ), !,
    throw(Error).
captured_error(Error) :-
    captured_message(Error).

%   Keeps what Term says, and where, for captured_load/3.
captured_message(Term) :-
    message_line(Term, Line),
    message_text(Term, Message),
    assertz(captured(Line, Message)).

message_line(error(_, file(_, Line, _, _)), Line) :- !.
message_line(_, Line) :-
    source_location(_, Line), !.
message_line(_, 0).

% The location is said apart: it would name the file twice.
message_text(error(Formal, _), Message) :- !,
    error_message(error(Formal, _), Message).
message_text(Term, Message) :-
    error_message(Term, Message).

refused(error(syntax_error(What), stream(_, Line, _, _))) :- !,
    message_text(error(syntax_error(What), _), Message),
    throw(crossprolog_file(Line, Message)).
refused(Error) :-
    message_text(Error, Message),
    throw(crossprolog_file(0, Message)).

%!  first_solutions(+Encoding, +Puzzle, +Limit, +Seconds, -Result) is det.
%
%   Result holds up to Limit solutions, in search order.
first_solutions(Encoding, Puzzle, Limit, Seconds, Result) :-
    nb_setval(crossprolog_incumbent, none),
    collected(Solution, solution(Encoding, Puzzle, Solution), Limit, Seconds, Result0),
    nb_getval(crossprolog_incumbent, Best),
    with_best(Result0.status, Best, Result0, Result).

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

%   Goal, a batch whose calls of within_time/2 each have Seconds, runs with one
%   alarm, not one per call (an alarm costs a call 20 µs, a fifth of a small
%   search): the alarm goes off at the latest when the running call's time is
%   up, and then either ends it or, when its time is not up (the call began
%   after the alarm was set), goes off again when it is.
with_batch_alarm(Seconds, Goal) :-
    Seconds > 0, !,
    setup_call_cleanup(( nb_setval(crossprolog_deadline, inf),
                         alarm(Seconds, batch_alarm(Seconds), Id, [remove(false)]),
                         nb_setval(crossprolog_batch_alarm, Id) ),
                       Goal,
                       ( nb_setval(crossprolog_batch_alarm, none),
                         remove_alarm(Id) )).
with_batch_alarm(_, Goal) :-
    call(Goal).

%   The batch's alarm went off: end the running call when its time is up,
%   else go off again when it is (or, between calls, Seconds later).
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
    ;   Delay is min(Deadline - Now, Seconds),
        uninstall_alarm(Id),
        install_alarm(Id, Delay)
    ).

batch_member(Encoding, Limit, Seconds, Keep, Puzzle, Result) :-
    true(Keep), !,
    first_solutions(Encoding, Puzzle, Limit, Seconds, Result).
batch_member(Encoding, Limit, Seconds, _, Puzzle, Result) :-
    count_solutions(Encoding, Puzzle, Limit, Seconds, Result).

%   Python's True, as janus passes it, or the atom.
true(@(true)).
true(true).

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
%   called halt (usercode:user_call/2); abort: a user's encoding called
%   abort/0; encoding: anything else, a bug in an encoding).
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
error_kind(crossprolog_usage(_), usage) :- !.
error_kind(crossprolog_usage(_, _), usage) :- !.
error_kind(usercode_halt(_, _, _, _), usage) :- !.
error_kind(_, encoding).

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
%   from Python while the main thread runs Python.
take_ctrl_c :-
    thread_self(Self),
    (   Self == main
    ->  on_signal(int, Before, throw),
        remember_ctrl_c(Before),
        (   Before \== throw,          % not taken already, in this call from Python
            python_interrupted
        ->  throw(error(signal(int, 2), _))
        ;   true
        )
    ;   true
    ).

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

%   The handler before, kept for give_back_ctrl_c/0.
:- dynamic ctrl_c_before/1.

remember_ctrl_c(throw) :- !.
remember_ctrl_c(Before) :-
    ctrl_c_before(Before), !.
remember_ctrl_c(Before) :-
    retractall(ctrl_c_before(_)),
    assertz(ctrl_c_before(Before)).

%!  give_back_ctrl_c is det.
%
%   Puts back the Ctrl-C handler within/2 replaced.  Called in the main
%   thread with Ctrl-C held by the operating system (engine.call does), so
%   that none comes meanwhile: one Prolog took but has not acted on yet is
%   thrown here, at this call, as it would have been in the search.
give_back_ctrl_c :-
    (   on_signal(int, throw, throw),
        ctrl_c_before(Before)
    ->  on_signal(int, _, Before)
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

%!  fact_text(+Name, +Data, -Text) is det.
%
%   Text is the clause Name(Data), quoted and laid out by portray_clause/2,
%   so that reading it back gives Data whatever atoms it holds.
fact_text(Name, Data, Text) :-
    atom_string(Functor, Name),
    Fact =.. [Functor, Data],
    with_output_to(string(Text), portray_clause(Fact)).

%!  module_text(+Module, -Text, -Inlined) is det.
%
%   Text is the source of the loaded Module, as its file has it (comments
%   and layout kept), and the source of every module of crossprolog's own
%   that it loads beside it, and that those load in turn (restarts.pl, the
%   grid kernel's modules), made part of it: their `:- use_module` and
%   `:- reexport` directives of one another and those modules' own headers
%   cut out.  Inlined names those modules, each after the ones it loads,
%   so that a module's goal expansions come before the code that uses
%   them.  An exported program needs no other file.
module_text(Module, Text, Inlined) :-
    module_property(Module, file(File)),
    file_directory_name(File, Directory),
    loaded_after(Directory, [], Module, [], Ordered),
    once(append(Inlined, [Module], Ordered)),
    findall(Drop, ( member(Name, Inlined), loading_directive(Name, Drop) ), Drops),
    source_without(File, Module, Drops, Own),
    maplist(inlined_text(Drops), Inlined, Texts),
    atomic_list_concat([Own|Texts], Text).

%   Ordered is Ordered0 with Module and the modules beside it that it
%   loads, at any depth, each after those it loads; none of Path (the
%   modules on the way here) again.
loaded_after(Directory, Path, Module, Ordered0, Ordered) :-
    (   ( memberchk(Module, Ordered0) ; memberchk(Module, Path) )
    ->  Ordered = Ordered0
    ;   findall(Used, beside(Module, Directory, Used), Used0),
        sort(Used0, Uses),
        foldl(loaded_after(Directory, [Module|Path]), Uses, Ordered0, Ordered1),
        append(Ordered1, [Module], Ordered)
    ).

%   Used is a module loaded from Directory, whose predicates Module imports.
beside(Module, Directory, Used) :-
    predicate_property(Module:Head, imported_from(Used)),
    \+ predicate_property(Module:Head, built_in),
    module_property(Used, file(File)),
    file_directory_name(File, Directory).

loading_directive(Name, (:- use_module(Name))).
loading_directive(Name, (:- use_module(Name, _))).
loading_directive(Name, (:- reexport(Name))).
loading_directive(Name, (:- reexport(Name, _))).

inlined_text(Drops, Module, Text) :-
    module_property(Module, file(File)),
    file_base_name(File, Base),
    source_without(File, Module, [(:- module(_, _))|Drops], Source),
    format(string(Text), "~n% ~w, inlined~n~w", [Base, Source]).

%!  source_without(+File, +Module, +Drops, -Text) is det.
%
%   Text is the text of File without the terms that unify with one of
%   Drops, cut out from where they begin to the end of their full stop.
%   Terms are read with Module's operators.
source_without(File, Module, Drops, Text) :-
    read_file_to_string(File, All, []),
    setup_call_cleanup(open_string(All, In),
                       findall(Span, dropped_span(In, Module, Drops, Span), Spans),
                       close(In)),
    cut_spans(Spans, All, 0, Parts),
    atomic_list_concat(Parts, Text).

dropped_span(In, Module, Drops, From-To) :-
    repeat,
    read_term(In, Term, [subterm_positions(Position), module(Module)]),
    (   Term == end_of_file
    ->  !,
        fail
    ;   memberchk(Term, Drops),
        arg(1, Position, From),
        stream_property(In, position(After)),
        stream_position_data(char_count, After, To)
    ).

cut_spans([], All, At, [Rest]) :-
    sub_string(All, At, _, 0, Rest).
cut_spans([From-To|Spans], All, At, [Kept|Parts]) :-
    Length is From - At,
    sub_string(All, At, Length, _, Kept),
    cut_spans(Spans, All, To, Parts).

%!  defined_of(+Module, +Indicators, -Defined) is det.
%
%   Defined are those of Indicators ([Name, Arity] pairs) that Module
%   defines itself, as "name/arity" texts.
defined_of(Module, Indicators, Defined) :-
    findall(Text, ( member([Name0, Arity], Indicators),
                    atom_string(Name, Name0),
                    functor(Head, Name, Arity),
                    predicate_property(Module:Head, defined),
                    \+ predicate_property(Module:Head, imported_from(_)),
                    format(string(Text), "~w/~w", [Name, Arity]) ),
            Defined).

%!  readable_clause(+Module, +Puzzle, +Names, -Text) is det.
%
%   Text is the clause solution(Solution) :- Goals, laid out by
%   portray_clause/3: the constraints of Puzzle as the family's Module
%   states them for people (its constraints/4), one goal per line, then
%   the labeling, written with the family's operators (clpfd's).  The
%   variables of Solution are named by Names, a term of its shape holding
%   a name for each ("R2C3"); the others by the family.  Names are ours,
%   never the puzzle's text.
readable_clause(Module, Puzzle, Names, Text) :-
    atom_string(M, Module),
    M:constraints(Puzzle, Solution, Named, Goals),
    named_variables(Names, Solution, Cells),
    append(Cells, Named, Bindings),
    conjunction(Goals, Body),
    use_module(library(listing), []),   % declares the setting
    setting(listing:line_width, Width),
    setup_call_cleanup(set_setting(listing:line_width, 10000),    % a goal a line
                       with_output_to(string(Text),
                                      portray_clause(current_output, (solution(Solution) :- Body),
                                                     [variable_names(Bindings), module(M)])),
                       set_setting(listing:line_width, Width)).

named_variables(Names, Solution, Bindings) :-
    flatten(Names, Flat),
    flatten(Solution, Variables),
    maplist(name_binding, Flat, Variables, Bindings).

name_binding(Name, Variable, Atom = Variable) :-
    atom_string(Atom, Name).

conjunction([Goal], Goal) :- !.
conjunction([Goal|Goals], (Goal, Conjunction)) :-
    conjunction(Goals, Conjunction).


                 /*******************************
                 *   EXPLANATIONS: WHAT FOLLOWS  *
                 *******************************/

%   What puzzle makers and stuck solvers ask: is there a solution in which
%   these cells are (or are not) these values, and what do the constraints
%   alone force?  Cells are [Path, Relation, Value] triples: Path is the
%   list of 0-based indices that leads to a cell's variable in the
%   Solution term (a grid: [Row, Column]; a flat list: [Index]), Relation
%   is "=" or "\\=".  A triple [Paths, "apart", Values] asks that at least
%   one of the cells at Paths is not its value in Values (a well-formed
%   puzzle's maker asks for a solution that breaks a clue it would hide).

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
                         (   ( \+ true(Probe) ; probed(Solution) )
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
    ->  throw(crossprolog_usage(consequences, "this encoding does not propagate: choose another"))
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


%   A session keeps one puzzle's constraints posted in an engine of its own
%   and answers restricted_solutions/6 questions about it without posting
%   them again: each question runs in a findall/3, whose backtracking gives
%   the store back as it was.  Making a well-formed puzzle asks dozens of
%   them, and posting costs more than answering.  Restrictions can also be
%   pushed, to hold for every question until they are popped (a stack, last
%   pushed first popped): a maker that asks about nearly the same givens
%   again and again posts each of them a few times, not once a question.

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

serve(question(Cells, Limit, Seconds), Posted) :-
    \+ \+ ( answer(Posted, Cells, Limit, Seconds, Result),
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

answer(inconsistent, _, _, _, _{status: complete, solutions: [], inferences: 0, cpu: 0,
                                 seconds: 0}).
answer(posted(Encoding, Solution, Labeling), Cells, Limit, Seconds, Result) :-
    measured(guarded(Encoding,
                     findall(Solution, limited(Limit, ( restrictions(Solution, Cells),
                                                        call(Labeling),
                                                        checked_answer(Encoding, Solution) )),
                             Solutions)),
             Seconds, Measures),
    (   var(Solutions)
    ->  Solutions = []
    ;   true
    ),
    length(Solutions, N),
    status(Measures, Limit, N, Status),
    Result = Measures.put(_{solutions: Solutions, status: Status}).

%!  session_solutions(+Name, +Cells, +Limit, +Seconds, -Result) is det.
%
%   As restricted_solutions/6, of the puzzle of session Name.
%
%   Prolog takes Ctrl-C before an engine resumes (here and below): one the
%   engine took as it last yielded is acted on when it goes on, and with
%   no handler then it would be dropped.
session_solutions(Name, Cells, Limit, Seconds, Result) :-
    atom_string(Alias, Name),
    take_ctrl_c,
    engine_post(Alias, question(Cells, Limit, Seconds), Result).

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
