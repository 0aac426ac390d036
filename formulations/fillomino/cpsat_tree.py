"""Fillomino in CP-SAT: a number per cell, each region a tree of parent pointers whose root
carries the region's size as a sum of subtree sizes.

* ``x[v]``: the cell's number, over its provable domain (:func:`bench.puzzles.fillomino.encoding.
  layout`: no bound the grid does not prove; regions without a given may be as large as their
  component of empty cells).
* ``s[u, w]`` per edge: the two cells are in one region, ``s <=> x[u] == x[w]`` (so two regions
  of one number never touch).
* Each region a tree (:func:`formulations.fillomino._cptree.region_trees`): one root per
  region (its first cell, by region ids), parent pointers towards it, subtree sizes summed, the
  root's size equal to its number: the region has exactly x cells.
"""

from __future__ import annotations

from typing import Any

from bench.grid import Cell
from bench.instance import Instance
from bench.models import CpsatModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.puzzles.fillomino.encoding import layout
from bench.registry import Formulation, formulation
from formulations.fillomino._cptree import region_trees

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
        region_trees(cp, lay.cells, x, {v: lay.dom[v][-1] for v in lay.cells}, same)
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
