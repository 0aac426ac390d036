"""Shakashaka in CPMpy: each open cell takes one of its five patterns (a ``Table`` of the
pattern and its quarters' whiteness), the numbers count triangles, and the white areas are
rectangles by the exact local characterisation of :mod:`formulations.shakashaka._local`: no
white wedge of 45, 135, 225, 270 or 315 degrees at any grid point."""

from __future__ import annotations

from bench.instance import Instance
from bench.models import CpmpyModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.shakashaka.rules import BLACK, WHITE, WHITE_QUARTERS
from bench.registry import Formulation, formulation
from formulations._cpmpy import NeedsCpmpy
from formulations.shakashaka._local import (
    clue_neighbours,
    grid_from_quarters,
    open_cells,
    quarters_of,
    wedge_patterns,
)

#: the open cells' patterns: white first, then the triangles (pattern index -> token)
PATTERNS = [WHITE, *(t for t in WHITE_QUARTERS if t not in (WHITE, BLACK))]
#: per pattern, the whiteness of quarters N, E, S, W
TABLE = [[i, *(int(q in WHITE_QUARTERS[t]) for q in range(4))] for i, t in enumerate(PATTERNS)]


@formulation
class CpmpyLocal(NeedsCpmpy, Formulation[CpmpyModel]):
    name = "cpmpy-local"
    description = ("CPMpy: a pattern per open cell tied to its quarters by a Table, numbers as "
                   "triangle counts, forbidden white wedges as clauses")

    def build(self, inst: Instance) -> CpmpyModel:
        import cpmpy as cp

        m = CpmpyModel.new()
        cells = open_cells(inst)
        pattern = {v: cp.intvar(0, len(PATTERNS) - 1, name=f"pattern_{v[0]}_{v[1]}")
                   for v in cells}
        white = {(r, c, q): cp.boolvar(name=f"white_{r}_{c}_{q}") for r, c in cells
                 for q in range(4)}
        for r, c in cells:
            m.model += cp.Table([pattern[r, c], *(white[r, c, q] for q in range(4))], TABLE)
        for n, near in clue_neighbours(inst):
            m.model += cp.sum([pattern[v] != 0 for v in near]) == n
        for run, ends in wedge_patterns(inst):
            m.model += cp.any([*(~white[s] for s in run), *(white[s] for s in ends)])
        m.handles.update(pattern=pattern, white=white)
        return m

    def decode(self, inst: Instance, model: CpmpyModel, value: Value) -> SolutionGrid:
        white = model.handles["white"]
        return grid_from_quarters(inst, {k: value(x) > 0.5 for k, x in white.items()})

    def block(self, inst: Instance, model: CpmpyModel, grid: SolutionGrid) -> bool:
        import cpmpy as cp

        white, now = model.handles["white"], quarters_of(grid)
        model.model += cp.any([~x if now[k] else x for k, x in white.items()])
        return True
