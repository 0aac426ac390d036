"""Solver backends: one small class per solver, declaring the model kinds it accepts.

A backend starts a :class:`Session` on a built model; ``Session.solve`` may be called again
after a lazy formulation added cuts. Incremental backends feed only what is new to the live
solver; the others rebuild. Every solver quirk (option names, status codes, timing fields,
executables, how a kind states "no solution") lives in this package and nowhere else.

Backends are listed explicitly in :data:`BACKENDS` (importing a module registers nothing). The
backend modules import only the standard library at the top; a solver package is imported when
a backend is used, so listing the backends costs no solver import.

Solver facts the harness relies on:

* Interruptibility. CP-SAT (``max_time_in_seconds``), HiGHS (``time_limit``), GLPK
  (``--tmlim``), CBC (``-sec``), SCIP (``limits/time``) and clingo (its asynchronous search
  cancelled) stop themselves at the time limit; clingo's grounding is not interruptible.
  python-sat can interrupt only some solvers (Glucose, MiniSat: a timer calls
  ``interrupt``); CaDiCaL 1.9.5, Kissat and Lingeling raise NotImplementedError on it, so
  they run uninterrupted and the runner's hard limit (killing the task process) stops them.
  ``SatBackend.interruptible`` records which.
* The HiGHS clash. OR-tools and highspy each bundle their own build of HiGHS; loading both into
  one process crashes or misbehaves. A task process therefore imports only its kind's solver
  package (``Backend.modules``): a CP-SAT task never imports highspy, a HiGHS task never imports
  OR-tools, and the formulation loader imports only the task's kind's modules.
* "No solution" per kind (``post_infeasible`` on the model, :mod:`bench.backends.kinds`): MIP
  gets a binary that must reach 2, since CBC and HiGHS report 'unknown' on Pyomo's
  ``Constraint.Infeasible``; CP-SAT an empty ``bool_or``; SAT the empty clause; ASP a
  constraint with an empty body.
* Status names: MIP and CP-SAT say "optimal"/"feasible" (their solvers' words); SAT and ASP
  (an answer set) say "sat".
* Seeds: GLPK and clingo (no randomising option set) search deterministically and take no
  seed; CBC, HiGHS, SCIP and CP-SAT take the task's seed; python-sat solvers get a scrambled
  formula (:mod:`bench.backends.sat`).
* External solvers (kind ``external``, :mod:`bench.backends.external`): the formulation calls
  another package's solver itself; the one backend only runs that call in a session, so any
  package can plug its own solver in (an entry point ``<puzzle>.external.<name>``).
"""

from __future__ import annotations

from bench.backends.asp import Clingo
from bench.backends.base import (
    FOUND,
    Backend,
    Outcome,
    Session,
    SolveOptions,
    Status,
    timed,
)
from bench.backends.cpsat import Cpsat
from bench.backends.external import External
from bench.backends.kinds import ModelKind
from bench.backends.mip import Cbc, Glpk, HighsMip
from bench.backends.sat import Cadical195, Cadical300, Glucose4, Kissat404, Lingeling, Minisat22
from bench.backends.scip import Scip

__all__ = ["BACKENDS", "FOUND", "Backend", "Outcome", "Session", "SolveOptions", "Status",
           "all_backends", "backends_for", "get_backend", "timed"]

#: every solver backend, in the order `puzzlebench list` shows them and defaults are tried
BACKENDS: tuple[Backend, ...] = (
    Cpsat(), Glpk(), Cbc(), HighsMip(), Scip(),
    Cadical195(), Cadical300(), Glucose4(), Kissat404(), Minisat22(), Lingeling(),
    Clingo(), External(),
)


def all_backends() -> list[Backend]:
    return list(BACKENDS)


def get_backend(name: str) -> Backend:
    for b in BACKENDS:
        if b.name == name:
            return b
    known = ", ".join(b.name for b in BACKENDS)
    raise KeyError(f"unknown solver {name!r} (known: {known})")


def backends_for(kind: ModelKind) -> list[Backend]:
    return [b for b in BACKENDS if kind in b.kinds]
