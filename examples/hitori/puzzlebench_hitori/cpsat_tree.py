"""Hitori ``cpsat-tree``: a CP-SAT model (OR-tools, through puzzlebench's ``cpsat`` kind).

* ``b[v]``: cell v is black;
* equal numbers on a line: ``add_bool_or(b[u], b[v])`` for each pair;
* no two black cells adjacent: ``add_bool_or(not b[u], not b[v])``;
* the white cells connected: :func:`bench.encodings.cpsat.connected` on ``not b[v]``, a
  spanning tree with depths, rooted at the first white cell.

Exact.
"""

from __future__ import annotations

from bench.encodings.cpsat import connected
from bench.instance import Instance
from bench.models import CpsatModel, Value
from bench.puzzles import SolutionGrid
from bench.registry import Formulation, formulation
from puzzlebench_hitori._model import adjacent_pairs, equal_pairs
from puzzlebench_hitori.rules import BLACK, WHITE


@formulation
class CpsatTree(Formulation[CpsatModel]):
    puzzle = "hitori"
    name = "cpsat-tree"
    kind = "cpsat"
    description = ("black per cell, equal numbers on a line pairwise, no adjacent blacks; "
                   "whites connected by a spanning tree with depths")

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        cp = m.model
        black = {(r, c): cp.new_bool_var(f"b{r}_{c}")
                 for r in range(inst.rows) for c in range(inst.cols)}
        for u, v in equal_pairs(inst):
            cp.add_bool_or([black[u], black[v]])
        for u, v in adjacent_pairs(inst):
            cp.add_bool_or([black[u].Not(), black[v].Not()])
        connected(cp, {v: x.Not() for v, x in black.items()}, method="tree", root="first")
        m.handles.update(black=black)
        return m

    def decode(self, inst: Instance, model: CpsatModel, value: Value) -> SolutionGrid:
        black = model.handles["black"]
        return [[BLACK if value(black[(r, c)]) > 0.5 else WHITE for c in range(inst.cols)]
                for r in range(inst.rows)]

    def block(self, inst: Instance, model: CpsatModel, grid: SolutionGrid) -> bool:
        """Exclude this grid's colouring (the ``b`` variables only: projected)."""
        black = model.handles["black"]
        model.model.add_bool_or([x.Not() if grid[r][c] == BLACK else x
                                 for (r, c), x in black.items()])
        return True
