"""SCIP (pyscipopt) for the ``mip`` kind, in-process, its model read from an LP file.

First solve: Pyomo's LP writer (``pyomo.repn.plugins.lp_writer``, numeric labels) writes the
model to a temporary file, ``pyscipopt.Model.readProblem`` reads it, and the writer's symbol
map ties each SCIP column back to its Pyomo variable (values are loaded into the Pyomo
variables, so that a formulation's ``decode`` reads them as on any other MIP solver). The
writer keeps the model exact: objective sense and constant (a column fixed at 1), bounds,
integrality, equality and range rows (a range as two rows); fixed variables enter as
constants.

Later solves (a lazy formulation's cuts, a counting block): the model may only have grown.
The rows not yet translated (every active constraint is compared with those already in SCIP)
are added to the live SCIP model with ``Model.addCons`` from Pyomo's standard repn of each,
after ``freeTransform`` (SCIP re-presolves the original problem; it keeps no search tree); a
variable first seen in a new row becomes a new SCIP column with its bounds and domain. A row
removed or deactivated since the last solve makes the session translate the whole model
again. Changes to the bounds or fixing of variables already in SCIP are not followed.

Settings: single-threaded (SCIP's search is sequential; ``lp/threads`` holds the LP solver to
the task's threads), ``randomization/randomseedshift`` set to the task's seed (SCIP's one
switch for all its random number generators), ``limits/time`` the time left after the
translation, and ``limits/memory`` the task's memory limit where the worker set one (the soft
RLIMIT_DATA, less a margin for what SCIP does not count), so that SCIP stops itself rather
than failing an allocation.

Status: read from SCIP itself (``Model.getStatus``). A stop at the memory limit without a
solution raises ``MemoryError``, which the task records as ``memout``. SCIP catches Ctrl-C
(SIGINT) itself during a solve and stops ("userinterrupt"): that raises ``KeyboardInterrupt``,
as a Ctrl-C anywhere else in the process would, not a status. ``solver_s`` is SCIP's
own solving time (``getSolvingTime``: presolve and search of this call, not the reading);
``wall_s`` includes the translation (writing, reading, adding rows) and loading the values.
Effort is branch-and-bound ``nodes`` and ``simplex_iterations`` (SCIP's LP iterations) per
call.
"""

from __future__ import annotations

import importlib.util
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.backends.base import Backend, Outcome, Seeding, Session, Status
from bench.backends.kinds import MipModel, ModelKind
from bench.effort import NODES, SIMPLEX_ITERATIONS

#: of the task's data limit, what SCIP may use (its own estimate leaves out the LP solver's
#: and Python's memory)
MEMORY_SHARE = 0.8

#: the column Pyomo's LP writer adds for an objective constant (bounds [1, 1])
WRITER_CONSTANT = "ONE_VAR_CONSTANT"


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
}


def active_rows(model: Any) -> list[Any]:
    """Every active constraint of a Pyomo model, in the writer's (declaration) order."""
    from pyomo.environ import Constraint

    return list(model.component_data_objects(Constraint, active=True, descend_into=True))


class ScipSession(Session):
    model: MipModel

    def setup(self) -> None:
        self.options_scip: dict[str, Any] = {
            "randomization/randomseedshift": self.options.seed,
            "lp/threads": self.options.threads,
            "display/verblevel": 0,
        }
        limit = memory_limit_mb()
        if limit is not None:
            self.options_scip["limits/memory"] = limit
        self.scip: Any = None  # pyscipopt.Model once translated
        self.columns: Any = None  # ComponentMap: Pyomo variable -> SCIP variable
        self.rows: set[int] = set()  # id() of the constraints in SCIP ...
        self.kept: list[Any] = []  # ... held here, so that no id is reused

    def translate(self) -> None:
        """The whole model into a new SCIP model, through an LP file."""
        import pyscipopt
        from pyomo.common.collections import ComponentMap
        from pyomo.repn.plugins.lp_writer import LPWriter

        rows = active_rows(self.model.model)
        scip = pyscipopt.Model()
        scip.hideOutput()  # the LP reader's messages would reach stdout
        with tempfile.TemporaryDirectory(prefix="puzzlebench-scip-") as tmp:
            lp = Path(tmp) / "model.lp"
            with open(lp, "w", newline="") as f:
                info = LPWriter().write(self.model.model, f, symbolic_solver_labels=False)
            scip.readProblem(str(lp))
        by_symbol = info.symbol_map.bySymbol
        columns = ComponentMap()
        for var in scip.getVars():
            if var.name != WRITER_CONSTANT:
                columns[by_symbol[var.name]] = var
        self.scip, self.columns = scip, columns
        self.rows, self.kept = {id(c) for c in rows}, rows

    def column(self, var: Any) -> Any:
        """The SCIP column of a Pyomo variable, added (bounds, domain) if new."""
        col = self.columns.get(var)
        if col is None:
            lb, ub = var.bounds
            vtype = "B" if var.is_binary() else "I" if var.is_integer() else "C"
            col = self.scip.addVar(lb=lb, ub=ub, vtype=vtype)  # None: unbounded
            self.columns[var] = col
        return col

    def add_rows(self, rows: list[Any]) -> None:
        """New constraints into the live SCIP model (its transformed problem freed first)."""
        import pyscipopt
        from pyomo.repn import generate_standard_repn

        self.scip.freeTransform()
        for con in rows:
            lb, body, ub = con.to_bounded_expression(True)
            if lb is None and ub is None:
                continue
            repn = generate_standard_repn(body, compute_values=True, quadratic=False)
            if repn.nonlinear_expr is not None:
                raise ValueError(f"constraint {con.name} is not linear")
            expr = pyscipopt.quicksum(float(a) * self.column(v)
                                      for v, a in zip(repn.linear_vars, repn.linear_coefs,
                                                      strict=True))
            offset = float(repn.constant)
            self.scip.addCons(pyscipopt.scip.ExprCons(
                expr, lhs=None if lb is None else lb - offset,
                rhs=None if ub is None else ub - offset))
            self.rows.add(id(con))
            self.kept.append(con)

    def update(self) -> None:
        """Bring SCIP's model up to the Pyomo model: translate it, or add the new rows."""
        if self.scip is None:
            self.translate()
            return
        current = active_rows(self.model.model)
        new = [c for c in current if id(c) not in self.rows]
        if len(current) - len(new) < len(self.rows):  # a row left the model
            self.translate()
        else:
            self.add_rows(new)

    def solve(self, time_limit: float) -> Outcome:
        t0 = time.perf_counter()
        # the translation is Python work before SCIP's clock starts (seconds on large
        # models): done first, so that SCIP gets only the time left
        self.update()
        scip = self.scip
        for key, val in self.options_scip.items():
            scip.setParam(key, val)
        scip.setParam("limits/time", max(time_limit - (time.perf_counter() - t0), 0.001))
        scip.optimize()
        word = str(scip.getStatus())
        if word == "userinterrupt":  # SCIP's own SIGINT handler stopped it: the user's Ctrl-C
            raise KeyboardInterrupt("SCIP stopped by SIGINT (userinterrupt)")
        own = float(scip.getSolvingTime())
        stats = {"nodes": float(scip.getNNodes()),
                 "simplex_iterations": float(scip.getNLPIterations())}
        status: Status = _STOPPED.get(word, "unknown")
        found = status != "infeasible" and scip.getNSols() > 0
        if found:
            sol = scip.getBestSol()
            for var, col in self.columns.items():
                var.set_value(scip.getSolVal(sol, col), skip_validation=True)
            return Outcome("optimal" if status == "optimal" else "feasible", _value, own,
                           time.perf_counter() - t0, stats)
        if word == "memlimit":
            limit = self.options_scip.get("limits/memory")
            raise MemoryError(f"SCIP stopped at its memory limit (limits/memory {limit:.0f} MB)"
                              if limit is not None else "SCIP stopped at its memory limit")
        return Outcome(status, None, own, time.perf_counter() - t0, stats)


class Scip(Backend):
    name = "scip"
    kinds: tuple[ModelKind, ...] = ("mip",)
    package = "pyscipopt"
    modules = ("pyscipopt", "pyomo.environ", "pyomo.repn.plugins.lp_writer",
               "pyomo.repn.standard_repn")
    incremental = True
    description = ("SCIP (pyscipopt), in-process on a Pyomo-written LP file; later rows added "
                   "to the live model; seeded")
    model_type = MipModel
    session = ScipSession
    seeding = Seeding("option", "randomization/randomseedshift")
    effort = (SIMPLEX_ITERATIONS, NODES)
    check_rank = 2

    def available(self) -> str | None:
        if importlib.util.find_spec("pyscipopt") is None:
            return "pyscipopt is not installed"
        return None if importlib.util.find_spec("pyomo") else "pyomo is not installed"

    def version(self) -> str:
        try:
            import pyscipopt

            scip = f"SCIP {pyscipopt.Model().version()}"
        except ImportError:
            return "not installed"
        return f"{scip} (pyscipopt {super().version()})"
