"""The solver effort counters a result can keep: their names, meaning and unit.

Each counter here is a column of the results table (:class:`bench.records.Result`, summed over
a task's solver calls). A backend declares which of them its solver reports
(:attr:`bench.backends.base.Backend.effort`) and returns them in ``Outcome.stats`` under these
names; a result keeps a counter its backend declares. The report reads the meaning from here:
the report reads run folders and imports no backend, so what it needs of a counter -- its short
name in the instance view, and the model kinds whose formulations it ranks in the effort
section -- is stated with the counter. This module imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Counter:
    """One effort counter: ``name`` is its results column and its key in ``Outcome.stats``."""

    name: str
    meaning: str
    unit: str
    #: its short name in the report's instance view ("" when not shown there)
    label: str = ""
    #: the model kinds whose formulations the report ranks by it (per solver), in this
    #: module's order of preference: the first counter a solver's rows carry is used
    ranks: tuple[str, ...] = ()


CONFLICTS = Counter("conflicts", "conflicts the search met and learnt from", "count",
                    "conflicts", ranks=("sat", "cpsat"))
DECISIONS = Counter("decisions", "branching decisions (clasp: choices)", "count", "decisions",
                    ranks=("sat",))
BRANCHES = Counter("branches", "CP-SAT search branches", "count", "branches", ranks=("cpsat",))
SIMPLEX_ITERATIONS = Counter("simplex_iterations", "simplex (LP) iterations over all nodes",
                             "count", "simplex it.", ranks=("mip",))
NODES = Counter("nodes", "search-tree nodes (a MIP solver's branch-and-bound nodes, a CP "
                "solver's search nodes)", "count", "nodes", ranks=("mip",))
PROPAGATIONS = Counter("propagations", "literals assigned by unit propagation", "count")
FAILURES = Counter("failures", "dead ends of a CP solver's search (Choco: fails)", "count")
DETERMINISTIC_TIME = Counter("deterministic_time", "CP-SAT's deterministic time",
                             "deterministic seconds (CP-SAT's work units)")

#: a user propagator's work inside a SAT solver (IPASIR-UP, ``SatModel.propagator``): the
#: solver's callbacks into it, the seconds spent in them, the literals it inferred and the
#: clauses it added (conflicts, and models it rejected)
PROPAGATOR_CALLS = Counter("propagator_calls", "the SAT solver's callbacks into the model's "
                           "propagator (IPASIR-UP)", "count")
PROPAGATOR_S = Counter("propagator_s", "seconds spent in the propagator's callbacks (part of "
                       "the solve time)", "seconds")
PROPAGATOR_INFERENCES = Counter("propagator_inferences", "literals the propagator inferred",
                                "count")
PROPAGATOR_CLAUSES = Counter("propagator_clauses", "clauses the propagator added (conflicts "
                             "and rejected models)", "count")

#: every counter a result can keep, in the report's order
COUNTERS: tuple[Counter, ...] = (CONFLICTS, DECISIONS, BRANCHES, SIMPLEX_ITERATIONS, NODES,
                                 FAILURES, PROPAGATIONS, DETERMINISTIC_TIME, PROPAGATOR_CALLS,
                                 PROPAGATOR_S, PROPAGATOR_INFERENCES, PROPAGATOR_CLAUSES)


def known(name: str) -> bool:
    """Whether ``name`` is a counter a result can keep (a results column)."""
    return any(c.name == name for c in COUNTERS)


def labels() -> dict[str, str]:
    """The counters shown in the report's instance view: column -> short name, in order."""
    return {c.name: c.label for c in COUNTERS if c.label}


def ranking() -> dict[str, tuple[str, ...]]:
    """Per model kind, the counters that rank its formulations, in order of preference."""
    out: dict[str, tuple[str, ...]] = {}
    for c in COUNTERS:
        for kind in c.ranks:
            out[kind] = (*out.get(kind, ()), c.name)
    return out
