"""Brute-force counts the encoding tests compare with (pure Python, tiny grids only)."""

from __future__ import annotations

from itertools import combinations

from bench.encodings.cells import components_in
from bench.grid import Cell, all_cells


def subsets(rows: int, cols: int) -> list[frozenset[Cell]]:
    cells = all_cells(rows, cols)
    return [frozenset(c) for k in range(len(cells) + 1) for c in combinations(cells, k)]


def connected_subsets(rows: int, cols: int, *, containing: Cell | None = None,
                      max_size: int | None = None) -> set[frozenset[Cell]]:
    """The connected cell sets of the grid (the empty set included unless ``containing``)."""
    return {s for s in subsets(rows, cols)
            if len(components_in(s)) <= 1
            and (containing is None or containing in s)
            and (max_size is None or len(s) <= max_size)}


def no_pool_subsets(rows: int, cols: int) -> set[frozenset[Cell]]:
    """The cell sets with no 2x2 block all in the set."""
    return {s for s in subsets(rows, cols)
            if not any({(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} <= s
                       for r in range(rows - 1) for c in range(cols - 1))}
