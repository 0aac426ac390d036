"""Nurikabe MIP ``mip-flow``: the islands of :mod:`formulations.nurikabe._mip_islands`, the wall
connected by a single-commodity flow carrying the exact wall size
(:func:`bench.encodings.mip.connected`), rooted at a cell no clue reaches when there is one
(it is black in every solution: no root indicators, no root symmetry), else at a free root.
"""

from __future__ import annotations

from bench.encodings.mip import connected
from bench.instance import Instance
from bench.models import MipModel
from bench.registry import formulation
from formulations.nurikabe._mip_islands import NurikabeMip


@formulation
class MipFlow(NurikabeMip):
    name = "mip-flow"
    description = ("clue-owned islands (reach-pruned, size sums, clue-rooted flows), black cells "
                   "connected by a single-commodity flow carrying the wall size, no 2x2 black")

    def build(self, inst: Instance) -> MipModel:
        mm = self.islands(inst)
        h = mm.handles
        connected(mm.model, h["black"], method="flow", max_size=h["blacks"], exact_size=True,
                  root=h["unreached"][0] if h["unreached"] else None, name="wall")
        return mm
