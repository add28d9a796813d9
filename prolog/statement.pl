:- module(statement,
          [ statement/5,          % +Module, +Puzzle, +Low, +High, -Statement
            rules_statement/5     % +Rows, +Rules, +Low, +High, -Statement
          ]).
/** <module> A digit-grid family's rules as plain data, for the hint techniques.

A family of the grid kernel states its rules once, as kernel rules on its
cell variables (grid.pl): Module:Module(Puzzle, Rows, Rules), as
sudoku:sudoku/3 and kenken:kenken/3 do.  This module reads that one
statement a fourth way: as data a person's techniques reason over
(crossprolog/techniques.py), with the cells numbered 0.. in reading order
of Rows:

    _{cells: [[Row, Column], ...],     where each cell is in Rows
      units: [[I, ...], ...],          each all_distinct rule
      tables: [_{cells: [I, ...], fillings: [[D, ...], ...]}, ...],
                                       each sum, product, difference,
                                       ratio or table rule, its fillings
                                       (no digit twice in a unit, as the
                                       kernel's own tables); a sum or
                                       product of more than
                                       grid_fillings:most_fillings/1 as
                                       _{cells, op: "+" or "*", target}
      givens: [[I, D], ...]}           each given rule

No search: the fillings are what grid_fillings:few_fillings/4 gives.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
:- use_module(grid, [is_unit/1, is_given/1, table_rule/1]).
:- use_module(grid_fillings, [rule_cells/2, few_fillings/4, folded_rule/3]).

%!  statement(+Module, +Puzzle, +Low, +High, -Statement) is det.
%
%   Statement is the rules Module:Module/3 states for Puzzle (a dict from
%   Python), with digits Low..High, as data (see the module's header).
statement(ModuleText, Puzzle, Low, High, Statement) :-
    atom_string(Module, ModuleText),
    Goal =.. [Module, Puzzle, Rows, Rules],
    call(Module:Goal),
    rules_statement(Rows, Rules, Low, High, Statement).

%!  rules_statement(+Rows, +Rules, +Low, +High, -Statement) is det.
%
%   Statement is Rules on the cell variables of the grid Rows as data.  A
%   place of Rows that holds no variable (a Kakuro's black cell) is no cell.
rules_statement(Rows, Rules, Low, High,
                _{cells: Places, units: Units, tables: Tables, givens: Givens}) :-
    findall([R, C], ( nth0(R, Rows, Row), nth0(C, Row, Cell), var(Cell) ), Places),
    append(Rows, Grid),
    include(var, Grid, Variables),
    length(Variables, NCells),
    Last is NCells - 1,
    numlist(0, Last, Numbers),
    copy_term_nat(Variables-Rules, Numbers-Numbered),
    include(is_unit, Numbered, UnitRules),
    maplist(arg(1), UnitRules, Units),
    include(is_given, Numbered, GivenRules),
    maplist(given_pair, GivenRules, Givens),
    include(table_rule, Numbered, TableRules),
    convlist(rule_data(Units, Low-High), TableRules, Tables).

given_pair(given(I, D), [I, D]).

%   A table rule's cells and fillings, digits Low..High, none twice in
%   cells that share a unit; for a sum or product of too many fillings to
%   list (grid_fillings:most_fillings/1), its operation and target instead
%   (the techniques fold it cell by cell, as the kernel does), and no
%   table (fails) for another rule that large.
rule_data(Units, Digits, Rule, Data) :-
    rule_cells(Rule, Cells),
    lined(Cells, Units, Lined),
    (   few_fillings(Rule, Lined, Digits, Fillings)
    ->  Data = _{cells: Cells, fillings: Fillings}
    ;   folded_rule(Rule, Op, Target),
        atom_string(Op, OpText),
        Data = _{cells: Cells, op: OpText, target: Target}
    ).

%   For each cell, a flag (1 or 0) for each cell after it: whether the two
%   share a unit (as grid_fillings:lined_after/3, on units as lists of numbers).
lined([], _, []).
lined([I|Is], Units, [Flags|Lined]) :-
    maplist(shared(Units, I), Is, Flags),
    lined(Is, Units, Lined).

shared(Units, I, J, Flag) :-
    (   member(Unit, Units), memberchk(I, Unit), memberchk(J, Unit)
    ->  Flag = 1
    ;   Flag = 0
    ).
