"""CrossProduct: fill a grid with digits so every row and column multiplies to its product.

The model, its drawings (plain text and markdown), and the notebook's helpers:
fillings, rows ordered by fewest fillings, and seeded random puzzles.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from . import engine
from .drawing import aligned, checked_format, markdown_table
from .puzzle import Puzzle, Solution

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

    def answer_shape(self) -> tuple[int, int]:
        return self.height, self.width

    def render(self, solution: Solution | None = None, format: str | None = None) -> str:
        cells = (solution.values if solution is not None else self.givens)
        grid = [[UNKNOWN if d is None else str(d) for d in row] for row in cells]
        drawing = (self._markdown(grid) if checked_format(format or self.layout) == "markdown"
                   else self._text(grid))
        return "\n".join(self.directives() + [drawing])

    def _text(self, grid: list[list[str]]) -> str:
        header = [str(p) for p in self.column_products]
        rows = [row + [str(p)] for row, p in zip(grid, self.row_products)]
        return "\n".join(aligned(rows + [header] if self.columns_below else [header] + rows))

    def _markdown(self, grid: list[list[str]]) -> str:
        header = [*map(str, self.column_products), f"[{self.height}×{self.width}]"]
        return markdown_table(header, [[*row, f"**{p}**"] for row, p in zip(grid, self.row_products)])


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
