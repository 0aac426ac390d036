"""Shikaku in CP-SAT: the seed's Sugar model natively (per-clue x/y/w/h, ``w * h = clue``,
``no_overlap_2d`` of intervals)."""

from __future__ import annotations

from typing import Any

from bench.instance import Instance
from bench.models import CpsatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku.rules import (
    Rect,
    boxes,
    grid_from_rects,
    shapes,
)
from bench.registry import Formulation, formulation


@formulation
class CpsatSugar(Formulation[CpsatModel]):
    name = "cpsat-sugar"
    description = "seed Sugar model: per-clue x/y/w/h, w*h = clue, no_overlap_2d of intervals"

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        cp = m.model
        rows, cols = inst.rows, inst.cols
        xs, ys, ws, hs, xiv, yiv = [], [], [], [], [], []
        for k, (r, c, n) in enumerate(inst.clues()):
            fits = shapes(n, rows, cols)
            # int x_k y_k (top-left), w_k h_k (size) with w_k * h_k = n
            w = cp.new_int_var_from_domain(_domain(sorted({w for _, w in fits})), f"w{k}")
            h = cp.new_int_var_from_domain(_domain(sorted({h for h, _ in fits})), f"h{k}")
            cp.add_multiplication_equality(n, [w, h])
            x = cp.new_int_var(0, cols - 1, f"x{k}")
            y = cp.new_int_var(0, rows - 1, f"y{k}")
            # the clue lies inside its rectangle, the rectangle inside the grid
            cp.add(x <= c)
            cp.add(x + w >= c + 1)
            cp.add(x + w <= cols)
            cp.add(y <= r)
            cp.add(y + h >= r + 1)
            cp.add(y + h <= rows)
            xe = cp.new_int_var(1, cols, f"xe{k}")
            ye = cp.new_int_var(1, rows, f"ye{k}")
            xiv.append(cp.new_interval_var(x, w, xe, f"ix{k}"))
            yiv.append(cp.new_interval_var(y, h, ye, f"iy{k}"))
            xs.append(x)
            ys.append(y)
            ws.append(w)
            hs.append(h)
        # pairwise non-overlap (the seed's four-way disjunction) as one global constraint
        cp.add_no_overlap_2d(xiv, yiv)
        # the seed leaves implicit that the areas (w_k * h_k = n_k, constants) fill the grid,
        # which makes non-overlap a partition; without it, clues that sum short "solve" with
        # holes. A constant condition: when it fails, post the empty (unsatisfiable) clause.
        if sum(n for _, _, n in inst.clues()) != rows * cols:
            cp.add_bool_or([])
        m.handles.update(x=xs, y=ys, w=ws, h=hs)
        return m

    def block(self, inst: Instance, model: CpsatModel, grid: SolutionGrid) -> bool:
        # a rectangle is its clue's (x, y, w, h): forbid this solution's tuple of them
        hd = model.handles
        clue_at = {(r, c): k for k, (r, c, _) in enumerate(inst.clues())}
        where = {}
        for top, left, h, w in boxes(grid):
            k = next(clue_at[r, c] for r in range(top, top + h) for c in range(left, left + w)
                     if (r, c) in clue_at)
            where[k] = (left, top, w, h)
        order = range(len(hd["x"]))
        variables = [v for k in order for v in (hd["x"][k], hd["y"][k], hd["w"][k], hd["h"][k])]
        model.model.add_forbidden_assignments(variables, [[v for k in order for v in where[k]]])
        return True

    def decode(self, inst: Instance, model: CpsatModel, value: Value) -> SolutionGrid:
        hd = model.handles
        rects = [
            Rect(k, int(value(hd["y"][k])), int(value(hd["x"][k])), int(value(hd["h"][k])),
                 int(value(hd["w"][k])))
            for k in range(len(hd["x"]))
        ]
        return grid_from_rects(inst, rects)


def _domain(values: list[int]) -> Any:
    from ortools.sat.python import cp_model

    return cp_model.Domain.from_values(values)
