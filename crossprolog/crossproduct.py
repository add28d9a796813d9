"""CrossProduct: fill a grid with digits so every row and column multiplies to its product.

The model, its drawings (plain text and markdown), and the notebook's helpers:
fillings, rows ordered by fewest fillings, and seeded random puzzles.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Collection, Iterator, Mapping, Sequence

from . import engine, making
from .drawing import aligned, bracketed, checked_format, markdown_table
from .puzzle import NO_MARKS, Clue, Marks, Puzzle, Solution

Digit = int
Row = tuple[Digit, ...]
Table = tuple[Row, ...]
Products = tuple[int, ...]
Cell = Digit | None  # None: unknown
UNKNOWN = "?"


@dataclass(frozen=True)
class CrossProduct(Puzzle):
    """Row products, column products, and the digits given in advance.

    `givens` is a grid of Cell (all unknown when left out); digits run 1-9,
    or 0-9 with `zero`.  `layout` ("text" or "markdown") and `columns_below`
    remember how the puzzle was drawn, so a solution is drawn the same way.
    """

    row_products: Products
    column_products: Products
    givens: tuple[tuple[Cell, ...], ...] = None  # type: ignore[assignment]
    zero: bool = False
    layout: str = field(default="text", compare=False)
    columns_below: bool = field(default=False, compare=False)

    family = "crossproduct"

    def __post_init__(self) -> None:
        object.__setattr__(self, "row_products", tuple(self.row_products))
        object.__setattr__(self, "column_products", tuple(self.column_products))
        if self.givens is None:
            givens = tuple((None,) * self.width for _ in self.row_products)
        else:
            givens = tuple(tuple(row) for row in self.givens)
        object.__setattr__(self, "givens", givens)
        if len(givens) != self.height or any(len(row) != self.width for row in givens):
            raise ValueError("givens must have one row per row product and one cell per column")
        checked_format(self.layout)

    @property
    def height(self) -> int:
        return len(self.row_products)

    @property
    def width(self) -> int:
        return len(self.column_products)

    @classmethod
    def from_table(cls, table: Sequence[Sequence[Digit]], **options) -> CrossProduct:
        """The puzzle whose products are those of `table`'s rows and columns."""
        width = len(table[0]) if table else 0
        return cls(tuple(math.prod(row) for row in table),
                   tuple(math.prod(row[c] for row in table) for c in range(width)), **options)

    def prolog_data(self) -> dict:
        givens = [[r, c, digit] for r, row in enumerate(self.givens)
                  for c, digit in enumerate(row) if digit is not None]
        return {"rows": list(self.row_products), "columns": list(self.column_products),
                "givens": givens, "low": 0 if self.zero else 1}

    def solution_values(self, answer) -> Table:
        return tuple(tuple(row) for row in answer)

    def render(self, solution: Solution | None = None, format: str | None = None,
               marks: Marks = NO_MARKS) -> str:
        cells = (solution.values if solution is not None else self.givens)
        grid = [[bracketed(UNKNOWN if d is None else str(d), (r, c) in marks.cells
                      or Clue("given", "", cell=(r, c)) in marks.clues)
                 for c, d in enumerate(row)] for r, row in enumerate(cells)]
        columns = [bracketed(str(p), Clue("column", "", index=c) in marks.clues)
                   for c, p in enumerate(self.column_products)]
        rows = [bracketed(str(p), Clue("row", "", index=r) in marks.clues)
                for r, p in enumerate(self.row_products)]
        drawing = (self._markdown(grid, rows, columns)
                   if checked_format(format or self.layout) == "markdown"
                   else self._text(grid, rows, columns))
        return "\n".join(self.directives() + [drawing])

    def _text(self, grid: list[list[str]], rows: list[str], columns: list[str]) -> str:
        lines = [row + [product] for row, product in zip(grid, rows)]
        return "\n".join(aligned(lines + [columns] if self.columns_below else [columns] + lines))

    def _markdown(self, grid: list[list[str]], rows: list[str], columns: list[str]) -> str:
        header = [*columns, f"[{self.height}×{self.width}]"]
        return markdown_table(header, [[*row, f"**{p}**"] for row, p in zip(grid, rows)])

    # Clues and cells, for explanations

    def clues(self) -> tuple[Clue, ...]:
        """The row products, the column products, then the given digits."""
        rows = [Clue("row", f"row {r + 1} ({p})", index=r,
                     cells=frozenset((r, c) for c in range(self.width)))
                for r, p in enumerate(self.row_products) if p is not None]
        columns = [Clue("column", f"column {c + 1} ({p})", index=c,
                        cells=frozenset((r, c) for r in range(self.height)))
                   for c, p in enumerate(self.column_products) if p is not None]
        givens = [Clue("given", f"the {d} at row {r + 1}, column {c + 1}", cell=(r, c),
                       cells=frozenset({(r, c)}))
                  for r, row in enumerate(self.givens) for c, d in enumerate(row) if d is not None]
        return tuple(rows + columns + givens)

    def keeping(self, clues: Collection[Clue]) -> CrossProduct:
        """The puzzle with only `clues`: a line whose product is dropped has none (None)."""
        kept = set(clues)
        return replace(
            self,
            row_products=tuple(p if Clue("row", "", index=r) in kept else None
                               for r, p in enumerate(self.row_products)),
            column_products=tuple(p if Clue("column", "", index=c) in kept else None
                                  for c, p in enumerate(self.column_products)),
            givens=tuple(tuple(d if Clue("given", "", cell=(r, c)) in kept else None
                               for c, d in enumerate(row)) for r, row in enumerate(self.givens)))

    def open_cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r, row in enumerate(self.givens) for c, d in enumerate(row) if d is None]

    def obvious_conflict(self) -> tuple[Clue, ...] | None:
        """A line whose product has a prime factor above 7, which no digits make; or
        every line, when the rows multiply to another total than the columns."""
        lines = [clue for clue in self.clues() if clue.kind != "given"]
        products = self.row_products + self.column_products
        for clue, product in zip(lines, products):
            if product and large_prime_factor(product):
                return (clue,)
        if all(products) and math.prod(self.row_products) != math.prod(self.column_products):
            return tuple(lines)
        return None

    def placing(self, values: Mapping[tuple[int, int], int]) -> CrossProduct:
        return replace(self, givens=tuple(tuple(values.get((r, c), d) for c, d in enumerate(row))
                                          for r, row in enumerate(self.givens)))


def large_prime_factor(n: int) -> bool:
    """Whether `n` has a prime factor above 7: no digits multiply to it."""
    for prime in (2, 3, 5, 7):
        while n % prime == 0:
            n //= prime
    return n > 1


def fillings(product: int, columns: Sequence[int] | int) -> list[Row]:
    """Every row of digits 1-9 with `product` whose digits divide their column's product.

    `columns` is the list of column products, or just a width for a row
    whose columns set no limit.
    """
    column_products = [0] * columns if isinstance(columns, int) else list(columns)
    answer = engine.call("findall(_R, crossproduct:row_filling(P, C, _R), Rs)",
                         {"P": product, "C": column_products}, module="crossproduct")
    return [tuple(row) for row in answer["Rs"]]


def rows_by_fewest_fillings(puzzle: CrossProduct) -> list[int]:
    """Row indices (0-based) ordered by their number of fillings, ties in given order."""
    answer = engine.call("crossproduct:rows_by_fewest_fillings(R, C, O)",
                         {"R": list(puzzle.row_products), "C": list(puzzle.column_products)},
                         module="crossproduct")
    return list(answer["O"])


def random_table(rows: int, cols: int, rng: random.Random) -> Table:
    """A table of random digits 1-9, drawn row by row, cell by cell (the notebook's order)."""
    return tuple(tuple(rng.randint(1, 9) for _ in range(cols)) for _ in range(rows))


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[CrossProduct]:
    """`n` random puzzles made as the notebook makes them after `random.seed(seed)`."""
    rng = random.Random(seed)
    for _ in range(n):
        yield CrossProduct.from_table(random_table(rows, cols, rng))


def well_formed_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[CrossProduct]:
    """`n` puzzles with exactly one solution: from a random table, givens revealed until
    its solution is unique, then every given not needed dropped (`making.well_formed`)."""
    rng = random.Random(seed)
    for _ in range(n):
        table = random_table(rows, cols, rng)
        full = CrossProduct.from_table(table, givens=table)
        products = [clue for clue in full.clues() if clue.kind != "given"]
        yield making.well_formed(full, [list(row) for row in table], rng, fixed=products)
