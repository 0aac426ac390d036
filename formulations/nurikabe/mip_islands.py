"""Nurikabe as MIP in Pyomo: clue-owned islands, black connectivity by a flow or by lazy cuts.

Shared local model (both formulations), the MIP twin of ``formulations/nurikabe_cpsat.py``:

* ``white[v]`` per cell; ``own[k][v]`` "v is in clue k's island" only for the cells clue k can
  reach (:func:`bench.grid.clue_reach`: BFS from the clue, at most ``n - 1`` steps,
  avoiding other clues and their neighbours); a cell no clue reaches is black (bounds);
* ``white[v] = sum_k own[k][v]`` (a white cell has exactly one owner, a black cell none);
* island k holds exactly ``n_k`` cells, connected by a flow from its clue
  (:func:`bench.encodings.mip.rooted_regions`);
* adjacent white cells share their owner: ``own[k][u] + white[v] - own[k][v] <= 1`` (and
  ``own[k][u] + white[v] <= 1`` when v is out of k's reach), so every island is a whole white
  component: with the flows, each white component holds exactly one clue and has its size;
* no 2x2 block is all black; redundantly, a black cell has a black neighbour when the wall has
  at least two cells. The black count ``cells - sum(clues)`` follows from the sums.

``mip-flow`` adds the black connectivity as a single-commodity flow
(:func:`bench.encodings.mip.connected`) with the exact wall size as supply, rooted at a cell no
clue reaches when there is one (it is black in every solution), else at a free root.
``mip-lazy`` leaves it out and separates it (:func:`bench.encodings.mip.separate_connectivity`);
the black count is fixed, so a component C of a disconnected wall is never the whole wall, and
per C it adds either (``cut=component``, the default) the one cut "a white boundary cell of C
is black, or not all of C is black", or (``cut=anchor``) for every cell c of C "c is white or
a white boundary cell of C is black" (c's wall would be at most C, too small). Neither removes
a valid solution. The anchor cuts are tighter in the LP relaxation but were not faster on the
imported instances (HiGHS: 3.7 s vs 7.2 s on the 12x12, 3.6 s vs 6.5 s on 10x10-cf1c3e52; on
the 24x14 ones both take 45-60 s). The islands are exact in the base model, so only the wall
needs cuts.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pyomo.environ as pyo

from bench.encodings.mip import connected, rooted_regions, separate_connectivity
from bench.grid import Cell, all_cells, clue_reach, neighbours
from bench.instance import Instance
from bench.models import MipModel, Model, Value, new_model
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.rules import WHITE, black_total, clue_list, grid_from_black
from bench.registry import Formulation, formulation


class _NurikabeMip(Formulation):
    puzzle = "nurikabe"
    kind = "mip"

    def build_local(self, inst: Instance) -> MipModel:
        mm = new_model("mip")
        assert isinstance(mm, MipModel)
        m = mm.model
        rows, cols = inst.rows, inst.cols
        clues = clue_list(inst)
        cells = all_cells(rows, cols)
        cid = {v: i for i, v in enumerate(cells)}
        m.white = pyo.Var(range(len(cells)), domain=pyo.Binary)
        white = {v: m.white[cid[v]] for v in cells}
        reach = clue_reach(rows, cols, clues)
        regions = rooted_regions(m, [((r, c), n, reach[k]) for k, (r, c, n) in enumerate(clues)],
                                 name="isl")
        owners: list[list[Any]] = [[] for _ in cells]
        share: list[tuple[Any, Any, Any]] = []  # own[k][u] + white[v] - own[k][v] <= 1
        for region in regions:
            for v, o in region.own.items():
                owners[cid[v]].append(o)
            for u, o in region.own.items():
                for v in neighbours(u, rows, cols):
                    share.append((o, white[v], region.own.get(v)))
        unreached = [v for v in cells if not owners[cid[v]]]
        for v in unreached:
            white[v].setub(0)
        m.owners = pyo.Constraint(
            [i for i in range(len(cells)) if owners[i]],
            rule=lambda _, i: m.white[i] == pyo.quicksum(owners[i]))
        m.share = pyo.Constraint(
            range(len(share)),
            rule=lambda _, j: (share[j][0] + share[j][1] <= 1 if share[j][2] is None
                               else share[j][0] + share[j][1] - share[j][2] <= 1))
        blocks = [(r, c) for r in range(rows - 1) for c in range(cols - 1)]
        m.no_pool = pyo.Constraint(
            range(len(blocks)),
            rule=lambda _, b: sum(white[(blocks[b][0] + i, blocks[b][1] + j)]
                                  for i in (0, 1) for j in (0, 1)) >= 1)
        blacks = black_total(inst)
        clue_cells = {(r, c) for r, c, _ in clues}
        black = {v: 1 - white[v] for v in cells if v not in clue_cells}
        if blacks >= 2:  # a black cell has a black neighbour
            m.not_alone = pyo.Constraint(
                [cid[v] for v in black],
                rule=lambda _, i: pyo.quicksum(black[n] for n in neighbours(cells[i], rows, cols)
                                                if n in black) >= black[cells[i]])
        m.obj = pyo.Objective(expr=0)  # feasibility problem
        mm.handles.update(white=white, black=black, blacks=blacks, unreached=unreached)
        return mm

    def block(self, inst: Instance, model: Model, grid: SolutionGrid) -> bool:
        # projected onto the cell colours: at least one cell differs from this grid
        assert isinstance(model, MipModel)
        m, white = model.model, model.handles["white"]
        if not hasattr(m, "nogood"):
            m.nogood = pyo.ConstraintList()
        m.nogood.add(sum(1 - white[r, c] if grid[r][c] == WHITE else white[r, c]
                         for r in range(inst.rows) for c in range(inst.cols)) >= 1)
        return True

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        white = model.handles["white"]
        return grid_from_black(inst, (v for v in white if value(white[v]) < 0.5))


@formulation
class MipFlow(_NurikabeMip):
    name = "mip-flow"
    description = ("clue-owned islands (reach-pruned, size sums, clue-rooted flows), black cells "
                   "connected by a single-commodity flow carrying the wall size, no 2x2 black")

    def build(self, inst: Instance) -> Model:
        mm = self.build_local(inst)
        h = mm.handles
        black: dict[Cell, Any] = h["black"]
        # a cell no clue reaches is black in every solution: root the flow there (no root
        # indicators, no root symmetry); otherwise any black cell may be the root
        root = h["unreached"][0] if h["unreached"] else None
        connected(mm.model, black, max_size=h["blacks"], exact_size=True, root=root,
                  name="wall")
        return mm


@formulation
class MipLazy(_NurikabeMip):
    name = "mip-lazy"
    description = ("mip-flow's islands without the wall flow; black connectivity by component "
                   "cuts added after each solve")
    lazy = True
    parameters: ClassVar[dict[str, list[Any]]] = {"cut": ["component", "anchor"]}

    def build(self, inst: Instance) -> Model:
        mm = self.build_local(inst)
        mm.model.cuts = pyo.ConstraintList()
        return mm

    def separate(self, inst: Instance, model: Model, value: Value) -> int:
        assert isinstance(model, MipModel)
        white = model.handles["white"]
        return separate_connectivity(
            model.model.cuts, model.handles["black"], lambda v: value(white[v]) < 0.5,
            inst.rows, inst.cols, min_size=model.handles["blacks"],
            total=model.handles["blacks"] if self.params["cut"] == "anchor" else None)
