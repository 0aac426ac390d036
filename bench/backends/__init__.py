"""Solver backends: one small class per solver, declaring the model kinds it accepts.

A backend starts a :class:`Session` on a built model; ``Session.solve`` may be called again
after a lazy formulation added cuts. Incremental backends feed only what is new to the live
solver; the others rebuild. Every solver quirk (option names, status codes, timing fields,
executables) lives here and nowhere else.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from bench.models import Model, ModelKind, Value

Status = Literal["optimal", "feasible", "infeasible", "timeout", "unknown"]


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
        raise NotImplementedError


_BACKENDS: dict[str, Backend] = {}


def backend(cls: type[Backend]) -> type[Backend]:
    """Class decorator: register a solver backend."""
    _BACKENDS[cls.name] = cls()
    return cls


def _load() -> None:
    if not _BACKENDS:
        from bench.backends import cpsat, mip, sat  # noqa: F401  (registration side effect)


def all_backends() -> list[Backend]:
    _load()
    return list(_BACKENDS.values())


def get_backend(name: str) -> Backend:
    _load()
    try:
        return _BACKENDS[name]
    except KeyError:
        raise KeyError(f"unknown solver {name!r} (known: {', '.join(_BACKENDS)})") from None


def backends_for(kind: ModelKind) -> list[Backend]:
    return [b for b in all_backends() if kind in b.kinds]


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    import time

    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0
