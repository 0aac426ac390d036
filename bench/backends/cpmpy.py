"""CPMpy: one model (kind ``cpmpy``), every solver CPMpy reaches, each its own solver name.

:func:`solvers` is a backend family: ``cpmpy:<name>`` for each CPMpy solver in :data:`SOLVERS`,
with its own availability, version, seeding, effort counters and time limit. A session
translates the model for the solver (``cp.SolverLookup.get``) and solves it; after a lazy
formulation or counting added constraints, an incremental solver is given only the new ones
(``solver += ...``: CPMpy keeps the solver object, so the translation is not repeated), and
solved again. Choco is not incremental here: CPMpy 1.1.1 hands the constraints added after a
solve to a Choco solver whose search state goes on from the last solution, which then misses
solutions (a blocked count finds 1 of 2), so its solver is rebuilt from the whole model.

Per solver (CPMpy 1.1.1):

* time limit: each installed solver takes CPMpy's ``time_limit`` (OR-tools
  ``max_time_in_seconds``, Choco ``limit_time``, Pumpkin ``timeout``, Exact ``toOptimum``'s
  timeout, Z3 ``timeout`` in ms, pindakaas's time limit, HiGHS ``time_limit``, SCIP
  ``limits/time``), given the time left after the translation (:func:`solver_limit`: none past
  1e6 s, written out as SCIP's own "none" since SCIP keeps a live solver's last limit;
  Choco's in whole milliseconds); a solver that refuses it (CPMpy's ``pysat:cadical195``)
  runs without it and the harness's external kill is the limit (:attr:`Spec.interruptible`).
  CPMpy's translation of the model happens inside the solve, before the solver's clock starts: Exact
  checks its limit only after its preprocessing, and pindakaas's encoding into SAT (integers
  bit by bit) is not interruptible, so there the harness's kill is the limit.
* seed: OR-tools ``random_seed``, Z3 ``random_seed``, HiGHS ``random_seed`` and SCIP
  ``randomization/randomseedshift`` (solve options), Pumpkin ``seed`` and
  Exact ``seed`` (options of the solver's construction; Exact's seeds start at 1, so it gets
  the task's seed + 1); Choco's default search and pindakaas
  (CaDiCaL) take none here. Threads: OR-tools ``num_workers``, HiGHS ``threads`` and SCIP
  ``lp/threads`` (its search is sequential) are the task's threads.
* effort: OR-tools conflicts/branches/deterministic time, Exact and Z3
  conflicts/decisions/propagations (both count over a live solver's calls: a call reports
  the change since the last), Choco search nodes and failures (read from
  ``pychoco.backend``: pychoco 0.4.0's ``Solver.get_node_count`` returns the time count);
  HiGHS simplex iterations and branch-and-bound nodes (``getInfo``: this run's), SCIP LP
  iterations and nodes, kept as CPMpy frees SCIP's transformed problem at the end of each
  solve (after which SCIP counts none: :func:`_scip_model`); Pumpkin and pindakaas report
  none to Python. HiGHS's run time (``solver_s``) adds up over a live solver's runs: a call
  reports the change since the last.
* memory: the harness's RLIMIT_DATA; a ``MemoryError`` is a memout as for every kind, and so
  is Z3's "unknown" for the reason "out of memory" (or its exception saying so), HiGHS's
  model status ``kMemoryLimit`` and SCIP's status "memlimit" (SCIP is given, as
  ``limits/memory``, the share of RLIMIT_DATA the ``scip`` backend gives it).
* python-sat through CPMpy encodes pseudo-Boolean constraints with PBLib, which it imports
  from ``pypblib``: without it the solver is listed as unavailable, with that reason.
  MiniZinc needs a ``minizinc`` executable of at least 2.8.2 (CPMpy's requirement); Gurobi's
  pip licence is size-limited: both are listed, and unavailable with the reason here.

``import cpmpy`` (OR-tools, highspy and pandas) happens when a session starts, never when the
backends are listed.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from typing import Any

from bench.backends.base import UNSEEDED, Backend, Outcome, Seeding, Session, Status
from bench.backends.kinds import CpmpyModel, ModelKind
from bench.backends.scip import memory_limit_mb
from bench.effort import (
    BRANCHES,
    CONFLICTS,
    DECISIONS,
    DETERMINISTIC_TIME,
    FAILURES,
    NODES,
    PROPAGATIONS,
    SIMPLEX_ITERATIONS,
    Counter,
)

#: CPMpy's oldest MiniZinc executable
MINIZINC_MIN = (2, 8, 2)

#: past this many seconds left no time limit is handed to the solver (the harness's kill is
#: the limit): CPMpy gives Z3 ``int(seconds * 1000)`` as an unsigned 32-bit int, which wraps
#: from 4294967.296 s on (that limit stops Z3 at once), and Choco ``f"{seconds}s"``, which
#: Choco misreads once written with an exponent (``1e+16s`` reads as 16 s)
NO_LIMIT_PAST = 1e6


#: SCIP's ``limits/time`` default, its "no limit"
SCIP_NO_LIMIT = 1e20


def solver_limit(solver: str, left: float) -> float | None:
    """The time limit handed to CPMpy's ``solver`` with ``left`` seconds left (> 0): None
    (none) past :data:`NO_LIMIT_PAST`, SCIP's :data:`SCIP_NO_LIMIT` there (CPMpy sets SCIP's
    ``limits/time`` only when given one, so a live solver would keep the last); Choco's
    rounded to whole milliseconds, at least one (Choco reads CPMpy's ``f"{seconds}s"`` in
    milliseconds: below 1 ms it stops the process with a fatal Java ``NumberFormatException``
    (``0.0005s``) or, written with an exponent, misreads it (``9e-05s`` runs 5 s))."""
    if left > NO_LIMIT_PAST:
        # SCIP keeps the last call's ``limits/time`` when CPMpy is given none: its own "none"
        return SCIP_NO_LIMIT if solver == "scip" else None
    if solver == "choco":
        return max(0.001, round(left, 3))
    return left


@dataclass(frozen=True)
class Spec:
    """One CPMpy solver as the family declares it."""

    solver: str  # CPMpy's solver name (``cp.SolverLookup``)
    package: str  # the PyPI distribution of the solver
    about: str  # what it is
    seeding: Seeding = UNSEEDED
    #: where the seed goes: "solve" (a solve option) or "init" (the solver's construction)
    seed_at: str = ""
    effort: tuple[Counter, ...] = ()
    #: whether CPMpy's ``time_limit`` reaches the solver (else the harness's kill stops it)
    interruptible: bool = True
    check_rank: int | None = None
    #: modules beyond cpmpy whose absence makes it unavailable
    needs: tuple[str, ...] = ()
    #: whether the live solver takes constraints after a solve (else it is rebuilt)
    incremental: bool = True
    #: how the time limit reaches it, where more than CPMpy's time_limit is to be said
    limit: str = "CPMpy's time_limit"
    #: whether its effort counters add up over a live solver's calls (a call's are the change)
    cumulative: bool = False


SOLVERS: tuple[Spec, ...] = (
    Spec("ortools", "ortools", "OR-tools CP-SAT (num_workers, random_seed)",
         Seeding("option", "random_seed"), "solve", (CONFLICTS, BRANCHES, DETERMINISTIC_TIME),
         check_rank=10),
    Spec("choco", "pychoco", "Choco (classical CP, default search)", effort=(NODES, FAILURES),
         needs=("pychoco",), incremental=False),
    Spec("pumpkin", "pumpkin-solver", "Pumpkin (lazy clause generation)",
         Seeding("option", "seed"), "init", needs=("pumpkin_solver",)),
    Spec("exact", "exact", "Exact (pseudo-Boolean, conflict-driven)",
         Seeding("option", "seed"), "init", (CONFLICTS, DECISIONS, PROPAGATIONS),
         needs=("exact",), limit="CPMpy's time_limit, checked after Exact's preprocessing",
         cumulative=True),
    Spec("z3", "z3-solver", "Z3 (SMT)", Seeding("option", "random_seed"), "solve",
         (CONFLICTS, DECISIONS, PROPAGATIONS), needs=("z3",), cumulative=True),
    Spec("pindakaas", "pindakaas", "pindakaas (encodes to SAT, CaDiCaL)",
         needs=("pindakaas",), limit="CPMpy's time_limit on the SAT search; the encoding is "
         "not interruptible, the harness's kill applies there"),
    Spec("pysat", "python-sat", "python-sat through CPMpy (pseudo-Boolean by PBLib)",
         needs=("pysat", "pypblib")),
    Spec("minizinc", "minizinc", "MiniZinc (its default solver)", needs=("minizinc",)),
    Spec("gurobi", "gurobipy", "Gurobi (MIP)", needs=("gurobipy",)),
    Spec("highs", "highspy", "HiGHS (MIP)", Seeding("option", "random_seed"), "solve",
         (SIMPLEX_ITERATIONS, NODES), needs=("highspy",)),
    # SCIP's counters are read as CPMpy ends the call (it frees SCIP's transformed problem,
    # and the counters with it, before returning): see _scip_model
    Spec("scip", "pyscipopt", "SCIP (MIP)", Seeding("option", "randomization/randomseedshift"),
         "solve", (SIMPLEX_ITERATIONS, NODES), needs=("pyscipopt",)),
)

_STATUS: dict[str, Status] = {"OPTIMAL": "optimal", "FEASIBLE": "feasible",
                              "UNSATISFIABLE": "infeasible", "UNKNOWN": "timeout"}


class CpmpySession(Session):
    backend: CpmpySolver
    model: CpmpyModel

    def setup(self) -> None:
        self.solver: Any = None
        #: the live solver refused constraints because they made it infeasible at its root
        self.refuted = False
        self.fed = 0  # constraints of model.model.constraints the live solver has
        self.seen: dict[str, float] = {}  # cumulative counters at the last call
        self.ran = 0.0  # HiGHS' run time at the last call

    def translate(self) -> Any:
        """The live solver with every constraint of the model: built on the first call (and
        rebuilt for a solver that is not incremental when the model grew), given the new
        constraints otherwise."""
        import cpmpy as cp

        constraints = self.model.model.constraints
        if (self.solver is not None and not self.backend.incremental
                and len(constraints) > self.fed):
            self.solver, self.fed, self.refuted = None, 0, False
        if self.solver is None:
            self.seen, self.ran = {}, 0.0  # a new solver counts from zero
            kwargs: dict[str, Any] = {}
            if self.backend.spec.seed_at == "init":  # Exact takes seeds from 1
                kwargs["seed"] = self.options.seed + (self.backend.spec.solver == "exact")
            self.solver = cp.SolverLookup.get(self.backend.spec.solver, **kwargs)
            if self.backend.spec.solver == "scip":  # still empty: its model can be swapped
                self.solver.scip_model = _scip_model()
        pending = constraints[self.fed:]
        self.fed = len(constraints)
        if pending and not self.refuted:
            try:
                self.solver += pending
            except ValueError:
                # Pumpkin refuses any constraint once its root propagation proved the model
                # infeasible ("solver is in an infeasible state"): the model is infeasible
                if not self._inconsistent():
                    raise
                self.refuted = True
        return self.solver

    def _inconsistent(self) -> bool:
        check = getattr(getattr(self.solver, "pum_solver", None), "is_inconsistent", None)
        return bool(check is not None and check())

    def _options(self) -> dict[str, Any]:
        spec = self.backend.spec
        out: dict[str, Any] = {}
        if spec.seed_at == "solve":
            out[spec.seeding.how] = self.options.seed
        if spec.solver == "ortools":
            out["num_workers"] = self.options.threads
        if spec.solver == "highs":
            out["threads"] = self.options.threads
        if spec.solver == "scip":
            out["lp/threads"] = self.options.threads  # SCIP's own search is sequential
            memory = memory_limit_mb()
            if memory is not None:
                out["limits/memory"] = memory
        return out

    def solve(self, time_limit: float) -> Outcome:
        t0 = time.perf_counter()
        try:
            solver = self.translate()
        except Exception as e:  # Z3 out of memory while taking the constraints
            if "out of memory" in str(e):
                raise MemoryError(f"{self.backend.name}: {e}") from e
            raise
        if self.refuted:
            return Outcome("infeasible", None, 0.0, time.perf_counter() - t0, {})
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0:
            return Outcome("timeout", None, 0.0, time.perf_counter() - t0, {})
        limit = solver_limit(self.backend.spec.solver, left)
        given = {"time_limit": limit} if self.backend.spec.interruptible and limit else {}
        if self.backend.spec.solver == "scip":
            solver.scip_model.kept = {}
        found = solver.solve(**given, **self._options())
        wall = time.perf_counter() - t0
        st = solver.status()
        status = _STATUS.get(st.exitstatus.name, "unknown")
        if status in ("timeout", "unknown"):
            self._gave_up(solver)
        if found and status not in ("optimal", "feasible"):
            status = "feasible"

        def value(x: Any) -> float:
            v = x.value()
            return float("nan") if v is None else float(v)

        own = float(st.runtime) if st.runtime is not None else wall
        if self.backend.spec.solver == "highs":  # its run time adds up over a live solver
            own, self.ran = own - self.ran if own >= self.ran else own, own
        return Outcome(status, value if found else None, own, wall, self._stats(solver))

    def _gave_up(self, solver: Any) -> None:
        """Raise MemoryError (a memout) when the solver's "unknown" was running out of memory,
        not its time limit: Z3 answers "unknown" with the reason "out of memory", HiGHS stops
        with the model status ``kMemoryLimit`` (CPMpy's ERROR when HiGHS's run returned an
        error, else UNKNOWN) and SCIP with the status "memlimit" at its ``limits/memory``
        (UNKNOWN)."""
        name = self.backend.spec.solver
        reason = ""
        if name == "z3":
            reason = str(solver.z3_solver.reason_unknown())
        elif name == "highs":
            import highspy

            if solver.highs.getModelStatus() == highspy.HighsModelStatus.kMemoryLimit:
                reason = "HiGHS stopped at its memory limit (kMemoryLimit)"
        elif name == "scip" and solver.scip_model.kept.get("status") == "memlimit":
            reason = "SCIP stopped at its memory limit (limits/memory)"
        if "memory" in reason:
            raise MemoryError(f"{self.backend.name}: {reason}")

    def _stats(self, solver: Any) -> dict[str, float]:
        """This call's effort counters: the solver's readings, less the last call's where they
        add up over a live solver's calls (Exact's and Z3's)."""
        now = self._counters(solver)
        if not self.backend.spec.cumulative:
            return now
        delta = {k: v - self.seen.get(k, 0.0) for k, v in now.items()}
        self.seen = now
        return delta

    def _counters(self, solver: Any) -> dict[str, float]:
        """The solver's effort counters as it reports them after a call."""
        name = self.backend.spec.solver
        try:
            if name == "ortools":
                s = solver.ort_solver
                return {"conflicts": float(s.num_conflicts), "branches": float(s.num_branches),
                        "deterministic_time": float(s.deterministic_time)}
            if name == "choco":
                from pychoco import backend as chc

                handle = solver.chc_solver._handle
                return {"nodes": float(chc.get_node_count(handle)),
                        "failures": float(chc.get_fail_count(handle))}
            if name == "z3":
                st = solver.z3_solver.statistics()
                keys = set(st.keys())  # Z3 lists only the counters that are not zero
                return {k: float(st.get_key_value(k)) if k in keys else 0.0
                        for k in ("conflicts", "decisions", "propagations")}
            if name == "exact":
                return {k: float(v) for k, v in solver.xct_solver.getStats()
                        if k in ("conflicts", "decisions", "propagations")}
            if name == "highs":  # HiGHS' info is this run's
                info = solver.highs.getInfo()
                return {"simplex_iterations": float(max(info.simplex_iteration_count, 0)),
                        "nodes": float(max(info.mip_node_count, 0))}
            if name == "scip":
                kept = solver.scip_model.kept
                return {k: kept[k] for k in ("simplex_iterations", "nodes") if k in kept}
        except (AttributeError, TypeError, ValueError):  # a solver version without them
            return {}
        return {}


#: the pyscipopt Model class that keeps SCIP's counters (made on first use)
_SCIP_MODEL: list[type] = []


def _scip_model() -> Any:
    """An empty SCIP model that keeps, in ``kept``, SCIP's status, branch-and-bound nodes and
    LP iterations as its transformed problem is freed: CPMpy's ``CPM_scip.solve`` ends with
    ``freeTransform`` (so that constraints can be added after a solve), after which SCIP
    counts zero nodes and refuses to read LP iterations."""
    if not _SCIP_MODEL:
        import pyscipopt

        class Keeping(pyscipopt.Model):
            kept: dict[str, Any]

            def freeTransform(self) -> None:
                # before presolve ended (stopped there) SCIP has run no node and no LP
                searched = self.getStage() >= pyscipopt.SCIP_STAGE.PRESOLVED
                self.kept = {"status": str(self.getStatus()),
                             "nodes": float(self.getNNodes()) if searched else 0.0,
                             "simplex_iterations":
                                 float(self.getNLPIterations()) if searched else 0.0}
                super().freeTransform()

        _SCIP_MODEL.append(Keeping)
    model = _SCIP_MODEL[0]()
    model.setParam("display/verblevel", 0)  # as CPMpy sets it
    return model


#: the version of the ``minizinc`` executable on PATH, read once (None: none found)
_MINIZINC: dict[str, tuple[int, ...] | None] = {}


def _minizinc_version() -> tuple[int, ...] | None:
    if "version" not in _MINIZINC:
        _MINIZINC["version"] = _read_minizinc_version()
    return _MINIZINC["version"]


def _read_minizinc_version() -> tuple[int, ...] | None:
    exe = shutil.which("minizinc")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(g) for g in m.groups()) if m else None


class CpmpySolver(Backend):
    """The CPMpy solver ``spec.solver`` as the solver name ``cpmpy:<solver>``."""

    kinds: tuple[ModelKind, ...] = ("cpmpy",)
    model_type = CpmpyModel
    session = CpmpySession
    incremental = True
    modules = ("cpmpy",)

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.name = f"cpmpy:{spec.solver}"
        self.package = spec.package
        limit = (spec.limit if spec.interruptible
                 else "no in-process time limit, the harness's kill applies")
        self.description = f"{spec.about} through CPMpy ({limit})"
        self.incremental = spec.incremental
        self.seeding = spec.seeding
        self.effort = spec.effort
        self.check_rank = spec.check_rank

    def available(self) -> str | None:
        if importlib.util.find_spec("cpmpy") is None:
            return "cpmpy is not installed (pip install 'puzzlebench[cpmpy]')"
        solver = self.spec.solver
        if solver == "minizinc":
            found = _minizinc_version()
            want = ".".join(map(str, MINIZINC_MIN))
            if found is None:
                return f"no minizinc executable on PATH (CPMpy needs MiniZinc >= {want})"
            if found < MINIZINC_MIN:
                return (f"MiniZinc {'.'.join(map(str, found))} is older than the {want} CPMpy "
                        "needs")
        if solver == "gurobi":
            return ("gurobipy's pip licence is size-limited (a restricted licence: models past "
                    "its size are refused), so Gurobi is not benchmarked")
        for module in self.spec.needs:
            if importlib.util.find_spec(module) is None:
                if module == "pypblib":
                    return ("python-sat through CPMpy needs pypblib for pseudo-Boolean "
                            "constraints (sums, cardinalities), which is not installed")
                return f"{module} is not installed"
        return None

    def version(self) -> str:
        def read(dist: str) -> str:
            try:
                return importlib.metadata.version(dist)
            except importlib.metadata.PackageNotFoundError:
                return "not installed"

        cpmpy = f"cpmpy {read('cpmpy')}"
        if self.spec.solver == "scip" and self.available() is None:
            # pyscipopt's own version is not SCIP's: name both, as the ``scip`` backend does
            import pyscipopt

            return (f"scip {pyscipopt.Model().version()} "
                    f"(pyscipopt {read(self.package)}, {cpmpy})")
        return f"{self.spec.solver} {read(self.package)} ({cpmpy})"


def solvers() -> list[Backend]:
    """The family: one backend per CPMpy solver of :data:`SOLVERS`, in that order."""
    return [CpmpySolver(spec) for spec in SOLVERS]
