"""Nurikabe MIP ``mip-lazy``: the islands of :mod:`formulations.nurikabe._mip_islands` without
the wall flow; the wall's connectivity by cuts after each solve
(:func:`bench.encodings.mip.separate_connected`). The black count is fixed, so a piece C of a
disconnected wall is never the whole wall; per C it adds either (``cut=component``, the
default) the one cut "a white boundary cell of C is black, or not all of C is black", or
(``cut=anchor``) for every cell c of C "c is white or a white boundary cell of C is black"
(c's wall would be at most C, too small). Neither removes a valid solution. The anchor cuts
are tighter in the LP relaxation, the component cut smaller; the component cut is the default
(docs/results/2026-11-27-from-docstrings.md). The islands are exact in the base model, so only
the wall needs cuts.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.mip import connected, separate_connected
from bench.instance import Instance
from bench.models import MipModel, Value
from bench.registry import formulation
from formulations.nurikabe._mip_islands import NurikabeMip


@formulation
class MipLazy(NurikabeMip):
    name = "mip-lazy"
    description = ("mip-flow's islands without the wall flow; black connectivity by component "
                   "cuts added after each solve")
    lazy = True
    parameters: ClassVar[dict[str, list[Any]]] = {"cut": ["component", "anchor"]}

    def build(self, inst: Instance) -> MipModel:
        mm = self.islands(inst)
        connected(mm.model, mm.handles["black"], method="lazy", name="wall")
        return mm

    def separate(self, inst: Instance, model: MipModel, value: Value) -> int:
        h = model.handles
        return separate_connected(
            model.model, h["black"], lambda v: value(h["white"][v]) < 0.5, cut=self.params["cut"],
            total=h["blacks"], min_size=h["blacks"], anchors="all", name="wall")
