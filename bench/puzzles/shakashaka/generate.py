"""The Shakashaka generator: white rectangles, upright (whole cells) and at 45 degrees
(corners on grid points, sides along cell diagonals), packed at random into the board with no
two sharing a side; the cells they cut in half are triangles, every other cell is a given black
cell carrying the count of its triangle neighbours. While the fully numbered puzzle has another
solution, a shape under a cell where the two differ is taken out (its cells turn black); then
numbers are removed, in random order, while the solution stays unique (at most
:data:`REMOVALS` tries: each is one uniqueness solve).

A quarter (see :mod:`bench.puzzles.shakashaka.rules`) is inside a 45-degree rectangle
``u0 < y + x < u1, v0 < y - x < v1`` (u0 = v0 mod 2, u1 - u0 and v1 - v0 even and at least 2)
when its centroid is; the centroids never lie on such a line, and every cell such a rectangle
touches has all four quarters inside or the two of one half, so it is white or a triangle."""

from __future__ import annotations

import random
from collections.abc import Iterable

from bench.generate import (
    GenerationError,
    Generator,
    check_size,
    register_generator,
)
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.shakashaka.rules import BLACK, TRIANGLES, WHITE, WHITE_QUARTERS, E, N, S, W

Quarter = tuple[int, int, int]

#: quarter centroids relative to the cell's top-left corner (y, x)
CENTROID = {N: (0.25, 0.5), E: (0.5, 0.75), S: (0.75, 0.5), W: (0.5, 0.25)}
#: the triangle whose white half is these two quarters
HALF = {WHITE_QUARTERS[t]: t for t in TRIANGLES}
#: placement tries per cell of the board
TRIES_PER_CELL = 12
#: numbers the removal pass tries to take away (one uniqueness solve each)
REMOVALS = 80
#: the least share of the board a generated solution leaves white (cells, half cells for
#: triangles; generated solutions have 46-64 %): the uniqueness repair can take out every
#: shape and leave an all-black board with nothing to decide, which is packed anew
MIN_WHITE = 0.3
PACKINGS = 20  # packings tried for one puzzle before giving up


def upright(r: int, c: int, h: int, w: int) -> list[Quarter]:
    return [(i, j, q) for i in range(r, r + h) for j in range(c, c + w) for q in (N, E, S, W)]


def diamond(u0: int, v0: int, a: int, b: int) -> list[Quarter]:
    """The quarters of the 45-degree rectangle ``u0 < u < u0 + 2a, v0 < v < v0 + 2b``."""
    u1, v1 = u0 + 2 * a, v0 + 2 * b
    out = []
    for i in range((u0 + v0) // 2 - 1, (u1 + v1) // 2 + 1):
        for j in range((u0 - v1) // 2 - 1, (u1 - v0) // 2 + 1):
            for q, (dy, dx) in CENTROID.items():
                y, x = i + dy, j + dx
                if u0 < y + x < u1 and v0 < y - x < v1:
                    out.append((i, j, q))
    return out


def touching(quarter: Quarter) -> Iterable[Quarter]:
    """The quarters sharing a side with ``quarter`` (two in its cell, one across the edge)."""
    r, c, q = quarter
    yield r, c, (q + 1) % 4
    yield r, c, (q + 3) % 4
    dr, dc = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}[q]
    yield r + dr, c + dc, (q + 2) % 4


#: side lengths drawn in the first half of the tries (large shapes first) and the second
SIDES = ((2, 3, 3, 4, 5, 6), (1, 1, 2, 2, 3))
DIAGONALS = ((1, 2, 2, 3, 4), (1, 1, 1, 2))


def random_shape(rows: int, cols: int, rng: random.Random, late: bool) -> list[Quarter]:
    if rng.random() < 0.5:
        h, w = min(rng.choice(SIDES[late]), rows), min(rng.choice(SIDES[late]), cols)
        return upright(rng.randrange(rows - h + 1), rng.randrange(cols - w + 1), h, w)
    a, b = rng.choice(DIAGONALS[late]), rng.choice(DIAGONALS[late])
    r, c = rng.randrange(rows), rng.randrange(cols)  # the top corner, a grid point
    return diamond(r + c, r - c, a, b)


def pack(rows: int, cols: int, rng: random.Random) -> list[list[Quarter]]:
    """Random shapes placed while they fit: inside the board, no side shared with another."""
    taken: set[Quarter] = set()
    shapes = []
    tries = TRIES_PER_CELL * rows * cols
    for k in range(tries):
        shape = random_shape(rows, cols, rng, late=2 * k >= tries)
        if any(not (0 <= r < rows and 0 <= c < cols) for r, c, _ in shape):
            continue
        if any(s in taken or any(t in taken for t in touching(s)) for s in shape):
            continue
        taken.update(shape)
        shapes.append(shape)
    return shapes


def render(rows: int, cols: int, shapes: list[list[Quarter]]) -> SolutionGrid:
    """The solution the shapes make: white cells, triangles where they cut cells, black
    cells elsewhere."""
    taken = {s for shape in shapes for s in shape}
    grid: SolutionGrid = [[BLACK] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            white = frozenset(q for q in (N, E, S, W) if (r, c, q) in taken)
            grid[r][c] = WHITE if len(white) == 4 else HALF.get(white, BLACK)
    return grid


def white_share(grid: SolutionGrid) -> float:
    """The white share of a solution: white cells, and half of each triangle cell."""
    cells = sum(len(row) for row in grid)
    return sum(1.0 if v == WHITE else 0.5 if v in TRIANGLES else 0.0
               for row in grid for v in row) / cells


def numbers(grid: SolutionGrid) -> dict[tuple[int, int], int]:
    """Every black cell's count of triangles among its orthogonal neighbours."""
    rows, cols = len(grid), len(grid[0])
    return {(r, c): sum(1 for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                        if 0 <= i < rows and 0 <= j < cols and grid[i][j] in TRIANGLES)
            for r in range(rows) for c in range(cols) if grid[r][c] == BLACK}


@register_generator
class ShakashakaGenerator(Generator):
    """Random packing (:func:`pack`), every black cell numbered, shapes taken out where
    another solution differs until none exists; then up to :data:`REMOVALS` numbers, in
    random order, removed where the solution stays unique."""

    puzzle = "shakashaka"
    formulation = "sat-local[card=totalizer]"
    solver = "glucose4"
    attempts = 3

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        return self.until_solved(lambda: self.attempt(rows, cols, rng), self.attempts,
                                 f"shakashaka {rows}x{cols}: gave up after {self.attempts} "
                                 "solver timeouts")

    def attempt(self, rows: int, cols: int, rng: random.Random
                ) -> tuple[Instance, SolutionGrid]:
        solution, given = self.unique_packing(rows, cols, rng)
        for v in rng.sample(sorted(given), min(REMOVALS, len(given))):
            trial = {k: n for k, n in given.items() if k != v}
            if self.other(self.make(solution, trial), solution) is None:
                given = trial
        return self.make(solution, given), solution

    def unique_packing(self, rows: int, cols: int, rng: random.Random
                       ) -> tuple[SolutionGrid, dict[tuple[int, int], int]]:
        """A packing whose fully numbered puzzle has one solution: while another solution
        exists, one shape under a cell where it differs is taken out (its cells turn black)."""
        for _ in range(PACKINGS):
            shapes = pack(rows, cols, rng)
            while True:
                solution = render(rows, cols, shapes)
                given = numbers(solution)
                other = self.other(self.make(solution, given), solution)
                if other is None:
                    break
                differ = {(r, c) for r in range(rows) for c in range(cols)
                          if other[r][c] != solution[r][c]}
                under = [i for i, shape in enumerate(shapes)
                         if any((r, c) in differ for r, c, _ in shape)]
                del shapes[rng.choice(under)]
            if white_share(solution) >= MIN_WHITE:
                return solution, given
        raise GenerationError(f"shakashaka {rows}x{cols}: no unique packing of {PACKINGS} "
                              f"left {MIN_WHITE:.0%} of the board white")

    def make(self, solution: SolutionGrid, given: dict[tuple[int, int], int]) -> Instance:
        return self.instance([[given.get((r, c), BLACK) if v == BLACK else None
                               for c, v in enumerate(row)] for r, row in enumerate(solution)])
