"""The Nurikabe MIP base both MIP formulations share (imports Pyomo: only ``mip_*`` modules
may import this module).

The rules (:mod:`formulations.nurikabe._islands`) in :mod:`bench.encodings.mip`: ``white[v]``
per cell; an island per clue (:func:`~bench.encodings.mip.region`: ownership over the clue's
reach, size as a sum, a flow from the clue); ``white = sum of owners``, adjacent white cells
share their owner and a cell no clue reaches is black (:func:`~bench.encodings.mip.assign`);
no 2x2 black; redundantly, a black cell has a black neighbour when the wall has at least two
cells. The black count ``cells - sum(clues)`` follows from the sums. The wall's connectivity
is left to the subclass.
"""

from __future__ import annotations

from bench.encodings.cells import neighbours_in
from bench.encodings.mip import assign, no_2x2, region
from bench.instance import Instance
from bench.models import MipModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import grid_from_black
from bench.registry import Formulation
from formulations.nurikabe._islands import black_in, layout

pyo = lazy_module("pyomo.environ")


class NurikabeMip(Formulation[MipModel]):
    """Islands, no 2x2 black, no lonely black cell; the wall left open."""

    puzzle = "nurikabe"
    kind = "mip"

    def islands(self, inst: Instance) -> MipModel:
        mm = MipModel.new()
        m, lay = mm.model, layout(inst)
        m.white = pyo.Var(range(len(lay.cells)), domain=pyo.Binary)
        white = {v: m.white[i] for i, v in enumerate(lay.cells)}
        black = {v: 1 - white[v] for v in lay.wall}
        islands = [region(m, i.root, i.size, i.reach, name=f"isl{k}")
                   for k, i in enumerate(lay.islands)]
        assign(m, white, islands)
        no_2x2(m, black, lay.rows, lay.cols)
        if lay.blacks >= 2:  # a black cell has a black neighbour
            m.not_alone = pyo.Constraint(range(len(lay.wall)), rule=lambda _, i: pyo.quicksum(
                black[n] for n in neighbours_in(lay.wall[i], black)) >= black[lay.wall[i]])
        mm.handles.update(white=white, black=black, blacks=lay.blacks, unreached=lay.unreached)
        return mm

    def block(self, inst: Instance, model: MipModel, grid: SolutionGrid) -> bool:
        white = model.handles["white"]
        if not hasattr(model.model, "nogood"):
            model.model.nogood = pyo.ConstraintList()
        model.model.nogood.add(sum(white[v] if b else 1 - white[v]
                                   for v, b in black_in(grid)) >= 1)
        return True

    def decode(self, inst: Instance, model: MipModel, value: Value) -> SolutionGrid:
        white = model.handles["white"]
        return grid_from_black(inst, (v for v in white if value(white[v]) < 0.5))
