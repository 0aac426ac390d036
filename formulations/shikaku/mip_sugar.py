"""Shikaku as big-M MIP in Pyomo: the seed's Sugar model.

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
disjunction big-M rows. The domains are those a CP solver holds after propagating at the
root (``_root_domains``): "clue inside" and "inside the grid" bound each factor pair's
corner, and the compulsory-part rule of 2-D non-overlap (no rectangle may cover a cell that
every placement of another rectangle covers -- at first the other clues' own cells) shrinks
them to a fixpoint, dropping factor pairs that run out of placements. Per factor pair the
bounds become rows ``sum_s lo_s z_s <= x <= sum_s hi_s z_s``; a clue left with one placement
is fixed by its bounds. Like Sugar's compiler, which folds a comparison that the variable
domains decide, the port folds each disjunct against those domains: a pair with an
always-true disjunct needs no constraint, and a never-true disjunct is dropped. What remains
is one disjunct (a plain linear row) or two (one binary), with the big-M the domains allow.
The propagation is the parameter ``propagate``: ``none`` (the default, the seed as written:
domains from "clue inside"/"inside the grid" only) and ``root`` (the fixpoint, the work a CP
solver does before branching, done here in Python and so counted in ``build_s``; what it is
worth on GLPK: docs/results/2026-11-27-from-docstrings.md).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, ClassVar

from bench.instance import Instance
from bench.models import MipModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku.rules import (
    Rect,
    grid_from_rects,
    shapes,
)
from bench.registry import Formulation, formulation

pyo = lazy_module("pyomo.environ")


@formulation
class MipSugar(Formulation[MipModel]):
    name = "mip-sugar"
    description = "seed Sugar model: per-clue x/y/w/h, factor-pair choice, big-M 4-way disjunctions"
    #: "none": domains from "clue inside" / "inside the grid" only (the seed as written);
    #: "root": plus the compulsory-part propagation a CP solver does before it branches
    parameters: ClassVar[dict[str, list[Any]]] = {"propagate": ["none", "root"]}

    def build(self, inst: Instance) -> MipModel:
        mm = MipModel.new()
        # the CSP's domains after root propagation (see _root_domains): per clue, per factor
        # pair (h, w) that is still possible, the bounds of y (top row) and x (left column)
        dom = _root_domains(inst, fixpoint=self.params["propagate"] == "root")
        # The seed leaves implicit that the areas (constants n_k) fill the grid, which makes
        # non-overlap a partition; without it, clues that sum short "solve" with holes. A
        # constant condition, like an emptied domain: either way no solution exists, and the
        # model is one unsatisfiable row.
        if dom is None or sum(n for _, _, n in inst.clues()) != inst.cells:
            mm.post_infeasible()
            mm.handles.update(fits={})
            return mm
        port = _Port(mm.model, dom)
        port.shapes(inst)
        port.domains()
        port.nonoverlap()
        mm.handles.update(fits=port.fits)
        return mm

    def decode(self, inst: Instance, model: MipModel, value: Value) -> SolutionGrid:
        m, fits = model.model, model.handles["fits"]
        rects = []
        for k in m.x:
            s = max(range(len(fits[k])), key=lambda s: value(m.z[k, s]))
            h, w = fits[k][s]
            rects.append(Rect(k, round(value(m.y[k])), round(value(m.x[k])), h, w))
        return grid_from_rects(inst, rects)


Box = tuple[int, int, int, int]  # y lo, y hi, x lo, x hi of a rectangle's top-left corner


Span = tuple[int, int]  # (min, max)


class _Port:
    """The Sugar CSP as rows of one Pyomo model, built in three steps (shapes, domains,
    non-overlap) over the propagated domains ``dom``."""

    def __init__(self, m: Any, dom: dict[int, dict[tuple[int, int], Box]]) -> None:
        self.m = m
        self.K = range(len(dom))
        self.fits = {k: sorted(dom[k]) for k in self.K}
        self.S = [(k, s) for k in self.K for s in range(len(self.fits[k]))]
        # (y lo, y hi, x lo, x hi) per clue and factor pair
        self.box = {(k, s): dom[k][self.fits[k][s]] for k, s in self.S}
        # range of x_k, x_k + w_k, y_k, y_k + h_k under those domains
        self.xs = {k: self.span(k, 2, 3) for k in self.K}
        self.ys = {k: self.span(k, 0, 1) for k in self.K}
        self.xe = {k: self.span(k, 2, 3, 1) for k in self.K}
        self.ye = {k: self.span(k, 0, 1, 0) for k in self.K}

    def ext(self, k: int, f: Any) -> Span:
        """(min, max) of ``f(pair, box)`` over clue k's factor pairs."""
        vals = [f(self.fits[k][s], self.box[k, s]) for s in range(len(self.fits[k]))]
        return min(vals), max(vals)

    def span(self, k: int, lo: int, hi: int, side: int | None = None) -> Span:
        """Range of a corner coordinate (box indices ``lo``/``hi``), plus the pair's side
        ``side`` (0: height, 1: width) when given: the rectangle's far edge."""
        return (self.ext(k, lambda hw, b: b[lo] + (0 if side is None else hw[side]))[0],
                self.ext(k, lambda hw, b: b[hi] + (0 if side is None else hw[side]))[1])

    def shapes(self, inst: Instance) -> None:
        """Variables, the area as a factor-pair choice, clue inside, inside the grid."""
        m, K, fits, clues = self.m, self.K, self.fits, inst.clues()
        # (int x_k ...) (int y_k ...): the domains, as variable bounds
        m.x = pyo.Var(K, domain=pyo.NonNegativeIntegers, bounds=lambda _, k: self.xs[k])
        m.y = pyo.Var(K, domain=pyo.NonNegativeIntegers, bounds=lambda _, k: self.ys[k])
        m.z = pyo.Var(self.S, domain=pyo.Binary)  # z[k,s]: clue k takes factor pair s
        self.w = {k: sum(fits[k][s][1] * m.z[k, s] for s in range(len(fits[k]))) for k in K}
        self.h = {k: sum(fits[k][s][0] * m.z[k, s] for s in range(len(fits[k]))) for k in K}
        w, h = self.w, self.h
        # (= (* w h) n): exactly one factor pair
        m.area = pyo.Constraint(K, rule=lambda _, k: sum(m.z[k, s] for s in range(len(fits[k])))
                                == 1)
        # (<= x c) (<= y r) hold by the bounds; (< c (+ x w)), (< r (+ y h)),
        # (<= (+ x w) W), (<= (+ y h) H)
        m.inside_c = pyo.Constraint(K, rule=lambda _, k: m.x[k] + w[k] >= clues[k][1] + 1)
        m.inside_r = pyo.Constraint(K, rule=lambda _, k: m.y[k] + h[k] >= clues[k][0] + 1)
        m.grid_c = pyo.Constraint(K, rule=lambda _, k: m.x[k] + w[k] <= inst.cols)
        m.grid_r = pyo.Constraint(K, rule=lambda _, k: m.y[k] + h[k] <= inst.rows)

    def domains(self) -> None:
        """The domain of x_k and y_k once the factor pair is chosen: sum_s lo_ks z_ks <= x_k <=
        sum_s hi_ks z_ks. Exactly one z_ks is 1, so these are the bounds of pair s, which hold
        in every solution (_root_domains). A clue with one pair left has them as bounds."""
        m, box, fits = self.m, self.box, self.fits
        m.domain = pyo.ConstraintList()
        for k in self.K:
            if len(fits[k]) > 1:
                def at(i: int, k: int = k) -> Any:
                    return sum(box[k, s][i] * m.z[k, s] for s in range(len(fits[k])))
                m.domain.add(m.y[k] >= at(0))
                m.domain.add(m.y[k] <= at(1))
                m.domain.add(m.x[k] >= at(2))
                m.domain.add(m.x[k] <= at(3))

    def disjuncts(self, i: int, j: int) -> list[tuple[Any, int, bool, bool]]:
        """The four disjuncts of a pair, "a_i + l_i <= a_j" as (lhs expression, big-M, always,
        never). Like Sugar's compiler, which folds a comparison the variable domains decide,
        a disjunct is folded against the domains: always true (max of a_i + l_i <= min of a_j)
        -> the pair needs no constraint; never true (min of a_i + l_i > max of a_j) -> dropped
        from the disjunction. The big-M is the largest violation the domains allow."""
        m, w, h, xs, ys, xe, ye = self.m, self.w, self.h, self.xs, self.ys, self.xe, self.ye
        out = []
        for a, b, end, start, lhs in (
            (i, j, xe, xs, m.x[i] + w[i] - m.x[j]),    # (<= (+ x_i w_i) x_j)
            (j, i, xe, xs, m.x[j] + w[j] - m.x[i]),    # (<= (+ x_j w_j) x_i)
            (i, j, ye, ys, m.y[i] + h[i] - m.y[j]),    # (<= (+ y_i h_i) y_j)
            (j, i, ye, ys, m.y[j] + h[j] - m.y[i]),    # (<= (+ y_j h_j) y_i)
        ):
            out.append((lhs, end[a][1] - start[b][0], end[a][1] <= start[b][0],
                        end[a][0] > start[b][1]))
        return out

    def nonoverlap(self) -> None:
        """Pairwise non-overlap: per pair the live disjuncts, one binary per disjunct beyond
        the first, big-M rows."""
        m = self.m
        m.nonoverlap = pyo.ConstraintList()
        m.d = pyo.VarList(domain=pyo.Binary)  # which disjunct holds, when several remain
        for i, j in combinations(self.K, 2):
            ds = self.disjuncts(i, j)
            if any(always for _, _, always, _ in ds):
                continue
            live = [(lhs, big) for lhs, big, _, never in ds if not never]
            # "clue inside" leaves at most one x and one y disjunct live, so one or two remain;
            # none cannot happen after propagation (two compulsory parts would overlap) but is
            # kept exact all the same
            if not live:
                m.nonoverlap.add(m.z[i, 0] + m.z[j, 0] >= 3)  # always false
            elif len(live) == 1:
                m.nonoverlap.add(live[0][0] <= 0)
            else:
                ds_ = [m.d.add() for _ in live[1:]]
                if len(ds_) > 1:  # one binary per disjunct beyond the first, at most one set
                    m.nonoverlap.add(sum(ds_) <= 1)
                sel = [1 - sum(ds_), *ds_]
                for (lhs, big), d in zip(live, sel, strict=True):
                    m.nonoverlap.add(lhs <= big * (1 - d))


def _root_domains(inst: Instance, fixpoint: bool = True
                  ) -> dict[int, dict[tuple[int, int], Box]] | None:
    """The CSP's domains after propagation at the root, as a CP solver's non-overlap
    propagator would compute them: per clue k, per factor pair (h, w) still possible, the
    bounds of y_k and x_k; None when a domain runs empty (the CSP has no solution).

    Start: "clue inside" and "inside the grid" bound each pair's corner. Then, to a fixpoint,
    two rules (the compulsory-part rule of 2-D non-overlap):

    * compulsory part: a cell that every corner in k's domain covers (for every pair left)
      lies in rectangle k in every solution. At the start these are at least the clue's
      own cell, by "clue inside".
    * exclusion: rectangle j must not cover a cell in the compulsory part of k != j (that
      violates k and j's four-way disjunction), so such corners leave j's domain, which
      shrinks to the bounding box of the corners left; a pair with none left is dropped.

    With ``fixpoint=False`` only the start domains are returned (the seed as written).

    Exact: by induction every solution keeps each rectangle's corner inside its domain (it
    covers k's compulsory cells, so no other rectangle may), so no solution is lost; the
    bounding box only keeps corners that a later round or the MIP itself rules out.
    """
    rows, cols = inst.rows, inst.cols
    clues = inst.clues()
    dom: dict[int, dict[tuple[int, int], Box]] = {}
    for k, (r, c, n) in enumerate(clues):
        dom[k] = {(hh, ww): (max(0, r - hh + 1), min(r, rows - hh),
                             max(0, c - ww + 1), min(c, cols - ww))
                  for hh, ww in shapes(n, rows, cols)}
        if not dom[k]:
            return None
    owner: dict[tuple[int, int], int] = {}
    changed = fixpoint
    while changed:
        grew = _compulsory_parts(dom, owner)
        shrank = None if grew is None else _exclude(dom, owner)
        if shrank is None:
            return None
        changed = grew or shrank
    return dom


def _compulsory_parts(dom: dict[int, dict[tuple[int, int], Box]],
                      owner: dict[tuple[int, int], int]) -> bool | None:
    """Record in ``owner`` the cells each rectangle covers wherever it lies; whether any cell
    is new, None when two rectangles would both cover one."""
    changed = False
    for k, d in dom.items():
        r0 = max(y1 for y0, y1, _, _ in d.values())
        r1 = min(y0 + hh for (hh, _), (y0, _, _, _) in d.items())
        c0 = max(x1 for _, _, _, x1 in d.values())
        c1 = min(x0 + ww for (_, ww), (_, _, x0, _) in d.items())
        for cell in ((rr, cc) for rr in range(r0, r1) for cc in range(c0, c1)):
            got = owner.get(cell)
            if got is None:
                owner[cell] = k
                changed = True
            elif got != k:
                return None  # two rectangles would both cover this cell
    return changed


def _exclude(dom: dict[int, dict[tuple[int, int], Box]],
             owner: dict[tuple[int, int], int]) -> bool | None:
    """Drop the corners that would cover another rectangle's compulsory cells (each domain
    shrinks to the bounding box of the corners left); whether any domain changed, None when
    one runs empty."""
    changed = False
    for k, d in dom.items():
        for (hh, ww), (y0, y1, x0, x1) in list(d.items()):
            keep = [(yy, xx) for yy in range(y0, y1 + 1) for xx in range(x0, x1 + 1)
                    if all(owner.get((rr, cc), k) == k
                           for rr in range(yy, yy + hh) for cc in range(xx, xx + ww))]
            new = (min(yy for yy, _ in keep), max(yy for yy, _ in keep),
                   min(xx for _, xx in keep), max(xx for _, xx in keep)) if keep else None
            if new != d[hh, ww]:
                changed = True
                if new is None:
                    del d[hh, ww]
                else:
                    d[hh, ww] = new
        if not d:
            return None
    return changed
