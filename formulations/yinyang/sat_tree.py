"""Yin-Yang ``sat-tree``: the local rules of :mod:`formulations.yinyang._sat` and both colours
connected eagerly by :func:`bench.encodings.sat.connected` (``method="distance"``: parent
pointers with order-encoded distances, strictly decreasing towards the root). Each colour is
rooted at its first given stone (a fixed cell: no root literals), or at its first cell in
reading order when it has no stone; distances are bounded by the cells minus the other
colour's stones (an assumption every solution meets). Exact; large (about 4 x cells x bound
ternary clauses per colour)."""

from __future__ import annotations

from typing import Any

from bench.encodings.sat import connected
from bench.instance import Instance
from bench.models import SatModel
from bench.puzzles.yinyang.rules import BLACK, WHITE
from bench.registry import formulation
from formulations.yinyang._rules import max_size, stones
from formulations.yinyang._sat import YinYangSat


@formulation
class SatTree(YinYangSat):
    name = "sat-tree"
    description = ("black per cell, stones, no 2x2 of one colour, implied rules; both colours "
                   "connected eagerly by parent pointers with order-encoded distances")

    def build(self, inst: Instance) -> SatModel:
        m = self.base(inst)
        have = stones(inst)
        for colour, member in ((BLACK, m.handles["black"]), (WHITE, m.handles["white"])):
            root: Any = have[colour][0] if have[colour] else "first"
            connected(m, member, method="distance", root=root,
                      max_size=max_size(inst, colour))
        return m
