"""Shikaku in CPMpy: the rectangle cover (:mod:`formulations.shikaku._cover`), one Boolean
per candidate rectangle, every cell covered by exactly one chosen candidate."""

from __future__ import annotations

from bench.instance import Instance
from bench.models import CpmpyModel
from bench.puzzles import SolutionGrid
from bench.registry import formulation
from formulations._cpmpy import NeedsCpmpy
from formulations.shikaku._cover import CoverFormulation, cover


@formulation
class CpmpyCover(NeedsCpmpy, CoverFormulation[CpmpyModel]):
    name = "cpmpy-cover"
    description = ("CPMpy: exact cover by candidate rectangles, one Boolean each, a sum of 1 "
                   "per cell")

    def build(self, inst: Instance) -> CpmpyModel:
        import cpmpy as cp

        m = CpmpyModel.new()
        cov = cover(inst)
        x = [cp.boolvar(name=f"rect{i}") for i in range(len(cov.rects))]
        for lits in cov.per_cell:
            m.model += cp.sum([x[i] for i in lits]) == 1
        m.handles.update(cover=cov, x=x)
        return m

    def block(self, inst: Instance, model: CpmpyModel, grid: SolutionGrid) -> bool:
        import cpmpy as cp

        x = model.handles["x"]
        model.model += cp.any([~x[i] for i in model.handles["cover"].used(grid)])
        return True
