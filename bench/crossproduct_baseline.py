"""The notebook's CrossProduct solver in plain Python: the baseline crossprolog must beat.

Row by row: try each filling of the first row (digits whose product is the
row's, each dividing what is left of its column's product), divide the
columns by it, and solve the rest.  With `ordered`, rows are first sorted by
how many fillings they have, fewest first (the notebook's second version).
"""

from __future__ import annotations

from typing import Sequence

Row = tuple[int, ...]
DIGITS = range(1, 10)


def fillings(product: int, columns: Sequence[int]) -> list[Row]:
    """Rows of digits 1-9 multiplying to `product`, each digit dividing its column's product.

    Recomputed at every call, as the notebook does: no cache.
    """
    if not columns:
        return [()] if product == 1 else []
    head, rest = columns[0], columns[1:]
    if product > 9 ** len(columns):
        return []
    return [(d, *tail) for d in DIGITS if product % d == 0 and head % d == 0
            for tail in fillings(product // d, rest)]


def count(row_products: Sequence[int], column_products: Sequence[int], limit: int = 0,
          ordered: bool = False) -> int:
    """The number of solutions, stopping at `limit` (0: none)."""
    rows = list(row_products)
    if ordered:
        rows.sort(key=lambda p: len(fillings(p, column_products)))
    found = 0
    for _ in _solutions(rows, list(column_products)):
        found += 1
        if found == limit:
            break
    return found


def _solutions(rows: list[int], columns: list[int]):
    if not rows:
        if all(c == 1 for c in columns):
            yield []
        return
    for row in fillings(rows[0], columns):
        for rest in _solutions(rows[1:], [c // d for c, d in zip(columns, row)]):
            yield [row, *rest]
