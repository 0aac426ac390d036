"""A pair's shifted geometric mean over a group's instances, as the verdicts show it: an
estimate with its 95 % t-interval where the pair answered every instance, a lower bound
where it has censored ones.

- :func:`sgm_interval`: the SGM of times ``x`` (shift :data:`~bench.report.data.SGM_SHIFT_S`)
  and its two-sided 95 % t-interval on log(x + shift), back-transformed
  (:func:`bench.report.paired.log_interval`) and less the shift, its lower end clamped at 0:
  a time is never negative, while the back-transformed end less the shift can be.
- :func:`at_limit`: a pair's figures over its instances: with no unanswered instance its SGM
  and interval; with some (a timeout or memout, censored: the true time is at least the
  limit, or unknown) the SGM with each of those at the instance's limit. That is a lower bound
  on the SGM of the true times (the SGM rises with every value) and not an estimate, so no
  interval is given: a t-interval over times cut at the limit, or over PAR-2 scores (the
  limit doubled), describes neither the times nor a bound on them, and its upper end can pass
  the limit.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

import bench.report.paired as paired
from bench.report.data import SGM_SHIFT_S


def sgm_interval(x: np.ndarray) -> tuple[float, float, float]:
    """SGM of ``x`` and its 95 % t-interval on log(x + shift), back-transformed and less the
    shift, the lower end clamped at 0 (the interval of exp(mean log(x + shift)) - shift can
    reach below 0, a time cannot: [0.001 s]*5 + [5 s] reads 20.5 ms [0–411]); NaN bounds below
    2 values."""
    x = np.asarray(x, dtype=float)
    if not len(x):
        return math.nan, math.nan, math.nan
    est, lo, hi = paired.log_interval(np.log(x + SGM_SHIFT_S))
    lo = max(lo - SGM_SHIFT_S, 0.0) if lo == lo else math.nan
    return est - SGM_SHIFT_S, lo, hi - SGM_SHIFT_S


def unanswered(ok: np.ndarray, x: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """Per instance (folded: ``ok`` answered by a strict majority, ``x`` its median time,
    ``cap`` its limit, NaN: none recorded): censored at the limit, not answered or answered
    above the limit. The one rule of :func:`at_limit` and of the growth table
    (:func:`bench.report.growth.points`)."""
    return ~np.asarray(ok, bool) | (np.asarray(x, float) > np.asarray(cap, float))


def ratio_interval(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """exp of the mean of log(a + shift) - log(b + shift), paired, with its 95 % t-interval
    (NaN bounds below 2 pairs): the ratio of the geometric means of ``a + shift``, ``b + shift``."""
    d = np.log(np.asarray(a, float) + SGM_SHIFT_S) - np.log(np.asarray(b, float) + SGM_SHIFT_S)
    return paired.log_interval(d)


def at_limit(p: pd.DataFrame) -> dict[str, float | int]:
    """One pair's per-instance rows ``p`` (``par2_s``, ``ok``, ``time_limit``): ``censored_n``
    the instances it left unanswered (not answered, or answered above the limit), ``sgm_limit``
    its SGM with those at the limit (:func:`at_limit` in the module: the SGM of its times
    where ``censored_n`` is 0, else a lower bound), and ``sgm_limit_lo`` / ``sgm_limit_hi``
    the 95 % t-interval of an estimate: NaN where the SGM is a bound or below
    :data:`~bench.report.paired.MIN_INTERVAL` instances."""
    x = p["par2_s"].to_numpy(float)
    cap = (p["time_limit"].to_numpy(float) if "time_limit" in p
           else np.full(len(x), math.nan))
    censored = unanswered(p["ok"].to_numpy(bool), x, cap)
    est, lo, hi = sgm_interval(np.fmin(x, cap))  # fmin: a row without a limit as it is
    if censored.any() or len(x) < paired.MIN_INTERVAL:
        lo = hi = math.nan
    return {"censored_n": int(censored.sum()), "sgm_limit": est, "sgm_limit_lo": lo,
            "sgm_limit_hi": hi}
