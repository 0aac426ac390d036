"""The log times the verdicts test (:mod:`bench.report.verdicts`): per instance and pair
log(min(t, L) + shift), censored at the instance's shared limit L (:func:`censored_log`), and
the check that a pooled group's equivalence holds on every tier (:func:`tier_apart`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import bench.report.paired as paired
from bench.report.data import SGM_SHIFT_S


def censored_log(pi: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(y, ok): instances x pairs of log(min(t, L) + shift), L the instance's smallest limit
    over its pairs, and of answered below L (an answer above L, by a pair with a larger limit,
    is censored at L like no answer); NaN / False where the pair did not run the instance."""
    idx = pi.set_index(["instance", "pair"])
    wide = idx["par2_s"].unstack("pair")
    w, cap = wide.to_numpy(float), pi.groupby("instance")["time_limit"].min().reindex(
        wide.index).to_numpy(float)[:, None]  # a row without a recorded limit: as it is
    ok = (idx["ok"].astype(float).unstack("pair").reindex_like(wide).fillna(0.0) > 0) & ~(w > cap)
    y = np.where(np.isnan(w), np.nan, np.log(np.fmin(w, cap) + SGM_SHIFT_S))
    return pd.DataFrame(y, index=wide.index, columns=wide.columns), ok


def tier_apart(pi: pd.DataFrame, best: str, pair: str) -> str:
    """The first tier (in the order of ``pi``) on which ``pair``'s factor over ``best`` is
    shown outside the equivalence margin (its 95 % interval, over at least MIN_INTERVAL
    instances both ran, wholly outside 1/MARGIN .. MARGIN), "" when none is: a group that
    pools tiers (the ranking, a pooled matrix row) calls two pairs equivalent only when no
    tier shows them apart, since opposite effects on two tiers can average to an interval
    inside the margin."""
    if "tier" not in pi or pi["tier"].nunique() < 2:
        return ""
    for tier, g in pi.groupby("tier", sort=False):
        y, _ = censored_log(g)
        if best not in y or pair not in y:
            continue
        d = (y[pair] - y[best]).dropna().to_numpy(float)
        if len(d) < paired.MIN_INTERVAL:
            continue
        _, lo, hi = paired.log_interval(d)
        if lo > paired.MARGIN or hi < 1 / paired.MARGIN:
            return str(tier)
    return ""
