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
from .errors import InvalidValue
from .puzzle import Puzzle, Solution, integer, items, rows_of

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
    or 0-9 with `zero`.  `layout` ("text" or "markdown"), `columns_below` and
    `size_tag` (a plain-text header ending in `[6×3]`) remember how the puzzle
    was drawn, so a solution is drawn the same way.
    """

    row_products: Products
    column_products: Products
    givens: tuple[tuple[Cell, ...], ...] = None  # type: ignore[assignment]
    zero: bool = False
    layout: str = field(default="text", compare=False)
    columns_below: bool = field(default=False, compare=False)
    size_tag: bool = field(default=False, compare=False)

    family = "crossproduct"

    def __post_init__(self) -> None:
        """Refuse, with InvalidValue, what cannot be a puzzle: products that are not
        integers (numpy's are fine) or are negative, givens that are not digits or
        do not match the products' shape."""
        if not isinstance(self.zero, bool):
            raise InvalidValue(f"zero must be True or False, not {self.zero!r}")
        object.__setattr__(self, "row_products", self._products(self.row_products, "row"))
        object.__setattr__(self, "column_products", self._products(self.column_products, "column"))
        if self.givens is None:
            givens = tuple((None,) * self.width for _ in self.row_products)
        else:
            givens = rows_of(self.givens, "givens")
        if len(givens) != self.height or any(len(row) != self.width for row in givens):
            raise InvalidValue(f"givens must have a row per row product ({self.height}) and in "
                               f"each a cell per column product ({self.width})")
        object.__setattr__(self, "givens", tuple(
            tuple(None if d is None else checked_digit(d, f"givens[{r}][{c}]", self.zero)
                  for c, d in enumerate(row))
            for r, row in enumerate(givens)))
        checked_format(self.layout)

    def _products(self, products: Sequence[int], kind: str) -> Products:
        checked = tuple(integer(p, f"{kind} product {i + 1}")
                        for i, p in enumerate(items(products, f"the {kind} products")))
        for i, p in enumerate(checked):
            if p < 0:
                raise InvalidValue(f"{kind} product {i + 1} is {p}: a product of digits is not negative")
        return checked

    @property
    def height(self) -> int:
        return len(self.row_products)

    @property
    def width(self) -> int:
        return len(self.column_products)

    @classmethod
    def from_table(cls, table: Sequence[Sequence[Digit]], **options) -> CrossProduct:
        """The puzzle whose products are those of `table`'s rows and columns.

        InvalidValue for a ragged table or a cell that is not a digit.
        """
        rows = rows_of(table, "the table")
        if any(len(row) != len(rows[0]) for row in rows):
            raise InvalidValue(f"the table is ragged: its rows have {sorted({len(r) for r in rows})} cells")
        zero = options.get("zero", False)
        rows = tuple(tuple(checked_digit(d, f"table[{r}][{c}]", zero) for c, d in enumerate(row))
                     for r, row in enumerate(rows))
        return cls(tuple(math.prod(row) for row in rows),
                   tuple(math.prod(column) for column in zip(*rows)), **options)

    def prolog_data(self) -> dict:
        givens = [[r, c, digit] for r, row in enumerate(self.givens)
                  for c, digit in enumerate(row) if digit is not None]
        return {"rows": list(self.row_products), "columns": list(self.column_products),
                "givens": givens, "low": 0 if self.zero else 1}

    def solution_values(self, answer) -> Table:
        return tuple(tuple(row) for row in answer)

    def render(self, solution: Solution | None = None, format: str | None = None) -> str:
        cells = (solution.values if solution is not None else self.givens)
        grid = [[UNKNOWN if d is None else str(d) for d in row] for row in cells]
        drawing = (self._markdown(grid) if checked_format(format or self.layout) == "markdown"
                   else self._text(grid))
        return "\n".join(self.directives() + [drawing])

    def _text(self, grid: list[list[str]]) -> str:
        header = [str(p) for p in self.column_products] + [self._size()] * self.size_tag
        rows = [row + [str(p)] for row, p in zip(grid, self.row_products)]
        return "\n".join(aligned(rows + [header] if self.columns_below else [header] + rows))

    def _size(self) -> str:
        return f"[{self.height}×{self.width}]"

    def _markdown(self, grid: list[list[str]]) -> str:
        header = [*map(str, self.column_products), self._size()]
        return markdown_table(header, [[*row, f"**{p}**"] for row, p in zip(grid, self.row_products)])


def checked_digit(value, what: str, zero: bool) -> Digit:
    """`value` as a digit (1-9, or 0-9 with `zero`); InvalidValue saying `what` it was otherwise."""
    digit = integer(value, what)
    if not (0 if zero else 1) <= digit <= 9:
        raise InvalidValue(f"{what} is {digit}, not a digit {'0' if zero else '1'}-9")
    return digit


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
