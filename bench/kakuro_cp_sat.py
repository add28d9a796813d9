"""A CP-SAT model of Kakuro (OR-Tools, one worker), reading the text itself.

Each white cell is an integer variable 1..9; each run one AddAllDifferent
and a linear sum; each given a fixed value.  The reader knows only the
pinned text form (cells apart by blanks: `X`, `.`, a digit, `D\\A`, `D\\`,
`\\A`; puzzles after `== NAME` lines) and nothing of crossprolog.  A check
asks for up to 2 solutions (see cp_sat_count).  Optional: needs `pip
install '.[bench]'`.
"""

from __future__ import annotations

import re

from ortools.sat.python import cp_model

from cp_sat_count import count_solutions


def read(text: str) -> list[list[list[str]]]:
    """Every puzzle of `text`, as rows of cell tokens."""
    return [[line.split() for line in chunk.splitlines() if line.strip() and not line.startswith("#")]
            for chunk in re.split(r"(?m)^==.*$", text) if chunk.strip()]


def count(rows: list[list[str]], limit: int) -> int:
    """The number of solutions of the puzzle `rows`, up to `limit`."""
    model = cp_model.CpModel()
    cells = {}
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if token == "." or token.isdigit():
                cells[r, c] = model.NewIntVar(1, 9, "")
                if token.isdigit():
                    model.Add(cells[r, c] == int(token))
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if "\\" not in token:
                continue
            down, across = token.split("\\")
            for total, (dr, dc) in ((down, (1, 0)), (across, (0, 1))):
                run, k = [], 1
                while (r + dr * k, c + dc * k) in cells:
                    run.append(cells[r + dr * k, c + dc * k])
                    k += 1
                if run:
                    model.AddAllDifferent(run)
                    if total:
                        model.Add(sum(run) == int(total))
    return count_solutions(model, limit)
