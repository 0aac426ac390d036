"""The effort table of a report: among the pairs of one solver, a machine-independent counter
(conflicts, simplex iterations, nodes, branches; the first the solver's kind reports, in the
order of :func:`bench.effort.ranking`; for a kind that runs several solvers, CPMpy's, the first
of every kind's counters the solver's rows carry) ranked beside time, over the instances all of them
answered, and a sentence where the two orders differ (a formulation that needs less search
but more time per step, or the reverse)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.effort import ranking
from bench.report.data import SGM_SHIFT_S

#: effort counters, in the order of preference, per model kind (bench.effort)
EFFORT = ranking()

#: model kinds whose solvers differ in what they count (CPMpy's: OR-tools, HiGHS, SCIP, ...):
#: their pairs of one solver are ranked by the first of :data:`ANY` their rows carry
BY_SOLVER = ("cpmpy",)

#: every ranking counter, in the order of preference of :data:`EFFORT`
ANY = tuple(dict.fromkeys(m for kind in EFFORT.values() for m in kind))


def _sgm(x: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.exp(np.mean(np.log(x + SGM_SHIFT_S), axis=axis)) - SGM_SHIFT_S


def effort(t: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Per puzzle and solver with at least two formulations: each pair's SGM of an effort
    counter (shift 1) and of its time (shift :data:`~bench.report.data.SGM_SHIFT_S`) over the
    instances all of them answered, both ranks, and a sentence per solver where the ranks
    differ."""
    rows, lines = [], []
    for (puzzle, solver), g in t[t["ok"]].groupby(["puzzle", "solver"], sort=True):
        kind = str(g["kind"].iloc[0])
        order = ANY if kind in BY_SOLVER else EFFORT.get(kind, ())
        metric = next((m for m in order if m in g and g[m].notna().any()), None)
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
