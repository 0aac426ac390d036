"""What every solver backend is: a :class:`Backend` starting :class:`Session` s that return
:class:`Outcome` s, and declaring what it can do: the model kinds it accepts, how it takes a
seed (:class:`Seeding`), the effort counters it reports (:mod:`bench.effort`), its preference
in ``puzzlebench check``, its version and whether it is available here (else why not). The
harness's tables of solver facts are derived from these declarations
(:mod:`bench.backends`); the backends are found through the ``puzzlebench.backends`` entry
points."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from bench.backends.kinds import Model, ModelKind, Value
from bench.effort import Counter

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
    #: conflicts/decisions/propagations, CP-SAT deterministic time/branches/conflicts, HiGHS's,
    #: CBC's and SCIP's simplex iterations/nodes); empty otherwise
    stats: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Seeding:
    """How a backend uses a task's seed: ``"option"`` (the solver's own random seed setting,
    named in ``how``), ``"scramble"`` (the harness hands the solver a seeded scramble of the
    model) or ``"none"`` (the search is deterministic, or the seed reaches code that may ignore
    it: repeats of a task run with one seed and measure timing noise only)."""

    use: Literal["option", "scramble", "none"]
    how: str = ""

    @property
    def takes(self) -> bool:
        """Whether another seed gives another search."""
        return self.use != "none"


#: the declaration of a backend whose search takes no seed
UNSEEDED = Seeding("none")


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
    """One solver under one name. The declarations are class attributes, so that a backend is
    one small class; a backend family (one class serving several solver names) sets them per
    instance instead and is registered by a function returning its instances."""

    name: str  # the solver name runs, results and `--solver` use
    kinds: tuple[ModelKind, ...]  # the model kinds it accepts
    incremental: bool = False  # keeps the live solver across a lazy loop's calls
    description: str = ""
    package: str = ""  # PyPI distribution that ships the solver
    modules: tuple[str, ...] = ()  # what a task process imports before timing
    model_type: ClassVar[type]  # the model class its kind builds
    session: ClassVar[type[Session]]
    #: how a task's seed reaches the search
    seeding: Seeding = UNSEEDED
    #: the effort counters it reports in ``Outcome.stats`` (:mod:`bench.effort`)
    effort: tuple[Counter, ...] = ()
    #: its preference in `puzzlebench check` among the available backends of its kinds, lowest
    #: first; None: tried after every ranked one, in listing order
    check_rank: int | None = None

    def available(self) -> str | None:
        """None when usable here, else the reason it is not (a skip reason, shown by
        `puzzlebench list` and logged by a run that skips it)."""
        return None

    def version(self) -> str:
        import importlib.metadata  # on first use: one distribution's metadata

        try:
            return importlib.metadata.version(self.package)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    def version_of(self, peer: str | None) -> str:
        """The version a task of a formulation calling the peer distribution ``peer`` (None:
        one of ours; :attr:`bench.registry.Formulation.peer`) records: the solver's."""
        return self.version()

    def preload(self) -> None:
        """Import the solver's modules, so that import time is not counted as build or solve."""
        for module in self.modules:
            importlib.import_module(module)

    def start(self, model: Model, options: SolveOptions) -> Session:
        if not isinstance(model, self.model_type):
            raise TypeError(f"{self.name} solves {self.model_type.__name__}, "
                            f"not {type(model).__name__}")
        return self.session(self, model, options)


def whole_seconds(seconds: float) -> int:
    """A time limit for a solver that takes whole seconds only (glpsol's ``--tmlim``): the
    time left rounded up, at least 1, so that the solver loses none of it. Rounded up, the
    solver may run past the deadline: its caller stops it there (an answer past the limit is
    a timeout, :func:`bench.judge.over_time_limit`)."""
    return max(1, math.ceil(seconds))


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    import time

    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0
