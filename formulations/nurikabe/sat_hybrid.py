"""Nurikabe as SAT for large and sparse puzzles: islands joined eagerly by layered
reachability, the wall by lazy cuts, small enclosed wall pieces excluded eagerly.

The rules (:mod:`formulations.nurikabe._islands`), one "black" variable per cell:

* clue cells are white; no 2x2 block is all black;
* an island per clue (:func:`bench.encodings.sat.region`: ownership literals over the clue's
  reach, exactly its size owned); every white cell is owned by one island and adjacent white
  cells share their island (:func:`bench.encodings.sat.assign`). The size is counted by
  ``card``: ``rings`` (default) a totalizer per ring of cells at one BFS distance round the
  clue, the rings' counts added outward (:func:`bench.encodings.sat.exactly_in_groups`), so
  "at least j cells within distance d" is a literal, with "an island reaching ring d has a cell
  in ring d - 1"; ``seqcounter`` python-sat's sequential counter ((size) x (reach) counter
  cells); ``kmtotalizer`` the k-modulo totalizer; ``auto`` the totalizer for islands of
  :attr:`SatHybrid.big_island` cells or more, the counter below;
* islands are connected, eagerly. ``islands=layers`` (default): per island, layered
  reachability (:func:`bench.encodings.sat.layer_regions`): "v is joined to the clue through
  owned cells in at most t steps" for t up to the size minus one, every owned cell joined by
  the last step; unit propagation runs it forward from the clue, so an island enclosed before
  it has its size fails at once; about (size) x (reach) literals per island.
  ``islands=owner``: every white non-clue cell picks a white neighbour as parent, with one
  order-encoded distance per cell that strictly decreases along parents (every chain ends at
  its own clue), bounded below by the BFS distance in the owner's reach and above by
  ``size - 1`` (no simple path in an island of n cells is longer than n - 1 steps): bounds that
  hold in every solution and let propagation see how far an island can snake.
  ``islands=shared``: the same distances bounded by the largest reaching island
  (:func:`bench.encodings.sat.connect_regions`);
* the wall is connected. ``wall=cut``, lazily: per piece C of a disconnected wall and per cell
  c of C, "c is white or a white cell on C's boundary is black" (``wall=anchor``: C's first
  cell only); every solution has ``cells - sum(clues)`` black cells, more than any piece that
  is not the whole wall, so the cut is exact. ``wall=tree``, eagerly: parent pointers with
  order-encoded distances rooted at the first black cell (:func:`bench.encodings.sat.connected`),
  about (wall cells) x (black cells) literals. ``wall=auto`` (default): the tree while that
  product is at most :attr:`SatHybrid.tree_budget` (grids up to about 14x14), the cuts above;
* redundantly and eagerly (``enclose=N``, default 3), no wall piece of 1..N cells is enclosed:
  for each 4-connected set S of at most N cells "some cell of S is white or some neighbour of S
  is black" (the lazy cut for S, stated before search); it holds whenever the wall has more than
  N cells, and is dropped otherwise.

Exact: every clause holds in every solution (the layers: "joined by step t" read as "owned, at
BFS distance at most t inside the island"), and an assignment satisfying the eager clauses with
no further cut is a solution. The variants measured against each other, and the defaults' choice:
docs/results/2026-11-25-nurikabe-hard-and-sparse.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bench.encodings.cells import Region, neighbours_in
from bench.encodings.sat import (
    assign,
    connect_regions,
    connected,
    exactly_in_groups,
    layer_regions,
    region,
    separate_connected,
)
from bench.grid import Cell
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.registry import formulation
from formulations.nurikabe._islands import Island, Layout, SatBlackCells, layout
from formulations.nurikabe._sat import colour_cells


def polyominoes(cells: Sequence[Cell] | Mapping[Cell, Any], largest: int) -> list[frozenset[Cell]]:
    """Every 4-connected set of 1..``largest`` cells of ``cells`` (each once)."""
    found: set[frozenset[Cell]] = {frozenset([v]) for v in cells}
    layer = list(found)
    for _ in range(largest - 1):
        nxt: set[frozenset[Cell]] = set()
        for s in layer:
            for v in s:
                for n in neighbours_in(v, cells):
                    if n not in s:
                        t = s | {n}
                        if t not in found:
                            nxt.add(t)
        found |= nxt
        layer = list(nxt)
    return sorted(found, key=lambda s: (len(s), sorted(s)))


def island_distances(m: SatModel, white: Mapping[Cell, int], islands: Sequence[Island],
                     regions: Sequence[Region]) -> dict[Cell, dict[int, int]]:
    """Connect every white cell to its clue by parent pointers with order-encoded distances,
    bounded by the owner (see the module docstring); returns the ladders
    ``{cell: {i: "dist(cell) <= i"}}`` (the top rung is the cell's white literal)."""
    roots = {i.root for i in islands}
    lo: dict[Cell, int] = {}
    hi: dict[Cell, int] = {}
    for isl in islands:
        for v, d in isl.reach.items():
            lo[v] = min(lo.get(v, d), d)
            hi[v] = max(hi.get(v, -1), isl.size - 1)
    le: dict[Cell, dict[int, int]] = {}
    for v, x in white.items():
        if v in roots:
            le[v] = {0: x}
        elif v in hi and lo[v] <= hi[v]:
            rungs = {i: m.fresh() for i in range(lo[v], hi[v])}
            rungs[hi[v]] = x
            m.extend([-rungs[i], rungs[i + 1]] for i in range(lo[v], hi[v]))
            le[v] = rungs
        else:
            m.add([-x])  # no island reaches v
    for v, rungs in le.items():
        if v in roots:
            continue
        parents = []
        for n in neighbours_in(v, le):
            p = m.fresh()
            parents.append(p)
            m.add([-p, white[n]])
            if n in roots:
                continue  # a clue has distance 0: every rung of v is fine
            for i, lit in rungs.items():
                below = i - 1
                if below >= max(le[n]):
                    break  # dist(n) <= its top rung whenever n is white
                m.add([-p, -lit] if below < min(le[n]) else [-p, -lit, le[n][below]])
        m.add([-white[v], *parents])
    for reg in regions:
        for v, own in reg.own.items():
            if v == reg.root:
                continue
            rungs = le[v]
            top, bottom = max(rungs), min(rungs)
            if reg.size - 1 < top:
                m.add([-own, rungs[reg.size - 1]] if reg.size - 1 >= bottom else [-own])
            d = reg.candidates[v]
            if d - 1 >= bottom:
                m.add([-own, -rungs[d - 1]])
    return le


def black_count(m: SatModel, lay: Layout, black: Mapping[Cell, int]) -> None:
    """Exactly ``lay.blacks`` of the wall's cells are black, counted row by row
    (:func:`bench.encodings.sat.exactly_in_groups`: a totalizer per row, the rows' counts
    added downward, so "at least j black cells in the first r rows" is a literal). Holds in
    every solution: the white cells are the islands' cells, ``sum(clues)`` of them."""
    rows: dict[int, list[int]] = {}
    for v in lay.wall:
        rows.setdefault(v[0], []).append(black[v])
    exactly_in_groups(m, [rows[r] for r in sorted(rows)], lay.blacks)


@formulation
class SatHybrid(SatBlackCells):
    name = "sat-hybrid"
    lazy = True
    description = ("clue ownership, island sizes and island connectivity (layered "
                   "reachability per island) eagerly; small enclosed wall pieces excluded "
                   "eagerly; wall connectivity by lazy all-anchor cuts")
    parameters: ClassVar[dict[str, list[Any]]] = {
        "wall": ["auto", "cut", "anchor", "tree"],
        "islands": ["layers", "owner", "shared"],
        "enclose": [3, 0],
        "card": ["rings", "auto", "seqcounter", "kmtotalizer"],
    }
    #: compared when named: the wall methods, the rest at their defaults (the whole grid of 96:
    #: ``sat-hybrid[*]``)
    sweep: ClassVar[dict[str, list[Any]] | None] = {"wall": ["auto", "cut", "anchor", "tree"]}

    #: card=auto: the k-modulo totalizer for islands of this many cells or more (the big
    #: family's islands have 37-45 cells, the sparse puzzles' largest 20-24), the sequential
    #: counter below
    big_island = 20

    #: wall=auto: the eager tree while (wall cells) x (black cells), the size of its distance
    #: ladders, stays within this; lazy all-anchor cuts above
    tree_budget = 30_000

    def is_lazy(self) -> bool:
        return bool(self.params["wall"] != "tree")  # auto may cut: the harness loops

    def wall_method(self, lay: Layout) -> str:
        """The wall parameter with ``auto`` resolved for this instance."""
        wall = str(self.params["wall"])
        if wall == "auto":
            return "tree" if len(lay.wall) * lay.blacks <= self.tree_budget else "cut"
        return wall

    def card_encoding(self, size: int) -> str:
        """The card parameter with ``auto`` resolved for an island of ``size`` cells."""
        card = str(self.params["card"])
        if card == "auto":
            return "kmtotalizer" if size >= self.big_island else "seqcounter"
        return card

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        lay = layout(inst)
        black, white, wall = colour_cells(m, lay)
        regions = [region(m, i.root, i.size, i.reach, encoding=self.card_encoding(i.size),
                          name=f"isl{k}") for k, i in enumerate(lay.islands)]
        assign(m, white, regions)
        if self.params["islands"] == "owner":
            island_distances(m, white, lay.islands, regions)
        elif self.params["islands"] == "layers":
            layer_regions(m, regions)
        else:
            connect_regions(m, white, regions)
        method = self.wall_method(lay)
        if method == "tree":
            connected(m, wall, method="distance", root="first", max_size=lay.blacks)
        largest = min(int(self.params["enclose"]), lay.blacks - 1)
        if largest >= 1:
            for piece in polyominoes(wall, largest):
                border = {n for v in piece for n in neighbours_in(v, wall) if n not in piece}
                m.add([*(-black[v] for v in piece), *(black[n] for n in border)])
        m.handles.update(black=black, wall=wall, blacks=lay.blacks, method=method)
        return m

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        h = model.handles
        if h["method"] == "tree":
            return 0
        return separate_connected(model, h["wall"], self.black_cells(model, value).__contains__,
                                  cut="anchor", total=h["blacks"],
                                  anchors="one" if h["method"] == "anchor" else "all")
