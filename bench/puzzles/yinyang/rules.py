"""Yin-Yang: colour every cell black or white so that the given stones keep their colour, all
white cells form one 4-connected group, all black cells form one 4-connected group, and no 2x2
block is all one colour.

Instance tokens: ``.`` empty, ``w`` given white stone, ``b`` given black stone. Solution:
``"b"`` or ``"w"`` per cell.

A grid of a single colour is judged by the same rules as any other grid, with no special case:
the missing colour's (empty) set of cells counts as connected, so a single-colour grid is valid
exactly when it has no 2x2 block (a grid one cell wide or high) and no given stone of the other
colour (which would be reported as a given stone with the wrong colour).
"""

from __future__ import annotations

from collections.abc import Iterable

from bench.grid import Cell, components
from bench.instance import Instance
from bench.puzzles import Default, Puzzle, SolutionGrid, cells_of, grid_from_cells, register_puzzle

BLACK = "b"
WHITE = "w"
COLOUR_NAME = {BLACK: "black", WHITE: "white"}


def blocks(grid: SolutionGrid) -> list[tuple[int, int, str]]:
    """Top-left corners and colour of the 2x2 blocks whose four cells share one colour."""
    rows, cols = len(grid), len(grid[0]) if grid else 0
    return [
        (r, c, grid[r][c])
        for r in range(rows - 1)
        for c in range(cols - 1)
        if grid[r][c] == grid[r + 1][c] == grid[r][c + 1] == grid[r + 1][c + 1]
    ]


@register_puzzle
class YinYang(Puzzle):
    solution_cells = '"b" black, "w" white'
    default = Default("sat-lazy[implied=all]", "cadical195")

    def parse_token(self, tok: str) -> str | None:
        if tok == ".":
            return None
        if tok in (BLACK, WHITE):
            return tok
        raise ValueError(f"illegal token {tok!r} (expected '.', 'w' or 'b')")

    def validate(self, inst: Instance) -> Iterable[tuple[int | None, str]]:
        """Given stones that no solution can satisfy, within one 2x2 block:

        - four stones of one colour break the 2x2 rule outright;
        - a checkerboard (``w b`` over ``b w``, or the reverse) cannot be completed either: a
          white path joining the two diagonal white stones closes, through their shared corner,
          a curve with one black stone on each side, and no black path can cross it.
        """
        g = inst.grid
        for r in range(inst.rows - 1):
            for c in range(inst.cols - 1):
                a, b, d, e = g[r][c], g[r][c + 1], g[r + 1][c], g[r + 1][c + 1]
                if None in (a, b, d, e):
                    continue
                if a == b == d == e:
                    yield r, (
                        f"2x2 block of given {COLOUR_NAME[a]} stones at row {r}, column {c}"
                    )
                elif a == e and b == d:
                    yield r, (
                        f"checkerboard 2x2 block of given stones at row {r}, column {c} "
                        "(neither colour could then be connected)"
                    )

    def verify(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        problems = self.verify_cells(inst, grid, lambda v: v in (BLACK, WHITE), "'b' or 'w'")
        if problems:
            return problems
        rows, cols = inst.rows, inst.cols
        for r, c, given in inst.clues():
            if grid[r][c] != given:
                problems.append(
                    f"given {COLOUR_NAME[given]} stone at ({r},{c}) is "
                    f"{COLOUR_NAME[grid[r][c]]}"
                )
        problems += [
            f"2x2 block of {COLOUR_NAME[v]} cells at ({r},{c})" for r, c, v in blocks(grid)
        ]
        for colour in (WHITE, BLACK):
            groups = components(cells_of(grid, colour), rows, cols)
            if len(groups) > 1:
                starts = ", ".join(f"({r},{c})" for r, c in (g[0] for g in groups[:5]))
                problems.append(
                    f"{COLOUR_NAME[colour]} cells form {len(groups)} separate groups "
                    f"(starting at {starts})"
                )
        return problems

    def render(self, inst: Instance, grid: SolutionGrid | None = None) -> str:
        """The instance tokens (``.``, ``w``, ``b``); with a solution, ``w``/``b`` for every cell,
        upper case (``W``/``B``) for the given stones."""
        lines = []
        for r, row in enumerate(inst.grid):
            out = []
            for c, v in enumerate(row):
                if grid is None:
                    out.append("." if v is None else v)
                else:
                    cell = str(grid[r][c])
                    out.append(cell.upper() if v is not None else cell)
            lines.append(" ".join(out))
        return "\n".join(lines)


def grid_from_black(inst: Instance, black: Iterable[Cell]) -> SolutionGrid:
    """The solution grid with the given cells black and the rest white."""
    return grid_from_cells(inst.rows, inst.cols, black, BLACK, WHITE)
