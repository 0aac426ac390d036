"""Nurikabe as pure SAT: one "black" variable per cell, islands through clue ownership.

The rules (:mod:`formulations.nurikabe._islands`) in :mod:`bench.encodings.sat`; what stays
open in the base is connectivity, of the wall and of each island, closed per parameter:

* ``wall=count`` (default): lazily, per piece C of a disconnected wall "if C's first cell is
  black, one of C's white boundary cells is black" -- valid because every solution has exactly
  ``cells - sum(clues)`` black cells, more than C holds (``cut="anchor"``); ``wall=pair``: the
  count-free form "if c in C and d in another piece are both black, ..." (``cut="pair"``);
  ``wall=tree``: eagerly, parent pointers with order-encoded distances rooted at the wall's
  first cell in reading order (``method="distance"``).
* ``islands=lazy`` (default): cuts for a white piece without a clue or with too few cells
  (:func:`bench.encodings.sat.separate_regions`); ``islands=eager``: every white cell joined
  to a clue by distance-bounded parent pointers (:func:`bench.encodings.sat.connect_regions`).

``islands=eager, wall=tree`` is fully eager (no cuts) and keeps its old name and label
``sat-tree``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.sat import (
    assign,
    connect_regions,
    connected,
    region,
    separate_connected,
    separate_regions,
)
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.registry import formulation
from formulations.nurikabe._islands import SatBlackCells, layout
from formulations.nurikabe._sat import colour_cells


@formulation
class SatLazy(SatBlackCells):
    name = "sat-lazy"
    lazy = True
    description = ("clue ownership + island sizes eagerly; wall and island connectivity by lazy "
                   "separator cuts (or eagerly by order-encoded distances: wall=tree, "
                   "islands=eager)")
    parameters: ClassVar[dict[str, list[Any]]] = {
        "islands": ["lazy", "eager"],
        "wall": ["count", "pair", "tree"],
    }
    aliases: ClassVar[dict[str, dict[str, Any]]] = {
        "sat-tree": {"islands": "eager", "wall": "tree"},
    }

    def is_lazy(self) -> bool:
        return not (self.params["islands"] == "eager" and self.params["wall"] == "tree")

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        lay = layout(inst)
        black, white, wall = colour_cells(m, lay, unreached=False, neighbour=True)
        islands = [region(m, i.root, i.size, i.reach, name=f"isl{k}")
                   for k, i in enumerate(lay.islands)]
        assign(m, white, islands)
        if self.params["islands"] == "eager":
            connect_regions(m, white, islands)
        connected(m, wall, method="distance" if self.params["wall"] == "tree" else "lazy",
                  root="first", max_size=lay.blacks)
        m.handles.update(black=black, white=white, wall=wall, islands=islands,
                         blacks=lay.blacks)
        return m

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        h = model.handles
        is_black = self.black_cells(model, value).__contains__
        added = 0
        if self.params["wall"] != "tree":
            count = self.params["wall"] == "count"
            added += separate_connected(model, h["wall"], is_black,
                                        cut="anchor" if count else "pair", total=h["blacks"])
        if self.params["islands"] == "lazy":
            added += separate_regions(model, h["white"], lambda v: not is_black(v),
                                      h["islands"])
        return added
