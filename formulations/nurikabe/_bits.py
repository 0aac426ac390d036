"""Cell sets of a ``rows`` x ``cols`` grid as Python integers (bit ``r * cols + c`` is the
cell (r, c)), and a breadth-first search that grows a whole layer at once with shifts and
masks: each step is a handful of big-integer operations instead of a loop over the cells of
the layer (bit-parallel flood fill: the bitboards of chess programs, Slate and Atkin, "CHESS 4.5 --
The Northwestern University chess program", 1977).
"""

from __future__ import annotations

from collections.abc import Iterator


class Bits:
    """The grid's masks: every cell, the cells with a west and with an east neighbour."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.full = (1 << rows * cols) - 1
        first = sum(1 << r * cols for r in range(rows))  # column 0
        self.has_west = self.full & ~first
        self.has_east = self.full & ~(first << (cols - 1))

    def grow(self, x: int) -> int:
        """``x`` and its cells' orthogonal neighbours."""
        c = self.cols
        return (x | (x << c) | (x >> c) | ((x & self.has_east) << 1)
                | ((x & self.has_west) >> 1)) & self.full

    def ball(self, root: int, allowed: int, steps: int) -> tuple[int, int]:
        """The cells reached from cell ``root`` through ``allowed`` cells (of the grid) in at
        most ``steps`` steps, and those of them reached in fewer than ``steps`` (the cells
        whose neighbours the search looked at; all of them when it ran out of cells first).
        The cells still open to the search are kept as one set, so a layer is the shifted
        front masked once (the grid mask is implied: the open cells are grid cells)."""
        c, east, west = self.cols, self.has_east, self.has_west
        reach = front = 1 << root
        avail = allowed & ~reach
        inner = 0
        for _ in range(steps):
            inner = reach
            front = (front << c | front >> c | (front & east) << 1 | (front & west) >> 1) & avail
            if not front:
                return reach, reach
            avail ^= front
            reach |= front
        return reach, inner


def cells(x: int) -> Iterator[int]:
    """The cells of ``x``, in increasing order."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low
