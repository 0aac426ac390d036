"""The family of ``puzzlebench compare``'s per-pair tests (:mod:`bench.report.compare`): which
pairs enter it, which of their differences flip together, and each pair's adjusted p.

The test: the step-down max-T permutation method of Westfall & Young (1993,
*Resampling-Based Multiple Testing*, Wiley, algorithm 4.1) over every pair it can reject (all
puzzles and tiers: one family; :func:`~bench.report.signflip.testable`: on at least
:data:`TESTED` instances, fewer give no p below the level), with the studentised |T_j| =
|mean d| / (sd d / sqrt(n)) per pair and sign-flip permutations: under the null that a change
of run changes nothing, A and B are exchangeable on every instance, so the signs of an
instance's differences are flipped together for every pair that ran it (keeping the pairs'
dependence) (:func:`bench.report.signflip.sign_flip_maxt`). A timeout at the shared limit is
exchangeable like any time: no special treatment. A unit of the flips is an instance at one
solution count (a merged run may hold one instance at two counts: two units, never one)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from bench.report.signflip import sign_flip_maxt, testable

#: the fewest instances a pair needs to enter the test: fewer give no p below the level
TESTED = int(next(k for k in range(1, 64) if testable(k)))


def flip_unit(puzzle: str, unit: str) -> str:
    """The unit whose sign flips apply to every pair on it: the puzzle, the instance content
    and the solution count of a folded unit (:func:`bench.report.compare._unit`)."""
    return f"{puzzle}|" + "|".join(x for i, x in enumerate(str(unit).split("|"))
                                   if i == 0 or x.startswith("count="))


def adjusted_p(groups: list[tuple[Any, pd.DataFrame]]) -> np.ndarray:
    """Per pair (``groups``: its key and its rows measured in both runs, with ``puzzle``,
    ``unit`` and the difference ``d``) the family-wise adjusted p; NaN for a pair outside the
    family (:func:`~bench.report.signflip.testable`: too few instances for any p below the
    level)."""
    units = [flip_unit(z, u) for _, g in groups for z, u in zip(g["puzzle"], g["unit"],
                                                                 strict=True)]
    flips = {u: i for i, u in enumerate(sorted(set(units)))}
    d = np.full((len(flips), len(groups)), np.nan)
    for j, (_, g) in enumerate(groups):
        rows = [flips[flip_unit(z, u)] for z, u in zip(g["puzzle"], g["unit"], strict=True)]
        d[rows, j] = g["d"].to_numpy(float)
    p, keep = np.full(len(groups), np.nan), testable((~np.isnan(d)).sum(0))
    if keep.any():  # the rest: no p
        p[keep] = sign_flip_maxt(d[:, keep]).p
    return p
