"""Yin-Yang ``mip-flow``: one binary per cell (1: black), the stones as fixed bounds, no 2x2
block of one colour, the neighbour rule and the implied rules of
:mod:`formulations.yinyang._rules` as rows; each colour connected by its own single-commodity
flow (:func:`bench.encodings.mip.connected` on ``x`` and on ``1 - x``), rooted at the colour's
first given stone (a fixed cell: no root variables), or, for a colour without stones, at a
free root (one indicator per cell, at most one; a non-empty colour needs one to supply its
flow, as ``cpsat-seed[root=model]`` needs its root literal). Flows are bounded by the cells
minus the other colour's stones. Exact."""

from __future__ import annotations

from typing import Any

from bench.encodings.cells import Cut
from bench.encodings.mip import add_cuts, connected
from bench.instance import Instance
from bench.models import MipModel, lazy_module
from bench.puzzles.yinyang.rules import BLACK, WHITE
from bench.registry import formulation
from formulations.yinyang._rules import (
    BlackCells,
    local_cuts,
    max_size,
    neighbour_cuts,
    ring_pairs,
    stones,
)

pyo = lazy_module("pyomo.environ")


@formulation
class MipFlow(BlackCells[MipModel]):
    name = "mip-flow"
    description = ("black binary per cell, stones, no 2x2 of one colour, implied rules; each "
                   "colour connected by a single-commodity flow from its first stone")

    def build(self, inst: Instance) -> MipModel:
        mm = MipModel.new()
        m = mm.model
        cells = [(r, c) for r in range(inst.rows) for c in range(inst.cols)]
        m.black = pyo.Var(range(len(cells)), domain=pyo.Binary)
        black = {v: m.black[i] for i, v in enumerate(cells)}
        white = {v: 1 - x for v, x in black.items()}
        for r, c, stone in inst.clues():
            black[r, c].fix(1 if stone == BLACK else 0)
        implied = self.params["implied"]
        rows = [cut for cut in local_cuts(inst, implied) if len(cut.pos) + len(cut.neg) > 1]
        add_cuts(m, black, rows + neighbour_cuts(inst), name="local")
        pairs = ring_pairs(inst, implied)
        if pairs:
            m.change = pyo.Var(range(len(pairs)), domain=pyo.NonNegativeReals, bounds=(0, 1))
            m.change_up = pyo.Constraint(range(len(pairs)), rule=lambda _, i: (
                m.change[i] >= black[pairs[i][0]] - black[pairs[i][1]]))
            m.change_down = pyo.Constraint(range(len(pairs)), rule=lambda _, i: (
                m.change[i] >= black[pairs[i][1]] - black[pairs[i][0]]))
            m.ring = pyo.Constraint(expr=pyo.quicksum(m.change.values()) <= 2)
        have = stones(inst)
        for colour, member in ((BLACK, black), (WHITE, white)):
            root: Any = have[colour][0] if have[colour] else None
            connected(m, member, method="flow", root=root, max_size=max_size(inst, colour),
                      name=colour)
        mm.handles.update(black=black)
        return mm

    def post(self, model: MipModel, cuts: list[Cut]) -> int:
        return add_cuts(model.model, model.handles["black"], cuts, name="nogood")
