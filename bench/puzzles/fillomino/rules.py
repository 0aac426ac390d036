"""Fillomino: write a number in every cell so that every polyomino (maximal 4-connected group of
cells holding the same number) of number n has exactly n cells. Given numbers are kept. Two
polyominoes of the same number cannot share an edge: they would be one larger group.

Instance tokens: ``.`` empty, ``N`` a given number (N >= 1). Solution: an integer per cell.
"""

from __future__ import annotations

from collections.abc import Iterable

from bench.grid import Cell, components, neighbours
from bench.instance import Instance
from bench.puzzles import Default, Puzzle, SolutionGrid, draw_regions, is_int, register_puzzle


def polyominoes(grid: SolutionGrid) -> list[tuple[int, list[Cell]]]:
    """Every maximal 4-connected group of equal numbers as ``(number, cells)``, ordered by the
    group's first cell in reading order. Assumes every cell holds an integer."""
    rows, cols = len(grid), len(grid[0]) if grid else 0
    by_value: dict[int, list[Cell]] = {}
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            by_value.setdefault(v, []).append((r, c))
    out = [(v, comp) for v, cells in by_value.items() for comp in components(cells, rows, cols)]
    return sorted(out, key=lambda vc: vc[1][0])


@register_puzzle
class Fillomino(Puzzle):
    clue_word = "given number"
    solution_cells = "integer: the cell's number (>= 1)"
    default = Default("sat-regions[big=8,pieces=3]", "cadical195")

    def validate(self, inst: Instance) -> Iterable[tuple[int | None, str]]:
        rows, cols = inst.rows, inst.cols
        for r, c, n in inst.clues():
            if n > inst.cells:
                yield r, (
                    f"given number {n} at row {r}, column {c} is larger than the grid "
                    f"({rows}x{cols} = {inst.cells} cells)"
                )
            elif n == 1:
                for nr, nc in neighbours((r, c), rows, cols):
                    if (nr, nc) > (r, c) and inst.grid[nr][nc] == 1:
                        yield r, (
                            f"given 1s at row {r}, column {c} and row {nr}, column {nc} "
                            "are adjacent (they would form a group of 2)"
                        )

    def verify(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        problems = self.verify_cells(inst, grid, lambda v: is_int(v) and v >= 1,
                                     "a positive integer")
        if problems:
            return problems
        for r, c, n in inst.clues():
            if grid[r][c] != n:
                problems.append(f"given number {n} at ({r},{c}) was changed to {grid[r][c]}")
        for n, cells in polyominoes(grid):
            if len(cells) != n:
                r, c = cells[0]
                size = "too big" if len(cells) > n else "too small"
                problems.append(
                    f"region of {n}s at ({r},{c}) has {len(cells)} cell(s), {size} for {n}"
                )
        return problems

    def render(self, inst: Instance, grid: SolutionGrid | None = None) -> str:
        """The given numbers (``.`` for empty) or, with a solution, every number with walls
        drawn between cells of different numbers (polyomino borders)."""
        values = [v for _, _, v in inst.clues()]
        if grid is not None:
            values += [v for row in grid for v in row]
        width = max([len(str(v)) for v in values] + [1])
        if grid is None:
            return "\n".join(
                " ".join(("." if v is None else str(v)).rjust(width) for v in row)
                for row in inst.grid
            )
        return draw_regions(grid, [[str(v).rjust(width) for v in row] for row in grid])
