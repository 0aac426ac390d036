"""Which machine ran which tasks: on a cluster the report groups timings by host and warns
when one pair's tasks ran on machines of different types (their times do not compare)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from bench.run.storage import load_environment

COLUMNS = ["host", "machine", "tasks", "solved", "median time s", "median overhead ms"]


def machine_types(folder: str | Path) -> dict[str, str]:
    """host -> machine type (CPU model, cores, memory) from every environment record of the
    run folder: the client's and, for a Dask run, each worker's."""
    out: dict[str, str] = {}
    for rec in load_environment(folder):
        workers = rec.get("workers")
        for r in [rec, *(workers.values() if isinstance(workers, dict) else [])]:
            if isinstance(r, dict) and r.get("host"):
                out[str(r["host"])] = (f"{r.get('cpu', '?')}, {r.get('cores', '?')} cores, "
                                       f"{r.get('memory_gb', '?')} GB")
    return out


def _hosts(t: pd.DataFrame) -> pd.Series:
    return t["host"].fillna("").replace("", "?") if "host" in t else pd.Series("?", t.index)


def table(t: pd.DataFrame, types: dict[str, str]) -> pd.DataFrame:
    """One row per host that ran tasks (empty when all ran on one)."""
    hosts = _hosts(t)
    if hosts.nunique() < 2:
        return pd.DataFrame(columns=COLUMNS)
    rows: list[list[Any]] = []
    for host, g in t.groupby(hosts, sort=True):
        rows.append([host, types.get(str(host), "unknown"), len(g),
                     int((g["status"] == "solved").sum()),
                     round(float(g["time_s"].median()), 4),
                     round(float(g["overhead_s"].median()) * 1000, 1)
                     if "overhead_s" in g and g["overhead_s"].notna().any() else "–"])
    return pd.DataFrame(rows, columns=COLUMNS)


def mixed(t: pd.DataFrame, types: dict[str, str]) -> list[str]:
    """A warning per pair whose tasks ran on more than one machine type."""
    kinds = _hosts(t).map(lambda h: types.get(h, f"unknown ({h})"))
    out = []
    for pair, g in kinds.groupby(t["pair"], sort=True):
        if g.nunique() > 1:
            out.append(f"{pair}: its tasks ran on {g.nunique()} machine types "
                       f"({'; '.join(sorted(g.unique()))}); its times do not compare")
    return out
