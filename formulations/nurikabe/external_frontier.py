"""Nurikabe by exhaustion: the frontier (transfer-matrix) dynamic programme over the cells in
row-major order, with a witness colouring per state, for puzzles with few clues.

The programme is :func:`bench.puzzles.nurikabe.frontier.solve` (the solution counter
of the few-clue generator with a witness per state): it enumerates every partial colouring of
the processed cells, merged by their frontier state (the colour and connectivity of the last
cell of every column, the diagonal cell, the closed colours and the cells of each island so
far), so it answers a solution and the exact number of solutions, or that there is none, by
exhaustion -- no search, no propagation (the method of I. Jensen, "Enumerations of lattice
animals and trees", J. Stat. Phys. 102 (2001), and the frontier-based search of Kawahara et
al., IEICE Trans. Fundamentals E100.A (2017)). Its states grow with the number of clues and the
width of the grid (its shorter side), not with how hard the puzzle is for a search: it is for
the two- and three-clue puzzles whose huge islands starve a SAT solver of propagation.

It runs in the task's process as an ``external`` model (no package beyond the harness); it
refuses (:meth:`FrontierNurikabe.skip`) grids with more than :attr:`~FrontierNurikabe.max_clues`
clues, a shorter side over :attr:`~FrontierNurikabe.max_width` or more than
:attr:`~FrontierNurikabe.max_cells` cells (a witness holds every cell); a frontier that passes
:attr:`~FrontierNurikabe.max_states` states within one step is stopped there and fails the task
as an ``error`` whose message gives the state count (a failure the reports score as unsolved,
never a skip, which would leave the instance out).
Counting (``solve --count N``) blocks a found solution by its wall cells: the programme carries
the excluded solutions in its states, and a count already known exactly from the last run
answers "no further solution" without running again.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar

from bench.backends.kinds import ExternalAnswer, ExternalModel
from bench.grid import Cell
from bench.instance import Instance
from bench.models import Value
from bench.puzzles import SolutionGrid, grid_from_cells
from bench.puzzles.nurikabe.frontier import BITS, FrontierTooBig, solve
from bench.puzzles.nurikabe.rules import BLACK, WHITE
from bench.registry import Formulation, formulation


def clue_grid(inst: Instance) -> list[list[int | None]]:
    """The instance's clue sizes (None for an empty cell)."""
    return [[None if v is None else int(v) for v in row] for row in inst.grid]


@dataclass
class Answered:
    """The last run's answer (its wall cells), its exact count of the solutions not excluded
    then, and how many were excluded then (0 solutions: no answer yet)."""

    wall: frozenset[Cell] = frozenset()
    solutions: int = 0
    excluded: int = 0


@formulation
class FrontierNurikabe(Formulation[ExternalModel]):
    name = "frontier"
    kind = "external"
    peer = None  # ours: it calls no package (external only in that it solves in Python)
    description = ("exhaustive frontier (transfer-matrix) DP over the cells with a witness per "
                   "state, for 1-3 clues (Jensen 2001; Kawahara et al. 2017)")
    #: the most clues it takes (each is a colour of the frontier: the states grow with them)
    max_clues: ClassVar[int] = 3
    #: the widest frontier (the grid's shorter side) it takes
    max_width: ClassVar[int] = 12
    #: the most cells it takes (each state's witness has a colour per cell)
    max_cells: ClassVar[int] = 300
    #: the state budget of one step
    max_states: ClassVar[int] = 8_000_000

    def skip(self, inst: Instance) -> str | None:
        clues = list(inst.clues())
        if not clues:
            return "a grid without clues"
        if len(clues) > self.max_clues:
            return (f"{len(clues)} clues: the frontier programme takes at most "
                    f"{self.max_clues} (its states grow with the clues)")
        width = min(inst.rows, inst.cols)
        if width > self.max_width:
            return f"a frontier {width} cells wide, over {self.max_width}"
        if inst.rows * inst.cols > self.max_cells:
            return (f"{inst.rows * inst.cols} cells, over {self.max_cells} (each state's "
                    "witness holds every cell)")
        biggest = max(max(int(v) for _, _, v in clues),
                      inst.rows * inst.cols - sum(int(v) for _, _, v in clues))
        if biggest >= 1 << BITS:
            return f"an island or the wall of {biggest} cells, over {(1 << BITS) - 1}"
        return None

    def build(self, inst: Instance) -> ExternalModel:
        grid = clue_grid(inst)
        excluded: list[frozenset[Cell]] = []
        last = Answered()

        def run(time_limit: float, threads: int, seed: int) -> ExternalAnswer:
            t0 = time.perf_counter()
            if last.solutions == 1 and excluded[last.excluded:] == [last.wall]:
                # the one solution left was answered and is now excluded
                return ExternalAnswer("infeasible", None, time.perf_counter() - t0)
            try:
                found = solve(grid, self.max_states, t0 + time_limit, tuple(excluded))
            except FrontierTooBig as e:  # the budget spent: the task fails with the count
                raise RuntimeError(f"frontier too wide for this instance: {e}") from None
            solver_s = time.perf_counter() - t0
            if found.colours is None:
                return ExternalAnswer(found.status, None, solver_s)
            wall = len(inst.clues())
            walls = frozenset((r, c) for r, row in enumerate(found.colours)
                              for c, x in enumerate(row) if x == wall)
            last.wall, last.solutions, last.excluded = walls, found.solutions, len(excluded)
            values: dict[Hashable, float] = {
                (r, c): float((r, c) in walls) for r in range(inst.rows)
                for c in range(inst.cols)}
            return ExternalAnswer("sat", values, solver_s)

        model = ExternalModel.new(run)
        model.handles["excluded"] = excluded
        model.variables = inst.rows * inst.cols
        return model

    def decode(self, inst: Instance, model: ExternalModel, value: Value) -> SolutionGrid:
        black = [(r, c) for r in range(inst.rows) for c in range(inst.cols)
                 if value((r, c)) > 0.5]
        return grid_from_cells(inst.rows, inst.cols, black, BLACK, WHITE)

    def block(self, inst: Instance, model: ExternalModel, grid: SolutionGrid) -> bool:
        model.handles["excluded"].append(frozenset(
            (r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == BLACK))
        return True
