"""The README's "Adding a formulation to compare" example, kept as a real, checked file.

tests/test_plugins.py installs it as an out-of-tree plugin, tests/test_conformance.py runs it
with every built-in formulation, and both ruff and mypy check it.
"""

from __future__ import annotations

from bench.instance import Instance
from bench.models import CpsatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku.rules import (
    candidate_rectangles,
    cells_to_rects,
    chosen,
    grid_from_rects,
)
from bench.registry import Formulation, formulation


@formulation
class CpsatMine(Formulation[CpsatModel]):
    puzzle = "shikaku"
    name = "cpsat-mine"
    kind = "cpsat"  # "mip" (MipModel, Pyomo), "cpsat" (CpsatModel) or "sat" (SatModel)
    description = "rectangle cover with at-most-one per cell plus area sum"
    exact = True  # finds a solution whenever one exists

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        rects = candidate_rectangles(inst)
        x = [m.model.new_bool_var(f"r{i}") for i in range(len(rects))]
        for lits in cells_to_rects(inst, rects).values():
            m.model.add_at_most_one(x[i] for i in lits)
        m.model.add(sum(r.height * r.width * v for r, v in zip(rects, x, strict=True))
                    == inst.cells)
        m.handles.update(rects=rects, x=x)
        return m

    def decode(self, inst: Instance, model: CpsatModel, value: Value) -> SolutionGrid:
        rects, x = model.handles["rects"], model.handles["x"]
        return grid_from_rects(inst, [r for r, v in zip(rects, x, strict=True) if value(v) > 0.5])

    def block(self, inst: Instance, model: CpsatModel, grid: SolutionGrid) -> bool:
        """--count: exclude this solution's rectangles (they determine the grid)."""
        x = model.handles["x"]
        model.model.add_bool_or([x[i].Not() for i in chosen(model.handles["rects"], grid)])
        return True
