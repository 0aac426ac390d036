"""Shikaku as MIP: the rectangle cover (:mod:`formulations.shikaku._cover`)."""

from __future__ import annotations

from bench.instance import Instance
from bench.models import MipModel, lazy_module
from bench.puzzles import SolutionGrid
from bench.registry import formulation
from formulations.shikaku._cover import CoverFormulation, cover

pyo = lazy_module("pyomo.environ")


@formulation
class MipCover(CoverFormulation[MipModel]):
    """One binary per candidate, ``sum = 1`` per cell: one indexed constraint, faster to build
    in Pyomo than a row per :func:`bench.encodings.mip.exactly` call."""

    name = "mip-cover"
    description = "exact cover by candidate rectangles: one binary each, sum = 1 per cell"

    def build(self, inst: Instance) -> MipModel:
        cov = cover(inst)
        mm = MipModel.new()
        m = mm.model
        m.x = pyo.Var(range(len(cov.rects)), domain=pyo.Binary)
        if not all(cov.per_cell):  # a cell no candidate covers
            mm.post_infeasible()
        rows = [lits for lits in cov.per_cell if lits]
        m.once = pyo.Constraint(range(len(rows)),
                                rule=lambda _, j: sum(m.x[i] for i in rows[j]) == 1)
        mm.handles.update(cover=cov, x=m.x)
        return mm

    def block(self, inst: Instance, model: MipModel, grid: SolutionGrid) -> bool:
        m = model.model
        used = model.handles["cover"].used(grid)
        if not hasattr(m, "nogood"):
            m.nogood = pyo.ConstraintList()
        m.nogood.add(sum(m.x[i] for i in used) <= len(used) - 1)
        return True
