"""The time the harness adds to a task, one definition for `run`'s closing line and the report's
appendix (:mod:`bench.report.overhead`): a task's ``overhead_s`` (its process's wall time
outside build and solve: fork or spawn, reading the instance, checking and writing the result)
less an external package's one-time set-up ``setup_s`` (shown apart), never below 0; summed up
per model kind, solver and start method by the median, and per kind by its slowest such
median."""

from __future__ import annotations

import pandas as pd

#: the groups a median is taken over
GROUPS = ["kind", "solver", "start"]


def measured(t: pd.DataFrame) -> pd.DataFrame:
    """The tasks of ``t`` with a recorded overhead, with their ``harness_s`` (``overhead_s``
    less ``setup_s``, at least 0) and a ``start`` of "?" where none was recorded."""
    if "overhead_s" not in t:
        return t.iloc[0:0].assign(harness_s=pd.Series(dtype=float))
    d = t[t["overhead_s"].notna()].copy()
    setup = d["setup_s"].fillna(0.0) if "setup_s" in d else 0.0
    d["harness_s"] = (d["overhead_s"] - setup).clip(lower=0.0)
    start = d["start"] if "start" in d else pd.Series("?", index=d.index)
    d["start"] = start.fillna("?").replace("", "?")
    return d


def slowest_median(t: pd.DataFrame) -> dict[str, float]:
    """Per model kind, the largest median ``harness_s`` of its solver x start groups."""
    d = measured(t)
    if not len(d):
        return {}
    med = d.groupby(GROUPS, sort=True)["harness_s"].median()
    return {str(k): float(v) for k, v in med.groupby(level="kind").max().items()}


def setup_median(t: pd.DataFrame) -> dict[str, float]:
    """Per model kind, the median one-time set-up of the tasks that recorded one."""
    if "setup_s" not in t or not t["setup_s"].notna().any():
        return {}
    s = t[t["setup_s"].notna()].groupby("kind", sort=True)["setup_s"].median()
    return {str(k): float(v) for k, v in s.items()}
