"""The Fillomino generator: a random partition into regions of mixed sizes; most regions get a
given in a random cell and about 40% of their other cells given too, some none at all; givens
added where another solution differs until none is left, then up to 40 givens (random order)
removed where the solution stays unique."""

from __future__ import annotations

import random

from bench.generate import (
    GenerationError,
    Generator,
    SolveTimeout,
    check_size,
    register_generator,
)
from bench.grid import Cell, all_cells, components, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid

#: share of regions of two or more cells that start without a given
NO_GIVEN = 0.2
#: share of the other cells of a region with a given that are given too: empty areas stay
#: small, as in published puzzles (a third to half of the cells given)
GIVEN_SHARE = 0.4
#: givens (in random order) the removal pass tries to take away, one uniqueness solve each
REMOVALS = 40


def max_size(rows: int, cols: int) -> int:
    """Largest target region size: 9 on 6x6, 14 on 10x10, 38 on 50x64."""
    return max(3, min(rows * cols // 4, 4 + int((rows * cols) ** 0.5) // 2 + 3))


def random_partition(rows: int, cols: int, rng: random.Random) -> list[list[Cell]]:
    """Regions grown from random seeds to random target sizes (mostly small, some up to
    :func:`max_size`), then regions of equal size that touch merged until none do."""
    owner: dict[Cell, int] = {}
    regions: list[list[Cell]] = []
    order = all_cells(rows, cols)
    rng.shuffle(order)
    top = max_size(rows, cols)
    for start in order:
        if start in owner:
            continue
        target = rng.randint(1, 5) if rng.random() < 0.7 else rng.randint(2, top)
        region, frontier = [start], [start]
        owner[start] = len(regions)
        while len(region) < target:
            options = [w for v in frontier for w in neighbours(v, rows, cols) if w not in owner]
            if not options:
                break
            w = rng.choice(options)
            owner[w] = len(regions)
            region.append(w)
            frontier.append(w)
        regions.append(region)
    return merge_equal(regions, rows, cols, rng)


def merge_equal(regions: list[list[Cell]], rows: int, cols: int,
                rng: random.Random) -> list[list[Cell]]:
    """Merge touching regions of equal size (they would be one group) until none touch."""
    groups = [list(r) for r in regions]
    while True:
        owner = {v: i for i, g in enumerate(groups) for v in g}
        pairs = sorted({(owner[v], owner[w]) for i, g in enumerate(groups) for v in g
                        for w in neighbours(v, rows, cols)
                        if owner[w] > i and len(groups[owner[w]]) == len(g)})
        if not pairs:
            return groups
        i, j = rng.choice(pairs)
        groups[i] += groups[j]
        del groups[j]


@register_generator
class FillominoGenerator(Generator):
    """Random partition; givens in most regions (:data:`GIVEN_SHARE`); while another solution
    exists, the intended number is given at one random cell of every connected piece where that
    solution differs (cells of regions already holding a given preferred, so regions without a
    given survive); then up to :data:`REMOVALS` givens, in random order, are removed where the
    solution stays unique."""

    puzzle = "fillomino"
    formulation = "cpsat-tree"
    solver = "cpsat"
    restarts = 3

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        for _ in range(self.restarts):
            try:
                return self.attempt(rows, cols, rng)
            except SolveTimeout:
                continue
        raise GenerationError(f"fillomino {rows}x{cols}: gave up after {self.restarts} restarts")

    def attempt(self, rows: int, cols: int,
                rng: random.Random) -> tuple[Instance, SolutionGrid]:
        regions = random_partition(rows, cols, rng)
        solution: SolutionGrid = [[0] * cols for _ in range(rows)]
        region_of: dict[Cell, int] = {}
        for i, reg in enumerate(regions):
            for r, c in reg:
                solution[r][c] = len(reg)
                region_of[r, c] = i
        givens: set[Cell] = set()
        for reg in regions:
            if len(reg) == 1 or rng.random() >= NO_GIVEN:
                givens.add(rng.choice(reg))
                givens.update(v for v in reg if rng.random() < GIVEN_SHARE)
        self.add_until_unique(rows, cols, rng, solution, givens, region_of)
        for v in rng.sample(sorted(givens), min(REMOVALS, len(givens))):
            trial = givens - {v}
            if self.other(self.make(rows, cols, solution, trial), solution) is None:
                givens = trial
        return self.make(rows, cols, solution, givens), solution

    def add_until_unique(self, rows: int, cols: int, rng: random.Random, solution: SolutionGrid,
                         givens: set[Cell], region_of: dict[Cell, int]) -> None:
        while True:
            other = self.other(self.make(rows, cols, solution, givens), solution)
            if other is None:
                return
            differ = [(r, c) for r, c in all_cells(rows, cols) if other[r][c] != solution[r][c]]
            held = {region_of[v] for v in givens}
            for piece in components(differ, rows, cols):
                preferred = [v for v in piece if region_of[v] in held]
                givens.add(rng.choice(preferred or piece))

    def make(self, rows: int, cols: int, solution: SolutionGrid, givens: set[Cell]) -> Instance:
        return self.instance([[solution[r][c] if (r, c) in givens else None
                               for c in range(cols)] for r in range(rows)])
