"""Shikaku in ASP (clingo): the rectangle cover.

The rules are ``asp_cover.lp`` beside this module: each clue's candidate rectangles (its area,
inside the grid, holding it and no other clue), one picked per clue, every cell covered
exactly once. A cell's value is the number of the clue whose rectangle covers it; counting
blocks those ``val`` atoms (:mod:`formulations._asp`), a grid with other rectangle ids first
renumbered by the clue each rectangle holds.
"""

from __future__ import annotations

from pathlib import Path

from bench.backends.kinds import AspModel
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.registry import formulation
from formulations._asp import AspFormulation

HERE = Path(__file__).resolve().parent


@formulation
class AspCover(AspFormulation):
    """rectangle candidates generated in ASP, one per clue, exact cover of the cells"""

    name = "asp-cover"

    def programs(self) -> list[Path]:
        return [HERE / "asp_cover.lp"]

    def facts(self, inst: Instance, model: AspModel) -> None:
        for i, (r, c, n) in enumerate(inst.clues()):
            model.fact("clue", i, r, c, int(n))

    def block(self, inst: Instance, model: AspModel, grid: SolutionGrid) -> bool:
        """Rename the grid's rectangle ids to the numbers of the clues they hold; a grid
        whose rectangles do not hold one clue each is no solution and needs no block."""
        clue_of: dict[object, int] = {}
        for i, (r, c, _) in enumerate(inst.clues()):
            if grid[r][c] in clue_of:
                return True
            clue_of[grid[r][c]] = i
        if any(v not in clue_of for row in grid for v in row):
            return True
        return super().block(inst, model, [[clue_of[v] for v in row] for row in grid])
