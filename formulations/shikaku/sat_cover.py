"""Shikaku as pure SAT: choose one candidate rectangle per cell, exactly once.

The candidates are every rectangle holding exactly one clue whose value is its area
(:func:`bench.puzzles.shikaku.rules.candidate_rectangles`). Because every candidate covering a clue
cell belongs to that clue, "each cell covered exactly once" also picks exactly one rectangle
per clue. The exactly-one constraints go through python-sat's cardinality encodings; which
encoding is a parameter worth comparing.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pysat.card import CardEnc, EncType

from bench.instance import Instance
from bench.models import Model, SatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku.rules import (
    candidate_rectangles,
    cells_to_rects,
    chosen,
    grid_from_rects,
)
from bench.registry import Formulation, formulation


@formulation
class SatCover(Formulation):
    puzzle = "shikaku"
    name = "sat-cover"
    kind = "sat"
    description = "exact cover by candidate rectangles, exactly-one per cell via a CardEnc encoding"
    parameters: ClassVar[dict[str, list[Any]]] = {
        "card": ["seqcounter", "pairwise", "ladder", "bitwise", "totalizer", "cardnetwrk"],
    }

    def build(self, inst: Instance) -> Model:
        m = SatModel()
        rects = candidate_rectangles(inst)
        x = [m.var(("rect", i)) for i in range(len(rects))]
        encoding = getattr(EncType, self.params["card"])
        for lits in cells_to_rects(inst, rects).values():
            if len(lits) <= 1:  # forced, or no candidate at all: the empty clause
                m.add([x[i] for i in lits])
                continue
            m.extend(CardEnc.equals([x[i] for i in lits], bound=1, vpool=m.pool,
                                    encoding=encoding).clauses)
        m.handles.update(rects=rects, x=x)
        return m

    def block(self, inst: Instance, model: Model, grid: SolutionGrid) -> bool:
        assert isinstance(model, SatModel)
        x = model.handles["x"]
        model.add([-x[i] for i in chosen(model.handles["rects"], grid)])
        return True

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        rects, x = model.handles["rects"], model.handles["x"]
        return grid_from_rects(inst, (r for r, v in zip(rects, x, strict=True) if value(v) > 0.5))
