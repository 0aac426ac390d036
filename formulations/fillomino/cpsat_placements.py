"""Fillomino in CP-SAT, the placement view: every region of at most ``small`` cells is one of
the enumerated polyomino placements; larger regions are parent-pointer trees.

* ``p[P]`` per placement P: a connected set of k <= ``small`` cells that may all hold k (k in
  each cell's provable domain, :func:`bench.puzzles.fillomino.encoding.layout`; so no given other
  than k inside) and that touches no given k outside (that given would join it);
* ``big[v]``: v holds a number above ``small``, ``xl[v]`` that number (0 when not big);
* every cell is covered by exactly one placement or is big; the cell's number
  ``x[v] = sum k * p[P] (P covering v) + xl[v]``;
* two neighbours that both hold k <= ``small`` lie in one placement (so two regions of one
  size never touch and a placement is a whole region);
* ``s[u, w]`` between neighbours that may both be big: both big with equal numbers, and two
  big neighbours with equal numbers are joined; the big cells' regions are trees of exactly
  their number of cells (:func:`formulations.fillomino._cptree.region_trees`).

Exact: a solution's regions of up to ``small`` cells are placements (every condition above is
a rule or a consequence of the givens), its larger regions are trees; no bound beyond the
provable domains is assumed.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.grid import Cell, neighbours
from bench.instance import Instance
from bench.models import CpsatModel, lazy_module
from bench.puzzles.fillomino.encoding import Layout, layout, small_pieces
from bench.registry import formulation
from formulations.fillomino._cptree import region_trees
from formulations.fillomino.cpsat_tree import CpsatTree

cp_model = lazy_module("ortools.sat.python.cp_model")


def placements(lay: Layout, small: int) -> list[list[Cell]]:
    """Every placement of the module docstring, smaller sizes first."""
    out = []
    for p in small_pieces(lay.rows, lay.cols, small):
        k, inside = len(p), set(p)
        if all(k in lay.domset[v] for v in p) and not any(
                lay.given.get(w) == k for v in p for w in neighbours(v, lay.rows, lay.cols)
                if w not in inside):
            out.append(p)
    return out


@formulation
class CpsatPlacements(CpsatTree):
    """``cpsat-tree``'s trees for the large regions only (its decode and block: ``x`` per cell)."""

    name = "cpsat-placements"
    description = ("the placement view: enumerated polyomino placements for regions of up to "
                   "`small` cells, parent-pointer trees with subtree sizes for larger ones")
    parameters: ClassVar[dict[str, list[Any]]] = {"small": [4, 3, 5]}

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        cp, lay, small = m.model, layout(inst), self.params["small"]
        cover: dict[tuple[Cell, int], list[Any]] = {}  # (cell, k): placements of size k on it
        for i, p in enumerate(placements(lay, small)):
            lit = cp.new_bool_var(f"P{i}")
            for v in p:
                cover.setdefault((v, len(p)), []).append(lit)
        bigs = {v: [n for n in lay.dom[v] if n > small] for v in lay.cells}
        big = {v: cp.new_bool_var(f"b{v[0]}_{v[1]}") for v in lay.cells if bigs[v]}
        xl = {v: cp.new_int_var_from_domain(cp_model.Domain.from_values([0, *bigs[v]]),
                                            f"l{v[0]}_{v[1]}") for v in big}
        x: dict[Cell, Any] = {}
        for v in lay.cells:
            ks = [k for k in range(1, small + 1) if (v, k) in cover]
            cp.add_exactly_one([*(q for k in ks for q in cover[v, k]), *([big[v]] if v in big
                                                                         else [])])
            number = sum(k * sum(cover[v, k]) for k in ks)
            if v in big:
                cp.add(xl[v] > 0).only_enforce_if(big[v])
                cp.add(xl[v] == 0).only_enforce_if(big[v].Not())
                number += xl[v]
            x[v] = cp.new_int_var(1, lay.dom[v][-1], f"x{v[0]}_{v[1]}")
            cp.add(x[v] == number)
        for u, w in lay.edges:
            for k in range(1, small + 1):
                if (u, k) in cover and (w, k) in cover:
                    both = set(cover[u, k]) & set(cover[w, k])
                    cp.add(sum(cover[u, k]) + sum(cover[w, k]) <= 1 + sum(both))
        same: dict[tuple[Cell, Cell], Any] = {}
        for u, w in lay.edges:
            if u in big and w in big and set(bigs[u]) & set(bigs[w]):
                s = cp.new_bool_var(f"s{u[0]}_{u[1]}_{w[0]}_{w[1]}")
                cp.add_implication(s, big[u])
                cp.add_implication(s, big[w])
                cp.add(xl[u] == xl[w]).only_enforce_if(s)
                cp.add(xl[u] != xl[w]).only_enforce_if([big[u], big[w], s.Not()])
                same[u, w] = same[w, u] = s
        for v in big:  # (implied: a big region has two cells or more)
            cp.add_bool_or([same[v, w] for w in neighbours(v, lay.rows, lay.cols)
                            if (v, w) in same]).only_enforce_if(big[v])
        region_trees(cp, list(big), xl, {v: bigs[v][-1] for v in big}, same, active=big)
        m.handles.update(x=x)
        return m

