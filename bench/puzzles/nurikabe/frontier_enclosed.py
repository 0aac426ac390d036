"""An exact room bound of the frontier programme of :mod:`bench.puzzles.nurikabe.frontier`: an
island whose frontier cells another colour's joins must pass under has only the cells those
joins can enclose left to grow in.

Let island ``y`` have frontier cells at positions ``y_1 < ... < y_m`` and let another colour
``x`` have a component entirely left of ``y_1`` and one entirely right of ``y_m``, no
component of ``x`` having cells on both sides of any ``y_i``. In a solution ``x`` is connected,
so the components of ``x`` are joined by paths of cells still to come between their frontier
cells (chords, as in :mod:`.frontier_planar`); going from the left component to the right one
along them, the side of ``y_i`` changes only along a chord, so for each ``y_i`` some chord
``(a, b)`` has ``a < y_i < b``. Its path and the frontier between ``a`` and ``b`` close a curve
around the cells below ``y_i``; a path of ``y`` cells cannot cross a path of ``x`` cells (two
4-connected lattice paths that cross share a cell), so every cell of ``y`` still to come lies
inside such a curve. A cell inside a curve of grid cells is in no outer row or column of the
grid (the ray from it to the edge meets no curve). So the cells of ``y`` still to come lie in
the rest of the current row and in the full rows below it but the last, columns ``1`` to
``cols - 2``: at most ``part + max(0, rows - r - 2) * (cols - 2)`` cells after cell ``(r, c)``
(``part = cols - 1 - c``); a tally leaving ``y`` more than that to grow has no completion. The
argument is the Jordan curve theorem on the plane graph of :mod:`.frontier_planar`."""

from __future__ import annotations

from bisect import bisect
from functools import lru_cache


@lru_cache(maxsize=1 << 20)
def enclosed(codes: tuple[int, ...], k: int) -> int:
    """The islands ``y < k`` of the frontier ``codes`` (colour * 64 + label, -1: no cell)
    enclosed by another colour's joins (the module docstring), as bits ``1 << y``."""
    cells: dict[int, list[int]] = {}  # colour -> positions
    comps: dict[int, dict[int, list[int]]] = {}  # colour -> code -> positions
    for j, q in enumerate(codes):
        if q >= 0:
            cells.setdefault(q >> 6, []).append(j)
            comps.setdefault(q >> 6, {}).setdefault(q, []).append(j)
    out = 0
    for y, ys in cells.items():
        if y >= k:
            continue
        for x, parts in comps.items():
            if x != y and len(parts) > 1 and _around(parts.values(), ys):
                out |= 1 << y
                break
    return out


def _around(parts: object, ys: list[int]) -> bool:
    """Whether the components ``parts`` (lists of positions) of a colour include one left of
    every position of ``ys`` and one right of all, none having positions on both sides of
    one of ``ys``."""
    left = right = False
    for positions in parts:  # type: ignore[attr-defined]
        gap = bisect(ys, positions[0])
        if any(bisect(ys, j) != gap for j in positions):
            return False
        if gap == 0:
            left = True
        elif gap == len(ys):
            right = True
    return left and right


def lift(mask: int, sizes: list[int], pos: list[int], guard: int, room: int) -> int:
    """The packed addend whose sum with a tally keeps every field's guard bit exactly when
    each island ``y`` of ``mask`` has at least ``sizes[y] - room`` cells (the others: any
    number); 0 when no island of ``mask`` needs more than ``room``."""
    out = 0
    bites = False
    for y, p in enumerate(pos):
        least = sizes[y] - room if y < len(sizes) and mask >> y & 1 else 0
        if least > 0:
            bites = True
            out |= (guard - least) << p
        else:
            out |= guard << p
    return out if bites else 0
