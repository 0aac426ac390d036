"""HiGHS (highspy) in-process through Pyomo's persistent APPSI interface, which forwards added
cuts to the live solver (incremental). Its ``solve_s`` includes loading the solution's values
into the Pyomo model, as reading the solution file back is in GLPK's and CBC's; its limit is
the time left after Pyomo's translation of the model into HiGHS.

A HiGHS task imports only ``HighsMip.modules``, never ``ortools`` (which bundles a HiGHS of its
own; the two coexist in one process, see :mod:`bench.backends`). HiGHS stopping at its memory
limit (``kMemoryLimit``) raises ``MemoryError``, which the task records as ``memout``.
"""

from __future__ import annotations

import importlib.util
import time
from typing import Any

from bench.backends.base import Backend, Outcome, Seeding, Session, Status
from bench.backends.kinds import MipModel
from bench.effort import NODES, SIMPLEX_ITERATIONS


def _value(var: Any) -> float:
    v = var.value
    return 0.0 if v is None else float(v)


class HighsSession(Session):
    model: MipModel

    def setup(self) -> None:
        from pyomo.contrib.appsi.solvers import Highs

        self.opt = Highs()
        self.opt.config.load_solution = False
        self.opt.highs_options = {
            "threads": self.options.threads,
            "random_seed": self.options.seed,
            "output_flag": False,
        }
        self.loaded = False  # the model translated into HiGHS (set_instance) yet

    def _stats(self) -> dict[str, float]:
        """HiGHS' counters of the last run: simplex iterations, branch-and-bound nodes. HiGHS
        reports -1 for a count of a solver that did not run (``mip_node_count`` of an LP, a
        model with no integer column left): none, so 0, which sums over a lazy loop's
        calls."""
        model = getattr(self.opt, "_solver_model", None)
        if model is None:
            return {}
        info = model.getInfo()
        return {"simplex_iterations": float(max(info.simplex_iteration_count, 0)),
                "nodes": float(max(info.mip_node_count, 0))}

    def _empty(self) -> bool:
        import highspy

        model = getattr(self.opt, "_solver_model", None)
        return model is not None and \
            model.getModelStatus() == highspy.HighsModelStatus.kModelEmpty

    def _memory_limit(self) -> bool:
        import highspy

        model = getattr(self.opt, "_solver_model", None)
        return model is not None and \
            model.getModelStatus() == highspy.HighsModelStatus.kMemoryLimit

    def _run_time(self) -> float:
        model = getattr(self.opt, "_solver_model", None)
        return float(model.getRunTime()) if model is not None else 0.0

    def translate(self) -> None:
        """Pyomo's translation of the model into HiGHS: the whole model on the first call
        (``set_instance``), the changes since (a lazy loop's cuts, ``update``) on later ones."""
        if not self.loaded:
            self.opt.set_instance(self.model.model)
            self.loaded = True
        else:
            self.opt.update()

    def run(self) -> Any:
        """APPSI's solve of the model as translated: its own scan of the model for changes
        (every ``check_*``/``update_*`` switch of ``update_config``) is off for the call."""
        config = self.opt.update_config
        switches = {k: config[k] for k in config if k.startswith(("check_", "update_"))}
        for k in switches:
            config[k] = False
        try:
            return self.opt.solve(self.model.model)
        finally:
            for k, on in switches.items():
                config[k] = on

    def solve(self, time_limit: float) -> Outcome:
        from pyomo.contrib.appsi.base import TerminationCondition as TC

        t0 = time.perf_counter()
        # the translation is Python work before HiGHS' clock starts (seconds on large
        # models): done first, so that HiGHS gets only the time left
        self.translate()
        self.opt.config.time_limit = max(time_limit - (time.perf_counter() - t0), 0.001)
        before = self._run_time()
        res = self.run()
        wall = time.perf_counter() - t0
        # HiGHS' run time accumulates over the runs of one Highs object (lazy re-solves)
        after = self._run_time()
        own = after - before if after >= before else after
        tc = res.termination_condition
        if tc == TC.unknown and self._memory_limit():  # an allocation inside HiGHS failed
            raise MemoryError("HiGHS stopped at its memory limit (kMemoryLimit)")
        found = res.best_feasible_objective is not None or tc == TC.optimal
        status: Status
        if tc == TC.unknown and self._empty():
            # a model with no variables left (every cell given: nothing to decide) is
            # kModelEmpty to HiGHS, which APPSI reports as "unknown"; GLPK and CBC, rightly,
            # as optimal. Nothing to load.
            return Outcome("optimal", _value, own, wall, self._stats())
        if tc == TC.optimal:
            status = "optimal"
        elif tc in (TC.infeasible, TC.infeasibleOrUnbounded):
            status, found = "infeasible", False
        elif found:
            status = "feasible"
        elif tc == TC.maxTimeLimit:
            status = "timeout"
        else:
            status = "unknown"
        stats = self._stats()
        if found:
            # reading the values back is part of the solve, as for GLPK and CBC
            res.solution_loader.load_vars()
            return Outcome(status, _value, own, time.perf_counter() - t0, stats)
        return Outcome(status, None, own, wall, stats)


class HighsMip(Backend):
    name = "highs"
    kinds = ("mip",)
    package = "highspy"
    modules = ("highspy", "pyomo.environ", "pyomo.contrib.appsi.solvers")
    incremental = True
    description = "HiGHS (highspy), in-process via Pyomo's persistent APPSI interface"
    model_type = MipModel
    session = HighsSession
    seeding = Seeding("option", "random_seed")
    effort = (SIMPLEX_ITERATIONS, NODES)
    #: last of the MIP solvers in `check`
    check_rank = 3

    def available(self) -> str | None:
        if importlib.util.find_spec("highspy") is None:
            return "highspy is not installed"
        return None if importlib.util.find_spec("pyomo") else "pyomo is not installed"

    def version(self) -> str:
        return f"HiGHS (highspy {super().version()})"
