"""Yin-Yang in CPMpy: the rules as stated, each colour connected by a spanning tree.

``black[v]`` per cell; the given stones fixed; no 2x2 block of one colour; the black cells
4-connected and the white cells 4-connected, each by a parent/depth tree rooted at the first
cell of its colour in reading order (:func:`formulations._cpmpy.connected`). The implied rules
of :mod:`formulations.yinyang._rules` (no 2x2 checkerboard, at most two colour changes round
the border) are added with ``implied`` (default ``all``)."""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.cells import Cut
from bench.grid import all_cells
from bench.instance import Instance
from bench.models import CpmpyModel
from bench.puzzles.yinyang.rules import BLACK, WHITE
from bench.registry import formulation
from formulations._cpmpy import NeedsCpmpy, connected, cuts
from formulations.yinyang._rules import BlackCells, local_cuts, max_size, ring_pairs


@formulation
class CpmpyTrees(NeedsCpmpy, BlackCells[CpmpyModel]):
    name = "cpmpy-trees"
    description = ("CPMpy: black per cell, givens, no one-colour 2x2, both colours connected by "
                   "spanning trees rooted at their first cells")
    sweep: ClassVar[dict[str, list[Any]] | None] = {}

    def build(self, inst: Instance) -> CpmpyModel:
        import cpmpy as cp

        m = CpmpyModel.new()
        cells = all_cells(inst.rows, inst.cols)
        black = {v: cp.boolvar(name=f"black_{v[0]}_{v[1]}") for v in cells}
        white: dict[Any, Any] = {v: ~black[v] for v in cells}
        m.model += cuts(black, local_cuts(inst, self.params["implied"]))
        pairs = ring_pairs(inst, self.params["implied"])
        if pairs:
            m.model += cp.sum([black[a] != black[b] for a, b in pairs]) <= 2
        m.model += connected(black, max_size=max_size(inst, BLACK), name="black")
        m.model += connected(white, max_size=max_size(inst, WHITE), name="white")
        m.handles.update(black=black)
        return m

    def post(self, model: CpmpyModel, found: list[Cut]) -> int:
        model.model += cuts(model.handles["black"], found)
        return len(found)
