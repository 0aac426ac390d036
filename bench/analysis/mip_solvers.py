"""SCIP, CBC and GLPK against HiGHS on each MIP formulation of a run, per puzzle and tier (or the
tiers of a puzzle pooled): answered counts, and each solver's ratio to HiGHS of the geometric
means of the PAR-2 times plus the 10 ms shift over the instances both answered, with its 95 %
t-interval (the report's, :func:`bench.report.verdicts.ratio_interval`), and the Wilcoxon
signed-rank p, Holm-adjusted over the three solvers of a formulation and tier.

Usage: ``python -m bench.analysis.mip_solvers RUN [--tier TIER ...] [--pooled]`` (a run or
report folder); prints a Markdown table, one row per puzzle, formulation and tier that HiGHS
ran. A cell reads ``answered/n, ratio x [lo-hi] on common, p P``; ``–`` where the solver did
not run.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from bench.report.data import ReportError, load_run, prepare
from bench.report.verdicts import SGM_SHIFT_S, per_instance, ratio_interval


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values along the last axis (vectorised over the leading
    axes): sorted p_(i) times (m - i + 1), a running maximum, capped at 1; NaN stays NaN and is
    not counted in m (Holm 1979; checked against statsmodels in the tests)."""
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


BASE = "highs"
OTHERS = ("scip", "cbc", "glpk")
HEADER = ("| puzzle | formulation | tier | n | HiGHS | " + " | ".join(OTHERS) + " |",
          "|---|---|---|---|" + "---|" * (1 + len(OTHERS)))


def rows(df: pd.DataFrame, tiers: Sequence[str] = (), pooled: bool = False) -> list[str]:
    """The table's body rows for a run's results table (``load_run(...).df``)."""
    pi = per_instance(prepare(df))
    pi = pi[pi["kind"] == "mip"]
    if tiers:
        pi = pi[pi["tier"].isin(tiers)]
    if pooled:
        pi = pi.assign(tier="pooled")
    out = []
    for (puzzle, form, tier), g in pi.groupby(["puzzle", "formulation", "tier"], sort=True):
        wide = g.pivot_table(index="instance", columns="solver", values="par2_s",
                             aggfunc="first")
        ok = g.pivot_table(index="instance", columns="solver", values="ok",
                           aggfunc="first").fillna(False).astype(bool)
        if BASE not in ok:
            continue
        n = len(ok)
        cells: list[tuple[str, float | None]] = []
        for s in OTHERS:
            if s not in ok:
                cells.append(("–", None))
                continue
            both = ok[s] & ok[BASE]
            a, b = wide.loc[both, s].to_numpy(float), wide.loc[both, BASE].to_numpy(float)
            r, lo, hi = ratio_interval(a, b)  # NaN when nothing is in common
            iv = f"{r:.2f}x [{lo:.2f}–{hi:.2f}]" if r == r else "–"
            cells.append((f"{int(ok[s].sum())}/{n}, {iv} on {int(both.sum())}",
                          float(signed_rank_p(a, b))))  # NaN when nothing is in common
        adj = holm(np.array([np.nan if p is None else p for _, p in cells]))
        text = [t if p is None or q != q else f"{t}, p {q:.2g}"
                for (t, p), q in zip(cells, adj, strict=True)]
        out.append(f"| {puzzle} | `{form}` | {tier} | {n} | {int(ok[BASE].sum())}/{n} | "
                   + " | ".join(text) + " |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.analysis.mip_solvers",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="a run or report folder")
    ap.add_argument("--tier", action="append", default=[], help="only these tiers (default: each)")
    ap.add_argument("--pooled", action="store_true", help="the tiers of a puzzle together")
    args = ap.parse_args(argv)
    try:
        body = rows(load_run(args.run).df, args.tier, args.pooled)
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("\n".join((*HEADER, *body)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
