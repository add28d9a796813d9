"""Answers in the puzzle's shape, whatever solver gave them, and the error a program
that gives anything else is refused with."""

from __future__ import annotations

import itertools
from typing import Any, Sequence

from ..errors import CrossprologError


class ParadigmError(CrossprologError):
    """An ASP program or MiniZinc model that cannot be run as it stands, or that answers
    in another shape: said in one line, which the caller prefixes with the file."""

    exit_code = 2


def answer_of(values: dict[tuple[int, ...], int], shape: Sequence[int]) -> list:
    """The nested lists of `shape` (lengths, outermost first) holding values[path] at
    each path, paths counted from 0; ParadigmError unless every path has exactly one
    value and no other path has any."""
    paths = list(itertools.product(*(range(n) for n in shape)))
    missing = [path for path in paths if path not in values]
    if missing or len(values) != len(paths):
        extra = sorted(set(values) - set(paths))
        what = (f"no value for solution{_path(missing[0])}" if missing
                else f"solution{_path(extra[0])} is outside the puzzle's shape {tuple(shape)}")
        raise ParadigmError(f"its answer is not one value per cell: {what}")
    return _nested([values[path] for path in paths], shape)


def checked_answer(answer: Any, shape: Sequence[int]) -> list:
    """`answer` (nested lists, as JSON has them) if it is of `shape` with integers
    innermost; ParadigmError otherwise.  An array of no elements, which MiniZinc's
    JSON writes [] whatever its shape, is the nested lists of that shape."""
    if answer == [] and 0 in shape:
        return _nested([], shape)
    if not _fits(answer, list(shape)):
        raise ParadigmError(f"its solution is not of the puzzle's shape {tuple(shape)} "
                            f"(lists of lists of integers): {str(answer)[:80]}")
    return answer


def _fits(value: Any, shape: list[int]) -> bool:
    if not shape:
        return isinstance(value, int) and not isinstance(value, bool)
    return (isinstance(value, list) and len(value) == shape[0]
            and all(_fits(v, shape[1:]) for v in value))


def _nested(flat: list[int], shape: Sequence[int]) -> list:
    if len(shape) <= 1:
        return flat
    size = len(flat) // shape[0] if shape[0] else 0
    return [_nested(flat[i * size:(i + 1) * size], shape[1:]) for i in range(shape[0])]


def _path(path: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, path)) + ", _)"
