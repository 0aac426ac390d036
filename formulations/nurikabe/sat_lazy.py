"""Nurikabe as pure SAT: one "black" variable per cell, islands through clue ownership.

Shared base (both formulations): ``x[v]`` = cell v is black. Clue cells are white; no 2x2
block is all black; when the wall has at least two cells every black cell has a black
neighbour. Every white cell is owned by exactly one clue whose reach holds it
(:func:`bench.grid.clue_reach`: BFS from the clue avoiding other clues and their
neighbours, shorter than the clue, so Manhattan distance < clue); adjacent white cells share
their owner (two clues can never meet); clue k owns exactly k's number of cells. What the base
leaves open is connectivity: of the wall, and of each clue's owned cells.

* ``sat-lazy`` closes it lazily (separate()): for a wall in several pieces, per piece C
  "if this cell of C is black, one of C's white boundary cells is black" — valid because every
  solution has exactly ``cells - sum(clues)`` black cells, more than C holds
  (``wall=count``, the default), or the weaker count-free pair form "if c in C and d in
  another piece are both black, ..." (``wall=pair``; see
  :func:`bench.encodings.sat.connectivity_cuts`); for an island with a clue but too few
  cells, "one of its black boundary cells is white"; for a white piece without a clue, "this
  cell is black or one of the piece's black boundary cells is white"
  (:func:`bench.encodings.sat.enclosure_cut`). ``islands=eager`` adds the island half of
  ``sat-tree`` to the base instead of cutting detached island pieces lazily.
* ``sat-tree`` closes it eagerly: the wall is a tree of parent pointers rooted at its first
  cell in reading order with order-encoded distances, and every white cell is joined to a clue
  cell the same way (:func:`bench.encodings.sat.rooted_distance_connectivity`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from bench.encodings.sat import (
    connectivity_cuts,
    enclosure_cut,
    first_on_root,
    not_all_on,
    region_ownership,
    rooted_distance_connectivity,
)
from bench.grid import Cell, all_cells, clue_reach, components, neighbours
from bench.instance import Instance
from bench.models import Model, SatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import BLACK, black_total, clue_list, grid_from_black
from bench.registry import Formulation, formulation


def base_model(inst: Instance) -> SatModel:
    """The clauses both formulations share (see the module docstring); handles ``x`` (black
    literal per cell), ``white`` (its negation), ``own``, ``reach``, ``clues``."""
    m = SatModel()
    rows, cols = inst.rows, inst.cols
    cells = all_cells(rows, cols)
    x = {v: m.var(("black", v)) for v in cells}
    white = {v: -x[v] for v in cells}
    clues = clue_list(inst)
    seeds = [(r, c) for r, c, _ in clues]
    for v in seeds:
        m.add([-x[v]])
    for r in range(rows - 1):
        for c in range(cols - 1):
            m.add([-x[(r, c)], -x[(r + 1, c)], -x[(r, c + 1)], -x[(r + 1, c + 1)]])
    total = black_total(inst)
    if total >= 2:
        for v in cells:
            m.add([-x[v], *(x[n] for n in neighbours(v, rows, cols))])
    reach = clue_reach(rows, cols, clues)
    own = region_ownership(m, white, seeds, reach, rows, cols, sizes=[n for _, _, n in clues])
    m.handles.update(x=x, white=white, own=own, reach=reach, clues=clues, seeds=seeds)
    return m


def connect_islands(m: SatModel, inst: Instance) -> None:
    """Eager island connectivity: every white cell is joined to a clue cell through white cells,
    with distance bounds from the clue reach (at least the BFS distance of the nearest clue
    that reaches it, at most its largest reaching clue minus one)."""
    white, seeds, clues, reach, own = (
        m.handles[k] for k in ("white", "seeds", "clues", "reach", "own"))
    hi: dict[Cell, int] = {}
    lo: dict[Cell, int] = {}
    for k, cells in enumerate(reach):
        for v, d in cells.items():
            hi[v] = max(hi.get(v, -1), clues[k][2] - 1)
            lo[v] = min(lo.get(v, d), d)
    for v in white:
        hi.setdefault(v, -1)
    roots = {v: own[(k, v)] for k, v in enumerate(seeds)}
    rooted_distance_connectivity(m, white, roots, inst.rows, inst.cols, maxdist=hi, mindist=lo)


def connect_wall(m: SatModel, inst: Instance) -> None:
    """Eager wall connectivity: parent pointers with order-encoded distances (at most the wall
    size minus one), rooted at the first black cell in reading order."""
    total = black_total(inst)
    if total > 0:
        x, seeds = m.handles["x"], set(m.handles["seeds"])
        wall = {v: x[v] for v in all_cells(inst.rows, inst.cols) if v not in seeds}
        roots = first_on_root(m, list(wall), wall)
        rooted_distance_connectivity(m, wall, roots, inst.rows, inst.cols, maxdist=total - 1)


def black_cells(inst: Instance, model: SatModel, value: Value) -> list[Cell]:
    x = model.handles["x"]
    return [v for v in all_cells(inst.rows, inst.cols) if value(x[v]) > 0.5]


def block_grid(inst: Instance, model: Model, grid: SolutionGrid) -> bool:
    """Counting: some cell's colour differs from ``grid`` (projected onto the colours only)."""
    assert isinstance(model, SatModel)
    x = model.handles["x"]
    model.add([-x[v] if grid[v[0]][v[1]] == BLACK else x[v] for v in x])
    return True


@formulation
class SatLazy(Formulation):
    puzzle = "nurikabe"
    name = "sat-lazy"
    kind = "sat"
    lazy = True
    description = ("clue ownership + island sizes eagerly; wall connectivity and detached "
                   "island pieces by lazy separator cuts")
    parameters: ClassVar[dict[str, list[Any]]] = {
        "islands": ["lazy", "eager"],
        "wall": ["count", "pair"],
    }

    def build(self, inst: Instance) -> Model:
        m = base_model(inst)
        if self.params["islands"] == "eager":
            connect_islands(m, inst)
        m.handles["cuts"] = 0
        return m

    def separate(self, inst: Instance, model: Model, value: Value) -> int:
        assert isinstance(model, SatModel)
        rows, cols = inst.rows, inst.cols
        x, white = model.handles["x"], model.handles["white"]
        seeds = model.handles["seeds"]
        clue_at = {v: n for v, (_, _, n) in zip(seeds, model.handles["clues"], strict=True)}
        black = black_cells(inst, model, value)
        blackset = set(black)
        total = black_total(inst) if self.params["wall"] == "count" else None
        cuts = connectivity_cuts(black, x, rows, cols, fixed_off=seeds, total=total)
        for island in components([v for v in x if v not in blackset], rows, cols):
            numbers = [v for v in island if v in clue_at]
            if not numbers:
                cuts.append(enclosure_cut(island, white, rows, cols, anchor=island[0]))
            elif len(numbers) > 1 or len(island) > clue_at[numbers[0]]:
                cuts.append(not_all_on(island, white))  # excluded by the base; kept for safety
            elif len(island) < clue_at[numbers[0]]:
                cuts.append(enclosure_cut(island, white, rows, cols))
        model.extend(cuts)
        model.handles["cuts"] += len(cuts)
        return len(cuts)

    def block(self, inst: Instance, model: Model, grid: SolutionGrid) -> bool:
        return block_grid(inst, model, grid)

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        assert isinstance(model, SatModel)
        return grid_from_black(inst, black_cells(inst, model, value))


@formulation
class SatTree(Formulation):
    puzzle = "nurikabe"
    name = "sat-tree"
    kind = "sat"
    description = ("clue ownership + island sizes; wall and islands connected eagerly by parent "
                   "pointers with order-encoded distances (wall rooted at its first cell)")

    def build(self, inst: Instance) -> Model:
        m = base_model(inst)
        connect_wall(m, inst)
        connect_islands(m, inst)
        return m

    def block(self, inst: Instance, model: Model, grid: SolutionGrid) -> bool:
        return block_grid(inst, model, grid)

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        assert isinstance(model, SatModel)
        return grid_from_black(inst, black_cells(inst, model, value))
