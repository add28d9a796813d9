"""The readers of the command line's option values (argparse's `type`s): each says
what it wants as argparse says an option's error, the value it got cut short."""

from __future__ import annotations

import argparse
import sys

from ..engine import LONGEST_TIMEOUT
from ..errors import shown


def cluster(text: str) -> str:
    if text == "":  # --cluster alone: argparse passes its const through here too
        return text
    from .. import cluster as dask  # Dask's client only when asked for

    try:
        return dask.address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def seconds(text: str) -> float:
    wanted = f"must be a positive number of seconds up to {LONGEST_TIMEOUT:.0e}"
    value = read(float, text, wanted)
    if not 0 < value <= LONGEST_TIMEOUT:
        raise argparse.ArgumentTypeError(f"{wanted}, not {shown(text)}")
    return value


def read(kind, text: str, wanted: str):
    """`text` read as `kind`; else what is `wanted`, said as argparse says an option's
    error (not "invalid _seconds value", the name of the function)."""
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{wanted}, not {shown(text)}") from None


def at_least(low: int, wanted: str):
    """The reader of an integer option's text: at least `low`, else what is `wanted`."""
    def reader(text: str) -> int:
        if (value := read(int, text, wanted)) < low:
            raise argparse.ArgumentTypeError(wanted)
        return value
    return reader


count_limit = at_least(0, "must be 0 (no limit) or a positive integer")
positive = at_least(1, "must be a positive integer")


def seed(text: str) -> int:
    """A seed: any integer Python reads (a negative one is refused by the generators)."""
    return read(int, text, f"must be an integer of at most {sys.get_int_max_str_digits():,} digits")


def path(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("must name a file or directory, not ''")
    if text == "-":  # read as standard input where inputs are named: here it made a file "-"
        raise argparse.ArgumentTypeError("must name a file or directory, not '-' (without --out, "
                                         "the answers go to standard output)")
    return text


def sizes(text: str) -> list[tuple[int, int]]:
    try:
        found = [tuple(int(n) for n in size.lower().replace("×", "x").split("x")) for size in text.split(",")]
    except ValueError:
        found = []
    if not found or any(len(size) != 2 or min(size) < 1 for size in found):
        raise argparse.ArgumentTypeError(f"expected sizes like 3x3,4x5, not {shown(text)}")
    return list(dict.fromkeys(found))  # type: ignore[return-value]  # a size named twice: once
