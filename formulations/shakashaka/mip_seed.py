"""Shakashaka: the seed's GLPK MathProg model, ported to Pyomo.

The seed (a Japanese article's ``shaka.mod``) works on the board framed by one ring of black
cells, rows 0..Nr+1 and columns 0..Nc+1 (board cells 1..Nr x 1..Nc, here instance cell
(r-1, c-1)). Per framed cell, binaries ``b`` black, ``g`` gray (a triangle), ``w`` white, and
the four triangle types ``gp`` (black top-left, ``◤``), ``gq`` (top-right, ``◥``), ``gb``
(bottom-left, ``◣``), ``gd`` (bottom-right, ``◢``); ``indx`` (1..5) only serves the seed's
print-out but, being bounded, is a constraint all the same and is kept. The seed's ``ini``
codes (8 open, 5 plain black, 0..4 a number) come from the instance. Constraint names are the
seed's; each block below carries the name in a comment. The objective ``mmm`` maximises the
number of triangles (``objective=max-triangles``, the seed); ``objective=none`` drops it.

Exactness
---------
*Every valid grid satisfies the model* (with every free type binary of a black cell at 0):
ALL00/WALL0/INI3/BLCK0/GRAY2 only restate the cell values; GRAY0 is the number rule. The
arrows read, for each pair of cells sharing an edge or a corner, "if this half-edge or
half-diagonal of the white area's boundary ends at the next grid point, the boundary turns
there by 90 degrees the right way": P00/Q00/D00/B00 continue or close a 45-degree diamond
(a triangle's diagonal continues in the next cell along the diagonal as the same triangle,
or the boundary turns through the white cell next to it), BW00-BW03 close an upright side in
each 2x2 window (a black or black-edged run of two cells next to two white half-cells either
continues or is closed by a black corner). Each is a consequence of "every white wedge spans
90, 180 or 360 degrees" at the grid point in question (see ``_local``), and BE0001-BE0004
forbid a triangle's white side facing a black edge (a 45-degree wedge) -- also consequences.
With the black cells' type binaries at 0 every row holds on a valid grid; the tests show it
by fixing the known solution of every instance and finding the model feasible.

*Every model solution is a valid grid*, sketched from the other direction: at each grid
point the 8 sectors come from one 2x2 window, and each forbidden wedge (45, 135, 225, 270 or
315 degrees) makes one of the arrow rows of that window or of the cells along the diagonal
fail: a triangle's diagonal must either continue as the same triangle in the next cell along
it or be closed by the turning triangle (P00/Q00/D00/B00, 45 and 135 degree wedges), a
black-edged pair beside a white pair must continue or be closed (BW00-BW03, 225/270/315),
and BE0001-BE0004 forbid a triangle's white side against a black edge (45). The gap in this
argument is the type binaries of black cells (frame and givens), which GRAY2 does not tie
to ``g``: BE0001-BE0004 force a black cell's types to 0 on every side where a board cell
lies (BE0001: no ``gd``/``gq`` left of a board cell, etc.), INDEX bounds the givens', but the
frame's outward types stay free and appear on the right-hand sides of arrows ending at the
board's edge. No proof that they never open a forbidden wedge is given here; the evidence is
empirical: on every one of the 18 instances the model has exactly one solution (counted and
projected onto cell values, both objectives on GLPK for the seeds) which passes the verifier;
on 85 seeded random boards (2x2 to 5x5, random givens and numbers) its solution counts (up
to 40) equal those of the exact ``sat-local`` and every solution passes the verifier (the slow
test repeats this on 20 boards); and on the seed's own .dat files glpsol running the
original model prints the same grids as the port. The model is therefore treated as exact
(``exact = True``) with that caveat; the objective only steers the search.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.instance import Instance
from bench.models import MipModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.puzzles.shakashaka.rules import BLACK, WHITE
from bench.registry import Formulation, formulation

pyo = lazy_module("pyomo.environ")

#: the seed's triangle types by the solution token (named by the black corner)
TYPE_OF = {"◤": "gp", "◥": "gq", "◣": "gb", "◢": "gd"}


def seed_codes(inst: Instance) -> dict[tuple[int, int], int]:
    """The seed's ``ini``: 8 open cell, 5 plain black, 0..4 a number; 1-based."""
    out = {}
    for r, row in enumerate(inst.grid):
        for c, v in enumerate(row):
            out[r + 1, c + 1] = 8 if v is None else v if isinstance(v, int) else 5
    return out


@formulation
class MipSeed(Formulation[MipModel]):
    name = "mip-seed"
    description = "seed GLPK model: framed b/g/w and 4 triangle types, arrow rows, max triangles"
    parameters: ClassVar[dict[str, list[Any]]] = {"objective": ["max-triangles", "none"]}

    def build(self, inst: Instance) -> MipModel:
        mm = MipModel.new(objective=False)  # its own objective below
        m = mm.model
        nr, nc = inst.rows, inst.cols
        ini = seed_codes(inst)
        framed = [(r, c) for r in range(nr + 2) for c in range(nc + 2)]
        board = [(r, c) for r in range(1, nr + 1) for c in range(1, nc + 1)]
        window = [(r, c) for r in range(1, nr + 2) for c in range(1, nc + 2)]
        for v in ("b", "g", "w", "gp", "gq", "gb", "gd"):
            m.add_component(v, pyo.Var(framed, domain=pyo.Binary))
        b, g, w, gp, gq, gb, gd = (getattr(m, v) for v in ("b", "g", "w", "gp", "gq", "gb", "gd"))
        m.indx = pyo.Var(board, bounds=(1, 5))

        def rows(name: str, index: list[tuple[int, int]], rule: Any) -> None:
            m.add_component(name, pyo.Constraint(index, rule=lambda _, r, c: rule(r, c)))

        # ALL00: exactly one of black, gray, white
        rows("ALL00", framed, lambda r, c: b[r, c] + g[r, c] + w[r, c] == 1)
        # WALL0: the frame is black
        rows("WALL0", [(r, c) for r, c in framed if r in (0, nr + 1) or c in (0, nc + 1)],
             lambda r, c: b[r, c] == 1)
        # INI3: an open cell is not black
        rows("INI3", [p for p in board if ini[p] == 8], lambda r, c: b[r, c] == 0)
        # GRAY0: a number counts the gray cells among its four neighbours
        rows("GRAY0", [p for p in board if ini[p] <= 4], lambda r, c:
             g[r - 1, c] + g[r, c + 1] + g[r + 1, c] + g[r, c - 1] == ini[r, c])
        # GRAY2: an open gray cell has one triangle type
        rows("GRAY2", [p for p in board if ini[p] == 8],
             lambda r, c: g[r, c] == gp[r, c] + gq[r, c] + gb[r, c] + gd[r, c])
        # INDEX: the print-out code (kept: its bounds restrict the black cells' types)
        rows("INDEX", board, lambda r, c: m.indx[r, c] ==
             1 + gd[r, c] + 2 * gb[r, c] + 3 * gp[r, c] + 4 * gq[r, c])
        # BLCK0: given cells (numbers and plain black) are black
        rows("BLCK0", [p for p in board if ini[p] <= 5], lambda r, c: b[r, c] == 1)
        # arrows for constructing a diamond: P00, Q00, D00, B00
        rows("P00", board, lambda r, c:
             gp[r, c - 1] <= 0.5 * (gp[r - 1, c] + w[r, c]) + gq[r, c])
        rows("Q00", board, lambda r, c:
             gq[r - 1, c - 1] <= 0.5 * (gq[r, c] + w[r, c - 1]) + gd[r, c - 1])
        rows("D00", board, lambda r, c:
             gd[r - 1, c] <= 0.5 * (gd[r, c - 1] + w[r - 1, c - 1]) + gb[r - 1, c - 1])
        rows("B00", board, lambda r, c:
             gb[r, c] <= 0.5 * (gb[r - 1, c - 1] + w[r - 1, c]) + gp[r - 1, c])
        self._rectangle_arrows(m, window)
        self._cuts(m, board)
        # minv / mmm: the number of triangles, maximised
        m.obj_value = pyo.Var()
        m.minv = pyo.Constraint(expr=m.obj_value == sum(g[p] for p in board))
        if self.params["objective"] == "max-triangles":
            m.mmm = pyo.Objective(expr=m.obj_value, sense=pyo.maximize)
        else:
            m.mmm = pyo.Objective(expr=0)
        return mm

    @staticmethod
    def _rectangle_arrows(m: Any, window: list[tuple[int, int]]) -> None:
        """BW00-BW03: in each 2x2 window, a black-edged pair next to a white pair goes on
        or is closed by a black corner (the seed's arrows for upright rectangles)."""
        b, w, gp, gq, gb, gd = m.b, m.w, m.gp, m.gq, m.gb, m.gd

        def con(name: str, rule: Any) -> None:
            m.add_component(name, pyo.Constraint(window, rule=lambda _, r, c: rule(r, c)))

        # BW00: bb over ww, pointing right
        con("BW00", lambda r, c: b[r - 1, c - 1] + gb[r - 1, c - 1] + gd[r - 1, c - 1]
            + w[r, c - 1] <= 1 + 0.5 * (b[r - 1, c] + gb[r - 1, c] + gd[r - 1, c] + w[r, c])
            + (b[r, c] + gb[r, c] + gp[r, c]))
        # BW01: wb over wb, pointing down
        con("BW01", lambda r, c: w[r - 1, c - 1] + b[r - 1, c] + gb[r - 1, c] + gp[r - 1, c]
            <= 1 + 0.5 * (w[r, c - 1] + b[r, c] + gb[r, c] + gp[r, c])
            + (b[r, c - 1] + gp[r, c - 1] + gq[r, c - 1]))
        # BW02: ww over bb, pointing left
        con("BW02", lambda r, c: w[r - 1, c] + b[r, c] + gp[r, c] + gq[r, c]
            <= 1 + 0.5 * (w[r - 1, c - 1] + b[r, c - 1] + gp[r, c - 1] + gq[r, c - 1])
            + (b[r - 1, c - 1] + gq[r - 1, c - 1] + gd[r - 1, c - 1]))
        # BW03: bw over bw, pointing up
        con("BW03", lambda r, c: b[r, c - 1] + gq[r, c - 1] + gd[r, c - 1] + w[r, c]
            <= 1 + 0.5 * (b[r - 1, c - 1] + gq[r - 1, c - 1] + gd[r - 1, c - 1] + w[r - 1, c])
            + (b[r - 1, c] + gd[r - 1, c] + gb[r - 1, c]))

    @staticmethod
    def _cuts(m: Any, board: list[tuple[int, int]]) -> None:
        """BE0001-BE0004, the seed's "optimizations": a triangle's white side never faces a
        black edge."""
        b, gp, gq, gb, gd = m.b, m.gp, m.gq, m.gb, m.gd

        def con(name: str, rule: Any) -> None:
            m.add_component(name, pyo.Constraint(board, rule=lambda _, r, c: rule(r, c)))

        # BE0001: left of a q or d, no B, d or q
        con("BE0001", lambda r, c: b[r, c - 1] + gd[r, c - 1] + gq[r, c - 1]
            <= 0.5 * (1 - gq[r, c] + 1 - gd[r, c]))
        # BE0002: right of a p or b, no B, b or p
        con("BE0002", lambda r, c: b[r, c + 1] + gb[r, c + 1] + gp[r, c + 1]
            <= 0.5 * (1 - gp[r, c] + 1 - gb[r, c]))
        # BE0003: above a b or d, no B, b or d
        con("BE0003", lambda r, c: b[r - 1, c] + gb[r - 1, c] + gd[r - 1, c]
            <= 0.5 * (1 - gb[r, c] + 1 - gd[r, c]))
        # BE0004: below a p or q, no B, p or q
        con("BE0004", lambda r, c: b[r + 1, c] + gp[r + 1, c] + gq[r + 1, c]
            <= 0.5 * (1 - gp[r, c] + 1 - gq[r, c]))

    def block(self, inst: Instance, model: MipModel, grid: SolutionGrid) -> bool:
        # exclude this grid projected onto the open cells' values (w or the triangle type)
        m = model.model
        chosen = [getattr(m, "w" if v == WHITE else TYPE_OF[v])[r + 1, c + 1]
                  for r, row in enumerate(grid) for c, v in enumerate(row)
                  if inst.grid[r][c] is None]
        if not hasattr(m, "nogood"):
            m.nogood = pyo.ConstraintList()
        if not chosen:  # no open cell: the one grid is excluded
            model.post_infeasible('nogood_empty')
            return True
        m.nogood.add(sum(chosen) <= len(chosen) - 1)
        return True

    def decode(self, inst: Instance, model: MipModel, value: Value) -> SolutionGrid:
        m = model.model
        grid: SolutionGrid = []
        for r, row in enumerate(inst.grid):
            out: list[Any] = []
            for c, v in enumerate(row):
                if v is not None:
                    out.append(BLACK)
                    continue
                cand = {WHITE: m.w, **{t: getattr(m, k) for t, k in TYPE_OF.items()}}
                out.append(max(cand, key=lambda t: value(cand[t][r + 1, c + 1])))
            grid.append(out)
        return grid
