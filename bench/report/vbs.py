"""The virtual best solver (VBS) of a run, per puzzle and tier, as algorithm-selection work
reports it (ASlib, SATzilla, the SAT competitions).

Method, over one puzzle's rows of one tier (PAR-2 on build + solve, :mod:`.data`; repeats and
seeds folded to their median by :func:`bench.report.data.per_instance`):

- a task that did not run (a ``timeout`` whose message starts with
  :data:`bench.records.NOT_RUN`, recorded by a suite's ladder rule) is missing data, never a
  failure: it is left out before anything is computed, so a pair "not run" on an instance
  has no value there rather than 2 x the limit; so is a task its formulation declined
  (:func:`bench.report.data.was_declined`, ASlib's ``not_applicable``): that pair is no
  candidate on that instance, and ``declined`` counts such instances per pair;
- the VBS of an instance is the least PAR-2 among the pairs that attempted it (answered when
  any of them answered correctly);
- a pair's marginal contribution is what the VBS loses without it: ``unique`` the instances
  only it answered (the SAT competitions' unique solves) and ``par2_added_s`` the rise of the
  VBS's PAR-2 sum when it is removed, over the instances some other pair ran; ``sole`` counts
  the instances no other pair ran (the VBS without it has no value there). An answer without
  its time (:mod:`bench.report.untimed`) has no PAR-2 and is no candidate, but the instance was
  answered: no other pair is its unique or sole solver there, and where any pair has one,
  ``untimed`` counts such instances per pair; an instance every pair that attempted it
  answered only without a time (or declined) is in the tables all the same, with no VBS
  time, counted in ``vbs_untimed`` (where a tier has one);
- the single best pair (SBS) is the pair of least PAR-2 sum among those that attempted every
  instance of the tier (when none did: among those that attempted the most, their sums over
  the instances all of them attempted; its gap then over the instances it attempted), and its
  gap to the VBS is the ratio of the PAR-2 sums and of the
  shifted geometric means over the same instances (1 is no gap);
- the committed ``auto`` rule's gap is over the instances where its pick has a time
  (:func:`auto_row`); a pick that answered without a time is neither a time nor a task not
  run: it is left out of the gap and counted in ``auto_untimed`` (where a tier has one).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from bench.report.data import (
    PAR_K,
    attempted,
    content_digests,
    declines,
    found_paths,
    performance,
    sgm,
    was_declined,
)
from bench.report.render import Table
from bench.report.untimed import matrix as untimed_matrix


def single_best(par2: pd.DataFrame) -> tuple[str, pd.Index]:
    """The single best pair and the instances its gap is measured over (see the module)."""
    covered = par2.notna().sum()
    most = covered[covered == covered.max()].index
    # like with like: pairs of equal coverage but other instance sets are compared on the
    # instances all of them attempted
    common = par2[most].notna().all(axis=1)
    sums = {p: float(par2.loc[common, p].sum()) for p in most}
    best = min(sums, key=lambda p: (sums[p], sgm(np.asarray(par2.loc[common, p], float)), p))
    return str(best), par2.index[par2[best].notna()]


def tier_row(tier: str, par2: pd.DataFrame, ok: pd.DataFrame,
             untimed: pd.DataFrame | None = None) -> dict[str, Any]:
    """One tier's VBS and single best pair with the gaps (``untimed``: instances x pairs,
    True where the pair answered without a time, :func:`bench.report.untimed.matrix`; where
    it has a column, ``vbs_untimed`` counts the instances with no time of any pair that some
    pair answered without one)."""
    vbs = par2.min(axis=1)
    u = _untimed(untimed, par2)
    sbs, on = single_best(par2)
    v, s = vbs.loc[on], par2.loc[on, sbs]
    v_sum, s_sum = float(v.sum()), float(s.sum())
    return {"tier": tier, "instances": len(par2), "pairs": par2.shape[1],
            "vbs_solved": int((ok.fillna(0) > 0).any(axis=1).sum()),
            "vbs_par2_s": float(vbs.sum()), "vbs_sgm_s": sgm(vbs),
            "single_best": sbs, "sbs_instances": len(on),
            "sbs_solved": int((ok.loc[on, sbs] > 0).sum()),
            "sbs_par2_s": s_sum, "sbs_sgm_s": sgm(s),
            "par2_gap": s_sum / v_sum if v_sum > 0 else math.nan,
            "sgm_gap": sgm(s) / sgm(v) if sgm(v) > 0 else math.nan,
            **({"vbs_untimed": int((vbs.isna() & u.any(axis=1)).sum())} if u.shape[1]
               else {})}


def _untimed(untimed: pd.DataFrame | None, par2: pd.DataFrame) -> pd.DataFrame:
    """The untimed matrix (none: no column) on the instances of ``par2``, as bools."""
    u = untimed if untimed is not None else pd.DataFrame(index=par2.index)
    return u.reindex(index=par2.index, fill_value=False).astype(bool)


def contribution_rows(tier: str, par2: pd.DataFrame, ok: pd.DataFrame,
                      declined: pd.Series | None = None,
                      untimed: pd.DataFrame | None = None) -> list[dict[str, Any]]:
    """Per pair of one tier: what the VBS loses without it (``declined``: per pair the
    instances it declined, none by default; ``untimed``: instances x pairs, True where the
    pair answered without a time, :func:`bench.report.untimed.matrix`, none by default)."""
    declined = declined if declined is not None else pd.Series(dtype=int)
    u = _untimed(untimed, par2)
    answered = ok.fillna(0) > 0
    vbs = par2.min(axis=1)
    rows = []
    for p in par2.columns:
        others = par2.drop(columns=p)
        elsewhere = u.drop(columns=p, errors="ignore").any(axis=1)  # answered, no time
        some = others.notna().any(axis=1)
        without = others.min(axis=1)
        only = answered[p] & ~answered.drop(columns=p).any(axis=1) & ~elsewhere
        fastest = par2[p].notna() & (par2[p] <= vbs) & answered[p]
        rows.append({"tier": tier, "pair": p, "ran": int(par2[p].notna().sum()),
                     "declined": int(declined.get(p, 0)),
                     **({"untimed": int(u[p].sum()) if p in u else 0} if u.shape[1] else {}),
                     "solved": int(answered[p].sum()), "unique": int(only.sum()),
                     "fastest": int(fastest.sum()),
                     "par2_added_s": float((without[some] - vbs[some]).sum()),
                     "sole": int((par2[p].notna() & ~some & ~elsewhere).sum())})
    return rows


def _tiers(t: pd.DataFrame) -> list[tuple[str, pd.DataFrame, pd.DataFrame, pd.Series,
                                          pd.DataFrame]]:
    out = []
    for tier, g in t.groupby("tier", sort=True):
        par2, ok, u = matrices(g)
        if par2.size:
            out.append((str(tier), par2, ok, declines(g), u))
    return out


def matrices(g: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """One tier's instance x pair PAR-2 and answered matrices
    (:func:`bench.report.data.performance`) and the untimed one
    (:func:`bench.report.untimed.matrix`), on the instances some pair measured and those
    only answered without a time (rows with no PAR-2: no candidate, still instances of the
    tier)."""
    par2, ok = performance(g)
    att = attempted(g, timed=False)
    u = untimed_matrix(att, pd.Index(sorted(set(att["instance"])))) if len(att) else \
        pd.DataFrame(index=par2.index)
    if par2.shape[1]:
        index = par2.index.union(u.index[u.any(axis=1)])
        par2, ok = par2.reindex(index), ok.reindex(index)
    return par2, ok, u.reindex(index=par2.index, fill_value=False)


def auto_picks(t: pd.DataFrame) -> pd.Series:
    """The pair the committed ``auto`` rule of the rows' puzzle (:data:`bench.select.rules.RULES`)
    picks per instance, from the features of its file; empty when the puzzle has no rule or a
    file cannot be read."""
    from bench.instance import InstanceError
    from bench.select import features
    from bench.select.auto import choose
    from bench.select.rules import RULES
    from bench.suites import locate

    rule = RULES.get(str(t["puzzle"].iloc[0])) if len(t) else None
    if rule is None:
        return pd.Series(dtype=object)
    paths = dict(zip(t["instance"].astype(str), found_paths(t), strict=True))
    try:
        return pd.Series({i: choose(rule, features.of_file(locate(p)) if rule.feature else {}).pair
                          for i, p in paths.items()}, dtype=object)
    except (InstanceError, OSError):
        return pd.Series(dtype=object)


def auto_row(par2: pd.DataFrame, ok: pd.DataFrame, picks: pd.Series, limit: pd.Series,
             in_sample: bool = False, declined: pd.DataFrame | None = None,
             untimed: pd.DataFrame | None = None) -> dict[str, Any]:
    """``auto``'s gap to the VBS over the instances of the tier whose chosen pair was run
    there (``auto_over`` of ``auto_instances``): a pick that did not run the instance (not in
    the run, or not run by a suite's ladder rule) is missing data, counted in
    ``auto_not_run`` and left out of the gap, never charged a penalty; a pick whose
    formulation declined the instance (``declined``: instances x pairs, True where declined;
    none by default) was run and refused it, as ``puzzlebench solve`` reports such an
    instance an error: it counts unanswered at PAR-2 (:data:`PAR_K` x its time limit
    ``limit``) and in ``auto_declined``. The VBS is taken over the same instances; the gaps
    are NaN (shown "–") where no pick ran, or without a rule. A pick that answered the
    instance without a time (``untimed``: instances x pairs, :func:`bench.report.untimed.matrix`;
    none by default) ran it: it is left out of the gap (no time) and, where ``untimed`` has
    a column, counted in ``auto_untimed``, never in ``auto_not_run``. ``auto_in_sample``
    marks a tier holding instances the rule was learned on. The features' cost is not
    included."""
    none = {"auto_instances": 0, "auto_over": 0, "auto_not_run": 0, "auto_declined": 0,
            "auto_solved": 0, "auto_par2_gap": math.nan, "auto_sgm_gap": math.nan,
            "auto_in_sample": in_sample}
    if not len(par2) or not par2.index.isin(picks.index).all():
        return none
    answered_m, ran_m = ok.fillna(0) > 0, par2.notna()

    def has(frame: pd.DataFrame | None, i: str) -> bool:
        return frame is not None and picks[i] in frame and i in frame.index and bool(
            frame.at[i, picks[i]])

    did = pd.Series([has(ran_m, i) for i in par2.index], index=par2.index, dtype=bool)
    refused = pd.Series([not did[i] and has(declined, i) for i in par2.index],
                        index=par2.index, dtype=bool)
    unt = pd.Series([not did[i] and not refused[i] and has(untimed, i) for i in par2.index],
                    index=par2.index, dtype=bool)
    on = par2.index[did | refused]
    a = pd.Series([par2.at[i, picks[i]] if did[i] else PAR_K * float(limit[i]) for i in on],
                  index=on, dtype=float)
    answered = sum(bool(answered_m.at[i, picks[i]]) for i in on if did[i])
    par2_gap, sgm_gap = gap(a, par2.min(axis=1).loc[on]) if len(on) else (math.nan, math.nan)
    return {**none, "auto_instances": len(par2), "auto_over": len(on),
            "auto_not_run": int((~did & ~refused & ~unt).sum()),
            "auto_declined": int(refused.sum()),
            **({"auto_untimed": int(unt.sum())} if untimed is not None and untimed.shape[1]
               else {}),
            "auto_solved": int(answered), "auto_par2_gap": par2_gap, "auto_sgm_gap": sgm_gap}


def declined_matrix(g: pd.DataFrame, par2: pd.DataFrame) -> pd.DataFrame:
    """Instances (those of ``par2``) x pairs: True where the pair's formulation declined the
    instance among the rows ``g`` (:func:`bench.report.data.was_declined`)."""
    d = g[was_declined(g)]
    if not len(d):
        return pd.DataFrame(False, index=par2.index, columns=[])
    m = pd.crosstab(d["instance"], d["pair"]) > 0
    return m.reindex(index=par2.index, fill_value=False)


def in_sample(t: pd.DataFrame) -> bool:
    """Whether rows of one tier hold an instance the committed ``auto`` rules were learned on:
    the rules' training tier (``ladder``), or a content digest (the start of the task key) of
    the committed training runs' instances (:func:`bench.select.train.training_digests`)."""
    from bench.select.train import TRAINED_TIERS, training_digests

    if t["tier"].astype(str).isin(TRAINED_TIERS).any():
        return True
    return bool(content_digests(t).isin(training_digests()).any())


def summary(t: pd.DataFrame) -> pd.DataFrame:
    """One puzzle's prepared rows -> one row per tier: the VBS, the single best pair and its
    gap (ratios of PAR-2 sums and of SGMs), and the committed ``auto`` rule's gap
    (:func:`auto_row`: over the instances whose chosen pair ran, a pick not run left out and
    counted, a declined pick unanswered; tiers of its training data marked in-sample; no
    feature cost)."""
    picks = auto_picks(t)
    rows = []
    for tier, g in t.groupby("tier", sort=True):
        par2, ok, u = matrices(g)
        if par2.size:
            limit = g.groupby("instance")["time_limit"].max().astype(float)
            rows.append({**tier_row(str(tier), par2, ok, u),
                         **auto_row(par2, ok, picks, limit, in_sample(g),
                                    declined_matrix(g, par2), u)})
    s = pd.DataFrame(rows)
    for col in ("vbs_untimed", "auto_untimed"):  # a tier without any untimed instance: 0
        if col in s:
            s[col] = s[col].fillna(0).astype(int)
    return s


def contributions(t: pd.DataFrame) -> pd.DataFrame:
    """One puzzle's prepared rows -> one row per tier and pair: its marginal contribution to
    the VBS, largest first (an ``untimed`` column only where some pair answered an instance
    without a time)."""
    rows = [r for x in _tiers(t) for r in contribution_rows(*x)]
    if not rows:
        return pd.DataFrame()
    c = pd.DataFrame(rows)
    if "untimed" in c:  # a tier without any untimed instance: 0 there
        c["untimed"] = c["untimed"].fillna(0).astype(int)
    return c.sort_values(["tier", "unique", "par2_added_s", "pair"],
                         ascending=[True, False, False, True]).reset_index(drop=True)


def extra(puzzle: str, t: pd.DataFrame) -> list[dict[str, Any]]:
    """The report's VBS tables of one puzzle (title and table, as a section's ``extra``)."""
    if not len(t) or "tier" not in t:
        return []
    s, c = summary(t), contributions(t)
    if s.empty:
        return []
    for col in ("par2_gap", "sgm_gap", "auto_par2_gap", "auto_sgm_gap"):
        s[col] = s[col].round(3)
    c["par2_added_s"] = c["par2_added_s"].where(c["par2_added_s"].abs() > 1e-12, 0.0)
    return [
        {"title": f"{puzzle}: virtual best (least PAR-2 per instance among the pairs that "
                  "attempted it; tasks not run or declined by their formulation are missing "
                  "data), the single best pair's gap to it "
                  "(ratio of PAR-2 sums and of SGMs, 1 = none) and the committed auto "
                  "rule's over auto_over of the auto_instances, those whose chosen pair was "
                  "run there, the VBS over the same ('–' where no pick ran); auto_not_run: "
                  "instances whose chosen pair was not run there, missing data, left out of "
                  "the gap and never charged; auto_declined: instances whose chosen pair's "
                  "formulation declined them, counted unanswered at PAR-2 (solve reports "
                  "them an error); auto_in_sample: a tier holding the rule's training data, "
                  "so no test of it; the features' cost is not included"
                  + ("; vbs_untimed: instances no pair has a time on, answered without a "
                     "build or solve time, no VBS time and not counted solved"
                     if "vbs_untimed" in s else "")
                  + ("; auto_untimed: instances whose chosen pair answered without a time, "
                     "left out of the gap" if "auto_untimed" in s else "") + ")",
         "table": Table.of(s)},
        {"title": f"{puzzle}: each pair's marginal contribution to the virtual best (unique: "
                  "instances only it answered; par2_added_s: what the VBS's PAR-2 sum rises "
                  "by without it; sole: instances no other pair ran; declined: instances its "
                  "formulation declined, where it is no candidate"
                  + ("; untimed: instances it answered without a build or solve time, where it "
                     "is no candidate and no other pair unique or sole" if "untimed" in c
                     else "") + ")",
         "table": Table.of(c)}]


def gap(par2: pd.Series, vbs: pd.Series) -> tuple[float, float]:
    """PAR-2-sum and SGM ratios of a selector's per-instance PAR-2 to the VBS's (same index)."""
    a, b = np.asarray(par2, float), np.asarray(vbs, float)
    return (float(a.sum() / b.sum()) if b.sum() > 0 else math.nan,
            sgm(a) / sgm(b) if sgm(b) > 0 else math.nan)
