"""The steps of the frontier programme of :mod:`bench.puzzles.nurikabe.frontier` over arrays:
the same states, moves, bounds and merges as ``frontier._step``, with the tallies of a step
in numpy arrays instead of a dict per profile.

A :class:`Layer` lists the profiles in order and, for each, a run of its tallies (int64), their
numbers of partial colourings (int64, or Python integers once a sum could pass ``2**62``) and,
for the witness, the state of the previous layer each came from first (int32) and the colour
its cell took (a back-pointer: following them from an accepting state gives the colour of
every cell).
A step computes each profile's moves in Python (one per colour, cached as in the dict step),
then filters every tally of every move at once by the same tests (the bound's guard bits, the
colour that must be complete, the excluded solutions' mask, the room addend, the separation
set as a lookup table), and merges equal (profile, tally) pairs by a stable sort: the numbers
added, the first candidate's back-pointer kept, and the profiles and their tallies ordered by
their first candidate, which is the order the dict step inserts them in. So every layer holds
the dict step's states in the dict step's order, each with the same number and witness."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.puzzles.nurikabe.frontier_bounds import FIELD, GUARD, Profile, Sweep, separated
from bench.puzzles.nurikabe.frontier_enclosed import roomy, shifted
from bench.puzzles.nurikabe.frontier_moves import allowed, enter

#: the most bits of a tally (fields and excluded solutions' bits) the arrays take: a key packs
#: a profile's number above them in 63 bits
TALLY_BITS = 40
#: a field's value bits, and the lookup index of a separation value: the wall's field, then the
#: first island's at ``SHIFT`` bits
VALUE = GUARD - 1
SHIFT = 8
#: the most new profiles of a step whose numbers fit above a tally in an int64 key
PACKED = 1 << 63 - TALLY_BITS
#: the largest sum of numbers of colourings taken in int64: past it, Python integers
EXACT = 1 << 62


@dataclass
class Layer:
    """The states after a cell: profile ``keys[i]`` has the tallies ``tally[starts[i]:starts[i
    + 1]]``, with ``count`` partial colourings each; ``back`` and ``colour``: the state of the
    previous layer the first of them came from and the colour of the cell (the first layer:
    -1)."""

    keys: list[Profile]
    starts: Any
    tally: Any
    count: Any
    back: Any
    colour: Any

    def __len__(self) -> int:
        return len(self.tally)


def fits(sw: Sweep, every: int) -> bool:
    """Whether a run's tallies fit the arrays: at most three clues (four fields) and the
    fields with the excluded solutions' bits ``every`` within :data:`TALLY_BITS`."""
    return sw.k <= 3 and max(FIELD * (sw.k + 1), every.bit_length()) <= TALLY_BITS


def first(sw: Sweep, every: int) -> Layer:
    """The one state before the first cell: an empty frontier, tally ``every``, one
    colouring."""
    return Layer([(tuple([-1] * sw.cols), -1, 0)], np.array([0, 1], np.int64),
                 np.array([every], np.int64), np.array([1], np.int64),
                 np.array([-1], np.int32), np.array([-1], np.int8))


class _Cell:
    """What a step at cell ``(r, c)`` shares across its profiles (the dict step's): the
    colours the cell may take, the caches by phase emptied when it changes, the moves' cache
    of the column, the separation mask and set, per colour the tally's step, the excluded
    solutions' mask, the complete field's mask and the separation set before the step; and
    the step's moves as rows (:meth:`row`), the new profiles by number and the separation
    sets by table number (0: every value)."""

    def __init__(self, sw: Sweep, r: int, c: int) -> None:
        self.sw, self.r, self.c = sw, r, c
        fixed = sw.clue_at.get((r, c))
        self.options = range(sw.k + 1) if fixed is None else (fixed,)
        cell = r * sw.cols + c
        self.moves = enter(sw, r, c)
        self.low, self.ok = separated(sw, r, c)
        self.steps = [1 << p for p in sw.pos]
        self.agrees = sw.agree[cell]
        self.fms = [(GUARD - 1) << p for p in sw.pos]
        self.oks = [shifted(self.ok, self.low, s) for s in self.steps]
        self.rooms: dict[tuple[int, int], tuple[int, int, frozenset[int]]] = {}
        self.listed: dict[int, frozenset[int]] = {}
        self.tables: list[Any] = [None]
        self.seen: dict[int, int] = {}
        self.ids: dict[Profile, int] = {}

    def columns(self, moves: list[Any], xs: list[int]) -> tuple[Any, ...]:
        """The moves' columns (one entry per move, :func:`.frontier_moves._move`'s answers
        taking the colours ``xs``): the new profile's number, its bound, the tally's step, the
        excluded solutions' mask, the complete field's mask and value, the room addend, the
        separation table's number and mask, the colour (as the dict step finds them)."""
        sw = self.sw
        ids = self.ids
        tid = np.array([ids.setdefault((m[0], m[4], m[1]), len(ids)) for m in moves], np.int64)
        bnd = np.array([m[3] for m in moves], np.int64)
        col = np.array(xs, np.int64)
        must = np.array([m[2] for m in moves], np.int64)
        fm = np.where(must < 0, 0, np.array(self.fms, np.int64)[must])
        fw = np.where(must < 0, 0, np.array(sw.full, np.int64)[must])
        oks = [self.table(self.low, ok_x) for ok_x in self.oks]
        tab = np.array(oks, np.int64)[col]
        low = np.full(len(moves), self.low, np.int64)
        lift = np.zeros(len(moves), np.int64)
        for j, m in enumerate(moves):
            shut = m[5]
            if shut:  # enclosed islands: the cells they must have (frontier_enclosed)
                x = xs[j]
                room = self.rooms.get((shut, x))
                if room is None:
                    room = self.rooms[(shut, x)] = roomy(sw, shut, self.r, self.c, self.low,
                                                         self.ok, self.steps[x], self.listed)
                lift[j], low[j] = room[0], room[1]
                tab[j] = self.table(room[1], room[2])
        return (tid, bnd, np.array(self.steps, np.int64)[col],
                np.array(self.agrees, np.int64)[col], fm, fw, lift, tab, low, col)

    def table(self, low: int, ok: frozenset[int]) -> int:
        """The number of the separation set ``ok`` of mask ``low`` (0: every value)."""
        if not low:
            return 0
        table = self.seen.get(id(ok), 0)
        if not table:  # the sets live through the step: an identity names one
            table = self.seen[id(ok)] = len(self.tables)
            self.tables.append(ok)
        return table


def _moves(layer: Layer, sw: Sweep, r: int, c: int
           ) -> tuple[list[int], list[Any], list[int], _Cell] | None:
    """Each profile's moves at cell ``(r, c)`` in the dict step's order (profiles, then
    colours): the profile's number, the move (:func:`.frontier_moves._move`'s answer) and the
    colour of each, and the step's :class:`_Cell`. None past the deadline."""
    step = _Cell(sw, r, c)
    options, moves = step.options, step.moves
    src: list[int] = []
    mvs: list[Any] = []
    xs: list[int] = []
    deadline = sw.deadline
    for i, (front, diag, closed) in enumerate(layer.keys):
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        for x, move in allowed(sw, moves, options, front, diag, closed, r, c):
            src.append(i)
            mvs.append(move)
            xs.append(x)
    return src, mvs, xs, step


def _table(sets: list[Any]) -> Any:
    """The separation sets as rows of booleans by :func:`_index` (row 0: every value)."""
    out = np.zeros((len(sets), 1 << 2 * SHIFT), np.bool_)
    out[0] = True
    for j, values in enumerate(sets[1:], 1):
        v = np.fromiter(values, np.int64, len(values))
        out[j, _index(v)] = True
    return out


def _index(v: Any) -> Any:
    """The lookup index of tallies' separation values ``v`` (the wall's field and the first
    island's, masked)."""
    return (v & VALUE) | ((v >> FIELD) & VALUE) << SHIFT


def _candidates(layer: Layer, sw: Sweep, src: list[int], columns: tuple[Any, ...],
                tables: list[Any]) -> tuple[Any, Any, Any, Any]:
    """Every tally of every move that passes its tests (the dict step's, in its order): the
    new tally, the new profile's number, the tally's index in ``layer`` and the colour."""
    first = np.array(src, np.int64)
    lo = layer.starts[first]
    n = layer.starts[first + 1] - lo
    rep = np.repeat(np.arange(len(src)), n)  # each candidate's move
    idx = np.arange(int(n.sum()), dtype=np.int64) + np.repeat(lo - (np.cumsum(n) - n), n)
    tid, bnd, stp, agr, fmc, fwc, lft, tab, lows, col = columns
    t = layer.tally[idx]
    tp = (t + stp[rep]) & agr[rep]
    guards = sw.guards
    keep = (bnd[rep] - tp) & guards == guards
    if fmc.any():
        keep &= tp & fmc[rep] == fwc[rep]
    if lft.any():
        lf = lft[rep]
        keep &= ((tp + lf) & guards == guards) | (lf == 0)
    if len(tables) > 1:
        keep &= _table(tables)[tab[rep], _index(t & lows[rep])]
    sel = np.flatnonzero(keep)
    rep = rep[sel]
    return tp[sel], tid[rep], idx[sel], col[rep]


def step(layer: Layer, sw: Sweep, r: int, c: int) -> Layer | None:
    """The layer after cell ``(r, c)``: the dict step's states (``frontier._step``) in its
    order, each with its number and first witness. None past the deadline."""
    made = _moves(layer, sw, r, c)
    if made is None:
        return None
    src, mvs, xs, cell = made
    if not src:
        return _empty()
    tp, tid, idx, col = _candidates(layer, sw, src, cell.columns(mvs, xs), cell.tables)
    if not len(tp):
        return _empty()
    keys = list(cell.ids)
    if len(keys) < PACKED:  # one int64 key per (profile, tally)
        order = np.argsort(tid << TALLY_BITS | tp, kind="stable")
    else:
        order = np.lexsort((tp, tid))  # stable too
    tids, tps = tid[order], tp[order]
    head = np.flatnonzero(np.concatenate(([True], (tids[1:] != tids[:-1])
                                          | (tps[1:] != tps[:-1]))))
    firsts = order[head]  # each (profile, tally)'s first candidate (the sort is stable)
    count = layer.count[idx]
    if count.dtype != object and int(count.max()) * len(count) >= EXACT:
        count = count.astype(object)  # a sum could pass int64: Python integers
    sums = np.add.reduceat(count[order], head)
    group = tid[firsts]  # sorted: each profile's tallies side by side
    starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    before = np.repeat(np.minimum.reduceat(firsts, starts), np.diff(np.append(starts, len(group))))
    new = np.argsort(before * len(tp) + firsts)  # by the profile's first, then the tally's
    at = firsts[new]
    profile = group[new]
    edge = np.flatnonzero(np.concatenate(([True], profile[1:] != profile[:-1])))
    return Layer([keys[j] for j in profile[edge].tolist()],
                 np.append(edge, len(at)).astype(np.int64), tp[at], sums[new],
                 idx[at].astype(np.int32),
                 col[at].astype(np.int8))


def _empty() -> Layer:
    """A layer without states."""
    none = np.zeros(0, np.int64)
    return Layer([], np.zeros(1, np.int64), none, none, np.zeros(0, np.int32),
                 np.zeros(0, np.int8))


def accepted(layer: Layer, trail: list[tuple[Any, Any]], sw: Sweep) -> tuple[int, int]:
    """The number of complete colourings of the last layer that are solutions (every colour
    one component, every field full, no exclusion bit left) and a witness of one packed as
    the dict programme packs it (cell ``i``'s colour at bits ``i * width``; -1: none), from
    the back-pointers and colours of ``trail`` (of every layer after the first, in order)."""
    want = sum(sw.full)
    solutions = 0
    witness = -1
    for p, (front, _diag, _closed) in enumerate(layer.keys):
        labels: dict[int, set[int]] = {}
        for q in front:
            labels.setdefault(q >> 6, set()).add(q & 63)
        lo, hi = int(layer.starts[p]), int(layer.starts[p + 1])
        hit = np.flatnonzero(layer.tally[lo:hi] == want)
        if hit.size and all(len(s) == 1 for s in labels.values()):
            at = lo + int(hit[0])
            solutions += int(layer.count[at])
            if witness < 0 and sw.width:
                witness = 0
                for i in range(len(trail) - 1, -1, -1):
                    back, colour = trail[i]
                    witness |= int(colour[at]) << sw.width * i
                    at = int(back[at])
    return solutions, witness
