"""A pair whose results were made by different code, solver versions or limits (a merged run:
``puzzlebench merge`` of runs before and after an edit, or under other limits) is split into
one pair per identity, never pooled: its rows' ``pair`` gets the parts that tell them apart,
``"cpsat-cover / cpsat (formulation code 2f524b95)"``, ``"... (time limit 6 s)"``, so every
table and verdict ranks them as pairs of their own, and the report says so in a note. Machines
are split apart by :mod:`bench.report.machines` (one ranking per machine type).

What splits a pair: more than one non-empty value among its rows of the formulation code
(``code``), backend code or solver version; or a task (key) of the pair with samples under
different limits (time, memory, threads: a task's key leaves the limits out), which splits the
pair by its rows' limits. A pair of one identity is left as it is.
"""

from __future__ import annotations

import pandas as pd

#: column -> the words for it, for the parts that split a pair when its rows differ in them
PARTS = {"code": "formulation code", "backend_code": "backend code",
         "solver_version": "solver version"}
LIMITS = {"time_limit": "time limit", "memory_limit_mb": "memory limit",
          "threads": "threads"}


def _text(col: str, value: object) -> str:
    if value is None or value == "" or (isinstance(value, float) and value != value):
        return f"{PARTS.get(col) or LIMITS[col]} unknown"
    if col in ("code", "backend_code"):
        return f"{PARTS[col]} {str(value).removeprefix('code-')[:8]}"
    if col == "time_limit":
        return f"time limit {float(str(value)):g} s"
    if col == "memory_limit_mb":
        return f"memory limit {float(str(value)):g} MB"
    return f"{PARTS.get(col) or LIMITS[col]} {value}"


def _mixed_limits(g: pd.DataFrame) -> list[str]:
    """The limit columns in which some task key of ``g`` has samples that differ."""
    cols = [c for c in LIMITS if c in g]
    if not cols or "key" not in g:
        return []
    n = g.groupby("key")[cols].nunique(dropna=False)
    return [c for c in cols if (n[c] > 1).any()]


def apart(t: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """``t`` (prepared task rows) with each pair of several identities split by them, and a
    sentence per split pair naming what differs."""
    if not len(t) or "pair" not in t:
        return t, []
    t = t.copy()
    lines: list[str] = []
    # a pair of one puzzle: "cpsat-tree / cpsat" of two puzzles is two pairs, of their own code
    by = ["puzzle", "pair"] if "puzzle" in t else ["pair"]
    for key, g in t.groupby(by, sort=True):
        pair = key[-1]
        cols = [c for c in PARTS if c in g
                and len(set(g[c].fillna("").astype(str)) - {""}) > 1]
        cols += _mixed_limits(g)
        if not cols:
            continue
        tags = pd.Series([", ".join(_text(c, v) for c, v in zip(cols, row, strict=True))
                          for row in g[cols].itertuples(index=False)], index=g.index)
        t.loc[g.index, "pair"] = str(pair) + " (" + tags + ")"
        words = ", ".join(PARTS.get(c) or LIMITS[c] for c in cols)
        lines.append(f"{pair}: its results differ in {words} ({tags.nunique()} kinds: "
                     f"{'; '.join(sorted(tags.unique()))}); each is ranked as a pair of its "
                     "own, never pooled")
    return t, lines
