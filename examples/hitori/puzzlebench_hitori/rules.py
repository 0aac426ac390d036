"""Hitori: shade some cells black so that, among the white cells, no number repeats in a row or
a column; no two black cells are orthogonally adjacent; and all white cells form one
4-connected group.

Instance tokens: a positive integer in every cell. Solution: ``"#"`` black or ``"."`` white per
cell. A grid with no white cell breaks nothing but can only arise on a 1x1 board (two black
cells are never adjacent), and then the single white cell is allowed too.
"""

from __future__ import annotations

from collections.abc import Iterable

from bench.grid import Cell, components
from bench.instance import Instance
from bench.puzzles import Puzzle, SolutionGrid, cells_of, register_puzzle

BLACK = "#"
WHITE = "."


def lines(rows: int, cols: int) -> list[list[Cell]]:
    """Every row and every column of a ``rows x cols`` grid, as lists of cells."""
    return ([[(r, c) for c in range(cols)] for r in range(rows)]
            + [[(r, c) for r in range(rows)] for c in range(cols)])


def repeats(inst: Instance, line: list[Cell]) -> dict[int, list[Cell]]:
    """The numbers that occur more than once on ``line``, with their cells."""
    seen: dict[int, list[Cell]] = {}
    for r, c in line:
        seen.setdefault(inst.grid[r][c], []).append((r, c))
    return {k: v for k, v in seen.items() if len(v) > 1}


@register_puzzle
class Hitori(Puzzle):
    name = "hitori"
    solution_cells = '"#" black, "." white'

    def validate(self, inst: Instance) -> Iterable[tuple[int | None, str]]:
        for r, row in enumerate(inst.grid):
            for c, v in enumerate(row):
                if v is None:
                    yield r, f"cell ({r},{c}) is empty: every Hitori cell holds a number"

    def verify(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        problems = self.verify_cells(inst, grid, lambda v: v in (BLACK, WHITE),
                                     f'"{BLACK}" or "{WHITE}"')
        if problems:
            return problems
        black = set(cells_of(grid, BLACK))
        white = cells_of(grid, WHITE)
        for r, c in sorted(black):
            for n in ((r + 1, c), (r, c + 1)):
                if n in black:
                    problems.append(f"black cells ({r},{c}) and {n} are adjacent")
        for line in lines(inst.rows, inst.cols):
            for number, cells in repeats(inst, [v for v in line if v not in black]).items():
                problems.append(f"{number} is white more than once on a line: cells "
                                + ", ".join(map(str, cells)))
        parts = components(white, inst.rows, inst.cols)
        if len(parts) > 1:
            problems.append(f"the white cells form {len(parts)} groups, not one")
        return problems

    def render(self, inst: Instance, grid: SolutionGrid | None = None) -> str:
        width = max(len(str(v)) for row in inst.grid for v in row)
        return "\n".join(
            " ".join(("#" * width if grid and grid[r][c] == BLACK else str(v).rjust(width))
                     for c, v in enumerate(row))
            for r, row in enumerate(inst.grid))
