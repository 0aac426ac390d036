"""The report's tables and verdicts, computed from :func:`bench.report.data.prepare` rows."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

import bench.report.untimed as untimed
from bench.report.data import (
    PAR_K,
    SGM_SHIFT_S,
    attempted,
    declines,
    did_not_run,
    per_instance,
    ran,
    sgm,
)
from bench.report.growth import censored_slope as censored_slope
from bench.report.growth import slopes as slopes
from bench.report.invalid import (
    BEYOND_NOTE,
    NO_VALID,
    measured,
    named,
    no_valid_answer,
    tested,
)
from bench.report.paired import MIN_INTERVAL
from bench.report.units import duration, duration_range, number
from bench.report.verdicts import (
    ALPHA,
    EQUIVALENT,
    FASTER,
    INCONCLUSIVE,
    MARGIN,
    SEPARATED,
    TOO_FEW,
    compare,
    factor,
    label,
)
from bench.report.wording import CENSORED_SGM, NO_INTERVAL

#: the verdict labels, each with what it means, for the legend above the verdict matrix
LEGEND: list[tuple[str, str]] = [
    (SEPARATED, f"its times differ from the cell's best pair's by the max-T permutation "
                f"test (p < {ALPHA:g}, over at least {MIN_INTERVAL} instances; its null is that "
                "the pairs' "
                "times are exchangeable, so a wider spread alone can separate), with the "
                "factor and its 95 % interval saying by how much"),
    (EQUIVALENT, f"the 95 % interval of the factor lies within 1/{MARGIN:g}..{MARGIN:g}x "
                 "of the best (a pair with errors: on the instances it measured, named with "
                 "'k of n run, e error'; never where its errors lie beyond them, larger or "
                 "slower for the best than any it measured)"),
    (INCONCLUSIVE, "neither: these instances cannot tell the pair from the best (or, over "
                   "tiers pooled, equivalent while one tier alone shows it outside the margin: "
                   "the tier is named)"),
    (FASTER, "a pair of another instance set (it declined some instances) faster than the "
             "best on the instances both ran, by its two-sided statistic in the max-T test "
             f"(p < {ALPHA:g}); never ranked above the best"),
    ("not run", "tasks recorded without running: left out of every count, time and test"),
    ("declined", "instances a formulation declined (not applicable, K): no time and no failure, "
                 "left out likewise; its pair is compared only where it attempted"),
    ("untimed", "correct answers recorded without a build or solve time: no time and no "
                "failure, left out likewise (', u untimed': a pair's instances so left out; "
                "'untimed all': none of its answers timed)"),
]
#: verdict-matrix columns shown only after the reader asks for them (the rest fit 1400 px)
VERDICT_MORE = ["separable", "note"]

STATUS_LETTER = {"solved": "S", "infeasible": "I", "timeout": "T", "memout": "M",
                 "error": "E", "wrong": "W", "disagree": "D", "skipped": "K"}


def _rep_sgms(t: pd.DataFrame) -> pd.DataFrame:
    """Per pair and repetition (rep, seed): the SGM of its PAR-2 times over the instances every
    repetition of the pair covered (a run-to-run spread: a seed that ran on more instances,
    the hard tier's, say, would otherwise differ by its instances)."""
    if t.empty:
        return pd.DataFrame(columns=["min", "max", "size"])
    reps = t.groupby("pair")[["rep", "seed"]].apply(
        lambda g: len(g.drop_duplicates())).rename("reps")
    cover = t.groupby(["pair", "instance"])[["rep", "seed"]].apply(
        lambda g: len(g.drop_duplicates())).rename("cover").reset_index()
    cover = cover[cover["cover"] == cover["pair"].map(reps)]
    shared = t.merge(cover[["pair", "instance"]], on=["pair", "instance"])
    g = shared.groupby(["pair", "rep", "seed"])["par2_s"].apply(sgm)
    return g.groupby("pair").agg(["min", "max", "size"])


def _cv(raw: pd.DataFrame) -> float:
    """Median over instances of the coefficient of variation (standard deviation / mean) of
    the PAR-2 times of one pair's repetitions and seeds; nan without repeats."""
    per = raw.groupby("instance")["par2_s"].agg(["std", "mean", "size"])
    per = per[(per["size"] > 1) & (per["mean"] > 0)]
    return float((per["std"] / per["mean"]).median()) if len(per) else math.nan


def _iterations(raw: pd.DataFrame) -> str:
    """Solver calls per task of a lazy loop, "median / max" over the answered tasks ("" when
    every task took one call)."""
    it = raw.loc[raw["status"].isin(["solved", "infeasible"]), "iterations"].dropna() \
        if "iterations" in raw else pd.Series(dtype=float)
    if it.empty or it.max() <= 1:
        return ""
    return f"{number(it.median())} / {number(it.max())}"


def ranking(t: pd.DataFrame) -> pd.DataFrame:
    """Per pair of one puzzle, over the tasks attempted (:func:`bench.report.data.attempted`;
    a task that did not run, or that its formulation declined, has no time and counts
    nowhere): outcomes, PAR-2 (mean over the instances it attempted, an error counted
    unsolved as the score defines it), SGM (shift SGM_SHIFT_S) and median of the PAR-2 times
    over the instances it measured (:func:`bench.report.invalid.measured`: NaN where none),
    ``attempted`` "k/n" (n: the instances with a task that ran) and ``declined`` (the
    instances its formulation declined), and SGM / median over the instances every pair with
    a valid answer attempted and answered. In the order of
    :func:`bench.report.verdicts.compare`: the best first, then the pairs without wrong answers
    that attempted the best's instance set by their factor over the best, then those of another
    set, then those with wrong answers, then those with no valid answer (every task an error:
    :mod:`bench.report.invalid`, in no verdict), last the pairs that declined every instance
    or answered without a time every one they did not decline (:mod:`bench.report.untimed`);
    ``best`` marks the first row if it solved anything and gave no wrong answer; ``interval``
    the SGM's t-interval, ``x_best`` the ratio of its SGM to the best's over the instances
    both measured (NaN where there is no best), ``vs_best`` the factor over the best with its
    interval (:func:`bench.report.wording.factor`), ``p`` the max-T test and ``verdict`` the
    label of :func:`bench.report.verdicts.compare` (with "k of n run"); ``tie`` marks
    "equivalent"; ``instances`` the instances it attempted (repeats and seeds counted once)."""
    every = ran(t)
    t = attempted(t)
    pi = per_instance(t)
    mp = measured(pi)  # an error is no measurement: the time columns rest on these alone
    dec, unt = declines(every), untimed.per_pair(every)
    # like with like: an instance is common when every pair that measured any attempted and
    # answered it
    answered = mp.assign(ok=mp["ok"].astype(float)).pivot_table(
        index="instance", columns="pair", values="ok", aggfunc="first") if len(mp) else \
        pd.DataFrame()
    common = set(answered.index[(answered.fillna(0.0) > 0).all(axis=1)])
    total = int(every["instance"].nunique()) if len(every) else 0
    rows = [_rank_row(str(pair), g, mp[mp["pair"] == pair], t[t["pair"] == pair], common,
                      total, int(dec.get(pair, 0)))
            for pair, g in pi.groupby("pair", sort=False)]
    r = pd.DataFrame(rows)
    if r.empty:
        return _declined_only(r, every, (dec, unt), total)
    r = _verdicts(r.assign(common=len(common)), pi, dec, unt)
    top_solved = int(r["solved"].iloc[0])
    reps = _rep_sgms(t[t["status"] != "error"])  # the samples measured
    r["sgm_range"] = ""
    if len(reps) and reps["size"].max() > 1 and top_solved > 0:
        lo, hi = r["pair"].map(reps["min"]), r["pair"].map(reps["max"])
        r["sgm_range"] = [duration_range(a, b) for a, b in zip(lo, hi, strict=True)]
    return _declined_only(r, every, (dec, unt), total)


def _rank_row(pair: str, g: pd.DataFrame, m: pd.DataFrame, raw: pd.DataFrame, common: set[str],
              total: int, declined: int) -> dict[str, object]:
    """One pair's ranking row before the verdicts: ``g`` its per-instance rows, ``m`` those
    measured (:func:`bench.report.invalid.measured`: SGM and median rest on them alone, NaN
    where none is), ``raw`` its task rows (all attempted). ``par2_s`` is PAR-2 as defined,
    over every instance attempted, an error counted unsolved at twice the limit."""
    counts = raw["status"].value_counts()
    c = m[m["instance"].isin(common)]
    return {
        "formulation": g["formulation"].iloc[0], "solver": g["solver"].iloc[0],
        "instances": len(g), "attempted": f"{len(g)}/{total}", "declined": declined,
        "solved": int(g["ok"].sum()),
        "timeout": int(counts.get("timeout", 0)), "memout": int(counts.get("memout", 0)),
        "wrong": int(raw["wrong"].sum() + raw["disagree"].sum()),
        "error": int(counts.get("error", 0)),
        "par2_s": float(g["par2_s"].mean()), "sgm_s": sgm(m["par2_s"]),
        "median_s": float(m["par2_s"].median()) if len(m) else math.nan,
        "common_par2_s": float(c["par2_s"].mean()) if len(c) else math.nan,
        "common_sgm_s": sgm(c["par2_s"]) if len(c) else math.nan,
        "common_median_s": float(c["par2_s"].median()) if len(c) else math.nan,
        "iterations": _iterations(raw), "cv": _cv(raw[raw["status"] != "error"]),
        # one-time set-up kept apart from the solve (external peers' first call), median
        "setup_s": float(raw["setup_s"].median())
        if "setup_s" in raw and raw["setup_s"].notna().any() else math.nan,
        "form": g["form"].iloc[0], "kind": g["kind"].iloc[0], "pair": pair,
    }


def _declined_only(r: pd.DataFrame, every: pd.DataFrame, counts: tuple[pd.Series, pd.Series],
                   total: int) -> pd.DataFrame:
    """The ranking ``r`` with a last row for each pair with no instance measured because it
    declined every instance it was given or answered the rest without a time (``counts``: per
    pair its instances declined and untimed, :func:`bench.report.untimed.per_pair`): no time,
    no verdict ("declined all", or :func:`bench.report.untimed.all_words` where any was
    untimed), its declined count (it is visible, and ranked nowhere)."""
    dec, unt = counts
    rows = []
    for pair in sorted((set(dec.index) | set(unt.index)) - set(r["pair"] if len(r) else [])):
        g = every[every["pair"] == pair]
        rows.append({**dict.fromkeys(RANK_COLUMNS, math.nan), "common": 0,
                     "formulation": g["formulation"].iloc[0], "solver": g["solver"].iloc[0],
                     "instances": 0, "attempted": f"0/{total}",
                     "declined": int(dec.get(pair, 0)),
                     "solved": 0, "timeout": 0, "memout": 0, "wrong": 0, "error": 0,
                     "form": g["form"].iloc[0], "kind": g["kind"].iloc[0], "pair": pair,
                     "best": False, "tie": False, "clean": True,
                     "verdict": untimed.all_words(int(unt.get(pair, 0))) or "declined all",
                     "vs_best": "–", "interval": "–", "iterations": "", "sgm_range": "",
                     "run": ""})
    if not rows:  # nothing ran: no rows, but the columns every table of a ranking reads
        return r if len(r.columns) else pd.DataFrame(columns=[*RANK_COLUMNS, *_LATER])
    return pd.concat([r, pd.DataFrame(rows)], ignore_index=True) if len(r) else pd.DataFrame(
        rows)


def _verdicts(r: pd.DataFrame, pi: pd.DataFrame, dec: pd.Series,
              unt: pd.Series) -> pd.DataFrame:
    """The ranking rows ``r`` in the order of :func:`bench.report.verdicts.compare` over the
    per-instance rows ``pi`` (``dec``, ``unt``: per pair its declined and its untimed
    instances), with its verdict columns (see :func:`ranking`)."""
    r["clean"] = r["wrong"] == 0  # a pair with a wrong answer is never best
    v = compare(pi, dec, unt).set_index("pair")
    bad = set(no_valid_answer(pi).index)  # in no verdict: listed last, ranked nowhere
    r = r.set_index("pair").loc[[*v.index, *(p for p in r["pair"] if p in bad)]].reset_index()
    r["best"] = [i == 0 and bool(len(v)) and v["verdict"].iloc[0] == "best"
                 for i in range(len(r))]
    # no best (nothing answered, or no pair without wrong answers): no ratio to it ("–")
    r["x_best"] = _x_best(measured(pi), list(r["pair"])) if r["best"].iloc[0] else math.nan
    for col in ("sgm_lo", "sgm_hi", "ratio", "ratio_lo", "ratio_hi", "censored", "p",
                "verdict", "run"):
        r[col] = r["pair"].map(v[col])
    r["verdict"] = [NO_VALID if p in bad else label(v.loc[p]) for p in r["pair"]]
    cens = r["pair"].map(v["censored_n"]).fillna(0)
    r["interval"] = [CENSORED_SGM if k and p not in bad else duration_range(a, b, s) if a == a
                     else TOO_FEW if p not in bad else "–"
                     for a, b, s, p, k in zip(r["sgm_lo"], r["sgm_hi"], r["sgm_s"], r["pair"],
                                              cens, strict=True)]
    r["vs_best"] = ["–" if i == 0 or p in bad else factor(v.loc[p])
                    for i, p in enumerate(r["pair"])]
    r["tie"] = r["verdict"].str.startswith(EQUIVALENT) & bool(r["best"].iloc[0])
    return r


def _x_best(pi: pd.DataFrame, pairs: list[str]) -> list[float]:
    """Per pair (the first: the reference) the ratio of its SGM of PAR-2 times to the first
    pair's over the instances both measured (``pi``: the measured rows; NaN where they share
    none, where either measured nothing or the first's is 0)."""
    wide = pi.pivot_table(index="instance", columns="pair", values="par2_s", aggfunc="first") \
        if len(pi) else pd.DataFrame()
    if pairs[0] not in wide:
        return [math.nan] * len(pairs)
    ref = wide[pairs[0]]
    out = []
    for p in pairs:
        if p not in wide:
            out.append(math.nan)
            continue
        both = wide[p].notna() & ref.notna()
        base = sgm(ref[both]) if both.any() else math.nan
        out.append(sgm(wide.loc[both, p]) / base if base > 0 else math.nan)
    return out


def folded(r: pd.DataFrame) -> pd.DataFrame:
    """Per formulation (variants folded): its best variant x solver row of the ranking."""
    if r.empty:
        return r
    return r.drop_duplicates("form").reset_index(drop=True)


def verdict(puzzle: str, t: pd.DataFrame, r: pd.DataFrame,
            whole: pd.DataFrame | None = None) -> str:
    """One line in words, every number from the ranking; ``whole``: the task rows with those
    that did not run (for the reasons of :func:`_not_apart`; default ``t``)."""
    n = t["instance"].nunique()
    if r.empty or not r.loc[0, "best"]:
        return _no_best(puzzle, t, t if whole is None else whole)
    b = r.iloc[0]
    total = float(per_instance(t[t["pair"] == b["pair"]])["time_s"].sum())
    apart = _not_apart(r, t if whole is None else whole)
    line = (f"{puzzle}: {b['pair']}{apart} solves {b['solved']}/{n} in {duration(total)} total "
            f"(SGM {duration(b['sgm_s'])})")
    others = []
    for kind, g in r[r["kind"] != b["kind"]].groupby("kind", sort=False):
        o = g.iloc[0]
        ran_n = f"{o['solved']}/{n}" if o["instances"] == n else \
            f"{o['solved']} of the {o['instances']} it ran" + _declined_words(o)
        others.append(f"the best {kind.upper()}, {o['pair']}, solves {ran_n} ("
                      + (f"{o['vs_best']} the best's time where both ran)"
                         if o["vs_best"] != "–" else "no instance in common)"))
    if others:
        line += "; " + "; ".join(others)
    seed = r[r["form"].str.endswith("-seed")]
    if len(seed):
        s = seed.iloc[0]
        line += f"; the seed model {s['pair']} solves {s['solved']}/{n}" if s["instances"] == n \
            else (f"; the seed model {s['pair']} solves {s['solved']} of the {s['instances']} it "
                  "ran" + _declined_words(s))
    ties = r[r["tie"]]
    if len(ties):
        line += (f"; equivalent to it (95 % interval within 1/{MARGIN:g}..{MARGIN:g}x, all "
                 f"tiers pooled): {', '.join(named(ties))}")
    others_tested = tested(r)  # as the verdict matrix counts them
    sep = int(others_tested["verdict"].str.startswith(SEPARATED).sum())
    line += (f"; {sep} of {len(others_tested)} other pair(s) separated (max-T, all tiers pooled; a "
             "pair of another instance set two-sided, in the same test)")
    fast = r[r["verdict"].str.startswith(FASTER)]
    if len(fast):
        line += f"; {FASTER} (of another instance set): {', '.join(fast['pair'])}"
    none = r[r["verdict"] == NO_VALID]
    if len(none):
        line += (f"; {NO_VALID} (every task an error): "
                 + ", ".join(f"{p} ({e})" for p, e in zip(none["pair"], none["error"],
                                                         strict=True)))
    bad = r[r["wrong"] > 0]
    if len(bad):
        line += ("; wrong or disagreeing answers, never ranked best: "
                 + ", ".join(f"{p} ({w})" for p, w in zip(bad["pair"], bad["wrong"],
                                                          strict=True)))
    return line + "."


def _no_best(puzzle: str, t: pd.DataFrame, whole: pd.DataFrame) -> str:
    """The verdict line of a puzzle without a best pair (``t``: its task rows attempted and
    timed, ``whole``: all of them): no pair answered any instance, or, where some answered
    without a time (:mod:`bench.report.untimed`), none has a timed answer."""
    errs = int((t["status"] == "error").sum())
    every = attempted(whole, timed=False)
    u = int(untimed.untimed(every).sum()) if len(every) else 0
    if not u:
        return (f"{puzzle}: no formulation x solver answered any of the "
                f"{t['instance'].nunique()} instance(s) ({errs} of {len(t)} tasks ended in "
                "error); no best pair.")
    return (f"{puzzle}: no formulation x solver has a timed answer on any of the "
            f"{every['instance'].nunique()} instance(s) ({u} of {len(every)} tasks answered "
            f"without a build or solve time, untimed; {errs} ended in error); no best pair.")


def _not_apart(r: pd.DataFrame, t: pd.DataFrame) -> str:
    """" (best, not separated from X: its label)" where the runner-up (the next clean pair of
    the ranking ``r``) is not separated from the best, its label saying why ("k of n run"
    where it ran fewer of the best's instances), and where some of its tasks (``t``: the
    puzzle's task rows) did not run, the most frequent reason recorded; else ""."""
    rest = tested(r)
    if not len(rest) or str(rest.iloc[0]["verdict"]).startswith(SEPARATED):
        return ""
    o = rest.iloc[0]
    gone = t[(t["pair"] == o["pair"]) & did_not_run(t)]
    msg = gone["message"].fillna("").astype(str) if "message" in gone else gone["pair"]
    why = (f"; {len(gone)} of its tasks not run: {msg.value_counts().index[0]}"
           if len(gone) and msg.str.len().max() > 0 else "")
    return f" (best, not separated from {o['pair']}: {o['verdict']}{why})"


def _declined_words(row: pd.Series) -> str:
    """" (it declined d)" for a ranking row whose formulation declined instances, else ""."""
    d = int(row.get("declined", 0) or 0)
    return f" (it declined {d})" if d else ""


def status_letters(t: pd.DataFrame) -> pd.Series:
    """Each task's letter: :data:`STATUS_LETTER`, N for a task that did not run
    (:func:`bench.report.data.did_not_run`: a suite's ladder rule, or recorded without
    running), W for a wrong answer, D for infeasible although an exact formulation solved
    it."""
    letter = t["status"].map(STATUS_LETTER).fillna("?")
    letter = letter.where(t["wrong"].eq(False), "W").where(t["disagree"].eq(False), "D")
    return letter.where(~did_not_run(t), "N")


def status_matrix(t: pd.DataFrame) -> pd.DataFrame:
    """Instance x pair letters (S solved, I infeasible, T timeout, N not run by the ladder
    rule, M memout, E error, K skipped by the formulation, W wrong, D infeasible although an
    exact formulation solved it), problem instances first."""
    letter = status_letters(t)
    m = t.assign(letter=letter).pivot_table(index=["instance", "family"], columns="pair",
                                            values="letter", aggfunc=lambda s: "".join(sorted(
                                                set(s))))
    m.columns.name = None
    bad = m.apply(lambda row: sum(str(v) in ("W", "D") or "W" in str(v) or "D" in str(v)
                                  for v in row), axis=1)
    unsolved = m.apply(lambda row: sum(str(v) not in ("S", "I") for v in row), axis=1)
    order = sorted(range(len(m)), key=lambda i: (-bad.iloc[i], -unsolved.iloc[i],
                                                  m.index[i][0]))
    return m.iloc[order].reset_index()


def problems(t: pd.DataFrame) -> pd.DataFrame:
    """Wrong answers and disagreements first, then errors (their message names the phase and
    the formulation's ``file:line``), with their message, grouped by pair."""
    p = t[t["wrong"] | t["disagree"] | (t["status"] == "error")].copy()
    p["what"] = np.where(p["wrong"], "wrong", np.where(p["disagree"], "disagrees", "error"))
    p["order"] = p["what"].map({"wrong": 0, "disagrees": 1, "error": 2})
    cols = ["what", "instance", "formulation", "solver", "status", "message"]
    return p.sort_values(["order", "formulation", "solver", "instance"])[cols].reset_index(
        drop=True)


def overview(verdicts: dict[str, str], ranks: dict[str, pd.DataFrame]) -> pd.DataFrame:
    rows = []
    for puzzle, r in ranks.items():
        b = r.iloc[0] if len(r) and r.loc[0, "best"] else None
        rows.append({"puzzle": puzzle, "pairs": len(r),
                     "best": b["pair"] if b is not None else "none",
                     "solved": int(b["solved"]) if b is not None else 0,
                     "instances": int(r["instances"].max()) if len(r) else 0,
                     "sgm_s": float(b["sgm_s"]) if b is not None else math.nan})
    return pd.DataFrame(rows)


RANK_COLUMNS = ["formulation", "solver", "instances", "attempted", "declined", "solved",
                "timeout", "memout", "wrong", "error", "par2_s", "sgm_s", "interval", "median_s",
                "x_best", "vs_best", "p", "verdict", "common_par2_s", "common_sgm_s",
                "common_median_s", "iterations", "setup_s"]
#: the ranking's columns besides RANK_COLUMNS (:func:`_rank_row`, :func:`_verdicts`)
_LATER = ["pair", "form", "kind", "best", "tie", "clean", "run", "common", "sgm_range", "cv",
          "sgm_lo", "sgm_hi", "ratio", "ratio_lo", "ratio_hi", "censored"]
REPEAT_COLUMNS = ["sgm_range", "cv"]  # shown when a run has repeats or several seeds
SHIFT_NOTE = (f"Tasks that did not run (a suite's ladder rule) are left out of every column "
              f"but the status grid (N); so are the instances a formulation declined (not "
              f"applicable: no time and no failure; K in the status grid): instances is the "
              f"instances the pair attempted (its repeats and seeds of one counted once), "
              f"attempted those / the instances run, declined the instances it "
              f"declined, and every time column is over the instances it attempted (all but "
              f"PAR-{PAR_K} over those measured, below). "
              f"PAR-{PAR_K}: unsolved tasks count {PAR_K}x the time "
              f"limit, as the score is defined (an error too: it is the one column that counts "
              f"errors as time); sgm_s, median_s, x_best and common_*: over the instances "
              f"measured (an instance whose every task errored is no measurement, left out: "
              f"'–' where a pair measured none); sgm_s: shifted geometric mean of the "
              f"PAR-{PAR_K} times, shift {SGM_SHIFT_S * 1000:g} ms (fixed); interval: its 95 % "
              f"t-interval on log(t + shift) ('{TOO_FEW}' below 5 instances), for a pair that "
              f"answered every instance it ran ('{CENSORED_SGM}' where it left some "
              f"unanswered: PAR-{PAR_K} counts those at {PAR_K}x the limit, a penalty, not a "
              f"time, so no interval); the puzzle's "
              "ranking pools its tiers, whose time limits may differ (PAR-2 and SGM then mix "
              "their penalties: the verdict per tier is in the matrix at the top); rows in "
              "order: the best (of the pairs that attempted the reference instance set, the "
              "lowest mean of log(min(t, limit) + shift)), then by vs_best the pairs of that "
              "set, then those of another set (never ranked above them), then those with "
              "wrong answers, then those with no valid answer (every task an error: no "
              "measurement, in no verdict), then those that declined every instance; "
              "x_best: the ratio of "
              "SGMs to the best's over the instances both measured; vs_best: the factor over "
              "the best on the instances both ran (ratio of the geometric means of "
              "t + shift, an unanswered instance at its limit) with its 95 % t-interval; "
              "'≥' a bound where only this pair has unanswered ones, '≤' where only the best "
              f"has, without an interval ('{NO_INTERVAL}': neither end of a t-interval over "
              "times at the limit is a bound); p: the "
              "step-down max-T permutation test against the best (a variant of "
              "Westfall-Young's: unstudentised statistic, labels permuted within each instance, "
              "the best chosen again in every permutation, fresh permutations at every step); "
              f"verdict: '{SEPARATED}' when p < 0.05, '{EQUIVALENT}' when the interval lies "
              f"within 1/{MARGIN:g}..{MARGIN:g}x over 5 or more instances without unanswered "
              "ones, else 'inconclusive', with 'k of n run' where the pair ran another instance "
              "set than the best (in the same test, two-sided, on the instances both ran; "
              "'faster where both ran' when it is faster there); "
              "common_*: over the instances every pair with a valid answer attempted and "
              "answered; "
              "iterations: "
              "solver calls per task of a lazy loop (median / max); setup_s: median one-time "
              "set-up of a peer package, measured apart and not in the times; with repeats "
              "or seeds, sgm_range: the SGM of each repetition and seed, lowest .. highest, over "
              "the instances every repetition and seed of the pair covered, and cv: the median "
              "over instances of the coefficient of variation of the repeated times. "
              + BEYOND_NOTE)


def rank_columns(r: pd.DataFrame) -> list[str]:
    """The ranking's shown columns: the repeat spread only when there are repeats."""
    reps = bool(len(r)) and bool((r["sgm_range"] != "").any())
    return RANK_COLUMNS + (REPEAT_COLUMNS if reps else [])


def common_note(r: pd.DataFrame) -> str:
    n = int(r["common"].iloc[0]) if len(r) else 0
    return (f"common_*: over the {n} instance(s) that every pair with a valid answer "
            "answered."
            if n else "No instance was answered by every pair (common_* empty).")


def by_family(pi: pd.DataFrame, pairs: list[str]) -> pd.DataFrame:
    """Per shown pair and instance family: answered / instances attempted, and the SGM and
    median of the PAR-2 times of the instances measured (an instance whose every task ended in
    error is left out, :mod:`bench.report.invalid`; none measured: NaN)."""
    rows = []
    for (pair, fam), g in pi[pi["pair"].isin(pairs)].groupby(["pair", "family"], sort=False):
        m = measured(g)["par2_s"]
        rows.append({"pair": pair, "family": fam, "solved": f"{int(g['ok'].sum())}/{len(g)}",
                     "sgm_s": sgm(m) if len(m) else math.nan,
                     "median_s": float(m.median()) if len(m) else math.nan})
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    order = {p: i for i, p in enumerate(pairs)}
    return out.sort_values(["family", "pair"], key=lambda s: s.map(order) if s.name == "pair"
                           else s).reset_index(drop=True)
