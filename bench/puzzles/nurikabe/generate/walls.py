"""The two-clue kind of the Nurikabe generator (its parameter ``clues``): two islands on
65-80 % of the grid, one clue each, the wall a thin ring of 19-36 cells between them -- the
kind of the real two-clue 10x10 (islands of 36 and 37 cells, a wall of 27) that the exact
formulations time out on.

Such a puzzle cannot be made by removing clues from a unique puzzle (the thinning of
:mod:`.few` stops at 4-6 clues), nor by repairing a random wall: a random snake between two
big islands has many local rearrangements of the same length and island sizes (a corner of
the wall moved one way here and one the other way there), more than two clue cells can rule
out. It is searched for in the space of walls, among walls that are rigid by construction.
A solution is a wall (4-connected, no 2x2 block) whose complement has exactly two
4-components, each holding one clue cell, of the clues' sizes; the puzzle is unique when no
other such wall exists.

:func:`frame_wall`: the wall is the frame around an h x w rectangle (h and w equal or one
apart), at a random place, with one corner cell left out at random or none (the inner
island stays closed: islands connect through sides, not corners). The inner island is the
rectangle, the outer one the rest. Among closed walls of that length the square (or the
near-square) frame encloses the most cells, so every other wall of the same length either
encloses a near-square of the same area elsewhere or leans on the grid's border, which
frees wall cells that must then go somewhere else; those few alternatives are what the clue
cells must rule out. Proving that no other wall of the length encloses the area is an
isoperimetric counting argument, which is hard for clause learning: the reason the kind is
hard to solve.

:func:`place_clues`: the clue pair, chosen by an exact search over the placements: each other
solution the uniqueness check (:class:`WarmCheck` with :data:`FORMULATION`, warm at the
intended solution, limited by conflicts so a seed reproduces) finds rules out every
placement whose two cells it also leaves white in islands of the same sizes; the next
placement is drawn from those left, until one is unique or none is left (then another
frame is drawn). The result's uniqueness is proved again by the generator's final count
(:func:`bench.generate.generate_one`).

On grids with both sides at least :data:`COUNTED_SIDE` the solvers' proofs run past any budget
(the reason the kind is hard), so there a check stops after :data:`QUICK_CONFLICTS` (another
solution, if one is near, is found by then) and the placement is then counted by the frontier
programme (:mod:`bench.puzzles.nurikabe.frontier`: an exhaustion independent of any solver,
whose states stay within a budget on a 10x10): unique, or ruled out by itself (also when the
programme passes :data:`COUNT_STATES`). There the clue cells are drawn within :data:`NEAR_SIDE`
cells of one side of the grid (both of the same side), where the programme starts: the cells
before the first clue are the least constrained. The same counter makes the final proof there
(:func:`proof_count`)."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from itertools import product

from bench.generate import GenerationError, Generator, SolveTimeout
from bench.grid import Cell, all_cells, components
from bench.instance import Instance
from bench.puzzles import SolutionGrid
from bench.puzzles.nurikabe.frontier import FrontierTooBig, count
from bench.puzzles.nurikabe.generate.unique import WarmCheck
from bench.puzzles.nurikabe.rules import BLACK, WHITE

log = logging.getLogger(__name__)

#: the exact formulation of the kind's checks and final count
FORMULATION = "sat-hybrid"
#: the clue counts the kind makes
CLUES = (2,)
#: the white share of the grid a layout must have (the real puzzle: 0.73)
WHITE_SHARE = (0.65, 0.80)
#: each island holds at least this share of the white cells (the real puzzle: 36 and 37 of
#: 73; a small island makes an easy puzzle)
ISLAND_SHARE = 0.35
#: the smallest grid side of the kind
MIN_SIDE = 8
#: conflicts one uniqueness check may spend (the proofs of the kind are long)
CONFLICTS = 20_000_000
#: placements tried on one frame before another is drawn
CALLS = 40
#: grids with both sides at least this long are counted by :mod:`bench.puzzles.nurikabe.frontier`
COUNTED_SIDE = 9
#: conflicts of one check on such grids before the placement is counted
QUICK_CONFLICTS = 200_000
#: the state budget of one count of such a grid
COUNT_STATES = 8_000_000
#: on such grids both clue cells lie within this many cells of one side of the grid
NEAR_SIDE = 3


@dataclass
class Layout:
    """A candidate solution: the wall cells and one clue cell per island."""

    rows: int
    cols: int
    wall: set[Cell]
    clues: list[Cell] = field(default_factory=list)

    def islands(self) -> list[list[Cell]]:
        white = [v for v in all_cells(self.rows, self.cols) if v not in self.wall]
        return components(white, self.rows, self.cols)

    def solution(self) -> SolutionGrid:
        return [[BLACK if (r, c) in self.wall else WHITE for c in range(self.cols)]
                for r in range(self.rows)]

    def grid(self) -> list[list[int | None]]:
        """The clue grid: each island's size at its clue cell."""
        out: list[list[int | None]] = [[None] * self.cols for _ in range(self.rows)]
        for island in self.islands():
            for r, c in island:
                if (r, c) in self.clues:
                    out[r][c] = len(island)
        return out


def frames(rows: int, cols: int) -> list[tuple[int, int, int, int, int]]:
    """Every frame of the kind as ``(top, left, h, w, gap)``: the frame's top-left cell, the
    inner rectangle's size (h and w equal or one apart), the corner left out (0-3: top-left,
    top-right, bottom-left, bottom-right; -1 none); the outer island connected and the white
    share within :data:`WHITE_SHARE`, each island at least :data:`ISLAND_SHARE` of it."""
    out = []
    for h in range(1, rows - 1):
        for w in (h - 1, h, h + 1):
            if not 1 <= w <= cols - 2:
                continue
            for gap in (-1, 0, 1, 2, 3):
                white = rows * cols - 2 * (h + w) - 4 + (gap >= 0)
                if not WHITE_SHARE[0] * rows * cols <= white <= WHITE_SHARE[1] * rows * cols \
                        or min(h * w, white - h * w) < ISLAND_SHARE * white:
                    continue
                for top in range(rows - h - 1):
                    for left in range(cols - w - 1):
                        lay = Layout(rows, cols, frame_cells(top, left, h, w, gap))
                        if len(lay.islands()) == 2:
                            out.append((top, left, h, w, gap))
    return out


def frame_cells(top: int, left: int, h: int, w: int, gap: int) -> set[Cell]:
    """The cells of the frame ``(top, left, h, w, gap)`` (:func:`frames`)."""
    bottom, right = top + h + 1, left + w + 1
    cells = {(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)
             if r in (top, bottom) or c in (left, right)}
    if gap >= 0:
        cells.discard(((top, bottom)[gap >> 1], (left, right)[gap & 1]))
    return cells


def frame_wall(rows: int, cols: int, rng: random.Random) -> Layout:
    """A random frame of :func:`frames` as a layout (no clues yet)."""
    options = frames(rows, cols)
    if not options:
        raise GenerationError(f"nurikabe {rows}x{cols}: no two-clue frame fits the grid")
    return Layout(rows, cols, frame_cells(*rng.choice(options)))


def counted(rows: int, cols: int) -> bool:
    """Whether a grid of the kind this large is counted by the frontier programme
    (:mod:`bench.puzzles.nurikabe.frontier`)."""
    return min(rows, cols) >= COUNTED_SIDE


def near_side(cells: tuple[Cell, ...], rows: int, cols: int) -> bool:
    """Whether all of ``cells`` lie within :data:`NEAR_SIDE` cells of one side of the grid."""
    return any(all(d < NEAR_SIDE for d in dist) for dist in zip(
        *[(r, rows - 1 - r, c, cols - 1 - c) for r, c in cells], strict=True))


def proof_count(inst: Instance) -> int:
    """Solutions of the puzzle ``inst`` up to 2, by :func:`bench.puzzles.nurikabe.frontier.count`;
    :class:`GenerationError` when the programme cannot count it (too many states, or an
    island or wall too big for its tallies)."""
    grid = [[None if v is None else int(v) for v in row] for row in inst.grid]
    try:
        return count(grid, cap=2, max_states=COUNT_STATES).solutions
    except (FrontierTooBig, ValueError) as err:
        raise GenerationError(f"uniqueness not proved by the frontier count: {err}") from err


def instance_of(gen: Generator, lay: Layout) -> Instance:
    return gen.instance([list(row) for row in lay.grid()])


def place_clues(gen: Generator, lay: Layout, rng: random.Random, check: WarmCheck,
                calls: int) -> bool:
    """Clue cells that make the wall of ``lay`` unique, if any: each other solution found
    rules out every placement whose clue cells it also leaves white in islands of the
    same sizes; the next placement is drawn from those left. True with ``lay.clues`` set
    when one is unique; False when none is left or after ``calls`` checks."""
    parts = sorted(lay.islands(), key=lambda p: (len(p), p[0]))
    sizes = [len(p) for p in parts]
    killed: list[list[set[Cell]]] = []  # per other solution: per island, the cells it covers
    places = list(product(*parts))
    if counted(lay.rows, lay.cols):
        places = [pl for pl in places if near_side(pl, lay.rows, lay.cols)]
    for _ in range(calls):
        left = [pl for pl in places if not any(
            all(v in kill[i] for i, v in enumerate(pl)) for kill in killed)]
        log.debug("place_clues: %d placements left", len(left))
        if not left:
            return False
        lay.clues = list(rng.choice(left))
        gen.solves += 1
        try:
            alt = check.other(instance_of(gen, lay), lay.solution())
        except SolveTimeout:
            if not counted(lay.rows, lay.cols):
                raise
            try:
                if count(lay.grid(), cap=2, max_states=COUNT_STATES).solutions == 1:
                    return True
                log.debug("place_clues: counted more than one solution")
            except (FrontierTooBig, ValueError) as err:
                log.debug("place_clues: not counted: %s", err)
            killed.append([{v} for v in lay.clues])  # this placement only
            continue
        if alt is None:
            return True
        white = [(r, c) for r in range(lay.rows) for c in range(lay.cols) if alt[r][c] != BLACK]
        theirs = [set(t) for t in components(white, lay.rows, lay.cols)]
        kill = []
        for i, v in enumerate(lay.clues):
            island = next(t for t in theirs if v in t)
            kill.append(island if len(island) == sizes[i] else set())
        killed.append(kill)
    return False


def two_clue(gen: Generator, rows: int, cols: int, rng: random.Random, clues: int,
             restarts: int) -> tuple[Instance, SolutionGrid]:
    """A unique puzzle with ``clues`` clues: :func:`frame_wall` and :func:`place_clues`, up to
    ``restarts`` frames; :class:`GenerationError` after them or for a kind it cannot make."""
    if clues not in CLUES:
        raise GenerationError(f"bad parameter clues={clues}: the kind makes "
                              f"{' or '.join(map(str, CLUES))} clues")
    if min(rows, cols) < MIN_SIDE:
        raise GenerationError(f"nurikabe {rows}x{cols}: the {clues}-clue kind needs both "
                              f"sides at least {MIN_SIDE}")
    check = WarmCheck(FORMULATION, QUICK_CONFLICTS if counted(rows, cols) else CONFLICTS)
    for _ in range(restarts):
        lay = frame_wall(rows, cols, rng)
        try:
            if place_clues(gen, lay, rng, check, CALLS):
                return instance_of(gen, lay), lay.solution()
        except SolveTimeout:
            log.debug("two_clue: a check ran out of conflicts")
    raise GenerationError(f"nurikabe {rows}x{cols}: no unique {clues}-clue puzzle "
                          f"in {restarts} frames")
