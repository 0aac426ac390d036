"""Nurikabe in CP-SAT: clue-rooted island trees, the wall connected by a tree or lazy cuts.

The rules (:mod:`formulations.nurikabe._islands`) in :mod:`bench.encodings.cpsat`: ``white[v]``
per cell; an island per clue (:func:`~bench.encodings.cpsat.region`: ownership over the clue's
reach, size by a sum, a tree rooted at the clue); ``white = sum of owners`` and adjacent white
cells share their owner (:func:`~bench.encodings.cpsat.assign`); no 2x2 black; redundantly,
exactly ``cells - sum(clues)`` black cells. The wall's connectivity is the parameter:

* ``wall=tree`` (label ``cpsat-tree``): a parent/depth spanning tree rooted at the first black
  cell in reading order (no root symmetry, which a free root would leave to search);
* ``wall=lazy`` (label ``cpsat-lazy``): after each solve, per black component C of a
  disconnected wall, "a white boundary cell of C is black, or not all of C is black"; the black
  count is fixed, so a piece of a disconnected wall is never the whole wall.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.cpsat import (
    assign,
    connected,
    exactly,
    no_2x2,
    region,
    separate_connected,
)
from bench.instance import Instance
from bench.models import CpsatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import grid_from_black
from bench.registry import Formulation, formulation
from formulations.nurikabe._islands import black_in, layout


@formulation
class CpsatIslands(Formulation[CpsatModel]):
    name = "cpsat-islands"
    description = ("clue-owned islands (reach-pruned, size sums, clue-rooted trees), no 2x2 "
                   "black; wall connected by a spanning tree rooted at its first cell (tree) "
                   "or by component cuts after each solve (lazy)")
    parameters: ClassVar[dict[str, list[Any]]] = {"wall": ["tree", "lazy"]}
    aliases: ClassVar[dict[str, dict[str, Any]]] = {
        "cpsat-tree": {"wall": "tree"},
        "cpsat-lazy": {"wall": "lazy"},
    }

    def is_lazy(self) -> bool:
        return bool(self.params["wall"] == "lazy")

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        cp, lay = m.model, layout(inst)
        white = {v: cp.new_bool_var(f"w{v[0]}_{v[1]}") for v in lay.cells}
        black = {v: white[v].Not() for v in lay.wall}
        islands = [region(cp, i.root, i.size, i.reach, name=f"i{k}")
                   for k, i in enumerate(lay.islands)]
        assign(cp, white, islands)
        no_2x2(cp, black, lay.rows, lay.cols)
        exactly(cp, list(white.values()), len(lay.cells) - lay.blacks)
        connected(cp, black, method=self.params["wall"], root="first", max_size=lay.blacks,
                  name="b")
        m.handles.update(white=white, black=black, blacks=lay.blacks)
        return m

    def separate(self, inst: Instance, model: CpsatModel, value: Value) -> int:
        white = model.handles["white"]
        return separate_connected(model.model, model.handles["black"],
                                  lambda v: value(white[v]) < 0.5,
                                  min_size=model.handles["blacks"])

    def block(self, inst: Instance, model: CpsatModel, grid: SolutionGrid) -> bool:
        white = model.handles["white"]
        model.model.add_bool_or([white[v] if b else white[v].Not() for v, b in black_in(grid)])
        return True

    def decode(self, inst: Instance, model: CpsatModel, value: Value) -> SolutionGrid:
        white = model.handles["white"]
        return grid_from_black(inst, (v for v in white if value(white[v]) < 0.5))
