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
from .puzzle import FORMATS, Puzzle, Solution

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
        if self.layout not in FORMATS:
            raise ValueError(f"layout must be one of {FORMATS}")

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

    def solution_json(self, solution: Solution) -> list[list[int]]:
        return [list(row) for row in solution.values]

    def render(self, solution: Solution | None = None, format: str | None = None) -> str:
        cells = (solution.values if solution is not None else self.givens)
        grid = [[UNKNOWN if d is None else str(d) for d in row] for row in cells]
        if (format or self.layout) == "markdown":
            return self._markdown(grid)
        return self._text(grid)

    def _text(self, grid: list[list[str]]) -> str:
        header = [str(p) for p in self.column_products]
        products = [str(p) for p in self.row_products]
        widths = [max([len(header[c])] + [len(row[c]) for row in grid]) for c in range(self.width)]
        product_width = max(map(len, products), default=0)

        def line(tokens: list[str], product: str = "") -> str:
            aligned = [t.rjust(w) for t, w in zip(tokens, widths)]
            return " ".join(aligned + [product.rjust(product_width)]).rstrip()

        rows = [line(row, product) for row, product in zip(grid, products)]
        lines = rows + [line(header)] if self.columns_below else [line(header)] + rows
        return "\n".join(lines)

    def _markdown(self, grid: list[list[str]]) -> str:
        tag = f"[{self.height}×{self.width}]"
        lines = [markdown_row([*map(str, self.column_products), tag]),
                 markdown_row(["---"] * (self.width + 1))]
        lines += [markdown_row([*row, f"**{p}**"]) for row, p in zip(grid, self.row_products)]
        return "\n".join(lines)


def markdown_row(cells: Sequence[object]) -> str:
    """One markdown table row: `|1|2|3|`."""
    return "|" + "|".join(map(str, cells)) + "|"


def fillings(product: int, columns: Sequence[int] | int) -> list[Row]:
    """Every row of digits 1-9 with `product` whose digits divide their column's product.

    `columns` is the list of column products, or just a width for a row
    whose columns set no limit.
    """
    column_products = [0] * columns if isinstance(columns, int) else list(columns)
    engine.load(CrossProduct.family)
    answer = engine.call("findall(_R, crossproduct:row_filling(P, C, _R), Rs)",
                         {"P": product, "C": column_products})
    return [tuple(row) for row in answer["Rs"]]


def rows_by_fewest_fillings(puzzle: CrossProduct) -> list[int]:
    """Row indices (0-based) ordered by their number of fillings, ties in given order."""
    engine.load(CrossProduct.family)
    answer = engine.call("crossproduct:rows_by_fewest_fillings(R, C, O)",
                         {"R": list(puzzle.row_products), "C": list(puzzle.column_products)})
    return list(answer["O"])


def random_table(rows: int, cols: int, rng: random.Random) -> Table:
    """A table of random digits 1-9, drawn row by row, cell by cell (the notebook's order)."""
    return tuple(tuple(rng.randint(1, 9) for _ in range(cols)) for _ in range(rows))


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None) -> Iterator[CrossProduct]:
    """`n` random puzzles made as the notebook makes them after `random.seed(seed)`."""
    rng = random.Random(seed)
    for _ in range(n):
        yield CrossProduct.from_table(random_table(rows, cols, rng))
