"""A command's running state, apart from what its command line said."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Callable


@dataclass
class Run:
    """One run of a command: its parsed command line (`args`, which nothing changes)
    and what the run itself learns as it goes."""

    args: argparse.Namespace
    started: float          # time.monotonic() when the command began, for --timeout
    began: float = 0.0      # when the puzzle at work began (a batch's own, or `started`)
    single: bool = True     # a lone puzzle: its --timeout bounds the whole command
    live: bool = False      # a lone puzzle's --all may print each solution as it comes
    finish: Callable[[Any], None] | None = None  # how a lone puzzle's watchdog reports it
    comments: tuple = ()    # the comment lines of the puzzle at work, as its file has them
