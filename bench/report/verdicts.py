"""Verdicts that claim only what was measured: per puzzle x tier the best pair, every other
pair labelled against it, and the overview matrix.

Method (the same for every group of instances: a puzzle's tier, or the puzzle pooled where
every tier has one time limit):

- A task that did not run (:func:`did_not_run`: recorded by a suite's ladder rule, or without
  running at all) is missing, never a failure: :func:`ran` drops it before anything is scored,
  so it is in no answered count, PAR-2, SGM, test, profile or cactus plot. A pair that ran on
  another instance set than the best reads "k of n run" (or "k run, m in common with the
  best's n"); the tasks not run are counted apart, per
  tier and pair, with the reason (:func:`design`, :func:`not_run`).
- A task its formulation declined (status ``skipped``, the letter K;
  :func:`bench.report.data.was_declined`) is left out of every statistic in the same way: the
  instance is not applicable to that pair (ASlib's run status ``not_applicable``, "this
  algorithm can't be run on this instance", kept apart from timeout, memout and crash: Bischl
  et al. 2016, *ASlib: A benchmark library for algorithm selection*, Artificial Intelligence
  237, and the format's specification, github.com/coseal/aslib-spec). It is neither a time
  nor a failure: the pair is compared only on the instances it attempted ("k of n run, d
  declined") and counted under "declined" (:func:`declined_line`).
- Like with like, by instance sets: the reference pair is, of the pairs that answered any,
  one that attempted the most instances (of several with other sets, the fastest on the
  instances all of them attempted; :func:`_full`). The best is chosen among the pairs that
  attempted exactly its instances; a pair of another instance set is in the same max-T
  family, compared with the best on the instances both attempted, two-sided (one with fewer
  than MIN_INTERVAL instances in common is left out of it: :func:`_tests`), and listed after
  the others in its own block (:func:`_frame`): no pair
  is ranked above another on another set of instances.
- Each (pair, instance) is folded to the median of its repetitions and seeds
  (:func:`bench.report.data.per_instance`). The test's value is y = log(min(t, L) + shift): t the
  folded time, L the instance's time limit (shared by every pair on it), every unanswered
  instance at L (censored: a timeout or memout), shift :data:`~bench.report.data.SGM_SHIFT_S`.
  An error is no measurement, never censored (:mod:`bench.report.invalid`): an instance
  whose every task errored is missing like a task not run ("k of n run, e error"), and a
  pair with no other instance is in no verdict, listed apart by name.
- The best pair: no wrong or disagreeing answer, among those of the reference set the
  lowest mean y. No answered-count rule: a timeout is the largest value an instance can give.
- Every other pair against the best over the instances both ran: the factor exp(mean of the
  differences of y: the ratio of the geometric means of min(t, L) + shift, not of the SGMs
  shown; where censored times cap it a bound, :func:`factor`), its 95 % t-interval
  (:func:`bench.report.paired.log_interval`; "too few" below
  :data:`~bench.report.paired.MIN_INTERVAL` instances), and a step-down max-T permutation test
  of every pair against the best, re-selecting the best in every permutation
  (:func:`bench.report.paired.maxt`: a variant of Westfall & Young 1993, *Resampling-Based
  Multiple Testing*, algorithm 4.1, with an unstudentised statistic and fresh permutations
  among the pairs left at every step, as in Romano & Wolf 2005): one test per group over
  all its pairs, those of another instance set included (error control per group, not over
  the page), selection-aware, exact under censoring at the shared limit; equal statistics
  get equal p's, whatever the order of the pairs.
- Labels: *separated* (adjusted p < :data:`ALPHA` over at least MIN_INTERVAL instances:
  slower than the best, by the factor shown); for a pair of another instance set, tested
  two-sided in the same family, *faster where both ran* (:data:`FASTER`: adjusted p < ALPHA
  and faster there; never ranked above the best, whose instance set it did not run);
  *equivalent* (two one-sided tests: the 95 % interval, of positive width, within
  1/MARGIN .. MARGIN over at least MIN_INTERVAL instances, none censored; the same times on
  every instance are equivalent too; :func:`bench.report.paired.equivalent`); *inconclusive*
  otherwise. Beside them the group's separable factor: exp(c / sqrt(n)), c the least T the
  test's last step would separate (:func:`bench.report.paired.threshold`), n the instances
  the best ran: a pair still in that step is separated when its ratio of geometric means
  exceeds it (:data:`ALL_SEPARATED` where no pair is left in it). It reflects the data's
  spread: on 6 instances only a pair slower on every instance is separated (p = 2/64);
  where no permuted value has p below ALPHA (5 instances of two pairs: 2/32) the group
  separates nothing (:data:`NONE_SEPARABLE`). A pair whose errors lie beyond the instances it
  measured is never *equivalent* (:func:`bench.report.invalid.beyond`: its equivalence would
  be a selection's). A pair with a wrong answer is never best nor tested ("wrong answers").

The effort table beside the verdicts: :mod:`bench.report.efforts`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

import bench.report.invalid as invalid
import bench.report.paired as paired
import bench.report.untimed as untimed
from bench.report.data import SGM_SHIFT_S, declines, did_not_run, per_instance, was_declined
from bench.report.log_times import censored_log as censored_log
from bench.report.log_times import tier_apart as tier_apart
from bench.report.measured import DESIGN_NOTE as DESIGN_NOTE
from bench.report.measured import declined_line, not_run
from bench.report.measured import design as design
from bench.report.measured import spread as spread
from bench.report.sgm_bound import at_limit
from bench.report.sgm_bound import ratio_interval as ratio_interval
from bench.report.sgm_bound import sgm_interval as sgm_interval
from bench.report.units import duration, number, p_value
from bench.report.wording import ALL_SEPARATED as ALL_SEPARATED
from bench.report.wording import BOTH_CENSORED as BOTH_CENSORED
from bench.report.wording import CENSORED_SGM, NO_INTERVAL, sgm_words
from bench.report.wording import NONE_SEPARABLE as NONE_SEPARABLE
from bench.report.wording import TOO_FEW as TOO_FEW
from bench.report.wording import factor as factor
from bench.report.wording import label as label

ALPHA = paired.ALPHA
MARGIN = paired.MARGIN
SEED = paired.SEED
FEW = "few instances"
SEPARATED, EQUIVALENT, INCONCLUSIVE = "separated", invalid.EQUIVALENT, invalid.INCONCLUSIVE
#: the label of a pair of another instance set that is faster than the best on the
#: instances both ran, shown by its two-sided statistic in the max-T family
FASTER = "faster where both ran"
NOTE = ("Per puzzle and tier (a pooled row only where every tier has the same time limit): "
        "tasks that did not run are left out of everything (counted under 'not run'); best: "
        "the pair, without wrong answers and among those that attempted the reference pair's "
        "instances (of the pairs that answered any, one that attempted the most), with the "
        "lowest mean of log(min(t, limit) + shift) (a timeout or memout at the limit; an "
        "instance whose every task errored is no measurement, left out, never censored; shift "
        f"{SGM_SHIFT_S * 1000:g} ms), and the pairs equivalent to it ('≈'); answered: the "
        "best's answered / run; sgm: where it answered every instance it ran, the shifted "
        "geometric mean of its times with a 95 % t-interval on log(t + shift) "
        f"('{TOO_FEW}' below {paired.MIN_INTERVAL} instances); where it left k unanswered, "
        f"'≥ s ({CENSORED_SGM}: k of n at the limit)': the shifted geometric mean with each "
        "unanswered instance at its limit, a lower bound on that of its true times, with no "
        "interval (not PAR-2, which counts them at twice the limit); lead: the "
        "runner-up's factor over the best on the instances both ran (ratio of the "
        "geometric means of t + shift, not of the sgm shown, which subtracts it) with its 95 % "
        "t-interval and label; where censored times make the factor a bound, the bound alone: "
        f"'≥ f ({NO_INTERVAL})' where only the runner-up has censored times there, "
        f"'≤ f ({NO_INTERVAL})' where only the best has (no end of a t-interval over times "
        "at the limit is a bound: each moves either way as a censored time grows), "
        f"'f ({BOTH_CENSORED})' where both have (neither estimate nor bound). "
        f"Labels: '{SEPARATED}': a step-down max-T permutation test (a variant of "
        "Westfall-Young's: unstudentised statistic, pair labels permuted within each instance "
        "among the pairs that ran it, the best chosen again in every permutation, fresh "
        f"permutations at every step) gives p < {ALPHA:g} over at least {paired.MIN_INTERVAL} "
        f"instances (its null: the pairs' times are exchangeable on every instance, so a "
        f"pair whose times differ from the best's in spread alone can be separated); "
        f"'{EQUIVALENT}': the 95 % interval lies "
        f"within 1/{MARGIN:g}..{MARGIN:g}x (two one-sided tests) over at least "
        f"{paired.MIN_INTERVAL} instances without censored times, and has a width (a "
        "constant ratio on every instance is no interval: not equivalent, unless the times "
        f"are the same on every instance); '{INCONCLUSIVE}': "
        "neither, or equivalent over tiers pooled while one tier alone shows the factor outside "
        "the margin ('equivalent pooled, not on the T tier'). separable: the factor over the "
        "best above which a pair of the best's instance set still in the test's "
        f"last step is separated ('{NONE_SEPARABLE}': none could be; '{ALL_SEPARATED}': every "
        "pair of the best's instance set is separated). Error control is per cell (each "
        "row's test holds its level over all that row's pairs), not over the page: with many "
        "cells some separation by chance is expected. "
        "'k of n run': the pair ran on k of the best's n instances; 'k run, m in common with "
        "the best's n': on another set (', d declined': its formulation declined d "
        "instances); such pairs are in the same test, compared with the best on the "
        "instances both ran, two-sided ('separated' when "
        f"slower, '{FASTER}' when faster; one with fewer than {paired.MIN_INTERVAL} "
        "instances in common is left out of the test, with no p), and listed after the pairs of "
        "the best's set, never ranked above them. declined: instances a formulation declined (not "
        "applicable): no time and no failure, left out like tasks not run. A pair with a wrong "
        "answer is never best. " + invalid.BEYOND_NOTE)


def _order(g: pd.DataFrame, declined: pd.Series | None = None,
           errored: pd.Series | None = None) -> list[dict[str, Any]]:
    """Per pair: instances run (attempted and measured), answered, wrong (any wrong or
    disagreeing answer), SGM of the PAR-2 times over those instances with its interval (none
    below MIN_INTERVAL), the SGM with unanswered instances at the limit (an estimate with its
    interval where there are none, else a bound: :func:`bench.report.sgm_bound.at_limit`),
    the instances it declined and those left out as errors."""
    rows: list[dict[str, Any]] = []
    declined = declined if declined is not None else pd.Series(dtype=int)
    errored = errored if errored is not None else pd.Series(dtype=int)
    for pair, p in g.groupby("pair", sort=False):
        x = p["par2_s"].to_numpy(float)
        est, lo, hi = sgm_interval(x)
        if len(x) < paired.MIN_INTERVAL:
            lo = hi = math.nan
        rows.append({"pair": pair, "solver": p["solver"].iloc[0], "kind": p["kind"].iloc[0],
                     "instances": len(p), "solved": int(p["ok"].sum()),
                     "wrong": int(p["wrong"].sum()), "clean": not p["wrong"].any(),
                     "sgm": est, "sgm_s": est, "sgm_lo": lo, "sgm_hi": hi, **at_limit(p),
                     "common": 0, "ratio": math.nan, "ratio_lo": math.nan,
                     "ratio_hi": math.nan, "censored": "", "p": math.nan,
                     "verdict": "" if not p["wrong"].any() else "wrong answers", "run": "",
                     "apart": "",
                     "declined": int(declined.get(pair, 0)),
                     "errored": int(errored.get(pair, 0)), "beyond": 0})
    return rows


#: the per-pair table's columns (of :func:`_order`), for a group with no pair measured
_COLUMNS = ["pair", "solver", "kind", "instances", "solved", "wrong", "clean", "sgm", "sgm_s",
            "sgm_lo", "sgm_hi", "censored_n", "sgm_limit", "sgm_limit_lo", "sgm_limit_hi",
            "common", "ratio", "ratio_lo", "ratio_hi", "censored", "p", "verdict", "run", "apart",
            "declined", "errored", "beyond"]


@dataclass(frozen=True)
class Group:
    """One group's comparison: the per-pair table of :func:`compare` and the test's
    ``critical`` threshold of T (NaN when nothing was tested or no T could be separated) and
    smallest separable factor (NaN below MIN_INTERVAL instances or with nothing tested; inf
    when the test could separate no factor at this size)."""

    table: pd.DataFrame
    critical: float
    separable: float


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Best first, then the clean pairs that attempted the best's instance set by factor,
    then the clean pairs of another set (each compared with the best alone, on
    the instances both attempted: never ranked above a pair of another instance set), then
    those with wrong answers."""
    def key(r: dict[str, Any]) -> tuple[int, float, float, str]:
        ratio = float(r["ratio"])
        block = (0 if r["verdict"] == "best" else 3 if not r["clean"] else 2 if r["run"]
                 else 1)
        return (block, ratio if ratio == ratio else math.inf, float(r["sgm"]), str(r["pair"]))
    ordered: list[dict[str, Any]] = sorted(rows, key=key)
    return pd.DataFrame(ordered, columns=None if ordered else _COLUMNS).reset_index(drop=True)


def analyse(pi: pd.DataFrame, declined: pd.Series | None = None,
            untimed_n: pd.Series | None = None) -> Group:
    """One group's pairs (rows of :func:`bench.report.data.per_instance` of the tasks
    attempted, :func:`bench.report.data.attempted`; per pair the instances of the group it
    declined, ``declined``, :func:`bench.report.data.declines`, and those it answered without
    a time, ``untimed_n``, :func:`bench.report.untimed.per_pair`): ``pair``, ``instances``
    (run), ``solved``, ``wrong``, ``sgm_s`` with ``sgm_lo``/``sgm_hi`` (PAR-2, over the
    instances it ran), ``common`` (instances it and the best ran), ``ratio`` with
    ``ratio_lo``/``ratio_hi`` (NaN bounds below MIN_INTERVAL), ``censored`` (a censored time
    on the common instances: which pair, "other", "best", "both" or ""), ``p`` (max-T,
    step-down adjusted; two-sided for a pair of another instance set) and ``verdict``: "best",
    "separated", "equivalent", "inconclusive", :data:`FASTER` (a pair of another instance set
    only), "wrong answers" ("" for every pair when no pair can be best); ``run``: "k of n run"
    for a pair that ran k of the best's n instances, "k run, m in common with the best's n"
    for another set (", d declined", ", u untimed" where it declined some or answered some
    without a time), ``declined`` the instances it declined; ``apart``: for a group of several
    tiers, the tier that shows apart a pair the pooled test calls equivalent (its verdict then
    "inconclusive": :func:`tier_apart`), else "". Best first, then by factor (:func:`_frame`)."""
    whole, pi = pi, invalid.measured(pi)  # an error is no measurement: never a censored time
    rows = _order(pi, declined, invalid.errored(whole))
    clean = [r for r in rows if r["clean"]]
    if not clean:
        return Group(_frame(rows), math.nan, math.nan)
    y, ok = censored_log(pi)
    names = [str(r["pair"]) for r in clean]
    yy = y[names].to_numpy(float).T
    okk = ok[names].to_numpy(bool).T
    full = _full(yy, np.array([r["solved"] for r in clean]))
    bi, pvals, critical = _tests(yy, full)
    b = clean[bi]
    if b["solved"] == 0:  # nothing answered: no best, nothing to compare
        return Group(_frame(rows), math.nan, math.nan)
    n_best = int(b["instances"])
    b["verdict"], b["common"] = "best", n_best
    for j, r in enumerate(clean):
        if j == bi:
            continue
        both = ~np.isnan(yy[j]) & ~np.isnan(yy[bi])
        d = yy[j][both] - yy[bi][both]
        est, lo, hi = paired.log_interval(d)
        if len(d) < paired.MIN_INTERVAL:
            lo = hi = math.nan
        cens = {(True, True): "both", (True, False): "other", (False, True): "best"}.get(
            (bool((~okk[j][both]).any()), bool((~okk[bi][both]).any())), "")
        p = float(pvals[j])
        r.update(common=int(both.sum()), ratio=est, ratio_lo=lo, ratio_hi=hi, p=p,
                 censored=cens, verdict=(FASTER if not full[j] and est < 1 else SEPARATED)
                 if p < ALPHA and len(d) >= paired.MIN_INTERVAL
                 else EQUIVALENT if paired.equivalent(lo, hi, len(d), bool(cens))
                 else INCONCLUSIVE)
        if not np.array_equal(~np.isnan(yy[j]), ~np.isnan(yy[bi])):
            r["run"] = _run_words(r, int(both.sum()), n_best, untimed_n)
    invalid.restrict(clean, whole, str(b["pair"]))  # errors beyond what it measured
    for r in clean:  # a group that pools tiers: equivalent only where no tier shows it apart
        if r["verdict"] == EQUIVALENT and (tier := tier_apart(pi, b["pair"], r["pair"])):
            r["verdict"], r["apart"] = INCONCLUSIVE, tier
    tested = any(full[j] for j in range(len(clean)) if j != bi)  # the main test compared any
    sep = (math.nan if n_best < paired.MIN_INTERVAL or not tested else
           math.exp(critical / math.sqrt(n_best)) if math.isfinite(critical) else math.inf)
    return Group(_frame(rows), critical, sep)


def _run_words(r: dict[str, Any], common: int, n_best: int,
               untimed_n: pd.Series | None) -> str:
    """A pair's ``run`` words beside the best's instance set
    (:func:`bench.report.invalid.run_words`), then ", u untimed" where it answered ``u``
    instances without a time (:func:`bench.report.untimed.words`)."""
    u = int(untimed_n.get(r["pair"], 0)) if untimed_n is not None else 0
    return invalid.run_words(int(r["instances"]), common, n_best, r["declined"],
                             r["errored"]) + untimed.words(u)


def _full(yy: np.ndarray, solved: np.ndarray) -> np.ndarray:
    """Per pair (rows of ``yy``, log times, NaN where it did not attempt an instance):
    whether it attempted exactly the instance set of the reference pair. The reference is
    among the pairs that answered any (all when none did) one that attempted the most
    instances; of several such with other sets, the fastest on the instances all of them
    attempted. Sets, not counts: two pairs that each declined another instance are not
    alike."""
    att = ~np.isnan(yy)
    pool = np.flatnonzero(solved > 0) if (solved > 0).any() else np.arange(len(yy))
    counts = att[pool].sum(axis=1)
    cand = pool[counts == counts.max()]
    common = att[cand].all(axis=0)
    score = yy[cand][:, common].mean(axis=1) if common.any() else np.zeros(len(cand))
    ref = int(cand[int(np.argmin(score))])
    return np.asarray((att == att[ref]).all(axis=1))


def _tests(yy: np.ndarray, full: np.ndarray) -> tuple[int, np.ndarray, float]:
    """(best, p per pair, critical): one step-down max-T test (:func:`bench.report.paired.maxt`)
    of every pair against the best, chosen (in the data and in every permutation) among the
    pairs of the reference instance set (``full``, :func:`_full`); a pair of another set is
    in the same family, compared with that best on the instances both ran and two-sided (it
    may be slower or faster there). Like with like: a pair of another instance set is never
    chosen best, and one family holds the group's level over all its pairs. A pair of another
    set with fewer than MIN_INTERVAL instances in common with the best is left out of the
    family and its permutations (p NaN): no p could label it, and its few values would only
    widen the permuted maxima the others are tested against."""
    common = (~np.isnan(yy) & ~np.isnan(yy[int(np.argmax(full))])).sum(axis=1)
    keep = np.flatnonzero(full | (common >= paired.MIN_INTERVAL))
    main = paired.maxt(yy[keep], candidates=full[keep], two_sided=~full[keep])
    p = np.full(len(yy), np.nan)
    p[keep] = main.p
    return int(keep[main.best]), p, main.critical


def compare(pi: pd.DataFrame, declined: pd.Series | None = None,
            untimed_n: pd.Series | None = None) -> pd.DataFrame:
    """The per-pair table of :func:`analyse`."""
    return analyse(pi, declined, untimed_n).table


@dataclass(frozen=True)
class Cell:
    """One puzzle x tier verdict (the matrix row) and its overview sentences."""

    row: dict[str, object]
    lines: list[str]


def _inconclusive(inc: pd.DataFrame, separable: str, few: bool) -> str:
    """A cell sentence's clause on its inconclusive pairs ``inc`` ("" when none; ``few``: the
    best ran fewer than MIN_INTERVAL instances)."""
    if not len(inc):
        return ""
    can = ("the test's last step can separate no factor at this size; "
           if separable == NONE_SEPARABLE else
           f"the test's last step separates factors {separable}; "
           if separable.startswith("≥") else
           f"fewer than {paired.MIN_INTERVAL} instances separate no pair; " if few else "")
    n = int((inc["apart"].fillna("") != "").sum())  # equivalent pooled, apart on a tier
    unset = (inc["run"].fillna("") != "") & (inc.get("beyond", 0) == 0)  # of another set
    left = int((unset & pd.isna(inc.get("p", 0.0))).sum())  # too few in common: no test
    other = int(unset.sum()) - left
    why = [x for x in (
        can.removesuffix("; "),
        f"{other} of another instance set, tested only on the instances in common"
        if other else "",
        f"{left} of another instance set with fewer than {paired.MIN_INTERVAL} instances in "
        "common with the best, not tested" if left else "",
        f"{n} equivalent pooled, but apart on a tier" if n else "", invalid.clause(inc)) if x]
    return f"; {len(inc)} pair(s) inconclusive" + (f" ({'; '.join(why)})" if why else "")


def cell(puzzle: str, tier: str, pi: pd.DataFrame, not_run: int = 0,
         declined: pd.Series | None = None, untimed_n: pd.Series | None = None) -> Cell:
    """The verdict of one group of per-instance rows of tasks attempted (``not_run``: the
    group's tasks that did not run, shown apart; ``declined`` and ``untimed_n``: per pair the
    instances it declined and those it answered without a time, :func:`analyse`)."""
    n = int(pi["instance"].nunique())
    g = analyse(pi, declined, untimed_n)
    r = g.table
    lines: list[str] = []
    where = f"{puzzle}, {tier}"
    limits = sorted(set(pi["time_limit"].dropna().astype(float)))
    base = {"puzzle": puzzle, "tier": tier,
            "limit": " / ".join(duration(x) for x in limits) or "–",
            "instances": n, "not run": not_run,
            "declined": int(declined.sum()) if declined is not None else 0}
    for _, w in r[~r["clean"]].iterrows():
        lines.append(f"{where}: {w['pair']} gave {w['wrong']} wrong or disagreeing answer(s): "
                     "flagged, never ranked best.")
    lines += invalid.line(where, pi)
    if not len(r) or r.at[0, "verdict"] != "best":
        return Cell({**base, "best": "none", "answered": f"0/{n}", "sgm": "–", "lead": "–",
                     "separated": "–", "equivalent": "–", "inconclusive": "–",
                     "separable": "–", "note": FEW if n < paired.MIN_INTERVAL else ""},
                    [*lines, f"{where}: no pair without wrong answers answered any instance."])
    b = r.iloc[0]
    others = r.iloc[1:][r.iloc[1:]["clean"]]
    eq = others[others["verdict"] == EQUIVALENT]
    sep = others[others["verdict"] == SEPARATED]
    inc = others[others["verdict"] == INCONCLUSIVE]
    fast = others[others["verdict"] == FASTER]
    best = " ≈ ".join([str(b["pair"]), *invalid.named(eq.head(4))]) + (
        f" (+{len(eq) - 4} more equivalent)" if len(eq) > 4 else "")
    left = others[(others["run"].fillna("") == "") & (others["verdict"] != SEPARATED)]
    separable = ("–" if g.separable != g.separable or not len(others) else ALL_SEPARATED
                 if not len(left) else NONE_SEPARABLE
                 if math.isinf(g.separable) else f"≥ {number(g.separable)}x")
    row = {**base, "best": best, "answered": f"{int(b['solved'])}/{int(b['instances'])}",
           "sgm": sgm_words(b), "lead": "–",
           "separated": f"{len(sep)} of {len(others)}", "equivalent": invalid.counted(eq),
           "inconclusive": str(len(inc)), "separable": separable,
           "note": "; ".join(x for x in (
               FEW if n < paired.MIN_INTERVAL else "",
               f"{len(fast)} pair(s) of another instance set {FASTER}" if len(fast) else "")
               if x)}
    if len(others):
        o = others.iloc[0]
        row["lead"] = f"{factor(o)} {label(o)}: {o['pair']}"
        sentence = (f"{where}: {b['pair']} is best ({int(b['solved'])} of "
                    f"{int(b['instances'])} answered); the runner-up {o['pair']} "
                    f"({int(o['solved'])} of {int(o['instances'])}) takes {factor(o)} the "
                    f"best's time on the {int(o['common'])} both ran: {label(o)} "
                    f"(max-T p = {p_value(o['p'])})")
        sentence += _inconclusive(inc, separable, int(b["instances"]) < paired.MIN_INTERVAL)
        if len(fast):
            sentence += f"; {FASTER}: {', '.join(fast['pair'])} (of another instance set)"
        lines.insert(0, sentence + (f" [{row['note']}]" if row["note"] else "") + ".")
    else:
        lines.insert(0, f"{where}: {b['pair']} is the only pair.")
    return Cell(row, lines)


COLUMNS = ["puzzle", "tier", "limit", "instances", "not run", "declined", "best", "answered",
           "sgm", "lead", "separated", "equivalent", "inconclusive", "separable", "note"]


def matrix(t: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The overview: per puzzle one row per tier (in the suite's order of appearance) and a
    ``pooled`` row over all its instances where every tier has one time limit, with the
    overview sentences. ``t``: prepared task rows, with those that did not run (left out of
    every verdict, counted in "not run") and those their formulation declined (left out
    likewise, counted in "declined": instances, summed over pairs)."""
    rows, lines = [], []
    skipped, refused = did_not_run(t), was_declined(t)
    for puzzle, g in t.groupby("puzzle", sort=True):
        gone = g[skipped.loc[g.index]]
        dec = g[refused.loc[g.index]]
        g = g[~skipped.loc[g.index] & ~refused.loc[g.index]]
        pi = per_instance(g) if len(g) else pd.DataFrame()
        tiers = [x for x in dict.fromkeys(pd.concat([g["tier"], gone["tier"], dec["tier"]]))
                 if x]
        groups = [(x, pi[pi["tier"] == x] if len(pi) else pi, gone[gone["tier"] == x],
                   dec[dec["tier"] == x], g[g["tier"] == x]) for x in tiers]
        limits = sorted(set(g["time_limit"].dropna().astype(float)))
        if len(tiers) != 1 and len(limits) == 1:
            groups.append(("pooled", pi, gone, dec, g))
        elif len(tiers) != 1:
            lines.append(f"{puzzle}: no pooled row: its tiers have different time limits ("
                         + ", ".join(duration(x) for x in limits) + ").")
        for tier, sub, gone_t, dec_t, att in groups:
            rows.append(_matrix_row(str(puzzle), tier, sub, (gone_t, dec_t, att), lines))
        lines += not_run(str(puzzle), gone) + declined_line(str(puzzle), dec)
    return pd.DataFrame(rows).reindex(columns=COLUMNS).astype(object).fillna("–"), lines


def _matrix_row(puzzle: str, tier: str, sub: pd.DataFrame,
                rows: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame],
                lines: list[str]) -> dict[str, object]:
    """One row of :func:`matrix` (its sentences appended to ``lines``): ``sub`` the group's
    per-instance rows attempted; ``rows`` its task rows not run, those declined and those
    attempted (untimed ones included: :mod:`bench.report.untimed`)."""
    gone, dec, att = rows
    declined_n, unt = declines(dec), untimed.per_pair(att)
    if not len(sub):
        return {"puzzle": puzzle, "tier": tier, "instances": 0, "not run": len(gone),
                "declined": int(declined_n.sum()), "best": "none",
                "note": untimed.none_timed(att)}
    c = cell(puzzle, tier, sub, len(gone), declined_n, unt)
    absent = (set(gone["pair"]) | set(dec["pair"])) - set(sub["pair"]) - set(unt.index)
    bad = len(invalid.no_valid_answer(sub))
    c.row["note"] = "; ".join(x for x in (  # pairs whose every task did not run, was declined
        str(c.row["note"]), f"{len(absent)} pair(s) ran none" if absent else "",  # or errored
        untimed.absent(unt, sub), f"{bad} pair(s) with no valid answer" if bad else "") if x)
    lines += c.lines
    return c.row
