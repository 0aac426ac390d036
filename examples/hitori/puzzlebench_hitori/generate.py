"""Hitori's generator: random puzzles with exactly one solution (``puzzlebench generate hitori
--size RxC --seed N``), through puzzlebench's generator core (:mod:`bench.generate`).

1. A random *maximal* black pattern: cells in random order turn black when no neighbour is
   black and the white cells stay connected, until no cell can (a unique Hitori needs this:
   a white cell that could turn black would give a second solution).
2. Numbers: a random Latin square (rows and columns of ``1..max(rows, cols)`` shifted and
   permuted), so no number repeats on a line; each black cell then takes the number of a white
   cell on its row or column.
3. While the exact formulation finds another solution, some cell black in ours and white in
   the other (one exists: ours is maximal) takes the number of a cell white in both on its row
   or column, which rules that solution out and keeps ours valid.
"""

from __future__ import annotations

import random
from functools import partial

from bench.generate import GenerationError, Generator, check_size, register_generator
from bench.grid import Cell, components, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from puzzlebench_hitori.rules import BLACK, WHITE


def maximal_pattern(rows: int, cols: int, rng: random.Random) -> set[Cell]:
    """Black cells, no two adjacent, the rest connected, and no further cell can turn black."""
    black: set[Cell] = set()
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    changed = True
    while changed:
        changed = False
        rng.shuffle(cells)
        for v in cells:
            if v in black or any(n in black for n in neighbours(v, rows, cols)):
                continue
            white = [u for u in cells if u not in black and u != v]
            if len(components(white, rows, cols)) == 1:
                black.add(v)
                changed = True
    return black


def latin(rows: int, cols: int, rng: random.Random) -> list[list[int]]:
    """A random ``rows x cols`` grid of ``1..max(rows, cols)`` with no repeat on a line."""
    n = max(rows, cols)
    perm_r, perm_c, symbols = (rng.sample(range(n), n) for _ in range(3))
    return [[symbols[(perm_r[r] + perm_c[c]) % n] + 1 for c in range(cols)]
            for r in range(rows)]


def line_cells(v: Cell, rows: int, cols: int) -> list[Cell]:
    """The other cells of v's row and column."""
    r, c = v
    return [(r, k) for k in range(cols) if k != c] + [(k, c) for k in range(rows) if k != r]


@register_generator
class HitoriGenerator(Generator):
    """Maximal black pattern, Latin numbers, black cells renumbered until unique."""

    puzzle = "hitori"
    formulation = "sat-tree"
    solver = "cadical195"
    restarts = 20
    rounds = 200  # renumberings per pattern before starting over

    def generate_solved(self, rows: int, cols: int,
                        rng: random.Random) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        for _ in range(self.restarts):
            found = self.attempt(rows, cols, rng)
            if found is not None:
                return found
        raise GenerationError(f"hitori {rows}x{cols}: gave up after {self.restarts} restarts")

    def attempt(self, rows: int, cols: int,
                rng: random.Random) -> tuple[Instance, SolutionGrid] | None:
        black = maximal_pattern(rows, cols, rng)
        numbers = latin(rows, cols, rng)
        for v in sorted(black):
            whites = [u for u in line_cells(v, rows, cols) if u not in black]
            if not whites:
                return None
            u = rng.choice(whites)
            numbers[v[0]][v[1]] = numbers[u[0]][u[1]]
        solution: SolutionGrid = [[BLACK if (r, c) in black else WHITE for c in range(cols)]
                                  for r in range(rows)]
        for _ in range(self.rounds):
            inst = self.instance([list(row) for row in numbers])
            other = self.until_solved(partial(self.other, inst, solution), 3,
                                      f"hitori {rows}x{cols}: the uniqueness check timed out")
            if other is None:
                return inst, solution
            moves = [(v, u) for v in sorted(black) if other[v[0]][v[1]] == WHITE
                     for u in line_cells(v, rows, cols)
                     if u not in black and other[u[0]][u[1]] == WHITE
                     and numbers[u[0]][u[1]] != numbers[v[0]][v[1]]]
            if not moves:
                return None
            (vr, vc), (ur, uc) = rng.choice(moves)
            numbers[vr][vc] = numbers[ur][uc]
        return None
