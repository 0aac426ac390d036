"""The wall's reasoning in :class:`formulations.nurikabe._propagator.NurikabePropagator`: its
connectivity over the current partial assignment, its articulation cells, and the check of
complete assignments. Every reason and conflict clause holds in every solution (``B`` is the
wall's size, ``cells - sum(clues)``, which the CNF's island sizes fix):

* wall: the components of the not-white cells (numbered as ``scipy.ndimage.label`` numbers
  them; compiled, :func:`formulations.nurikabe._compiled.label`, with numba). With a black cell
  ``a`` in component ``A`` whose white boundary is ``W``: "a black and every cell of W white"
  confines the wall to A, so (i) another black cell ``b`` outside A is a conflict
  ``(-a, -b, W)``; (ii) ``|A| < B`` is a conflict ``(-a, W)``; (iii) ``|A| = B`` makes every
  cell of A black, reason ``(x, -a, W)``; (iv) a cell outside A is white, reason
  ``(-x, -a, W)``. Before any cell is black, a component of fewer than ``B`` cells is white,
  reason ``(-x, W(C))``. A cell of A turning white is not relabelled when its not-white
  neighbours stay joined (through the eight cells around it, or a search of at most
  ``REACH`` cells of A): A only shrinks, and the cells turned white join W.
* articulation (``cut``): a depth-first search of A from ``a`` with Hopcroft-Tarjan low
  points (one compiled pass, :mod:`formulations.nurikabe._compiled`; without numba, scipy's
  search and low points as range minima over its subtrees); an undecided cell
  ``p`` with a child subtree S that no edge joins above ``p`` and that holds a black cell
  ``b`` is black,
  reason ``(p, -a, -b, the white cells next to S)``: S's only other neighbour is ``p``, so
  with p white b cannot reach a. The search runs at a fixpoint of the cheaper rules after
  the wall was relabelled, after a cell of A turned white whose not-white neighbours join
  only through a detour (not through the eight cells around it), and after a backtrack when
  the level backed up to changed since its own last search in a way that search did not
  foresee (a black cell it did not infer, a white cell of the kind below), or does so before
  the next fixpoint; otherwise that search's cut cells are all the solver's already (a black
  cell it inferred, p, adds no cut cell: a cell cutting p off the anchor also cuts off the
  black cell p cut off), and a search would hand it nothing new. A
  cell whose neighbours stay joined around it can make only a cell among those eight a new
  cut cell (the white cells around it form one arc), and a new black cell only gives an
  existing cut cell a black side: such changes do not start a search, so an inference of
  this kind may wait for the next search (never unsound; the check of complete
  assignments rejects any split wall).
* complete assignments: the black cells form one component, and every white component holds
  a clue; otherwise ``(-a, W)`` for the black piece of ``a`` or ``(white d, -white n for the
  black boundary N of the white piece D)`` -- the cuts of :mod:`bench.encodings.cells`.

Sources: connectivity as a monotone graph predicate with cuts as reasons -- S. Bayless,
N. Bayless, H. H. Hoos, A. J. Hu, "SAT Modulo Monotonic Theories", AAAI 2015 (MonoSAT);
graph checks as CDCL propagators explained from the current assignment -- M. Gebser,
T. Janhunen, J. Rintanen, "SAT Modulo Graphs: Acyclicity", JELIA 2014; articulation points
from depth-first low points -- J. Hopcroft, R. Tarjan, "Algorithm 447: efficient algorithms
for graph manipulation", CACM 16(6), 1973; subtree ends and minima over whole arrays --
pointer jumping (J. C. Wyllie, 1979) and sparse-table range minima (M. A. Bender,
M. Farach-Colton, LATIN 2000).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import ndimage
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import depth_first_order

from formulations.nurikabe import _compiled as compiled

#: 4-connectivity for ``scipy.ndimage.label``
CROSS = ndimage.generate_binary_structure(2, 1)

#: how many cells the search for a detour around a cell turned white may visit before the
#: wall is relabelled instead
REACH = 64


@dataclass(frozen=True)
class CutWhy:
    """The reason of an articulation inference, made only when the solver asks: the cell
    ``p`` is black, or the anchor or the black cell ``b`` is not, or a cell next to the
    subtree ``order[start:stop]`` (all white when it was inferred: the subtree's only other
    neighbour is ``p``) is not white."""

    order: Any  # int array: the search's visiting order
    start: int
    stop: int
    p: int
    head: tuple[int, int]


Why = tuple[int, ...] | CutWhy


@dataclass
class Shadow:
    """An articulation search kept for :mod:`formulations.nurikabe._cutstep`: its anchor,
    visiting order and every cut subtree of an open cell, ``(p, start, stop, b)`` by start
    (``b = -1``: no black cell in it then); ``disc``, each cell's position (-1: not
    visited), made when first needed."""

    order: Any
    anchor: int
    subs: list[tuple[int, int, int, int]]
    disc: Any = None


def grid_table(rows: int, cols: int) -> Any:
    """Each cell's four neighbours (N, S, W, E) as a 4 x ``rows * cols`` int32 array, the cell
    itself where the neighbour is off the grid."""
    n = rows * cols
    cell = np.arange(n, dtype=np.int32)
    r, c = cell // cols, cell % cols
    return np.stack([np.where(r > 0, cell - cols, cell), np.where(r < rows - 1, cell + cols, cell),
                     np.where(c > 0, cell - 1, cell), np.where(c < cols - 1, cell + 1, cell)])


def dfs_graph(n: int) -> Any:
    """A ``n`` x ``n`` sparse matrix with four entries a row, for :func:`separators` to write
    each search's edges into (a self-loop each until then)."""
    return csr_matrix((np.ones(4 * n), np.repeat(np.arange(n, dtype=np.int32), 4),
                       np.arange(0, 4 * n + 1, 4, dtype=np.int32)), shape=(n, n))


def separators(a: int, ina: Any, color: Any, tab: Any, graph: Any = None, every: bool = False
               ) -> tuple[Any, list[tuple[int, int, int, int]]]:
    """A depth-first search from cell ``a`` over the cells the boolean array ``ina`` marks,
    with Hopcroft-Tarjan low points: its visiting order (an int array), and for every open
    cell ``p`` (``color[p] == 0``) with a child ``v`` whose subtree no edge joins above ``p``
    and holds a black cell (``color == 1``): ``(p, start, stop, b)``, the subtree being
    ``order[start:stop]`` and ``b`` its first black cell in that order; listed by ``start``.

    With numba, one compiled pass (:mod:`formulations.nurikabe._compiled`: the same
    visiting order and result); without, :func:`separators_scipy`: the search is scipy's
    (``csgraph.depth_first_order``: a true depth-first search, every edge off the tree joins
    a cell to an ancestor) over the grid's edges inside
    ``ina`` (``tab``: :func:`grid_table`; a missing neighbour points at the cell itself, which
    a search never follows), written into ``graph`` (:func:`dfs_graph`) when given, which
    spares building and checking a new matrix every search; the separators are
    :func:`cut_subtrees` of its tree; ``every``: the cut subtrees of open cells without a
    black cell too, with ``b = -1``."""
    if compiled.search is not None:
        order, rows = compiled.search(a, ina, color, tab, every)
        return order, list(map(tuple, rows.tolist()))
    return separators_scipy(a, ina, color, tab, graph, every)


def separators_scipy(a: int, ina: Any, color: Any, tab: Any, graph: Any = None,
                     every: bool = False) -> tuple[Any, list[tuple[int, int, int, int]]]:
    """:func:`separators` by scipy's search and whole-array numpy work (no numba)."""
    n = len(ina)
    ind = np.where(ina[tab], tab, np.arange(n, dtype=np.int32))
    if graph is None:
        graph = dfs_graph(n)
    graph.indices[:] = ind.T.ravel()
    order, pred = depth_first_order(graph, a, directed=True, return_predecessors=True)
    if len(order) < 2:
        return order, []
    return order, cut_subtrees(order, pred, ind, color, every)


def cut_subtrees(order: Any, pred: Any, ind: Any, color: Any, every: bool = False
                 ) -> list[tuple[int, int, int, int]]:
    """The ``(p, start, stop, b)`` of :func:`separators` from its depth-first tree (visiting
    ``order``, ``pred``ecessors, the neighbour table ``ind`` the search followed), by
    whole-array work over positions in the visiting order, where every subtree is a range
    ``[i, last[i]]``: ``last[i]``, the subtree's last position, is found by following each
    position's last child down to a leaf by pointer jumping (J. C. Wyllie, "The complexity of
    parallel computations", 1979: ``ceil(log2 k)`` rounds of ``last = last[last]``); a cell's
    low point is the least visiting time over its subtree's neighbours (the tree edge to its
    parent included: that changes no comparison with the parent's time, ``low[v] >=
    disc[p]``, which is all the test uses), a range minimum answered from a sparse table of
    the per-cell minima (M. A. Bender, M. Farach-Colton, "The LCA problem revisited", LATIN
    2000); a subtree's black cells are a difference of prefix counts. ``every``: the cut
    subtrees of open cells without a black cell too, with ``b = -1``."""
    n, k = ind.shape[1], len(order)
    pos = np.arange(k, dtype=np.int32)
    disc = np.zeros(n, dtype=np.int32)
    disc[order] = pos
    parent = np.zeros(k, dtype=np.int32)  # positions in the order
    parent[1:] = disc.take(pred.take(order[1:]))
    last = pos.copy()
    np.maximum.at(last, parent[1:], pos[1:])  # each position's last child (itself: a leaf)
    for _ in range(k.bit_length()):
        last = last.take(last)
    tone = color.take(order)
    dark = tone == 1
    count = np.zeros(k + 1, dtype=np.int32)  # black cells before each position
    np.cumsum(dark, out=count[1:])
    child = tone.take(parent) == 0
    if not every:
        child &= count.take(last + 1) > count[:k]
    child = np.flatnonzero(child)
    child = child[child > 0]  # open parent, a black cell in the subtree
    if len(child) == 0:
        return []
    top = k.bit_length() - 1
    table = np.empty((top + 1, k), dtype=np.int32)  # row j: minima over 2**j positions
    table[0] = disc.take(ind).min(axis=0).take(order)
    for j in range(1, top + 1):
        w = 1 << (j - 1)
        np.minimum(table[j - 1, :k - w], table[j - 1, w:], out=table[j, :k - w])
    end = last.take(child)
    row = np.log2(end - child + 1).astype(np.intp)
    flat = table.ravel()
    low = np.minimum(flat.take(row * k + child), flat.take(row * k + end + 1 - (1 << row)))
    cut = low >= parent.take(child)
    if not cut.any():
        return []
    hits, end = child[cut], end[cut]
    blacks = np.flatnonzero(dark)
    if every:  # a subtree's first black position past its end, or k: none (-1)
        at = np.append(blacks, k).take(np.searchsorted(blacks, hits))
        first = np.append(order, -1).take(np.where(at <= end, at, k))
    else:
        first = order.take(blacks.take(np.searchsorted(blacks, hits)))
    return list(zip(order.take(parent.take(hits)).tolist(), hits.tolist(),
                    (end + 1).tolist(), first.tolist(), strict=True))


class WallReasoning:
    """The wall's part of the propagator (a mixin: the state is the propagator's, set up and
    kept incrementally there; the names below are what this part reads and writes)."""

    rows: int
    cols: int
    blacks: int
    black: list[int]
    barr: Any  # numpy array of ``black``
    clues: frozenset[int]
    nbrs: list[list[int]]
    ring: list[list[int]]
    tab: Any  # grid_table(rows, cols): 4 x cells
    graph: Any  # dfs_graph(cells): the articulation search's edges, rewritten each search
    col: list[int]
    color: Any  # numpy int8 array: 1 black, -1 white, 0 open
    lab: Any  # numpy int32 array: the not-white components at the last labelling
    labl: list[int]
    la: int
    anchor: int
    wsize: int
    wtail: tuple[int, ...] | None
    extra: list[int]
    cut: bool
    step: bool
    shadow: Shadow | None
    cut_dirty: bool
    cut_out: frozenset[int]
    pending: list[int] | None
    relabels: int
    cuts: int

    def _conflict(self, clause: list[int]) -> None:
        if self.pending is None:
            self.pending = clause

    def _simple(self, c: int) -> bool:
        """Whether the not-white orthogonal neighbours of the (now white) cell ``c`` are
        joined through not-white cells of the eight around it: then every path of not-white
        cells through c has a detour, and the component c left is still one piece."""
        ring, col = self.ring[c], self.col
        o = [r >= 0 and col[r] >= 0 for r in ring]
        open_ = o[0] + o[2] + o[4] + o[6]
        if open_ == 0:
            return False
        links = (o[0] and o[1] and o[2]) + (o[2] and o[3] and o[4]) \
            + (o[4] and o[5] and o[6]) + (o[6] and o[7] and o[0])
        return open_ - links <= 1

    def _joined(self, c: int) -> bool:
        """Whether the not-white neighbours of the (now white) cell ``c`` are still joined
        through the wall component's not-white cells, by a breadth-first search from one of
        them that gives up (False) after ``REACH`` cells (compiled:
        :func:`formulations.nurikabe._compiled.joined`; without numba :meth:`_joined_py`)."""
        if compiled.joined is not None:
            return bool(compiled.joined(c, self.color, self.lab, self.la, self.tab, REACH))
        return self._joined_py(c)

    def _joined_py(self, c: int) -> bool:
        """:meth:`_joined` in Python over the propagator's lists."""
        col, labl, la, nbrs = self.col, self.labl, self.la, self.nbrs
        targets = [u for u in nbrs[c] if col[u] >= 0]
        if not targets:
            return False
        want = set(targets[1:])
        seen = {targets[0]}
        queue = [targets[0]]
        i = 0
        while i < len(queue) and len(seen) < REACH:
            for u in nbrs[queue[i]]:
                if u not in seen and col[u] >= 0 and labl[u] == la:
                    if u in want:
                        want.discard(u)
                        if not want:
                            return True
                    seen.add(u)
                    queue.append(u)
            i += 1
        return not want

    def _rim(self, mask: Any) -> list[int]:
        """The cells next to the 2-D boolean ``mask`` outside it (flat indices)."""
        grown = mask.copy()
        grown[1:] |= mask[:-1]
        grown[:-1] |= mask[1:]
        grown[:, 1:] |= mask[:, :-1]
        grown[:, :-1] |= mask[:, 1:]
        return list(np.flatnonzero(grown & ~mask).tolist())

    def _wall(self, found: dict[int, Why]) -> None:
        self.relabels += 1
        self.shadow = None
        color, barr = self.color, self.barr
        if compiled.label is not None:
            lab, count = compiled.label(color, self.rows, self.cols)
            labels = lab.reshape(self.rows, self.cols)
        else:
            labels, count = ndimage.label((color >= 0).reshape(self.rows, self.cols), CROSS)
            lab = labels.ravel()
        self.lab = lab
        self.labl = lab.tolist()
        self.extra = []
        dark = np.flatnonzero(color == 1)
        if len(dark) == 0:
            self.la = 0
            sizes = np.bincount(lab, minlength=count + 1)
            for label in np.flatnonzero(sizes < self.blacks).tolist():
                if label == 0:
                    continue
                mask = labels == label
                tail = tuple(barr[self._rim(mask)].tolist())
                for x in (-barr[np.flatnonzero(mask.ravel() & (color == 0))]).tolist():
                    found.setdefault(x, tail)
            return
        a = int(dark[0])
        la = int(lab[a])
        self.la, self.anchor = la, a
        self.cut_dirty = self.cut
        flat = lab == la
        self.wtail = None  # the reason's rest, made only when a rule below needs it
        other = dark[lab[dark] != la]
        if len(other):
            self._conflict([-self.black[int(other[0])], *self._wtail()])
            return
        size = self.wsize = int(flat.sum())
        if size < self.blacks:
            self._conflict(list(self._wtail()))
            return
        if size == self.blacks:
            for x in barr[np.flatnonzero(flat & (color == 0))].tolist():
                found.setdefault(x, self._wtail())
        for x in (-barr[np.flatnonzero(~flat & (color == 0))]).tolist():
            found.setdefault(x, self._wtail())

    def _wtail(self) -> tuple[int, ...]:
        """The rest of the wall rules' reasons at the last labelling: the anchor black and
        the white rim of its component then (made once per labelling, when first needed)."""
        if self.wtail is None:
            mask = (self.lab == self.la).reshape(self.rows, self.cols)
            self.wtail = (-self.black[self.anchor], *self.barr[self._rim(mask)].tolist())
        return self.wtail

    def _size(self, found: dict[int, Why]) -> None:
        """The wall's component lost cells without splitting: too small now is a conflict,
        exactly the wall's size makes it all black (reason: the anchor black, the rim at the
        last labelling and the cells turned white since)."""
        if self.wsize > self.blacks:
            return
        black = self.black
        tail = (*self._wtail(), *(black[c] for c in self.extra))
        if self.wsize < self.blacks:
            self._conflict(list(tail))
            return
        color = self.color
        for x in self.barr[np.flatnonzero((self.lab == self.la) & (color == 0))].tolist():
            found.setdefault(x, tail)

    def _cut(self, found: dict[int, Why]) -> None:
        """Articulation: an undecided cell ``p`` of the wall's component A whose removal cuts
        a black cell ``b`` off the anchor ``a`` is black (:func:`separators`); the subtree
        S of the search that p cuts off holds b and its neighbours are S, ``p`` and white
        cells, so the reason is ``(p, -a, -b, the white cells next to S)``."""
        self.cuts += 1
        ina = (self.lab == self.la) & (self.color >= 0)
        a, black = self.anchor, self.black
        order, seps = separators(a, ina, self.color, self.tab, self.graph, self.step)
        if self.step:  # every cut subtree, kept for the step (formulations.nurikabe._cutstep)
            self.shadow = Shadow(order, a, seps)
            seps = [s for s in seps if s[3] >= 0]
        self.cut_out = frozenset(p for p, *_ in seps)
        for p, start, stop, b in seps:
            x = black[p]
            if x not in found:
                found[x] = CutWhy(order, start, stop, p, (-black[a], -black[b]))

    def tail(self, why: Why) -> tuple[int, ...]:
        """The rest of an inference's reason clause (model polarity)."""
        if isinstance(why, tuple):
            return why
        inside = set(why.order[why.start:why.stop].tolist())
        nbrs, black = self.nbrs, self.black
        rim = {u for w in inside for u in nbrs[w] if u not in inside and u != why.p}
        return (*why.head, *(black[u] for u in sorted(rim)))

    def violated(self, model: Sequence[int]) -> list[int] | None:
        """A clause the complete assignment ``model`` (model polarity) falsifies and every
        solution satisfies, when its black cells are not one component or a white component
        holds no clue; None when both hold."""
        truth = {x for x in model if x > 0}
        black, barr = self.black, self.barr
        grid = np.array([x in truth for x in black], dtype=bool).reshape(self.rows, self.cols)
        labels, count = ndimage.label(grid, CROSS)
        if count > 1:
            mask = labels == 1
            a = int(np.flatnonzero(mask.ravel())[0])
            return [-black[a], *barr[self._rim(mask)].tolist()]
        labels, count = ndimage.label(~grid, CROSS)
        lab = labels.ravel()
        with_clue = {int(lab[c]) for c in self.clues}
        for label in range(1, count + 1):
            if label not in with_clue:
                mask = labels == label
                d = int(np.flatnonzero(mask.ravel())[0])
                return [black[d], *(-barr[self._rim(mask)]).tolist()]
        return None
