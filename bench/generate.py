"""Instance generators: random puzzles with exactly one solution, reproducible from a seed.

A :class:`Generator` builds a random valid solution, derives clues from it, and then edits the
clues (or the intended solution) until no *other* solution exists. Other solutions are found
in-process with an exact formulation of the harness (:func:`other_solution`: the formulation's
model plus its ``block`` constraint excluding the intended grid; infeasible means unique).
Whatever the generator did, :func:`generate` then proves uniqueness independently of that loop
through :func:`bench.execute.execute` with ``Task(count=2)`` on the written instance text: only
an instance whose count is exactly 1 is returned.

Reproducibility: :func:`generate` seeds ``random.Random(seed)`` and draws one 32-bit seed per
instance from it (instance ``i`` does not depend on ``count``); every random choice of a
generator comes from its own ``random.Random``. The alternative solutions the solver returns
steer the edits, so the output is reproducible for the same solver versions (CP-SAT runs with
one worker and a fixed seed; the SAT solvers are deterministic). A solve that hits its time
limit makes the generator start over from a fresh solution, which keeps the result
deterministic as long as the limit is not reached on one machine and not on another.

Shipped: ``shikaku`` (random rectangle partition, clue cells moved until unique) and
``nurikabe`` (random wall and islands, clues moved or 1-islands added until unique).
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from bench.backends import SolveOptions, get_backend
from bench.grid import Cell, components, neighbours
from bench.instance import Instance, format_instance, parse_instance
from bench.puzzles import SolutionGrid, get_puzzle, puzzle_names
from bench.puzzles.shikaku.rules import boxes as grid_boxes
from bench.records import Task

#: per-solve time limit of the in-process uniqueness loop and of the final proof (seconds)
SOLVE_LIMIT_S = 60.0
MIN_SIDE = 2
MAX_SIDE = 200


class GenerationError(Exception):
    """A generator that cannot run (unknown puzzle, no generator, bad size) or that gave up;
    ``str(err)`` is one line."""


class SolveTimeout(GenerationError):
    """An in-process solve of the uniqueness loop hit its time limit."""


@dataclass(frozen=True)
class Generated:
    """One generated instance, its (unique) solution and what it took."""

    instance: Instance
    solution: SolutionGrid
    seconds: float
    solves: int  # in-process solver calls of the uniqueness loop (the final proof excluded)


class Generator:
    """Random instances of one puzzle with exactly one solution.

    Subclasses set ``puzzle`` and the exact ``formulation``/``solver`` pair used both for the
    uniqueness loop and for the final proof, and implement :meth:`generate_solved`.
    """

    puzzle: ClassVar[str]
    formulation: ClassVar[str]
    solver: ClassVar[str]

    def __init__(self) -> None:
        self.solves = 0

    def generate(self, rows: int, cols: int, rng: random.Random) -> Instance:
        """A ``rows x cols`` instance with exactly one solution (headers: ``puzzle`` only)."""
        return self.generate_solved(rows, cols, rng)[0]

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        """The instance and its unique solution."""
        raise NotImplementedError

    # --- helpers for subclasses -------------------------------------------------------------

    def instance(self, grid: list[list[int | None]]) -> Instance:
        """An instance of this puzzle from a clue grid (validated by the puzzle's rules)."""
        return instance_from_grid(self.puzzle, grid)

    def other(self, inst: Instance, intended: SolutionGrid) -> SolutionGrid | None:
        """A solution of ``inst`` other than ``intended``, or None when there is none."""
        self.solves += 1
        return other_solution(inst, intended, self.formulation, self.solver)


_GENERATORS: dict[str, Generator] = {}


def register_generator(cls: type[Generator]) -> type[Generator]:
    _GENERATORS[cls.puzzle] = cls()
    return cls


def generator_names() -> list[str]:
    return sorted(_GENERATORS)


def get_generator(puzzle: str) -> Generator:
    """The generator of a puzzle; :class:`GenerationError` naming the ones that exist."""
    if puzzle in _GENERATORS:
        return _GENERATORS[puzzle]
    have = ", ".join(generator_names())
    if puzzle in puzzle_names():
        raise GenerationError(f"no generator for {puzzle} yet (generators exist for: {have})")
    raise GenerationError(f"unknown puzzle {puzzle!r} (generators exist for: {have})")


def instance_from_grid(puzzle: str, grid: list[list[int | None]],
                       header: dict[str, str] | None = None) -> Instance:
    rules = get_puzzle(puzzle)
    lines = [f"{k}: {v}" for k, v in ({"puzzle": puzzle} | (header or {})).items()]
    body = [" ".join(rules.format_token(v) for v in row) for row in grid]
    return parse_instance("\n".join([*lines, "", *body]) + "\n", f"<generated {puzzle}>")


def check_size(puzzle: str, rows: int, cols: int) -> None:
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise GenerationError(
            f"bad size {rows}x{cols} for {puzzle}: rows and columns must be "
            f"{MIN_SIDE}..{MAX_SIDE}")


# --- solving ----------------------------------------------------------------------------------


def other_solution(inst: Instance, intended: SolutionGrid, formulation: str, solver: str,
                   time_limit: float = SOLVE_LIMIT_S) -> SolutionGrid | None:
    """A checked solution of ``inst`` that differs from ``intended`` (projected onto cell
    values, through the formulation's ``block``), or None if the solver proves there is none.

    This is what :func:`bench.execute.execute` does when counting (build, block, solve with the
    lazy loop, decode, check), done in-process so that the alternative grid is available."""
    from bench.registry import get_formulation

    rules = get_puzzle(inst.puzzle)
    problems = rules.check(inst, intended)
    if problems:
        raise GenerationError(f"internal error: intended grid breaks the rules: {problems[0]}")
    form = get_formulation(inst.puzzle, formulation)
    backend = get_backend(solver)
    model = form.build(inst)
    if not form.block(inst, model, intended):
        raise GenerationError(f"{formulation} cannot count solutions")
    deadline = time.perf_counter() + time_limit
    session = backend.start(model, SolveOptions(threads=1, seed=0))
    try:
        while True:
            outcome = session.solve(deadline - time.perf_counter())
            if outcome.value is None or not form.is_lazy():
                break
            if form.separate(inst, model, outcome.value) == 0:
                break
            if time.perf_counter() >= deadline:
                raise SolveTimeout(f"{formulation}/{solver}: no answer within {time_limit:g} s")
        if outcome.status == "infeasible":
            return None
        if outcome.value is None:
            raise SolveTimeout(f"{formulation}/{solver}: {outcome.status} within {time_limit:g} s")
        grid = form.decode(inst, model, outcome.value)
    finally:
        session.close()
    problems = rules.check(inst, grid)
    if problems:
        raise GenerationError(f"{formulation}/{solver} returned a wrong grid: {problems[0]}")
    return grid


def count_solutions(inst: Instance, formulation: str, solver: str,
                    time_limit: float = SOLVE_LIMIT_S) -> int:
    """Solutions of ``inst`` up to 2, through :func:`bench.execute.execute` on a temporary
    instance file (the harness's own counting path); GenerationError if it does not finish."""
    from bench.execute import execute

    with tempfile.TemporaryDirectory(prefix="puzzlebench-gen-") as tmp:
        path = Path(tmp) / "instance.txt"
        path.write_text(format_instance(inst), encoding="utf-8")
        res = execute(Task(str(path), formulation, solver, time_limit=time_limit, count=2))
    if res.status == "infeasible":
        return 0
    if res.status != "solved" or res.count is None:
        raise GenerationError(
            f"uniqueness proof with {formulation}/{solver} ended {res.status}: {res.message}")
    return res.count


# --- the entry points -------------------------------------------------------------------------


def instance_seeds(seed: int, count: int) -> list[int]:
    """The per-instance seeds of ``generate(..., seed, count)``: instance i's seed does not
    depend on ``count``."""
    master = random.Random(seed)
    return [master.getrandbits(32) for _ in range(count)]


def command(puzzle: str, rows: int, cols: int, seed: int, count: int = 1) -> str:
    cmd = f"puzzlebench generate {puzzle} --size {rows}x{cols} --seed {seed}"
    return cmd + (f" --count {count}" if count > 1 else "")


def file_stem(puzzle: str, rows: int, cols: int, seed: int, index: int) -> str:
    return f"gen-{puzzle}-{rows}x{cols}-s{seed}-{index}"


def generate_one(puzzle: str, rows: int, cols: int, seed: int, index: int = 0,
                 count: int = 1) -> Generated:
    """Instance ``index`` of ``generate(puzzle, rows, cols, seed, count)``, proved unique."""
    gen = get_generator(puzzle)
    check_size(puzzle, rows, cols)
    if not 0 <= index < count:
        raise GenerationError(f"instance index {index} out of range for --count {count}")
    sub_seed = instance_seeds(seed, index + 1)[index]
    t0 = time.perf_counter()
    gen.solves = 0
    inst, solution = gen.generate_solved(rows, cols, random.Random(sub_seed))
    header = {"source": "generated by " + command(puzzle, rows, cols, seed, count)}
    if count > 1:
        header["generator-index"] = str(index)
    header["generator-seed"] = str(sub_seed)
    stem = file_stem(puzzle, rows, cols, seed, index)
    inst = replace(instance_from_grid(puzzle, [list(row) for row in inst.grid], header),
                   path=f"{stem}.txt", name=stem)
    problems = get_puzzle(puzzle).check(inst, solution)
    if problems:
        raise GenerationError(f"internal error: generated solution is wrong: {problems[0]}")
    found = count_solutions(inst, gen.formulation, gen.solver)
    if found != 1:
        raise GenerationError(f"internal error: generated instance has {found} solutions")
    return Generated(inst, solution, time.perf_counter() - t0, gen.solves)


def generate(puzzle: str, rows: int, cols: int, seed: int, count: int = 1) -> list[Instance]:
    """``count`` instances of ``puzzle``, each with exactly one solution (proved by counting to 2
    through :func:`bench.execute.execute`), reproducible from ``seed``."""
    return [generate_one(puzzle, rows, cols, seed, i, count).instance for i in range(count)]


# --- Shikaku ----------------------------------------------------------------------------------

Box = tuple[int, int, int, int]  # top, left, height, width


def box_cells(b: Box) -> Iterable[Cell]:
    t, lf, h, w = b
    for r in range(t, t + h):
        for c in range(lf, lf + w):
            yield r, c


def shikaku_max_area(rows: int, cols: int) -> int:
    """Largest rectangle a random partition uses: about 12 on 10x10, 28 on 40x40."""
    return max(2, min(rows * cols // 3, 8 + int((rows * cols) ** 0.5) // 2))


def random_partition(rows: int, cols: int, rng: random.Random, max_area: int) -> list[Box]:
    """Rectangles covering the grid: the first uncovered cell in reading order becomes the
    top-left corner of a random free rectangle, preferring an area near a random target and
    not too thin; 1x1 leftovers are merged into a neighbour when the union is a rectangle."""
    owner = [[-1] * cols for _ in range(rows)]
    boxes: list[Box] = []
    for r in range(rows):
        for c in range(cols):
            if owner[r][c] >= 0:
                continue
            options: list[tuple[int, int]] = []
            wmax = cols - c
            for h in range(1, min(rows - r, max_area) + 1):
                run = 0
                while run < wmax and owner[r + h - 1][c + run] < 0:
                    run += 1
                wmax = run
                if wmax == 0:
                    break
                options += [(h, w) for w in range(1, wmax + 1) if h * w <= max_area]
            target = rng.randint(2, max_area)
            weights = []
            for h, w in options:
                aspect = max(h, w) / min(h, w)
                weight = 1.0 / (1 + abs(h * w - target))
                weight *= 1.0 if aspect <= 3 else 0.25
                weight *= 0.05 if h * w == 1 else 1.0
                weights.append(weight)
            h, w = rng.choices(options, weights)[0]
            for cell in box_cells((r, c, h, w)):
                owner[cell[0]][cell[1]] = len(boxes)
            boxes.append((r, c, h, w))
    return merge_singletons(boxes, max_area, rng)


def merge_singletons(boxes: list[Box], max_area: int, rng: random.Random) -> list[Box]:
    out = list(boxes)
    for single in [b for b in boxes if b[2] * b[3] == 1]:
        if single not in out:
            continue
        r, c = single[0], single[1]
        unions = []
        for b in out:
            t, lf, h, w = b
            if b == single or h * w + 1 > max_area:
                continue
            if h == 1 and t == r and (lf + w == c or lf == c + 1):
                unions.append((b, (t, min(lf, c), 1, w + 1)))
            elif w == 1 and lf == c and (t + h == r or t == r + 1):
                unions.append((b, (min(t, r), lf, h + 1, 1)))
        if unions:
            b, union = rng.choice(unions)
            out.remove(b)
            out[out.index(single)] = union
    return out


def split_box(b: Box, rng: random.Random) -> tuple[Box, Box]:
    t, lf, h, w = b
    if h > 1 and (w == 1 or rng.random() < h / (h + w)):
        k = rng.randint(1, h - 1)
        return (t, lf, k, w), (t + k, lf, h - k, w)
    k = rng.randint(1, w - 1)
    return (t, lf, h, k), (t, lf + k, h, w - k)


@register_generator
class ShikakuGenerator(Generator):
    """Random rectangle partition; each rectangle's area in a random cell of it. While another
    solution exists, some clue k whose rectangle differs there moves to a cell of its own
    rectangle outside its rectangle in the other solution (which excludes that solution); a
    rectangle involved too often is split in two instead."""

    puzzle = "shikaku"
    formulation = "sat-cover"
    solver = "cadical195"
    strikes = 4  # times a rectangle may be involved before it is split
    restarts = 5

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        max_area = shikaku_max_area(rows, cols)
        for _ in range(self.restarts):
            try:
                return self.make_unique(rows, cols, rng, random_partition(rows, cols, rng,
                                                                          max_area))
            except SolveTimeout:
                continue
        raise GenerationError(f"shikaku {rows}x{cols}: gave up after {self.restarts} restarts")

    def make_unique(self, rows: int, cols: int, rng: random.Random,
                    boxes: list[Box]) -> tuple[Instance, SolutionGrid]:
        clue = {b: rng.choice(list(box_cells(b))) for b in boxes}
        hits = dict.fromkeys(boxes, 0)
        while True:
            grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
            solution: SolutionGrid = [[0] * cols for _ in range(rows)]
            for i, b in enumerate(boxes):
                r, c = clue[b]
                grid[r][c] = b[2] * b[3]
                for rr, cc in box_cells(b):
                    solution[rr][cc] = i
            inst = self.instance(grid)
            alt = self.other(inst, solution)
            if alt is None:
                return inst, solution
            alt_box = {}
            for ab in grid_boxes(alt):
                for cell in box_cells(ab):
                    alt_box[cell] = ab
            differing = [b for b in boxes if alt_box[clue[b]] != b]
            picked = [b for b in differing if rng.random() < 0.5] or [rng.choice(differing)]
            for b in picked:
                hits[b] += 1
                if hits[b] > self.strikes and b[2] * b[3] > 1:
                    halves = split_box(b, rng)
                    boxes[boxes.index(b)] = halves[0]
                    boxes.append(halves[1])
                    del clue[b], hits[b]
                    for half in halves:
                        clue[half] = rng.choice(list(box_cells(half)))
                        hits[half] = 0
                else:
                    other = set(box_cells(alt_box[clue[b]]))
                    clue[b] = rng.choice([v for v in box_cells(b) if v not in other])


# --- Nurikabe ---------------------------------------------------------------------------------

RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


class NurikabeState:
    """A valid-so-far Nurikabe solution under construction: ``island[r][c]`` is the island id
    of a white cell, -1 for black. The wall stays connected after every change."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.island = [[-1] * cols for _ in range(rows)]
        self.cells: dict[int, list[Cell]] = {}
        self.next_id = 0
        self.black = rows * cols

    def is_black(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols and self.island[r][c] < 0

    def adjacent_islands(self, v: Cell) -> set[int]:
        return {self.island[r][c] for r, c in neighbours(v, self.rows, self.cols)
                if self.island[r][c] >= 0}

    def wall_stays_connected(self, v: Cell) -> bool:
        """Whether the wall is still connected (and not empty) after ``v`` turns white."""
        r, c = v
        nbrs = [n for n in neighbours(v, self.rows, self.cols) if self.is_black(*n)]
        if not nbrs:
            return False  # v is the whole wall
        if len(nbrs) == 1:
            return True
        ring = [self.is_black(r + dr, c + dc) for dr, dc in RING]
        if not all(ring):  # one run of black ring cells holding every black 4-neighbour
            start = ring.index(False)
            runs: list[set[int]] = []
            for k in range(1, 9):
                i = (start + k) % 8
                if ring[i]:
                    if k == 1 or not ring[(i - 1) % 8]:
                        runs.append(set())
                    runs[-1].add(i)
            sides = {i for i in (0, 2, 4, 6) if ring[i]}
            if any(sides <= run for run in runs):
                return True
        else:
            return True
        seen = {nbrs[0]}
        todo = [nbrs[0]]
        targets = set(nbrs[1:])
        while todo and targets:
            for n in neighbours(todo.pop(), self.rows, self.cols):
                if n != v and n not in seen and self.is_black(*n):
                    seen.add(n)
                    targets.discard(n)
                    todo.append(n)
        return not targets

    def whiten(self, v: Cell, island: int | None) -> int:
        if island is None:
            island = self.next_id
            self.next_id += 1
        self.island[v[0]][v[1]] = island
        self.cells.setdefault(island, []).append(v)
        self.black -= 1
        return island

    def makes_pool(self, v: Cell) -> bool:
        """Whether turning ``v`` black would complete a 2x2 black block."""
        r, c = v
        return any(all(self.is_black(r + dr + i, c + dc + j) for i in (0, 1) for j in (0, 1)
                       if (dr + i, dc + j) != (0, 0))
                   for dr in (-1, 0) for dc in (-1, 0))

    def cut_cells(self, keep: Cell, away: Cell) -> list[Cell]:
        """Cells of the island of ``keep`` and ``away`` that can turn black (next to the wall,
        no 2x2 black block) and that separate ``away`` from ``keep``."""
        k = self.island[keep[0]][keep[1]]
        cells = set(self.cells[k])
        out = []
        for b in self.cells[k]:
            if b in (keep, away) or self.makes_pool(b):
                continue
            if not any(self.is_black(*n) for n in neighbours(b, self.rows, self.cols)):
                continue
            seen = {keep}
            todo = [keep]
            while todo:
                for n in neighbours(todo.pop(), self.rows, self.cols):
                    if n in cells and n != b and n not in seen:
                        seen.add(n)
                        todo.append(n)
            if away not in seen:
                out.append(b)
        return out

    def boundary(self, k: int) -> list[Cell]:
        """The black cells next to island ``k``, in reading order."""
        return sorted({n for v in self.cells[k] for n in neighbours(v, self.rows, self.cols)
                       if self.is_black(*n)})

    def can_shrink(self, v: Cell, keep: Cell) -> bool:
        """Whether island cell ``v`` (not the clue cell ``keep``) can turn black with its
        island staying in one piece: it touches the wall and makes no 2x2 black block."""
        k = self.island[v[0]][v[1]]
        if v == keep or len(self.cells[k]) < 2 or self.makes_pool(v):
            return False
        if not any(self.is_black(*n) for n in neighbours(v, self.rows, self.cols)):
            return False
        return len(components([u for u in self.cells[k] if u != v], self.rows, self.cols)) == 1

    def blacken(self, v: Cell) -> list[int]:
        """Turn island cell ``v`` black (the caller checked :meth:`makes_pool` and that ``v``
        touches the wall); the island's piece holding its first remaining cell keeps the id,
        other pieces get new ids, returned."""
        k = self.island[v[0]][v[1]]
        rest = [u for u in self.cells[k] if u != v]
        self.island[v[0]][v[1]] = -1
        self.black += 1
        pieces = components(rest, self.rows, self.cols)
        self.cells[k] = pieces[0]
        new = []
        for piece in pieces[1:]:
            j = self.next_id
            self.next_id += 1
            self.cells[j] = piece
            for r, c in piece:
                self.island[r][c] = j
            new.append(j)
        return new

    def solution(self) -> SolutionGrid:
        return [["#" if v < 0 else "." for v in row] for row in self.island]


@register_generator
class NurikabeGenerator(Generator):
    """Random solution: a wall grown from a random cell without 2x2 black blocks until every
    white component (island) has at most ``max_island`` cells and the black share reaches a
    random target in 55..58 % (:meth:`random_solution`). One clue per island at a random
    cell. While another solution exists, edits that each exclude it (:meth:`make_unique`:
    move a clue, add a 1-island, split, grow or shrink an island). Gives up on a solution
    after a bounded number of rounds and starts over from a new one."""

    puzzle = "nurikabe"
    # sat-lazy finds other solutions of these instances 10-100x faster than cpsat-tree;
    # Glucose honours the in-process time limit (CaDiCaL cannot be interrupted)
    formulation = "sat-lazy"
    solver = "glucose4"
    max_island = 9
    join_weight = 0.4  # weight of a wall cell joining two wall parts (closing an island)
    #: weight factor of a wall cell that pinches off an island of 1 or 2 cells
    small_piece: ClassVar[dict[int, float]] = {1: 0.05, 2: 0.3}
    restarts = 8
    #: relative weights of the edit kinds of :meth:`make_unique`
    edit_weights: ClassVar[dict[str, float]] = {
        "new": 3.0, "split": 3.0, "grow": 1.0, "shrink": 1.0, "move": 2.0, "reshape": 1.0}
    max_moves = 2  # clue moves of one island before its region is reshaped instead
    #: relative weights of the ways to reshape an island (:meth:`reshapes`)
    reshape_weights: ClassVar[dict[str, float]] = {"grow": 1.0, "shrink": 1.0, "split": 1.0}

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        check_size(self.puzzle, rows, cols)
        for _ in range(self.restarts):
            state = self.random_solution(rows, cols, rng)
            if state is None:
                continue
            try:
                result = self.make_unique(state, rng)
            except SolveTimeout:
                continue
            if result is not None:
                return result
        raise GenerationError(f"nurikabe {rows}x{cols}: gave up after {self.restarts} restarts")

    def random_solution(self, rows: int, cols: int, rng: random.Random) -> NurikabeState | None:
        """Grow the wall from a random cell, one white cell next to it at a time, never making
        a 2x2 black block: a random white component is picked (weighted by its size squared,
        among those above the island cap, else, while the black share is below target, among
        those of two or more cells) and a random cell of it on the wall's edge turns black
        (cells extending a wall end preferred over cells joining two walls). The white
        components that remain are the islands. None if a component above the cap cannot be
        cut."""
        comp = [[0] * cols for _ in range(rows)]  # white component id, -1 black
        comps: dict[int, set[Cell]] = {0: {(r, c) for r in range(rows) for c in range(cols)}}
        frontier: dict[Cell, None] = {}  # white cells next to the wall, in a stable order
        done: set[int] = set()  # components below the cap that cannot be cut further
        next_id = 1

        def black(r: int, c: int) -> bool:
            return 0 <= r < rows and 0 <= c < cols and comp[r][c] < 0

        def makes_pool(v: Cell) -> bool:
            r, c = v
            return any(all(black(r + dr + i, c + dc + j) for i in (0, 1) for j in (0, 1)
                           if (dr + i, dc + j) != (0, 0))
                       for dr in (-1, 0) for dc in (-1, 0))

        def blacken(v: Cell) -> None:
            nonlocal next_id
            k = comp[v[0]][v[1]]
            comp[v[0]][v[1]] = -1
            frontier.pop(v, None)
            rest = comps.pop(k)
            rest.discard(v)
            done.discard(k)
            for n in neighbours(v, rows, cols):
                if not black(*n):
                    frontier[n] = None
            while rest:  # relabel the pieces of k
                start = min(rest)
                piece = {start}
                todo = [start]
                while todo:
                    for n in neighbours(todo.pop(), rows, cols):
                        if n in rest and n not in piece:
                            piece.add(n)
                            todo.append(n)
                rest -= piece
                comps[next_id] = piece
                for r, c in piece:
                    comp[r][c] = next_id
                next_id += 1

        def weight(v: Cell) -> float:
            """Prefer extending a wall end, and avoid pinching off pieces of 1 or 2 cells."""
            w = 1.0 if sum(black(*n) for n in neighbours(v, rows, cols)) == 1 else self.join_weight
            for n in neighbours(v, rows, cols):
                if black(*n):
                    continue
                piece = {n}
                todo = [n]
                while todo and len(piece) < 3:
                    for m in neighbours(todo.pop(), rows, cols):
                        if m != v and m not in piece and not black(*m):
                            piece.add(m)
                            todo.append(m)
                if len(piece) < 3:
                    w *= self.small_piece[len(piece)]
            return w

        blacken((rng.randrange(rows), rng.randrange(cols)))
        target = rng.uniform(0.55, 0.58) * rows * cols
        blacks = 1
        while True:
            big = [k for k, cells in comps.items() if len(cells) > self.max_island]
            if not big and blacks >= target:
                break
            ks = big or [k for k, cells in comps.items() if len(cells) > 1 and k not in done]
            if not ks:
                break
            k = rng.choices(ks, [len(comps[k]) ** 2 for k in ks])[0]
            cands = [v for v in frontier if comp[v[0]][v[1]] == k and not makes_pool(v)]
            if not cands:
                if big:
                    return None
                done.add(k)
                continue
            blacken(rng.choices(cands, [weight(v) for v in cands])[0])
            blacks += 1
        s = NurikabeState(rows, cols)
        for k in comps:
            for v in sorted(comps[k]):
                s.whiten(v, k)
        s.next_id = next_id
        return s

    def make_unique(self, s: NurikabeState,
                    rng: random.Random) -> tuple[Instance, SolutionGrid] | None:
        """Edit until unique. Against another solution ``alt``, one edit, picked at random
        among the possible kinds (weights :attr:`edit_weights`), each of which excludes ``alt``:

        * ``new``: a cell white only in ``alt`` becomes a 1-island here (when legal);
        * ``split``: a wall cell splits an island so that a cell of it that is black in
          ``alt`` is cut off from the clue and gets its own clue;
        * ``grow`` / ``shrink``: a cell white only in ``alt`` joins the one island it touches,
          or a cell white only here leaves its island (both change the clue sum, hence the
          number of black cells, which ``alt`` no longer has);
        * ``move``: an island's clue moves to one of its cells that is black in ``alt``
          (islands moved less often preferred);
        * ``reshape``: an island in the difference grows or loses a cell anywhere on it
          (:meth:`reshapes`; the clue sum changes); the only edit besides ``new``/``grow``
          once an island's clue has moved :attr:`max_moves` times (pockets where every
          clue position leaves two shapes).

        Each round makes one edit in every 4-connected region of the difference (usually
        separate ambiguities, so large grids need few rounds); if none applies anywhere, one
        edit on the whole difference. The price: the edits favour small islands (about half
        the clues of a generated instance are 1s), denser than hand-made puzzles.

        The structural edits also break out of pockets where every clue position of an
        island leaves two shapes."""
        clue = {k: rng.choice(cells) for k, cells in s.cells.items()}
        moved = dict.fromkeys(clue, 0)
        for _ in range(self.max_edits(s.rows, s.cols)):
            grid: list[list[int | None]] = [[None] * s.cols for _ in range(s.rows)]
            for k, (r, c) in clue.items():
                grid[r][c] = len(s.cells[k])
            inst = self.instance(grid)
            solution = s.solution()
            alt = self.other(inst, solution)
            if alt is None:
                return inst, solution
            diff = [(r, c) for r in range(s.rows) for c in range(s.cols)
                    if solution[r][c] != alt[r][c]]
            regions = components(diff, s.rows, s.cols)
            rng.shuffle(regions)
            # separate regions are usually separate ambiguities: one edit in each; if none
            # applies, one edit anywhere in the difference (there "move" always applies)
            edited = [self.edit(s, clue, moved, alt, region, rng, reshape=True)
                      for region in regions]
            if not any(edited):
                self.edit(s, clue, moved, alt, diff, rng, reshape=True)
        return None

    def edit(self, s: NurikabeState, clue: dict[int, Cell], moved: dict[int, int],
             alt: SolutionGrid, region: list[Cell], rng: random.Random,
             reshape: bool) -> bool:
        """One edit of :meth:`make_unique` inside a region where ``alt`` differs; False if
        none applies there."""
        here = [(r, c) for r, c in region if s.island[r][c] >= 0 and alt[r][c] == "#"]
        there = [(r, c) for r, c in region if s.island[r][c] < 0 and alt[r][c] == "."]
        stuck = any(moved[s.island[r][c]] >= self.max_moves for r, c in here)
        reshape = reshape or stuck  # clue moves keep failing here: reshape instead
        options: dict[str, list[Any]] = {
            "new": [v for v in there if not s.adjacent_islands(v) and s.wall_stays_connected(v)],
            "split": [(d, b) for d in here for b in s.cut_cells(clue[s.island[d[0]][d[1]]], d)],
            "grow": [(v, next(iter(adj))) for v in there
                     if len(adj := s.adjacent_islands(v)) == 1
                     and len(s.cells[next(iter(adj))]) < self.max_island
                     and s.wall_stays_connected(v)],
            "shrink": [d for d in here if s.can_shrink(d, clue[s.island[d[0]][d[1]]])],
            "move": [] if stuck else here,
            "reshape": [(k, op, v) for k in sorted({s.island[r][c] for r, c in here}
                                                   | {k for v in there
                                                      for k in s.adjacent_islands(v)})
                        for op, v in self.reshapes(s, clue[k], k)] if reshape else [],
        }
        kinds = [k for k in self.edit_weights if options[k]]
        if not kinds:
            return False
        kind = rng.choices(kinds, [self.edit_weights[k] for k in kinds])[0]
        if kind == "new":
            v = rng.choice(options["new"])
            k = s.whiten(v, None)
            clue[k], moved[k] = v, 0
        elif kind == "split":
            d, b = rng.choice(options["split"])
            k = s.island[d[0]][d[1]]
            keep = clue[k]
            for j in s.blacken(b):
                moved[j] = 0
                clue[j] = d if d in s.cells[j] else rng.choice(s.cells[j])
            if keep not in s.cells[k]:  # the clue's piece got a new id
                j = s.island[keep[0]][keep[1]]
                clue[k] = d if d in s.cells[k] else rng.choice(s.cells[k])
                clue[j] = keep
        elif kind == "grow":
            v, k = rng.choice(options["grow"])
            s.whiten(v, k)
        elif kind == "shrink":
            s.blacken(rng.choice(options["shrink"]))
        elif kind == "reshape":
            k, op, v = rng.choices(options["reshape"],
                                   [self.reshape_weights[op] for _, op, _ in options["reshape"]])[0]
            if op == "grow":
                s.whiten(v, k)
            else:
                keep = clue[k]
                for j in s.blacken(v):
                    moved[j] = 0
                    clue[j] = rng.choice(s.cells[j])
                if keep not in s.cells[k]:
                    j = s.island[keep[0]][keep[1]]
                    clue[k], clue[j] = rng.choice(s.cells[k]), keep
        else:
            weights = [1.0 / (1 + moved[s.island[r][c]]) ** 2 for r, c in here]
            v = rng.choices(here, weights)[0]
            k = s.island[v[0]][v[1]]
            clue[k] = v
            moved[k] += 1
        return True

    def reshapes(self, s: NurikabeState, keep: Cell, k: int) -> list[tuple[str, Cell]]:
        """Every way to grow island ``k`` by a black cell next to it (touching no other
        island, keeping the wall connected, up to the size cap) or to turn one of its cells
        other than the clue ``keep`` black (touching the wall, no 2x2 black block; the island
        may fall apart, the pieces get their own clues). Each changes the clue sum."""
        out: list[tuple[str, Cell]] = []
        if len(s.cells[k]) < self.max_island:
            out += [("grow", v) for v in s.boundary(k)
                    if s.adjacent_islands(v) == {k} and s.wall_stays_connected(v)]
        for v in s.cells[k]:
            if v != keep and not s.makes_pool(v) and \
                    any(s.is_black(*n) for n in neighbours(v, s.rows, s.cols)):
                pieces = components([u for u in s.cells[k] if u != v], s.rows, s.cols)
                out.append(("shrink" if len(pieces) == 1 else "split", v))
        return out

    def max_edits(self, rows: int, cols: int) -> int:
        return 40 + rows * cols // 2
