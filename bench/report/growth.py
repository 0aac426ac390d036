"""Growth with size: per pair and instance family the log-log least-squares slope of time
against cells, with unanswered instances censored at the limit and the direction in which
censoring can move the slope (:func:`censored_slope`).

Method. Each instance is one point, its repetitions folded as every verdict table folds them
(:func:`bench.report.data.per_instance`: the median PAR-2 time, answered where a strict
majority of the repetitions answered correctly). An answered instance is a measured point at
that median; an unanswered one whose failing repetitions all timed out (1 solved and 2
timeouts of 3, say) is censored at its limit: the median of such a fold is above the limit,
so the true time is at least the limit, as :func:`bench.report.sgm_bound.at_limit` reads it
(one rule: :func:`bench.report.sgm_bound.unanswered`; an answered median above the limit is
censored there too).
An unanswered instance with a memout, a wrong answer or only errors among its repetitions has
no time, censored or not: it is left out of the fit, and its memout, wrong and error
repetitions are counted in their own columns (tasks, as the ranking counts them).

The slope's 95 % range is the t-interval of the least-squares slope, slope ± t(0.975, N - 2)
· s / sqrt(sum (x - mean x)^2) over the N points of the fit (s^2: the residual sum of squares
over N - 2). Where points are censored the fitted slope is not an estimate but, by
:func:`censored_slope`, a lower bound, an upper bound or no bound, and no range is printed
("censored: no interval" beside a bound, "–" beside no bound), as the verdicts print a
censored factor (:mod:`bench.report.wording`): the slope is linear in each censored point's
log time, so it moves one way as that time grows, but the residual spread grows too, and
the range's ends move either way (a lower bound's lower end falls without bound as a
censored time grows), so neither end bounds the slope."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from bench.report.sgm_bound import unanswered
from bench.report.units import interval, number
from bench.report.wording import NO_INTERVAL

#: the fitted slope's two-sided range
LEVEL = 0.95
#: what the growth table computes, beside its heading
NOTE = ("log-log least-squares slope of time against cells per pair and family, one point per "
        "instance: its repeats folded to the median time, answered where a strict majority "
        "answered; an unanswered instance whose failures all timed out is a point censored at "
        "the limit, one with a memout, wrong answer or only errors is out of the fit; 95 % range: "
        "t-interval with N - 2 degrees of freedom over the N points; where points are "
        f"censored, the slope a bound (the note) or none, and no range ('{NO_INTERVAL}': "
        "neither end over times at the limit bounds the slope)")
#: the notes of a censored slope (:func:`censored_slope`), before their parenthesis
LOWER, UPPER, NO_BOUND = "lower bound", "upper bound", "censored: no bound"


def points(g: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`bench.report.data.per_instance` ``g`` that enter a fit, with ``y``
    (the median time of a measured point, the limit of a censored one) and ``censored``: an
    answered instance (at the limit where its median is above it), and an unanswered one whose
    failing repetitions all timed out (no memout, no wrong answer; errors beside other
    repetitions are already out of the fold). Points without a positive time are left out."""
    ok = g["ok"].astype(bool)
    wrong = g["wrong"] if "wrong" in g else pd.Series(0, index=g.index)
    cap = g["time_limit"].astype(float)
    timed_out = ~ok & (g["timeouts"] > 0) & (g["memouts"] == 0) & (wrong == 0)
    censored = unanswered(ok.to_numpy(), g["time_s"].to_numpy(float), cap.to_numpy())
    g = g.assign(y=g["time_s"].astype(float).where(~censored, cap), censored=censored)
    return g[(ok | timed_out) & (g["y"] > 0)]


def slopes(pi: pd.DataFrame, pairs: list[str]) -> pd.DataFrame:
    """Per pair and instance family: the log-log slope of time against cells with its 95 %
    range over the :func:`points` of the pair (see the module), ``instances`` the points,
    ``sizes`` the distinct sizes measured, ``censored`` the points at the limit (the note says
    which way the true slope lies: :func:`censored_slope`), and the ``memout``, ``error`` and
    ``wrong`` repetitions. A slope needs at least 3 distinct sizes measured, else "n/a"."""
    rows = []
    for (pair, fam), g in pi[pi["pair"].isin(pairs)].groupby(["pair", "family"]):
        if g["cells"].nunique() < 2:
            continue
        wrong = int(g["wrong"].sum()) if "wrong" in g else 0
        p = points(g)
        sizes = int(p.loc[~p["censored"], "cells"].nunique())
        row = {"pair": pair, "family": fam, "instances": len(p), "sizes": sizes,
               "slope": "n/a", "range": "–", "censored": int(p["censored"].sum()),
               "memout": int(g["memouts"].sum()), "error": int(g["errors"].sum()),
               "wrong": wrong, "note": "fewer than 3 sizes answered" if sizes < 3 else ""}
        if sizes >= 3:
            x, y = np.log(p["cells"].to_numpy(float)), np.log(p["y"].to_numpy(float))
            slope, lo, hi = fit(x, y)
            note = censored_slope(x, p["censored"].to_numpy(bool))
            row.update(slope=number(slope), range=slope_range(lo, hi, note), note=note)
        rows.append(row)
    return pd.DataFrame(rows)


def fit(x: np.ndarray, y: np.ndarray, level: float = LEVEL) -> tuple[float, float, float]:
    """The least-squares slope of ``y`` on ``x`` and its two-sided t-interval at ``level``
    (N - 2 degrees of freedom over the N points; at least 3 points, 2 distinct ``x``)."""
    n = len(x)
    slope, icpt = np.polyfit(x, y, 1)
    resid = y - (slope * x + icpt)
    sxx = float(((x - x.mean()) ** 2).sum())
    se = math.sqrt(max(float(resid @ resid), 0.0) / (n - 2) / sxx)
    half = float(stats.t.ppf(0.5 + level / 2, n - 2)) * se
    return float(slope), float(slope) - half, float(slope) + half


def slope_range(lo: float, hi: float, note: str) -> str:
    """The printed range of a slope with censoring ``note``: both ends where none is censored;
    where some are, no range (the module: neither end is a bound): :data:`NO_INTERVAL` beside
    a slope that is a lower or upper bound, "–" beside one with no bound."""
    if not note:
        return interval(lo, hi)
    return NO_INTERVAL if note.startswith((LOWER, UPPER)) else "–"


def censored_slope(x: np.ndarray, censored: np.ndarray) -> str:
    """What a least-squares slope over log sizes ``x`` is when the ``censored`` points are
    times at the limit (true times at least that): the slope's derivative in a point's log
    time is (x_i - mean x) / sum (x - mean x)^2, so raising a point at or above the mean log
    size can only raise the slope and one below it only lower it. Every censored point at or
    above the mean: a lower bound; every one at or below: an upper bound; some on each side:
    no bound; none censored: ""."""
    if not censored.any():
        return ""
    side = x[censored] - x.mean()
    tol = 1e-9 * max(1.0, float(np.abs(x).max()))
    if (side >= -tol).all():
        return f"{LOWER} (timeouts at the limit, all at or above the mean log size)"
    if (side <= tol).all():
        return f"{UPPER} (timeouts at the limit, all at or below the mean log size)"
    return f"{NO_BOUND} (timeouts at the limit on both sides of the mean log size)"
