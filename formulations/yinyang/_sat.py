"""The SAT base of ``sat-lazy`` and ``sat-tree``: one "black" variable per cell, the local
rules and implied rules of :mod:`formulations.yinyang._rules`; connectivity is the subclass's."""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.sat import add_cuts, at_most
from bench.instance import Instance
from bench.models import Model, SatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.yinyang.rules import grid_from_black
from bench.registry import Formulation
from formulations.yinyang._rules import IMPLIED, grid_cut, local_cuts, neighbour_cuts, ring_pairs


class YinYangSat(Formulation):
    puzzle = "yinyang"
    kind = "sat"
    parameters: ClassVar[dict[str, list[Any]]] = {"implied": IMPLIED}

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

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        black = model.handles["black"]
        return grid_from_black(inst, [v for v in black if value(black[v]) > 0.5])

    def block(self, inst: Instance, model: Model, grid: SolutionGrid) -> bool:
        assert isinstance(model, SatModel)
        add_cuts(model, model.handles["black"], [grid_cut(grid)])
        return True
