"""Shikaku on puzz.link (``Number16``, pid ``shikaku`` or its alias ``sikaku``) and janko.at
(solution: any token per cell, each 4-connected area of equal tokens one rectangle)."""

from __future__ import annotations

from bench.codec import Codec, JankoTokens
from bench.convert.pzpr.number16 import NUMBER16
from bench.grid import components
from bench.puzzles import SolutionGrid, cells_of


def regions(grid: SolutionGrid) -> SolutionGrid:
    """Each 4-connected area of equal tokens becomes one integer id, numbered in reading
    order of the areas' first cells."""
    rows, cols = len(grid), len(grid[0])
    areas = [area for tok in {v for row in grid for v in row}
             for area in components(cells_of(grid, tok), rows, cols)]
    ids: SolutionGrid = [[-1] * cols for _ in range(rows)]
    for k, area in enumerate(sorted(areas)):
        for r, c in area:
            ids[r][c] = k
    return ids


CODEC = Codec(
    puzzle="shikaku",
    pids=("shikaku", "sikaku"),
    encoding=NUMBER16,
    janko=JankoTokens(names=("sikaku", "shikaku"), problem_numbers=True, solution_raw=True,
                      regroup=regions),
)
