"""The incremental articulation step of
:class:`formulations.nurikabe._propagator.NurikabePropagator` (``step=True``;
sat-propagate's ``cut=incremental``).

The articulation search (``WallReasoning._cut``, :mod:`formulations.nurikabe._wall`) keeps
every cut subtree of an open cell, with or without a black cell in it (a
:class:`formulations.nurikabe._wall.Shadow`). A cell ``c`` of the wall's component that turns
black later makes black every open cell ``p`` whose kept subtree S holds c, reason ``(p, -a,
-c, the white cells next to S)``, ``a`` the search's anchor: when the search ran, S's only
neighbours were S, p and white cells, and those cells stay white and ``a`` black while the
levels up to that search stand, so with p white c cannot reach a. This is the search's own
rule applied to a black cell it did not see, so a black cell no longer makes the last search
stale: whole searches run only when a white cell may have made a new cut cell, after a
relabelling, or when a backtrack owes one. The kept search is part of the level's derived
state: dropped at every relabelling, restored with the level on backtrack.

Sources: articulation points from depth-first low points -- J. Hopcroft, R. Tarjan,
"Algorithm 447: efficient algorithms for graph manipulation", CACM 16(6), 1973; the reason is
a cut of a monotone connectivity predicate, as in S. Bayless, N. Bayless, H. H. Hoos,
A. J. Hu, "SAT Modulo Monotonic Theories", AAAI 2015.
"""

from __future__ import annotations

import numpy as np

from formulations.nurikabe._wall import CutWhy, Shadow, Why


class CutStep:
    """The step's part of the propagator (a mixin over the propagator's state)."""

    black: list[int]
    col: list[int]
    shadow: Shadow | None
    cut_new: list[int]
    steps: int

    def _step(self, found: dict[int, Why]) -> None:
        """Infer, for every cell of ``cut_new`` (turned black since the kept search) that is
        still black, the open cells whose kept cut subtree holds it."""
        new, self.cut_new = self.cut_new, []
        sh = self.shadow
        if sh is None:
            return  # relabelled since: a whole search is due
        if sh.disc is None:
            sh.disc = np.full(len(self.col), -1, dtype=np.int64)
            sh.disc[sh.order] = np.arange(len(sh.order))
        disc, col, black = sh.disc, self.col, self.black
        head = -black[sh.anchor]
        for c in new:
            i = int(disc[c])
            if col[c] != 1 or i < 0:
                continue
            self.steps += 1
            for p, start, stop, _ in sh.subs:
                if start > i:
                    break
                if i < stop and col[p] == 0:
                    x = black[p]
                    if x not in found:
                        found[x] = CutWhy(sh.order, start, stop, p, (head, -black[c]))
