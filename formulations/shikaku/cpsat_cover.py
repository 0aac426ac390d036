"""Shikaku in CP-SAT: the rectangle cover (:mod:`formulations.shikaku._cover`), one Boolean per
candidate, exactly-one per cell."""

from __future__ import annotations

from bench.encodings.cpsat import exactly
from bench.instance import Instance
from bench.models import CpsatModel
from bench.puzzles import SolutionGrid
from bench.registry import formulation
from formulations.shikaku._cover import CoverFormulation, cover


@formulation
class CpsatCover(CoverFormulation[CpsatModel]):
    name = "cpsat-cover"
    description = "exact cover by candidate rectangles: one Boolean each, exactly-one per cell"

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        cov = cover(inst)
        x = [m.model.new_bool_var(f"r{i}") for i in range(len(cov.rects))]
        for lits in cov.per_cell:
            exactly(m.model, [x[i] for i in lits], 1)
        m.handles.update(cover=cov, x=x)
        return m

    def block(self, inst: Instance, model: CpsatModel, grid: SolutionGrid) -> bool:
        x = model.handles["x"]
        model.model.add_bool_or([x[i].Not() for i in model.handles["cover"].used(grid)])
        return True
