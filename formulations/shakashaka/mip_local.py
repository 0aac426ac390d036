"""Shakashaka as MIP in Pyomo: the exact local characterisation of :mod:`._local` over
one binary per open cell and value (white or one of the four triangles, exactly one each);
a quarter's whiteness is the sum of the values that leave it white, each clause of the
characterisation a covering row, a number the count of its neighbours' triangles."""

from __future__ import annotations

from typing import Any

from bench.instance import Instance
from bench.models import MipModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.puzzles.shakashaka.rules import BLACK, TRIANGLES, WHITE, WHITE_QUARTERS
from bench.registry import Formulation, formulation
from formulations.shakashaka._local import clue_neighbours, open_cells, wedge_cnf

pyo = lazy_module("pyomo.environ")

VALUES = (WHITE, *TRIANGLES)


@formulation
class MipLocal(Formulation[MipModel]):
    name = "mip-local"
    description = "cell-value binaries, forbidden vertex wedges as covering rows, number sums"

    def build(self, inst: Instance) -> MipModel:
        mm = MipModel.new()
        m = mm.model
        cells = open_cells(inst)
        m.x = pyo.Var([(r, c, k) for r, c in cells for k in range(len(VALUES))],
                      domain=pyo.Binary)
        m.one = pyo.Constraint(cells, rule=lambda _, r, c: sum(
            m.x[r, c, k] for k in range(len(VALUES))) == 1)

        def true(key: Any) -> Any:  # a variable of the shared CNF as a linear expression
            if key[0] == "w":
                return m.x[key[1], key[2], 0]
            _, r, c, q = key
            return sum(m.x[r, c, k] for k, v in enumerate(VALUES) if q in WHITE_QUARTERS[v])

        m.wedge = pyo.ConstraintList()
        for clause in wedge_cnf(inst):  # the cell patterns hold by construction
            m.wedge.add(sum(true(k) if pos else 1 - true(k) for k, pos in clause) >= 1)
        m.number = pyo.ConstraintList()
        for n, nbrs in clue_neighbours(inst):
            if n > len(nbrs):
                mm.post_infeasible()  # cannot be met
            elif nbrs:
                m.number.add(sum(1 - m.x[r, c, 0] for r, c in nbrs) == n)
        mm.handles["cells"] = cells
        return mm

    def block(self, inst: Instance, model: MipModel, grid: SolutionGrid) -> bool:
        m, cells = model.model, model.handles["cells"]
        if not hasattr(m, "nogood"):
            m.nogood = pyo.ConstraintList()
        m.nogood.add(sum(m.x[r, c, VALUES.index(grid[r][c])] for r, c in cells)
                     <= len(cells) - 1)
        return True

    def decode(self, inst: Instance, model: MipModel, value: Value) -> SolutionGrid:
        m = model.model
        grid = [[BLACK] * inst.cols for _ in range(inst.rows)]
        for r, c in model.handles["cells"]:
            grid[r][c] = VALUES[max(range(len(VALUES)), key=lambda k: value(m.x[r, c, k]))]
        return grid
