"""What both Hitori formulations read from an instance: the pairs of cells on one line that
hold the same number (at most one of each such pair is white)."""

from __future__ import annotations

from itertools import combinations

from bench.grid import Cell
from bench.instance import Instance
from puzzlebench_hitori.rules import lines, repeats


def equal_pairs(inst: Instance) -> list[tuple[Cell, Cell]]:
    """Every pair of cells on one row or column with the same number, each pair once."""
    return [pair for line in lines(inst.rows, inst.cols)
            for cells in repeats(inst, line).values() for pair in combinations(cells, 2)]


def adjacent_pairs(inst: Instance) -> list[tuple[Cell, Cell]]:
    """Every pair of orthogonally adjacent cells (at most one of each is black)."""
    return ([((r, c), (r, c + 1)) for r in range(inst.rows) for c in range(inst.cols - 1)]
            + [((r, c), (r + 1, c)) for r in range(inst.rows - 1) for c in range(inst.cols)])
