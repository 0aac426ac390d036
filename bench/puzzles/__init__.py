"""Puzzles: one folder (package) per puzzle, found through the ``puzzlebench.puzzles`` entry
points (:mod:`.registry`): ``rules.py``, ``codec.py``, ``picture.py``, ``tiny.py``, its
generator and ``data/``, reached through the hooks of :class:`Puzzle` (:mod:`.base`).

Each ``rules.py`` defines a :class:`Puzzle` subclass and registers it with
:func:`register_puzzle`. Formulations never re-implement these rules; the harness checks every
returned grid here. This package re-exports the base types and the registry, and holds small
helpers shared by several puzzles' rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bench.grid import Cell
from bench.puzzles.base import (
    Default,
    Instance,
    Puzzle,
    SolutionGrid,
    Token,
    parse_positive_int,
)
from bench.puzzles.registry import get_puzzle, puzzle_names, register_puzzle

__all__ = [
    "Default", "Instance", "Puzzle", "SolutionGrid", "Token", "cells_of", "draw_regions",
    "get_puzzle", "grid_from_cells", "is_int", "parse_positive_int", "puzzle_names",
    "register_puzzle",
]


def cells_of(grid: SolutionGrid, value: Any) -> list[Cell]:
    """The cells of a solution grid holding ``value``, in reading order."""
    return [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == value]


def grid_from_cells(rows: int, cols: int, cells: Iterable[Cell], on: Any,
                    off: Any) -> SolutionGrid:
    """A ``rows x cols`` solution grid holding ``on`` at ``cells`` and ``off`` elsewhere."""
    grid: SolutionGrid = [[off] * cols for _ in range(rows)]
    for r, c in cells:
        grid[r][c] = on
    return grid


def draw_regions(grid: SolutionGrid, labels: list[list[str]]) -> str:
    """Box drawing of a partition: ``labels`` in the cells, walls between cells whose
    ``grid`` values differ (Shikaku rectangles, Fillomino polyominoes)."""
    rows, cols = len(grid), len(grid[0]) if grid else 0
    width = max([len(t) for row in labels for t in row] + [1])

    def same(r: int, c: int, r2: int, c2: int) -> bool:
        return r2 < rows and c2 < cols and grid[r][c] == grid[r2][c2]

    lines = ["+" + "+".join("-" * width for _ in range(cols)) + "+"]
    for r in range(rows):
        cells, below = "|", "+"
        for c in range(cols):
            cells += labels[r][c].rjust(width) + (" " if same(r, c, r, c + 1) else "|")
            below += (" " if same(r, c, r + 1, c) else "-") * width + "+"
        lines += [cells, below]
    return "\n".join(lines)


def is_int(v: Any) -> bool:
    """An integer solution value (JSON true/false are not)."""
    return isinstance(v, int) and not isinstance(v, bool)
