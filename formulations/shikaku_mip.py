"""Shikaku as big-M MIP in Pyomo: the seed's Sugar model, and the rectangle cover.

``mip-sugar`` ports Naoyuki Tamura's Sugar (SAT-based CSP) Shikaku example. The seed's CSP
reads, for each clue k at (r_k, c_k) with number n_k::

    (int x_k ...) (int y_k ...) (int w_k ...) (int h_k ...)   ; top-left column/row, size
    (= (* w_k h_k) n_k)                                       ; area is the clue
    (<= x_k c_k) (< c_k (+ x_k w_k))                          ; clue inside, columns
    (<= y_k r_k) (< r_k (+ y_k h_k))                          ; clue inside, rows
    (<= (+ x_k w_k) W) (<= (+ y_k h_k) H)                     ; inside the grid
    (or (<= (+ x_i w_i) x_j) (<= (+ x_j w_j) x_i)             ; pairwise non-overlap,
        (<= (+ y_i h_i) y_j) (<= (+ y_j h_j) y_i))            ; a four-way disjunction

The product becomes a choice among the clue's factor pairs (one binary each), the
disjunction big-M rows. Like Sugar's compiler, which folds a comparison that the variable
domains decide, the port folds each disjunct against the bounds that "clue inside" and
"inside the grid" give: a pair with an always-true disjunct needs no constraint, and a
never-true disjunct (one that would push a clue out of its own rectangle) is dropped. What
remains is one disjunct (the clues share a row or column: a plain linear row) or two (one
binary). Without the folding GLPK finds no solution of the 10x10 seed within 60 s.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pyomo.environ as pyo

from bench.instance import Instance
from bench.models import MipModel, Model, Value, new_model
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku import (
    Rect,
    candidate_rectangles,
    cells_to_rects,
    grid_from_rects,
    shapes,
)
from bench.registry import Formulation, formulation


@formulation
class MipSugar(Formulation):
    puzzle = "shikaku"
    name = "mip-sugar"
    kind = "mip"
    description = "seed Sugar model: per-clue x/y/w/h, factor-pair choice, big-M 4-way disjunctions"

    def build(self, inst: Instance) -> Model:
        mm = new_model("mip")
        assert isinstance(mm, MipModel)
        m = mm.model
        rows, cols = inst.rows, inst.cols
        clues = inst.clues()
        K = range(len(clues))
        fits = {k: shapes(n, rows, cols) for k, (_, _, n) in enumerate(clues)}
        S = [(k, s) for k in K for s in range(len(fits[k]))]

        # bounds implied by "clue inside" and "inside the grid" (the CSP's domains)
        def lo_x(k: int) -> int:
            return max(0, clues[k][1] - max(w for _, w in fits[k]) + 1)

        def lo_y(k: int) -> int:
            return max(0, clues[k][0] - max(h for h, _ in fits[k]) + 1)

        m.x = pyo.Var(K, domain=pyo.NonNegativeIntegers,
                      bounds=lambda _, k: (lo_x(k), clues[k][1]))
        m.y = pyo.Var(K, domain=pyo.NonNegativeIntegers,
                      bounds=lambda _, k: (lo_y(k), clues[k][0]))
        m.z = pyo.Var(S, domain=pyo.Binary)  # z[k,s]: clue k takes factor pair s
        w = {k: sum(fits[k][s][1] * m.z[k, s] for s in range(len(fits[k]))) for k in K}
        h = {k: sum(fits[k][s][0] * m.z[k, s] for s in range(len(fits[k]))) for k in K}

        # (= (* w h) n): exactly one factor pair
        m.area = pyo.Constraint(K, rule=lambda _, k: sum(m.z[k, s] for s in range(len(fits[k])))
                                == 1)
        # (< c (+ x w)), (< r (+ y h)), (<= (+ x w) W), (<= (+ y h) H)
        m.inside_c = pyo.Constraint(K, rule=lambda _, k: m.x[k] + w[k] >= clues[k][1] + 1)
        m.inside_r = pyo.Constraint(K, rule=lambda _, k: m.y[k] + h[k] >= clues[k][0] + 1)
        m.grid_c = pyo.Constraint(K, rule=lambda _, k: m.x[k] + w[k] <= cols)
        m.grid_r = pyo.Constraint(K, rule=lambda _, k: m.y[k] + h[k] <= rows)

        # upper bound of x_k + w_k and of y_k + h_k under those bounds
        def hi_xe(k: int) -> int:
            return min(cols, clues[k][1] + max(w for _, w in fits[k]))

        def hi_ye(k: int) -> int:
            return min(rows, clues[k][0] + max(h for h, _ in fits[k]))

        # The four disjuncts of a pair, as (lhs expression, slack that the bounds allow).
        # A disjunct whose comparison the bounds decide is folded, as Sugar's compiler folds
        # it: always true -> the pair needs no constraint; never true (it would put a clue
        # outside its own rectangle) -> dropped from the disjunction.
        def disjuncts(i: int, j: int) -> list[tuple[Any, int, bool, bool]]:
            (ri, ci, _), (rj, cj, _) = clues[i], clues[j]
            return [  # (x_i + w_i - x_j <= 0, big-M, always, never) ...
                (m.x[i] + w[i] - m.x[j], hi_xe(i) - lo_x(j), hi_xe(i) <= lo_x(j), ci + 1 > cj),
                (m.x[j] + w[j] - m.x[i], hi_xe(j) - lo_x(i), hi_xe(j) <= lo_x(i), cj + 1 > ci),
                (m.y[i] + h[i] - m.y[j], hi_ye(i) - lo_y(j), hi_ye(i) <= lo_y(j), ri + 1 > rj),
                (m.y[j] + h[j] - m.y[i], hi_ye(j) - lo_y(i), hi_ye(j) <= lo_y(i), rj + 1 > ri),
            ]

        m.nonoverlap = pyo.ConstraintList()
        m.d = pyo.VarList(domain=pyo.Binary)  # which disjunct holds, when two remain
        for i, j in combinations(K, 2):
            ds = disjuncts(i, j)
            if any(always for _, _, always, _ in ds):
                continue
            live = [(lhs, big) for lhs, big, _, never in ds if not never]
            # two clues in distinct rows and columns leave two disjuncts, else one remains
            if len(live) == 1:
                m.nonoverlap.add(live[0][0] <= 0)
            else:
                (lhs0, big0), (lhs1, big1) = live
                d = m.d.add()
                m.nonoverlap.add(lhs0 <= big0 * (1 - d))
                m.nonoverlap.add(lhs1 <= big1 * d)
        m.obj = pyo.Objective(expr=0)  # feasibility problem
        mm.handles.update(fits=fits)
        return mm

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        m, fits = model.model, model.handles["fits"]  # type: ignore[union-attr]
        rects = []
        for k in m.x:
            s = max(range(len(fits[k])), key=lambda s: value(m.z[k, s]))
            h, w = fits[k][s]
            rects.append(Rect(k, round(value(m.y[k])), round(value(m.x[k])), h, w))
        return grid_from_rects(inst, rects)


@formulation
class MipCover(Formulation):
    puzzle = "shikaku"
    name = "mip-cover"
    kind = "mip"
    description = "exact cover by candidate rectangles: one binary each, sum = 1 per cell"

    def build(self, inst: Instance) -> Model:
        mm = new_model("mip")
        assert isinstance(mm, MipModel)
        m = mm.model
        rects = candidate_rectangles(inst)
        cover = cells_to_rects(inst, rects)
        m.x = pyo.Var(range(len(rects)), domain=pyo.Binary)
        m.once = pyo.Constraint(list(cover), rule=lambda _, r, c: sum(m.x[i] for i in cover[r, c])
                                == 1 if cover[r, c] else pyo.Constraint.Infeasible)
        m.obj = pyo.Objective(expr=0)
        mm.handles.update(rects=rects)
        return mm

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        m, rects = model.model, model.handles["rects"]  # type: ignore[union-attr]
        return grid_from_rects(inst, (rects[i] for i in m.x if value(m.x[i]) > 0.5))
