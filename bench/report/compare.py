"""``puzzlebench compare RUN_A RUN_B``: a diff of two runs by task key.

Results are paired by task key (the instance's content, the formulation variant, the solver,
the seed, the solution count and the repetition; :func:`bench.records.task_key`), so a moved
instance file or a renamed run still pairs. For every paired task the diff says which parts of
its identity differ between the runs (formulation code, backend code, solver version, limits,
machine; :func:`bench.identity.differing_parts`; a result written before identities were
recorded shows "identity unknown") and whether its status or time changed. Every sample's
identity counts, not only the first's: a key whose samples in a merged run were made by
different code or under different limits differs from a run that has only one of them.

Noise, per task: a task's samples (a merged run's further samples of one key) are folded to
their median PAR-2 time; a time change counts when the factor B/A lies outside
1/``noise`` .. ``noise``, ``noise`` the larger of NOISE_FACTOR and either side's max/min spread
of samples, and the times differ by more than NOISE_FLOOR_S (timer and process noise on
millisecond tasks). A change of status always counts.

Per pair (and puzzle x tier): the change B/A over the instances both runs measured, tested
with the machinery of the report's verdicts (:mod:`bench.report.paired`). A task that did not
run (:func:`bench.report.data.did_not_run`) is never scored, and a skipped task has no time;
each run's samples of a (pair, instance) (its seeds and repetitions) are folded to their
median PAR-2 time, so runs on different seeds still pair by instance. An error is no
measurement, as in the verdicts (:mod:`bench.report.invalid`): beside other samples it is left
out of the fold; an instance every sample of which errored in either run is left out of the
pair's comparison (never censored at the limit), the label then says on how many instances it
rests ("5 of 8 instances, 3 error in B"); a pair with no instance measured in both runs is not
tested (outside the family below) and is listed apart by name with its error count ("no valid
answer in B: 8 error"). Errors not missing at random are judged by the report's rule
(:func:`bench.report.invalid.beyond`, the other run in the best's place): where a run's errors
lie beyond every instance it measured (more cells, or a longer time of the other run, than on
any of them) the pair is never "equivalent" but "inconclusive", its label saying how many ("5
of 8 instances, 3 error in B: 3 on instances ..."). In the per-task diff a task every sample
of which errored has no time.
The value is y = log(min(t, L) + shift) with L the shared limit, the smaller of the two runs'
limits on the instance (an unanswered instance at L, a censored time; so is a time answered
above L in the run with the larger limit: capped at L it is known only to exceed L; an
instance is answered by a strict majority of its samples, so exactly half is unanswered; shift
:data:`bench.report.data.SGM_SHIFT_S`), and the difference d = y_B - y_A per instance:

- the factor exp(mean d) (the ratio B/A of the geometric means of t + shift; not the ratio
  of the SGMs shown, which subtract the shift) with its 95 % t-interval
  (:func:`bench.report.paired.log_interval`; "too few" below
  :data:`bench.report.paired.MIN_INTERVAL` instances); where a run has censored times the
  factor is a bound without an interval ("≥" where only B has: B/A is at least it; "≤" where
  only A has; "both censored": neither estimate nor bound): neither end of a t-interval over
  times capped at L is a bound, each moves either way as a censored time grows
  (:mod:`bench.report.wording`);
- the test: one family-wise permutation test over every pair it can reject (all puzzles and
  tiers; :mod:`bench.report.family`: on at least :data:`TESTED` instances), with sign flips of
  each instance's differences, every pair on it at once;
- labels: *changed* (adjusted p < :data:`ALPHA` over at least MIN_INTERVAL instances, the
  same minimum as the interval's: "slower" or "faster" by the factor and its
  interval); *equivalent* (two one-sided tests at the 1.25x margin,
  :func:`bench.report.paired.equivalent`: the interval inside 1/1.25 .. 1.25 over at least
  MIN_INTERVAL instances, none censored in either run and none answered otherwise, such as
  solved in one and infeasible in the other); *inconclusive* otherwise, with the instances
  it rests on.

The per-task list below the pairs is a diff, not a test: each key's change against the noise.
Machines: the two runs' speed (each one's fastest calibration loop) is compared, and a factor
beyond :data:`bench.run.noise.SLOWER` either way is said with the factor; a run whose
machine was disturbed during it (:func:`bench.run.noise.disturbance`) is named with why.
A task skipped by its formulation in both runs has no time on either side and is left out;
skipped in one run only is a status change ("now skipped", "no longer skipped").
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import bench.report.invalid as invalid
import bench.report.paired as paired
import bench.report.untimed as untimed
from bench.identity import differing_parts
from bench.report.compare_machines import machine_lines
from bench.report.compare_words import (
    BOUNDS,
    CHANGED,
    EQUIVALENT,
    INCONCLUSIVE,
    label,
)
from bench.report.data import SGM_SHIFT_S, did_not_run, load_run, prepare
from bench.report.family import TESTED, adjusted_p
from bench.report.render import Table

ALPHA = paired.ALPHA
NOISE_FACTOR = 1.5
NOISE_FLOOR_S = 0.01


CSV_COLUMNS = ["puzzle", "pair", "instance", "key", "status_a", "status_b", "par2_s_a",
               "par2_s_b", "factor", "noise", "significant", "change", "differs"]


PAIR_COLUMNS = ["puzzle", "tier", "pair", "instances", "error", "censored", "answers differ",
                "factor", "bound", "factor_lo", "factor_hi", "p", "label", "status changes",
                "tasks beyond noise", "identity differs"]
PAIR_NOTE = (
    "Over the instances both runs measured (tasks not run left out; each run's seeds and "
    "repeats of an instance folded to their median, an error beside other samples left out; "
    "error: instances left out, every sample an error in a run: no measurement, not "
    "censored; a pair with none left is not tested): factor B/A, the ratio of the geometric "
    f"means of min(t, L) + shift (L the smaller limit; an unanswered instance, or one "
    f"answered above L in the run with the larger limit, is censored at L; shift "
    f"{SGM_SHIFT_S * 1000:g} ms) with its 95 % t-interval (none below "
    f"{paired.MIN_INTERVAL} instances); bound: '≥' where only B has censored times (B/A is "
    "then at least the factor), '≤' where only A has, 'both censored' where both have (the "
    "factor is then neither estimate nor bound); a bound has no interval ('censored: no "
    "interval'): the t-interval's ends over times capped at L are no bounds, each moves "
    "either way as a censored time grows; "
    "p: the step-down Westfall-Young max-T sign-flip "
    f"permutation test over every pair on at least {TESTED} instances (one family; on fewer "
    f"no p reaches {ALPHA:g}: none, '–'). Labels: "
    f"'{CHANGED}' p < {ALPHA:g} over at least {paired.MIN_INTERVAL} instances; "
    f"'{EQUIVALENT}' the interval within 1/{paired.MARGIN:g}.."
    f"{paired.MARGIN:g}x (two one-sided tests; no instance unanswered or answered "
    f"otherwise); '{INCONCLUSIVE}' neither, or a run's errors lie beyond every instance it "
    "measured (more cells, or a longer time of the other run, than on any of them: not "
    "missing at random; ': b on instances ...'). censored: instances unanswered in either run, or "
    "answered above L; "
    "answers differ: instances whose status differs (e.g. solved and infeasible).")


IDENTITY_COLUMNS = ["code", "backend_code", "solver_version", "time_limit", "memory_limit_mb",
                    "threads", "cpu", "cores", "memory_gb", "python", "identity"]


def _identities(t: pd.DataFrame) -> list[str]:
    """Per row its identity columns as JSON text ("" for a row without an identity)."""
    cols = [c for c in IDENTITY_COLUMNS if c in t]
    if "identity" not in cols:
        return [""] * len(t)
    recs = t[cols].astype(object).where(t[cols].notna(), None).to_dict("records")
    return [json.dumps(r, sort_keys=True, default=str) if r.get("identity") else ""
            for r in recs]


def per_key(t: pd.DataFrame) -> pd.DataFrame:
    """One row per task key: the median PAR-2 time of its samples, ``ok`` when a strict
    majority answered (exactly half: unanswered), its status (``a/b`` when samples
    disagree), ``spread`` max/min, ``samples``, the first sample's identity columns and
    ``idents``, the distinct identities of its samples (JSON texts of their identity
    columns; samples without one left out). An error beside other samples of its key is left
    out of the time and ``ok`` (:func:`bench.report.invalid.out_of_fold`)."""
    ident = IDENTITY_COLUMNS
    t = invalid.out_of_fold(t, ["key"])[0].assign(_ident=_identities(t))
    g = t.groupby("key", sort=False)
    out = g.agg(puzzle=("puzzle", "first"), pair=("pair", "first"),
                instance=("instance", "first"), tier=("tier", "first"),
                par2_s=("par2_s", "median"),
                ok=("ok", "mean"), lo=("par2_s", "min"), hi=("par2_s", "max"),
                samples=("par2_s", "size"),
                status=("status", lambda s: "/".join(sorted(set(s)))),
                idents=("_ident", lambda s: tuple(sorted({x for x in s if x}))),
                **{c: (c, "first") for c in ident if c in t}).reset_index()
    out["ok"] = out["ok"] > 0.5
    out["spread"] = out["hi"] / out["lo"].where(out["lo"] > 0)
    return out


def _differs(row: pd.Series) -> str:
    """The identity parts in which any sample of A differs from any sample of B, in words."""
    if not row["idents_a"] or not row["idents_b"]:
        return "identity unknown"
    out: list[str] = []
    for a in row["idents_a"]:
        for b in row["idents_b"]:
            for part in differing_parts({"key": row["key"], **json.loads(a)},
                                        {"key": row["key"], **json.loads(b)}):
                if part not in out:
                    out.append(part)
    return ", ".join(out)


def _marked(t: pd.DataFrame) -> pd.DataFrame:
    """Task rows with the status "not run" where the task did not run (never a result), its
    PAR-2 time NaN."""
    if t.empty:
        return t
    gone = did_not_run(t)
    t = t.copy()
    t.loc[gone, "status"] = "not run"
    t.loc[gone, "par2_s"] = np.nan
    return t


def compare(run_a: str | Path, run_b: str | Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(changes, per_pair): per task key in both runs the times, factor B/A, the identity parts
    that differ, the status change and whether it exceeds the noise; per pair and puzzle x
    tier the change B/A over the instances both runs ran, tested as the module says
    (:func:`pair_changes`). Untimed task rows are left out of both (each run's count in
    ``per_pair.attrs["untimed"]``)."""
    (ta, ua), (tb, ub) = (untimed.timed(_marked(prepare(run.df, run.folder)))
                          for run in map(load_run, (run_a, run_b)))
    a, b = per_key(ta), per_key(tb)
    m = a.merge(b.drop(columns=["puzzle", "pair", "instance", "tier"]), on="key",
                suffixes=("_a", "_b"))
    pairs = pair_changes(ta, tb)
    pairs.attrs["untimed"] = (ua, ub)
    if m.empty:
        return m.assign(significant=pd.Series(dtype=bool)), _with_task_counts(pairs, m)
    m["differs"] = m.apply(_differs, axis=1)
    both_skipped = (m["status_a"] == "skipped") & (m["status_b"] == "skipped")
    m = m[~both_skipped].copy()  # no time on either side: nothing to compare
    if m.empty:
        return m.assign(significant=pd.Series(dtype=bool)), _with_task_counts(pairs, m)
    for side in ("a", "b"):  # every sample an error: no time, its status change alone counts
        m.loc[m[f"status_{side}"] == "error", f"par2_s_{side}"] = np.nan
    m["factor"] = m["par2_s_b"] / m["par2_s_a"].where(m["par2_s_a"] > 0)
    noise = np.maximum(NOISE_FACTOR, np.fmax(m["spread_a"].fillna(1), m["spread_b"].fillna(1)))
    m["noise"] = noise
    big = (m["factor"] > noise) | (m["factor"] < 1 / noise)
    above_floor = (m["par2_s_b"] - m["par2_s_a"]).abs() > NOISE_FLOOR_S
    m["status_change"] = np.where(
        m["status_a"] == m["status_b"], "",
        np.where(m["status_b"] == "skipped", "now skipped",
                 np.where(m["status_a"] == "skipped", "no longer skipped",
                          m["status_a"] + " → " + m["status_b"])))
    m["significant"] = (big & above_floor) | (m["status_change"] != "")
    m["change"] = np.where(~m["significant"], "within noise",
                           np.where(m["factor"] > 1, "slower", "faster"))
    m.loc[m["status_change"] != "", "change"] = m["status_change"]
    pairs = _with_task_counts(pairs, m)
    changes = m.sort_values(["significant", "factor"], ascending=[False, False])
    return changes.reset_index(drop=True), pairs


def _unit(key: str) -> str:
    """A task key without its seed and repetition: the (instance content, variant, solver,
    count) that the runs' samples are folded over."""
    return "|".join(x for x in str(key).split("|") if not x.startswith(("seed=", "rep=")))


def _fold(t: pd.DataFrame) -> pd.DataFrame:
    """Per (puzzle, pair, unit): the tasks that ran (not skipped) folded to the median PAR-2
    time, ``ok`` when a strict majority answered (exactly half: unanswered), the largest
    limit, the tier and instance, the statuses seen, ``errors`` and ``n`` its error and all
    samples, ``unmeasured`` where every sample errored (:func:`bench.report.invalid.unmeasured`).
    An error beside other samples is left out of the time, ``ok`` and the statuses
    (:func:`bench.report.invalid.out_of_fold`); an untimed answer left out before
    (:func:`bench.report.untimed.timed`) counts in ``ok``, not in the time
    (:func:`bench.report.untimed.settle`)."""
    t = t[~t["status"].isin(("not run", "skipped"))] if len(t) else t
    if t.empty:
        return pd.DataFrame(columns=["puzzle", "pair", "unit", "par2_s", "ok", "limit",
                                     "tier", "instance", "status", "errors", "n", "cells",
                                     "unmeasured"])
    by = ["puzzle", "pair", "unit"]
    t = t.assign(unit=t["key"].map(_unit), limit=t["time_limit"].astype(float),
                 _er=t["status"].eq("error"),
                 cells=t["cells"].astype(float) if "cells" in t else np.nan)
    t, gone = invalid.out_of_fold(t, by)
    t = t.assign(_st=t["status"].mask(gone), _nu=t.get("untimed_beside", 0),
                 _ans=t["par2_s"].where(t["ok"].eq(True)))
    out = t.groupby(by, sort=True).agg(
        par2_s=("par2_s", "median"), ok_sum=("ok", "sum"), ok_n=("ok", "count"),
        untimed_beside=("_nu", "max"), ans_s=("_ans", "median"), limit=("limit", "max"),
        tier=("tier", "first"), instance=("instance", "first"),
        status=("_st", lambda x: "/".join(sorted(set(x.dropna())))), errors=("_er", "sum"),
        n=("_er", "size"), cells=("cells", "max")).reset_index()
    out = untimed.settle(out).drop(columns=["ok_frac", "untimed_beside"])
    out["unmeasured"] = invalid.unmeasured(out)
    return out


def paired_instances(ta: pd.DataFrame, tb: pd.DataFrame) -> pd.DataFrame:
    """Per (puzzle, pair, unit) both runs ran: ``tier``, ``instance``, ``limit`` (the shared
    limit L: the smaller of the two; NaN where neither recorded one), ``y_a``/``y_b``
    = log(min(PAR-2, L) + shift) (the PAR-2 time itself without a limit), ``censored_a``,
    ``censored_b`` (that side unanswered, or answered above L: its time is known only to
    exceed L), ``censored`` (either), ``answers_differ`` (the statuses differ, e.g. solved
    and infeasible), ``d`` = y_b - y_a, and ``errors_a``/``errors_b``, ``unmeasured_a``/
    ``unmeasured_b`` (every sample of that side an error: no measurement, :func:`_fold`) and
    ``unmeasured`` (either side; such a row is left out of the pair's test)."""
    fa, fb = _fold(ta), _fold(tb)
    m = fa.merge(fb.drop(columns=["instance"]), on=["puzzle", "pair", "unit"],
                 suffixes=("_a", "_b"))
    la = m["limit_a"].where(m["limit_a"] > 0)
    lb = m["limit_b"].where(m["limit_b"] > 0)
    m["limit"] = np.fmin(la, lb)
    cap = m["limit"].fillna(np.inf).to_numpy(float)
    for side in ("a", "b"):
        m[f"y_{side}"] = np.log(np.fmin(m[f"par2_s_{side}"].to_numpy(float), cap) + SGM_SHIFT_S)
    # a side is censored at L where it is unanswered, or answered above L (a run with the
    # larger limit): capped at L, its time is a bound, not a measurement
    for side in ("a", "b"):
        m[f"censored_{side}"] = ~m[f"ok_{side}"] | (m[f"par2_s_{side}"] > m["limit"])
    m["censored"] = m["censored_a"] | m["censored_b"]
    m["answers_differ"] = m["status_a"] != m["status_b"]
    m["tier"] = m["tier_a"].where(m["tier_a"].fillna("") != "", m["tier_b"]).fillna("")
    m["d"] = m["y_b"] - m["y_a"]
    m["unmeasured"] = m["unmeasured_a"] | m["unmeasured_b"]
    return m


def pair_changes(ta: pd.DataFrame, tb: pd.DataFrame) -> pd.DataFrame:
    """Per (puzzle, tier, pair) with an instance both runs ran: ``instances`` (those measured
    in both runs, which the test rests on), ``error`` (instances left out: every sample an
    error in a run, :mod:`bench.report.invalid`), ``censored`` (instances unanswered in either
    run), ``answers differ`` (instances whose status differs), ``factor`` B/A with
    ``factor_lo``/``factor_hi`` (NaN below MIN_INTERVAL instances and for a ``bound``),
    ``p`` (adjusted over every pair tested), ``verdict`` (changed, equivalent, inconclusive;
    no valid answer where no instance is measured in both runs: not tested) and ``label``
    (the verdict in words)."""
    m = paired_instances(ta, tb)
    if m.empty:
        return pd.DataFrame()
    keys = ["puzzle", "tier", "pair"]
    groups = list(m[~m["unmeasured"]].groupby(keys, sort=True))  # an error: no measurement
    p = adjusted_p(groups)
    every = dict(list(m.groupby(keys, sort=True)))
    rows = [_tested(key, g, _left_out(every[key]), float(p[j]))
            for j, (key, g) in enumerate(groups)]
    rows += [_untested(key, g) for key, g in every.items() if g["unmeasured"].all()]
    return pd.DataFrame(rows).sort_values(keys, kind="stable").reset_index(drop=True)


def _left_out(g: pd.DataFrame) -> tuple[int, str, int]:
    """The instances of the pair's rows ``g`` (every instance both runs ran) left out as
    unmeasured, in words ("3 error in B", "1 error in A, 2 error in B: 2 on instances larger
    than any it measured"; "" for none), and how many of them lie beyond what their run
    measured (:func:`_beyond`)."""
    words, far = [], 0
    for s in "ab":
        if g[f"unmeasured_{s}"].any():
            n, why = _beyond(g, s)
            far += n
            words.append(f"{int(g[f'unmeasured_{s}'].sum())} error in {s.upper()}"
                         + (f": {why}" if why else ""))
    return int(g["unmeasured"].sum()), ", ".join(words), far


def _beyond(g: pd.DataFrame, side: str) -> tuple[int, str]:
    """:func:`bench.report.invalid.beyond` of run ``side``'s errors among the pair's rows
    ``g``, the other run in the best's place (its times, capped at the shared limit, where the
    best's would be; named "run A" or "run B" in the words): the report's rule for errors not
    missing at random."""
    other = "b" if side == "a" else "a"
    pi = pd.concat([pd.DataFrame({"pair": who, "instance": g["unit"], "errors": g[f"errors_{s}"],
                                  "n": g[f"n_{s}"], "par2_s": g[f"par2_s_{s}"],
                                  "time_limit": g["limit"],
                                  "cells": np.fmax(g["cells_a"], g["cells_b"])})
                    for who, s in (("run", side), ("other", other))], ignore_index=True)
    n, why = invalid.beyond(pi, "other", "run")
    return n, why.replace("the best", f"run {other.upper()}")


def _tested(key: tuple[Any, ...], g: pd.DataFrame, left_out: tuple[int, str, int],
            pj: float) -> dict[str, Any]:
    """The row of pair ``key`` over its instances measured in both runs ``g``, with the
    instances left out (:func:`_left_out`) and its adjusted p ``pj``: never equivalent where
    some lie beyond what their run measured."""
    puzzle, tier, pair = key
    est, lo, hi = paired.log_interval(g["d"].to_numpy(float))
    n = len(g)
    bound = BOUNDS[bool(g["censored_a"].any()), bool(g["censored_b"].any())]
    if n < paired.MIN_INTERVAL or bound:  # a bound has no interval (no end over capped
        lo = hi = math.nan  # times bounds anything)
    cens = int(g["censored"].sum())
    other = int(g["answers_differ"].sum())
    left, words, far = left_out
    verdict = (CHANGED if pj < ALPHA and n >= paired.MIN_INTERVAL else EQUIVALENT
               if paired.equivalent(lo, hi, n, cens + other > 0) and not far else INCONCLUSIVE)
    on = f"{n} of {n + left} instances, {words}" if left else ""
    return {"puzzle": puzzle, "tier": tier, "pair": pair, "instances": n, "error": left,
            "censored": cens, "answers differ": other, "factor": est, "bound": bound,
            "factor_lo": lo, "factor_hi": hi, "p": pj, "verdict": verdict,
            "label": label(verdict, est, lo, hi, n, cens, other, bound, on)}


def _untested(key: tuple[Any, ...], g: pd.DataFrame) -> dict[str, Any]:
    """The row of pair ``key`` none of whose instances ``g`` is measured in both runs: not
    tested; its label names the run with no valid answer and its error tasks ("no valid
    answer in B: 8 error"), else the instances each run left out."""
    puzzle, tier, pair = key
    gone = [f"in {s.upper()}: {int(g[f'errors_{s}'].sum())} error" for s in "ab"
            if g[f"unmeasured_{s}"].all()]
    said = (f"{invalid.NO_VALID} " + "; ".join(gone) if gone else
            f"no instance measured in both runs ({_left_out(g)[1]})")
    return {"puzzle": puzzle, "tier": tier, "pair": pair, "instances": 0, "error": len(g),
            "censored": 0, "answers differ": 0, "factor": math.nan, "bound": "",
            "factor_lo": math.nan, "factor_hi": math.nan, "p": math.nan,
            "verdict": invalid.NO_VALID, "label": said}


def _with_task_counts(pairs: pd.DataFrame, m: pd.DataFrame) -> pd.DataFrame:
    """``pairs`` with, per (puzzle, tier, pair), the paired tasks, status changes, tasks beyond the
    noise and identity parts that differ (of the per-task diff ``m``); ``pairs.attrs`` kept."""
    out = _task_counts(pairs, m)
    out.attrs = dict(pairs.attrs)
    return out


def _task_counts(pairs: pd.DataFrame, m: pd.DataFrame) -> pd.DataFrame:
    if pairs.empty:
        return pairs
    if m.empty:  # no task key in both runs (other seeds): nothing per task
        out = pairs.copy()
        out["tasks"] = out["status changes"] = out["tasks beyond noise"] = 0
        out["identity differs"] = "no task key in both runs"
        return out
    rows: list[dict[str, Any]] = []
    for (puzzle, tier, pair), g in m.groupby(["puzzle", "tier", "pair"], sort=True):
        parts = Counter(x for d in g["differs"] for x in d.split(", ") if x)
        rows.append({"puzzle": puzzle, "tier": tier, "pair": pair, "tasks": len(g),
                     "status changes": int((g["status_change"] != "").sum()),
                     "tasks beyond noise": int(g["significant"].sum()),
                     "identity differs": "; ".join(f"{k} ({n})" for k, n in parts.items())
                     or "nothing"})
    return pairs.merge(pd.DataFrame(rows), on=["puzzle", "tier", "pair"], how="left")


def _summary(changes: pd.DataFrame, speed_differs: str = "") -> list[str]:
    """Sentences: which identity parts differ in how many tasks; ``speed_differs`` what made
    the calibration loop's time differ (:func:`~.compare_machines.machine_lines`)."""
    parts = Counter(x for d in changes["differs"] for x in d.split(", ") if x)
    if not parts:
        if speed_differs:
            why = ("the same machine's load" if speed_differs == "load" else
                   "the machine's speed")
            return ["Every paired task has the same identity in both runs (same formulation "
                    f"code, backend code, solver version, limits and machine type), but {why} "
                    "differed between the runs (below)."]
        return ["Every paired task has the same identity in both runs (same formulation "
                "code, backend code, solver version, limits and machine)."]
    return [f"- {k}: {n} of {len(changes)} tasks" for k, n in parts.most_common()]


def pair_summary(pairs: pd.DataFrame) -> list[str]:
    """One sentence: how many pairs changed (slower, faster), are equivalent, inconclusive;
    and one that lists by name the pairs not tested, no instance measured in both runs ("no
    valid answer in B: 8 error"), where there are any."""
    if pairs.empty:
        return ["No pair ran an instance in both runs."]
    v = pairs["verdict"]
    changed = pairs[v == CHANGED]
    slower = int((changed["factor"] > 1).sum())
    apart = pairs[v == invalid.NO_VALID]
    out = [f"Pairs (per puzzle and tier): {len(changed)} of {len(pairs) - len(apart)} "
           f"{CHANGED} ({slower} slower, {len(changed) - slower} faster), "
           f"{int((v == EQUIVALENT).sum())} {EQUIVALENT}, "
           f"{int((v == INCONCLUSIVE).sum())} {INCONCLUSIVE}"
           + (f"; {len(apart)} not tested." if len(apart) else ".")]
    if len(apart):
        named = apart[["pair", "puzzle", "tier", "label"]].itertuples(index=False)
        out += ["", "Not tested, no instance measured in both runs (an error is no "
                "measurement): " + "; ".join(f"{p} ({z}, {t or 'no tier'}): {w}"
                                              for p, z, t, w in named) + "."]
    return out


def compare_markdown(run_a: str | Path, run_b: str | Path, limit: int | None = 50,
                     csv: str | Path | None = None) -> str:
    """The comparison as Markdown; ``limit``: at most this many changed tasks listed (None:
    all), the rest counted with how to see them; ``csv``: also write every paired task
    (changed or not) to this CSV file (OSError if it cannot be written)."""
    changes, pairs = compare(run_a, run_b)
    if csv is not None:
        with open(csv, "w", newline="", encoding="utf-8") as f:
            changes[[c for c in CSV_COLUMNS if c in changes]].to_csv(f, index=False)
    ua, ub = pairs.attrs.get("untimed", (0, 0))
    untimed = (f" Correct answers recorded without a time (untimed: no measurement) left out: "
               f"{ua} in A, {ub} in B." if ua or ub else "")
    if changes.empty and pairs.empty:
        return (f"# compare {run_a} -> {run_b}\n\nNo task key and no instance is in both "
                f"runs with a measurement.{untimed}\n")
    machine, speed_differs = machine_lines(run_a, run_b)
    sig = changes[changes["significant"]] if len(changes) else changes
    head = (f"{len(changes)} tasks (by task key) in both runs; {len(sig)} changed status or "
            f"time beyond the noise (factor B/A outside 1/{NOISE_FACTOR:g} .. "
            f"{NOISE_FACTOR:g}, or the samples' spread if larger, and more than "
            f"{NOISE_FLOOR_S * 1000:g} ms). Times are PAR-2 build + solve times."
            if len(changes) else "No task key is in both runs (other seeds or repetitions): "
            "the pairs compare by instance, each run's samples folded.")
    head += untimed
    md = [f"# compare {run_a} -> {run_b}", "", head, "", *pair_summary(pairs), "",
          "## Identity parts that differ", "",
          *(_summary(changes, speed_differs) if len(changes) else ["No task key to compare."]),
          "", "## Machines", "", *machine, "",
          "## Per pair and tier", "", PAIR_NOTE, "",
          Table.of(pairs, PAIR_COLUMNS).markdown() if len(pairs) else
          "No instance ran in both runs.", ""]
    if len(sig):
        cols = ["puzzle", "pair", "instance", "par2_s_a", "par2_s_b", "factor", "noise",
                "change", "differs"]
        shown = sig if limit is None else sig.head(limit)
        md += ["## Tasks that changed beyond the noise", "",
               Table.of(shown, cols).markdown(), ""]
        if len(shown) < len(sig):
            md += [f"({len(sig) - len(shown)} more rows: `puzzlebench compare --all` lists "
                   "every one; `--csv FILE` writes every paired task to a CSV file)", ""]
    return "\n".join(md)
