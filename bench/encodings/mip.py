"""MIP (Pyomo) building blocks for grid puzzles: flow connectivity, clue-rooted regions, lazy cuts.

The MIP counterpart of :mod:`bench.encodings.cpsat`, shared by the Nurikabe, Yin-Yang and
Fillomino MIP formulations. Cells are ``(row, col)`` pairs, adjacency is the orthogonal
4-neighbourhood. A *member expression* is a Pyomo variable or affine expression of binaries
that is 0 or 1 in every integer solution (``m.x[i]`` or ``1 - m.white[i]``).

Every builder adds a handful of indexed components to the given ``ConcreteModel`` (named
``{name}_...``), indexed by plain integers (cell and arc numbers): Pyomo builds those far faster
than tuple-indexed components, and the number of components stays constant in the grid size.

* :func:`connected` -- single-commodity flow: the cells whose member expression is 1 form one
  4-connected set (or none). A root indicator per cell (``root <= member``, at most one root);
  the root supplies up to ``N`` units, every member consumes one, flow only enters members
  (``f(u, v) <= (N - 1) * member[v]``), so a non-member carries no flow and every member is
  reached from the root through members. A non-empty set needs a root because supply must
  equal consumption. ``N`` is ``max_size`` (default: the number of candidate cells); with
  ``exact_size`` the set has exactly ``N`` cells and the root supplies exactly ``N`` (no supply
  variables). ``root=cell`` fixes the root at a cell that is a member in every solution (no
  root indicators, no symmetry). Assumes: cells missing from ``member`` are never in the set;
  ``max_size`` bounds (``exact_size``: equals) the set's size in every solution.

* :func:`rooted_regions` -- regions of known size grown from seed cells (Nurikabe islands from
  their clues, Fillomino regions): ownership binaries only over the candidates of each region
  (cell -> lower bound on its distance from the seed inside the region:
  :func:`bench.grid.clue_reach` or :func:`bench.grid.bfs_distances` cut at
  ``size - 1`` steps; both imply Manhattan distance < size), the seed owned, size as a sum, and
  connectivity by a flow from the seed, which supplies ``size - 1`` units; every other owned
  cell consumes one. Arcs into the seed and out of cells at distance ``size - 1`` are left out,
  and arc ``(u, v)`` carries at most ``size - dist[v]`` units (a shortest-path tree of the
  region meets all bounds: the subtree under a cell at depth d has at most ``size - d`` cells).
  Assumes: every cell a region can hold in some solution is a candidate with a distance no
  larger than its true distance from the seed inside the region. Regions do not exclude each
  other here; the caller says how owners combine (Nurikabe: ``white = sum of owners``).

* :func:`separate_connectivity` -- the lazy alternative to :func:`connected`: given solver
  values, find the components of the set and, when there are several, add per component C the
  cut "some boundary cell of C is in the set, or some cell of C is not" to a
  ``ConstraintList``: ``sum_{b in boundary(C)} x_b - sum_{c in C} x_c >= 1 - |C|``. That says
  "C is not an isolated component", which is only valid while C cannot be the whole set; the
  helper takes ``min_size``, a lower bound on the set's size in every solution, and for a
  component with ``|C| >= min_size`` also lets "a cell of another component is not in the set"
  satisfy the cut (``- x_o`` on the left, ``-|C|`` on the right). With ``min_size`` right no
  valid solution is cut off. When the set's size is known exactly (``total``), the helper
  adds the stronger anchor cuts ``sum_{b in boundary(C)} x_b >= x_c`` instead (see there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pyomo.environ as pyo

from bench.grid import Cell, components

Arc = tuple[Cell, Cell]  # (tail, head): flow runs from tail to head
Expr = Any  # a Pyomo variable or affine expression
ConcreteModel = Any  # pyomo.environ.ConcreteModel


def neighbours_in(cell: Cell, cells: Mapping[Cell, Any]) -> list[Cell]:
    """The 4-neighbours of ``cell`` that are keys of ``cells`` (so no grid bounds needed)."""
    r, c = cell
    return [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in cells]


def _lsum(terms: Sequence[Any]) -> Any:
    """A sum Pyomo accepts on either side of a relation (0 for no terms)."""
    return pyo.quicksum(terms) if terms else 0


# --- (a) connectivity of a variable set by a single-commodity flow -------------------------------


@dataclass
class Flow:
    """Handles of a flow built by :func:`connected` or :func:`rooted_regions`."""

    root: dict[Cell, Any] = field(default_factory=dict)  # root indicators (free root only)
    flow: dict[Arc, Any] = field(default_factory=dict)


def connected(m: ConcreteModel, member: Mapping[Cell, Expr], *, max_size: int | None = None,
              exact_size: bool = False, root: Cell | None = None, name: str = "conn") -> Flow:
    """Constrain the cells whose ``member`` expression is 1 to be 4-connected (or empty).

    See the module docstring for the model and its assumptions. ``root`` (optional) must be a
    key of ``member`` that is in the set in every solution.
    """
    cells = list(member)
    n = len(cells) if max_size is None else min(max_size, len(cells))
    flow = Flow()
    if n <= 0:
        m.add_component(f"{name}_empty", pyo.Constraint(
            range(len(cells)), rule=lambda _, i: member[cells[i]] <= 0))
        return flow
    if root is not None and root not in member:
        raise ValueError(f"root {root} is not a candidate cell")
    index = {v: i for i, v in enumerate(cells)}
    # no arc into a fixed root: it never needs flow
    arcs = [(u, v) for v in cells if v != root for u in neighbours_in(v, member)]
    cap = n - 1
    f = pyo.Var(range(len(arcs)), domain=pyo.NonNegativeReals, bounds=(0, cap))
    m.add_component(f"{name}_f", f)
    flow.flow = {a: f[j] for j, a in enumerate(arcs)}
    out_arcs: list[list[int]] = [[] for _ in cells]
    in_arcs: list[list[int]] = [[] for _ in cells]
    for j, (u, v) in enumerate(arcs):
        out_arcs[index[u]].append(j)
        in_arcs[index[v]].append(j)

    # supply[i]: what cell i puts into the network (0 for all but the root)
    if root is not None:
        supply: Callable[[int], Any]
        if exact_size:
            def supply(i: int) -> Any:
                return n if cells[i] == root else 0
        else:
            s = pyo.Var(domain=pyo.NonNegativeReals, bounds=(0, n))
            m.add_component(f"{name}_supply", s)

            def supply(i: int) -> Any:
                return s if cells[i] == root else 0
    else:
        r = pyo.Var(range(len(cells)), domain=pyo.Binary)
        m.add_component(f"{name}_root", r)
        flow.root = {v: r[i] for i, v in enumerate(cells)}
        m.add_component(f"{name}_root_in", pyo.Constraint(
            range(len(cells)), rule=lambda _, i: r[i] <= member[cells[i]]))
        m.add_component(f"{name}_one_root", pyo.Constraint(expr=_lsum(list(r.values())) <= 1))
        if exact_size:
            def supply(i: int) -> Any:
                return n * r[i]
        else:
            s_ = pyo.Var(range(len(cells)), domain=pyo.NonNegativeReals, bounds=(0, n))
            m.add_component(f"{name}_supply", s_)
            m.add_component(f"{name}_supply_root", pyo.Constraint(
                range(len(cells)), rule=lambda _, i: s_[i] <= n * r[i]))

            def supply(i: int) -> Any:
                return s_[i]

    def balance(_: Any, i: int) -> Any:
        return (_lsum([f[j] for j in out_arcs[i]]) - _lsum([f[j] for j in in_arcs[i]])
                == supply(i) - member[cells[i]])

    m.add_component(f"{name}_balance", pyo.Constraint(range(len(cells)), rule=balance))
    m.add_component(f"{name}_cap", pyo.Constraint(
        range(len(arcs)), rule=lambda _, j: f[j] <= cap * member[arcs[j][1]]))
    return flow


# --- (b) regions grown from seed cells ---------------------------------------------------------


@dataclass
class Region:
    """A region of ``size`` cells grown from ``seed``; ``own[v]``: v belongs to the region."""

    seed: Cell
    size: int
    own: dict[Cell, Any]
    flow: Flow


def rooted_regions(m: ConcreteModel, specs: Sequence[tuple[Cell, int, Mapping[Cell, int]]], *,
                   name: str = "reg") -> list[Region]:
    """One region per ``(seed, size, candidates)`` (candidates: cell -> lower bound on its
    distance from the seed inside the region, the seed among them at 0): ownership binaries,
    the seed owned, exactly ``size`` cells owned, and a flow from the seed spanning the owned
    cells (see the module docstring). All regions share one set of indexed components."""
    own_keys: list[tuple[int, Cell]] = []
    arcs: list[tuple[int, Cell, Cell]] = []  # (region, tail, head)
    for k, (seed, size, cand) in enumerate(specs):
        if seed not in cand:
            raise ValueError(f"region {k}: seed {seed} is not a candidate")
        for v in cand:
            own_keys.append((k, v))
            if v == seed:
                continue
            for u in neighbours_in(v, cand):
                if cand[u] + 1 <= size - 1:  # else u is too far out to pass flow on
                    arcs.append((k, u, v))
    own = pyo.Var(range(len(own_keys)), domain=pyo.Binary)
    m.add_component(f"{name}_own", own)
    oid = {key: i for i, key in enumerate(own_keys)}
    for k, (seed, _, _) in enumerate(specs):
        own[oid[k, seed]].setlb(1)
    f = pyo.Var(range(len(arcs)), domain=pyo.NonNegativeReals)
    m.add_component(f"{name}_f", f)
    out_arcs: list[list[int]] = [[] for _ in own_keys]
    in_arcs: list[list[int]] = [[] for _ in own_keys]
    caps: list[int] = []
    for j, (k, u, v) in enumerate(arcs):
        size, cand = specs[k][1], specs[k][2]
        caps.append(size - cand[v])
        f[j].setub(caps[-1])
        out_arcs[oid[k, u]].append(j)
        in_arcs[oid[k, v]].append(j)

    def balance(_: Any, i: int) -> Any:
        k, v = own_keys[i]
        seed, size, _ = specs[k]
        if v == seed:
            if not out_arcs[i]:  # a region of one cell needs no flow
                return pyo.Constraint.Skip if size == 1 else pyo.Constraint.Infeasible
            return _lsum([f[j] for j in out_arcs[i]]) == size - 1
        return _lsum([f[j] for j in out_arcs[i]]) - _lsum([f[j] for j in in_arcs[i]]) == -own[i]

    m.add_component(f"{name}_balance", pyo.Constraint(range(len(own_keys)), rule=balance))
    m.add_component(f"{name}_cap", pyo.Constraint(
        range(len(arcs)), rule=lambda _, j: f[j] <= caps[j] * own[oid[arcs[j][0], arcs[j][2]]]))
    by_region: list[list[int]] = [[] for _ in specs]
    for i, (k, _) in enumerate(own_keys):
        by_region[k].append(i)
    m.add_component(f"{name}_size", pyo.Constraint(
        range(len(specs)), rule=lambda _, k: _lsum([own[i] for i in by_region[k]])
        == specs[k][1]))
    regions = []
    for k, (seed, size, _) in enumerate(specs):
        regions.append(Region(
            seed, size, {own_keys[i][1]: own[i] for i in by_region[k]},
            Flow(flow={(u, v): f[j] for j, (kk, u, v) in enumerate(arcs) if kk == k})))
    return regions


# --- (c) lazy connectivity cuts ----------------------------------------------------------------


def separate_connectivity(cuts: Any, member: Mapping[Cell, Expr],
                          in_set: Callable[[Cell], bool], rows: int, cols: int, *,
                          min_size: int, total: int | None = None,
                          anchors: Literal["one", "all"] = "all") -> int:
    """Add cuts to the ``ConstraintList`` ``cuts`` when the current set is disconnected; return
    how many (0: the set is connected or empty).

    ``member`` maps every cell that can be in the set to its expression (other cells never
    are); ``in_set`` says whether a cell is in the set in the current solution; ``min_size`` is
    a lower bound on the set's size in every solution (see the module docstring).

    Default: one component cut per component C (module docstring). With ``total`` (the set has
    exactly ``total`` cells in every solution, e.g. Nurikabe's wall) each component with
    ``|C| < total`` instead gets the anchor cut ``sum_{b in boundary(C)} x_b >= x_c`` for one
    cell c of C (``anchors="one"``) or for each (``"all"``): if c is in the set and the whole
    boundary is not, c's component lies inside C and is too small to be the whole set. Each is
    violated now and, with its right-hand side one variable instead of all of C, far stronger
    in the LP relaxation than the component cut.
    """
    chosen = [v for v in member if in_set(v)]
    comps = components(chosen, rows, cols)
    if len(comps) < 2:
        return 0
    added = 0
    for i, comp in enumerate(comps):
        inside = set(comp)
        bound = _lsum([member[b] for b in sorted(
            {n for v in comp for n in neighbours_in(v, member) if n not in inside})])
        if total is not None and len(comp) < total:
            for c in comp if anchors == "all" else comp[:1]:
                cuts.add(bound - member[c] >= 0)
                added += 1
            continue
        lhs = bound - _lsum([member[v] for v in comp])
        rhs = 1 - len(comp)
        if len(comp) >= min_size:
            other = comps[(i + 1) % len(comps)][0]
            lhs = lhs - member[other]
            rhs -= 1
        cuts.add(lhs >= rhs)
        added += 1
    return added
