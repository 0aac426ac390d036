"""SCIP (pyscipopt) for the ``mip`` kind, in-process through Pyomo's direct interface.

The session drives ``pyomo.contrib.solver``'s ``scip_persistent`` solver, the direct
interface (``scip_direct``) with change tracking: the first solve builds SCIP's model from the
Pyomo model, a later solve (after a lazy formulation added cuts, or a block for counting) adds
only the new rows to the live SCIP model, which frees its transformed problem first (SCIP
re-presolves; what it keeps is the original problem, not a search tree).

Settings: single-threaded (SCIP's search is sequential; ``lp/threads`` holds the LP solver to
the task's threads), ``randomization/randomseedshift`` set to the task's seed (SCIP's one
switch for all its random number generators), ``limits/time`` the time left, and
``limits/memory`` the task's memory limit where the worker set one (the soft RLIMIT_DATA, less
a margin for what SCIP does not count), so that SCIP stops itself rather than failing an
allocation.

Status: read from SCIP itself (``Model.getStatus``), since Pyomo maps SCIP's memory-limit
stop to "unknown". A stop at the memory limit without a solution raises ``MemoryError``,
which the task records as ``memout``. ``solver_s`` is SCIP's own solving time; effort is
branch-and-bound ``nodes`` and ``simplex_iterations`` (SCIP's LP iterations) per call.
"""

from __future__ import annotations

import importlib.util
import resource
import time
from typing import Any, ClassVar

from bench.backends.base import Backend, Outcome, Session, Status
from bench.backends.kinds import MipModel, ModelKind

#: of the task's data limit, what SCIP may use (its own estimate leaves out the LP solver's
#: and Python's memory)
MEMORY_SHARE = 0.8


def memory_limit_mb() -> float | None:
    """SCIP's ``limits/memory`` for this process: a share of the soft data limit, if set."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_DATA)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return None
    return soft / 2**20 * MEMORY_SHARE


def _value(var: Any) -> float:
    v = var.value
    return 0.0 if v is None else float(v)


#: SCIP's status words (``Model.getStatus``) with a solution's or an ending's meaning
_STOPPED: dict[str, Status] = {
    "optimal": "optimal",
    "infeasible": "infeasible",
    "inforunbd": "infeasible",
    "timelimit": "timeout",
    "userinterrupt": "timeout",
}


class ScipSession(Session):
    model: MipModel

    def setup(self) -> None:
        from pyomo.contrib.solver.solvers.scip.scip_persistent import ScipPersistent

        self.opt = ScipPersistent()
        self.options_scip: dict[str, Any] = {
            "randomization/randomseedshift": self.options.seed,
            "display/verblevel": 0,
        }
        limit = memory_limit_mb()
        if limit is not None:
            self.options_scip["limits/memory"] = limit

    def solve(self, time_limit: float) -> Outcome:
        t0 = time.perf_counter()
        if self.opt._pyomo_model is not self.model.model:
            # Pyomo's translation into SCIP's model is Python work before SCIP's clock starts
            # (seconds on large models): done first, so that SCIP gets only the time left
            self.opt.set_instance(self.model.model)
        left = time_limit - (time.perf_counter() - t0)
        res = self.opt.solve(self.model.model, load_solutions=False,
                             raise_exception_on_nonoptimal_result=False,
                             time_limit=max(left, 0.001), threads=self.options.threads,
                             solver_options=self.options_scip)
        wall = time.perf_counter() - t0
        scip = self.opt._solver_model
        word = str(scip.getStatus())
        own = float(scip.getSolvingTime())
        stats = {"nodes": float(scip.getNNodes()),
                 "simplex_iterations": float(scip.getNLPIterations())}
        found = res.solution_loader.get_number_of_solutions() > 0
        status: Status = _STOPPED.get(word, "unknown")
        if status == "infeasible":
            found = False
        if found:
            res.solution_loader.load_vars()
            return Outcome("optimal" if status == "optimal" else "feasible", _value, own, wall,
                           stats)
        if word == "memlimit":
            limit = self.options_scip.get("limits/memory")
            raise MemoryError(f"SCIP stopped at its memory limit (limits/memory {limit:.0f} MB)"
                              if limit is not None else "SCIP stopped at its memory limit")
        return Outcome(status, None, own, wall, stats)


class Scip(Backend):
    name = "scip"
    kinds: ClassVar[tuple[ModelKind, ...]] = ("mip",)
    package = "pyscipopt"
    modules = ("pyscipopt", "pyomo.environ",
               "pyomo.contrib.solver.solvers.scip.scip_persistent")
    incremental = True
    description = "SCIP (pyscipopt), in-process via Pyomo's scip_persistent interface; seeded"
    model_type = MipModel
    session = ScipSession

    def available(self) -> str | None:
        if importlib.util.find_spec("pyscipopt") is None:
            return "pyscipopt is not installed"
        if importlib.util.find_spec("pyomo.contrib.solver.solvers.scip") is None:
            return "this Pyomo has no SCIP interface (pyomo>=6.10.1 has)"
        return None

    def version(self) -> str:
        try:
            import pyscipopt

            scip = f"SCIP {pyscipopt.Model().version()}"
        except ImportError:
            return "not installed"
        return f"{scip} (pyscipopt {super().version()})"
