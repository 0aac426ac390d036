"""Fillomino in CP-SAT: a number per cell, each region a tree of parent pointers whose root
carries the region's size as a sum of subtree sizes.

* ``x[v]``: the cell's number, over its provable domain (:func:`formulations.fillomino._fill.
  layout`: no bound the grid does not prove; regions without a given may be as large as their
  component of empty cells).
* ``s[u, w]`` per edge: the two cells are in one region, ``s <=> x[u] == x[w]`` (so two regions
  of one number never touch).
* Roots and ids: ``rid[v] <= v`` (cells numbered in reading order) is equal along ``s`` edges,
  and ``root[v] <=> rid[v] == v``: every region has exactly one root, its first cell.
* Parent pointers: a non-root cell points to one neighbour of its region; the subtree size
  ``sz[v] = 1 + sum of the children's sz`` (which also rules out cycles: sizes grow towards the
  root), and ``sz[root] = x[root]``. Every cell of a region reaches its root (the only root of
  its id), so the root's tree is the whole region and the region has exactly x cells.
"""

from __future__ import annotations

from typing import Any

from bench.grid import Cell
from bench.instance import Instance
from bench.models import CpsatModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.registry import Formulation, formulation
from formulations.fillomino._fill import layout

cp_model = lazy_module("ortools.sat.python.cp_model")


@formulation
class CpsatTree(Formulation[CpsatModel]):
    name = "cpsat-tree"
    description = ("number per cell over provable domains; same-region edge literals; each "
                   "region a parent-pointer tree rooted at its first cell, size by subtree sums")

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        cp, lay = m.model, layout(inst)
        idx = {v: i for i, v in enumerate(lay.cells)}
        x = {v: cp.new_int_var_from_domain(cp_model.Domain.from_values(lay.dom[v]),
                                           f"x{v[0]}_{v[1]}") for v in lay.cells}
        same: dict[tuple[Cell, Cell], Any] = {}
        for u, w in lay.edges:
            if not set(lay.dom[u]) & set(lay.dom[w]):
                continue  # never equal: different regions
            s = cp.new_bool_var(f"s{idx[u]}_{idx[w]}")
            cp.add(x[u] == x[w]).only_enforce_if(s)
            cp.add(x[u] != x[w]).only_enforce_if(s.Not())
            same[u, w] = same[w, u] = s
        rid = {v: cp.new_int_var(0, idx[v], f"r{idx[v]}") for v in lay.cells}
        root = {v: cp.new_bool_var(f"o{idx[v]}") for v in lay.cells}
        for v in lay.cells:
            cp.add(rid[v] == idx[v]).only_enforce_if(root[v])
            cp.add(rid[v] < idx[v]).only_enforce_if(root[v].Not())
        for (u, w), s in same.items():
            if u < w:
                cp.add(rid[u] == rid[w]).only_enforce_if(s)
        sz = {v: cp.new_int_var(1, lay.dom[v][-1], f"z{idx[v]}") for v in lay.cells}
        parent: dict[tuple[Cell, Cell], Any] = {}  # (child, parent)
        for (u, w), s in same.items():
            p = cp.new_bool_var(f"p{idx[u]}_{idx[w]}")
            cp.add_implication(p, s)
            parent[u, w] = p
        children: dict[Cell, list[Any]] = {v: [] for v in lay.cells}
        for (u, w), p in parent.items():
            c = cp.new_int_var(0, lay.dom[u][-1], f"c{idx[u]}_{idx[w]}")
            cp.add(c == sz[u]).only_enforce_if(p)
            cp.add(c == 0).only_enforce_if(p.Not())
            children[w].append(c)
        for v in lay.cells:
            cp.add_exactly_one([root[v], *(p for (u, _), p in parent.items() if u == v)])
            cp.add(sz[v] == 1 + sum(children[v]))
            cp.add(sz[v] <= x[v])
            cp.add(sz[v] == x[v]).only_enforce_if(root[v])
        m.handles.update(x=x)
        return m

    def decode(self, inst: Instance, model: CpsatModel, value: Value) -> SolutionGrid:
        x = model.handles["x"]
        return [[round(value(x[r, c])) for c in range(inst.cols)] for r in range(inst.rows)]

    def block(self, inst: Instance, model: CpsatModel, grid: SolutionGrid) -> bool:
        """--count: some cell holds another number."""
        cp, x = model.model, model.handles["x"]
        differs = []
        for (r, c), var in x.items():
            d = cp.new_bool_var("")
            cp.add(var != grid[r][c]).only_enforce_if(d)
            differs.append(d)
        cp.add_bool_or(differs)
        return True
