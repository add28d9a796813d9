/*  The statement of a grid-kernel family as data (prolog/statement.pl), with plunit.
    Run by tests/test_prolog_units.py, or by hand from the repository root:

        swipl -g run_tests -t halt tests/prolog/test_statement.pl
*/

:- use_module('../../prolog/statement').
:- use_module('../../prolog/kenken').
:- use_module(library(plunit)).

:- begin_tests(statement).

test(cells_units_and_givens) :-
    Rows = [[A, B], [C, D]],
    rules_statement(Rows, [all_distinct([A, B]), all_distinct([A, C]), given(D, 2)], 1, 2, S),
    assertion(S.cells == [[0, 0], [0, 1], [1, 0], [1, 1]]),
    assertion(S.units == [[0, 1], [0, 2]]),
    assertion(S.givens == [[3, 2]]),
    assertion(S.tables == []).

test(a_cage_in_a_row_lists_fillings_without_a_digit_twice) :-
    Rows = [[A, B, C]],
    rules_statement(Rows, [all_distinct([A, B, C]), sum([A, B], 4)], 1, 3, S),
    S.tables = [Table],
    assertion(Table.cells == [0, 1]),
    assertion(Table.fillings == [[1, 3], [3, 1]]).

test(a_cage_across_units_may_repeat_a_digit) :-
    Rows = [[A, B], [C, _]],
    rules_statement(Rows, [product([A, B, C], 4)], 1, 4, S),
    S.tables = [Table],
    assertion(memberchk([2, 1, 2], Table.fillings)),
    assertion(memberchk([1, 1, 4], Table.fillings)).

test(read_from_the_family_module) :-
    Puzzle = _{size: 3, cages: [_{cells: [[0, 0], [0, 1]], op: "-", target: 2},
                                _{cells: [[1, 0]], op: "=", target: 3}], givens: []},
    statement("kenken", Puzzle, 1, 3, S),
    assertion(S.givens == [[3, 3]]),
    S.tables = [Table],
    assertion(Table.fillings == [[1, 3], [3, 1]]),
    length(S.units, 6).

:- end_tests(statement).
