"""The matrices (instance x pair) a selector is learned and judged on, with the gaps the
report's performance matrix (:func:`bench.report.data.performance`) leaves filled as learning
and judging need: a task not run (the ladder rule, a pilot's cap) or declined counts unsolved
at PAR-2 (:data:`~bench.report.data.PAR_K` x the limit); an untimed answer is never filled
(:mod:`bench.select.untimed`); a task never tried stays missing.
"""

from __future__ import annotations

import pandas as pd

from bench.report.data import PAR_K, performance
from bench.select import untimed


def tier_matrix(t: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, int, pd.DataFrame]:
    """PAR-2 and answered matrices of a test tier, a task not run (the ladder rule, or the cap
    of a pair the suite's pilot found hopeless) or declined counted unsolved at PAR-2 for a
    pair that ran some instance of the tier; how many tasks were so counted; and the untimed
    cells (:func:`bench.select.untimed.cells`), left NaN."""
    par2, ok = performance(t)
    u = untimed.cells(t)
    if par2.empty:
        return par2, ok, 0, u
    limit = t.groupby("instance")["time_limit"].max().reindex(par2.index)
    some = par2.columns[par2.notna().any()]
    gone = untimed.on(u, par2)[some]
    gaps = par2[some].isna() & ~gone
    out = par2.copy()
    out[some] = par2[some].apply(lambda col: col.fillna(PAR_K * limit)).where(~gone)
    ok = ok.copy()
    ok[some] = ok[some].where(~gaps, 0.0)
    return out, ok, int(gaps.to_numpy().sum()), u


def training_matrix(t: pd.DataFrame) -> pd.DataFrame:
    """PAR-2 matrix (instance x pair) of training rows: a pair's time where it answered, and
    :data:`~bench.report.data.PAR_K` x the limit where it has a row but no answer: a failure,
    a task the ladder rule did not run, or an instance its formulation declined (ASlib's
    ``not_applicable``: unsolved by this pair, so it can only win a leaf of instances it
    takes). NaN where the pair has no row for the instance (it was never tried there) or is
    untimed there (:func:`bench.select.untimed.cells`: no time, no timeout)."""
    par2, _ = performance(t)
    if not len(t):
        return par2
    tried = t.groupby(["instance", "pair"]).size().unstack()
    tried.columns.name = tried.index.name = None
    limit = PAR_K * t.groupby("instance")["time_limit"].max().reindex(tried.index)
    m = par2.reindex(index=tried.index, columns=tried.columns)
    fill = pd.DataFrame({c: limit for c in tried.columns}, index=tried.index)
    return m.where(m.notna() | tried.isna() | untimed.on(untimed.cells(t), m), fill)
