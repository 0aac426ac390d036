"""Shikaku as pure SAT: the rectangle cover (:mod:`formulations.shikaku._cover`), each cell's
exactly-one through python-sat's cardinality encodings; which encoding is a parameter worth
comparing."""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.sat import exactly
from bench.instance import Instance
from bench.models import SatModel
from bench.puzzles import SolutionGrid
from bench.registry import formulation
from formulations.shikaku._cover import CoverFormulation, cover


@formulation
class SatCover(CoverFormulation[SatModel]):
    name = "sat-cover"
    description = "exact cover by candidate rectangles, exactly-one per cell via a CardEnc encoding"
    parameters: ClassVar[dict[str, list[Any]]] = {
        "card": ["seqcounter", "pairwise", "ladder", "bitwise", "totalizer", "cardnetwrk"],
    }

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        cov = cover(inst)
        x = [m.var(("rect", i)) for i in range(len(cov.rects))]
        for lits in cov.per_cell:
            exactly(m, [x[i] for i in lits], 1, encoding=self.params["card"])
        m.handles.update(cover=cov, x=x)
        return m

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        x = model.handles["x"]
        model.add([-x[i] for i in model.handles["cover"].used(grid)])
        return True
