:- module(crossprolog_loading,
          [ load_encoding/4       % +File, +Names, +Seconds, -Result
          ]).
/** <module> A user's encoding loaded from its file, and what Prolog said about it.
*/

:- use_module(library(apply)).
:- use_module(crossprolog_runs, [error_kind/2, error_message/2]).

%!  load_encoding(+File, +Names, +Seconds, -Result) is det.
%
%   Loads the user's encoding in File, a module file, into its own module,
%   as user code (usercode:user_load/3: within Seconds, 0 for no limit,
%   Ctrl-C heard, halt trapped, output to standard error): Result is
%   _{module: Module, family: Family} (Family "" when the module exports no
%   family/1 naming one of Names.families), _{error: Message, line: Line}
%   (Line 0 when no line is to blame), or _{timeout: true} (with
%   inferences: Most when it had no time limit but an inference bound).  A module name
%   in Names.reserved (crossprolog's own modules and encodings), or one that
%   another file, a library or one of Names.taken ([Name, Path]: the user's
%   encodings of other paradigms) already holds, is refused before loading.
%   Errors and warnings Prolog prints while loading (a syntax error, a
%   singleton variable, a failed directive) are taken, not printed: the
%   first is the Message.  After an error nothing of File stays loaded.
%   File is data from the caller, never read as a goal.
load_encoding(Path, Names, Seconds, Result) :-
    atom_string(File, Path),
    atoms(Names.reserved, Reserved),
    atoms(Names.families, Families),
    catch(( header_module(File, Module),
            free_name(Module, Reserved, Names.taken),
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
load_error(usercode_inferences(Most), _, _{timeout: true, inferences: Most}) :- !.
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

free_name(Module, Reserved, Taken) :-
    (   memberchk(Module, Reserved)
    ->  refuse(1, "the module name ~q is crossprolog's own: rename the module", [Module])
    ;   member([Name, Other], Taken), atom_string(Module, Name)
    ->  refuse(1, "an encoding named ~q is already loaded, from ~w: rename the module", [Module, Other])
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
    crossprolog_loading:capturing, !,
    crossprolog_loading:captured_message(Term).

%   What stops a load is passed on; any other error is what Prolog had to say.
captured_error(Error) :-
    (   Error == time_limit_exceeded
    ;   Error = usercode_inferences(_)
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
