"""Yin-Yang: the seed's OR-tools CP-SAT model, ported as ``cpsat-seed``.

Source: seed document 001_8e44e93552abdb37 (docs/instances.md, "The seed documents"), its
function ``solve_yinyang``. The seed's model, kept here
variable for variable:

* ``color[v]`` per cell (true = black, the seed's value 2; a white stone is its value 1);
  ``step[v]`` an integer in ``0..rows*cols``;
* two directed edge literals per pair of neighbours, ``edge[u, v]`` and ``edge[v, u]``;
* per pair, the seed's seven clauses: at most one direction (E1); an edge joins equal colours
  (E2..E5); neighbours of equal colour carry an edge (E6 both white, E7 both black); along an
  edge the step grows (S1, S2);
* every cell except the roots has exactly one incoming edge and a positive step (IN1); a root
  has no incoming edge, at least one outgoing edge and step 0 (IN0); roots are the first given
  stone of each colour in row-major order.

Three ways the seed is stronger than the rules (the harness shows each; see the tests):

1. a board without a given stone of some colour has no root for it: the seed cannot run
   (``root=first-stone`` raises a clear error);
2. E6/E7 put an edge on every same-colour adjacency, and with one incoming edge per non-root
   cell and growing steps each colour class must be a tree: a valid solution with a cycle of one
   colour (a black ring around the border, say) is cut off. The tree property also implies the
   2x2 rule (a one-colour 2x2 block would be a 4-cycle), which is why the seed never states it;
3. IN0 wants an outgoing edge at each root: a colour with a single cell is impossible.

Parameters: ``root=first-stone|model`` — ``model`` has root literals per cell and colour,
exactly one per colour that has cells, fixed to the colour's first cell in row-major order
through prefix literals (no root symmetry, no givens needed); ``edges=every-adjacency|spanning``
— ``spanning`` drops E6/E7 and IN0's outgoing edge, so the edges form a spanning tree of each
colour class (cycles in the class allowed), and then states the 2x2 rule, which is no longer
implied. The seed is ``[root=first-stone,edges=every-adjacency]``; ``[root=model,
edges=spanning]`` is exact.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.cells import Cut
from bench.encodings.cpsat import add_cuts
from bench.grid import Cell, all_cells, neighbours
from bench.instance import Instance
from bench.models import CpsatModel
from bench.puzzles.yinyang.rules import BLACK, WHITE
from bench.registry import formulation
from formulations.yinyang._rules import BlackCells


def first_stones(inst: Instance) -> dict[str, Cell]:
    """The seed's roots: the first given stone of each colour in row-major order."""
    out: dict[str, Cell] = {}
    for r, c, v in inst.clues():
        out.setdefault(v, (r, c))
    return out


@formulation
class CpsatSeed(BlackCells[CpsatModel]):
    name = "cpsat-seed"
    exact = False
    description = ("the seed's CP-SAT model: a directed edge on every same-colour adjacency, one "
                   "incoming edge per non-root cell, growing step numbers from one root per colour")
    parameters: ClassVar[dict[str, list[Any]]] = {
        "root": ["first-stone", "model"],
        "edges": ["every-adjacency", "spanning"],
    }

    def is_exact(self) -> bool:
        return bool(self.params["root"] == "model" and self.params["edges"] == "spanning")

    def build(self, inst: Instance) -> CpsatModel:
        m = CpsatModel.new()
        cp, rows, cols = m.model, inst.rows, inst.cols
        cells = all_cells(rows, cols)
        color = {v: cp.new_bool_var(f"color_{v[0]}_{v[1]}") for v in cells}  # true: black
        step = {v: cp.new_int_var(0, rows * cols, f"step_{v[0]}_{v[1]}") for v in cells}
        edge = {(u, v): cp.new_bool_var(f"edge_{u}_{v}")
                for u in cells for v in neighbours(u, rows, cols)}
        every = self.params["edges"] == "every-adjacency"
        for (u, v), e_uv in edge.items():
            if u > v:
                continue
            e_vu, cu, cv = edge[v, u], color[u], color[v]
            cp.add_bool_or([~e_uv, ~e_vu])  # E1
            cp.add_bool_or([~cu, cv, ~e_uv])  # E2..E5: an edge joins equal colours
            cp.add_bool_or([cu, ~cv, ~e_uv])
            cp.add_bool_or([~cu, cv, ~e_vu])
            cp.add_bool_or([cu, ~cv, ~e_vu])
            if every:
                cp.add_bool_or([cu, cv, e_uv, e_vu])  # E6: both white -> an edge
                cp.add_bool_or([~cu, ~cv, e_uv, e_vu])  # E7: both black -> an edge
            cp.add(step[u] < step[v]).only_enforce_if(e_uv)  # S1
            cp.add(step[u] > step[v]).only_enforce_if(e_vu)  # S2
        roots = self.roots(inst, cp, color, cells)
        for v in cells:
            incoming = sum(edge[u, v] for u in neighbours(v, rows, cols))
            outgoing = sum(edge[v, u] for u in neighbours(v, rows, cols))
            if v not in roots:  # IN1
                cp.add(incoming == 1)
                cp.add(step[v] > 0)
                continue
            lits = roots[v]
            if not lits:  # a seed root, IN0: no incoming edge, step 0, an outgoing edge
                cp.add(incoming == 0)
                cp.add(step[v] == 0)
                if every:
                    cp.add(outgoing >= 1)
                continue
            cp.add(incoming + sum(lits) == 1)  # IN1, or IN0 when this cell is a root
            cp.add(step[v] > 0).only_enforce_if([~lit for lit in lits])
            for lit in lits:
                cp.add(step[v] == 0).only_enforce_if(lit)
                if every:
                    cp.add(outgoing >= 1).only_enforce_if(lit)
        for r, c, stone in inst.clues():
            cp.add(color[r, c] == (stone == BLACK))
        if not every:  # the 2x2 rule, implied by the seed's trees but not by spanning trees
            for r in range(rows - 1):
                for c in range(cols - 1):
                    block = [color[r + i, c + j] for i in (0, 1) for j in (0, 1)]
                    cp.add_bool_or(block)
                    cp.add_bool_or([~x for x in block])
        m.handles.update(black=color)
        return m

    def skip(self, inst: Instance) -> str | None:
        if self.params["root"] != "first-stone":
            return None
        stones = first_stones(inst)
        missing = [name for name, tok in (("white", WHITE), ("black", BLACK)) if tok not in stones]
        if missing:
            return (f"the seed model needs a given stone of each colour; this board has no "
                    f"{' and no '.join(missing)} stone")
        return None

    def roots(self, inst: Instance, cp: Any, color: dict[Cell, Any],
              cells: list[Cell]) -> dict[Cell, list[Any]]:
        """The cells that may be roots, each with the literals that make it one: ``[]`` for
        the seed's fixed roots, one literal per colour with ``root=model``."""
        if self.params["root"] == "first-stone":
            return {v: [] for v in first_stones(inst).values()}
        out: dict[Cell, list[Any]] = {v: [] for v in cells}
        for colour in (True, False):  # the first cell of each colour in row-major order
            seen = None  # some earlier cell has this colour
            for v in cells:
                lit = color[v] if colour else ~color[v]
                root = cp.new_bool_var(f"root_{int(colour)}_{v[0]}_{v[1]}")
                if seen is None:
                    cp.add(root == lit)
                else:
                    cp.add_bool_and([lit, ~seen]).only_enforce_if(root)
                    cp.add_bool_or([~lit, seen, root])
                out[v].append(root)
                nxt = cp.new_bool_var(f"seen_{int(colour)}_{v[0]}_{v[1]}")
                cp.add_max_equality(nxt, [lit] if seen is None else [lit, seen])
                seen = nxt
        return out

    def post(self, model: CpsatModel, cuts: list[Cut]) -> int:
        return add_cuts(model.model, model.handles["black"], cuts)
