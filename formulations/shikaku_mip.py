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
        # Placements (top, left) of each factor pair that keep the clue inside, the rectangle
        # inside the grid, and no other clue inside (a rectangle holding clue j overlaps j's
        # own rectangle, which holds clue j: the disjunction of that pair is violated).
        place: dict[int, dict[tuple[int, int], list[tuple[int, int]]]] = {k: {} for k in K}
        for rect in candidate_rectangles(inst):
            place[rect.clue].setdefault((rect.height, rect.width), []).append((rect.top, rect.left))
        import os
        owned: dict[tuple[int, int], int] = {}
        for _ in range(int(os.environ.get("SUGAR_ROUNDS", "0"))):
            changed = False
            for k in K:
                ps = [(t, l, hw) for hw, v in place[k].items() for t, l in v]
                if not ps:
                    continue
                t0 = max(t for t, _, _ in ps); t1 = min(t + hw[0] for t, _, hw in ps)
                l0 = max(l for _, l, _ in ps); l1 = min(l + hw[1] for _, l, hw in ps)
                for r in range(t0, t1):
                    for c in range(l0, l1):
                        if owned.get((r, c)) is None:
                            owned[r, c] = k; changed = True
            for k in K:
                for hw in list(place[k]):
                    keep = [(t, l) for t, l in place[k][hw]
                            if all(owned.get((r, c), k) == k for r in range(t, t + hw[0]) for c in range(l, l + hw[1]))]
                    if len(keep) != len(place[k][hw]):
                        changed = True
                        if keep: place[k][hw] = keep
                        else: del place[k][hw]
            if not changed:
                break
        fits = {k: [hw for hw in shapes(n, rows, cols) if hw in place[k]]
                for k, (_, _, n) in enumerate(clues)}
        S = [(k, s) for k in K for s in range(len(fits[k]))]
        box = {}  # (k, s) -> (min top, max top, min left, max left)
        for k, s in S:
            ps = place[k][fits[k][s]]
            box[k, s] = (min(t for t, _ in ps), max(t for t, _ in ps),
                         min(l for _, l in ps), max(l for _, l in ps))
        lo_x = {k: min(box[k, s][2] for s in range(len(fits[k]))) for k in K}
        hi_x = {k: max(box[k, s][3] for s in range(len(fits[k]))) for k in K}
        lo_y = {k: min(box[k, s][0] for s in range(len(fits[k]))) for k in K}
        hi_y = {k: max(box[k, s][1] for s in range(len(fits[k]))) for k in K}

        m.x = pyo.Var(K, domain=pyo.NonNegativeIntegers, bounds=lambda _, k: (lo_x[k], hi_x[k]))
        m.y = pyo.Var(K, domain=pyo.NonNegativeIntegers, bounds=lambda _, k: (lo_y[k], hi_y[k]))
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
        # per factor pair position bounds
        def zs(k, i):
            return sum(box[k, s][i] * m.z[k, s] for s in range(len(fits[k])))
        m.bx = pyo.ConstraintList()
        for k in K:
            if len(fits[k]) > 1:
                m.bx.add(m.y[k] >= zs(k, 0))
                m.bx.add(m.y[k] <= zs(k, 1))
                m.bx.add(m.x[k] >= zs(k, 2))
                m.bx.add(m.x[k] <= zs(k, 3))

        hi_xe = {k: max(box[k, s][3] + fits[k][s][1] for s in range(len(fits[k]))) for k in K}
        hi_ye = {k: max(box[k, s][1] + fits[k][s][0] for s in range(len(fits[k]))) for k in K}
        lo_xe = {k: min(box[k, s][2] + fits[k][s][1] for s in range(len(fits[k]))) for k in K}
        lo_ye = {k: min(box[k, s][0] + fits[k][s][0] for s in range(len(fits[k]))) for k in K}

        def disjuncts(i: int, j: int) -> list[tuple[Any, int, bool, bool]]:
            return [  # (x_i + w_i - x_j <= 0, big-M, always, never) ...
                (m.x[i] + w[i] - m.x[j], hi_xe[i] - lo_x[j], hi_xe[i] <= lo_x[j], lo_xe[i] > hi_x[j]),
                (m.x[j] + w[j] - m.x[i], hi_xe[j] - lo_x[i], hi_xe[j] <= lo_x[i], lo_xe[j] > hi_x[i]),
                (m.y[i] + h[i] - m.y[j], hi_ye[i] - lo_y[j], hi_ye[i] <= lo_y[j], lo_ye[i] > hi_y[j]),
                (m.y[j] + h[j] - m.y[i], hi_ye[j] - lo_y[i], hi_ye[j] <= lo_y[i], lo_ye[j] > hi_y[i]),
            ]

        m.nonoverlap = pyo.ConstraintList()
        m.d = pyo.VarList(domain=pyo.Binary)
        npair = [0, 0, 0, 0, 0]
        for i, j in combinations(K, 2):
            ds = disjuncts(i, j)
            if any(always for _, _, always, _ in ds):
                continue
            live = [(lhs, big) for lhs, big, _, never in ds if not never]
            npair[len(live)] += 1
            if len(live) == 0:
                m.nonoverlap.add(pyo.Constraint.Infeasible)
            elif len(live) == 1:
                m.nonoverlap.add(live[0][0] <= 0)
            elif len(live) == 2:
                (lhs0, big0), (lhs1, big1) = live
                d = m.d.add()
                m.nonoverlap.add(lhs0 <= big0 * (1 - d))
                m.nonoverlap.add(lhs1 <= big1 * d)
            else:
                ds_ = [m.d.add() for _ in live]
                m.nonoverlap.add(sum(ds_) >= 1)
                for (lhs, big), d in zip(live, ds_):
                    m.nonoverlap.add(lhs <= big * (1 - d))
        import sys; print('pairs', npair, file=sys.stderr)
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
