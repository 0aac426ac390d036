"""Fillomino as pure SAT: one-hot numbers over provable domains, local rules eagerly, region
sizes by cuts after each model (solver kept warm).

* ``y[v, k]``: cell v holds k, for k in v's provable domain (:func:`formulations.fillomino.
  _fill.layout`); exactly one per cell.
* Local rules, eagerly: a 1 has no neighbouring 1; a k >= 2 has a neighbouring k; a 2 has at
  most one neighbouring 2 (a pair closes the region).
* Lazily (:func:`formulations.fillomino._fill.defects` on each model): a component C of k-cells
  with more than k cells gets "not all of S are k" for k + 1 connected cells S of C (two
  touching regions of one number are such a component); one with fewer than k cells gets "not
  all of C are k, or a boundary cell of C is k". Both hold in every solution, and a model with
  no defect is a solution.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.sat import exactly
from bench.grid import Cell, neighbours
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.puzzles import SolutionGrid
from bench.registry import Formulation, formulation
from formulations.fillomino._fill import connected_subset, defects, layout, small_pieces


@formulation
class SatLazy(Formulation[SatModel]):
    puzzle = "fillomino"
    name = "sat-lazy"
    kind = "sat"
    lazy = True
    description = ("one-hot numbers over provable domains, local rules eagerly; components of "
                   "equal numbers too big or too small cut after each model")
    parameters: ClassVar[dict[str, list[Any]]] = {"pieces": [3, 0, 2, 4]}

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        lay = layout(inst)
        y = {(v, k): m.var(("y", v, k)) for v in lay.cells for k in lay.dom[v]}
        for v in lay.cells:
            exactly(m, [y[v, k] for k in lay.dom[v]], 1)
            nbrs = neighbours(v, lay.rows, lay.cols)
            for k in lay.dom[v]:
                same = [y[w, k] for w in nbrs if (w, k) in y]
                if k == 1:
                    m.extend([-y[v, 1], -s] for s in same)
                else:
                    m.add([-y[v, k], *same])
                if k == 2:
                    m.extend([-y[v, 2], -a, -b] for i, a in enumerate(same) for b in same[i + 1:])
        for piece in small_pieces(lay.rows, lay.cols, self.params["pieces"]):
            ks = set.intersection(*(set(lay.dom[v]) for v in piece))
            border = {w for v in piece for w in neighbours(v, lay.rows, lay.cols)} - set(piece)
            for k in ks:
                if k > len(piece):
                    m.add([*(-y[v, k] for v in piece), *(y[b, k] for b in border if (b, k) in y)])
        m.handles.update(y=y, dom=lay.dom)
        return m

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        y = model.handles["y"]
        grid = self.decode(inst, model, value)
        cuts = 0
        dom = model.handles["dom"]
        for d in defects(inst.rows, inst.cols, lambda v: grid[v[0]][v[1]]):
            piece = (connected_subset(d.cells, d.k + 1, inst.rows, inst.cols) if d.too_big
                     else d.cells)
            ks = set.intersection(*(set(dom[v]) for v in piece))
            for k in sorted(ks):
                if d.too_big and k < len(piece):  # no k-region holds |piece| > k cells
                    model.add([-y[v, k] for v in piece])
                elif not d.too_big and k > len(piece):  # a k-region holding it goes on
                    model.add([*(-y[v, k] for v in piece),
                               *(y[b, k] for b in d.boundary if (b, k) in y)])
                else:
                    continue
                cuts += 1
        return cuts

    def decode(self, inst: Instance, model: SatModel, value: Value) -> SolutionGrid:
        y, dom = model.handles["y"], model.handles["dom"]

        def number(v: Cell) -> int:
            return next((k for k in dom[v] if value(y[v, k]) > 0.5), 0)

        return [[number((r, c)) for c in range(inst.cols)] for r in range(inst.rows)]

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        """--count: some cell holds another number."""
        y = model.handles["y"]
        model.add([-y[(r, c), grid[r][c]] for r in range(inst.rows) for c in range(inst.cols)])
        return True
