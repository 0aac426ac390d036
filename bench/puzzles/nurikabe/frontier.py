"""An exact solution counter for Nurikabe puzzles with few clues: a frontier (transfer-matrix)
dynamic programme over the cells in row-major order, independent of any solver.

A solution with clues ``c_1..c_k`` of sizes ``s_1..s_k`` is the same thing as a colouring of
every cell with one of ``k + 1`` colours -- island ``i`` (``0 <= i < k``) or wall (``k``) --
such that each clue cell has its island's colour, cells of two different islands are never
side-adjacent, each colour class is 4-connected, island ``i`` has exactly ``s_i`` cells and no
2x2 block is all wall (the wall then has the remaining cells). The island of each white cell is
determined by the solution (the component holding clue ``i``), so the colourings and the
solutions are in one-to-one correspondence and counting one counts the other.

The programme keeps, for the frontier (the last processed cell of every column), each cell's
colour and a connectivity label (cells of one colour joined by the processed part), the colour
of the cell diagonally above-left of the next cell for the 2x2 rule (only when the next cell's
left and up are wall: elsewhere the rule cannot bite and the colour is forgotten, so such
profiles merge), the set of colours
whose one component has left the frontier for good (no later cell may take that colour) and
the cells of each island so far. A component that leaves the frontier while another component
of its colour is still on it cannot be joined any more: that partial colouring is dropped, as
is one whose cells of a colour leave too few for what the colour still needs at least (to join
its components, to reach its clue, to wall off the islands still to grow: the bounds of
:mod:`.frontier_bounds`, each exact: no completion of a dropped one is a solution), and one
whose colours cannot all be joined below the frontier without two colours' joins crossing
(:mod:`.frontier_planar`, by planarity), or whose island enclosed by another colour's joins
needs more cells than they can enclose (:mod:`.frontier_enclosed`). The
states are merged with their numbers of partial colourings, so the answer is the exact number
of solutions, found by exhaustion (the method of counting polyominoes and self-avoiding walks
by transfer matrices: I. Jensen, "Enumerations of lattice animals and trees", J. Stat. Phys. 102
(2001), and the frontier-based search of Kawahara et al., "Frontier-based search for
enumerating all constrained subgraphs with compressed representation", IEICE Trans.
Fundamentals E100.A (2017)).

The number of states grows with the number of colours and the width of the grid (the shorter
side is the frontier): the method is for the two- and three-clue puzzles of
:mod:`.generate.walls` (a 10x10 with two clues stays within half a million states);
:func:`count` stops with :class:`FrontierTooBig` past a state budget instead of exhausting the
memory."""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench.grid import Cell
from bench.puzzles.nurikabe import frontier_arrays as arrays
from bench.puzzles.nurikabe.frontier_bounds import (
    BITS,
    FIELD,
    GUARD,
    States,
    Sweep,
    separated,
)
from bench.puzzles.nurikabe.frontier_enclosed import enclosed, roomy, shifted
from bench.puzzles.nurikabe.frontier_moves import allowed, enter
from bench.puzzles.nurikabe.frontier_planar import CACHES as PLANAR_CACHES

log = logging.getLogger(__name__)

#: the default cap on the states of one step
MAX_STATES = 4_000_000
#: every cache by frontier, emptied after each run
_CACHES = (enclosed, *PLANAR_CACHES)


class FrontierTooBig(RuntimeError):
    """The frontier had more states than the budget allowed."""


@dataclass(frozen=True)
class Count:
    """The outcome of :func:`count`: the number of solutions (capped at ``cap`` when given)
    and the largest number of states of one step."""

    solutions: int
    states: int


Grid = list[list[int | None]]


def _oriented(grid: Sequence[Sequence[int | None]]) -> list[tuple[Grid, list[Cell]]]:
    """The grid's turns and mirror images with the shorter side across (the frontier runs
    along it), best first: the last clue cell earliest in the row-major order (the cells
    before a clue are the least constrained, so the frontier has the fewest states when the
    clues come first), ties by the first appearance; each with the cell of ``grid`` at every
    cell of the turned grid, in row-major order."""
    base = [[(v, (r, c)) for c, v in enumerate(row)] for r, row in enumerate(grid)]
    out = []
    for _ in range(4):
        base = [list(col) for col in zip(*base[::-1], strict=True)]  # a quarter turn
        out += [base, [row[::-1] for row in base]]
    short = min(len(out[0]), len(out[0][0]))
    out = [g for g in out if len(g[0]) == short]

    def order(g: list[list[tuple[int | None, Cell]]]) -> tuple[int, int]:
        at = [i for i, (v, _) in enumerate(p for row in g for p in row) if v is not None]
        return (at[-1], at[0]) if at else (0, 0)

    return [([[v for v, _ in row] for row in g], [at for row in g for _, at in row])
            for g in sorted(out, key=order)]


def orientations(grid: Sequence[Sequence[int | None]]) -> list[Grid]:
    """The grid's turns and mirror images with the shorter side across, best first (see
    :func:`_oriented`)."""
    return [g for g, _ in _oriented(grid)]


def _grid_of(grid: Sequence[Sequence[int | None]], turn: int
             ) -> tuple[int, int, dict[Cell, int], list[int]]:
    """The grid in its orientation number ``turn`` of :func:`orientations` (0: the best), its
    clue cells (to the island number) and the island sizes."""
    rows, cols, clue_at, sizes, _ = _turned(grid, turn)
    return rows, cols, clue_at, sizes


def _turned(grid: Sequence[Sequence[int | None]], turn: int
            ) -> tuple[int, int, dict[Cell, int], list[int], list[Cell]]:
    """:func:`_grid_of` and the cell of ``grid`` at each cell of the turned grid (row-major)."""
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v is not None and v < 1:
                raise ValueError(f"clue {v} at ({r}, {c}) is below 1")
    grid, origin = _oriented(grid)[turn]
    rows, cols = len(grid), len(grid[0])
    clue_at: dict[Cell, int] = {}
    sizes: list[int] = []
    for r in range(rows):
        for c in range(cols):
            v = grid[r][c]
            if v is not None:
                clue_at[(r, c)] = len(sizes)
                sizes.append(v)
    if not sizes:
        raise ValueError("a grid without clues")
    return rows, cols, clue_at, sizes, origin


def _step(states: States, sw: Sweep, r: int, c: int) -> tuple[States, int] | None:
    """The states after cell ``(r, c)``: for each state and each colour the cell may take (a
    clue's colour, else any not closed that breaks no rule: no 2x2 wall, no two islands side
    by side), the new profile and each tally with the cell added, dropped when a field passes
    the new profile's :func:`~.frontier_bounds.bound` (one subtraction against the guard
    bits checks every field) or the wall left too few cells (:func:`.frontier_bounds.separated`)
    or the colour whose component left the frontier is not complete or an enclosed island
    has too few cells for its room (:func:`.frontier_enclosed.lift`); equal states
    merged, adding their numbers and keeping the first witness; with their number. None past
    the deadline; :class:`FrontierTooBig` past the budget.

    Over 60 lines: the loop over the states and their tallies is the hot path, kept in one
    frame without a call per tally."""
    fixed = sw.clue_at.get((r, c))
    options = range(sw.k + 1) if fixed is None else (fixed,)
    wall = sw.k
    cell = r * sw.cols + c
    deadline = sw.deadline
    guards = sw.guards
    keep = sw.keep
    moves = enter(sw, r, c)
    low, ok = separated(sw, r, c)
    # per colour: the tally's step, the witness's colour bits, the excluded solutions' mask,
    # and (for a colour that must be complete) the field's mask and full value
    steps = [1 << p for p in sw.pos]
    colours = [x << sw.width * cell if sw.width else 0 for x in range(wall + 1)]
    agrees = sw.agree[cell]
    fms = [(GUARD - 1) << p for p in sw.pos]
    # per colour: the allowed values of ``t & low`` before the step, for a tally that passes
    # the bound (no field then overflows into its guard bit: the step adds its own bits)
    oks = [shifted(ok, low, s) for s in steps]
    rooms: dict[tuple[int, int], tuple[int, int, frozenset[int]]] = {}
    listed: dict[int, frozenset[int]] = {}
    nxt: States = {}
    made = 0
    for (front, diag, closed), tallies in states.items():
        if sw.budget and made > sw.max_states:
            raise FrontierTooBig(f"over {sw.max_states} states at cell ({r}, {c})")
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        for x, move in allowed(sw, moves, options, front, diag, closed, r, c):
            codes, now, must, bound, below, shut = move
            lifted, low_x, ok_x = 0, low, oks[x]
            if shut:  # enclosed islands: the cells they must have (frontier_enclosed)
                room = rooms.get((shut, x))
                if room is None:
                    room = rooms[(shut, x)] = roomy(sw, shut, r, c, low, ok, steps[x], listed)
                lifted, low_x, ok_x = room
            step = steps[x]
            colour = colours[x]
            agree = agrees[x]
            key = (codes, below, now)
            out = nxt.get(key)
            if must < 0 and agree == -1:
                most = bound - step  # a tally t passes the bound after the step when
                # most - t keeps every guard bit
                if lifted:  # and t + step + lifted keeps them
                    least = lifted + step
                    add = {t + step: v + colour for t, v in tallies.items()
                           if most - t & guards == guards and t + least & guards == guards
                           and t & low_x in ok_x}
                elif low_x:
                    add = {t + step: v + colour for t, v in tallies.items()
                           if most - t & guards == guards and t & low_x in ok_x}
                else:
                    add = {t + step: v + colour for t, v in tallies.items()
                           if most - t & guards == guards}
                if not add:
                    continue
                if out is None:
                    nxt[key] = add
                else:  # merged: the numbers added, the first witness kept
                    for t in add.keys() & out.keys():
                        out[t] += add.pop(t) & keep
                    out.update(add)
                made += len(add)
                continue
            fm = 0 if must < 0 else fms[must]
            fw = 0 if must < 0 else sw.full[must]
            if out is None:
                out = nxt[key] = {}
            for t, v in tallies.items():
                if t & low_x not in ok_x:
                    continue
                t = t + step & agree
                if bound - t & guards != guards or t & fm != fw or (
                        lifted and t + lifted & guards != guards):
                    continue
                old = out.get(t)
                if old is None:
                    out[t] = v + colour
                    made += 1
                else:
                    out[t] = old + (v & keep)
            if not out:
                del nxt[key]
    return nxt, made


def _first(sw: Sweep, every: int) -> States:
    """The one state before the first cell: an empty frontier, tally ``every`` (the exclusion
    bits), one colouring."""
    return {(tuple([-1] * sw.cols), -1, 0): {every: 1 << sw.above}}


def _sweep(sw: Sweep, every: int) -> tuple[tuple[int, int] | None, int]:
    """The final states' :func:`_accepted` answer (None past the deadline) and the largest
    number of states of one step, from the one state with tally ``every`` (the exclusion
    bits) and value one colouring: over arrays (:mod:`.frontier_arrays`) when the tallies fit
    them, else over dicts (:func:`_step`). The cyclic garbage collector is off meanwhile (the
    states are millions of tuples and dicts without a cycle), and the caches by frontier are
    emptied after (a long process, the generator, would keep up to a million between runs)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        if arrays.fits(sw, every):
            return _sweep_arrays(sw, every)
        states = _first(sw, every)
        peak = 1
        for r in range(sw.rows):
            for c in range(sw.cols):
                if sw.deadline is not None and time.perf_counter() >= sw.deadline:
                    return None, peak
                stepped = _step(states, sw, r, c)
                if stepped is None:
                    return None, peak
                states, size = stepped
                peak = max(peak, size)
                _checked(sw, r, c, len(states), size)
        return _accepted(states, sw), peak
    finally:
        if enabled:
            gc.enable()
        for cache in _CACHES:
            cache.cache_clear()


def _checked(sw: Sweep, r: int, c: int, profiles: int, size: int) -> None:
    """Log a row's last step; :class:`FrontierTooBig` when the step has more states than the
    budget."""
    if c == sw.cols - 1:
        log.debug("frontier: row %d, %d profiles, %d states", r, profiles, size)
    if size > sw.max_states:
        raise FrontierTooBig(f"{size} states at cell ({r}, {c}), over {sw.max_states}")


def _sweep_arrays(sw: Sweep, every: int) -> tuple[tuple[int, int] | None, int]:
    """:func:`_sweep` over arrays (:func:`.frontier_arrays.step`), keeping each layer's
    back-pointers for the witness."""
    layer = arrays.first(sw, every)
    trail: list[tuple[Any, Any]] = []
    peak = 1
    for r in range(sw.rows):
        for c in range(sw.cols):
            if sw.deadline is not None and time.perf_counter() >= sw.deadline:
                return None, peak
            stepped = arrays.step(layer, sw, r, c)
            if stepped is None:
                return None, peak
            layer = stepped
            if sw.width:
                trail.append((layer.back, layer.colour))
            size = len(layer)
            peak = max(peak, size)
            if sw.budget and size > sw.max_states:
                raise FrontierTooBig(f"over {sw.max_states} states at cell ({r}, {c})")
            _checked(sw, r, c, len(layer.keys), size)
    return arrays.accepted(layer, trail, sw), peak


def _accepted(states: States, sw: Sweep) -> tuple[int, int]:
    """The number of complete colourings of the final states that are solutions (every colour
    one component, every field full, no exclusion bit left) and a witness of one (-1: none)."""
    want = sum(sw.full)
    solutions = 0
    witness = -1
    for (front, _diag, _closed), tallies in states.items():
        labels: dict[int, set[int]] = {}
        for q in front:
            labels.setdefault(q >> 6, set()).add(q & 63)
        reached = tallies.get(want)
        if reached is not None and all(len(s) == 1 for s in labels.values()):
            solutions += reached >> sw.above
            if witness < 0:
                witness = reached & (1 << sw.above) - 1
    return solutions, witness


def count(grid: Sequence[Sequence[int | None]], cap: int | None = None,
          max_states: int = MAX_STATES, turn: int = 0) -> Count:
    """The number of solutions of the Nurikabe clue grid ``grid`` (rows of clue sizes or None),
    exactly, by the frontier programme of the module; with ``cap``, the number answered is
    capped there (enough to tell 0, 1 or more apart). :class:`FrontierTooBig` when a step
    has more than ``max_states`` states; :class:`ValueError` for a grid without clues or with
    a clue below 1. ``turn`` picks another orientation of the grid (:func:`orientations`,
    its best first): the same count through other states, a check of the programme.

    The states are grouped by their profile (frontier codes, diagonal colour, closed colours),
    each profile holding its tallies packed in one integer (the cells of each colour so far)
    with their numbers of partial colourings (in arrays per step, :mod:`.frontier_arrays`,
    when the tallies fit them), so the profile's work (joins, a component
    leaving, the bounds of :func:`~.frontier_bounds.bound`) is done once for all its tallies."""
    rows, cols, clue_at, sizes = _grid_of(grid, turn)
    walls = rows * cols - sum(sizes)
    if walls < 0:
        return Count(0, 0)
    if max(*sizes, walls) >= 1 << BITS:
        raise ValueError(f"an island or the wall of {max(*sizes, walls)} cells: too big")
    agree = [[-1] * (len(sizes) + 1) for _ in range(rows * cols)]
    sw = Sweep(rows, cols, clue_at, sizes, False, agree, None, max_states, False)
    answer, peak = _sweep(sw, 0)
    assert answer is not None  # no deadline
    solutions, _ = answer
    return Count(solutions if cap is None else min(solutions, cap), peak)


@dataclass(frozen=True)
class Solution:
    """The outcome of :func:`solve`: ``status`` "solved" (``colours`` holds a solution in the
    rows and columns of the grid given: the number of clues for a wall cell, else the cell's
    island, numbered by the clues' order in the orientation solved), "infeasible" (no solution
    other than the excluded ones) or "timeout" (the deadline passed before the last cell);
    the number of solutions not excluded, exact (0 unless solved); the largest number of
    states of one step."""

    status: str
    colours: list[list[int]] | None
    solutions: int
    states: int


def solve(grid: Sequence[Sequence[int | None]], max_states: int = MAX_STATES,
          deadline: float | None = None, exclude: Sequence[frozenset[Cell]] = (),
          turn: int = 0) -> Solution:
    """A solution of the clue grid ``grid`` with the exact number of solutions, by the frontier
    programme of :func:`count` with a witness per state: beside each tally's number of partial
    colourings it keeps one partial colouring that reaches it (any one: of two merging, the
    first), so an accepting state's witness is a solution. Over dicts a value packs the number
    above the witness, which holds the colour of processed cell ``i`` (in the turned grid's
    row-major order) at bits ``i * width``; over arrays (:mod:`.frontier_arrays`) each state
    points back to the state it came from first, and following the pointers gives the same
    witness. ``exclude`` lists solutions (each as its set of wall cells)
    that must not be answered nor counted: the tallies carry, above the cell counts, one bit
    per excluded solution still equal to the partial colouring (its colours cell by cell), and
    a complete colouring with a bit left is that solution. ``deadline`` is a
    :func:`time.perf_counter` value, checked before each cell and each profile of a step;
    :class:`FrontierTooBig` once a step has made more than ``max_states`` states (over dicts
    checked before each profile: the step is not finished, so the memory stays near the last
    step's states and the budget; over arrays once the step's candidates are merged), and
    :class:`ValueError` as :func:`count`."""
    rows, cols, clue_at, sizes, origin = _turned(grid, turn)
    k = len(sizes)
    walls = rows * cols - sum(sizes)
    if walls < 0:
        return Solution("infeasible", None, 0, 0)
    if max(*sizes, walls) >= 1 << BITS:
        raise ValueError(f"an island or the wall of {max(*sizes, walls)} cells: too big")
    top = FIELD * (k + 1)  # the excluded solutions' bits sit above the tallies
    index = {at: i for i, at in enumerate(origin)}
    every = ((1 << len(exclude)) - 1) << top
    # keep[i][x]: the excluded solutions whose colour at cell i is x (as tally bits); an
    # excluded solution's islands are not known from its wall alone: a bit is kept while the
    # wall agrees, and a complete colouring agreeing on the wall is that solution (the island
    # of each white cell being determined, as the module docstring says)
    keep = [[0] * (k + 1) for _ in range(rows * cols)]
    for j, walled in enumerate(exclude):
        for at, i in index.items():
            for y in range(k + 1):
                if (y == k) == (at in walled):
                    keep[i][y] |= 1 << top + j
    agree = [[-1 if bits == every else bits | (1 << top) - 1 for bits in row] for row in keep]
    sw = Sweep(rows, cols, clue_at, sizes, True, agree, deadline, max_states, True)
    answer, peak = _sweep(sw, every)
    if answer is None:
        return Solution("timeout", None, 0, peak)
    solutions, witness = answer
    if not solutions:
        return Solution("infeasible", None, 0, peak)
    colours = [[k] * len(grid[0]) for _ in grid]
    for i, (r0, c0) in enumerate(origin):
        colours[r0][c0] = witness >> sw.width * i & (1 << sw.width) - 1
    return Solution("solved", colours, solutions, peak)
