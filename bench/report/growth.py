"""Growth with size: per pair and instance family the log-log least-squares slope of time
against cells, with timeouts censored at the limit and the direction in which censoring can
move the slope (:func:`censored_slope`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from bench.report.units import interval, number


def slopes(pi: pd.DataFrame, pairs: list[str]) -> pd.DataFrame:
    """Per pair and instance family: the log-log slope of time against cells with the 95 %
    range of the fit, over the instances the pair answered and those it timed out on (at the
    limit: censored; :func:`censored_slope` says which way the true slope lies). An instance
    whose repetitions ended in memout, error or a wrong answer has no time, censored or not:
    it is left out of the fit and counted in its own column. A slope needs at least 3
    distinct sizes with an answered instance each, else "n/a"."""
    rows = []
    for (pair, fam), g in pi[pi["pair"].isin(pairs)].groupby(["pair", "family"]):
        if g["cells"].nunique() < 2:
            continue
        failed = ~g["ok"] & (g["timeouts"] < g["n"])  # some repetition neither ok nor timeout
        memouts = int((failed & (g["memouts"] > 0)).sum())
        errors = int((failed & (g["memouts"] == 0) & (g["errors"] > 0)).sum())
        wrong = int((failed & (g["memouts"] == 0) & (g["errors"] == 0)).sum())
        g = g[~failed]
        g = g.assign(y=g["time_s"].fillna(g["time_limit"]))
        g = g[g["y"] > 0]
        sizes = int(g.loc[g["ok"], "cells"].nunique())
        censored = int((~g["ok"]).sum())
        row = {"pair": pair, "family": fam, "instances": len(g), "sizes": sizes,
               "slope": "n/a", "range": "–", "censored": censored, "memout": memouts,
               "error": errors, "wrong": wrong,
               "note": "fewer than 3 sizes answered" if sizes < 3 else ""}
        if sizes >= 3:
            x, y = np.log(g["cells"].to_numpy(float)), np.log(g["y"].to_numpy(float))
            coef, cov = np.polyfit(x, y, 1, cov=True)
            half = 1.96 * math.sqrt(max(cov[0][0], 0.0))
            row.update(slope=number(coef[0]), range=interval(coef[0] - half, coef[0] + half),
                       note=censored_slope(x, ~g["ok"].to_numpy(bool)))
        rows.append(row)
    return pd.DataFrame(rows)


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
        return "lower bound (timeouts at the limit, all at or above the mean log size)"
    if (side <= tol).all():
        return "upper bound (timeouts at the limit, all at or below the mean log size)"
    return "censored: no bound (timeouts at the limit on both sides of the mean log size)"
