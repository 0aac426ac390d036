"""MIP solvers run as a child process on an LP file Pyomo writes (GLPK,
:mod:`bench.backends.glpk`; CBC, :mod:`bench.backends.cbc`): the session common to them, and
what a solver process that wrote no solution died of.

The session writes the LP file, runs the backend's command on it with the whole time left
(its own limit, :meth:`LpFileBackend.command`), reads the solution file back
(:meth:`LpFileBackend.read`) and the effort counters from the solver's log, its standard output
(:meth:`LpFileBackend.effort_of`). ``solve_s`` includes Pyomo's translation, the process and
reading the solution back; ``solver_s`` is the child process's wall time. A process still
running at the deadline is killed (SIGKILL), a ``timeout`` with no effort counters. A solver
that runs out of memory (CBC's ``std::bad_alloc``, GLPK's ``glp_alloc: no memory available``)
raises ``MemoryError``, which the task records as ``memout``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, NoReturn

from bench.backends.base import Backend, Outcome, Session, SolveOptions, Status
from bench.backends.kinds import MipModel
from bench.failure import died_of


def _value(var: Any) -> float:
    v = var.value
    return 0.0 if v is None else float(v)


#: what a solver process prints when an allocation failed (C++ ``new``, OpenBLAS's buffers,
#: GLPK's ``glp_alloc``/``glp_realloc``: "no memory available", "memory allocation error")
OUT_OF_MEMORY = ("std::bad_alloc", "Memory allocation", "memory allocation error",
                 "out of memory", "Cannot allocate memory", "no memory available")


def out_of_memory(output: str) -> str:
    """The first line of a solver's output that says an allocation failed ("" if none): CBC
    prints ``std::bad_alloc`` first and a stack trace after it."""
    return next((ln.strip() for ln in output.splitlines()
                 if any(s in ln for s in OUT_OF_MEMORY)), "")


#: the longest a solver process is given and waited for (about 11.6 days): a longer time
#: limit is no limit to a benchmark, but overflows glpsol's ``--tmlim`` (a C int: "Invalid time
#: limit") and the wait for the process (milliseconds in a C int)
MAX_WAIT_S = 1_000_000


class LpFileSession(Session):
    """The solver process gets the whole time left after Pyomo wrote the LP file (its own
    limit, :meth:`LpFileBackend.command`) and is killed at the deadline should it outrun it
    (glpsol's limit is rounded up to whole seconds): a solve killed there is a ``timeout``;
    it had the whole limit, and an answer after the deadline would be one anyway. It records
    no effort counters: what the killed solver printed is at most a lower bound of them
    (:meth:`LpFileBackend.effort_of`)."""

    backend: LpFileBackend
    model: MipModel

    def solve(self, time_limit: float) -> Outcome:
        m = self.model.model
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="puzzlebench-mip-") as tmp:
            lp, sol = Path(tmp) / "model.lp", Path(tmp) / "solution.txt"
            _, smap_id = m.write(str(lp), io_options={"symbolic_solver_labels": False})
            symbols = m.solutions.symbol_map[smap_id].bySymbol
            left = min(time_limit - (time.perf_counter() - t0), MAX_WAIT_S)
            if left <= 0:  # the LP file took the time: the solver is not started
                return Outcome("timeout", None, 0.0, time.perf_counter() - t0)
            cmd = self.backend.command(lp, sol, left, self.options)
            env = self.backend.environment()
            ts = time.perf_counter()
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=left, env=env)
            except subprocess.TimeoutExpired:  # killed (SIGKILL) at the deadline
                own = time.perf_counter() - ts
                return Outcome("timeout", None, own, time.perf_counter() - t0)
            own = time.perf_counter() - ts
            text = sol.read_text() if sol.exists() else ""
        wall = time.perf_counter() - t0
        if not text:
            self.failed(proc)
        status, values = self.backend.read(text)
        stats = self.backend.effort_of(proc.stdout)
        if status not in ("optimal", "feasible"):
            return Outcome(status, None, own, wall, stats)
        self.load(symbols, values)
        return Outcome(status, _value, own, wall, stats)

    def failed(self, proc: subprocess.CompletedProcess[str]) -> NoReturn:
        """Raise what a solver process that wrote no solution died of."""
        oom = out_of_memory(proc.stderr + "\n" + proc.stdout)
        if oom:  # a refused allocation under the task's RLIMIT_DATA: a memout
            raise MemoryError(f"{self.backend.name} ran out of memory (exit "
                              f"{proc.returncode}): {oom[:200]}")
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        died = died_of(proc.returncode, proc.stderr + "\n" + proc.stdout)
        raise RuntimeError(f"{self.backend.name} wrote no solution (exit "
                           f"{proc.returncode}{f', died of {died}' if died else ''}): "
                           f"{tail[0][:200]}")

    def load(self, symbols: dict[str, Any], values: dict[str, float]) -> None:
        """The solution's values into the Pyomo variables."""
        from pyomo.environ import Var

        # solvers omit zero columns (CBC) or columns presolve removed: start every one at 0
        for v in self.model.model.component_data_objects(Var, descend_into=True):
            if not v.fixed:
                v.set_value(0, skip_validation=True)
        for name, val in values.items():
            obj = symbols.get(name)
            if obj is not None and hasattr(obj, "set_value") and not obj.fixed:
                obj.set_value(val, skip_validation=True)


class LpFileBackend(Backend):
    """A solver run as a child process on an LP file that Pyomo writes; the solution file is
    read back here. ``solver_s`` is the child process's wall time, timed around it."""

    kinds = ("mip",)
    modules = ("pyomo.environ",)
    model_type = MipModel
    session = LpFileSession

    def executable(self) -> str | None:
        raise NotImplementedError

    def available(self) -> str | None:
        if importlib.util.find_spec("pyomo") is None:
            return "pyomo is not installed"
        return None if self.executable() else f"{self.package} is not installed (no executable)"

    def command(self, lp: Path, sol: Path, time_limit: float, options: SolveOptions) -> list[str]:
        """The solver's command line; ``time_limit``: the seconds left, all of them the
        solver's."""
        raise NotImplementedError

    def environment(self) -> dict[str, str] | None:
        """The solver process's environment (None: this process's)."""
        return None

    def read(self, text: str) -> tuple[Status, dict[str, float]]:
        """Status and the values by column name from the solution file's text."""
        raise NotImplementedError

    def effort_of(self, log: str) -> dict[str, float]:
        """The effort counters (:attr:`effort`) in the solver's log, its standard output
        (none by default); none from a log that does not state them whole (a lower bound is
        no count a result can mark as one)."""
        return {}
