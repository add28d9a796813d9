"""Counting a CP-SAT model's solutions (one worker): what every CP-SAT baseline shares.

Optional: needs `pip install '.[bench]'`.
"""

from __future__ import annotations

from ortools.sat.python import cp_model


def count_solutions(model: cp_model.CpModel, limit: int) -> int:
    """The number of solutions of `model` found by CP-SAT with one worker, up to `limit`
    (0: all).  Limit 1 is one plain solve (presolve on); otherwise CP-SAT enumerates
    the solutions, with presolve off as it must to list every one."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if limit == 1:
        return int(solver.Solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE))
    solver.parameters.enumerate_all_solutions = True
    counter = _Counter(limit)
    solver.Solve(model, counter)
    return counter.found


class _Counter(cp_model.CpSolverSolutionCallback):
    """Counts solutions as CP-SAT reports them, stopping the search at the limit (0: none)."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit, self.found = limit, 0

    def on_solution_callback(self) -> None:
        self.found += 1
        if self.limit and self.found >= self.limit:
            self.StopSearch()
