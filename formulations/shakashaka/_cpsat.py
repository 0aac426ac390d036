"""The base of the Shakashaka CP-SAT formulations (imported only by cpsat modules): a Boolean
per quarter and white key of every open cell, the number rule as linear sums, and blocking and
decoding on the quarters."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bench.instance import Instance
from bench.models import CpsatModel, Value
from bench.puzzles import SolutionGrid
from bench.registry import Formulation
from formulations.shakashaka._local import (
    Lit,
    clue_neighbours,
    grid_from_quarters,
    keys,
    open_cells,
    qkey,
    quarters_of,
    wkey,
)


class QuarterCpsat(Formulation[CpsatModel]):
    def quarters(self, inst: Instance, clauses: Iterable[list[Lit]]) -> tuple[CpsatModel, Any]:
        """A model with the quarter literals (``handles["lit"]``, by key), ``clauses`` (lists of
        ``(key, positive)``) as ``bool_or``s and the numbers; the model and its CpModel."""
        m = CpsatModel.new()
        cp = m.model
        lit = {key: cp.new_bool_var(str(key)) for key in keys(inst)}
        for clause in clauses:
            cp.add_bool_or([lit[k] if pos else ~lit[k] for k, pos in clause])
        for n, cells in clue_neighbours(inst):
            # triangles among the open neighbours: those not all white
            if n > len(cells):
                cp.add_bool_or([])  # cannot be met
            else:
                cp.add(sum(lit[wkey(r, c)] for r, c in cells) == len(cells) - n)
        m.handles["lit"] = lit
        return m, cp

    def block(self, inst: Instance, model: CpsatModel, grid: SolutionGrid) -> bool:
        lit, white = model.handles["lit"], quarters_of(grid)
        model.model.add_bool_or([~lit[qkey(r, c, q)] if white[r, c, q] else lit[qkey(r, c, q)]
                                 for r, c in open_cells(inst) for q in range(4)])
        return True

    def decode(self, inst: Instance, model: CpsatModel, value: Value) -> SolutionGrid:
        lit = model.handles["lit"]
        return grid_from_quarters(inst, {(r, c, q): value(lit[qkey(r, c, q)]) > 0.5
                                         for r, c in open_cells(inst) for q in range(4)})
