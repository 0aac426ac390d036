"""Interlocking comb pairs whose wall turns are pinned by a one, and the two-island
*exchanges* that decide, before any uniqueness proof, whether a layout of big islands can be
made unique by clues alone.

An *exchange* between islands A and B of a solution (:func:`exchanges`) is two opposite
one-way transfers of the same size (:func:`moves`): a cell ``x`` of A turns black, the piece
of A it cuts off (possibly none) and one wall cell ``y`` join B; and the same from B to A;
the result obeys every rule of Nurikabe with the same clues (both sizes kept, each island one
piece with its one clue, no other island touched, the wall one piece, no 2x2 black block: the
block test is the rule checker's own :func:`bench.puzzles.nurikabe.rules.pools`). The flaw
of the comb pairs of :mod:`.pinned` is the smallest such exchange: A's tooth tip turns black
and the snake's turn cell beside it joins B, and the same from B to A. A clue
blocks an exchange only where it sits on ``x`` or on the cut-off piece; an island with many
exchanges cannot be made unique without changing its shape, so a layout of frozen big islands
is worth a uniqueness proof only if one clue per island can block every exchange found
(:func:`fewest_left` is 0) and none has a single-cell swap (:func:`.pinned.swaps`).

The counter finds the exchanges whose two transfers are each valid on their own (no 2x2 black
block at ``x`` with only its own ``y`` turned white) and, where nothing is cut off, whose
``y`` touches ``x``: not every exchange. On a 2x7 grid with clues 3 at (0, 0) and (0, 4),
solution ``...#...`` over ``#######``, the other solution ``..#...#`` over ``.######`` is
such a miss (the second transfer's ``y``, (1, 0), does not touch its ``x``, (0, 6)). A layout
it rejects has an exchange; a layout it passes may still have one.

:func:`turned_pair` removes the turn cells that touch both combs. In an ``h x w`` frame
(``h = 4m + 3``) comb P has its spine down column 0 and teeth along rows 0, 4, ..., 4m from
column 1 to ``w - 5``; comb Q its spine down column ``w - 1`` and teeth along rows
2, 6, ..., 4m + 2 from column ``w - 2`` to 4. Each turn of the wall between them is three
cells in a row, the middle one a one-cell island (``1`` clue): at P's tooth rows
``(r, w-4)`` black, ``(r, w-3)`` the one, ``(r, w-2)`` black; at Q's ``(r, 3)``, ``(r, 2)``,
``(r, 1)``. Both black turn cells touch the one, so neither can turn white (it would join a
comb to the one's clue), and a tip turned black makes a 2x2 black block with the turn cell
beside it and the two wall cells next to them, because the only cells that could break that
block touch the one or the other comb's tooth. The price is one fence per turn: the
reasoning stays non-local along the teeth and spines (no clue next to them), local at the
turns.

Each comb has ``h + (m + 1)(w - 5)`` cells. :func:`turned_solution` builds a random solution
around such pairs exactly as :func:`.pinned.pinned_solution` does, the ones' islands frozen
with the combs; :func:`layout_report` counts swaps and exchanges of its big islands.
"""

from __future__ import annotations

import logging
import random
import sys
from functools import partial

import numpy as np

from bench.grid import Cell, components, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.generate import NurikabeGenerator, command
from bench.puzzles.nurikabe.generate.big import Box, grow_wall, halo, link, size_range, tiles
from bench.puzzles.nurikabe.generate.board import NurikabeState, Wall
from bench.puzzles.nurikabe.generate.pinned import (
    draw_frame,
    generate_frozen,
    place,
    structure,
    swaps,
)
from bench.puzzles.nurikabe.rules import pools

log = logging.getLogger(__name__)

Frame = tuple[set[Cell], set[Cell], set[Cell]]


def frame_cells(m: int, w: int) -> Frame:
    """Comb P, comb Q and the turn ones of the ``(4m + 3) x w`` frame (module docstring)."""
    h = 4 * m + 3
    p = {(r, 0) for r in range(h)} | {(r, c) for r in range(0, h, 4) for c in range(1, w - 4)}
    q = {(r, w - 1) for r in range(h)} | {(r, c) for r in range(2, h, 4) for c in range(4, w - 1)}
    ones = {(r, w - 3) for r in range(0, h, 4)} | {(r, 2) for r in range(2, h, 4)}
    return p, q, ones


def turned_pair(lo: int, hi: int, box: Box, rng: random.Random, tries: int = 200) -> Frame | None:
    """The frame of :func:`frame_cells` with both combs of ``lo`` to ``hi`` cells and teeth
    overlapping by two cells or more (``w >= 10``), placed at random in ``box``, turned and
    mirrored at random; None if no ``(m, w)`` fits."""
    for _ in range(tries):
        drawn = draw_frame(lo, hi, box, rng, 10, 5)
        if drawn is None:
            continue
        turn, room, m, w = drawn
        placed = place(list(frame_cells(m, w)), (4 * m + 3, w), room, (box[0], box[2]), turn,
                       rng)
        return placed[0], placed[1], placed[2]
    return None


def turned_solution(
    gen: NurikabeGenerator, rows: int, cols: int, rng: random.Random
) -> NurikabeState | None:
    """A random solution with ``gen.big`` combs of :func:`turned_pair` (one pair per tile of
    :func:`.big.tiles`, the last pair's Q and its ones left out for an odd count): the
    combs' halos and the ones' neighbours black, linked and grown as in
    :func:`.pinned.pinned_solution`; the combs and the ones frozen (their cells are
    :attr:`NurikabeState.anchors`), the black cells around them pinned. None if a pair, the
    link or the growth fails, or the frozen black cells hold a 2x2 block."""
    lo, hi = size_range(gen, rows, cols)
    combs: list[set[Cell]] = []
    ones: set[Cell] = set()
    for box in tiles(rows, cols, (gen.big + 1) // 2, rng):
        found = turned_pair(lo, hi, box, rng)
        if found is None:
            return None
        p, q, o = found
        if len(combs) + 2 > gen.big:
            o = set()
        combs += [p, q][: gen.big - len(combs)]
        ones |= o
    black = set().union(*(halo(rows, cols, b) for b in combs))
    black |= {n for v in ones for n in neighbours(v, rows, cols)}
    black -= ones
    if pools(lambda v: v in black, rows, cols):
        return None
    wall = Wall(rows, cols, gen.join_weight, gen.small_piece)
    for v in sorted(black):
        wall.blacken(v)
    taken = set().union(*combs) | ones
    if not link(wall, taken, set(), lambda v: True, rng):
        return None
    frozen = {wall.comp[r][c] for r, c in [min(b) for b in combs] + sorted(ones)}
    target = rng.uniform(*gen.black_share) * rows * cols - sum(
        wall.black(r, c) for r in range(rows) for c in range(cols)
    )
    if not grow_wall(
        wall,
        frozen,
        (gen.small or gen.start_island, gen.cap(rows, cols)),
        target,
        lambda v: True,
        rng,
    ):
        return None
    s = wall.state()
    s.anchors = [min(b) for b in combs] + sorted(ones)
    s.pinned = black
    return s


Move = tuple[Cell, Cell, frozenset[Cell]]


def moves(solution: SolutionGrid, give: set[Cell], take: set[Cell]) -> list[Move]:
    """The one-way transfers from island ``give`` to island ``take``: ``(x, y, part)``, where
    ``x`` of ``give`` turns black, ``part`` is the piece of ``give - {x}`` cut off by it (empty
    if ``x`` cuts nothing), and wall cell ``y``, next to ``take`` and to ``part`` (to ``x``
    when ``part`` is empty) and to no other white cell, turns white, so that ``part`` and
    ``y`` join ``take``. ``give`` shrinks and ``take`` grows by ``len(part) + 1``; only
    candidates with no 2x2 black block at ``x`` are kept (the rule checker's
    :func:`bench.puzzles.nurikabe.rules.pools`). A comb's tip next to a turn cell is the
    empty-part case; a tooth cut below its tip, the tip's piece joining the other comb
    through the snake cell beside it, the one-cell part case."""
    rows, cols = len(solution), len(solution[0])
    black = {(r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "#"}
    out: list[Move] = []
    for x in sorted(give):
        parts = [frozenset(p) for p in components(give - {x}, rows, cols)]
        if len(parts) > 2:
            continue
        cut = [p for p in parts if len(parts) == 2] or [frozenset()]
        for part in cut:
            edge = part or {x}
            for y in sorted({n for v in edge for n in neighbours(v, rows, cols)} & black):
                touch = {n for n in neighbours(y, rows, cols) if n not in black and n != x}
                if not touch & take or not touch <= take | part:
                    continue
                if pools(partial(swapped, black, x, y), rows, cols, at=x):
                    continue
                out.append((x, y, part))
    return out


def swapped(black: set[Cell], x: Cell, y: Cell, t: Cell) -> bool:
    """Whether ``t`` is black once ``x`` has turned black and ``y`` white."""
    return t == x or (t != y and t in black)


def exchanges(
    solution: SolutionGrid, a: set[Cell], b: set[Cell], clues: frozenset[Cell] = frozenset()
) -> list[tuple[Move, Move]]:
    """Every exchange between islands ``a`` and ``b`` of ``solution`` (module docstring)
    made of a transfer each way of :func:`moves` of the same size, neither moving a cell of
    ``clues`` out of its island: the pairs after which both islands are one piece each, with
    their sizes, no ``y`` touches the other island, the wall is one piece and holds no 2x2
    block (:func:`broken`; :func:`exchanged` builds the grid)."""
    rows, cols = len(solution), len(solution[0])
    black = frozenset((r, c) for r in range(rows) for c in range(cols) if solution[r][c] == "#")
    there = [m for m in moves(solution, a, b) if not (m[2] | {m[0]}) & clues]
    back: dict[int, list[Move]] = {}
    for n in moves(solution, b, a):
        if not (n[2] | {n[0]}) & clues:
            back.setdefault(len(n[2]), []).append(n)
    return [
        (m, n)
        for m in there
        for n in back.get(len(m[2]), [])
        if not broken(rows, cols, black, a, b, m, n)
    ]


def exchanged(solution: SolutionGrid, m: Move, n: Move) -> SolutionGrid:
    """``solution`` after transfers ``m`` and ``n``: both ``x`` black, both ``y`` white."""
    alt = [list(row) for row in solution]
    for x, y, _ in (m, n):
        alt[x[0]][x[1]], alt[y[0]][y[1]] = "#", "."
    return alt


def broken(
    rows: int, cols: int, black: frozenset[Cell], a: set[Cell], b: set[Cell], m: Move, n: Move
) -> bool:
    """Whether the exchange ``m`` (``a`` to ``b``), ``n`` (``b`` to ``a``) breaks a rule
    (``black``: the wall before it): shared cells, a ``y`` touching the other island, a 2x2
    black block at an ``x``, an island not one piece, or the wall in pieces; the cheap
    local tests first."""
    (x1, y1, p1), (x2, y2, p2) = m, n
    if len({x1, y1, x2, y2}) < 4 or x2 in p1 or x1 in p2 or p1 & p2:
        return True
    new_a = (a - {x1} - p1) | p2 | {y2}
    new_b = (b - {x2} - p2) | p1 | {y1}
    if any(t in new_b for t in neighbours(y2, rows, cols)) or any(
        t in new_a for t in neighbours(y1, rows, cols)
    ):
        return True
    dark = (black - {y1, y2}) | {x1, x2}
    if any(pools(lambda t: t in dark, rows, cols, at=x) for x in (x1, x2)):
        return True
    if any(len(components(s, rows, cols)) != 1 for s in (new_a, new_b)):
        return True
    return len(components(dark, rows, cols)) != 1


def layout_report(s: NurikabeState) -> dict[str, int]:
    """The big islands of ``s`` (its anchors of more than one cell): how many, the
    single-cell swaps of each summed (:func:`.pinned.swaps`), and over every pair of them
    within two cells of each other the exchanges (:func:`exchanges`, no clue placed): all,
    those of single cells (``tip``: the turn-cell kind), and ``left``: the fewest that one
    clue per island leaves (:func:`fewest_left`), summed. A layout worth a uniqueness proof
    has zero swaps and ``left`` zero."""
    sol = s.solution()
    bigs = [set(s.cells[s.island[r][c]]) for r, c in s.anchors]
    bigs = [b for b in bigs if len(b) > 1]
    out = {
        "big": len(bigs),
        "swaps": sum(swaps(sol, b) for b in bigs),
        "exchanges": 0,
        "tip": 0,
        "left": 0,
    }
    for i, a in enumerate(bigs):
        reach = {(r + dr, c + dc) for r, c in a for dr in range(-2, 3) for dc in range(-2, 3)}
        for b in bigs[i + 1 :]:
            found = exchanges(sol, a, b) if reach & b else []
            out["exchanges"] += len(found)
            out["tip"] += sum(not m[2] for m, _ in found)
            out["left"] += fewest_left(found, a, b)
    return out


def fewest_left(found: list[tuple[Move, Move]], a: set[Cell], b: set[Cell]) -> int:
    """The fewest of the exchanges ``found`` between ``a`` and ``b`` that survive one clue
    in each island, over every placement: a clue on a moved cell (an ``x`` or a cut-off
    piece of its own island) rules an exchange out. Counted as a matrix product: for clue
    cells ``(i, j)``, the exchanges moving neither."""
    if not found:
        return 0
    ia = {v: i for i, v in enumerate(sorted(a))}
    ib = {v: j for j, v in enumerate(sorted(b))}
    stay_a = np.ones((len(found), len(ia)), dtype=np.int64)
    stay_b = np.ones((len(found), len(ib)), dtype=np.int64)
    for e, (m, n) in enumerate(found):
        stay_a[e, [ia[v] for v in m[2] | {m[0]}]] = 0
        stay_b[e, [ib[v] for v in n[2] | {n[0]}]] = 0
    return int((stay_a.T @ stay_b).min())


def generate_turned(
    gen: NurikabeGenerator, rows: int, cols: int, rng: random.Random, strict: bool = True
) -> tuple[Instance, SolutionGrid]:
    """A unique puzzle around :func:`turned_solution` (:func:`.pinned.generate_frozen`, the
    combs and ones frozen): layouts with a swap of a big island or an exchange between two
    that one clue each cannot block (:func:`layout_report`, ``left``) are drawn again before
    any uniqueness check (``strict``; without it every layout goes to the repair, to see
    where it stalls)."""

    def gate(s: NurikabeState) -> bool:
        report = layout_report(s)
        log.info("layout: %s", report)
        return not (strict and (report["swaps"] or report["left"]))

    return generate_frozen(gen, rows, cols, rng, turned_solution, "turned", gate)


def main(argv: list[str] | None = None) -> int:
    """Write one puzzle of :func:`generate_turned` and its solution, proved unique; one line
    with its figures, CPU time and :func:`.pinned.structure`. ``--any-layout``: no layout
    is drawn again for its exchanges."""
    p = command.parser("turns", "Nurikabe with many big comb pairs, turns pinned by ones")
    p.add_argument(
        "--any-layout",
        action="store_true",
        help="repair layouts with exchanges too (else they are drawn again)",
    )
    a = p.parse_args(argv)

    def make(
        gen: NurikabeGenerator, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        return generate_turned(gen, rows, cols, rng, strict=not a.any_layout)

    return command.write_one(
        a,
        "turns",
        make,
        tag="-any" if a.any_layout else "",
        options="--any-layout" if a.any_layout else "",
        summary=lambda inst, sol: str(structure(inst, sol)),
    )


if __name__ == "__main__":
    sys.exit(main())
