"""The three model kinds a formulation can build, and what a backend hands back.

* ``mip``   -> :class:`MipModel` wrapping a Pyomo ``ConcreteModel`` (GLPK, CBC, HiGHS).
* ``cpsat`` -> :class:`CpsatModel` wrapping an OR-tools ``CpModel``.
* ``sat``   -> :class:`SatModel`, a growing clause list over a python-sat ``IDPool``.

Formulations keep whatever handles they need in ``handles``; ``decode`` reads solver values
through a ``Value`` callable so it reads the same for every backend of a kind. Heavy solver
packages are imported only by the kind that needs them (OR-tools and highspy each bundle their
own HiGHS and cannot be loaded into one process).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

ModelKind = Literal["mip", "cpsat", "sat"]
KINDS: tuple[ModelKind, ...] = ("mip", "cpsat", "sat")

#: reads the value of a model variable (Pyomo var, CP-SAT var or SAT literal) after a solve
Value = Callable[[Any], float]


@dataclass
class MipModel:
    model: Any  # pyomo.environ.ConcreteModel
    handles: dict[str, Any] = field(default_factory=dict)

    def size(self) -> dict[str, int]:
        from pyomo.environ import Constraint, Var

        nvars = sum(len(v) for v in self.model.component_objects(Var, active=True))
        ncons = sum(len(c) for c in self.model.component_objects(Constraint, active=True))
        return {"variables": nvars, "constraints": ncons}


def add_false_row(model: Any, name: str = "no_solution") -> None:
    """Post a row that no solution satisfies on a Pyomo model: a constant-false constraint
    (``Constraint.Infeasible``) is not read alike by every solver interface (CBC and HiGHS
    report 'unknown' on it), a binary that must reach 2 is."""
    import pyomo.environ as pyo

    model.add_component(name, pyo.Var(domain=pyo.Binary))
    model.add_component(name + "_row", pyo.Constraint(expr=getattr(model, name) >= 2))


@dataclass
class CpsatModel:
    model: Any  # ortools.sat.python.cp_model.CpModel
    handles: dict[str, Any] = field(default_factory=dict)

    def size(self) -> dict[str, int]:
        proto = self.model.Proto()
        return {"variables": len(proto.variables), "constraints": len(proto.constraints)}


class SatModel:
    """A CNF that can grow after a solve (lazy cuts); backends feed new clauses incrementally."""

    def __init__(self) -> None:
        from pysat.formula import IDPool

        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.handles: dict[str, Any] = {}

    def var(self, key: Hashable) -> int:
        """The variable named ``key`` (created on first use)."""
        return int(self.pool.id(key))

    def fresh(self) -> int:
        """A new anonymous auxiliary variable."""
        return int(self.pool.id(("_aux", self.pool.top + 1)))

    def add(self, clause: Iterable[int]) -> None:
        self.clauses.append(list(clause))

    def extend(self, clauses: Iterable[Iterable[int]]) -> None:
        self.clauses.extend(list(c) for c in clauses)

    @property
    def nvars(self) -> int:
        return int(self.pool.top)

    def size(self) -> dict[str, int]:
        return {"variables": self.nvars, "constraints": len(self.clauses)}


Model = MipModel | CpsatModel | SatModel


def new_model(kind: ModelKind) -> Model:
    """An empty model of the given kind."""
    if kind == "mip":
        import pyomo.environ as pyo

        return MipModel(pyo.ConcreteModel())
    if kind == "cpsat":
        from ortools.sat.python import cp_model

        return CpsatModel(cp_model.CpModel())
    return SatModel()
