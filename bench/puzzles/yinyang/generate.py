"""The Yin-Yang generator: a random valid colouring by single-cell flips, stones added where
another solution differs until the puzzle is unique, then stones removed while it stays so."""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

from bench.generate import (
    SOLVE_LIMIT_S,
    GenerationError,
    Generator,
    SolveTimeout,
    check_size,
    register_generator,
)
from bench.grid import Cell, bfs_distances, components, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.yinyang.rules import BLACK, WHITE

#: the 8 cells round a cell in cyclic order (consecutive ones are 4-adjacent)
RING = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
SIDES = (1, 3, 5, 7)  # the 4-neighbours' positions in RING


def white_blocks(col: Colouring) -> set[Cell]:
    """The cells of the all-white 2x2 blocks."""
    out: set[Cell] = set()
    for r in range(col.rows - 1):
        for c in range(col.cols - 1):
            block = [(r + i, c + j) for i in (0, 1) for j in (0, 1)]
            if all(col.grid[u[0]][u[1]] == WHITE for u in block):
                out.update(block)
    return out


def grow(rows: int, cols: int, rng: random.Random, share: float) -> list[list[str]]:
    """A valid colouring grown from one random black cell: a white cell next to the black
    ones turns black when that makes no 2x2 black block and keeps the white cells connected;
    cells of all-white 2x2 blocks go first. Stops once no all-white block is left and the
    black share reaches ``share``, or when no cell can turn black (all-white blocks may be
    left then: :meth:`YinYangGenerator.repair` fixes them)."""
    col = Colouring([[WHITE] * cols for _ in range(rows)])
    col.flip((rng.randrange(rows), rng.randrange(cols)))
    front = {n for n in neighbours(next(v for v in col.cells(BLACK)), rows, cols)}
    while True:
        bad = white_blocks(col)
        if not bad and col.count[BLACK] >= share * rows * cols:
            return col.grid
        first = sorted(front & bad)
        rest = sorted(front - bad)
        rng.shuffle(first)
        rng.shuffle(rest)
        pick = next((v for v in first + rest if col.can_blacken(v)), None)
        if pick is None:
            return col.grid
        col.flip(pick)
        front.discard(pick)
        front.update(n for n in neighbours(pick, rows, cols) if col.grid[n[0]][n[1]] == WHITE)


class Colouring:
    """A valid Yin-Yang colouring changed one cell at a time, staying valid."""

    def __init__(self, grid: list[list[str]]) -> None:
        self.grid = grid
        self.rows, self.cols = len(grid), len(grid[0])
        self.count = {BLACK: 0, WHITE: 0}
        for row in grid:
            for v in row:
                self.count[v] += 1

    def colour(self, r: int, c: int) -> str | None:
        return self.grid[r][c] if 0 <= r < self.rows and 0 <= c < self.cols else None

    def can_flip(self, v: Cell) -> bool:
        """Whether ``v`` can change colour: its old colour keeps at least two cells and stays
        connected, the new colour touches ``v`` (so stays connected), no 2x2 block of one
        colour appears."""
        r, c = v
        old = self.grid[r][c]
        new = WHITE if old == BLACK else BLACK
        if self.count[old] <= 2:
            return False
        if not any(self.colour(*n) == new for n in neighbours(v, self.rows, self.cols)):
            return False
        for dr in (-1, 0):
            for dc in (-1, 0):
                block = [(r + dr + i, c + dc + j) for i in (0, 1) for j in (0, 1)]
                if all(self.colour(*u) is not None for u in block) and all(
                        u == v or self.colour(*u) == new for u in block):
                    return False
        return self.stays_connected(v, old)

    def stays_connected(self, v: Cell, old: str) -> bool:
        """Whether the cells of colour ``old`` other than ``v`` are connected: at once when
        v's neighbours of that colour lie in one run round v, else by a search."""
        r, c = v
        ring = [self.colour(r + dr, c + dc) == old for dr, dc in RING]
        sides = [i for i in SIDES if ring[i]]
        if len(sides) <= 1:
            return True
        if not all(ring):
            start = ring.index(False)
            run, runs = -1, [0] * 8
            for k in range(1, 9):
                i = (start + k) % 8
                if ring[i] and not ring[(i - 1) % 8]:
                    run += 1
                runs[i] = run
            if len({runs[i] for i in sides}) == 1:
                return True
        nbrs = [(r + RING[i][0], c + RING[i][1]) for i in sides]
        reach = bfs_distances([nbrs[0]], self.rows, self.cols,
                              lambda u: u != v and self.colour(*u) == old)
        return all(n in reach for n in nbrs[1:])

    def cells(self, colour: str) -> list[Cell]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)
                if self.grid[r][c] == colour]

    def can_blacken(self, v: Cell) -> bool:
        """While growing (white 2x2 blocks allowed): ``v`` is white, turning it black makes no
        2x2 black block and leaves at least two white cells, connected."""
        r, c = v
        if self.grid[r][c] != WHITE or self.count[WHITE] <= 2:
            return False
        for dr in (-1, 0):
            for dc in (-1, 0):
                block = [(r + dr + i, c + dc + j) for i in (0, 1) for j in (0, 1)]
                if all(u == v or self.colour(*u) == BLACK for u in block):
                    return False
        return self.stays_connected(v, WHITE)

    def flip(self, v: Cell) -> None:
        old = self.grid[v[0]][v[1]]
        new = WHITE if old == BLACK else BLACK
        self.grid[v[0]][v[1]] = new
        self.count[old] -= 1
        self.count[new] += 1


@register_generator
class YinYangGenerator(Generator):
    """Random solution: :func:`grow`, then ``sweeps`` x cells random flips that keep it valid
    (:class:`Colouring`). Stones: ``border_start`` of the border ring and a few more at
    random (border cells ``border_weight`` times as likely), then, while another solution
    exists, a stone at a random cell where it differs from the intended one (border cells
    preferred again; with ``per_region`` = 1, one in each 4-connected region of such cells,
    which needs fewer solver calls on big boards); then each inner stone, in random order, is
    removed if the puzzle stays unique, until the stones are ``min_percent`` % of the cells.
    Border stones stay (``keep_border`` = 1): real puzzles give stones on 20-35 % of the
    cells, many on the border, and a minimiser that may remove them removes nearly all (1 % of
    the stones were on the border of 25x25 and 30x30 boards; border stones are the ones most
    often implied by the rest). With ``keep_border`` = 0 the border stones are tried for
    removal too, after the inner ones: sparser puzzles, harder to solve. All three are
    generator ``--param`` values (defaults 20, 1, 0). Starts over on a solve timeout."""

    puzzle = "yinyang"
    formulation = "sat-lazy"
    solver = "glucose4"  # honours the in-process time limit
    sweeps = 2
    black_share = (0.42, 0.55)
    repair_share = 0.5
    border_weight = 4.0
    start_share = 0.05
    border_start = 0.3  # share of the border ring given as stones at the start
    min_percent = 20  # the minimiser stops at this share of the cells, in per cent
    keep_border = 1  # 1: border stones are never removed; 0: they are tried after inner ones
    per_region = 0  # 1: each round of the stone-adding loop adds a stone in every region
    restarts = 4
    params: ClassVar[dict[str, str]] = {
        "min_percent": "stones the minimiser keeps at least, in % of the cells (default 20)",
        "keep_border": "1 keeps every border stone, 0 lets the minimiser remove them (default 1)",
        "per_region": "1 adds a stone in every 4-connected region where another solution "
                      "differs, per round, instead of one (fewer solver calls; default 0)",
    }

    def generate_solved(self, rows: int, cols: int,
                        rng: random.Random) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        for _ in range(self.restarts):
            solution = self.random_solution(rows, cols, rng)
            try:
                stones = self.make_unique(solution, rng)
            except SolveTimeout:
                continue
            return self.instance(self.clue_grid(solution, stones)), solution
        raise GenerationError(f"yinyang {rows}x{cols}: gave up after {self.restarts} restarts")

    def random_solution(self, rows: int, cols: int, rng: random.Random) -> SolutionGrid:
        grid = grow(rows, cols, rng, rng.uniform(*self.black_share))
        if white_blocks(Colouring(grid)):
            grid = self.repair(grid, rng)
        col = Colouring(grid)
        for _ in range(self.sweeps * rows * cols):
            v = (rng.randrange(rows), rng.randrange(cols))
            if col.can_flip(v):
                col.flip(v)
        return [list(row) for row in col.grid]

    def repair(self, grid: list[list[str]], rng: random.Random) -> list[list[str]]:
        """A valid colouring like ``grid`` (which has all-white 2x2 blocks): the solver's
        solution of the puzzle whose stones are a random ``repair_share`` of ``grid``'s cells
        outside those blocks (the share halved while that has no solution)."""
        from bench.backends import SolveOptions, get_backend
        from bench.registry import get_formulation
        from bench.solve import solve

        rows, cols = len(grid), len(grid[0])
        bad = white_blocks(Colouring(grid))
        cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in bad]
        share = self.repair_share
        form, backend = get_formulation(self.puzzle, self.formulation), get_backend(self.solver)
        while True:
            keep = set(rng.sample(cells, int(share * len(cells))))
            inst = self.instance(self.clue_grid(grid, keep))
            self.solves += 1
            solved = solve(inst, form, backend, time.perf_counter() + SOLVE_LIMIT_S,
                           options=SolveOptions(threads=1, seed=0))
            if solved.grid is not None and not solved.problems:
                return [[str(v) for v in row] for row in solved.grid]
            if solved.status != "infeasible":
                raise SolveTimeout(f"yinyang repair: {solved.status}")
            share /= 2

    def weight(self, v: Cell, rows: int, cols: int) -> float:
        on_border = v[0] in (0, rows - 1) or v[1] in (0, cols - 1)
        return self.border_weight if on_border else 1.0

    def clue_grid(self, solution: SolutionGrid, stones: set[Cell]) -> list[list[Any]]:
        """The stones' tokens (``Generator.instance`` is typed for number clues)."""
        return [[solution[r][c] if (r, c) in stones else None for c in range(len(row))]
                for r, row in enumerate(solution)]

    def pick(self, cells: list[Cell], rows: int, cols: int, rng: random.Random) -> Cell:
        return rng.choices(cells, [self.weight(v, rows, cols) for v in cells])[0]

    def make_unique(self, solution: SolutionGrid, rng: random.Random) -> set[Cell]:
        rows, cols = len(solution), len(solution[0])
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        ring = [v for v in cells if self.weight(v, rows, cols) != 1.0]
        stones = set(rng.sample(ring, int(self.border_start * len(ring))))
        target = max(2, len(stones) + int(self.start_share * rows * cols))
        while len(stones) < target:
            stones.add(self.pick([v for v in cells if v not in stones], rows, cols, rng))
        while True:
            alt = self.other(self.instance(self.clue_grid(solution, stones)), solution)
            if alt is None:
                break
            diff = [(r, c) for r, c in cells if alt[r][c] != solution[r][c]]
            regions = components(diff, rows, cols) if self.per_region else [diff]
            stones.update(self.pick(region, rows, cols, rng) for region in regions)
        return self.minimise(solution, stones, rng)

    def minimise(self, solution: SolutionGrid, stones: set[Cell],
                 rng: random.Random) -> set[Cell]:
        """``stones`` less each one, inner ones first in random order (then the border ones,
        unless :attr:`keep_border`), whose removal keeps the puzzle unique, down to
        :attr:`min_percent` % of the cells."""
        rows, cols = len(solution), len(solution[0])
        inner = sorted(v for v in stones if self.weight(v, rows, cols) == 1.0)
        rng.shuffle(inner)
        if not self.keep_border:
            ring = sorted(v for v in stones if self.weight(v, rows, cols) != 1.0)
            rng.shuffle(ring)
            inner += ring
        floor = self.min_percent * rows * cols // 100
        for v in inner:
            if len(stones) <= max(floor, 2):
                break
            stones.discard(v)
            inst = self.instance(self.clue_grid(solution, stones))
            if self.other(inst, solution) is not None:
                stones.add(v)
        return stones
