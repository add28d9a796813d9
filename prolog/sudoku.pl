:- module(sudoku,
          [ encodings/1,        % -Names
            model/4,            % +Encoding, +Puzzle, -Rows, -Labeling
            constraints/4       % +Puzzle, -Rows, -Named, -Goals
          ]).
/** <module> Sudoku: every row, column and 3×3 box holds the same nine distinct
digits, optionally chosen so that the numbers the rows (or columns) spell
have the greatest possible common divisor.

A puzzle arrives from Python as a dict

    _{givens: [[Row, Column, Digit], ...], low: Low, high: High,
      objective: Objective}

with 0-based Row and Column.  The digits in use are nine of Low..High (so
all of them for 1..9; for 0..9 one digit is left out, the same one in every
unit).  Objective is "none", "gcd(rows)" or "gcd(cols)" (a string or an
atom): maximize the greatest common divisor of the nine 9-digit numbers the
rows (or columns, read top to bottom) spell, leading zeros allowed.

The solution is the grid, a list of rows; with an objective, only grids
whose GCD is the largest any valid grid reaches are solutions.

Two facts shape the objective.  Every row holds the same digits, so each
column holds them too, and the line numbers add up to S × 111111111, S
being the sum of the digits in use: the GCD divides S × 111111111, which
leaves a few hundred candidates.  And a line number is linear in its
digits, so fixing it to a multiple of a candidate fixes all nine digits.

model/4 is the pure relation, and hands back the labeling.  For an
objective, the labeling first finds the largest candidate G that some grid
reaches, proving by complete search that every larger one is reached by
none, then labels the grids whose GCD is G, so every solution is an
optimal grid.

Encodings (same solutions, different strength and search):

  - candidates (the default): the grid kernel's search (grid.pl) over
    sudoku/3's statement of the rules (every row, column and box all
    different): naked and hidden singles on bitmasks rather than CLP(FD)
    propagators, and locked candidates from each box (a box's digit
    confined to one of its rows or columns leaves the rest of the line),
    branching on a cell with the fewest candidates, among those the one
    with the fewest digits placed in its units.  For a
    range of ten digits, the labeling first chooses the digit left out.
    For an objective, the GCD candidates are tried as for distinct,
    largest first: each line keeps the table of the multiples it can
    still spell, narrowed as its cells are (a propagator added to the
    kernel's), and its cells keep only the digits some entry has; a line
    with too many multiples to list is checked once placed.
  - cardinality: each row and column holds each digit once
    as a global_cardinality/3 with value consistency, which counts for
    every digit the cells that can still take it (naked and hidden
    singles) at little cost per wake-up; the boxes are all_distinct,
    whose matching also finds naked and hidden subsets.  First-fail
    labeling; the objective as in distinct.  Counting on every unit, or
    matching on every unit (distinct), or on the lines instead of the
    boxes, each costs more inferences on the hard classics.
  - distinct: all_distinct on every unit, first-fail labeling; for an
    objective each line is also given the table of the multiples of the
    candidate that its cells can spell.
  - modulo: all_distinct, first-fail labeling of the digits; the objective
    prunes only through `Number mod G #= 0`.
  - different: all_different (weaker propagation), leftmost labeling;
    objective as in modulo.

The modules, each loading only those before it: sudoku_rules.pl (the
grid's units, and sudoku/3: the rules in the grid kernel's terms),
sudoku_gcd.pl (the objective, and how the CLP(FD) encodings search for
it), sudoku_candidates.pl (the candidates encoding), and this one (the
encodings, model/4, the CLP(FD) units, and constraints/4 for `export
--readable`).
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(grid).
:- use_module(sudoku_rules, [sudoku/3, grid/1, give/2, lines_and_boxes/3]).
% label_grid/5, optimal_grids/4, label_candidates/2 and optimal_candidates/3 are the
% labeling goals model/4 hands back, called here by the driver.
:- use_module(sudoku_gcd, [objective/6, objective_lines/3, gcd_candidates/3, place_values/1,
                           label_grid/5, optimal_grids/4]).
:- use_module(sudoku_candidates, [candidates_model/3, label_candidates/2, optimal_candidates/3]).

encodings([candidates, cardinality, distinct, modulo, different]).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of digit variables of Puzzle, constrained the way
%   Encoding says; Labeling labels them (the optimal grids only, for an
%   objective).  Fails when the constraints are found inconsistent.
model(candidates, Puzzle, Rows, Labeling) :- !,
    candidates_model(Puzzle, Rows, Labeling).
model(Encoding, Puzzle, Rows, Labeling) :-
    _{givens: Givens, low: Low, high: High, objective: ObjectiveText} :< Puzzle,
    atom_string(Objective, ObjectiveText),
    grid(Rows),
    maplist(give(Rows), Givens),
    unused_digits(Low, High, Rows, Unused, Sum),
    lines_and_boxes(Rows, Lines, Boxes),
    maplist(unit(Encoding, line, Low-High, Unused), Lines),
    maplist(unit(Encoding, box, Low-High, Unused), Boxes),
    objective(Objective, Encoding, Rows, Low-High, Sum, Labeling).


%!  unused_digits(+Low, +High, +Rows, -Unused, -Sum) is det.
%
%   Unused lists the digits of Low..High that the grid leaves out: none
%   for nine digits, one for ten.  Sum is the sum of the nine in use.
unused_digits(Low, High, Rows, Unused, Sum) :-
    append(Rows, Digits),
    Digits ins Low..High,
    Left is High - Low + 1 - 9,
    length(Unused, Left),
    Unused ins Low..High,
    sum(Unused, #=, Out),
    Sum #= (Low + High) * (High - Low + 1) // 2 - Out.

%!  unit(+Encoding, +Kind, +Low-High, +Unused, +Unit) is semidet.
%
%   Unit (a line or a box, as Kind says) and the unused digits together
%   hold every digit of Low..High once, so all units leave out the same
%   digits.
unit(cardinality, line, Digits, Unused, Unit) :- !,
    append(Unused, Unit, Cells),
    each_digit_once(Digits, Cells).
unit(different, _, _, Unused, Unit) :- !,
    append(Unused, Unit, Cells),
    all_different(Cells).
unit(_, _, _, Unused, Unit) :-           % distinct, modulo; boxes of cardinality
    append(Unused, Unit, Cells),
    all_distinct(Cells).

%!  each_digit_once(+Low-High, +Cells) is semidet.
%
%   Every digit of Low..High is taken by exactly one of Cells.  Value
%   consistency counts, for each digit, the cells whose domain still
%   holds it: one left takes the digit (a hidden single), a placed digit
%   leaves the other cells' domains (a naked single).
each_digit_once(Low-High, Cells) :-
    numlist(Low, High, Digits),
    maplist(once_pair, Digits, Pairs),
    global_cardinality(Cells, Pairs, [consistency(value)]).

once_pair(Digit, Digit-1).

%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   The puzzle's own constraints as a person writes them by hand, for an
%   exported program to read: Goals are CLP(FD) goals on the digits of Rows
%   (not posted): their range, then sudoku/3's statement (the givens, and
%   all_distinct for every row, column and box, each with `Unused`, the
%   digit left out, when nine are chosen from ten), then the labeling.
%   An objective adds each line's number (`Row1`..`Row9`, or
%   `Column1`..), their sum, and that `G`
%   divides them, G one of the candidates; the labeling tries G from the
%   largest down, each by a complete search of the digits, so the first
%   solution is an optimal grid.  That is the `modulo` encoding: plain to
%   read, slow to run (25 s on the January 2025 puzzle).  Named names
%   Unused, G and the line numbers.
constraints(Puzzle, Rows, Named, Goals) :-
    _{low: Low, high: High, objective: ObjectiveText} :< Puzzle,
    atom_string(Objective, ObjectiveText),
    sudoku(Puzzle, Rows, Rules),
    Left is High - Low + 1 - 9,
    length(Unused, Left),
    unused_named(Unused, Low-High, UnusedGoals, UnusedNamed),
    partition(is_given, Rules, GivenRules, UnitRules),
    maplist(rule_goal, GivenRules, GivenGoals),
    maplist(unit_goal(Unused), UnitRules, UnitGoals),
    objective_goals(Objective, Rows, Unused, Low-High, ObjectiveNamed, ObjectiveGoals, Labeling),
    append(UnusedNamed, ObjectiveNamed, Named),
    maplist(domain_goal(Low..High), Rows, DomainGoals),
    append([DomainGoals, UnusedGoals, GivenGoals, UnitGoals, ObjectiveGoals, Labeling], Goals).

domain_goal(Domain, Row, Row ins Domain).


unused_named([], _, [], []).
unused_named([Unused], Low-High, [Unused in Low..High], ['Unused' = Unused]).

%   A unit of sudoku/3's statement, with the digit a range of ten leaves out
%   (Unused) among its cells: the ten are then all different.
unit_goal(Unused, all_distinct(Unit), all_distinct(Cells)) :-
    append(Unused, Unit, Cells).

objective_goals(none, Rows, _, _, [], [], [labeling([ff], Digits)]) :- !,
    append(Rows, Digits).
objective_goals(Objective, Rows, Unused, Low-High, ['G' = G|NumberNames], Goals,
                [labeling([down], [G]), labeling([ff], Digits)]) :-
    append(Rows, Digits),
    objective_lines(Objective, Rows, Lines),
    same_length(Lines, Numbers),
    maplist(number_goal, Lines, Numbers, NumberGoals),
    numbers_named(Objective, Numbers, NumberNames),
    sum_in_use(Low-High, Unused, Sum),
    rule_goal(sum(Numbers, Sum*111111111), SumGoal),
    maplist(divisible_goal(G), Numbers, DivisibleGoals),
    gcd_candidates(Low, High, Pairs),
    findall(C, member([C, _], Pairs), Candidates0),
    sort(Candidates0, Ascending),
    reverse(Ascending, [First|Candidates]),
    foldl(union_expression, Candidates, First, Domain),
    append([NumberGoals, [SumGoal, G in Domain], DivisibleGoals], Goals).

%   The number Line spells, its first digit the most significant.
number_goal(Line, Number, Number #= Expression) :-
    place_values(Values),
    maplist(place_term, Values, Line, Terms),
    rule_goal(sum(Terms, Number), Expression #= Number).

place_term(1, Digit, Digit) :- !.
place_term(Value, Digit, Value*Digit).

numbers_named(Objective, Numbers, Named) :-
    (   Objective == 'gcd(rows)'
    ->  Prefix = 'Row'
    ;   Prefix = 'Column'
    ),
    foldl(number_named(Prefix), Numbers, Named, 1, _).

number_named(Prefix, Number, Name = Number, I, I1) :-
    atom_concat(Prefix, I, Name),
    I1 is I + 1.

%   The sum of the nine digits in use, less the one left out of ten.
sum_in_use(Low-High, Unused, Sum) :-
    All is (Low + High) * (High - Low + 1) // 2,
    (   Unused = [Out]
    ->  Sum = All - Out
    ;   Sum = All
    ).

divisible_goal(G, Number, Number mod G #= 0).

union_expression(Value, Domain, Domain \/ Value).
