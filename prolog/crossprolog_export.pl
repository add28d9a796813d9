:- module(crossprolog_export,
          [ fact_text/3,          % +Name, +Data, -Text
            module_text/3,        % +Module, -Text, -Inlined
            defined_of/3,         % +Module, +Indicators, -Defined
            readable_clause/4     % +Module, +Puzzle, +Names, -Text
          ]).
/** <module> The texts of an exported program: facts, modules inlined, rules for people.

`crossprolog export` writes a program that needs no other file: the
puzzle as a fact (fact_text/3), the encoding's module with crossprolog's
modules it loads inlined (module_text/3), or the family's constraints
written for people (readable_clause/4).
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
% Loaded when first called: the layout of exported programs is not needed by
% every command.
:- autoload(library(listing), [portray_clause/1, portray_clause/3]).
:- autoload(library(settings), [setting/2, set_setting/2]).

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
