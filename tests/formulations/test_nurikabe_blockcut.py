"""The wall's articulation search (:func:`formulations.nurikabe._wall.separators`) against
the per-cell Hopcroft-Tarjan pass up the depth-first tree it replaces: the same visiting
order and the same ``(p, start, stop, b)`` tuples on random grids, long corridors and
spirals (deep trees), and the same literals handed to CaDiCaL in whole solves."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse.csgraph import depth_first_order

from formulations.nurikabe._propagator import NurikabePropagator
from formulations.nurikabe._wall import CutWhy, Why, dfs_graph, grid_table, separators
from tests.formulations.propagator_run import Traced as Handed
from tests.formulations.propagator_run import drive

ROOT = Path(__file__).resolve().parents[2]
HARDER = [ROOT / "instances" / "nurikabe" / "few" / f"gen-nurikabe-10x10-s{s}-cover70-0.txt"
          for s in (1, 2)] + [ROOT / "instances" / "nurikabe" / "big" /
                              "gen-nurikabe-20x20-s2-big1-0.txt"]


def reference(a: int, ina: Any, color: Any, tab: Any
              ) -> tuple[Any, list[tuple[int, int, int, int]]]:
    """The same search with subtree sizes and low points summed up the tree one position
    at a time in reverse visiting order (Hopcroft and Tarjan's pass, written out)."""
    n = len(ina)
    ind = np.where(ina[tab], tab, np.arange(n, dtype=np.int32))
    order, pred = depth_first_order(dfs_graph(n).__class__(
        (np.ones(4 * n), ind.T.ravel(), np.arange(0, 4 * n + 1, 4)), shape=(n, n)),
        a, directed=True, return_predecessors=True)
    k = len(order)
    disc = {int(c): i for i, c in enumerate(order.tolist())}
    cells = order.tolist()
    low = [min(disc.get(int(u), i) for u in ind[:, c]) for i, c in enumerate(cells)]
    parent = [0] + [disc[int(pred[c])] for c in cells[1:]]
    size = [1] * k
    tone = [int(color[c]) for c in cells]
    hits = []
    for i in range(k - 1, 0, -1):
        q = parent[i]
        size[q] += size[i]
        low[q] = min(low[q], low[i])
    for i in range(1, k):
        q = parent[i]
        black = [j for j in range(i, i + size[i]) if tone[j] == 1]
        if low[i] >= q and tone[q] == 0 and black:
            hits.append((cells[q], i, i + size[i], cells[black[0]]))
    return order, hits


def _component(rows: int, cols: int, color: list[int], a: int) -> Any:
    n = rows * cols
    seen, stack = {a}, [a]
    while stack:
        w = stack.pop()
        r, c = divmod(w, cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            u = rr * cols + cc
            if 0 <= rr < rows and 0 <= cc < cols and u not in seen and color[u] >= 0:
                seen.add(u)
                stack.append(u)
    return np.array([i in seen for i in range(n)])


def _spiral(rows: int, cols: int) -> list[int]:
    """A grid whose not-white cells are a one-cell-wide spiral (every other ring white)."""
    color = [-1] * (rows * cols)
    top, left, bottom, right = 0, 0, rows - 1, cols - 1
    while top <= bottom and left <= right:
        for c in range(left, right + 1):
            color[top * cols + c] = 0
        for r in range(top, bottom + 1):
            color[r * cols + right] = 0
        for c in range(left, right + 1):
            color[bottom * cols + c] = 0
        if top + 2 <= bottom:
            for r in range(top + 2, bottom + 1):
                color[r * cols + left] = 0
        top, left, bottom, right = top + 2, left + 2, bottom - 2, right - 2
    return color


def _grids(rng: random.Random) -> list[tuple[int, int, list[int]]]:
    out = []
    for _ in range(300):  # random blobs
        rows, cols = rng.randint(1, 16), rng.randint(1, 16)
        white, black = rng.uniform(0.05, 0.45), rng.uniform(0.01, 0.3)
        out.append((rows, cols, [-1 if rng.random() < white else
                                 (1 if rng.random() < black else 0)
                                 for _ in range(rows * cols)]))
    for _ in range(60):  # corridors and spirals: trees hundreds of positions deep
        rows, cols = rng.randint(1, 3), rng.randint(50, 400)
        if rng.random() < 0.5:
            rows, cols = rng.randint(9, 31), rng.randint(9, 31)
            color = _spiral(rows, cols)
        else:
            color = [0 if rng.random() < 0.9 else -1 for _ in range(rows * cols)]
        open_ = [i for i, x in enumerate(color) if x == 0]
        for i in rng.sample(open_, min(len(open_), rng.randint(1, 6))):
            color[i] = 1
        out.append((rows, cols, color))
    return out


def test_separators_equal_the_per_cell_pass_on_random_grids_and_corridors() -> None:
    """Same visiting order, same separators, subtrees and first black cells, in the same
    order, as the per-cell pass, on random blobs and on corridors and spirals up to 400
    positions deep (where too few pointer-jumping rounds would end a subtree early)."""
    rng = random.Random(5)
    named = deep = 0
    for rows, cols, color in _grids(rng):
        dark = [i for i, x in enumerate(color) if x == 1]
        if not dark:
            continue
        a = rng.choice(dark)
        ina = _component(rows, cols, color, a)
        tone, tab = np.array(color, dtype=np.int8), grid_table(rows, cols)
        order, seps = separators(a, ina, tone, tab, dfs_graph(rows * cols))
        ref_order, ref_seps = reference(a, ina, tone, tab)
        assert order.tolist() == ref_order.tolist()
        assert seps == ref_seps, (rows, cols)
        named += len(seps)
        deep += max((stop - start for _, start, stop, _ in seps), default=0) > 100
    assert named > 500 and deep >= 8


class ByReference(NurikabePropagator):
    """The propagator with the articulation search of :func:`reference`."""

    def _cut(self, found: dict[int, Why]) -> None:
        self.cuts += 1
        ina = (self.lab == self.la) & (self.color >= 0)
        a, black = self.anchor, self.black
        order, seps = reference(a, ina, self.color, self.tab)
        self.cut_out = frozenset(p for p, *_ in seps)
        for p, start, stop, b in seps:
            x = black[p]
            if x not in found:
                found[x] = CutWhy(order, start, stop, p, (-black[a], -black[b]))


class Traced(Handed):
    """Keeps what every propagate handed the solver and every reason it gave."""

    def provide_reason(self, lit: int) -> list[int]:
        reason = super().provide_reason(lit)
        self.trace.append(tuple(reason))
        return reason


class TracedReference(ByReference, Traced):
    pass


def test_the_solver_is_handed_the_same_literals_and_reasons() -> None:
    """Whole solves (600 conflicts) of the few-clue 10x10s and a 20x20 with a big island:
    every propagate hands the same literals in the same order and every reason is the same
    clause with the whole-array search as with the per-cell pass."""
    for path in HARDER:
        ref = drive(path, TracedReference, 600)
        new = drive(path, Traced, 600)
        assert len(new.trace) > 1000
        assert new.trace == ref.trace, path.name
