"""What the harness itself costs per task, in the report's appendix: ``overhead_s`` is the task
process's wall time outside build and solve (fork or spawn, reading the instance, checking and
writing the result), without an external package's one-time set-up (``setup_s``, shown apart),
per model kind, solver and start method, against the harness's aim of TARGET_S a task. None of
it is in any time the report compares."""

from __future__ import annotations

import pandas as pd

from bench.report.units import number

#: per-task overhead the harness aims to stay under (median, every kind)
TARGET_S = 0.010

COLUMNS = ["kind", "solver", "start", "tasks", "median ms", "p90 ms", "max ms",
           "setup median s", "target"]

NOTE = ("Each task runs in a process of its own. Besides building the model and solving it, "
        "that process starts, reads the instance, checks the answer and writes the result; "
        "this time is in none of the times compared above (nor is a peer package's one-time "
        f"set-up). The harness aims to keep it under {TARGET_S * 1000:g} ms a task (median), "
        "so that a run's wall time is spent on the solvers.")


def table(t: pd.DataFrame) -> pd.DataFrame:
    """One row per kind x solver x start method over the tasks with a measured overhead."""
    if "overhead_s" not in t or not t["overhead_s"].notna().any():
        return pd.DataFrame(columns=COLUMNS)
    d = t[t["overhead_s"].notna()].copy()
    setup = d["setup_s"].fillna(0.0) if "setup_s" in d else 0.0
    d["harness_s"] = (d["overhead_s"] - setup).clip(lower=0.0)
    d["start"] = d["start"].replace("", "?") if "start" in d else "?"
    rows = []
    for (kind, solver, start), g in d.groupby(["kind", "solver", "start"], sort=True):
        h = g["harness_s"]
        s = g["setup_s"].dropna() if "setup_s" in g else pd.Series(dtype=float)
        med = float(h.median())
        rows.append([kind, solver, start, len(g), round(med * 1000, 1),
                     round(float(h.quantile(0.9)) * 1000, 1), round(float(h.max()) * 1000, 1),
                     round(float(s.median()), 3) if len(s) else "–",
                     "met" if med < TARGET_S else "missed"])
    return pd.DataFrame(rows, columns=COLUMNS)


def verdict(tab: pd.DataFrame) -> str:
    """One line: the median per kind, and whether every kind meets the target."""
    if not len(tab):
        return "No task recorded a harness overhead."
    per_kind = {str(k): float(v) for k, v in tab.groupby("kind")["median ms"].max().items()}
    missed = sorted(k for k, v in per_kind.items() if v >= TARGET_S * 1000)
    parts = ", ".join(f"{k} {number(v)} ms" for k, v in per_kind.items())
    tail = (f"over the {TARGET_S * 1000:g} ms aim: {', '.join(missed)}" if missed
            else f"every kind under the {TARGET_S * 1000:g} ms aim")
    return f"Median time the harness adds to a task, slowest solver per kind: {parts}; {tail}."
