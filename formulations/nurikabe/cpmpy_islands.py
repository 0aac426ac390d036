"""Nurikabe in CPMpy: clue-rooted island trees, the wall connected by a tree or lazy cuts.

The rules (:mod:`formulations.nurikabe._islands`) as CPMpy constraints
(:mod:`formulations._cpmpy`), the same model as ``cpsat-islands``: ``white[v]`` per cell; an
island per clue (ownership over the clue's reach, size by a sum, a tree rooted at the clue);
each white cell owned by one island, adjacent white cells in one island; no 2x2 black;
exactly ``cells - sum(clues)`` black cells. The wall's connectivity is the parameter:

* ``wall=tree``: a parent/depth spanning tree rooted at the first black cell in reading order;
* ``wall=lazy``: after each solve, per black component C of a disconnected wall, "a white
  boundary cell of C is black, or not all of C is black", given to the live solver (CPMpy's
  incremental solving).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.cells import connectivity_cuts
from bench.instance import Instance
from bench.models import CpmpyModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import grid_from_black
from bench.registry import Formulation, formulation
from formulations._cpmpy import NeedsCpmpy, assign, connected, cuts, no_2x2, region
from formulations.nurikabe._islands import black_in, layout


@formulation
class CpmpyIslands(NeedsCpmpy, Formulation[CpmpyModel]):
    name = "cpmpy-islands"
    description = ("CPMpy: clue-owned island trees, no 2x2 black, black count; wall connected "
                   "by a spanning tree rooted at its first cell (tree) or lazy cuts (lazy)")
    parameters: ClassVar[dict[str, list[Any]]] = {"wall": ["tree", "lazy"]}

    def is_lazy(self) -> bool:
        return bool(self.params["wall"] == "lazy")

    def build(self, inst: Instance) -> CpmpyModel:
        import cpmpy as cp

        m = CpmpyModel.new()
        lay = layout(inst)
        white = {v: cp.boolvar(name=f"white_{v[0]}_{v[1]}") for v in lay.cells}
        black = {v: ~white[v] for v in lay.wall}
        islands = []
        for k, isl in enumerate(lay.islands):
            reg, rules = region(isl.root, isl.size, isl.reach, name=f"island{k}")
            islands.append(reg)
            m.model += rules
        m.model += assign(white, islands)
        m.model += no_2x2(black, lay.rows, lay.cols)
        m.model += cp.sum(list(white.values())) == len(lay.cells) - lay.blacks
        if self.params["wall"] == "tree":
            m.model += connected(black, max_size=lay.blacks, name="wall")
        m.handles.update(white=white, black=black, blacks=lay.blacks)
        return m

    def separate(self, inst: Instance, model: CpmpyModel, value: Value) -> int:
        white, black = model.handles["white"], model.handles["black"]
        on = [v for v in black if value(white[v]) < 0.5]
        found = connectivity_cuts(black, on, min_size=model.handles["blacks"])
        model.model += cuts(black, found)
        return len(found)

    def block(self, inst: Instance, model: CpmpyModel, grid: SolutionGrid) -> bool:
        import cpmpy as cp

        white = model.handles["white"]
        model.model += cp.any([white[v] if b else ~white[v] for v, b in black_in(grid)])
        return True

    def decode(self, inst: Instance, model: CpmpyModel, value: Value) -> SolutionGrid:
        white = model.handles["white"]
        return grid_from_black(inst, (v for v in white if value(white[v]) < 0.5))
