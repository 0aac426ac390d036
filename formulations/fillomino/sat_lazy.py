"""Fillomino as pure SAT: one-hot numbers over provable domains, local rules eagerly, region
sizes by cuts after each model (solver kept warm).

* ``y[v, k]``: cell v holds k, for k in v's provable domain (:func:`formulations.fillomino.
  _fill.layout`); exactly one per cell.
* Local rules, eagerly: a 1 has no neighbouring 1; a k >= 2 has a neighbouring k; a 2 has at
  most one neighbouring 2 (a pair closes the region).
* Lazily (:func:`bench.puzzles.fillomino.encoding.defects` on each model): a component C of k-cells
  with more than k cells gets "not all of S are k" for k + 1 connected cells S of C (two
  touching regions of one number are such a component); one with fewer than k cells gets "not
  all of C are k, or a boundary cell of C is k". Both hold in every solution, and a model with
  no defect is a solution.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.sat import exactly
from bench.grid import Cell
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.fillomino.encoding import Clause, cut_clauses, layout, local_clauses
from bench.registry import Formulation, formulation


@formulation
class SatLazy(Formulation[SatModel]):
    name = "sat-lazy"
    lazy = True
    description = ("one-hot numbers over provable domains, local rules eagerly; components of "
                   "equal numbers too big or too small cut after each model")
    parameters: ClassVar[dict[str, list[Any]]] = {"pieces": [0, 2, 3, 4]}

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        lay = layout(inst)
        y = {(v, k): m.var(("y", v, k)) for v in lay.cells for k in lay.dom[v]}
        for v in lay.cells:
            exactly(m, [y[v, k] for k in lay.dom[v]], 1)
        m.extend(literals(y, c) for c in local_clauses(lay, self.params["pieces"]))
        m.handles.update(y=y, dom=lay.dom, layout=lay)
        return m

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        y, lay = model.handles["y"], model.handles["layout"]
        grid = self.decode(inst, model, value)
        cuts = cut_clauses(lay, lambda v: grid[v[0]][v[1]])
        model.extend(literals(y, c) for c in cuts)
        return len(cuts)

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


def literals(y: dict[tuple[Cell, int], int], clause: Clause) -> list[int]:
    return [y[v, k] if pos else -y[v, k] for pos, v, k in clause]
