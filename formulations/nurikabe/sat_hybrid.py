"""Nurikabe as SAT for large and sparse puzzles: islands joined eagerly by layered
reachability, the wall by lazy cuts, small enclosed wall pieces excluded eagerly.

The rules (:mod:`formulations.nurikabe._islands`), one "black" variable per cell:

* clue cells are white; no 2x2 block is all black;
* an island per clue (:func:`bench.encodings.sat.region`: ownership literals over the clue's
  reach, exactly its size owned). How the size is counted is ``card``: ``card=rings`` (default)
  counts ring by ring round the clue (a totalizer per ring of cells at one BFS distance, the
  rings' counts added outward, :func:`bench.encodings.sat.exactly_in_groups`), so "at least j
  cells within distance d" is a literal, and states that an island reaching ring d has a cell
  in ring d - 1 (its path from the clue crosses every ring); ``card=seqcounter``, python-sat's
  sequential counter, whose (size) x (reach) counter cells are most of the model around a big
  island; ``card=kmtotalizer``, the k-modulo totalizer; ``card=auto`` the totalizer for islands
  of :attr:`SatHybrid.big_island` cells or more and the counter below (the four compared:
  docs/results/2026-11-25-nurikabe-hard-and-sparse.md). Every white cell is owned by one
  island and adjacent white cells share their island (:func:`bench.encodings.sat.assign`);
* islands are connected, eagerly. ``islands=layers`` (default): per island, layered reachability
  (:func:`bench.encodings.sat.layer_regions`): "v is joined to the clue through owned cells in
  at most t steps" for t up to the size minus one, every owned cell joined by the last step.
  Unit propagation runs this forward from the clue, so an island that black cells enclose before
  it has its size fails at once; the distance labels below leave that to search. About (size) x
  (reach) literals per island. ``islands=owner``: every white non-clue cell picks a white
  neighbour as parent, with an order-encoded distance that strictly decreases along parents, so
  every chain ends at a clue (no cycles). One distance per cell serves all islands (adjacent
  white cells share their island, so a cell's chain ends at its own clue), and the owner bounds
  it: a cell owned by clue k lies at distance at least its BFS distance inside k's reach and at
  most ``size_k - 1`` (an island of n cells has no simple path longer than n - 1 steps from its
  clue). Both bounds hold in every solution, so they cut nothing off; they let propagation see
  that a big island cannot snake further than its size (``islands=shared``: the same distances
  bounded by the largest reaching island, :func:`bench.encodings.sat.connect_regions`);
* the wall is connected, lazily (``wall=cut``): per piece C of a disconnected wall and per
  cell c of C, "c is white or a white cell on C's boundary is black" (``wall=anchor``: C's first
  cell only). Every solution has exactly ``cells - sum(clues)`` black cells, more than a piece
  that is not the whole wall, so the piece c lies in must grow past C: exact. Or eagerly
  (``wall=tree``): parent pointers with order-encoded distances rooted at the first black cell
  (:func:`bench.encodings.sat.connected`), about (wall cells) x (black cells) literals.
  ``wall=auto`` (default) takes the tree while that product is at most :attr:`tree_budget`
  (grids up to about 14x14) and the cuts above: on a hard sparse 14x14 the tree solves what
  the cuts do not, and on large grids the tree is too big to build;
* redundantly and eagerly (``enclose=N``, default 3), no wall piece of 1..N cells is enclosed:
  for each 4-connected set S of at most N cells (every polyomino placement) "some cell of S is
  white or some neighbour of S is black" -- the lazy cut for S stated before search. It holds in
  every solution because the wall has more than N cells whenever the puzzle has enough black
  cells (it is dropped otherwise).

Exact: every clause above holds in every solution (the layers: "joined by step t" read as
"owned, at BFS distance at most t inside the island"), and an assignment satisfying the eager
clauses with no further cut is a solution (islands connected by the layers or distances, the
wall by the absence of cuts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bench.encodings.cells import Region, neighbours_in
from bench.encodings.sat import (
    assign,
    connect_regions,
    connected,
    layer_regions,
    no_2x2,
    region,
    separate_connected,
)
from bench.grid import Cell
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.registry import formulation
from formulations.nurikabe._islands import Island, Layout, SatBlackCells, layout


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
        black = {v: m.var(("black", v)) for v in lay.cells}
        white = {v: -x for v, x in black.items()}
        wall = {v: black[v] for v in lay.wall}
        m.extend([-black[i.root]] for i in lay.islands)
        m.extend([black[v]] for v in lay.unreached)
        no_2x2(m, black, lay.rows, lay.cols)
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
