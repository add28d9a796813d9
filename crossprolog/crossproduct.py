"""CrossProduct: fill a grid with digits so every row and column multiplies to its product.

The model, its drawings (plain text and markdown), and the notebook's helpers:
fillings, rows ordered by fewest fillings, and seeded random puzzles.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Collection, Iterator, Mapping, Sequence

from . import engine, making
from .drawing import checked_format
from .errors import InvalidValue, UsageError
from .answers import NO_MARKS, Clue, Solution
from .explain import Explainable
from .puzzle import clue_number, integer, items, rows_of
from .scene import Aligned, Label, Markable, Scene, Square, Token, given_or_solved, marking
from .scene import Table as MarkdownTable

Digit = int
Row = tuple[Digit, ...]
Table = tuple[Row, ...]
Products = tuple[int, ...]
Cell = Digit | None  # None: unknown
UNKNOWN = "?"

if TYPE_CHECKING:
    from . import techniques


@dataclass(frozen=True)
class CrossProduct(Explainable):
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
        integers (numpy's are fine) or None (not known), or are negative, givens
        that are not digits or do not match the products' shape."""
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

    @classmethod
    def from_checked(cls, row_products: Products, column_products: Products,
                     givens: tuple[tuple[Cell, ...], ...], *, zero: bool = False,
                     layout: str = "text", columns_below: bool = False,
                     size_tag: bool = False) -> CrossProduct:
        """The puzzle of values already as `__post_init__` leaves them (tuples of
        non-negative ints; givens a tuple per row of digits or None, in the products'
        shape), made without checking them again: for a grammar that has."""
        puzzle = object.__new__(cls)
        vars(puzzle).update(row_products=row_products, column_products=column_products,
                            givens=givens, zero=zero, layout=layout,
                            columns_below=columns_below, size_tag=size_tag)
        return puzzle

    def _products(self, products: Sequence[int | None], kind: str) -> Products:
        """The products as ints; None stays: a line whose product is not known (as
        `keeping` leaves a line out, to see what the others force)."""
        checked = tuple(None if p is None else clue_number(p, f"{kind} product {i + 1}")
                        for i, p in enumerate(items(products, f"the {kind} products")))
        for i, p in enumerate(checked):
            if p is not None and p < 0:
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

    def answer_shape(self) -> tuple[int, int]:
        return self.height, self.width

    def drawn_scene(self, solution: Solution | None = None, marks: Markable = NO_MARKS) -> Scene:
        """The grid of digits ("?" unknown), each row's product at its end, the column
        products above it (or below, as typed), and the size tag where it was typed."""
        marked = marking(marks)
        filled = solution.values if solution is not None else self.givens
        squares = tuple(
            Square((r, c), "" if d is None else str(d),
                   given_or_solved(self.givens[r][c] is not None, d is not None)
                   | marked.cell((r, c)),
                   UNKNOWN if d is None else str(d))
            for r, row in enumerate(filled) for c, d in enumerate(row))
        head = self.height if self.columns_below else -1
        labels = [Label((head, c), product_text(p), "bottom" if self.columns_below else "top",
                        marked.clue_of("column", index=c))
                  for c, p in enumerate(self.column_products)]
        labels += [Label((r, self.width), product_text(p), "right", marked.clue_of("row", index=r))
                   for r, p in enumerate(self.row_products)]
        labels += [Label((head, self.width), self._size(), "corner")] * self.size_tag
        return Scene(self.family, self.height, self.width, squares, tuple(labels),
                     before=tuple(map(Token, self.directives())), layout=Aligned(),
                     markdown=MarkdownTable(corner=self._size()))

    def _size(self) -> str:
        return f"[{self.height}×{self.width}]"

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

    def clue_reading(self, clue: Clue, solution: Solution) -> str | None:
        """A line as `solution` fills it: `row 4 (40320)`."""
        if clue.kind == "given":
            return super().clue_reading(clue, solution)
        grid = solution.to_json()
        line = grid[clue.index] if clue.kind == "row" else [row[clue.index] for row in grid]
        return f"{clue.kind} {clue.index + 1} ({math.prod(line)})"

    def retyped(self, clue: Clue, numbers: Sequence[int]) -> CrossProduct | None:
        """The puzzle with a line's product `numbers[0]` (a given another digit)."""
        if clue.kind == "given":
            return super().retyped(clue, numbers)
        field = "row_products" if clue.kind == "row" else "column_products"
        products = list(getattr(self, field))
        products[clue.index] = numbers[0]
        return replace(self, **{field: tuple(products)})

    def statement(self, *, timeout: float | None = None) -> techniques.Statement:
        """Each line a product of any digits (no unit: a digit may repeat), the givens placed.
        Quick at any size, its lines listing no fillings (they are folded when a technique
        asks): `timeout` is never reached."""
        from . import techniques  # for hints and grades only

        places = tuple((r, c) for r in range(self.height) for c in range(self.width))
        at = {place: i for i, place in enumerate(places)}
        clues = self.clues()
        tables = tuple(techniques.Table(tuple(sorted(at[place] for place in clue.cells)), clue.text, clue,
                                        op="*", target=product)
                       for clue, product in zip(clues, [p for p in self.row_products + self.column_products
                                                        if p is not None]))
        givens = {clue.cell: clue for clue in clues if clue.kind == "given"}
        return techniques.Statement(
            places, tuple(f"r{r + 1}c{c + 1}" for r, c in places), tuple(range(0 if self.zero else 1, 10)),
            (), tables, {at[cell]: self.givens[cell[0]][cell[1]] for cell in givens},
            {at[cell]: clue for cell, clue in givens.items()})

    def keeping(self, clues: Collection[Clue]) -> CrossProduct:
        """The puzzle with only `clues`: a line whose product is dropped has none (None)."""
        kept: dict[str, set] = {"row": set(), "column": set(), "given": set()}
        for clue in clues:
            kept.setdefault(clue.kind, set()).add(clue.cell if clue.kind == "given" else clue.index)
        # self's values, already checked: blame makes a puzzle like this for each of a
        # 30x30's 900 clues, and checking each again took 1.3 ms of its 2 s
        return type(self).from_checked(
            tuple(p if r in kept["row"] else None for r, p in enumerate(self.row_products)),
            tuple(p if c in kept["column"] else None for c, p in enumerate(self.column_products)),
            tuple(tuple(d if (r, c) in kept["given"] else None for c, d in enumerate(row))
                  for r, row in enumerate(self.givens)),
            zero=self.zero, layout=self.layout, columns_below=self.columns_below, size_tag=self.size_tag)

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


def product_text(product: int | None) -> str:
    """A line's product as a drawing shows it: `?` when it is not known (a clue left out)."""
    return "?" if product is None else str(product)


def refuse_zero(zero: bool) -> None:
    if zero:
        raise UsageError("generated CrossProduct puzzles have digits 1-9: --zero does not apply")


def large_prime_factor(n: int) -> bool:
    """Whether `n` has a prime factor above 7: no digits multiply to it."""
    for prime in (2, 3, 5, 7):
        while n % prime == 0:
            n //= prime
    return n > 1


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


LARGEST = 100  # rows and columns a generated puzzle has at most: a 100x100 prints
               # 0.65 M characters, a 120x120 more than the readers take (MAX_TEXT_CHARS)


def random_puzzles(rows: int, cols: int, n: int, seed: int | None = None,
                   zero: bool = False) -> Iterator[CrossProduct]:
    """`n` random puzzles made as the notebook makes them after `random.seed(seed)`."""
    refuse_zero(zero)
    making.checked_size("CrossProduct", rows, cols, 1, LARGEST, " (its text must read back in)")
    rng = random.Random(seed)
    for _ in range(n):
        yield CrossProduct.from_table(random_table(rows, cols, rng))


def well_formed_puzzles(rows: int, cols: int, n: int, seed: int | None = None,
                        zero: bool = False) -> Iterator[CrossProduct]:
    """`n` puzzles with exactly one solution: from a random table, givens revealed until
    its solution is unique, then every given not needed dropped (`making.well_formed`)."""
    refuse_zero(zero)
    making.checked_size("CrossProduct", rows, cols, 1, LARGEST, " (its text must read back in)")
    rng = random.Random(seed)

    def drawn() -> CrossProduct | None:
        table = random_table(rows, cols, rng)
        full = CrossProduct.from_table(table, givens=table)
        return making.well_formed(full, [list(row) for row in table], rng)

    yield from making.made_puzzles(drawn, n, f"{rows}x{cols} CrossProduct")
