"""Big islands pinned by the 2x2 rule and by each other, with no fences, for Nurikabe puzzles
with many big islands (real large puzzles hold eight or more islands of 40-50 cells among
about 200 clues, about 9 % of the cells).

The big islands come in interlocking pairs (:func:`pair`): two combs P and Q, each a straight
spine with teeth of width 1, P's teeth reaching between Q's and back, so that the wall between
them is one path of width 1 (a snake zigzagging from the pair's top to its bottom) whose every
cell touches both islands. Every cell of such an island is pinned
(:func:`removable`, :func:`swaps`):

* a tooth's tip has the snake on three sides, so blackening it makes a 2x2 black block;
* every other cell of a tooth or of the spine separates the island, and the only cells that
  could join its parts again are snake cells, each of which touches the other comb too
  (white, it would join two islands with two clues); the cells outside the pair's frame
  touch one spine cell each and join nothing;
* so no solution trades one cell of an island for a wall cell next to it (a *swap*).

They are not pinned against each other (:func:`transfers`): a tooth's tip may turn black while
the snake's turn cell beside it, which touches the other comb's spine, joins that comb; two
such transfers in opposite directions keep both sizes and give another solution, which one clue
per comb rules out at one tip only. These tip transfers are not the only ones: a tooth cut
below its tip trades the same way (:func:`.turns.exchanges` counts both kinds). The repair
(:func:`generate_pinned`) cannot change the combs, so it converges only where each comb has at
most one transfer its clue can block.

A plain comb (teeth on one island with a wall finger between each two) is not pinned: a
tooth's base cell can be traded for the finger cell beside its tip, a ladder whose rung
moves; the snake between two combs has no cell that only one island touches. A single
island with such a shape pins itself only where another island lies across the wall, which
is why the islands come in pairs. Clues of other islands next to the ring (*fences*, the
device of :mod:`.rigid`) are not needed: the snake's cells touch big islands, not clues.

Why it should be hard: each big island's shape follows from its neighbour's and from the
2x2 rule along the snake between them, not from a clue next to each ring cell, so a
solver must place two 40-50-cell islands together from one clue each; local reasoning around
a clue fixes nothing.

:func:`pinned_solution` builds the solution: one pair per tile of :func:`.big.tiles` (the
last pair's second comb left out for an odd count), the combs' halos (cells next to or
diagonal to them) black and linked into one wall (:func:`.big.link`), the rest grown as in
the generator's random solution (:func:`.big.grow_wall`), the combs' shapes and halos
frozen (:attr:`NurikabeState.anchors`, :attr:`NurikabeState.pinned`). :func:`generate_pinned`
makes it unique with the generator's own :meth:`NurikabeGenerator.make_unique` (edits of the
small islands and clue moves) and thins it with :meth:`NurikabeGenerator.sparsify`; each
comb keeps one clue and no fence is placed or held. Run as a module it writes one instance
and its solution (``python -m bench.puzzles.nurikabe.generate.pinned --help``)."""

from __future__ import annotations

import logging
import random
import sys
from collections.abc import Callable

from bench.generate import (
    GenerationError,
    SolveTimeout,
)
from bench.grid import Cell, components, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.generate import NurikabeGenerator, command
from bench.puzzles.nurikabe.generate.big import Box, grow_wall, halo, link, ring, size_range, tiles
from bench.puzzles.nurikabe.generate.board import NurikabeState, Wall

log = logging.getLogger(__name__)


def draw_frame(
    lo: int, hi: int, box: Box, rng: random.Random, w_min: int, short: int
) -> tuple[bool, tuple[int, int], int, int] | None:
    """One draw of a comb pair's ``h x w`` frame (``h = 4m + 3``) for ``box``: whether it is
    turned, the room (rows, cols) seen after the turn, and ``(m, w)`` chosen at random among
    those with ``w >= w_min`` that fit the room and give each comb ``h + (m + 1)(w - short)``
    cells, ``lo`` to ``hi``; None if none fits."""
    r0, r1, c0, c1 = box
    turn = rng.random() < 0.5
    rows, cols = (c1 - c0, r1 - r0) if turn else (r1 - r0, c1 - c0)
    fits = [
        (m, w)
        for m in range(1, 8)
        for w in range(w_min, cols + 1)
        if 4 * m + 3 <= rows and lo <= 4 * m + 3 + (m + 1) * (w - short) <= hi
    ]
    if not fits:
        return None
    m, w = rng.choice(fits)
    return turn, (rows, cols), m, w


def place(
    frame: list[set[Cell]],
    size: tuple[int, int],
    room: tuple[int, int],
    origin: tuple[int, int],
    turn: bool,
    rng: random.Random,
) -> list[set[Cell]]:
    """The cell sets of an ``h x w`` frame (``size``) placed at a random offset in a box of
    ``room`` (rows, cols as seen after the turn) whose corner is ``origin``, mirrored at
    random in each direction, and transposed where ``turn``: one draw of the offset and the
    mirrors for all the sets, so they keep their places in the frame."""
    (h, w), (rows, cols), (r0, c0) = size, room, origin
    dr, dc = rng.randint(0, rows - h), rng.randint(0, cols - w)
    flip_r, flip_c = rng.random() < 0.5, rng.random() < 0.5
    placed = []
    for cells in frame:
        moved = {
            ((h - 1 - r if flip_r else r) + dr, (w - 1 - c if flip_c else c) + dc)
            for r, c in cells
        }
        placed.append({(r0 + c, c0 + r) if turn else (r0 + r, c0 + c) for r, c in moved})
    return placed


def pair(
    lo: int, hi: int, box: Box, rng: random.Random, tries: int = 200
) -> tuple[set[Cell], set[Cell]] | None:
    """Two interlocking combs inside ``box`` (module docstring), each of ``lo`` to ``hi``
    cells: in an ``h x w`` frame (``h = 4m + 3``), comb P has its spine down column 0 and
    teeth along rows 0, 4, ..., 4m from column 1 to ``w - 3``; comb Q its spine down
    column ``w - 1`` and teeth along rows 2, 6, ..., 4m + 2 from column ``w - 2`` to 2. Each
    has ``h + (m + 1)(w - 3)`` cells; the cells between them are one wall path of width 1
    from the frame's top to its bottom. The frame is placed at random in the box, turned
    and mirrored at random; None if no ``(m, w)`` fits the sizes and the box."""
    for _ in range(tries):
        drawn = draw_frame(lo, hi, box, rng, 5, 3)
        if drawn is None:
            continue
        turn, room, m, w = drawn
        h = 4 * m + 3
        p = {(r, 0) for r in range(h)} | {(r, c) for r in range(0, h, 4) for c in range(1, w - 2)}
        q = {(r, w - 1) for r in range(h)} | {
            (r, c) for r in range(2, h, 4) for c in range(2, w - 1)
        }
        placed = place([p, q], (h, w), room, (box[0], box[2]), turn, rng)
        return placed[0], placed[1]
    return None


def removable(rows: int, cols: int, black: set[Cell], island: set[Cell]) -> list[Cell]:
    """The cells of ``island`` that could turn black alone, the wall ``black`` around it:
    next to the wall, making no 2x2 black block, and leaving the rest of the island in one
    piece. A comb with its halo black has none (module docstring)."""
    out = []
    for v in sorted(island):
        if not any(n in black for n in neighbours(v, rows, cols)):
            continue
        if pool_at(rows, cols, black | {v}, v):
            continue
        if len(components(island - {v}, rows, cols)) == 1:
            out.append(v)
    return out


def pool_at(rows: int, cols: int, black: set[Cell], v: Cell) -> bool:
    """Whether a 2x2 block holding ``v`` lies inside ``black``."""
    r, c = v
    return any(
        all((r + i, c + j) in black for i in (a, a + 1) for j in (b, b + 1))
        for a in (-1, 0)
        for b in (-1, 0)
        if r + a >= 0 and r + a + 1 < rows and c + b >= 0 and c + b + 1 < cols
    )


def swaps(solution: SolutionGrid, island: set[Cell]) -> int:
    """The single-cell swaps of ``island`` in ``solution``: pairs (``x`` of the island turned
    black, ``y`` of its ring turned white, touching no other white cell) after which the
    island is one piece, the wall one piece and no 2x2 black block exists at ``x``: other
    shapes of the island of the same size that the rules allow locally. Counted by brute
    force; a pinned island has none."""
    rows, cols = len(solution), len(solution[0])
    black = {(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "#"}
    white = {(r, c) for r in range(rows) for c in range(cols)} - black
    count = 0
    for y in sorted(ring(rows, cols, island)):
        if any(n in white - island for n in neighbours(y, rows, cols)):
            continue
        for x in sorted(island):
            shape = (island - {x}) | {y}
            wall = (black - {y}) | {x}
            if pool_at(rows, cols, wall, x) or len(components(shape, rows, cols)) != 1:
                continue
            if len(components(wall, rows, cols)) == 1:
                count += 1
    return count


def transfers(solution: SolutionGrid, give: set[Cell], take: set[Cell]) -> int:
    """The single-cell transfers from island ``give`` to island ``take`` in ``solution``:
    pairs (``x`` of ``give`` turned black, ``y`` next to ``x`` and to ``take`` turned white,
    touching no other island) after which both islands are one piece each, the wall one
    piece and no 2x2 black block exists at ``x``. Each changes both sizes by one, so two in
    opposite directions make another solution with the same clues; the snake's turn cells of
    :func:`pair` allow them."""
    rows, cols = len(solution), len(solution[0])
    black = {(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "#"}
    white = {(r, c) for r in range(rows) for c in range(cols)} - black
    count = 0
    for x in sorted(give):
        for y in neighbours(x, rows, cols):
            near = {n for n in neighbours(y, rows, cols) if n in white and n != x}
            if y not in black or not near & take or near - take - give:
                continue
            if near & give:
                continue  # y would join the two islands
            wall = (black - {y}) | {x}
            if pool_at(rows, cols, wall, x):
                continue
            if all(len(components(b, rows, cols)) == 1 for b in (give - {x}, take | {y})) and (
                len(components(wall, rows, cols)) == 1
            ):
                count += 1
    return count


def pinned_solution(
    gen: NurikabeGenerator, rows: int, cols: int, rng: random.Random
) -> NurikabeState | None:
    """A random solution with ``gen.big`` combs (sizes from :func:`.big.size_range`, one
    per tile of :func:`.big.tiles`): their halos black, linked into one wall and grown as
    in :meth:`NurikabeGenerator.random_solution` (small islands up to ``gen.small``, else
    ``gen.start_island``); the combs' shapes and halos frozen. None if a comb, the link or
    the growth fails, or a halo holds a 2x2 block."""
    lo, hi = size_range(gen, rows, cols)
    combs: list[set[Cell]] = []
    for box in tiles(rows, cols, (gen.big + 1) // 2, rng):
        found = pair(lo, hi, box, rng)
        if found is None:
            return None
        combs += found[: gen.big - len(combs)]
    halos = set().union(*(halo(rows, cols, b) for b in combs))
    if any(pool_at(rows, cols, halos, v) for v in halos):
        return None
    s = grow_around(gen, rows, cols, combs, halos, rng)
    if s is not None:
        s.pinned = halos
    return s


def grow_around(
    gen: NurikabeGenerator,
    rows: int,
    cols: int,
    islands: list[set[Cell]],
    black: set[Cell],
    rng: random.Random,
) -> NurikabeState | None:
    """The solution around the big ``islands`` with the cells ``black`` wall: ``black``
    blackened, linked into one wall (:func:`.big.link`) and the rest grown as in
    :meth:`NurikabeGenerator.random_solution` (:func:`.big.grow_wall`: small islands up to
    ``gen.small``, else ``gen.start_island``), the islands kept whole as the state's anchors;
    None if the link or the growth fails."""
    wall = Wall(rows, cols, gen.join_weight, gen.small_piece)
    for v in sorted(black):
        wall.blacken(v)
    if not link(wall, set().union(*islands), set(), lambda v: True, rng):
        return None
    big = {wall.comp[r][c] for b in islands for r, c in [min(b)]}
    target = rng.uniform(*gen.black_share) * rows * cols - sum(
        wall.black(r, c) for r in range(rows) for c in range(cols)
    )
    if not grow_wall(
        wall, big, (gen.small or gen.start_island, gen.cap(rows, cols)), target, lambda v: True, rng
    ):
        return None
    s = wall.state()
    s.anchors = [min(b) for b in islands]
    return s


def generate_pinned(
    gen: NurikabeGenerator, rows: int, cols: int, rng: random.Random
) -> tuple[Instance, SolutionGrid]:
    """A unique puzzle with ``gen.big`` combs: :func:`generate_frozen` of
    :func:`pinned_solution`."""
    return generate_frozen(gen, rows, cols, rng, pinned_solution, "pinned")


def generate_frozen(
    gen: NurikabeGenerator,
    rows: int,
    cols: int,
    rng: random.Random,
    draw: Callable[[NurikabeGenerator, int, int, random.Random], NurikabeState | None],
    name: str,
    gate: Callable[[NurikabeState], bool] | None = None,
) -> tuple[Instance, SolutionGrid]:
    """A unique puzzle from a solution of ``draw`` whose big islands are frozen: a drawn
    solution that ``gate`` refuses is drawn again before any uniqueness check; then
    :meth:`NurikabeGenerator.make_unique` (the frozen edits kept, only their clues move) and
    :meth:`NurikabeGenerator.sparsify`; a new solution on failure or when a check runs out of
    conflicts, :class:`GenerationError` (naming the ``name`` puzzle) after
    :attr:`NurikabeGenerator.restarts`."""
    for attempt in range(gen.restarts):
        s = draw(gen, rows, cols, rng)
        if s is None or (gate is not None and not gate(s)):
            continue
        try:
            clue = gen.make_unique(s, rng, max(gen.least_patience, gen.patience >> attempt))
            if clue is None:
                log.info("restart: no unique puzzle within the rounds")
                continue
            gen.sparsify(s, clue, rng)
        except SolveTimeout:
            log.info("restart: a check ran out of conflicts")
            continue
        return gen.puzzle_of(s, clue), s.solution()
    raise GenerationError(f"nurikabe {rows}x{cols}: no {name} puzzle after {gen.restarts} "
                          "restarts")


def structure(inst: Instance, solution: SolutionGrid, least: int = 40) -> dict[str, object]:
    """The figures compared with the real puzzle: clues, clue %, ones, white %, the islands
    of ``least`` cells or more, the single-cell swaps of those (:func:`swaps`) and their
    *fenced* share: of their ring cells, the per cent next to a clue of another island."""
    rows, cols = inst.rows, inst.cols
    clues = {
        (r, c): x for r, row in enumerate(inst.grid) for c, x in enumerate(row) if x is not None
    }
    white = [(r, c) for r in range(rows) for c in range(cols) if solution[r][c] != "#"]
    bigs = [set(p) for p in components(white, rows, cols) if len(p) >= least]
    rim = [(y, b) for b in bigs for y in ring(rows, cols, b)]
    fenced = sum(any(n in clues and n not in b for n in neighbours(y, rows, cols)) for y, b in rim)
    return {
        "size": f"{rows}x{cols}",
        "clues": len(clues),
        "clue %": round(100 * len(clues) / (rows * cols), 1),
        "ones": sum(x == 1 for x in clues.values()),
        "white %": round(100 * len(white) / (rows * cols), 1),
        "big": sorted((len(b) for b in bigs), reverse=True),
        "swaps": sum(swaps(solution, b) for b in bigs),
        "transfers": sum(transfers(solution, b, d) for b in bigs for d in bigs if b is not d),
        "fenced %": round(100 * fenced / max(1, len(rim)), 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Write one puzzle of :func:`generate_pinned` and its solution (the ``.txt`` header
    names the command), proved unique; one line with its figures, CPU time and
    :func:`structure`."""
    a = command.parser("pinned", "Nurikabe with many pinned big islands (combs)").parse_args(argv)
    return command.write_one(a, "pinned", generate_pinned,
                             summary=lambda inst, sol: str(structure(inst, sol)))


if __name__ == "__main__":
    sys.exit(main())
