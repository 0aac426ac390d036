"""Fillomino: the seed's integer program (CPLEX-LP form), ported to Pyomo as ``mip-seed``.

Source: seed document 004_c4d13d12cf7702c5 (docs/instances.md, "The seed documents").
Variables, all binary, for cells (i, j) and numbers k = 1..Nmax:

* ``B[v, k]``: cell v holds k;
* ``L/R/U/D[v, k]``: the neighbour on that side holds k too, in the same k-block;
* ``C[v, w, k]``: cells v and w are in the same k-block, for ordered pairs of cells (v = w
  included) — with ``pairs=near`` (the author's restriction, the default) only where the
  Manhattan distance is below k, with ``pairs=all`` for every pair. This five-index family is
  what the author names as the reason the program runs out of memory.

Constraints, numbered as in the document: 1 one number per cell (ONE); 2 the givens (GIVEN);
3 a 1 has no equal neighbour (K1), a k >= 2 has one (NB); 4 links exist only between equal
numbers (NOLINK1 for k = 1; LINK for k >= 2: ``B[v] + B[n] - X <= 1``, ``X <= B[v]``,
``X <= B[n]``); 5 no isolated domino of k >= 3 (DOMH, DOMV); 6 C symmetric (SYM); 7 C agrees
with the links (LINKC); 8 C propagates along links (CLOSE); 9 C blocked where links are absent,
by big-M (OPEN, M = 1: every term is binary); 10 each k-cell has exactly k partners, itself
included (SIZE). The objective is a dummy (minimise 0). ``Nmax`` is the largest given number
plus one (the author has never seen a larger free block).

Where the document's text and its intent part, the port follows the intent and says so:

* 5, horizontal: the document lists ``B(I+1,J+2,K)`` among the cells round the domino
  ``(I,J),(I,J+1)``; the cell meant is ``(I,J+2)`` (the vertical twin lists ``B(I+2,J,K)``).
  Taken literally it would forbid every horizontal straight block of three or more.
* 6: the range "II > I, JJ > J" leaves out pairs such as ``(I,J),(I,J+1)``; symmetry is meant
  for every pair.
* 8, 9 with ``pairs=near``: a C that the restriction leaves out is 0 (the pair cannot be in
  one block of k cells).

Why the program is not exact (``exact=False``), each shown by a test:

* ``Nmax`` cuts off every solution with a block larger than the largest given plus one;
* 6-10 never say that a block is connected: C is constant on each linked piece of k-cells and
  SIZE counts the partners, so two separate pieces of k-cells whose sizes add up to k (each of
  two or more cells, rule 3; not an isolated domino for k >= 3, rule 5) pass as one block —
  the harness's verifier records such a grid as ``wrong``.

:func:`model_size` predicts the number of variables and constraints from the grid alone, so a
report can show the size of a model whose construction ran out of memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from bench.grid import Cell, all_cells, neighbours
from bench.instance import Instance
from bench.models import MipModel, Value, lazy_module
from bench.puzzles import SolutionGrid
from bench.registry import Formulation, formulation

pyo = lazy_module("pyomo.environ")

SIDES = {"L": (0, -1), "R": (0, 1), "U": (-1, 0), "D": (1, 0)}


def nmax(inst: Instance) -> int:
    """The seed's number range: the largest given number plus one."""
    return max((v for _, _, v in inst.clues()), default=0) + 1


def partners(v: Cell, k: int, rows: int, cols: int, pairs: str) -> Iterator[Cell]:
    """The cells w with a variable C[v, w, k]: all, or those nearer than k (``near``)."""
    if pairs == "all":
        yield from all_cells(rows, cols)
        return
    r, c = v
    for rr in range(max(0, r - k + 1), min(rows, r + k)):
        span = k - 1 - abs(rr - r)
        for cc in range(max(0, c - span), min(cols, c + span + 1)):
            yield rr, cc


def side(v: Cell, s: str, rows: int, cols: int) -> Cell | None:
    r, c = v[0] + SIDES[s][0], v[1] + SIDES[s][1]
    return (r, c) if 0 <= r < rows and 0 <= c < cols else None


def model_size(inst: Instance, pairs: str = "near") -> dict[str, int]:
    """Variables and constraints of the seed program for this grid, counted without building
    it, in closed form over cell offsets (so also for grids whose model is too large to
    build): the pairs within Manhattan distance ``k - 1`` (``near``) or all pairs, and the
    same pairs weighted by the second cell's degree (rules 8, 9 loop over its sides)."""
    rows, cols, top = inst.rows, inst.cols, nmax(inst)
    n = rows * cols
    links = 2 * (rows * (cols - 1) + (rows - 1) * cols)
    within = _offset_counts(rows, cols)  # within[m]: ordered pairs at distance m (v, w)
    sided = _offset_counts(rows, cols, sides=True)  # the same, times deg(w)
    c_vars = c_pairs = close = 0
    for k in range(1, top + 1):
        reach = k - 1 if pairs == "near" else rows + cols
        ball = int(within[: reach + 1].sum())
        c_vars += ball
        c_pairs += (ball - n) // 2  # symmetric, v itself included once
        if k >= 2:
            close += int(sided[: reach + 1].sum())
    variables = n * top + links * top + c_vars
    dom = rows * (cols - 1) + (rows - 1) * cols
    constraints = (n  # 1; 2 fixes variables, no rows
                   + links + n * (top - 1)  # 3
                   + n + 3 * links * (top - 1)  # 4
                   + dom * max(0, top - 2)  # 5
                   + c_pairs  # 6
                   + links * (top - 1)  # 7
                   + 2 * close  # 8, 9
                   + n * top)  # 10
    return {"variables": variables, "constraints": constraints}


def _offset_counts(rows: int, cols: int, sides: bool = False) -> Any:
    """``out[m]``: ordered pairs of cells (v, w) at Manhattan distance m; with ``sides``, each
    weighted by the number of w's neighbours. A pair's row offset and column offset are
    independent, so the count is a product of two one-dimensional counts; w's degree is the sum
    over its four sides of "the neighbour there exists", each a restriction of one dimension."""
    import numpy as np

    def line(size: int, drop: int | None = None) -> Any:
        """Pairs (a, b) of positions 0..size-1 by offset b - a + size - 1; ``drop`` excludes
        b at that end (0 or size - 1): b has no neighbour beyond it."""
        out = np.zeros(2 * size - 1, dtype=np.int64)
        for b in range(size):
            if b != drop:
                out[b - np.arange(size) + size - 1] += 1
        return out

    dist = (np.abs(np.arange(-(rows - 1), rows))[:, None]
            + np.abs(np.arange(-(cols - 1), cols))[None, :])
    full_r, full_c = line(rows), line(cols)
    if not sides:
        weight = np.outer(full_r, full_c)
    else:
        weight = (np.outer(line(rows, 0), full_c) + np.outer(line(rows, rows - 1), full_c)
                  + np.outer(full_r, line(cols, 0)) + np.outer(full_r, line(cols, cols - 1)))
    return np.bincount(dist.ravel(), weights=weight.ravel(),
                       minlength=rows + cols).astype(np.int64)


@formulation
class MipSeed(Formulation[MipModel]):
    name = "mip-seed"
    exact = False
    description = ("the seed's ILP: number and link binaries per cell, a same-block binary per "
                   "pair of cells and number (near pairs by default), Nmax = largest given + 1")
    parameters: ClassVar[dict[str, list[Any]]] = {"pairs": ["near", "all"]}

    def predicted_size(self, inst: Instance) -> dict[str, int] | None:
        return model_size(inst, self.params["pairs"])

    def build(self, inst: Instance) -> MipModel:
        rows, cols, top = inst.rows, inst.cols, nmax(inst)
        pairs = self.params["pairs"]
        cells = all_cells(rows, cols)
        idx = {v: i for i, v in enumerate(cells)}  # Pyomo indices: cell numbers, not tuples
        ks = range(1, top + 1)
        nb = [[idx[n] for n in neighbours(v, rows, cols)] for v in cells]
        to = {(s, idx[v]): idx[w] for s in SIDES for v in cells
              if (w := side(v, s, rows, cols)) is not None}
        m = pyo.ConcreteModel()
        m.B = pyo.Var([(i, k) for i in range(len(cells)) for k in ks], domain=pyo.Binary)
        link_idx = [(s, i, k) for (s, i) in to for k in ks]
        m.X = pyo.Var(link_idx, domain=pyo.Binary)  # X[s, v, k]: the seed's L/R/U/D(v, k)
        c_idx = [(idx[v], idx[w], k) for k in ks for v in cells
                 for w in partners(v, k, rows, cols, pairs)]
        m.C = pyo.Var(c_idx, domain=pyo.Binary)
        B, X = m.B, m.X
        n = len(cells)
        m.ONE = pyo.Constraint(range(n), rule=lambda _, i: sum(B[i, k] for k in ks) == 1)  # 1
        for r, col, k in inst.clues():  # 2
            if k <= top:
                B[idx[r, col], k].fix(1)
        k1 = [(i, j) for i in range(n) for j in nb[i]]
        m.K1 = pyo.Constraint(k1,  # 3: a 1 has no equal neighbour
                              rule=lambda _, i, j: B[i, 1] + B[j, 1] <= 1)
        m.NB = pyo.Constraint(  # 3: a k >= 2 has one
            [(i, k) for i in range(n) for k in ks if k >= 2],
            rule=lambda _, i, k: sum(B[j, k] for j in nb[i]) >= B[i, k])
        m.NOLINK1 = pyo.Constraint(  # 4, k = 1
            range(n), rule=lambda _, i: sum(X[s, i, 1] for s in SIDES if (s, i) in to) == 0)
        links2 = [t for t in link_idx if t[2] >= 2]
        m.LINKa = pyo.Constraint(links2, rule=lambda _, s, i, k:  # 4
                                 B[i, k] + B[to[s, i], k] - X[s, i, k] <= 1)
        m.LINKb = pyo.Constraint(links2, rule=lambda _, s, i, k: X[s, i, k] <= B[i, k])
        m.LINKc = pyo.Constraint(links2, rule=lambda _, s, i, k: X[s, i, k] <= B[to[s, i], k])
        self.dominoes(m, inst, top)  # 5
        self.same_block(m, c_idx, to, links2, n, ks)  # 6-10
        m.obj = pyo.Objective(expr=0)  # the seed's dummy objective
        mm = MipModel(m)
        mm.handles.update(B=B, top=top)
        return mm

    @staticmethod
    def same_block(m: Any, c_idx: list[tuple[int, int, int]], to: dict[tuple[str, int], int],
                   links2: list[tuple[str, int, int]], n: int, ks: range) -> None:
        """6-10: the same-block pairs C, symmetric, agreeing with and closed along the links,
        counted per cell."""
        B, X, C = m.B, m.X, m.C
        has_c = set(c_idx)

        def c(i: int, j: int, k: int) -> Any:
            return C[i, j, k] if (i, j, k) in has_c else 0

        m.SYM = pyo.Constraint([t for t in c_idx if t[1] > t[0]],  # 6, every pair
                               rule=lambda _, i, j, k: C[i, j, k] == C[j, i, k])
        m.LINKC = pyo.Constraint(links2, rule=lambda _, s, i, k:  # 7
                                 X[s, i, k] == c(i, to[s, i], k))
        close = [(i, j, k, s) for (i, j, k) in c_idx if k >= 2 for s in SIDES if (s, j) in to]
        m.CLOSE = pyo.Constraint(range(len(close)), rule=lambda _, t: (  # 8
            X[close[t][3], close[t][1], close[t][2]] + C[close[t][:3]]
            - c(close[t][0], to[close[t][3], close[t][1]], close[t][2]) <= 1))
        m.OPEN = pyo.Constraint(range(len(close)), rule=lambda _, t: (  # 9, big-M with M = 1
            c(close[t][0], to[close[t][3], close[t][1]], close[t][2])
            <= C[close[t][:3]] + 1 * (1 - X[close[t][3], close[t][1], close[t][2]])))
        by_cell: dict[tuple[int, int], list[Any]] = {}
        for i, j, k in c_idx:
            by_cell.setdefault((i, k), []).append(C[i, j, k])
        m.SIZE = pyo.Constraint([(i, k) for i in range(n) for k in ks],  # 10
                                rule=lambda _, i, k: pyo.quicksum(by_cell[i, k]) == k * B[i, k])

    @staticmethod
    def dominoes(m: Any, inst: Instance, top: int) -> None:
        """5: no isolated domino of k >= 3, horizontal (DOMH) and vertical (DOMV); DOMH names
        ``(I,J+2)`` where the document prints ``(I+1,J+2)`` (see the module docstring)."""
        rows, cols, B, X = inst.rows, inst.cols, m.B, m.X

        def around(cells: list[tuple[int, int]], k: int) -> Any:
            return sum(B[r * cols + c, k] for r, c in cells if 0 <= r < rows and 0 <= c < cols)

        ks = range(3, top + 1)
        m.DOMH = pyo.Constraint(
            [(r, c, k) for r in range(rows) for c in range(cols - 1) for k in ks],
            rule=lambda _, r, c, k: X["R", r * cols + c, k] <= around(
                [(r - 1, c), (r, c - 1), (r + 1, c), (r - 1, c + 1), (r + 1, c + 1), (r, c + 2)],
                k))
        m.DOMV = pyo.Constraint(
            [(r, c, k) for r in range(rows - 1) for c in range(cols) for k in ks],
            rule=lambda _, r, c, k: X["D", r * cols + c, k] <= around(
                [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c - 1), (r + 1, c + 1), (r + 2, c)],
                k))

    def decode(self, inst: Instance, model: MipModel, value: Value) -> SolutionGrid:
        B, top = model.handles["B"], model.handles["top"]
        return [[next((k for k in range(1, top + 1) if value(B[r * inst.cols + c, k]) > 0.5), 0)
                 for c in range(inst.cols)] for r in range(inst.rows)]

    def block(self, inst: Instance, model: MipModel, grid: SolutionGrid) -> bool:
        # projected onto the cell numbers: some cell holds another number
        m, B, top = model.model, model.handles["B"], model.handles["top"]
        if not hasattr(m, "nogood"):
            m.nogood = pyo.ConstraintList()
        m.nogood.add(sum(1 - B[r * inst.cols + c, grid[r][c]] for r in range(inst.rows)
                         for c in range(inst.cols) if grid[r][c] <= top) >= 1)
        return True
