"""Verdicts that say how sure they are: per pair the shifted geometric mean (SGM) with a
bootstrap interval, the ratio to the best pair with its interval, a paired test against the
best, and the puzzle x tier matrix of the overview.

Method (the same for every group of instances: a puzzle's tier, or the puzzle pooled):

- Each (pair, instance) is first folded to the median of its repetitions and seeds
  (:func:`bench.report.data.per_instance`; unanswered tasks at PAR-2).
- SGM (shift :data:`~bench.report.data.SGM_SHIFT_S`) with a 95 % percentile bootstrap interval
  over instances (``scipy.stats.bootstrap``, :data:`RESAMPLES` resamples, seeded with
  :data:`SEED`: a report is reproducible).
- The best pair: no wrong or disagreeing answer, the most instances answered, then the lowest
  SGM. A pair with a wrong answer is never best (flagged, named in the overview).
- Every other pair against the best over the instances both answered: the ratio of their SGMs
  with a paired bootstrap interval, and the Wilcoxon signed-rank test on the differences of the
  log times (log(t + shift)), two-sided, exact for small samples; the p-values of a group are
  Holm-adjusted (:func:`holm`, Holm 1979, checked against statsmodels in the tests).
- Decision: a pair is tied with the best ("≈ best") when it answered as many instances and its
  Holm-adjusted p is at least :data:`ALPHA`; the interval is shown, never used to decide. The
  smallest two-sided exact signed-rank p over n instances is 2/2^n (every difference of one
  sign), and Holm multiplies the smallest of m p-values by m, so where m·2^(1−n) >= ALPHA for
  the best's n answered instances (:func:`least_holm_p`) no pair can be separated by the test:
  n <= 5 for any m, n <= 8 for the 7-8 pairs of a default-suite tier. Such groups show a tie
  for every pair that answered as many as the best, and say so ("ties forced"); only answered
  counts separate pairs there.
- A group of fewer than :data:`FEW_INSTANCES` instances, or whose pairs share fewer than
  :data:`FEW_COMMON` answered instances, carries the mark "few instances".

Effort (:func:`effort`): among the pairs of one solver, the SGM of a machine-independent
counter (conflicts, simplex iterations, nodes, branches) over the instances all of them
answered, ranked beside time; where the two orders differ, a sentence says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from bench.effort import ranking
from bench.records import NOT_RUN
from bench.report.data import SGM_SHIFT_S, per_instance

ALPHA = 0.05
FEW_INSTANCES = 10
FEW_COMMON = 5
RESAMPLES = 1000
SEED = 12345
FEW = "few instances"
NOTE = (f"Per puzzle and tier: best, the best pair and every pair tied with it ('≈': "
        f"Holm-adjusted Wilcoxon signed-rank p >= {ALPHA:g} against the best over the "
        "instances both answered, and as many answered); sgm: the best's shifted geometric "
        f"mean (shift {SGM_SHIFT_S * 1000:g} ms) with its 95 % bootstrap interval over "
        "instances (seeded); lead: the SGM ratio of the runner-up to the best over the "
        "instances both answered, with its interval (shown, not used to decide); where the "
        "runner-up is the faster of the two there, it is named with the inverse ratio "
        "('faster on N common') beside the best's margin in answered instances; separated: "
        "pairs slower or answering fewer. "
        f"'{FEW}': fewer than {FEW_INSTANCES} instances or fewer than {FEW_COMMON} answered by "
        "every pair; 'ties forced': a pair answered as many as the best, but the best "
        "answered too few instances for the test to separate any of the m pairs compared "
        f"with it (the smallest Holm-adjusted p, m x 2^(1-n) over n instances, is at least "
        f"{ALPHA:g}); there only answered counts separate pairs. A pair with a wrong answer "
        "is never best. pooled: all tiers of the puzzle together.")
#: effort counters, in the order of preference, per model kind (bench.effort)
EFFORT = ranking()


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values along the last axis (vectorised over the leading
    axes): sorted p_(i) times (m - i + 1), a running maximum, capped at 1; NaN stays NaN and is
    not counted in m. (statsmodels' ``multipletests(method="holm")`` computes the same and the
    tests compare the two; it is not used here because it runs a garbage collection per
    call.)"""
    p = np.asarray(p, dtype=float)
    nan = np.isnan(p)
    m = (~nan).sum(axis=-1, keepdims=True)
    order = np.argsort(np.where(nan, np.inf, p), axis=-1)
    ps = np.take_along_axis(np.where(nan, np.inf, p), order, axis=-1)
    rank = np.arange(p.shape[-1])
    with np.errstate(invalid="ignore"):  # inf x 0 past the last real p: NaN there anyway
        adj = np.maximum.accumulate(np.minimum(ps * (m - rank), 1.0), axis=-1)
    out = np.empty_like(adj)
    np.put_along_axis(out, order, adj, axis=-1)
    return np.where(nan, np.nan, out)


def least_holm_p(n: int, m: int) -> float:
    """The smallest Holm-adjusted p the two-sided exact signed-rank test can give when m pairs
    are each compared with the best over at most n instances: m x 2/2^n (capped at 1)."""
    return min(1.0, m * 2.0 ** (1 - n)) if n > 0 and m > 0 else 1.0


def signed_rank_p(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two-sided Wilcoxon signed-rank p of log(a + shift) - log(b + shift) along the last axis
    (vectorised over the leading axes); 1 where every difference is zero, NaN when empty."""
    d = np.log(np.asarray(a, float) + SGM_SHIFT_S) - np.log(np.asarray(b, float) + SGM_SHIFT_S)
    if d.shape[-1] == 0:
        return np.full(d.shape[:-1], np.nan)
    zero = np.all(d == 0, axis=-1)
    filler = np.arange(1.0, d.shape[-1] + 1)  # any untied values: the p is replaced by 1
    with np.errstate(all="ignore"):
        p = np.asarray(stats.wilcoxon(np.where(zero[..., None], filler, d), axis=-1).pvalue,
                       dtype=float)
    return np.where(zero, 1.0, p)


def _sgm(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.exp(np.mean(np.log(x + SGM_SHIFT_S), axis=axis)) - SGM_SHIFT_S


def _ratio(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    return _sgm(a, axis) / _sgm(b, axis)


def sgm_interval(x: np.ndarray) -> tuple[float, float, float]:
    """SGM of ``x`` and its seeded 95 % percentile bootstrap interval (NaN below 2 values)."""
    x = np.asarray(x, dtype=float)
    est = float(_sgm(x)) if len(x) else math.nan
    if len(x) < 2 or np.all(x == x[0]):
        return est, est, est
    ci = stats.bootstrap((x,), _sgm, n_resamples=RESAMPLES, method="percentile",
                         vectorized=True, rng=np.random.default_rng(SEED)).confidence_interval
    return est, float(ci.low), float(ci.high)


def ratio_interval(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """SGM(a) / SGM(b) over paired instances (as ``x_best``), with a seeded paired 95 %
    percentile bootstrap interval (the ratio alone below 2 pairs)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if len(a) == 0:
        return math.nan, math.nan, math.nan
    est = float(_ratio(a, b))
    if len(a) < 2 or np.all(a - b == (a - b)[0]):
        return est, est, est
    ci = stats.bootstrap((a, b), _ratio, n_resamples=RESAMPLES, method="percentile",
                         paired=True, vectorized=True,
                         rng=np.random.default_rng(SEED)).confidence_interval
    return est, float(ci.low), float(ci.high)


def _order(g: pd.DataFrame) -> pd.DataFrame:
    """Per pair: instances, answered, wrong (any wrong or disagreeing answer), SGM; sorted
    with the pairs without wrong answers first, then most answered, then SGM."""
    rows = []
    for pair, p in g.groupby("pair", sort=False):
        rows.append({"pair": pair, "solver": p["solver"].iloc[0], "kind": p["kind"].iloc[0],
                     "instances": len(p), "solved": int(p["ok"].sum()),
                     "wrong": int(p["wrong"].sum()), "sgm": float(_sgm(p["par2_s"].to_numpy()))})
    r = pd.DataFrame(rows)
    r["clean"] = r["wrong"] == 0
    return r.sort_values(["clean", "solved", "sgm", "pair"],
                         ascending=[False, False, True, True]).reset_index(drop=True)


def compare(pi: pd.DataFrame) -> pd.DataFrame:
    """One group's pairs (rows of :func:`bench.report.data.per_instance`, with ``wrong``):
    ``pair``, ``solved``/``instances``, ``wrong``, ``sgm_s`` with ``sgm_lo``/``sgm_hi``,
    ``common`` (instances both this pair and the best answered), ``ratio`` with
    ``ratio_lo``/``ratio_hi``, ``p``, ``p_holm`` and ``verdict``: "best", "≈ best",
    "slower", "faster on common" (answered as many, separated, but faster where both
    answered: the SGM over all instances put the best first), "fewer solved", "wrong
    answers"; best first, in the order of the ranking."""
    r = _order(pi)
    ci = [sgm_interval(pi.loc[pi["pair"] == p, "par2_s"].to_numpy()) for p in r["pair"]]
    r["sgm_s"], r["sgm_lo"], r["sgm_hi"] = zip(*ci, strict=True) if ci else ((), (), ())
    best = r.iloc[0] if len(r) and r["clean"].iloc[0] and r["solved"].iloc[0] > 0 else None
    if best is None:
        for k in ("common", "ratio", "ratio_lo", "ratio_hi", "p", "p_holm"):
            r[k] = math.nan
        r["verdict"] = np.where(r["clean"], "", "wrong answers")
        return r
    wide = pi.pivot_table(index="instance", columns="pair", values="par2_s", aggfunc="first")
    okw = pi.pivot_table(index="instance", columns="pair", values="ok",
                         aggfunc="first").fillna(False).astype(bool)
    mine = okw[best["pair"]]
    common, ratios, ps = [int(mine.sum())], [(1.0, 1.0, 1.0)], [math.nan]
    for pair in r["pair"].iloc[1:]:
        both = okw[pair] & mine
        a, b = wide.loc[both, pair].to_numpy(float), wide.loc[both, best["pair"]].to_numpy(float)
        common.append(len(a))
        ratios.append(ratio_interval(a, b))
        ps.append(float(signed_rank_p(a, b)) if len(a) else math.nan)
    r["common"] = common
    r["ratio"], r["ratio_lo"], r["ratio_hi"] = zip(*ratios, strict=True)
    r["p"] = ps
    r["p_holm"] = np.concatenate([[math.nan], holm(np.array(ps[1:]))]) if len(r) > 1 \
        else [math.nan]
    r["verdict"] = [_verdict(row, int(best["solved"])) if i else "best"
                    for i, row in r.iterrows()]
    return r


def _verdict(row: pd.Series, best_solved: int) -> str:
    if not row["clean"]:
        return "wrong answers"
    if row["solved"] < best_solved:
        return "fewer solved"
    if not row["p_holm"] < ALPHA:  # NaN (nothing in common) is no evidence either way
        return "≈ best"
    return "slower" if row["ratio"] >= 1 else "faster on common"


def _iv(ratio: float, lo: float, hi: float) -> str:
    return "–" if ratio != ratio else f"{ratio:.3g}x [{lo:.3g}–{hi:.3g}]"


@dataclass(frozen=True)
class Cell:
    """One puzzle x tier verdict (the matrix row) and its overview sentences."""

    row: dict[str, object]
    lines: list[str]


def cell(puzzle: str, tier: str, pi: pd.DataFrame) -> Cell:
    """The verdict of one group of per-instance rows."""
    n = int(pi["instance"].nunique())
    r = compare(pi)
    lines: list[str] = []
    marks = []
    where = f"{puzzle}, {tier}"
    for _, w in r[~r["clean"]].iterrows():
        lines.append(f"{where}: {w['pair']} gave {w['wrong']} wrong or disagreeing answer(s): "
                     "flagged, never ranked best.")
    if not len(r) or r.at[0, "verdict"] != "best":
        return Cell({"puzzle": puzzle, "tier": tier, "instances": n, "best": "none",
                     "solved": f"0/{n}", "lead": "–", "separated": "–",
                     "note": FEW if n < FEW_INSTANCES else ""},
                    [*lines, f"{where}: no pair without wrong answers answered any instance."])
    b = r.iloc[0]
    ties = r[r["verdict"] == "≈ best"]
    everyone = int(pi.groupby("instance")["ok"].all().sum())  # the common_* instances
    if n < FEW_INSTANCES or everyone < FEW_COMMON:
        marks.append(FEW)
    tested = int(r["p"].iloc[1:].notna().sum())
    floor = least_holm_p(int(b["solved"]), tested)
    level = r.iloc[1:]["clean"] & (r.iloc[1:]["solved"] == b["solved"])  # the test decides
    if level.any() and floor >= ALPHA:
        marks.append(f"best answered {int(b['solved'])}, {tested} pairs tested: Holm p >= "
                     f"{floor:.2g}, ties forced")
    best = " ≈ ".join([str(b["pair"]), *ties["pair"].head(4)]) + (
        f" (+{len(ties) - 4} more tied)" if len(ties) > 4 else "")
    sep = r[r["verdict"].isin(["slower", "fewer solved"])]
    row = {"puzzle": puzzle, "tier": tier, "instances": n, "best": best,
           "solved": f"{int(b['solved'])}/{n}",
           "sgm": _iv(b["sgm_s"] * 1000, b["sgm_lo"] * 1000, b["sgm_hi"] * 1000).replace(
               "x", " ms", 1),
           "lead": "–", "separated": f"{len(sep)} of {len(r) - 1}", "note": "; ".join(marks)}
    if len(r) > 1:
        o = r.iloc[1]
        row["lead"], sentence = _lead(b, o)
        lines.insert(0, f"{where}: {sentence}"
                        + (f"; {len(ties)} pair(s) tied with the best" if len(ties) else "")
                        + (f" [{'; '.join(marks)}]" if marks else "") + ".")
    else:
        lines.insert(0, f"{where}: {b['pair']} is the only pair.")
    return Cell(row, lines)


def _lead(b: pd.Series, o: pd.Series) -> tuple[str, str]:
    """The matrix's lead cell and the overview sentence for the best ``b`` and the runner-up
    ``o``, true whichever way the ratio over their common instances goes: where the runner-up
    is faster there (a ratio below 1: the best is first by solved count, or by its SGM over
    all instances when the two answered different ones), the sentence names it as the faster
    pair on the common instances, with the inverted ratio and interval."""
    ratio, lo, hi, common = o["ratio"], o["ratio_lo"], o["ratio_hi"], int(o["common"])
    test = (f"Holm p = {o['p_holm']:.2g}, {common} common")
    fewer = o["verdict"] == "fewer solved"
    solved = (f"{b['pair']} answers {int(b['solved'])} against {int(o['solved'])} for "
              f"{o['pair']}")
    if ratio != ratio:  # nothing answered in common
        return (f"+{int(b['solved']) - int(o['solved'])} answered over {o['pair']}",
                f"{solved}; none in common")
    if ratio >= 1:
        cell = f"{_iv(ratio, lo, hi)} over {o['pair']}"
        if fewer:
            return (cell, f"{solved}, and on the {common} both answered leads it by "
                          f"{_iv(ratio, lo, hi)}")
        how = "not distinguishable" if o["verdict"] == "≈ best" else "separated"
        return cell, f"{b['pair']} leads {o['pair']} by {_iv(ratio, lo, hi)}: {how} ({test})"
    inv = _iv(1 / ratio, 1 / hi, 1 / lo)
    cell = f"{o['pair']} {inv} faster on {common} common"
    if fewer:
        return (f"+{int(b['solved']) - int(o['solved'])} answered; {cell}",
                f"{solved}, but on the {common} both answered {o['pair']} is faster, by {inv}")
    how = "not distinguishable" if o["verdict"] == "≈ best" else "separated"
    return (cell, f"{b['pair']} has the lower SGM over all instances (PAR-2), but on the "
                  f"{common} both answered {o['pair']} is faster, by {inv}: {how} ({test})")


def matrix(t: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The overview: per puzzle one row per tier (in the suite's order of appearance) and a
    ``pooled`` row over all its instances, with the overview sentences."""
    rows, lines = [], []
    for puzzle, g in t.groupby("puzzle", sort=True):
        pi = per_instance(g)
        tiers = [x for x in dict.fromkeys(g["tier"]) if x]
        groups = [(x, pi[pi["tier"] == x]) for x in tiers]
        if len(tiers) != 1:
            groups.append(("pooled", pi))
        for tier, sub in groups:
            c = cell(str(puzzle), tier, sub)
            rows.append(c.row)
            lines += c.lines
        lines += not_run(str(puzzle), g)
    cols = ["puzzle", "tier", "instances", "best", "solved", "sgm", "lead", "separated", "note"]
    return pd.DataFrame(rows).reindex(columns=cols).astype(object).fillna("–"), lines


def not_run(puzzle: str, g: pd.DataFrame) -> list[str]:
    """The sentence naming a puzzle's tasks recorded without running by a suite's ladder rule
    (:data:`bench.records.NOT_RUN`), per pair; none when there are none."""
    if "message" not in g:
        return []
    nr = g[g["status"].eq("timeout") & g["message"].fillna("").astype(str).str.startswith(
        NOT_RUN)]
    if nr.empty:
        return []
    per = ", ".join(f"{p} ({n})" for p, n in nr["pair"].value_counts().sort_index().items())
    return [f"{puzzle}: {len(nr)} task(s) not run by the suite's ladder rule (the pair had "
            "timed out on an earlier instance of the same generated family: a smaller one, or "
            "the same size with an earlier seed); counted as "
            f"timeouts, unsolved: {per}."]


def effort(t: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Per puzzle and solver with at least two formulations: each pair's SGM (shift 1) of an effort
    counter and of its time over the instances all of them answered, both ranks, and a
    sentence per solver where the ranks differ."""
    rows, lines = [], []
    for (puzzle, solver), g in t[t["ok"]].groupby(["puzzle", "solver"], sort=True):
        kind = str(g["kind"].iloc[0])
        metric = next((m for m in EFFORT.get(kind, ()) if m in g and g[m].notna().any()), None)
        if metric is None or g["pair"].nunique() < 2:
            continue
        g = g[g[metric].notna()]
        med = g.groupby(["pair", "instance"]).agg(e=(metric, "median"), s=("par2_s", "median"))
        e, s = med["e"].unstack("pair").dropna(), med["s"].unstack("pair").dropna()
        common = e.index.intersection(s.index)
        if len(common) == 0 or e.shape[1] < 2:
            continue
        es = np.exp(np.log(e.loc[common].astype(float) + 1).mean()) - 1
        ts = _sgm(s.loc[common].to_numpy(float), axis=0)
        tab = pd.DataFrame({"puzzle": puzzle, "solver": solver, "pair": e.columns, "metric": metric,
                            "effort": es.to_numpy(), "time_s": ts, "common": len(common)})
        tab["effort_rank"] = tab["effort"].rank(method="min").astype(int)
        tab["time_rank"] = tab["time_s"].rank(method="min").astype(int)
        rows.append(tab.sort_values("time_rank"))
        te, tt = tab["effort"].to_numpy(), tab["time_s"].to_numpy()
        if np.any((tt[:, None] < tt[None, :]) & (te[:, None] > te[None, :])):
            by_t = " < ".join(tab.sort_values("time_s")["pair"].str.split(" / ").str[0])
            by_e = " < ".join(tab.sort_values("effort")["pair"].str.split(" / ").str[0])
            lines.append(f"{puzzle}, {solver}: time and {metric} disagree over "
                         f"{len(common)} common instances: by time {by_t}; by {metric} {by_e}.")
    out = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
    return out, lines
