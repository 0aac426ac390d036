"""What every solver backend is: a :class:`Backend` starting :class:`Session` s that return
:class:`Outcome` s. The backends themselves are listed in :mod:`bench.backends`."""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from bench.backends.kinds import Model, ModelKind, Value

#: "optimal" / "feasible": an optimisation solver's (MIP, CP-SAT) own words for a solution;
#: "sat": a SAT solver found a satisfying assignment (there is no objective to be optimal on)
Status = Literal["optimal", "feasible", "sat", "infeasible", "timeout", "unknown"]
#: the statuses that come with a solution (``Outcome.value`` set)
FOUND: tuple[Status, ...] = ("optimal", "feasible", "sat")


@dataclass(frozen=True)
class SolveOptions:
    threads: int = 1
    seed: int = 0


@dataclass
class Outcome:
    status: Status
    value: Value | None  # reads variable values; None unless a solution was found
    solver_s: float  # the solver's own reported time where it reports one, else timed around it
    wall_s: float  # wall time of the backend call (translation, subprocess, reading back)
    #: machine-independent effort counters of this call where the solver reports them (SAT
    #: conflicts/decisions/propagations, CP-SAT deterministic time/branches/conflicts, HiGHS
    #: simplex iterations/nodes); empty otherwise
    stats: dict[str, float] = field(default_factory=dict)


class Session:
    """One model on one solver: ``solve`` may be called again after the model grew (lazy
    formulations). A backend's ``session`` class is built as ``session(backend, model,
    options)``; subclasses set up their solver in ``setup``."""

    def __init__(self, backend: Any, model: Any, options: SolveOptions) -> None:
        self.backend = backend
        self.model = model
        self.options = options
        self.setup()

    def setup(self) -> None:
        """Per-session solver set-up (none by default)."""

    def solve(self, time_limit: float) -> Outcome:
        raise NotImplementedError

    def close(self) -> None:
        """Release the solver (python-sat solvers hold C memory)."""


class Backend:
    name: ClassVar[str]
    kinds: ClassVar[tuple[ModelKind, ...]]
    incremental: ClassVar[bool] = False
    description: ClassVar[str] = ""
    package: ClassVar[str] = ""  # PyPI distribution that ships the solver
    modules: ClassVar[tuple[str, ...]] = ()  # what a task process imports before timing
    model_type: ClassVar[type]  # the model class its kind builds
    session: ClassVar[type[Session]]

    def available(self) -> str | None:
        """None when usable here, else the reason it is not (for `puzzlebench list`)."""
        return None

    def version(self) -> str:
        try:
            return importlib.metadata.version(self.package)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    def preload(self) -> None:
        """Import the solver's modules, so that import time is not counted as build or solve."""
        for module in self.modules:
            importlib.import_module(module)

    def start(self, model: Model, options: SolveOptions) -> Session:
        if not isinstance(model, self.model_type):
            raise TypeError(f"{self.name} solves {self.model_type.__name__}, "
                            f"not {type(model).__name__}")
        return self.session(self, model, options)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    import time

    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0
