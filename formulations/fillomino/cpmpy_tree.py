"""Fillomino in CPMpy: a number per cell, each region a tree of parent pointers whose root
carries the region's size as a sum of subtree sizes (the model of ``cpsat-tree``).

* ``number[v]`` over the cell's provable domain (:func:`bench.puzzles.fillomino.encoding.layout`),
  stated with ``InDomain``;
* ``same[u, w] <-> number[u] == number[w]`` per edge: equal neighbours are one region, so two
  regions of one number never touch;
* region ids: ``rid[v] <= v`` (cells numbered in reading order), equal along ``same`` edges,
  ``root[v] <-> rid[v] == v``: one root per region, its first cell;
* a non-root cell has one parent among its same-region neighbours; the subtree size
  ``size[v] = 1 + the sizes of its children`` (which rules out cycles) is at most the number,
  and equal to it at the root: every region has exactly its number of cells.
"""

from __future__ import annotations

from typing import Any

from bench.grid import Cell
from bench.instance import Instance
from bench.models import CpmpyModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.fillomino.encoding import layout
from bench.registry import Formulation, formulation
from formulations._cpmpy import NeedsCpmpy


@formulation
class CpmpyTree(NeedsCpmpy, Formulation[CpmpyModel]):
    name = "cpmpy-tree"
    description = ("CPMpy: number per cell (InDomain), same-region edges, each region a "
                   "parent-pointer tree rooted at its first cell, size by subtree sums")

    def build(self, inst: Instance) -> CpmpyModel:
        import cpmpy as cp

        m = CpmpyModel.new()
        lay = layout(inst)
        idx = {v: i for i, v in enumerate(sorted(lay.cells))}
        top = {v: lay.dom[v][-1] for v in lay.cells}
        number = {v: cp.intvar(lay.dom[v][0], top[v], name=f"number_{v[0]}_{v[1]}")
                  for v in lay.cells}
        for v in lay.cells:
            if len(lay.dom[v]) < top[v] - lay.dom[v][0] + 1:
                m.model += cp.InDomain(number[v], list(lay.dom[v]))
        same: dict[tuple[Cell, Cell], Any] = {}
        for u, w in lay.edges:
            if not set(lay.dom[u]) & set(lay.dom[w]):
                continue  # never equal: different regions
            s = cp.boolvar(name=f"same_{idx[u]}_{idx[w]}")
            m.model += s == (number[u] == number[w])
            same[u, w] = same[w, u] = s
        rid = {v: cp.intvar(0, idx[v], name=f"rid_{idx[v]}") for v in lay.cells}
        root = {v: cp.boolvar(name=f"root_{idx[v]}") for v in lay.cells}
        size = {v: cp.intvar(1, top[v], name=f"size_{idx[v]}") for v in lay.cells}
        children: dict[Cell, list[Any]] = {v: [] for v in lay.cells}
        parents: dict[Cell, list[Any]] = {v: [] for v in lay.cells}
        for (u, w), s in same.items():
            if u < w:
                m.model += s.implies(rid[u] == rid[w])
            p = cp.boolvar(name=f"parent_{idx[u]}_{idx[w]}")  # w is u's parent
            m.model += p.implies(s)
            parents[u].append(p)
            children[w].append(p * size[u])
        for v in lay.cells:
            m.model += root[v] == (rid[v] == idx[v])
            m.model += cp.sum([root[v], *parents[v]]) == 1
            m.model += size[v] == 1 + cp.sum(children[v])
            m.model += size[v] <= number[v]
            m.model += root[v].implies(size[v] == number[v])
        m.handles.update(number=number)
        return m

    def decode(self, inst: Instance, model: CpmpyModel, value: Value) -> SolutionGrid:
        number = model.handles["number"]
        return [[round(value(number[r, c])) for c in range(inst.cols)] for r in range(inst.rows)]

    def block(self, inst: Instance, model: CpmpyModel, grid: SolutionGrid) -> bool:
        """--count: some cell holds another number."""
        import cpmpy as cp

        number = model.handles["number"]
        model.model += cp.any([x != grid[r][c] for (r, c), x in number.items()])
        return True
