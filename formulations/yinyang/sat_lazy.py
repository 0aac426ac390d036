"""Yin-Yang ``sat-lazy``: the local rules eagerly (:mod:`formulations.yinyang._sat`), both
colours' connectivity by strong cuts after each model, the solver kept warm (python-sat is
incremental; the ``iterations`` column counts the solver calls).

A naive loop (one clause per component, "not all of C, or a boundary cell") collapses on
Yin-Yang: a cut is satisfied by flipping one cell of C or of its boundary, and the next model
has the same disconnection a cell away. The cuts here
(:func:`bench.encodings.cells.fixed_anchor_cuts`) are per *cell* of every component but the
main one, each over the component's whole boundary: "if this cell is black, a black path leaves
C", anchored on the given stones (always of their colour), so no flip inside C satisfies them;
both colours are cut in the same round.
"""

from __future__ import annotations

from bench.encodings.sat import add_cuts
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.registry import formulation
from formulations.yinyang._rules import stray_cuts
from formulations.yinyang._sat import YinYangSat


@formulation
class SatLazy(YinYangSat):
    name = "sat-lazy"
    lazy = True
    description = ("black per cell, stones, no 2x2 of one colour, implied rules; both colours "
                   "connected by per-cell cuts over a whole component's boundary, solver warm")

    def build(self, inst: Instance) -> SatModel:
        return self.base(inst)

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        black = model.handles["black"]
        is_black = {v: value(x) > 0.5 for v, x in black.items()}
        return sum(add_cuts(model, member, cuts) for member, cuts in
                   stray_cuts(inst, black, model.handles["white"], is_black))
