"""Shakashaka in CP-SAT: the exact local characterisation of :mod:`._local` as Boolean
clauses over quarter literals, the number rule as a linear sum of triangle literals."""

from __future__ import annotations

from bench.instance import Instance
from bench.models import CpsatModel, Model, Value, new_model
from bench.puzzles import SolutionGrid
from bench.registry import Formulation, formulation
from formulations.shakashaka._cpsat import quarter_literals
from formulations.shakashaka._local import (
    clue_neighbours,
    grid_from_quarters,
    local_cnf,
    open_cells,
    qkey,
    quarters_of,
    wkey,
)


@formulation
class CpsatLocal(Formulation):
    name = "cpsat-local"
    description = "quarter Booleans, forbidden vertex wedges as bool_or, numbers as linear sums"

    def build(self, inst: Instance) -> Model:
        m = new_model("cpsat")
        assert isinstance(m, CpsatModel)
        cp = m.model
        lit = quarter_literals(cp, inst, local_cnf(inst))
        for n, cells in clue_neighbours(inst):
            # triangles among the open neighbours: those not all white
            if n > len(cells):
                cp.add_bool_or([])  # cannot be met
            else:
                cp.add(sum(lit[wkey(r, c)] for r, c in cells) == len(cells) - n)
        m.handles["lit"] = lit
        return m

    def block(self, inst: Instance, model: Model, grid: SolutionGrid) -> bool:
        assert isinstance(model, CpsatModel)
        lit, white = model.handles["lit"], quarters_of(grid)
        model.model.add_bool_or([~lit[qkey(*s)] if white[s] else lit[qkey(*s)]
                                 for r, c in open_cells(inst) for s in
                                 ((r, c, q) for q in range(4))])
        return True

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        lit = model.handles["lit"]
        return grid_from_quarters(inst, {(r, c, q): value(lit[qkey(r, c, q)]) > 0.5
                                         for r, c in open_cells(inst) for q in range(4)})
