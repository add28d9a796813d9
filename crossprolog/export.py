"""A puzzle as a standalone Prolog program: the bundled modules, the puzzle as data, a search.

The program runs with plain `swipl FILE`: it prints the first solution and
exits 0, or prints `no solution` and exits 1.  Every term in it that came from
the puzzle is written by Prolog itself (`portray_clause/2`, quoted), so text
from a puzzle file can only ever be read back as data; the file name, the one
other text from outside, stands in a comment with no line break it could use.
"""

from __future__ import annotations

from . import engine
from .puzzle import Puzzle

PROGRAM = """\
% {family} puzzle, {encoding} encoding: written by `crossprolog export`.
% Run it with: swipl {filename}

:- use_module({driver}).
:- use_module({module}, []).
:- initialization(main, main).

%!  puzzle(-Puzzle) is det.
%
%   The puzzle as the {family} module reads it.
{puzzle}
%!  main
%
%   Posts the constraints of the {encoding} encoding (the pure relation),
%   then runs the labeling it hands back, and prints the first solution
%   found.
main :-
    puzzle(Puzzle),
    (   {family}:model({encoding}, Puzzle, Solution, Labeling),
        call({family}:Labeling)
    ->  crossprolog:show_solution(Solution)
    ;   format("no solution~n"),
        halt(1)
    ).
"""


def program(puzzle: Puzzle, encoding: str | None = None, filename: str = "puzzle.pl") -> str:
    """The text of a standalone Prolog program that solves `puzzle` with `encoding`."""
    module = puzzle.record.prolog
    encoding = engine.checked_encoding(module, encoding)
    return PROGRAM.format(family=module, encoding=encoding, filename=_comment_safe(filename),
                          driver=_quoted(engine.prolog_file(f"{engine.DRIVER}.pl")),
                          module=_quoted(engine.prolog_file(f"{module}.pl")),
                          puzzle=_clause("puzzle", puzzle.prolog_data()))


def _comment_safe(text: str) -> str:
    """`text` fit for a `%` comment line: nothing that could end the line (or hide text)."""
    return "".join(char if char.isprintable() else "?" for char in text)


def _quoted(atom: str) -> str:
    """`atom` as a quoted Prolog atom, written by Prolog."""
    return engine.call("format(string(S), '~q', [A])", {"A": atom})["S"]


def _clause(name: str, data: object) -> str:
    """The fact name(Data), laid out by Prolog's portray_clause/2."""
    return engine.call("crossprolog:fact_text(N, D, S)", {"N": name, "D": data})["S"]
