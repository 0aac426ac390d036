"""The islands' part of :class:`formulations.nurikabe._propagator.NurikabePropagator`: island
k's reachability from its clue and its closing (the reasoning and why each reason holds: the
module docstring there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from formulations.nurikabe._bits import Bits, cells
from formulations.nurikabe._wall import Why


@dataclass(frozen=True)
class IslandVars:
    """Island k as the propagator sees it: its clue cell, size and ownership variables (cell
    index -> variable; cells missing cannot be k's)."""

    root: int
    size: int
    own: dict[int, int]


class IslandReasoning:
    """The islands' part of the propagator (a mixin: the state is the propagator's, kept
    incrementally there; the names below are what this part reads and writes)."""

    islands: list[IslandVars]
    ownbits: list[int]
    refused: list[int]
    ball: list[tuple[int, int]]
    room: list[int]
    val: list[int]
    nbrs: list[list[int]]
    color: Any  # numpy int8 array: 1 black, -1 white, 0 open
    black: list[int]
    bits: Bits
    _conflict: Callable[[list[int]], None]  # keeps the first conflict's clause

    def _reach(self, k: int, found: dict[int, Why]) -> None:
        """Refuse island k the cells its search from the clue does not reach (the search
        grows a layer at a time over bit sets: :class:`formulations.nurikabe._bits.Bits`)."""
        isl = self.islands[k]
        own, val, refused = isl.own, self.val, self.refused[k]
        reach, inner = self.bits.ball(isl.root, self.ownbits[k] & ~refused, isl.size - 1)
        self.ball[k] = (reach, inner)
        self.room[k] = room = reach.bit_count()
        if room < isl.size:
            self._conflict([own[u] for u in cells(self.bits.grow(inner) & refused)])
            return
        tail: tuple[int, ...] | None = None  # made once, when a cell out of reach is open
        for v in cells(self.ownbits[k] & ~reach & ~refused):
            x = own[v]
            if val[x] >= 0:
                if tail is None:
                    tail = tuple(own[u] for u in cells(self.bits.grow(inner) & refused))
                if val[x] == 0:
                    found.setdefault(-x, tail)
                else:
                    self._conflict([-x, *tail])

    def _close(self, k: int, found: dict[int, Why]) -> None:
        """Close island k when the cells joined to its clue through its cells are its size."""
        isl = self.islands[k]
        own, val, nbrs, color = isl.own, self.val, self.nbrs, self.color
        joined = {isl.root}
        stack = [isl.root]
        while stack:
            w = stack.pop()
            for u in nbrs[w]:
                if u not in joined:
                    x = own.get(u)
                    if x is not None and val[x] > 0:
                        joined.add(u)
                        stack.append(u)
        if len(joined) != isl.size:
            return
        reason = tuple(-own[c] for c in sorted(joined) if c != isl.root)
        for c in joined:
            for n in nbrs[c]:
                if n not in joined and color[n] != 1:
                    if color[n] < 0:
                        self._conflict([self.black[n], *reason])
                    else:
                        found.setdefault(self.black[n], reason)
