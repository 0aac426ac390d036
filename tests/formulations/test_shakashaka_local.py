"""The local characterisation (every white wedge 90, 180 or 360 degrees) agrees with the
rules module's checker and with a brute-force rectangle test on random grids."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bench.puzzles.shakashaka.rules import WHITE_QUARTERS, region_problems
from formulations.shakashaka._local import FORBIDDEN, quarters_of, wedges_ok

TOKENS = list(WHITE_QUARTERS)  # "." "#" and the four triangles
# centroid of each quarter of the unit cell, as (row, col) offsets
CENTROID = {0: (Fraction(1, 6), Fraction(1, 2)), 1: (Fraction(1, 2), Fraction(5, 6)),
            2: (Fraction(5, 6), Fraction(1, 2)), 3: (Fraction(1, 2), Fraction(1, 6))}
CORNERS = {0: ((0, 0), (0, 1)), 1: ((0, 1), (1, 1)), 2: ((1, 1), (1, 0)), 3: ((1, 0), (0, 0))}


def _regions(grid):
    """White quarters grouped into areas, by flood fill over shared sides."""
    white = {k for k, v in quarters_of(grid).items() if v}
    across = {0: (-1, 0, 2), 2: (1, 0, 0), 1: (0, 1, 3), 3: (0, -1, 1)}
    seen, out = set(), []
    for start in sorted(white):
        if start in seen:
            continue
        seen.add(start)
        todo, part = [start], set()
        while todo:
            r, c, q = todo.pop()
            part.add((r, c, q))
            dr, dc, f = across[q]
            for nxt in ((r, c, (q + 1) % 4), (r, c, (q + 3) % 4), (r + dr, c + dc, f)):
                if nxt in white and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out.append(part)
    return out


def _is_rectangle(part, rows, cols):
    """Brute force: the area equals the quarters inside its bounding box, upright or in the
    rotated coordinates u = row + col, v = row - col (quarters are wholly in or out of a box
    whose sides are grid lines or diagonals through grid points, so centroids decide), and
    the box lies inside the grid (else the area is a rectangle clipped by the edge)."""
    pts = [(r + dr, c + dc) for r, c, q in part for dr, dc in CORNERS[q]]
    cent = {(r, c, q): (r + CENTROID[q][0], c + CENTROID[q][1])
            for r in range(rows) for c in range(cols) for q in range(4)}
    for f in (lambda y, x: (y, x), lambda y, x: (y + x, y - x)):
        a = [f(y, x) for y, x in pts]
        lo0, hi0 = min(p[0] for p in a), max(p[0] for p in a)
        lo1, hi1 = min(p[1] for p in a), max(p[1] for p in a)
        box = {k for k, (y, x) in cent.items()
               if lo0 <= f(y, x)[0] <= hi0 and lo1 <= f(y, x)[1] <= hi1}
        corners = [(u, v) for u in (lo0, hi0) for v in (lo1, hi1)]
        inside = all(0 <= y <= rows and 0 <= x <= cols for y, x in
                     (corners if f(1, 0) == (1, 0) else
                      [(Fraction(u + v, 2), Fraction(u - v, 2)) for u, v in corners]))
        if box == part and inside:  # the whole rectangle lies in the grid
            return True
    return False


def _random_grids(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        weights = [rng.random() for _ in TOKENS]
        yield [rng.choices(TOKENS, weights, k=cols) for _ in range(rows)]


@pytest.mark.parametrize("seed", range(4))
def test_local_agrees_with_checker_and_brute_force(seed):
    agree = {True: 0, False: 0}
    for grid in _random_grids(seed, 1500):
        rows, cols = len(grid), len(grid[0])
        brute = all(_is_rectangle(p, rows, cols) for p in _regions(grid))
        checker = region_problems(grid) == []
        assert wedges_ok(grid) == checker == brute, grid
        agree[brute] += 1
    assert min(agree.values()) > 50  # both outcomes were exercised


@pytest.mark.parametrize(("grid", "ok"), [
    ([["◢", "◣"], ["◥", "◤"]], False),  # a black diamond: four lone white corners
    ([[".", "."], [".", "#"]], False),  # an L: a 270-degree corner
    ([["◢"]], False),  # a lone triangle: 45-degree corners
    ([["◢", "◣"], [".", "."]], False),  # a diamond left open
    ([["◤", "◥"], ["◣", "◢"]], True),  # four black corners: the white diamond in the middle
])
def test_local_on_known_shapes(grid, ok):
    assert wedges_ok(grid) is ok
    assert (region_problems(grid) == []) is ok


def test_forbidden_lengths_are_the_non_right_angles():
    assert [45 * k for k in FORBIDDEN] == [45, 135, 225, 270, 315]
