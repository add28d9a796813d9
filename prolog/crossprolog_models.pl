:- module(crossprolog_models,
          [ guarded/2,            % +Encoding, :Goal
            encoding_model/4,     % +Encoding, +Puzzle, -Solution, -Labeling
            encoding_takes/2,     % +Encoding, +Puzzle
            checked_answer/2      % +Encoding, +Solution
          ]).
/** <module> An encoding's model, posted, and a user's answer checked.

An encoding arrives from Python as encoding(Module, Name) for a family's
own, or encoding(Module, Shape) for a user's module (see crossprolog.pl).
encoding_model/4 posts its constraints (encoding_takes/2 says whether it
takes the puzzle, posting nothing), guarded/2 runs a goal as a user's
code when the encoding is a user's, and checked_answer/2 checks what a
user's labeling gave.
*/

:- use_module(library(apply)).

:- meta_predicate guarded(+, 0).

%!  guarded(+Encoding, :Goal) is nondet.
%
%   Goal, run as a user's code (usercode:user_call/2: halt trapped, output
%   to standard error) when Encoding is a user's.
guarded(encoding(Module, Shape), Goal) :-
    is_list(Shape), !,
    atom_string(M, Module),
    usercode:user_call(M, Goal).
guarded(_, Goal) :-
    call(Goal).

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

%!  encoding_takes(+Encoding, +Puzzle) is det.
%
%   Throws crossprolog_usage(Name, Message) when a family's encoding cannot
%   take Puzzle (a CrossProduct with zero digits for rows, say), as its
%   model/4 would: the family module's takes/2 says, when it has one.  For
%   what posts no model (export).  A user's encoding's model/3 alone decides.
encoding_takes(encoding(_, Shape), _) :-
    is_list(Shape), !.
encoding_takes(encoding(Module, Name), Puzzle) :-
    atom_string(M, Module),
    atom_string(N, Name),
    (   current_predicate(M:takes/2)
    ->  M:takes(N, Puzzle)
    ;   true
    ).

%!  checked_answer(+Encoding, +Solution) is det.
%
%   A user's Solution is ground and of its Shape; a family's is trusted.
checked_answer(encoding(Module, Shape), Solution) :-
    is_list(Shape), !,
    atom_string(M, Module),
    checked_answer(M, Shape, Solution).
checked_answer(_, _).

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
    ;   flatten(Solution, Values),
        member(Value, Values),
        \+ typable(Value)
    ->  Digits is msb(abs(Value)) * 0.30103,
        format(string(Message), "its solution holds an integer of about ~0f digits, more than a puzzle states",
               [Digits]),
        throw(crossprolog_usage(M, Message))
    ;   true
    ).

%   A puzzle's text states integers of at most 1,000 digits (puzzle.MAX_DIGITS),
%   and Python prints no more than 4,300.  Below 2^3321 (10^999.7) without
%   working out 10^1000: a count runs this on every cell of every solution.
typable(0) :- !.
typable(Value) :-
    msb(abs(Value)) < 3321, !.
typable(Value) :-
    abs(Value) < 10^1000.

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
