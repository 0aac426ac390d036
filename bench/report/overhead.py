"""What the harness itself costs per task, in the report's appendix: ``overhead_s`` is the task
process's wall time outside build and solve (fork or spawn, reading the instance, checking and
writing the result), without an external package's one-time set-up (``setup_s``, shown apart),
per model kind, solver and start method (the one definition, :mod:`bench.run.overhead`, which
`run`'s closing line uses too), against the harness's aim of TARGET_S a task. None of it is in
any time the report compares."""

from __future__ import annotations

import math

import pandas as pd

from bench.report.units import duration
from bench.run.overhead import GROUPS, measured

#: per-task overhead the harness aims to stay under (median, every kind)
TARGET_S = 0.010

#: the times in seconds, printed with their unit like every time of the report
COLUMNS = ["kind", "solver", "start", "tasks", "overhead_median_s", "overhead_p90_s",
           "overhead_max_s",
           "setup_median_s", "target"]

NOTE = ("Each task runs in a process of its own. Besides building the model and solving it, "
        "that process starts, reads the instance, checks the answer and writes the result; "
        "this time is in none of the times compared above (nor is a peer package's one-time "
        f"set-up). The harness aims to keep it under {duration(TARGET_S)} a task (median), "
        "so that a run's wall time is spent on the solvers.")


def table(t: pd.DataFrame) -> pd.DataFrame:
    """One row per kind x solver x start method over the tasks with a measured overhead, the
    harness's time as :func:`bench.run.overhead.measured` defines it."""
    d = measured(t)
    if not len(d):
        return pd.DataFrame(columns=COLUMNS)
    rows = []
    for (kind, solver, start), g in d.groupby(GROUPS, sort=True):
        h = g["harness_s"]
        s = g["setup_s"].dropna() if "setup_s" in g else pd.Series(dtype=float)
        med = float(h.median())
        rows.append([kind, solver, start, len(g), med, float(h.quantile(0.9)),
                     float(h.max()), float(s.median()) if len(s) else math.nan,
                     "met" if med < TARGET_S else "missed"])
    return pd.DataFrame(rows, columns=COLUMNS)


def verdict(tab: pd.DataFrame) -> str:
    """One line: the median per kind (its slowest solver's, as
    :func:`bench.run.overhead.slowest_median`), and whether every kind meets the target."""
    if not len(tab):
        return "No task recorded a harness overhead."
    med = tab.groupby("kind")["overhead_median_s"].max()
    per_kind = {str(k): float(v) for k, v in med.items()}
    missed = sorted(k for k, v in per_kind.items() if v >= TARGET_S)
    parts = ", ".join(f"{k} {duration(v)}" for k, v in per_kind.items())
    tail = (f"over the {duration(TARGET_S)} aim: {', '.join(missed)}" if missed
            else f"every kind under the {duration(TARGET_S)} aim")
    return f"Median time the harness adds to a task, slowest solver per kind: {parts}; {tail}."
