"""OR-tools CP-SAT. Not incremental: after lazy cuts the grown model is solved again."""

from __future__ import annotations

import importlib.util
import time
from typing import Any

from bench.backends.base import Backend, Outcome, Seeding, Session, Status
from bench.backends.kinds import CpsatModel
from bench.effort import BRANCHES, CONFLICTS, DETERMINISTIC_TIME


class CpsatSession(Session):
    model: CpsatModel

    def solve(self, time_limit: float) -> Outcome:
        from ortools.sat.python import cp_model

        t0 = time.perf_counter()
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.options.threads
        solver.parameters.random_seed = self.options.seed
        solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
        code = solver.solve(self.model.model)
        wall = time.perf_counter() - t0
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT: invalid model: {self.model.model.Validate()}")
        statuses: dict[Any, Status] = {
            cp_model.OPTIMAL: "optimal",
            cp_model.FEASIBLE: "feasible",
            cp_model.INFEASIBLE: "infeasible",
        }
        status = statuses.get(code, "timeout")

        def value(var: Any) -> float:
            return float(solver.value(var))

        found = status in ("optimal", "feasible")
        stats = {"deterministic_time": float(solver.deterministic_time),
                 "branches": float(solver.num_branches), "conflicts": float(solver.num_conflicts)}
        return Outcome(status, value if found else None, float(solver.wall_time), wall, stats)


class Cpsat(Backend):
    name = "cpsat"
    kinds = ("cpsat",)
    package = "ortools"
    modules = ("ortools.sat.python.cp_model",)
    description = "OR-tools CP-SAT (num_workers and random_seed fixed)"
    model_type = CpsatModel
    session = CpsatSession
    seeding = Seeding("option", "random_seed")
    effort = (CONFLICTS, BRANCHES, DETERMINISTIC_TIME)
    check_rank = 0

    def available(self) -> str | None:
        return None if importlib.util.find_spec("ortools") else "ortools is not installed"
