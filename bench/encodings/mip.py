"""MIP (Pyomo) building blocks for grid puzzles, the same API shape as
:mod:`bench.encodings.sat` and :mod:`bench.encodings.cpsat`: model (a ``ConcreteModel``) first,
constraints added to it, the method a parameter. A *member expression* is a Pyomo variable or
affine expression of binaries that is 0 or 1 in every integer solution (``m.x[i]`` or
``1 - m.white[i]``); a cell missing from ``member`` is never on.

Every builder adds a handful of components named ``{name}_...``, indexed by plain integers:
Pyomo builds those far faster than tuple-indexed components, and their number stays constant
in the grid size (one set per call).

* :func:`exactly` / :func:`at_most` -- native rows (``encoding`` None or "native");
* :func:`no_2x2` -- no 2x2 block all on (``sum <= 3``);
* :func:`connected` -- ``method="flow"``: single-commodity flow. The root supplies up to ``N``
  units, every member consumes one, flow only enters members (``f(u, v) <= (N - 1) *
  member[v]``), so every member is reached from the root through members. ``N`` is
  ``max_size`` (default: the candidates); with ``exact_size`` the set has exactly ``N`` cells
  and the root supplies exactly ``N``. ``root=cell``: a cell in the set in every solution (no
  root indicators, no symmetry); ``"free"``/None: a root indicator per cell, at most one.
  ``"first"`` is not offered (ValueError). ``method="lazy"``: an empty cut pool
  ``{name}_cuts`` for :func:`separate_connected`;
* :func:`separate_connected` -- the cuts of :func:`bench.encodings.cells.connectivity_cuts`
  as rows ``sum(pos) + sum(1 - x for neg) >= 1`` in ``{name}_cuts``; returns how many;
* :func:`region` -- one region of known size grown from a root cell: ownership binaries over
  the candidates (cell -> lower bound on its distance from the root inside the region), the
  root owned, size as a sum, and a flow from the root supplying ``size - 1`` units. Arcs into
  the root and out of cells at distance ``size - 1`` are left out, and arc ``(u, v)`` carries
  at most ``size - dist[v]`` (a shortest-path tree meets all bounds: the subtree under a cell
  at depth d has at most ``size - d`` cells). :func:`assign` says how regions combine.

Two sets connected at once (Yin-Yang's colours) are ``connected`` on ``x`` and on ``1 - x``
(two free roots). Regions of unknown size (Fillomino's) are not a builder here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bench.encodings import cells as cellsets
from bench.encodings.cells import Cut, CutShape, Region
from bench.grid import Cell
from bench.models import MipModel, lazy_module

pyo = lazy_module("pyomo.environ")

Arc = tuple[Cell, Cell]  # (tail, head): flow runs from tail to head
Expr = Any  # a Pyomo variable or affine expression
ConcreteModel = Any  # pyomo.environ.ConcreteModel


def _lsum(terms: Sequence[Any]) -> Any:
    """A sum Pyomo accepts on either side of a relation (0 for no terms)."""
    return pyo.quicksum(terms) if terms else 0


def _pool(m: ConcreteModel, name: str) -> Any:
    """The ``ConstraintList`` called ``name``, created on first use."""
    if not hasattr(m, name):
        m.add_component(name, pyo.ConstraintList())
    return getattr(m, name)


# --- cardinality and local rules ------------------------------------------------------------------

def exactly(m: ConcreteModel, lits: Sequence[Expr], bound: int,
            encoding: str | int | None = None) -> None:
    """Exactly ``bound`` of ``lits`` are 1 (a row in the ``card`` pool)."""
    cellsets.native_only("mip", encoding)
    _card_row(m, list(lits), bound, bound)


def at_most(m: ConcreteModel, lits: Sequence[Expr], bound: int,
            encoding: str | int | None = None) -> None:
    """At most ``bound`` of ``lits`` are 1 (a row in the ``card`` pool)."""
    cellsets.native_only("mip", encoding)
    _card_row(m, list(lits), None, bound)


def _card_row(m: ConcreteModel, lits: list[Expr], lo: int | None, hi: int) -> None:
    """``lo <= sum(lits) <= hi`` in the ``card`` pool; a false row when no literal is left
    and the bounds exclude 0 (Pyomo rejects a constant-false relation)."""
    if not lits:
        if hi < 0 or (lo is not None and lo > 0):
            MipModel(m).post_infeasible(
                f"card_false{sum(1 for _ in m.component_objects(pyo.Var))}")
        return
    row = _lsum(lits) == hi if lo == hi else pyo.inequality(lo, _lsum(lits), hi)
    _pool(m, "card").add(row)


def no_2x2(m: ConcreteModel, lits: Mapping[Cell, Expr], rows: int, cols: int,
           name: str = "no_2x2") -> None:
    """No 2x2 block is all on: ``sum <= 3`` per block of cells in ``lits``."""
    blocks = cellsets.blocks_2x2(rows, cols, lits)
    m.add_component(name, pyo.Constraint(
        range(len(blocks)), rule=lambda _, b: sum(lits[v] for v in blocks[b]) <= 3))


def add_cuts(m: ConcreteModel, member: Mapping[Cell, Expr], cuts: Sequence[Cut],
             name: str = "conn_cuts") -> int:
    """Add each cut as ``sum(pos) - sum(neg) >= 1 - |neg|`` to the pool ``name``."""
    pool = _pool(m, name)
    for cut in cuts:
        pool.add(_lsum([member[v] for v in cut.pos]) - _lsum([member[v] for v in cut.neg])
                 >= 1 - len(cut.neg))
    return len(cuts)


# --- connectivity by a single-commodity flow ------------------------------------------------------

@dataclass
class Flow:
    """Handles of a flow built by :func:`connected` or :func:`region`."""

    root: dict[Cell, Any] = field(default_factory=dict)  # root indicators (free root only)
    flow: dict[Arc, Any] = field(default_factory=dict)


def connected(m: ConcreteModel, member: Mapping[Cell, Expr], *, method: str = "flow",
              root: Cell | str | None = None, max_size: int | None = None,
              exact_size: bool = False, name: str = "conn") -> Flow:
    """Constrain the cells whose ``member`` expression is 1 to be 4-connected (or empty); see
    the module docstring."""
    if method == "lazy":
        _pool(m, f"{name}_cuts")
        return Flow()
    if method != "flow":
        raise ValueError(f"mip connected: method must be 'flow' or 'lazy', not {method!r}")
    if root == "free":
        root = None
    if root is not None and (not isinstance(root, tuple) or root not in member):
        raise ValueError(f"root must be a member cell or 'free' (mip), not {root!r}")
    cells = list(member)
    n = len(cells) if max_size is None else min(max_size, len(cells))
    flow = Flow()
    if n <= 0:
        m.add_component(f"{name}_empty", pyo.Constraint(
            range(len(cells)), rule=lambda _, i: member[cells[i]] <= 0))
        return flow
    index = {v: i for i, v in enumerate(cells)}
    # no arc into a fixed root: it never needs flow
    arcs = [(u, v) for v in cells if v != root for u in cellsets.neighbours_in(v, member)]
    cap = n - 1
    f = pyo.Var(range(len(arcs)), domain=pyo.NonNegativeReals, bounds=(0, cap))
    m.add_component(f"{name}_f", f)
    flow.flow = {a: f[j] for j, a in enumerate(arcs)}
    out_arcs: list[list[int]] = [[] for _ in cells]
    in_arcs: list[list[int]] = [[] for _ in cells]
    for j, (u, v) in enumerate(arcs):
        out_arcs[index[u]].append(j)
        in_arcs[index[v]].append(j)
    supply = _supply(m, cells, member, root, n, exact_size, name, flow)

    def balance(_: Any, i: int) -> Any:
        return (_lsum([f[j] for j in out_arcs[i]]) - _lsum([f[j] for j in in_arcs[i]])
                == supply(i) - member[cells[i]])

    m.add_component(f"{name}_balance", pyo.Constraint(range(len(cells)), rule=balance))
    m.add_component(f"{name}_cap", pyo.Constraint(
        range(len(arcs)), rule=lambda _, j: f[j] <= cap * member[arcs[j][1]]))
    return flow


def _supply(m: ConcreteModel, cells: list[Cell], member: Mapping[Cell, Expr], root: Any, n: int,
            exact_size: bool, name: str, flow: Flow) -> Callable[[int], Any]:
    """What cell i puts into the network: ``n`` (or up to ``n``) at the root, 0 elsewhere;
    with a free root, root indicators (``root <= member``, at most one) in ``flow.root``."""
    if root is not None:
        if exact_size:
            return lambda i: n if cells[i] == root else 0
        s = pyo.Var(domain=pyo.NonNegativeReals, bounds=(0, n))
        m.add_component(f"{name}_supply", s)
        return lambda i: s if cells[i] == root else 0
    r = pyo.Var(range(len(cells)), domain=pyo.Binary)
    m.add_component(f"{name}_root", r)
    flow.root = {v: r[i] for i, v in enumerate(cells)}
    m.add_component(f"{name}_root_in", pyo.Constraint(
        range(len(cells)), rule=lambda _, i: r[i] <= member[cells[i]]))
    m.add_component(f"{name}_one_root", pyo.Constraint(expr=_lsum(list(r.values())) <= 1))
    if exact_size:
        return lambda i: n * r[i]
    s_ = pyo.Var(range(len(cells)), domain=pyo.NonNegativeReals, bounds=(0, n))
    m.add_component(f"{name}_supply", s_)
    m.add_component(f"{name}_supply_root", pyo.Constraint(
        range(len(cells)), rule=lambda _, i: s_[i] <= n * r[i]))
    return lambda i: s_[i]


def separate_connected(m: ConcreteModel, member: Mapping[Cell, Expr],
                       is_on: Callable[[Cell], bool], *, cut: CutShape = "component",
                       total: int | None = None, min_size: int | None = None,
                       anchors: Literal["one", "all"] = "one",
                       pairs: Literal["largest", "all"] = "all", name: str = "conn") -> int:
    """Add cuts excluding the current on-set when it is disconnected to ``{name}_cuts``;
    return how many (0: it is connected). Shapes:
    :func:`bench.encodings.cells.connectivity_cuts`."""
    on = [v for v in member if is_on(v)]
    return add_cuts(m, member, cellsets.connectivity_cuts(member, on, cut=cut, total=total,
                                                 min_size=min_size, anchors=anchors,
                                                 pairs=pairs), name=f"{name}_cuts")


# --- regions rooted at clues ----------------------------------------------------------------------

def region(m: ConcreteModel, root: Cell, size: int, candidates: Mapping[Cell, int], *,
           method: str = "flow", encoding: str | int | None = None,
           name: str = "reg") -> Region:
    """One region of ``size`` cells holding ``root``, connected by a flow from the root
    (``method="flow"``, the only one; see the module docstring). ``extra`` is the
    :class:`Flow`."""
    cellsets.native_only("mip", encoding)
    if method != "flow":
        raise ValueError(f"mip region: method must be 'flow', not {method!r}")
    if root not in candidates:
        raise ValueError(f"{name}: root {root} is not a candidate")
    cand = list(candidates)
    oid = {v: i for i, v in enumerate(cand)}
    arcs = [(u, v) for v in cand if v != root for u in cellsets.neighbours_in(v, candidates)
            if candidates[u] + 1 <= size - 1]  # else u is too far out to pass flow on
    own = pyo.Var(range(len(cand)), domain=pyo.Binary)
    m.add_component(f"{name}_own", own)
    own[oid[root]].setlb(1)
    caps = [size - candidates[v] for _, v in arcs]
    f = pyo.Var(range(len(arcs)), domain=pyo.NonNegativeReals,
                bounds=lambda _, j: (0, caps[j]))
    m.add_component(f"{name}_f", f)
    out_arcs: list[list[int]] = [[] for _ in cand]
    in_arcs: list[list[int]] = [[] for _ in cand]
    for j, (u, v) in enumerate(arcs):
        out_arcs[oid[u]].append(j)
        in_arcs[oid[v]].append(j)

    def balance(_: Any, i: int) -> Any:
        if cand[i] == root:
            if not out_arcs[i]:  # a region of one cell needs no flow
                return pyo.Constraint.Skip if size == 1 else pyo.Constraint.Infeasible
            return _lsum([f[j] for j in out_arcs[i]]) == size - 1
        return _lsum([f[j] for j in out_arcs[i]]) - _lsum([f[j] for j in in_arcs[i]]) == -own[i]

    m.add_component(f"{name}_balance", pyo.Constraint(range(len(cand)), rule=balance))
    m.add_component(f"{name}_cap", pyo.Constraint(
        range(len(arcs)), rule=lambda _, j: f[j] <= caps[j] * own[oid[arcs[j][1]]]))
    m.add_component(f"{name}_size", pyo.Constraint(expr=_lsum(list(own.values())) == size))
    flow = Flow(flow={a: f[j] for j, a in enumerate(arcs)})
    return Region(root, size, {v: own[i] for i, v in enumerate(cand)}, candidates, flow)


def assign(m: ConcreteModel, member: Mapping[Cell, Expr], regions: Sequence[Region],
           name: str = "assign") -> None:
    """The on cells are exactly the owned ones, each owned by one region (``member = sum of
    owners``; a cell no region can hold is off: its variable's upper bound is 0 when it is a
    variable), and two adjacent on cells share their region:
    ``own[u] + member[v] - own[v] <= 1``, or ``own[u] + member[v] <= 1`` when v is out of the
    region's candidates."""
    cells = list(member)
    owners: dict[Cell, list[Any]] = {v: [] for v in cells}
    share: list[tuple[Any, Any, Any]] = []
    for reg in regions:
        for v, o in reg.own.items():
            owners[v].append(o)
        for u, o in reg.own.items():
            share += [(o, member[v], reg.own.get(v)) for v in cellsets.neighbours_in(u, member)]
    free = [v for v in cells if not owners[v]]
    for v in free:
        if hasattr(member[v], "setub"):
            member[v].setub(0)
        else:
            _pool(m, f"{name}_off").add(member[v] <= 0)
    owned = [v for v in cells if owners[v]]
    m.add_component(f"{name}_owners", pyo.Constraint(
        range(len(owned)), rule=lambda _, i: member[owned[i]] == pyo.quicksum(owners[owned[i]])))
    m.add_component(f"{name}_share", pyo.Constraint(
        range(len(share)),
        rule=lambda _, j: (share[j][0] + share[j][1] <= 1 if share[j][2] is None
                           else share[j][0] + share[j][1] - share[j][2] <= 1)))


def separate_regions(m: ConcreteModel, member: Mapping[Cell, Expr],
                     is_on: Callable[[Cell], bool], regions: Sequence[Region],
                     name: str = "regions") -> int:
    """Lazy region cuts (:func:`bench.encodings.cells.region_cuts`) in ``{name}_cuts``."""
    on = [v for v in member if is_on(v)]
    return add_cuts(m, member, cellsets.region_cuts(member, on, {r.root: r.size for r in regions}),
                    name=f"{name}_cuts")
