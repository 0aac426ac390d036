"""The Fillomino generator: a random partition into regions of mixed sizes; about a fifth of
the regions of two or more cells start without any given, every other cell starts given; givens
are added where another solution differs until none is left, then every given (random order) is
removed where the solution stays unique, down to :data:`MIN_GIVEN_SHARE` of the cells.

The uniqueness checks run on one warm incremental SAT solver per attempt (:class:`Warm`): the
region encoding of ``sat-regions`` (:mod:`bench.puzzles.fillomino.encoding_sat`) over the numbers 1
to 8, the intended solution's larger numbers, and the symbolic BIG for any other, on every cell
(valid for every set of givens); the intended solution blocked once, and each cell's given
switched on by an assumption literal, so a removal test is one solver call with assumptions,
and every cut learnt so far stays (cuts are rules of Fillomino, true whatever is given). A
check that needs more than :data:`CONFLICTS` conflicts per call or :data:`ROUNDS` cut rounds
keeps its given (deterministic, never breaks uniqueness). Grids of more than :data:`LARGE`
cells (every number on every cell is too much there) are checked by :class:`Fixed` instead,
``sat-regions`` built for exactly the givens of each check, and lose their givens in batches
(:meth:`FillominoGenerator.remove_in_batches`). The final count to 2
(:func:`bench.generate.generate_one`) runs ``sat-regions`` on CaDiCaL through the harness,
independently of this loop.
"""

from __future__ import annotations

import random
from typing import Any

from bench.backends.kinds import SatAssignment
from bench.generate import (
    Generator,
    SolveTimeout,
    check_size,
    instance_from_grid,
    register_generator,
)
from bench.grid import Cell, all_cells, components, manhattan, neighbours
from bench.instance import Instance
from bench.models import SatModel
from bench.puzzles import SolutionGrid
from bench.puzzles.fillomino import encoding_sat as fillomino_sat
from bench.puzzles.fillomino.encoding import layout

#: share of regions of two or more cells that start without a given
NO_GIVEN = 0.2
#: removals stop when this share of the cells is still given (published puzzles give a third
#: to a half of the cells; sparser ones also take the exact formulations far longer)
MIN_GIVEN_SHARE = 0.4
#: per solver call of a uniqueness check: conflicts (CaDiCaL's budget), then "unknown"
CONFLICTS = 20_000
#: per uniqueness check: cut rounds before "unknown"
ROUNDS = 300
#: the warm solver's threshold of named numbers (BIG above it)
BIG_AT = 8
#: grids of more cells than this are checked by :class:`Fixed` and thinned in batches
#: (:meth:`FillominoGenerator.remove_in_batches`); the committed sizes up to 30x30 are not
LARGE = 1200
#: large grids: cut rounds per uniqueness check, checks of the removal phase
LARGE_ROUNDS = 3000
LARGE_CHECKS = 200


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


class Unknown(Exception):
    """A uniqueness check that ran out of its budget."""


def settle(sat: Any, reg: fillomino_sat.Regions, rows: int, cols: int, assumptions: list[int],
           rounds: int) -> SolutionGrid | None:
    """Solve (each call within :data:`CONFLICTS`), cut, again, until a model is a solution
    (returned) or there is none (None); :class:`Unknown` past the budget or ``rounds``."""
    for _ in range(rounds):
        sat.conf_budget(CONFLICTS)
        found = sat.solve_limited(assumptions=assumptions)
        if found is None:
            raise Unknown
        if not found:
            return None
        reading = fillomino_sat.read(reg, SatAssignment.of_model(sat.get_model()))
        cuts = fillomino_sat.cuts(reg, reading)
        if not cuts:
            number = reading.number(reg)
            return [[number[r, c] for c in range(cols)] for r in range(rows)]
        for clause in cuts:
            sat.add_clause(clause)
    raise Unknown


class Warm:
    """One incremental solver for every uniqueness check of one intended solution (see the
    module docstring): ``other(givens)`` is another solution, or None when there is none."""

    def __init__(self, solution: SolutionGrid) -> None:
        from pysat.solvers import Solver

        rows, cols = len(solution), len(solution[0])
        cells = all_cells(rows, cols)
        self.solution = {v: solution[v[0]][v[1]] for v in cells}
        m = SatModel()
        named = frozenset(n for n in self.solution.values() if n > BIG_AT)
        codes = fillomino_sat.codes_of(range(1, rows * cols + 1), BIG_AT, named)
        self.reg = fillomino_sat.encode(m, rows, cols, dict.fromkeys(cells, codes), BIG_AT,
                                   named, pieces=3)
        self.selector = {v: m.var(("given", v)) for v in cells}
        for v, n in self.solution.items():
            lit = self.reg.lit(v, n)
            assert lit is not None
            m.add([-self.selector[v], lit])
        m.add(fillomino_sat.block(self.reg, self.solution))
        self.sat = Solver(name="cadical195", bootstrap_with=m.clauses)
        self.rows, self.cols = rows, cols

    def close(self) -> None:
        self.sat.delete()

    def other(self, givens: set[Cell]) -> SolutionGrid | None:
        assumptions = [self.selector[v] for v in sorted(givens)]
        return settle(self.sat, self.reg, self.rows, self.cols, assumptions, ROUNDS)


class Fixed:
    """Uniqueness checks for large grids (:data:`LARGE`): each ``other(givens)`` builds the
    ``sat-regions`` encoding of the puzzle with exactly these givens (named codes only within
    reach of their givens, the empty areas far from them small numbers and BIG: far fewer
    variables than :class:`Warm`'s every code on every cell), blocks the intended solution
    and solves it on a new CaDiCaL, with :data:`LARGE_ROUNDS` cut rounds."""

    def __init__(self, solution: SolutionGrid) -> None:
        self.rows, self.cols = len(solution), len(solution[0])
        self.solution = {v: solution[v[0]][v[1]] for v in all_cells(self.rows, self.cols)}

    def close(self) -> None:
        pass

    def other(self, givens: set[Cell]) -> SolutionGrid | None:
        from pysat.solvers import Solver

        inst = instance_from_grid("fillomino", [
            [self.solution[r, c] if (r, c) in givens else None for c in range(self.cols)]
            for r in range(self.rows)])
        lay = layout(inst)
        named, codes = fillomino_sat.given_codes(lay, BIG_AT)
        m = SatModel()
        reg = fillomino_sat.encode(m, self.rows, self.cols, codes, BIG_AT, named, pieces=3,
                              given=frozenset(lay.given))
        m.add(fillomino_sat.block(reg, self.solution))
        with Solver(name="cadical195", bootstrap_with=m.clauses) as sat:
            return settle(sat, reg, self.rows, self.cols, [], LARGE_ROUNDS)


@register_generator
class FillominoGenerator(Generator):
    """Random partition, all cells given but those of the regions left without a given; givens
    added where another solution differs (cells of regions already holding a given preferred, so
    regions without a given survive) until unique; then givens removed in random order where the
    solution stays unique (the module docstring)."""

    puzzle = "fillomino"
    formulation = "sat-regions"
    solver = "cadical195"
    restarts = 3

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        return self.until_solved(lambda: self.attempt(rows, cols, rng), self.restarts,
                                 f"fillomino {rows}x{cols}: gave up after {self.restarts} restarts")

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
                givens.update(reg)
        large = rows * cols > LARGE
        warm: Warm | Fixed = Fixed(solution) if large else Warm(solution)
        try:
            self.add_until_unique(rows, cols, rng, warm, givens, region_of)
            floor = int(MIN_GIVEN_SHARE * rows * cols)
            if large:
                givens = self.remove_in_batches(rng, warm, givens, floor, region_of)
            else:
                givens = self.remove_one_by_one(rng, warm, givens, floor)
        finally:
            warm.close()
        return self.make(rows, cols, solution, givens), solution

    def remove_one_by_one(self, rng: random.Random, checker: Warm | Fixed, givens: set[Cell],
                          floor: int) -> set[Cell]:
        """Every given in random order removed where the solution stays unique."""
        for v in rng.sample(sorted(givens), len(givens)):
            if len(givens) <= floor:
                break
            trial = givens - {v}
            self.solves += 1
            try:
                if checker.other(trial) is None:
                    givens = trial
            except Unknown:
                continue
        return givens

    def remove_in_batches(self, rng: random.Random, checker: Warm | Fixed, givens: set[Cell],
                          floor: int, region_of: dict[Cell, int]) -> set[Cell]:
        """Givens removed a batch per check while the solution stays unique, within
        :data:`LARGE_CHECKS` checks (the puzzle may keep more givens than
        :data:`MIN_GIVEN_SHARE`): in random order, never a region's last given, a tenth of
        the givens per batch. When another solution appears, the batch's givens within two
        steps of a cell where it differs are put back for good and the rest tried again; when
        none is that near (or the check runs out of its budget), the batch is halved."""
        held: dict[int, int] = {}
        for v in givens:
            held[region_of[v]] = held.get(region_of[v], 0) + 1
        order = rng.sample(sorted(givens), len(givens))
        size = max(1, len(givens) // 10)
        chunk: list[Cell] = []
        for _ in range(LARGE_CHECKS):
            if not chunk:
                chunk = self.next_batch(order, held, region_of, min(size, len(givens) - floor))
                if not chunk:
                    break
            self.solves += 1
            try:
                other = checker.other(givens - set(chunk))
                differ = [] if other is None else [
                    v for v in checker.solution if other[v[0]][v[1]] != checker.solution[v]]
            except Unknown:
                other, differ = [], []  # as another solution that is not near
            if other is None:
                givens -= set(chunk)
                order = [v for v in order if v in givens]
                chunk = []
                continue
            back = [v for v in chunk if any(manhattan(v, w) <= 2 for w in differ)]
            if back or len(chunk) == 1:
                self.put_back(chunk, back or chunk, order, held, region_of, True)
            else:
                self.put_back(chunk, chunk[len(chunk) // 2:], order, held, region_of, False)
        return givens

    @staticmethod
    def put_back(chunk: list[Cell], cells: list[Cell], order: list[Cell], held: dict[int, int],
                 region_of: dict[Cell, int], for_good: bool) -> None:
        """Take ``cells`` out of the batch: kept as givens for good (out of ``order``), or
        left for a later batch."""
        for v in cells:
            chunk.remove(v)
            held[region_of[v]] += 1
            if for_good:
                order.remove(v)

    @staticmethod
    def next_batch(order: list[Cell], held: dict[int, int], region_of: dict[Cell, int],
                   size: int) -> list[Cell]:
        """Up to ``size`` givens from the front of ``order``, each region keeping one given
        (``held`` counts the givens left per region after the batch)."""
        chunk: list[Cell] = []
        for v in order:
            if len(chunk) >= size:
                break
            if held[region_of[v]] > 1:
                held[region_of[v]] -= 1
                chunk.append(v)
        return chunk

    def add_until_unique(self, rows: int, cols: int, rng: random.Random, warm: Warm | Fixed,
                         givens: set[Cell], region_of: dict[Cell, int]) -> None:
        solution = warm.solution
        while True:
            self.solves += 1
            try:
                other = warm.other(givens)
            except Unknown as err:
                raise SolveTimeout(f"fillomino {rows}x{cols}: a uniqueness check ran out of "
                                   "its budget") from err
            if other is None:
                return
            differ = [(r, c) for r, c in all_cells(rows, cols) if other[r][c] != solution[r, c]]
            held = {region_of[v] for v in givens}
            for piece in components(differ, rows, cols):
                preferred = [v for v in piece if region_of[v] in held]
                givens.add(rng.choice(preferred or piece))

    def make(self, rows: int, cols: int, solution: SolutionGrid, givens: set[Cell]) -> Instance:
        return self.instance([[solution[r][c] if (r, c) in givens else None
                               for c in range(cols)] for r in range(rows)])
