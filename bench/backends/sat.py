"""python-sat solvers. Incremental ones keep the solver alive and receive only new clauses.

python-sat's solvers take no random seed, so a task's seed s != 0 (``run --seeds``) hands the
solver a :class:`Scramble` of the model: the same formula with a seeded half of its variables
negated throughout and each clause's literals in a seeded order. CDCL search depends on both (the
initial phase of every variable, the watched literals), so the seeds show the spread of one
solver on one formula; variables keep their numbers and clauses their places, so the solver's
memory layout is the model's. Seed 0 is the model as built.
"""

from __future__ import annotations

import functools
import importlib.util
import random
import threading
import time
from collections.abc import Sequence
from typing import Any

from bench.backends.base import Backend, Outcome, Seeding, Session
from bench.backends.kinds import ModelKind, SatAssignment, SatModel
from bench.effort import (
    CONFLICTS,
    DECISIONS,
    PROPAGATIONS,
    PROPAGATOR_CALLS,
    PROPAGATOR_CLAUSES,
    PROPAGATOR_INFERENCES,
    PROPAGATOR_S,
    Counter,
)


class Scramble:
    """A seeded scramble of a CNF over variables 1..``top`` that keeps its layout: each
    variable negated throughout with probability 1/2, each clause's literals shuffled; variable
    numbers and clause order unchanged (variables above ``top``, such as those of later cuts,
    keep their sign). :meth:`back` reads a model of the scrambled CNF for the original
    variables.

    Not a renaming of the variables, as SAT competitions scramble: that scatters the clauses of
    neighbouring cells over the solver's memory, which slows the solver per conflict
    (docs/results/2026-11-27-sat-seed-scramble.md)."""

    def __init__(self, seed: int, top: int) -> None:
        import numpy as np

        self.rng = random.Random(seed)
        self.top = top
        flip = [False] + [self.rng.random() < 0.5 for _ in range(top)]
        self.sign = [-1 if f else 1 for f in flip]  # variable v is v * sign[v] in the solver
        self.flip = np.asarray(flip)

    def clauses(self, clauses: Sequence[Sequence[int]]) -> list[list[int]]:
        sign, top, shuffle = self.sign, self.top, self.rng.shuffle
        out = [[x * sign[x if x > 0 else -x] if -top <= x <= top else x for x in c]
               for c in clauses]
        for c in out:
            shuffle(c)
        return out

    def back(self, value: SatAssignment) -> SatAssignment:
        """The original variables' truth from the scrambled CNF's assignment."""
        import numpy as np

        truth = np.array(value.array(self.top))  # a copy: the reader's array may be read-only
        truth[: self.top + 1] ^= self.flip
        return SatAssignment(truth.tobytes())


class SatSession(Session):
    backend: SatBackend
    model: SatModel

    def setup(self) -> None:
        self.solver: Any = None
        self.fed = 0  # clauses of model.clauses already given to the live solver
        self.seen: dict[str, float] = {}  # the live solver's counters at its last call
        self.scramble: Scramble | None = None
        if self.options.seed:
            used = (abs(x) for c in self.model.clauses for x in c)
            top = max(self.model.nvars, max(used, default=0))
            self.scramble = Scramble(self.options.seed, top)
            #: model.clauses scrambled, position for position (later ones as they come)
            self.scrambled = self.scramble.clauses(self.model.clauses)

    def _pending(self) -> Sequence[Sequence[int]]:
        """The clauses to give the solver at this call: the new ones, or all when the solver
        is (re)built; scrambled when seeded, which is done here, before the timed call (the
        scramble is a measuring device, not part of the solve)."""
        clauses = self.model.clauses
        if self.scramble is not None:
            if len(self.scrambled) < len(clauses):
                self.scrambled += self.scramble.clauses(clauses[len(self.scrambled):])
            clauses = self.scrambled
        kept = self.solver is not None and self.backend.incremental
        return clauses[self.fed:] if kept else clauses

    def _solver(self, pending: Sequence[Sequence[int]]) -> Any:
        from pysat.solvers import Solver

        if self.solver is not None and not self.backend.incremental:
            self.solver.delete()
            self.solver = None
        fresh = self.solver is None
        if fresh:
            if self.model.propagator is not None and not self.backend.propagates:
                raise ValueError(f"{self.backend.name} has no IPASIR-UP interface for this "
                                 "model's propagator")
            self.solver = Solver(name=self.backend.pysat_name, use_timer=True)
            self.seen = {}
            if self.model.propagator is not None:  # before the clauses: it may configure
                self.model.propagator.connect(
                    self.solver, None if self.scramble is None else self.scramble.sign)
        for clause in pending:
            self.solver.add_clause(clause)
        self.fed = len(self.model.clauses)
        return self.solver

    def _stats(self, solver: Any) -> dict[str, float]:
        """This call's counters (python-sat accumulates them over a live solver's calls)."""
        try:
            now = {k: float(v) for k, v in solver.accum_stats().items()}
        except NotImplementedError:  # Kissat
            return {}
        delta = {k: v - self.seen.get(k, 0.0) for k, v in now.items()}
        self.seen = now
        return delta

    def solve(self, time_limit: float) -> Outcome:
        pending = self._pending()
        t0 = time.perf_counter()
        solver = self._solver(pending)
        if self.backend.interruptible:
            # the limit counts from the call: feeding the clauses spent part of it
            left = time_limit - (time.perf_counter() - t0)
            timer = threading.Timer(max(left, 0.0), solver.interrupt)
            timer.start()
            try:
                sat = solver.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
            solver.clear_interrupt()
        else:
            sat = solver.solve()
        # the model is read inside the timed call (it is part of the answer's cost)
        value = SatAssignment.of_model(solver.get_model()) if sat else None
        wall = time.perf_counter() - t0
        if value is not None and self.scramble is not None:
            value = self.scramble.back(value)  # untimed, as the scrambling before the call
        own = float(solver.time())
        stats = self._stats(solver)
        if self.model.propagator is not None:
            stats.update(self.model.propagator.counters())
        if sat is None:
            return Outcome("timeout", None, own, wall, stats)
        if not sat:
            return Outcome("infeasible", None, own, wall, stats)
        return Outcome("sat", value, own, wall, stats)

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


@functools.cache
def start_refused(pysat_name: str) -> str:
    """Why python-sat cannot start its solver ``pysat_name`` ("" when it can): a listed engine
    this build left out, such as CryptoMiniSat without pycryptosat."""
    from pysat.solvers import Solver

    try:
        Solver(name=pysat_name).delete()
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return ""


@functools.cache
def interrupt_refused(pysat_name: str) -> str:
    """Why python-sat's solver ``pysat_name`` cannot run under a timer's interrupt ("" when it
    can): the calls :meth:`SatSession.solve` makes on an interruptible backend
    (``solve_limited(expect_interrupt=True)``, ``interrupt``, ``clear_interrupt``), made once per
    process on a one-clause formula (MapleSAT's limited solve crashes the process on an empty
    one). python-sat raises NotImplementedError from those its engine lacks (CaDiCaL's and
    Kissat's ``interrupt``, Lingeling's ``solve_limited``). The engine must start
    (:func:`start_refused`)."""
    from pysat.solvers import Solver

    solver = Solver(name=pysat_name, use_timer=True)
    try:
        solver.add_clause([1])
        solver.solve_limited(expect_interrupt=True)
        solver.interrupt()
        solver.clear_interrupt()
    except NotImplementedError as e:
        return str(e).strip() or "NotImplementedError"
    finally:
        solver.delete()
    return ""


class SatBackend(Backend):
    kinds: tuple[ModelKind, ...] = ("sat",)
    package = "python-sat"
    seeding = Seeding("scramble", "a seeded scramble of the formula (Scramble)")
    effort: tuple[Counter, ...] = (CONFLICTS, DECISIONS, PROPAGATIONS)
    modules = ("pysat.solvers", "pysat.card")
    model_type = SatModel
    session = SatSession
    pysat_name: str  # python-sat's name of the solver
    solver_version: str
    #: python-sat can interrupt only some solvers (Glucose, MiniSat, the Maple family);
    #: CaDiCaL, Kissat and Lingeling raise NotImplementedError, so they declare False and the
    #: runner's hard limit stops them instead; one declared True that python-sat cannot
    #: interrupt is unavailable, with the reason (:func:`interrupt_refused`)
    interruptible: bool = True
    #: connects a model's IPASIR-UP propagator (``SatModel.propagator``)
    propagates: bool = False

    def available(self) -> str | None:
        if importlib.util.find_spec("pysat") is None:
            return "python-sat is not installed"
        from pysat.solvers import SolverNames

        if not hasattr(SolverNames, self.pysat_name):
            return f"this python-sat build has no {self.pysat_name}"
        if cannot := start_refused(self.pysat_name):
            return f"python-sat cannot start {self.pysat_name} ({cannot})"
        if self.interruptible:
            refused = interrupt_refused(self.pysat_name)
            if refused:
                return (f"declared interruptible, but python-sat cannot interrupt "
                        f"{self.pysat_name} ({refused}): set interruptible = False in "
                        f"{type(self).__qualname__} (the runner's hard limit then stops it)")
        return None

    def version(self) -> str:
        """The solver's and python-sat's version (the package's own ``__version__``, which its
        build sets from the distribution's; the distribution's metadata where it has none)."""
        try:
            import pysat

            own = getattr(pysat, "__version__", None)
        except ImportError:
            own = None
        return f"{self.solver_version} (python-sat {own or super().version()})"


class Cadical195(SatBackend):
    name = "cadical195"
    pysat_name = "cadical195"
    solver_version = "CaDiCaL 1.9.5"
    incremental = True
    interruptible = False
    description = "CaDiCaL 1.9.5 (incremental; no in-process time limit, the hard limit applies)"
    check_rank = 0
    propagates = True
    effort = (*SatBackend.effort, PROPAGATOR_CALLS, PROPAGATOR_S, PROPAGATOR_INFERENCES,
              PROPAGATOR_CLAUSES)


class Cadical300(SatBackend):
    name = "cadical300"
    pysat_name = "cadical300"
    solver_version = "CaDiCaL 3.0.0"
    incremental = True
    interruptible = False
    description = "CaDiCaL 3.0.0 (incremental; no in-process time limit, the hard limit applies)"
    propagates = True
    effort = Cadical195.effort


class Glucose4(SatBackend):
    name = "glucose4"
    pysat_name = "glucose4"
    solver_version = "Glucose 4.1"
    incremental = True
    description = "Glucose 4.1 (incremental)"


class Kissat404(SatBackend):
    name = "kissat404"
    pysat_name = "kissat404"
    solver_version = "Kissat 4.0.4"
    incremental = False
    interruptible = False
    description = "Kissat 4.0.4 (not incremental: lazy loops rebuild it; hard limit only)"
    effort = ()  # python-sat keeps no statistics of Kissat


class Minisat22(SatBackend):
    name = "minisat22"
    pysat_name = "minisat22"
    solver_version = "MiniSat 2.2"
    incremental = True
    description = "MiniSat 2.2 (incremental)"


class Lingeling(SatBackend):
    name = "lingeling"
    pysat_name = "lingeling"
    solver_version = "Lingeling bbc"
    incremental = True
    interruptible = False
    description = "Lingeling (incremental; no in-process time limit, the hard limit applies)"
