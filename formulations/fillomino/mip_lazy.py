"""Fillomino as a lazy MIP: the clauses of ``sat-lazy`` as covering rows over one-hot binaries,
region sizes by cuts after each solve. Nothing grows with the number of cell pairs: one
binary per cell and number of its provable domain, the local rows per cell (and per small
piece), and only the cuts the solutions ask for.

* ``y[j]`` for each (cell, number) of :func:`bench.puzzles.fillomino.encoding.layout`; ``sum = 1``
  per cell;
* each clause of :func:`bench.puzzles.fillomino.encoding.local_clauses` as ``sum(pos) + sum(1 -
  neg) >= 1``; the cuts of :func:`bench.puzzles.fillomino.encoding.cut_clauses` the same way, added
  after each solve (the MIP is solved again from scratch: the backends rebuild).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.grid import Cell
from bench.instance import Instance
from bench.models import MipModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.puzzles.fillomino.encoding import Clause, cut_clauses, layout, local_clauses
from bench.registry import Formulation, formulation

pyo = lazy_module("pyomo.environ")


@formulation
class MipLazy(Formulation[MipModel]):
    name = "mip-lazy"
    lazy = True
    description = ("one-hot binaries over provable domains, local rules as rows; components of "
                   "equal numbers too big or too small cut after each solve")
    parameters: ClassVar[dict[str, list[Any]]] = {"pieces": [2, 0]}

    def build(self, inst: Instance) -> MipModel:
        m = MipModel.new()
        lay = layout(inst)
        keys = [(v, k) for v in lay.cells for k in lay.dom[v]]
        index = {key: j for j, key in enumerate(keys)}
        model = m.model
        model.y = pyo.Var(range(len(keys)), domain=pyo.Binary)
        y = model.y
        per_cell: dict[Cell, list[int]] = {}
        for (v, _), j in index.items():
            per_cell.setdefault(v, []).append(j)
        cells = lay.cells
        model.ONE = pyo.Constraint(range(len(cells)), rule=lambda _, i: pyo.quicksum(
            y[j] for j in per_cell[cells[i]]) == 1)
        local = list(local_clauses(lay, self.params["pieces"]))
        model.LOCAL = pyo.Constraint(range(len(local)),
                                     rule=lambda _, i: row(y, index, local[i]))
        model.cuts = pyo.ConstraintList()
        m.handles.update(y=y, index=index, layout=lay)
        return m

    def separate(self, inst: Instance, model: MipModel, value: Value) -> int:
        h = model.handles
        grid = self.decode(inst, model, value)
        cuts = cut_clauses(h["layout"], lambda v: grid[v[0]][v[1]])
        for c in cuts:
            model.model.cuts.add(row(h["y"], h["index"], c))
        return len(cuts)

    def decode(self, inst: Instance, model: MipModel, value: Value) -> SolutionGrid:
        y, index, lay = model.handles["y"], model.handles["index"], model.handles["layout"]

        def number(v: Cell) -> int:
            return next((k for k in lay.dom[v] if value(y[index[v, k]]) > 0.5), 0)

        return [[number((r, c)) for c in range(inst.cols)] for r in range(inst.rows)]

    def block(self, inst: Instance, model: MipModel, grid: SolutionGrid) -> bool:
        """--count: some cell holds another number."""
        h = model.handles
        model.model.cuts.add(row(h["y"], h["index"], [
            (False, (r, c), grid[r][c]) for r in range(inst.rows) for c in range(inst.cols)]))
        return True


def row(y: Any, index: dict[tuple[Cell, int], int], clause: Clause) -> Any:
    """A clause as a covering row: ``sum(pos) + sum(1 - neg) >= 1``."""
    neg = sum(1 for pos, _, _ in clause if not pos)
    return pyo.quicksum(y[index[v, k]] if pos else -y[index[v, k]]
                        for pos, v, k in clause) >= 1 - neg
