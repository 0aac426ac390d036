"""Shakashaka in CP-SAT, the placement view: choose white rectangles.

Candidates are every rectangle, upright (whole white cells) or at 45 degrees (corners at grid
points, so both side lengths are even in the rotated coordinates u = row + col, v = row -
col), lying inside the grid over open cells only (:func:`candidates`), given as the set of
quarters it covers. Quarter literals and the five cell patterns are those of :mod:`._local`.
Rows:

* exact cover: each open quarter is white iff exactly one chosen rectangle covers it;
* separation: a chosen rectangle's outside neighbours (quarters sharing a side with one of its
  quarters) are black, so no two chosen rectangles share an edge and each is a whole white
  area;
* numbers: as in ``cpsat-local``, a linear sum of the neighbours' "not all white" literals.

Exact: in a valid grid every white area is a candidate and the areas form such a cover; a
cover with separated rectangles makes every white area one chosen rectangle. A candidate
that would take more whole white cells next to a number than the number allows is dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bench.instance import Instance
from bench.models import CpsatModel
from bench.registry import formulation
from formulations.shakashaka._cpsat import QuarterCpsat
from formulations.shakashaka._local import (
    cell_cnf,
    clue_neighbours,
    is_open,
    open_cells,
    qkey,
)

Quarter = tuple[int, int, int]
#: a quarter's centroid inside its cell, in sixths of a cell (row, col), for N, E, S, W
CENTROID6 = ((1, 3), (3, 5), (5, 3), (3, 1))
#: the quarter across a cell edge: (row step, col step, facing quarter), for N, E, S, W
ACROSS = ((-1, 0, 2), (0, 1, 3), (1, 0, 0), (0, -1, 1))


def _diamond(inst: Instance, u0: int, u1: int, v0: int, v1: int) -> list[Quarter] | None:
    corners = [((u + v) // 2, (u - v) // 2) for u in (u0, u1) for v in (v0, v1)]
    if not all(0 <= y <= inst.rows and 0 <= x <= inst.cols for y, x in corners):
        return None
    out = []
    for r in range((u0 + v0) // 2, (u1 + v1) // 2):
        for c in range((u0 - v1) // 2, (u1 - v0) // 2):
            for q, (dy, dx) in enumerate(CENTROID6):
                y, x = 6 * r + dy, 6 * c + dx
                if 6 * u0 <= y + x <= 6 * u1 and 6 * v0 <= y - x <= 6 * v1:
                    if not is_open(inst, r, c):
                        return None
                    out.append((r, c, q))
    return out


def candidates(inst: Instance) -> Iterator[list[Quarter]]:
    """Every upright and 45-degree rectangle over open cells, as its quarters."""
    rows, cols = inst.rows, inst.cols
    for r0 in range(rows):
        for c0 in range(cols):
            width = cols - c0  # grows no further than the first black cell of each row
            for r1 in range(r0, rows):
                w = next((k for k in range(width) if not is_open(inst, r1, c0 + k)), width)
                width = min(width, w)
                if not width:
                    break
                for c1 in range(c0, c0 + width):
                    yield [(r, c, q) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
                           for q in range(4)]
    for u0 in range(rows + cols + 1):
        for v0 in range(-cols + (cols + u0) % 2, rows + 1, 2):  # u0 + v0 even: a grid point
            for u1 in range(u0 + 2, rows + cols + 1, 2):
                for v1 in range(v0 + 2, rows + 1, 2):
                    quarters = _diamond(inst, u0, u1, v0, v1)
                    if quarters is None:
                        break  # larger v1 only leaves the grid or meets the same black cell
                    yield quarters


def _number_room(inst: Instance) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Per open cell, for each number next to it: (number index, how many of the number's
    open neighbours may be whole white cells)."""
    room: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for k, (n, nbrs) in enumerate(clue_neighbours(inst)):
        for p in nbrs:
            room.setdefault(p, []).append((k, len(nbrs) - n))
    return room


def _fits_numbers(room: dict[tuple[int, int], list[tuple[int, int]]],
                  quarters: list[Quarter]) -> bool:
    """False if the rectangle takes more whole white cells next to a number than it allows."""
    parts: dict[tuple[int, int], int] = {}
    for r, c, _ in quarters:
        parts[r, c] = parts.get((r, c), 0) + 1
    used: dict[int, int] = {}
    for p, k in parts.items():
        if k == 4:
            for i, free in room.get(p, ()):
                used[i] = used.get(i, 0) + 1
                if used[i] > free:
                    return False
    return True


@formulation
class CpsatRects(QuarterCpsat):
    name = "cpsat-rects"
    description = "exact cover of white quarters by candidate rectangles, none sharing an edge"

    def build(self, inst: Instance) -> CpsatModel:
        m, cp = self.quarters(inst, (cl for r, c in open_cells(inst) for cl in cell_cnf(r, c)))
        lit = m.handles["lit"]
        cover: dict[Quarter, list[Any]] = {}
        room = _number_room(inst)
        for i, quarters in enumerate(candidates(inst)):
            if not _fits_numbers(room, quarters):
                continue
            x = cp.new_bool_var(f"rect{i}")
            inside = set(quarters)
            for r, c, q in quarters:
                cover.setdefault((r, c, q), []).append(x)
                dr, dc, f = ACROSS[q]
                for s in ((r, c, (q + 1) % 4), (r, c, (q + 3) % 4), (r + dr, c + dc, f)):
                    if s not in inside and is_open(inst, s[0], s[1]):
                        cp.add_implication(x, ~lit[qkey(*s)])  # separation
        for r, c in open_cells(inst):
            for q in range(4):
                cp.add(sum(cover.get((r, c, q), [])) == lit[qkey(r, c, q)])
        return m
