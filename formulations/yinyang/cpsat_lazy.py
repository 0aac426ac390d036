"""Yin-Yang ``cpsat-lazy``: one Boolean per cell (true: black), the stones, no 2x2 block of
one colour, the neighbour rule and the implied rules of :mod:`formulations.yinyang._rules` in
CP-SAT; both colours' connectivity by the strong cuts of
:func:`bench.encodings.cells.fixed_anchor_cuts` (one ``bool_or`` per cell of each component
but the main one, over the component's whole boundary) after each solve. CP-SAT is not
incremental: the harness solves the grown model again."""

from __future__ import annotations

from bench.encodings.cells import Cut
from bench.encodings.cpsat import add_cuts
from bench.instance import Instance
from bench.models import CpsatModel, Value
from bench.registry import formulation
from formulations.yinyang._rules import (
    BlackCells,
    local_cuts,
    neighbour_cuts,
    ring_pairs,
    stray_cuts,
)


@formulation
class CpsatLazy(BlackCells[CpsatModel]):
    name = "cpsat-lazy"
    lazy = True
    description = ("black per cell, stones, no 2x2 of one colour, implied rules; both colours "
                   "connected by per-cell cuts over a whole component's boundary")

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        cp = m.model
        black = {(r, c): cp.new_bool_var(f"b{r}_{c}") for r in range(inst.rows)
                 for c in range(inst.cols)}
        white = {v: x.Not() for v, x in black.items()}
        implied = self.params["implied"]
        add_cuts(cp, black, local_cuts(inst, implied) + neighbour_cuts(inst))
        changes = []
        for i, (u, v) in enumerate(ring_pairs(inst, implied)):
            t = cp.new_bool_var(f"change{i}")
            cp.add_bool_or([black[u], white[v], t])
            cp.add_bool_or([white[u], black[v], t])
            changes.append(t)
        if changes:
            cp.add(sum(changes) <= 2)
        m.handles.update(black=black, white=white)
        return m

    def separate(self, inst: Instance, model: CpsatModel, value: Value) -> int:
        black = model.handles["black"]
        is_black = {v: value(x) > 0.5 for v, x in black.items()}
        return sum(add_cuts(model.model, member, cuts) for member, cuts in
                   stray_cuts(inst, black, model.handles["white"], is_black))

    def post(self, model: CpsatModel, cuts: list[Cut]) -> int:
        return add_cuts(model.model, model.handles["black"], cuts)
