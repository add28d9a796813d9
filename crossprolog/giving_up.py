"""Where a watchdog's outcome goes when it gives up on a search that will not stop, on
a Dask worker: to the chunk at work (crossprolog.dask_worker), which goes on without
that search, rather than to the end of the process (batch.last_result).  Apart from
both, so that neither imports the other."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

_take: Callable[[Any], None] | None = None


@contextmanager
def giving_up(take: Callable[[Any], None]) -> Iterator[None]:
    """In this block, a watchdog that gives up on the item at work hands its outcome to
    take(outcome) (batch.last_result), and the process goes on."""
    global _take
    _take = take
    try:
        yield
    finally:
        _take = None


def taker() -> Callable[[Any], None] | None:
    """What `giving_up` hands a watchdog's outcome to now, or None."""
    return _take
