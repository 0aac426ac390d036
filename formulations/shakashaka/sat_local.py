"""Shakashaka as pure SAT: the exact local characterisation of :mod:`._local` (quarter
variables, five cell patterns, every forbidden wedge at every grid point excluded by one
clause) and the number rule through a python-sat cardinality encoding (the parameter)."""

from __future__ import annotations

from typing import Any, ClassVar

from pysat.card import CardEnc, EncType

from bench.instance import Instance
from bench.models import SatModel, Value
from bench.puzzles import SolutionGrid
from bench.registry import Formulation, formulation
from formulations.shakashaka._local import (
    clue_neighbours,
    grid_from_quarters,
    local_dimacs,
    open_cells,
    qkey,
    quarters_of,
    wkey,
)


@formulation
class SatLocal(Formulation[SatModel]):
    name = "sat-local"
    description = "quarter variables, forbidden vertex wedges as clauses, numbers via CardEnc"
    parameters: ClassVar[dict[str, list[Any]]] = {
        "card": ["seqcounter", "totalizer", "sortnetwrk", "cardnetwrk", "mtotalizer",
                 "kmtotalizer"],
    }

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        cells = open_cells(inst)
        quarter = {(r, c, q): m.var(qkey(r, c, q)) for r, c in cells for q in range(4)}
        white = {(r, c): m.var(wkey(r, c)) for r, c in cells}
        m.extend(local_dimacs(inst, quarter, white))
        encoding = getattr(EncType, self.params["card"])
        for n, cells in clue_neighbours(inst):
            tri = [-m.var(wkey(r, c)) for r, c in cells]  # a triangle: not all white
            if n > len(tri):
                m.add([])  # cannot be met: the empty clause
            elif n == 0 or n == len(tri):
                m.extend([[t if n else -t] for t in tri])
            else:
                m.extend(CardEnc.equals(tri, bound=n, vpool=m.pool, encoding=encoding).clauses)
        m.handles["quarters"] = [(r, c, q) for r, c in open_cells(inst) for q in range(4)]
        return m

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        # the quarters determine the cell value and back: exclude this quarter assignment
        white = quarters_of(grid)
        model.add([-model.var(qkey(*s)) if white[s] else model.var(qkey(*s))
                   for s in model.handles["quarters"]])
        return True

    def decode(self, inst: Instance, model: SatModel, value: Value) -> SolutionGrid:
        return grid_from_quarters(inst, {s: value(model.var(qkey(*s))) > 0.5
                                         for s in model.handles["quarters"]})

