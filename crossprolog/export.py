"""A puzzle as a Prolog program that runs anywhere: `swipl FILE`, nothing else installed.

Two forms, each one self-contained file that prints the first solution in
the puzzle's layout (the rows of a grid; a CrossCells drawing with its cells
marked ON or OFF) as `solve` draws it, and exits 0, or prints `no solution`
and exits 1:

- `program`: the encoding's own module, its text as the file has it
  (comments and all), with crossprolog's modules it loads beside it
  (restarts.pl) made part of it; then the puzzle as a fact, and a main that
  posts the model, runs the labeling it hands back and prints.  A user's
  encoding exports the same way, its module inlined.
- `readable`: the puzzle's own constraints as CLP(FD) goals, one per line,
  a variable for each cell named for its place (R2C3), then the labeling:
  the program a person would write by hand for this one puzzle.

Every term taken from the puzzle is written by Prolog itself (portray_clause,
quoted), so text from a puzzle file can only ever be read back as data; the
file name, the one other text from outside, stands in a comment with no line
break it could use.
"""

from __future__ import annotations

from . import engine
from .errors import UsageError, printable
from .puzzle import Puzzle

HEADER = """\
:- encoding(utf8).  % in any locale: the program may hold signs beyond ASCII
% {title} puzzle, {what}: written by `crossprolog export`.
% Run it with: swipl {filename}
% It needs SWI-Prolog 9 and nothing else.
"""

# What the exported program defines beside the encoding's module: none of
# these may be the module's own.
OWN = [["main", 0], ["puzzle", 1], ["solution", 1], ["drawing", 1], ["draw", 2], ["drawn", 2],
       ["at", 3]]

SEARCH = """
% The search, written by `crossprolog export`.

:- initialization(main, main).

%!  puzzle(-Puzzle) is det.
%
%   The puzzle as the {family} module reads it.
{puzzle}
%!  solution(-Solution) is nondet.
%
%   Posts the constraints of the {encoding} encoding (the pure relation),
%   then runs the labeling it hands back.
solution(Solution) :-
    puzzle(Puzzle),
    {model},
    call(Labeling).
"""

READABLE = """
:- use_module(library(clpfd)).
:- initialization(main, main).

%!  solution(-Solution) is nondet.
%
%   The constraints of the puzzle, one per line, on a variable per cell
%   named for its place (R2C3: row 2, column 3), then the labeling.
{clause}"""

PRINTING = """
%!  drawing(-Lines) is det.
%
%   How a solution is printed, line by line: text as it stands, _{{at: Path}}
%   the value at Path in the solution, _{{on: I, text: T, off: F}} the text T
%   where cell I is on, F where it is off.
{drawing}
% Collect garbage in this thread: a collector thread still busy when the program
% halts holds up the halt and prints "threads wouldn't die" (on a loaded machine).
:- set_prolog_gc_thread(false).

main :-
    (   solution(Solution)
    ->  drawing(Lines),
        maplist(draw(Solution), Lines)
    ;   format("no solution~n"),
        halt(1)
    ).

draw(Solution, Segments) :-
    maplist(drawn(Solution), Segments),
    nl.

drawn(Solution, Segment) :-
    is_dict(Segment), !,
    (   get_dict(at, Segment, Path)
    ->  at(Path, Solution, Value),
        write(Value)
    ;   at([Segment.on], Solution, On),
        (   On =:= 1
        ->  write(Segment.text)
        ;   write(Segment.off)
        )
    ).
drawn(_, Text) :-
    write(Text).

at([], Value, Value).
at([I|Is], Term, Value) :-
    nth0(I, Term, Sub),
    at(Is, Sub, Value).
"""


def program(puzzle: Puzzle, encoding: str | None = None, filename: str = "puzzle.pl") -> str:
    """The text of a self-contained Prolog program that solves `puzzle` with `encoding`
    (a family's, or a user's loaded one)."""
    family = puzzle.record.prolog
    encoding = engine.checked_encoding(family, encoding)
    if engine.paradigms.owns(encoding):
        raise UsageError(f"{encoding} is not a Prolog encoding: export it as ASP or MiniZinc "
                         "(--format lp or mzn)")
    _taken(puzzle, encoding)
    user = engine.user_encoding(encoding)
    module = user.name if user else family
    source, inlined = _module_text(module)
    files = ", ".join(f"{name}.pl" for name in inlined)
    what = (f"encoding {encoding} of {user.path}" if user
            else f"{encoding} encoding" + (f", {files} inlined" if inlined else ""))
    model = ("model(Puzzle, Solution, Labeling)" if user
             else f"model({encoding}, Puzzle, Solution, Labeling)")
    # A user's path or module name, as the file name, may hold a line break: one line each.
    return (HEADER.format(title=puzzle.record.title, what=printable(what), filename=printable(filename))
            + "\n" + source.rstrip("\n") + "\n"
            + SEARCH.format(family=family, encoding=encoding, model=model,
                            puzzle=_clause("puzzle", puzzle.prolog_data()))
            + PRINTING.format(drawing=_clause("drawing", puzzle.drawing_template())))


def _taken(puzzle: Puzzle, encoding: str) -> None:
    """UsageError if `encoding` cannot take `puzzle` (`rows`, a CrossProduct with zero
    digits, say), as solving it would say: the family's Prolog module decides
    (crossprolog_models.pl, encoding_takes/2), for its model and here alike."""
    family = puzzle.record.prolog
    engine.call(f"crossprolog:encoding_takes({engine.ENCODING}, P)",
                {**engine.encoding_inputs(family, encoding, ()), "P": puzzle.prolog_data()}, module=family,
                encoding=encoding)


def readable(puzzle: Puzzle, filename: str = "puzzle.pl") -> str:
    """The text of a Prolog program stating `puzzle`'s own constraints as CLP(FD) goals,
    one per line, on variables named for their places, then the labeling."""
    clause = engine.call("crossprolog:readable_clause(M, P, N, S)",
                         {"M": puzzle.record.prolog, "P": puzzle.prolog_data(),
                          "N": puzzle.variable_names()}, module=puzzle.record.prolog)["S"]
    return (HEADER.format(title=puzzle.record.title, what="its constraints by hand",
                          filename=printable(filename))
            + READABLE.format(clause=clause)
            + PRINTING.format(drawing=_clause("drawing", puzzle.drawing_template())))


def _module_text(module: str) -> tuple[str, list[str]]:
    """The source of `module` with the modules it loads from beside it inlined, and
    their names; UsageError if one of them defines what the exported program defines
    itself."""
    answer = engine.call("crossprolog:module_text(M, T, I), "
                         "findall([_Mod, _D], ( member(_Mod, [M|I]), "
                         "crossprolog:defined_of(_Mod, Own, _D), _D \\== [] ), Clashes)",
                         {"M": module, "Own": OWN})
    if answer["Clashes"]:
        defining, defined = answer["Clashes"][0]
        raise UsageError(f"cannot export: the module {defining} defines {', '.join(defined)}, "
                         "which the exported program defines itself; rename them in the module")
    return str(answer["T"]), [str(name) for name in answer["I"]]


def _clause(name: str, data: object) -> str:
    """The fact name(Data), laid out by Prolog's portray_clause/2."""
    return engine.call("crossprolog:fact_text(N, D, S)", {"N": name, "D": data})["S"]
