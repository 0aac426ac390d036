"""The effort table of a report: among the pairs of one solver, a machine-independent counter
(conflicts, simplex iterations, nodes, branches; the first the solver's kind reports, in the
order of :func:`bench.effort.ranking`; for a kind that runs several solvers, CPMpy's, the first
of every kind's counters the solver's rows carry) ranked beside time, over the instances all of them
answered, and a sentence where the two orders differ (a formulation that needs less search
but more time per step, or the reverse). The table is no data file: on the page and in
``summary.md`` it has readable headers (:data:`LABELS`) and a caption (:data:`CAPTION`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from bench.effort import ranking
from bench.report.data import SGM_SHIFT_S
from bench.report.render import Table

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


#: the effort table's headers, on the page and in summary.md (the table is no data file)
LABELS = {"puzzle": "puzzle", "solver": "solver", "pair": "formulation / solver",
          "metric": "counter", "effort": "effort (SGM, shift 1)",
          "time_s": f"time (SGM, shift {SGM_SHIFT_S * 1000:g} ms)", "common": "instances",
          "effort_rank": "effort rank", "time_rank": "time rank"}

#: the effort table's hover definitions on the page
DEFINITIONS = {
    "metric": "the solver's effort counter (a results column), the first its rows carry",
    "effort": "shifted geometric mean of the counter over the instances, shift 1",
    "time_s": f"shifted geometric mean of the PAR-2 time, shift {SGM_SHIFT_S * 1000:g} ms",
    "common": "instances every pair of this solver answered, with the counter",
    "effort_rank": "1: the least effort among this solver's pairs",
    "time_rank": "1: the fastest among this solver's pairs"}

#: the one line under the effort table's title
CAPTION = (f"Each number is a shifted geometric mean (SGM) over the instances every pair of "
           f"the solver answered (column 'instances'): of the counter with shift 1, of the time "
           f"with shift {SGM_SHIFT_S * 1000:g} ms; rank 1 is the least effort, the fastest.")


def extra(puzzle: str, t: pd.DataFrame) -> list[dict[str, Any]]:
    """The effort table of one puzzle as a section's ``extra`` (title, caption and table, its
    headers :data:`LABELS`), or none where no solver has two formulations with a counter."""
    eff, lines = effort(t)
    if not len(eff):
        return []
    return [{"title": f"{puzzle}: effort against time among the pairs of one solver ("
             + (" ".join(lines) or "the two orders agree") + ")", "caption": CAPTION,
             "table": Table.of(eff, labels=LABELS, definitions=DEFINITIONS)}]
