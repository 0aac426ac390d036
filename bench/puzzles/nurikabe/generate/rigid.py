"""Big islands that are rigid by construction, for Nurikabe puzzles with many big islands (real
large puzzles hold eight or more islands of 40-50 cells among about 200 clues).

The rule that makes an island rigid: let ``B`` be an island with clue ``N = |B|`` and let every
cell of its ring (the cells next to it) be next to a clue cell of another island (a *fence*).
In any solution the island of ``B``'s clue leaves ``B`` only through a ring cell ``x``; white,
``x`` would join that island to the fence's clue, two clues in one island. So the island lies
inside ``B`` and, having ``N`` cells, is ``B``: no other solution trades a cell of ``B`` for
a wall cell or moves ``B`` elsewhere, whatever the rest of the puzzle does. Clue cells never
move, unlike the other cells of small islands, which is why a fence is a clue and not any
white cell.

Two fences next to each other would be one island with two clues, so the fences are a set of
cells, no two adjacent, that covers the ring (:func:`place_fences`). That is impossible along
a straight side of four ring cells or more (its middle cells' only outer neighbours are a
row of adjacent cells) and along a one- or two-cell gap between two parts of an island, so
the big islands here have staircase sides (:func:`diagonal`).

:func:`rigid_solution` builds a random solution around such islands (their rings black, the
fences white and in separate islands, the rest the usual random wall); :func:`rigid_unique`
repairs the small islands' ambiguities with the generator's own edits
(:meth:`NurikabeGenerator.edit_round`), the fence islands' clues held where they are
(:attr:`NurikabeState.fences`: no merge, drop or clue move touches them), then
:meth:`NurikabeGenerator.sparsify` thins the puzzle. Run as a module it writes one instance
and its solution (``python -m bench.puzzles.nurikabe.generate.rigid --help``)."""

from __future__ import annotations

import logging
import math
import random
import sys

from bench.generate import (
    GenerationError,
    SolveTimeout,
)
from bench.grid import Cell, components, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.generate import NurikabeGenerator, command
from bench.puzzles.nurikabe.generate.big import Box, link, ring, size_range, tiles
from bench.puzzles.nurikabe.generate.board import NurikabeState, Wall

log = logging.getLogger(__name__)

def diagonal(lo: int, hi: int, box: Box, rng: random.Random,
             tries: int = 500) -> set[Cell] | None:
    """A big island of ``lo`` to ``hi`` cells inside ``box`` whose sides are all staircases:
    a rectangle of the diagonal lattice (``a <= r + c < a + h``, ``b <= c - r < b + w``, its
    long axis along either diagonal; ``h`` from 3 to 9). Each ring cell of a staircase side
    is next to the island twice, and the cells beyond, on one diagonal, are never adjacent,
    so every other one fences two ring cells. None after ``tries`` draws that do not fit
    the box or the sizes."""
    r0, r1, c0, c1 = box
    for _ in range(tries):
        h = rng.randint(3, 9)
        w = rng.randint(h, max(h, -(-2 * hi // h) + 1))
        if rng.random() < 0.5:  # the long axis along r + c instead of c - r
            h, w = w, h
        rc, cc = rng.randrange(r0, r1), rng.randrange(c0, c1)
        a, b = rc + cc - h // 2, cc - rc - w // 2
        cells = {((u - v) // 2, (u + v) // 2) for u in range(a, a + h) for v in range(b, b + w)
                 if (u - v) % 2 == 0}
        if lo <= len(cells) <= hi and all(r0 <= r < r1 and c0 <= c < c1 for r, c in cells):
            return cells
    return None


def place_fences(rows: int, cols: int, bigs: list[set[Cell]],
                 rng: random.Random, budget: int = 20000) -> set[Cell] | None:
    """Fences for the islands ``bigs``: cells outside them and their rings, no two adjacent,
    such that every ring cell is next to one (module docstring) and keeps a neighbour that
    is neither, for the wall to pass (:func:`open_side`). Depth-first over the ring cells in
    order round each island (by angle about its centre), each uncovered one given a fence
    among its neighbours (those covering more ring cells first, random ties); None if none
    is found within ``budget`` steps."""
    taken = set().union(*bigs)
    rim = set().union(*(ring(rows, cols, b) for b in bigs))
    order: list[Cell] = []
    for b in bigs:
        cr, cc = sum(r for r, _ in b) / len(b), sum(c for _, c in b) / len(b)
        order += sorted(ring(rows, cols, b), key=lambda x: math.atan2(x[0] - cr, x[1] - cc))
    cands = {x: [n for n in neighbours(x, rows, cols) if n not in taken and n not in rim]
             for x in rim}
    chosen: set[Cell] = set()
    steps = 0

    def fits(f: Cell) -> bool:
        return not any(n in chosen for n in neighbours(f, rows, cols)) and all(
            open_side(rows, cols, y, taken, chosen | {f})
            for y in neighbours(f, rows, cols) if y in rim)

    def covered(x: Cell) -> bool:
        return any(n in chosen for n in neighbours(x, rows, cols))

    def search(i: int) -> bool:
        nonlocal steps
        while i < len(order) and covered(order[i]):
            i += 1
        if i == len(order):
            return True
        steps += 1
        if steps > budget:
            return False
        ok = [f for f in cands[order[i]] if fits(f)]
        rng.shuffle(ok)
        ok.sort(key=lambda f: -sum(n in rim and not covered(n) for n in neighbours(f, rows, cols)))
        for f in ok:
            chosen.add(f)
            if search(i + 1):
                return True
            chosen.discard(f)
        return False

    return set(chosen) if search(0) else None


def open_side(rows: int, cols: int, x: Cell, taken: set[Cell], fences: set[Cell]) -> bool:
    """Whether ring cell ``x`` has a neighbour in neither ``taken`` (the big islands) nor
    ``fences``: a black cell walled in by white cells would cut the wall."""
    return any(n not in taken and n not in fences for n in neighbours(x, rows, cols))


def fenced(rows: int, cols: int, b: set[Cell], clues: set[Cell]) -> bool:
    """Whether every ring cell of ``b`` is next to a cell of ``clues`` (the rigidity rule)."""
    return all(any(n in clues for n in neighbours(x, rows, cols)) for x in ring(rows, cols, b))


def islands(gen: NurikabeGenerator, rows: int, cols: int,
            rng: random.Random) -> tuple[list[set[Cell]], set[Cell]] | None:
    """``gen.big`` walks (sizes from :func:`.big.size_range`), one per tile of
    :func:`.big.tiles`, and their fences; None if a walk or the fences are not found."""
    lo, hi = size_range(gen, rows, cols)
    bigs: list[set[Cell]] = []
    for box in tiles(rows, cols, gen.big, rng):
        b = diagonal(lo, hi, box, rng)
        if b is None:
            return None
        bigs.append(b)
    fences = place_fences(rows, cols, bigs, rng)
    return None if fences is None else (bigs, fences)


def rigid_solution(gen: NurikabeGenerator, rows: int, cols: int, rng: random.Random,
                   fixed: float = 1.0) -> tuple[NurikabeState, dict[int, Cell]] | None:
    """A random solution around :func:`islands` and its clue cells: the rings black and
    linked into one wall (:func:`.big.link`, no path through a fence), then grown as in
    :meth:`NurikabeGenerator.random_solution` (:func:`grow`), each fence alone in its island
    with its clue on it; the big islands' clues at a random cell, the others' too. With
    ``fixed`` below 1, only that share of the fences (at random) is held
    (:attr:`NurikabeState.fences`): the other fence islands' clues start at a random cell
    and are edited like any (a partly rigid start). None if the islands, the link or the
    growth fail."""
    found = islands(gen, rows, cols, rng)
    if found is None:
        return None
    bigs, fences = found
    rim = set().union(*(ring(rows, cols, b) for b in bigs))
    wall = Wall(rows, cols, gen.join_weight, gen.small_piece)
    for v in sorted(rim):
        wall.blacken(v)
    if any(wall.makes_pool(v) for v in rim):
        return None
    taken = set().union(*bigs) | fences
    if not link(wall, taken, set(), lambda v: v not in fences, rng):
        return None
    big = {wall.comp[r][c] for b in bigs for r, c in [min(b)]}
    target = rng.uniform(*gen.black_share) * rows * cols - sum(
        wall.black(r, c) for r in range(rows) for c in range(cols))
    if not grow(wall, big, fences, gen.small or gen.start_island, target, rng):
        return None
    s = wall.state()
    s.anchors = [min(b) for b in bigs]
    s.pinned = rim
    s.fences = fences if fixed >= 1 else {f for f in sorted(fences) if rng.random() < fixed}
    clue = {}
    for k, cells in s.cells.items():
        here = [v for v in cells if v in s.fences]
        clue[k] = here[0] if here else rng.choice(cells)
    return s, clue


def grow(wall: Wall, big: set[int], fences: set[Cell], cap: int, more: float,
         rng: random.Random) -> bool:
    """Grow ``wall`` (never over a fence nor into a 2x2 block, the islands ``big`` left whole)
    until every other white piece holds at most one fence and ``cap`` cells and ``more``
    more cells are black (a piece that cannot be cut further stays); False if a piece with
    two fences cannot be cut."""
    while True:
        live = [k for k in wall.comps if k not in big]
        two = [k for k in live if sum(v in fences for v in wall.comps[k]) > 1]
        over = two or [k for k in live if len(wall.comps[k]) > cap and k not in wall.done]
        if not over and more <= 0:
            return True
        ks = over or [k for k in live if len(wall.comps[k]) > 1 and k not in wall.done]
        if not ks:
            return True
        k = rng.choices(ks, [len(wall.comps[k]) ** 2 for k in ks])[0]
        cands = [v for v in wall.frontier if wall.comp[v[0]][v[1]] == k
                 and v not in fences and not wall.makes_pool(v)]
        if not cands:
            if k in two:
                return False
            wall.done.add(k)
            continue
        wall.blacken(rng.choices(cands, [wall.weight(v) for v in cands])[0])
        more -= 1


def rigid_unique(gen: NurikabeGenerator, s: NurikabeState, clue: dict[int, Cell],
                 rng: random.Random) -> bool:
    """:meth:`NurikabeGenerator.make_unique` from the clue cells ``clue`` (the fences' held):
    while another solution exists, one round of the generator's edits
    (:meth:`NurikabeGenerator.edit_round`; 1-cell pieces allowed one round in
    :attr:`NurikabeGenerator.patience` without a smaller difference; a puzzle met again
    :meth:`NurikabeGenerator.unstick`-ed, as there). A fence island's shape can be
    ambiguous where only moving its clue would settle it (two cells next to the fence, either
    one white): after :attr:`NurikabeGenerator.patience` rounds without a smaller
    difference, the fences of the islands in the difference are released (their islands
    edited like any; else such a difference comes back every round), so
    the big islands end up mostly, not wholly, fenced. False after
    :meth:`NurikabeGenerator.max_edits` rounds or past the dense share."""
    moved = dict.fromkeys(clue, 0)
    best, since = s.rows * s.cols, 0
    seen: set[tuple[object, ...]] = set()  # the puzzles met so far: a cycle is unstuck
    for _ in range(gen.max_edits(s.rows, s.cols)):
        alt = gen.other(gen.puzzle_of(s, clue), s.solution())
        if alt is None:
            return True
        solution = s.solution()
        diff = [(r, c) for r in range(s.rows) for c in range(s.cols)
                if solution[r][c] != alt[r][c]]
        log.info("rigid_unique: %d clues, %d cells differ", len(clue), len(diff))
        best, since = (len(diff), 0) if len(diff) < best else (best, since + 1)
        if since >= gen.patience:  # stuck: free the fence islands of the difference
            held = {v for k in s.islands_at(diff) if s.fenced(k) for v in s.cells[k]}
            log.info("rigid_unique: %d fences released, %d held", len(held & s.fences),
                     len(s.fences - held))
            s.fences -= held
        if len(clue) > gen.dense_share[1] * s.rows * s.cols:
            return False
        regions = components(diff, s.rows, s.cols)
        rng.shuffle(regions)
        key = (tuple(map(tuple, solution)), tuple(sorted(clue.values())))
        if key in seen and gen.unstick(s, clue, moved, diff, rng):
            continue
        seen.add(key)
        gen.edit_round(s, clue, moved, alt, diff, regions, rng,
                       whole=since % gen.patience != gen.patience - 1)
    return False


def generate_rigid(gen: NurikabeGenerator, rows: int, cols: int, rng: random.Random,
                   fixed: float = 1.0) -> tuple[Instance, SolutionGrid]:
    """A unique puzzle with ``gen.big`` rigid big islands (``fixed``: the share of fences
    held, :func:`rigid_solution`): :func:`rigid_solution`,
    :func:`rigid_unique`, :meth:`NurikabeGenerator.sparsify`; a new solution on failure,
    :class:`GenerationError` after :attr:`NurikabeGenerator.restarts`."""
    for _ in range(gen.restarts):
        start = rigid_solution(gen, rows, cols, rng, fixed)
        if start is None:
            continue
        s, clue = start
        try:
            if not rigid_unique(gen, s, clue, rng):
                continue
            gen.sparsify(s, clue, rng)
        except SolveTimeout:
            log.info("restart: a check ran out of conflicts")
            continue
        return gen.puzzle_of(s, clue), s.solution()
    raise GenerationError(f"nurikabe {rows}x{cols}: no rigid puzzle after {gen.restarts} "
                          "restarts")


def main(argv: list[str] | None = None) -> int:
    """Write one puzzle of :func:`generate_rigid` and its solution (the ``.txt`` header
    names the command), proved unique; one line with its figures and CPU time."""
    p = command.parser("rigid", "Nurikabe with many rigid big islands")
    p.add_argument("--fixed", type=int, default=100,
                   help="per cent of the fences held as fixed clues (default 100: rigid)")
    a = p.parse_args(argv)
    tag = "" if a.fixed == 100 else f"-fixed{a.fixed}"
    return command.write_one(
        a, "rigid", lambda gen, rows, cols, rng: generate_rigid(gen, rows, cols, rng,
                                                               a.fixed / 100),
        tag, f"--fixed {a.fixed}" if tag else "")


if __name__ == "__main__":
    sys.exit(main())
