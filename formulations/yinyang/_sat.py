"""The SAT base of ``sat-lazy`` and ``sat-tree``: one "black" variable per cell, the local
rules and implied rules of :mod:`formulations.yinyang._rules`; connectivity is the subclass's."""

from __future__ import annotations

from bench.encodings.cells import Cut
from bench.encodings.sat import add_cuts, at_most
from bench.instance import Instance
from bench.models import SatModel
from formulations.yinyang._rules import BlackCells, local_cuts, neighbour_cuts, ring_pairs


class YinYangSat(BlackCells[SatModel]):
    puzzle = "yinyang"
    kind = "sat"

    def base(self, inst: Instance) -> SatModel:
        """The model with the cell variables (``handles["black"]``, ``["white"]``: literals),
        stones, the 2x2 rule, the neighbour rule and the implied rules."""
        m = SatModel()
        black = {(r, c): m.var(("black", (r, c))) for r in range(inst.rows)
                 for c in range(inst.cols)}
        white = {v: -x for v, x in black.items()}
        implied = self.params["implied"]
        add_cuts(m, black, local_cuts(inst, implied) + neighbour_cuts(inst))
        changes = []
        for u, v in ring_pairs(inst, implied):
            t = m.fresh()  # colour change between u and v
            m.extend([[black[u], -black[v], t], [-black[u], black[v], t]])
            changes.append(t)
        if changes:
            at_most(m, changes, 2)
        m.handles.update(black=black, white=white)
        return m

    def post(self, model: SatModel, cuts: list[Cut]) -> int:
        return add_cuts(model, model.handles["black"], cuts)
