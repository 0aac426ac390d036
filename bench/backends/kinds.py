"""The model kinds a formulation can build, with their solver quirks.

* ``mip``   -> :class:`MipModel` wrapping a Pyomo ``ConcreteModel`` (GLPK, CBC, HiGHS).
* ``cpsat`` -> :class:`CpsatModel` wrapping an OR-tools ``CpModel``.
* ``sat``   -> :class:`SatModel`, a growing clause list over a python-sat ``IDPool``.
* ``asp``   -> :class:`AspModel`: answer set programs (``.lp`` files beside the formulation)
  and the instance as facts, grounded and solved by clingo; rules added after a solve
  (blocking, lazy cuts) are grounded into the live solver.
* ``external`` -> :class:`ExternalModel`: a call into another package's own solver (a peer
  puzzle solver such as puzzlekit, or a user's), which answers with cell values.
* ``cpmpy`` -> :class:`CpmpyModel` wrapping a CPMpy ``Model``: one model that every solver
  CPMpy reaches (OR-tools, Choco, Pumpkin, Exact, Z3, pindakaas, ...) solves; constraints added
  after a solve (blocking, lazy cuts) are fed to the live solver.

Each kind has one typed constructor (``MipModel.new()``, ``CpsatModel.new()``, ``SatModel()``,
``AspModel.new(*lp_files)``, ``ExternalModel.new(run)``, ``CpmpyModel.new()``) and
a ``post_infeasible()`` hook: the one way a formulation states "this instance has no solution",
written so that every backend of the kind reads it alike. This module imports nothing from
``bench`` (it is the bottom of the layering: backends and formulations build on it), and heavy
solver packages only inside the kind that needs them.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

ModelKind = Literal["mip", "cpsat", "sat", "asp", "external", "cpmpy"]
KINDS: tuple[ModelKind, ...] = ("mip", "cpsat", "sat", "asp", "external", "cpmpy")

#: reads the value of a model variable (Pyomo var, CP-SAT var or SAT literal) after a solve
Value = Callable[[Any], float]


@dataclass
class MipModel:
    model: Any  # pyomo.environ.ConcreteModel
    handles: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def new(cls, objective: bool = True) -> MipModel:
        """An empty Pyomo ``ConcreteModel``, wrapped, with a zero objective named ``obj`` (a
        feasibility problem); ``objective=False`` for a formulation that posts its own."""
        import pyomo.environ as pyo

        m = pyo.ConcreteModel()
        if objective:
            m.obj = pyo.Objective(expr=0)
        return cls(m)

    def post_infeasible(self, name: str = "no_solution") -> None:
        """Post a row that no solution satisfies. A constant-false constraint
        (``Constraint.Infeasible``) is not read alike by every solver interface (CBC and HiGHS
        report 'unknown' on it); a binary that must reach 2 is read as infeasible by all three.
        Posting it again is a no-op (the model is infeasible already)."""
        import pyomo.environ as pyo

        if self.model.component(name) is not None:
            return
        self.model.add_component(name, pyo.Var(domain=pyo.Binary))
        self.model.add_component(name + "_row",
                                 pyo.Constraint(expr=getattr(self.model, name) >= 2))

    def size(self) -> dict[str, int]:
        from pyomo.environ import Constraint, Var

        nvars = sum(len(v) for v in self.model.component_objects(Var, active=True))
        ncons = sum(len(c) for c in self.model.component_objects(Constraint, active=True))
        return {"variables": nvars, "constraints": ncons}


@dataclass
class CpsatModel:
    model: Any  # ortools.sat.python.cp_model.CpModel
    handles: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def new(cls) -> CpsatModel:
        """An empty OR-tools ``CpModel``, wrapped."""
        from ortools.sat.python import cp_model

        return cls(cp_model.CpModel())

    def post_infeasible(self) -> None:
        """State that the instance has no solution: CP-SAT reads an always-false constraint."""
        self.model.add_bool_or([])

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
        #: reasoning the CNF leaves to the solver's IPASIR-UP interface (python-sat's
        #: ``Solver.connect_propagator``), None for a plain CNF: an object with
        #: ``connect(solver, sign)``, which connects itself to a freshly built solver (before
        #: its clauses: it may configure the solver) and observes its variables (``sign[v]``
        #: -1: variable v is negated in the solver, a seeded scramble; None: none is), and
        #: ``counters()``, its own effort since the last call (callbacks, seconds in them),
        #: reported with the solver's. Only backends that declare ``propagates`` take one.
        self.propagator: Any = None

    def var(self, key: Hashable) -> int:
        """The variable named ``key`` (created on first use)."""
        return int(self.pool.id(key))

    def fresh(self) -> int:
        """A new anonymous auxiliary variable."""
        return int(self.pool.id(("_aux", self.pool.top + 1)))

    def add(self, clause: Iterable[int]) -> None:
        self.clauses.append(list(clause))

    def extend(self, clauses: Iterable[Iterable[int]]) -> None:
        self.clauses.extend(map(list, clauses))  # copies, in C

    def post_infeasible(self) -> None:
        """State that the instance has no solution: the empty clause."""
        self.clauses.append([])

    @property
    def nvars(self) -> int:
        return int(self.pool.top)

    def size(self) -> dict[str, int]:
        return {"variables": self.nvars, "constraints": len(self.clauses)}


#: literals from which :meth:`SatAssignment.of_model` reads a model in numpy (importing it):
#: below, reading it in plain Python costs less than importing numpy
NUMPY_FROM = 20_000


class SatAssignment:
    """A SAT solver's model as the ``Value`` reader of the ``sat`` kind: ``value(lit)`` is 1.0
    when the literal is true, else 0.0, like every kind's reader. ``bits`` holds every
    variable's truth at once (byte ``v`` is 1 when variable v is true; variables the solver
    never saw read false), for formulations that read thousands of literals per lazy round:
    ``array()`` is the same as a numpy bool vector, indexable by a whole array of variables."""

    __slots__ = ("bits",)

    def __init__(self, bits: bytes) -> None:
        self.bits = bits

    @classmethod
    def of_model(cls, model: Iterable[int]) -> SatAssignment:
        """From a solver's model: the list of its literals, as python-sat's ``get_model``.
        Read in numpy when the model is large or numpy is loaded already, else in plain Python
        (the same bytes): a small solve does not import numpy for it."""
        lits = model if isinstance(model, list) else list(model)
        if len(lits) >= NUMPY_FROM or "numpy" in sys.modules:
            import numpy as np

            arr = np.fromiter(lits, dtype=np.int64, count=len(lits))
            truth = np.zeros(int(np.abs(arr).max(initial=0)) + 1, dtype=np.uint8)
            truth[arr[arr > 0]] = 1
            return cls(truth.tobytes())
        bits = bytearray(max(max(lits, default=0), -min(lits, default=0)) + 1)
        for lit in lits:
            if lit > 0:
                bits[lit] = 1
        return cls(bytes(bits))

    @classmethod
    def of_reader(cls, value: Callable[[int], float], top: int) -> SatAssignment:
        """From any reader of the variables 1 .. ``top``."""
        return cls(bytes([0, *(1 if value(v) > 0.5 else 0 for v in range(1, top + 1))]))

    def __call__(self, lit: int) -> float:
        v = abs(lit)
        on = v < len(self.bits) and self.bits[v] == 1
        return float(on if lit > 0 else not on)

    def array(self, top: int = 0) -> Any:
        """Every variable's truth as a numpy bool vector at least ``top + 1`` long."""
        import numpy as np

        out = np.frombuffer(self.bits, dtype=bool)
        return out if len(out) > top else np.concatenate([out, np.zeros(top + 1 - len(out), bool)])


#: a term of an ASP fact or answer atom: an integer or a constant/string
Term = int | str
_CONSTANT = re.compile(r"^[a-z][A-Za-z0-9_]*$")


def asp_term(x: Term) -> str:
    """``x`` written as a clingo term: integers and lower-case constants as they are, any
    other string quoted."""
    if isinstance(x, bool) or not isinstance(x, int | str):
        raise TypeError(f"not an ASP term: {x!r}")
    if isinstance(x, int) or _CONSTANT.match(x):
        return str(x)
    return '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"'


def asp_atom(name: str, *args: Term) -> str:
    """``name(a1,...,an)`` (just ``name`` without arguments)."""
    return name + ("(" + ",".join(map(asp_term, args)) + ")" if args else "")


@dataclass
class AspModel:
    """An answer set program for clingo: the rule files ``programs`` (``.lp`` files kept beside
    the formulation), the instance as ``facts``, and ``added`` rules (text: a block, a lazy
    cut) that may grow after a solve; the session grounds each new rule into the live solver
    as its own program part. Only the ``#show`` n atoms are read back (:class:`AspAnswer`).

    ``size()`` counts the facts as variables until a session grounded the program, then the
    ground atoms and rules (``ground``, set by the backend)."""

    programs: list[Path] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    handles: dict[str, Any] = field(default_factory=dict)
    #: ground atoms and rules of the last grounding (the session fills it in)
    ground: dict[str, int] = field(default_factory=dict)

    @classmethod
    def new(cls, *programs: Path) -> AspModel:
        """A model of the given rule files (no facts yet)."""
        for p in programs:
            if not Path(p).is_file():
                raise FileNotFoundError(f"ASP program {p} is missing")
        return cls(list(programs))

    def fact(self, name: str, *args: Term) -> None:
        self.facts.append(asp_atom(name, *args) + ".")

    def add(self, rule: str) -> None:
        """Add a rule (clingo syntax, with its final period) after or before a solve."""
        self.added.append(rule)

    def forbid(self, atoms: Iterable[tuple[str, tuple[Term, ...]]]) -> None:
        """The integrity constraint that these atoms are not all true (a block)."""
        self.add(":- " + ", ".join(asp_atom(n, *a) for n, a in atoms) + ".")

    def post_infeasible(self) -> None:
        """State that the instance has no solution: a constraint with an empty body."""
        self.add(":- #true.")

    def size(self) -> dict[str, int]:
        if self.ground:
            return {"variables": self.ground["atoms"], "constraints": self.ground["rules"]}
        return {"variables": len(self.facts), "constraints": len(self.added)}


class AspAnswer:
    """An answer set as the ``Value`` reader of the ``asp`` kind: ``value((name, *args))`` is
    1.0 when that shown atom is in the answer, else 0.0; ``atoms(name)`` lists the argument
    tuples of a predicate's atoms (numbers as int, constants and strings as str)."""

    __slots__ = ("by_name",)

    def __init__(self, atoms: Iterable[tuple[str, tuple[Term, ...]]]) -> None:
        self.by_name: dict[str, set[tuple[Term, ...]]] = {}
        for name, args in atoms:
            self.by_name.setdefault(name, set()).add(tuple(args))

    def __call__(self, key: Any) -> float:
        name, *args = key
        return float(tuple(args) in self.by_name.get(name, ()))

    def atoms(self, name: str) -> list[tuple[Term, ...]]:
        return sorted(self.by_name.get(name, ()), key=repr)


@dataclass
class ExternalAnswer:
    """What an external solver returns: a status word of :data:`bench.backends.Status`
    (``"optimal"``/``"feasible"``/``"sat"`` with ``values``; ``"infeasible"``, ``"timeout"``,
    ``"unknown"`` without), the values ``decode`` reads (``value(key)``, keys chosen by the
    formulation, e.g. ``(row, col)``), the solver's own time and effort counters if it reports
    them."""

    status: str
    values: dict[Hashable, float] | None = None
    solver_s: float | None = None
    stats: dict[str, float] = field(default_factory=dict)


#: an external solve: (time limit in seconds, threads, seed) -> answer
ExternalRun = Callable[[float, int, int], ExternalAnswer]


@dataclass
class ExternalModel:
    """A model that another package builds and solves: ``run`` is called by the ``external``
    backend's session with the time left, the thread count and the seed. Whatever the package
    does inside (parsing, its own model construction, the solve) is timed as ``solve_s``; the
    formulation's ``build`` only translates the instance."""

    run: ExternalRun
    handles: dict[str, Any] = field(default_factory=dict)
    infeasible: bool = False
    variables: int = 0
    constraints: int = 0

    @classmethod
    def new(cls, run: ExternalRun) -> ExternalModel:
        return cls(run)

    def post_infeasible(self) -> None:
        """State that the instance has no solution: the session answers "infeasible" without
        calling ``run``."""
        self.infeasible = True

    def size(self) -> dict[str, int]:
        return {"variables": self.variables, "constraints": self.constraints}


@dataclass
class CpmpyModel:
    """A CPMpy ``Model`` (``model``; add constraints with ``model += ...``) that can grow after
    a solve: a session gives a live solver only the constraints past those it was given.
    ``import cpmpy`` (OR-tools and pandas with it) happens in :meth:`new`, when a task builds,
    never when a formulation module is imported."""

    model: Any  # cpmpy.Model
    handles: dict[str, Any] = field(default_factory=dict)
    #: the size counted so far: top-level constraints of model.constraints[:_counted] and the
    #: names of their variables (counted once per constraint, since lazy loops call size()
    #: after every round)
    _counted: int = 0
    _constraints: int = 0
    _variables: set[str] = field(default_factory=set)

    @classmethod
    def new(cls) -> CpmpyModel:
        """An empty CPMpy model, wrapped."""
        import cpmpy as cp

        return cls(cp.Model())

    def post_infeasible(self) -> None:
        """State that the instance has no solution: CPMpy's constant false, which every CPMpy
        solver interface reads as an unsatisfiable model."""
        import cpmpy as cp

        self.model += cp.BoolVal(False)

    def size(self) -> dict[str, int]:
        """Variables: the distinct decision variables the constraints mention; constraints: the
        top-level constraints (nested lists flattened, a conjunction counted as one)."""
        from cpmpy.transformations.get_variables import get_variables
        from cpmpy.transformations.normalize import toplevel_list

        new = self.model.constraints[self._counted:]
        if new:
            top = toplevel_list(new, merge_and=False)
            self._constraints += len(top)
            self._variables.update(v.name for v in get_variables(top))
            self._counted = len(self.model.constraints)
        return {"variables": len(self._variables), "constraints": self._constraints}


Model = MipModel | CpsatModel | SatModel | AspModel | ExternalModel | CpmpyModel
