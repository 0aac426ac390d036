"""Nurikabe in CP-SAT: clue-owned islands, black connectivity by a tree or by lazy cuts.

Shared local model (both formulations):

* ``white[v]`` per cell; ``own[k][v]`` "v is in clue k's island" only for the cells clue k can
  reach (:func:`bench.grid.clue_reach`: BFS from the clue, at most ``n - 1`` steps,
  avoiding other clues and their neighbours);
* ``white[v] = sum_k own[k][v]`` (a white cell has exactly one owner, a black cell none);
* island k holds exactly ``n_k`` cells and is connected by a tree rooted at its clue
  (:func:`bench.encodings.cpsat.rooted_region`);
* adjacent white cells share their owner, so every island is a whole white component: with the
  trees, each white component holds exactly one clue and has its size;
* no 2x2 block is all black; redundantly, exactly ``cells - sum(clues)`` cells are black.

``cpsat-tree`` adds the black connectivity as a spanning tree with parent arcs and depths
(:func:`bench.encodings.cpsat.connected`); ``cpsat-lazy`` leaves it out and separates it: a
disconnected black solution gets, per black component C, the cut "a white boundary cell of C is
black, or not all of C is black". The black count is fixed, so a component of a disconnected
solution is never the whole black set and the cut never removes a valid solution.
"""

from __future__ import annotations

from typing import Any

from bench.encodings.cpsat import connected, rooted_region, separate_connectivity
from bench.grid import Cell, all_cells, clue_reach, neighbours
from bench.instance import Instance
from bench.models import CpsatModel, Model, Value, new_model
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import WHITE, black_total, clue_list, grid_from_black
from bench.registry import Formulation, formulation


class _NurikabeCpsat(Formulation):
    puzzle = "nurikabe"
    kind = "cpsat"

    def build_local(self, inst: Instance) -> CpsatModel:
        m = new_model("cpsat")
        assert isinstance(m, CpsatModel)
        cp = m.model
        rows, cols = inst.rows, inst.cols
        clues = clue_list(inst)
        cells = all_cells(rows, cols)
        white = {v: cp.new_bool_var(f"w{v[0]}_{v[1]}") for v in cells}
        owners: dict[Cell, list[Any]] = {v: [] for v in cells}
        for k, ((r, c, n), reach) in enumerate(zip(clues, clue_reach(rows, cols, clues),
                                                   strict=True)):
            region = rooted_region(cp, (r, c), n, reach, name=f"i{k}")
            for v, o in region.own.items():
                owners[v].append(o)
            for u, o in region.own.items():
                for v in neighbours(u, rows, cols):
                    if v in region.own:  # u in island k and v white -> v in island k
                        cp.add_bool_or([o.Not(), white[v].Not(), region.own[v]])
                    else:  # v can never join island k: it must be black
                        cp.add_implication(o, white[v].Not())
        for v in cells:
            cp.add(sum(owners[v]) == white[v])
        for r in range(rows - 1):
            for c in range(cols - 1):
                cp.add_bool_or([white[(r + i, c + j)] for i in (0, 1) for j in (0, 1)])
        blacks = black_total(inst)
        cp.add(sum(white.values()) == len(cells) - blacks)
        clue_cells = {(r, c) for r, c, _ in clues}
        black = {v: white[v].Not() for v in cells if v not in clue_cells}
        m.handles.update(white=white, black=black, blacks=blacks)
        return m

    def block(self, inst: Instance, model: Model, grid: SolutionGrid) -> bool:
        # projected onto the cell colours: some cell differs from this grid
        assert isinstance(model, CpsatModel)
        white = model.handles["white"]
        model.model.add_bool_or([white[r, c].Not() if grid[r][c] == WHITE else white[r, c]
                                 for r in range(inst.rows) for c in range(inst.cols)])
        return True

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        white = model.handles["white"]
        return grid_from_black(inst, (v for v in white if value(white[v]) < 0.5))


@formulation
class CpsatTree(_NurikabeCpsat):
    name = "cpsat-tree"
    description = ("clue-owned islands (reach-pruned, size sums, clue-rooted trees), black cells "
                   "connected by a parent/depth spanning tree rooted at the first black cell, "
                   "no 2x2 black")

    def build(self, inst: Instance) -> Model:
        m = self.build_local(inst)
        # rooted at the first black cell in reading order: no root symmetry (several times
        # faster than a free root on the seeds)
        connected(m.model, m.handles["black"], max_size=m.handles["blacks"], root="first",
                  name="b")
        return m


@formulation
class CpsatLazy(_NurikabeCpsat):
    name = "cpsat-lazy"
    description = ("cpsat-tree's islands without the black tree; black connectivity by "
                   "component cuts added after each solve")
    lazy = True

    def build(self, inst: Instance) -> Model:
        return self.build_local(inst)

    def separate(self, inst: Instance, model: Model, value: Value) -> int:
        assert isinstance(model, CpsatModel)
        white = model.handles["white"]
        return separate_connectivity(
            model.model, model.handles["black"], lambda v: value(white[v]) < 0.5,
            inst.rows, inst.cols, min_size=model.handles["blacks"])
