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
(``part = cols - 1 - c``); a tally leaving ``y`` more than that to grow has no completion.
Moreover the curve crosses each of those full rows holding cells of ``y`` on both sides of
them, at cells of ``x`` still to come, and the cells beside the first and the last cell of
``y`` in such a row are wall (no other island may touch ``y``): such rows are at most half of
``x``'s and half of the wall's cells still to come (:func:`roomy`, with two islands). The
argument is the Jordan curve theorem on the plane graph of :mod:`.frontier_planar`."""

from __future__ import annotations

from functools import lru_cache

from bench.puzzles.nurikabe.frontier_bounds import GUARD, Sweep

#: the outer rows and columns on each side that hold no enclosed cell (the bottom row, the
#: first and last columns: one each)
BOTTOM = 1
#: the cells of the encloser, and of the wall, in each full row holding enclosed cells: one on
#: each side
SIDES = 2


@lru_cache(maxsize=1 << 20)
def enclosed(codes: tuple[int, ...], k: int) -> int:
    """The islands ``y < k`` of the frontier ``codes`` (colour * 64 + label, -1: no cell)
    enclosed by another colour ``x``'s joins (the module docstring), as bits
    ``1 << 4 * y + x``; 0 (no bound) for more than three clues (``k > 3``), whose wall colour
    ``k`` would not fit the four bits an island has. A colour
    encloses ``y`` when its first cell is left of ``y``'s first, its last right of ``y``'s
    last, and none of its components has cells on both sides of one of ``y``'s (so the first
    and the last are two components)."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    if k > 3:
        return 0
    for j, q in enumerate(codes):
        if q >= 0:
            first.setdefault(q >> 6, j)
            last[q >> 6] = j
    out = 0
    for y, lo in first.items():
        if y >= k:
            continue
        hi = last[y]
        for x, start in first.items():
            if start < lo and last[x] > hi and _apart(codes, x, y, start, last[x]):
                out |= 1 << 4 * y + x
    return out


def _apart(codes: tuple[int, ...], x: int, y: int, start: int, end: int) -> bool:
    """Whether no component of colour ``x`` has cells on both sides of a cell of colour ``y``
    (between positions ``start`` and ``end`` of ``codes``)."""
    gap: dict[int, int] = {}  # a component's code -> the cells of y left of its first cell
    seen = 0  # the cells of y so far
    for q in codes[start:end + 1]:
        if q < 0:
            continue
        if q >> 6 == y:
            seen += 1
        elif q >> 6 == x and gap.setdefault(q, seen) != seen:
            return False
    return True


def lift(mask: int, sizes: list[int], pos: list[int], guard: int, room: int) -> int:
    """The packed addend whose sum with a tally keeps every field's guard bit exactly when
    each island ``y`` of ``mask`` (bits ``4 * y`` to ``4 * y + 3``) has at least
    ``sizes[y] - room`` cells (the others: any number); 0 when none needs more than ``room``."""
    out = 0
    bites = False
    for y, p in enumerate(pos):
        least = sizes[y] - room if y < len(sizes) and mask >> 4 * y & 15 else 0
        if least > 0:
            bites = True
            out |= (guard - least) << p
        else:
            out |= guard << p
    return out if bites else 0


def shifted(ok: frozenset[int], low: int, step: int) -> frozenset[int]:
    """The values ``t & low`` of a tally ``t`` before a step of ``step`` for which ``t + step &
    low`` is in ``ok``, for tallies whose fields do not overflow into their guard bits (those
    that pass the bound): the step then adds ``step & low`` there."""
    s = step & low
    return frozenset(o - s for o in ok if o >= s and (o - s) & ~low == 0)


def roomy(sw: Sweep, shut: int, r: int, c: int, low: int, ok: frozenset[int], step: int,
          memo: dict[int, frozenset[int]]) -> tuple[int, int, frozenset[int]]:
    """For a tally of a profile with enclosed islands ``shut`` (:func:`enclosed`) taking a step
    ``step`` at cell ``(r, c)``: an addend for :func:`lift` (0: none), a mask and its allowed
    values before the step (``ok`` of ``low`` too). Each row of an enclosed island's cells in
    the full rows holds cells of the encloser on both sides (the curve crosses it twice) and a
    wall cell beside its first and its last (its neighbours of no island), so those rows are
    at most half the encloser's and half the wall's cells still to come: with two islands the
    tallies (the wall's and island 0's fields fix island 1's) are listed; else the rows are
    bounded by the rows left alone. ``memo`` keeps the tallies listed per ``shut`` for the
    other steps of the same cell."""
    part = sw.cols - 1 - c
    rows = max(0, sw.rows - r - 1 - BOTTOM)  # the full rows below but the last
    width = sw.cols - 2 * BOTTOM  # and in them the columns but the outer two
    if sw.k != 2:
        return lift(shut, sw.sizes, sw.pos, GUARD, part + rows * width), low, shifted(
            ok, low, step)
    mask = (GUARD - 1) | (GUARD - 1) << sw.pos[0]
    if shut in memo:
        return 0, mask, shifted(memo[shut], mask, step)
    done = r * sw.cols + c + 1
    pairs = [(y, x) for y in (0, 1) for x in range(3) if shut >> 4 * y + x & 1]
    allowed = set()
    for w in range(min(sw.walls, done) + 1):
        for a in range(min(sw.sizes[0], done - w) + 1):
            left = [sw.sizes[0] - a, sw.sizes[1] - done + w + a, sw.walls - w]
            if left[1] < 0 or (low and w | a << sw.pos[0] not in ok):
                continue
            if all(left[y] <= part + min(rows, left[x] // SIDES, left[2] // SIDES) * width
                   for y, x in pairs):
                allowed.add(w | a << sw.pos[0])
    memo[shut] = frozenset(allowed)
    return 0, mask, shifted(memo[shut], mask, step)
