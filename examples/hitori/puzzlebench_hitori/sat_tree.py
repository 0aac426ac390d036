"""Hitori ``sat-tree``: a SAT model (python-sat, through puzzlebench's ``sat`` kind).

* ``b[v]``: cell v is black;
* equal numbers on a line: ``b[u] or b[v]`` for each pair (at most one of them white);
* no two black cells adjacent: ``not b[u] or not b[v]``;
* the white cells connected: :func:`bench.encodings.sat.connected` on the literals ``-b[v]``,
  eagerly (``connect=distance``: parent pointers with order-encoded distances, rooted at the
  first white cell) or lazily (``connect=lazy``: the shared cuts of
  :func:`bench.encodings.sat.separate_connected` after each model, the solver kept warm).

Exact in both variants.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.sat import connected, separate_connected
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.puzzles import SolutionGrid
from bench.registry import Formulation, formulation
from puzzlebench_hitori._model import adjacent_pairs, equal_pairs
from puzzlebench_hitori.rules import BLACK, WHITE


@formulation
class SatTree(Formulation[SatModel]):
    puzzle = "hitori"
    name = "sat-tree"
    kind = "sat"
    description = ("black per cell, equal numbers on a line pairwise, no adjacent blacks; "
                   "whites connected by distance ladders or lazy cuts")
    parameters: ClassVar[dict[str, list[Any]]] = {"connect": ["distance", "lazy"]}

    def is_lazy(self) -> bool:
        return self.params["connect"] == "lazy"

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        black = {(r, c): m.var((r, c)) for r in range(inst.rows) for c in range(inst.cols)}
        m.extend([black[u], black[v]] for u, v in equal_pairs(inst))
        m.extend([-black[u], -black[v]] for u, v in adjacent_pairs(inst))
        white = {v: -x for v, x in black.items()}
        if self.params["connect"] == "distance":
            connected(m, white, method="distance", root="first")
        m.handles.update(black=black, white=white)
        return m

    def decode(self, inst: Instance, model: SatModel, value: Value) -> SolutionGrid:
        black = model.handles["black"]
        return [[BLACK if value(black[(r, c)]) > 0.5 else WHITE for c in range(inst.cols)]
                for r in range(inst.rows)]

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        white = model.handles["white"]
        return separate_connected(model, white, lambda v: value(white[v]) > 0.5)

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        """Exclude this grid's colouring (the ``b`` literals only: projected)."""
        black = model.handles["black"]
        model.add([-x if grid[r][c] == BLACK else x for (r, c), x in black.items()])
        return True
