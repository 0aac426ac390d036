"""SCIP, CBC and GLPK against HiGHS on each MIP formulation of a run, per puzzle and tier
(and pooled): answered counts, and each solver's SGM ratio to HiGHS over the instances both
answered with its seeded paired bootstrap interval and the Wilcoxon signed-rank p, Holm-adjusted
over the three solvers of a formulation and tier (the report's method, `bench.report.verdicts`).
Usage, from the repository root:
``python docs/results/2026-11-28-mip-solvers.py RUN [--tier hard] [--pooled]`` (a run or
report folder: anything holding ``results.parquet`` or ``journal.jsonl``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.report.data import load_run, prepare
from bench.report.verdicts import holm, per_instance, ratio_interval, signed_rank_p

BASE = "highs"
OTHERS = ("scip", "cbc", "glpk")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--tier", action="append", help="only these tiers (default: each)")
    ap.add_argument("--pooled", action="store_true", help="the tiers of a puzzle together")
    a = ap.parse_args()
    pi = per_instance(prepare(load_run(a.run).df))
    pi = pi[pi["kind"] == "mip"]
    if a.tier:
        pi = pi[pi["tier"].isin(a.tier)]
    if a.pooled:
        pi = pi.assign(tier="pooled")
    print("| puzzle | formulation | tier | n | " + " | ".join(("HiGHS", *OTHERS)) + " |")
    print("|---|---|---|---|" + "---|" * (1 + len(OTHERS)))
    for (puzzle, form, tier), g in pi.groupby(["puzzle", "formulation", "tier"], sort=True):
        wide = g.pivot_table(index="instance", columns="solver", values="par2_s",
                             aggfunc="first")
        ok = g.pivot_table(index="instance", columns="solver", values="ok",
                           aggfunc="first").fillna(False).astype(bool)
        if BASE not in ok:
            continue
        n = len(ok)
        cells, ps = [], []
        for s in OTHERS:
            if s not in ok:
                cells.append(("–", None))
                ps.append(np.nan)
                continue
            both = ok[s] & ok[BASE]
            a, b = wide.loc[both, s].to_numpy(float), wide.loc[both, BASE].to_numpy(float)
            r, lo, hi = ratio_interval(a, b)  # NaN when nothing is in common
            p = float(signed_rank_p(a, b))  # NaN when nothing is in common
            ps.append(p)
            iv = f"{r:.2f}x [{lo:.2f}–{hi:.2f}]" if r == r else "–"
            cells.append((f"{int(ok[s].sum())}/{n}, {iv} on {int(both.sum())}", p))
        adj = holm(np.array(ps))
        out = []
        for (text, p), q in zip(cells, adj, strict=True):
            out.append(text if p is None or q != q else f"{text}, p {q:.2g}")
        print(f"| {puzzle} | `{form}` | {tier} | {n} | {int(ok[BASE].sum())}/{n} | "
              + " | ".join(out) + " |")


if __name__ == "__main__":
    main()
