"""The ``external`` kind's one backend: its session calls the formulation's own solver.

An external formulation (a peer package such as puzzlekit, a user's solver, or one of ours
that solves in plain Python, such as Nurikabe's ``frontier``) builds an
:class:`~bench.backends.kinds.ExternalModel` whose ``run`` solves the instance (with that
package, or in Python) and returns cell values; the harness does the rest as for any task (own
process, same limits, the answer decoded and checked by our rules and against the ``.sol``).
Which package is needed, whether it is installed, and its one-time set-up (a warm-up solve,
recorded as ``setup_s``) belong to the formulation
(:meth:`bench.registry.Formulation.available`, :meth:`~bench.registry.Formulation.setup`), so
this backend is always available and imports no solver package. Whose solver it is, is the
formulation's declaration too (:attr:`~bench.registry.Formulation.peer`), never its kind: a
task's solver version is that peer's (:meth:`External.version_of`).
"""

from __future__ import annotations

import importlib.metadata
import logging
import time
from typing import Any, cast

from bench.backends.base import FOUND, Backend, Outcome, Seeding, Session, Status
from bench.backends.kinds import ExternalModel
from bench.entrypoints import entry_points

#: the solver version of a task of our own external formulation: it calls no package (its
#: code is in the result's code digest)
OWN = "own code"
STATUSES: tuple[Status, ...] = ("optimal", "feasible", "sat", "infeasible", "timeout", "unknown")


def declared_peers() -> list[str]:
    """The peer distributions (:attr:`bench.registry.Formulation.peer`) of the built-in
    external formulations (their modules imported, no modelling layer; one that fails to
    import is logged) and of the plugins this process loaded."""
    from bench.registry import builtin_puzzles, load_builtin, registered

    for puzzle in builtin_puzzles():
        try:
            load_builtin(puzzle, ("external",))
        except Exception as e:  # a broken formulation fails its own tasks, not the record
            logging.getLogger(__name__).warning("external formulations of %s not read: %s",
                                                puzzle, e)
    return sorted({c.peer for c in registered() if c.peer})


class ExternalSession(Session):
    model: ExternalModel

    def solve(self, time_limit: float) -> Outcome:
        if self.model.infeasible:
            return Outcome("infeasible", None, 0.0, 0.0)
        t0 = time.perf_counter()
        answer = self.model.run(max(time_limit, 0.001), self.options.threads, self.options.seed)
        wall = time.perf_counter() - t0
        if answer.status not in STATUSES:
            raise RuntimeError(f"external solver answered status {answer.status!r}, "
                               f"not one of {STATUSES}")
        status = cast(Status, answer.status)
        values = answer.values
        if status in FOUND and values is None:
            raise RuntimeError(f"external solver answered {status} without values")

        def value(key: Any) -> float:
            assert values is not None
            return float(values[key])

        solver_s = wall if answer.solver_s is None else answer.solver_s
        found = status in FOUND
        return Outcome(status, value if found else None, solver_s, wall, dict(answer.stats))


class External(Backend):
    name = "external"
    kinds = ("external",)
    description = "the formulation's own solver package (puzzlekit, or a plugin's)"
    model_type = ExternalModel
    session = ExternalSession
    #: the seed is passed to the formulation's call, whose package may ignore it: repeats run
    #: with one seed
    seeding = Seeding("none", "passed to the external call, which may ignore it")

    def version_of(self, peer: str | None) -> str:
        """The solver a task runs is its formulation's: the peer distribution's ``name
        version`` (``name not installed``), or :data:`OWN` for a formulation of ours (no
        peer), which no package's version concerns."""
        if not peer:
            return OWN
        try:
            return f"{peer} {importlib.metadata.version(peer)}"
        except importlib.metadata.PackageNotFoundError:
            return f"{peer} not installed"

    def version(self) -> str:
        """The installed peer packages the external formulations declare (the built-in ones,
        and the plugins' this process loaded), and the distributions of external plugins (the
        run's environment record; a task records :meth:`version_of` its formulation's
        peer)."""
        dists = set()
        for name in declared_peers():
            try:
                dists.add(f"{name} {importlib.metadata.version(name)}")
            except importlib.metadata.PackageNotFoundError:
                continue
        for ep in entry_points("puzzlebench.formulations"):
            if ".external." in ep.name and ep.dist is not None:
                dists.add(f"{ep.dist.name} {ep.dist.version}")
        return ", ".join(sorted(dists)) or "none installed"
