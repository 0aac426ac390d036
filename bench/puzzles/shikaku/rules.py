"""Shikaku: divide the grid into rectangles, each holding exactly one number equal to its area.

Instance tokens: ``.`` empty, ``N`` a clue (N >= 1). Solution: an integer rectangle id per cell
(any distinct ids).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from bench.grid import Cell
from bench.instance import Instance
from bench.puzzles import (
    Default,
    Puzzle,
    SolutionGrid,
    draw_regions,
    is_int,
    register_puzzle,
)


class Box(NamedTuple):
    """A rectangle of cells: its top-left cell and its size (the one rectangle type of the
    rules and the generator)."""

    top: int
    left: int
    height: int
    width: int

    @property
    def area(self) -> int:
        return self.height * self.width

    def cells(self) -> Iterable[Cell]:
        for r in range(self.top, self.top + self.height):
            for c in range(self.left, self.left + self.width):
                yield r, c


@dataclass(frozen=True)
class Rect:
    """A candidate rectangle for clue ``clue`` (index into ``inst.clues()``)."""

    clue: int
    top: int
    left: int
    height: int
    width: int

    @property
    def box(self) -> Box:
        return Box(self.top, self.left, self.height, self.width)

    def cells(self) -> Iterable[Cell]:
        return self.box.cells()


def shapes(area: int, rows: int, cols: int) -> list[tuple[int, int]]:
    """Every (height, width) with height * width == area that fits a rows x cols grid."""
    return [
        (h, area // h)
        for h in range(1, min(area, rows) + 1)
        if area % h == 0 and area // h <= cols
    ]


def candidate_rectangles(inst: Instance) -> list[Rect]:
    """Every rectangle that contains exactly one clue, whose value is the rectangle's area."""
    rows, cols = inst.rows, inst.cols
    # 2-D prefix sums of clue counts: clues inside any rectangle in O(1)
    pre = [[0] * (cols + 1) for _ in range(rows + 1)]
    for r in range(rows):
        acc = 0
        for c in range(cols):
            acc += inst.grid[r][c] is not None
            pre[r + 1][c + 1] = pre[r][c + 1] + acc
    out: list[Rect] = []
    for k, (r, c, n) in enumerate(inst.clues()):
        for h, w in shapes(n, rows, cols):
            for top in range(max(0, r - h + 1), min(r, rows - h) + 1):
                for left in range(max(0, c - w + 1), min(c, cols - w) + 1):
                    inside = (
                        pre[top + h][left + w] - pre[top][left + w]
                        - pre[top + h][left] + pre[top][left]
                    )
                    if inside == 1:
                        out.append(Rect(k, top, left, h, w))
    return out


@register_puzzle
class Shikaku(Puzzle):
    default = Default("cpsat-cover", "cpsat")
    solution_cells = "integer rectangle id"

    def validate(self, inst: Instance) -> Iterable[tuple[int | None, str]]:
        for r, c, n in inst.clues():
            if not shapes(n, inst.rows, inst.cols):
                yield r, (
                    f"clue {n} at row {r}, column {c} cannot fit: no rectangle of area {n} "
                    f"fits a {inst.rows}x{inst.cols} grid"
                )

    def verify(self, inst: Instance, grid: SolutionGrid) -> list[str]:
        problems = self.verify_cells(inst, grid, is_int, "an integer id")
        if problems:
            return problems
        cells: dict[object, list[tuple[int, int]]] = {}
        for r, row in enumerate(grid):
            for c, v in enumerate(row):
                cells.setdefault(v, []).append((r, c))
        for rid, members in sorted(cells.items(), key=lambda kv: kv[1][0]):
            rs = [r for r, _ in members]
            cs = [c for _, c in members]
            top, bottom, left, right = min(rs), max(rs), min(cs), max(cs)
            area = (bottom - top + 1) * (right - left + 1)
            where = f"region {rid} at ({top},{left})"
            if area != len(members):
                problems.append(f"{where} is not a rectangle")
                continue
            clues = [inst.grid[r][c] for r, c in members if inst.grid[r][c] is not None]
            if len(clues) != 1:
                problems.append(f"{where} holds {len(clues)} numbers, not exactly one")
            elif clues[0] != area:
                problems.append(f"{where} has area {area} but holds the number {clues[0]}")
        return problems

    def same(self, inst: Instance, a: SolutionGrid, b: SolutionGrid) -> bool:
        return boxes(a) == boxes(b)

    def render(self, inst: Instance, grid: SolutionGrid | None = None) -> str:
        """Box drawing: clue numbers in cells, walls between different rectangles."""
        width = max([len(str(v)) for _, _, v in inst.clues()] + [1])
        if grid is None:
            return "\n".join(
                " ".join(("." if v is None else str(v)).rjust(width) for v in row)
                for row in inst.grid
            )
        return draw_regions(grid, [["" if v is None else str(v) for v in row]
                                   for row in inst.grid])


def grid_from_rects(inst: Instance, rects: Iterable[Rect]) -> SolutionGrid:
    """The solution grid (rectangle id = clue index) from chosen rectangles; uncovered cells
    get id -1, which the verifier rejects."""
    grid: SolutionGrid = [[-1] * inst.cols for _ in range(inst.rows)]
    for rect in rects:
        for r, c in rect.cells():
            grid[r][c] = rect.clue
    return grid


def cells_to_rects(inst: Instance, rects: list[Rect]) -> dict[tuple[int, int], list[int]]:
    """For each cell, the indices (into ``rects``) of the candidate rectangles covering it."""
    cover: dict[tuple[int, int], list[int]] = {
        (r, c): [] for r in range(inst.rows) for c in range(inst.cols)
    }
    for i, rect in enumerate(rects):
        for cell in rect.cells():
            cover[cell].append(i)
    return cover


def boxes(grid: SolutionGrid) -> set[Box]:
    """The bounding :class:`Box` of every region of a solution grid."""
    seen: dict[object, list[int]] = {}  # region id -> [top, left, bottom, right]
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            b = seen.setdefault(v, [r, c, r, c])
            b[0], b[1], b[2], b[3] = min(b[0], r), min(b[1], c), max(b[2], r), max(b[3], c)
    return {Box(t, lf, bt - t + 1, rt - lf + 1) for t, lf, bt, rt in seen.values()}


def chosen(rects: list[Rect], grid: SolutionGrid) -> list[int]:
    """Indices of the candidate rectangles that a (checked) solution grid uses."""
    used = boxes(grid)
    return [i for i, r in enumerate(rects) if r.box in used]
