"""Sumplete and Number Sums: CrossCells games whose cells all add, written as those games
show them (see grammars.crosscells)."""

from __future__ import annotations

from typing import NamedTuple, Sequence

import pyparsing as pp

from ..crosscells import NUMBER_SUMS, SUMPLETE, TOTAL, Cell, Constraint, CrossCells, Place, unfit_rules
from ..crosscells import Line as CellLine
from .common import Line, Token, error_at, located, parse_line
from .crosscells_tokens import (END, LETTER, MARKED, checked_number, constraint_action, layout_of,
                                placed, puzzle_lines)


class Number(NamedTuple):
    """A number of the grid, its region letters and a solver's mark (`!` kept, `~`
    deleted, "" none): a cell, or a target, by where it stands."""

    value: int
    group: str
    mark: str


def _grid_number(text: str, loc: int, t: pp.ParseResults) -> Number:
    return Number(checked_number(text, loc, t["number"]), t["group"], t["decided"])


grid_number = pp.Regex(rf"(?P<number>-?\d+)(?P<group>{LETTER}*)(?P<decided>[!~]?){END}") \
    .set_parse_action(_grid_number)
region_target = pp.Regex(rf"(?P<group>{LETTER})=(?P<value>-?\d+){END}").set_parse_action(
    constraint_action(TOTAL))
SUMS_WHAT = {SUMPLETE: "a number like 5 or -3",
             NUMBER_SUMS: "a number like 5, -3 or 5a, or a region's target like a=12"}
GridLine = tuple[Line, list[Token]]
SUMS_LINES = {game: pp.OneOrMore(located((region_target | grid_number).set_name(what))).parse_with_tabs()
              for game, what in SUMS_WHAT.items()}


def parse_sums(lines: Sequence[Line], game: str, first_cell: str, precedence: str) -> CrossCells:
    """The Sumplete or Number Sums puzzle drawn in `lines`: every cell adds its number."""
    drawn = [(line, list(parse_line(SUMS_LINES[game], line, SUMS_WHAT[game])))
             for line in puzzle_lines(lines)]
    if not any(isinstance(tokens[0].value, Number) for _, tokens in drawn):
        raise error_at(f"no numbers here: a {game} row is its numbers, then its target",
                       drawn[0][0] if drawn else Line(1, ""), 1)
    if why := unfit_rules(game, first_cell):
        raise error_at(why, drawn[0][0], 1)
    grid, region_lines = grid_and_regions(drawn, game)
    row_lines, (targets_line, targets), end = rows_and_targets(grid)
    cells: list[Cell] = []
    rows = []
    for line, tokens in row_lines:
        first = len(cells)
        cells += [grid_cell(token, line, game) for token in tokens[:-1]]
        rows.append(CellLine(tuple(range(first, len(cells))), tail=target(tokens[-1], line)))
    columns = [CellLine(tuple(row.cells[k] for row in rows), **{end: target(token, targets_line)})
               for k, token in enumerate(targets)]
    regions = region_targets(region_lines, cells)
    every_region_has_a_target(row_lines, regions)
    return CrossCells(tuple(cells), tuple(rows), tuple(columns), tuple(regions), first_cell,
                      precedence, game, layout_of(lines))


def grid_and_regions(drawn: list[GridLine], game: str) -> tuple[list[GridLine], list[GridLine]]:
    """The lines of numbers, and the lines of region targets below them.

    ParseError for region targets mixed with numbers, above the grid's last
    line, or in a game without regions."""
    grid = [(line, tokens) for line, tokens in drawn if isinstance(tokens[0].value, Number)]
    regions = [(line, tokens) for line, tokens in drawn if not isinstance(tokens[0].value, Number)]
    for line, tokens in drawn:
        kinds = [isinstance(token.value, Number) for token in tokens]
        if len(set(kinds)) > 1:
            odd = tokens[kinds.index(not kinds[0])]
            raise error_at("a region's targets stand on lines of their own, below the grid",
                           line, odd.column)
    for line, tokens in regions:
        if game != NUMBER_SUMS:
            raise error_at(f"a region's target: regions are Number Sums' (# game: {NUMBER_SUMS})",
                           line, tokens[0].column)
        if line.number < grid[-1][0].number:
            raise error_at("a region's targets stand below the grid", line, tokens[0].column)
    return grid, regions


def rows_and_targets(grid: list[GridLine]) -> tuple[list[GridLine], GridLine, str]:
    """The rows (numbers, then a target), the line of column targets, and which end of
    the columns it stands at: the last line ("tail"), or the first ("head") when the
    last has as many numbers as the longest row.  ParseError for a row without its
    target, or with a number too many or too few."""
    most = max(len(tokens) for _, tokens in grid)
    end = "tail" if len(grid[-1][1]) < most else "head"
    targets = grid[-1] if end == "tail" else grid[0]
    if len(targets[1]) == most:
        line, tokens = grid[-1]
        raise error_at("no column targets: they stand on one line below the grid (or above it), "
                       "one under each column", line, tokens[-1].end)
    rows = [drawn for drawn in grid if drawn is not targets]
    for line, tokens in rows:
        if len(tokens) == len(targets[1]):
            raise error_at("this row has no target: a row is its numbers, then its target",
                           line, tokens[-1].end)
        if len(tokens) != len(targets[1]) + 1:
            raise error_at(f"this row has {len(tokens) - 1} numbers and a target, but the column "
                           f"targets stand for {len(targets[1])} columns", line,
                           tokens[-1].end)
    return rows, targets, end


def grid_cell(token: Token, line: Line, game: str) -> Cell:
    """The cell that adds the number of `token` (`-3` is the cell -3)."""
    number = token.value
    if number.group and game != NUMBER_SUMS:
        raise error_at(f"a region letter: regions are Number Sums' (# game: {NUMBER_SUMS})",
                       line, letters_at(token))
    return Cell("-" if number.value < 0 else "+", abs(number.value), number.group,
                place=Place(line.number - 1, token.column - 1), text=token.text,
                decided=MARKED.get(number.mark))


def letters_at(token: Token) -> int:
    """The column of the region letters (or mark) of a number's token."""
    return token.end - len(token.value.group) - len(token.value.mark)


def target(token: Token, line: Line) -> Constraint:
    """The total `token` states, for the row or column it ends."""
    if token.value.group or token.value.mark:
        raise error_at("a target stands alone: no region letter, no mark", line, letters_at(token))
    return Constraint(TOTAL, token.value.value, place=Place(line.number - 1, token.column - 1),
                      text=token.text)


def region_targets(region_lines: list[GridLine], cells: list[Cell]) -> list[Constraint]:
    """The target of every region.  ParseError for a target given twice, or for a letter
    no number has."""
    found: dict[str, Constraint] = {}
    for line, tokens in region_lines:
        for token in tokens:
            constraint = placed(token, line)
            if not any(constraint.group in cell.group for cell in cells):
                raise error_at(f"no number is in region {constraint.group!r}", line, token.column)
            if constraint.group in found:
                raise error_at(f"region {constraint.group!r} already has a target (line "
                               f"{found[constraint.group].place.line + 1})", line, token.column)
            found[constraint.group] = constraint
    return list(found.values())


def every_region_has_a_target(row_lines: list[GridLine], regions: list[Constraint]) -> None:
    """ParseError at the first number in a region that has no target."""
    targets = {region.group for region in regions}
    for line, tokens in row_lines:
        for token in tokens[:-1]:
            if missing := next((g for g in token.value.group if g not in targets), None):
                raise error_at(f"region {missing!r} has no target: give it one on a line below "
                               f"the grid, like {missing}=12", line, letters_at(token))
