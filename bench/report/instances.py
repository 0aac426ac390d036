"""Every instance one click away: the data of the page's instance view, in ``instances.js``.

One script file beside ``index.html`` (a classic ``<script src>``, which a browser loads from
``file://`` where ``fetch`` of a JSON file is refused) sets ``window.PB_INSTANCES`` to the
pairs' names and a map ``"puzzle/instance"`` -> the instance's family, size, a picture (the
first checked solution, else the clues alone) and one row per formulation x solver pair: its
status letters, build + solve time (median over repeats and seeds, with the lowest and highest
and their number), solver effort, the peak memory of the task's process tree, whether the
rule verifier passed it, and its agreement with the instance's known solution (a ``.sol``).
The page builds the view from this map when a link ``#i/puzzle/instance`` is followed.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

import bench.report.pictures as pictures
from bench.effort import labels
from bench.report.data import did_not_run
from bench.report.tables import status_letters
from bench.report.units import number

FILE = "instances.js"
#: solver effort columns shown in the view, with their short names (bench.effort)
EFFORT = labels()


def _flags(s: pd.Series) -> pd.Series:
    """True/False/None per task as 1.0/0.0/NaN (a group's minimum and count say "yes", "no"
    or nothing recorded, :func:`_flag`)."""
    return s.map({True: 1.0, False: 0.0}).astype(float)


def _flag(lo: float, n: int) -> str:
    if n == 0 or lo != lo:
        return ""
    return "no" if lo == 0 else "yes"


def _effort(row: Any) -> str:
    parts = []
    for col, name in EFFORT.items():
        v = getattr(row, col, None)
        if v is not None and v == v:
            parts.append(f"{name} {v:,.0f}" if v >= 1 else f"{name} {number(v)}")
    return ", ".join(parts)


def _num(v: Any, digits: int = 4) -> float | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else float(f"{f:.{digits}g}")


def rows(t: pd.DataFrame) -> dict[tuple[str, str], list[list[Any]]]:
    """Per (puzzle, instance): one row per pair, failures first, then the fastest:
    [pair, status letters, ok, median time, lowest, highest, runs, effort, peak MB, checked,
    .sol agreement] (times build + solve over the correct answers, seconds; runs: the tasks
    that ran; a pair none of whose tasks ran shows, in place of its effort, why)."""
    letter = status_letters(t)
    effort = [c for c in EFFORT if c in t]
    gone = did_not_run(t)
    msg = t["message"].fillna("").astype(str) if "message" in t else pd.Series("", index=t.index)
    d = t.assign(letter=letter, okt=t["time_s"].where(t["ok"]).astype(float),
                 did=(~gone).astype(int), why=msg.where(gone, ""),
                 chk=_flags(t["checked"]), kno=_flags(t["known"]),
                 peak=t["peak_rss_mb"].astype(float),
                 **{c: t[c].astype(float) for c in effort})
    g = d.groupby(["puzzle", "instance", "pair"], sort=False)
    a = g.agg(ok=("ok", "mean"), med=("okt", "median"), lo=("okt", "min"), hi=("okt", "max"),
              n=("did", "sum"), why=("why", "max"), peak=("peak", "max"), chk=("chk", "min"),
              nchk=("chk", "count"), kno=("kno", "min"), nkno=("kno", "count"),
              **{c: (c, "median") for c in effort})
    a["letters"] = g["letter"].agg(lambda s: "".join(sorted(set(s))))
    out: dict[tuple[str, str], list[list[Any]]] = {}
    r: Any
    for r in a.reset_index().itertuples(index=False):
        out.setdefault((str(r.puzzle), str(r.instance)), []).append(
            [str(r.pair), r.letters, bool(r.ok > 0.5), _num(r.med), _num(r.lo), _num(r.hi),
             int(r.n), _effort(r) if r.n else str(r.why), _num(r.peak, 3),
             _flag(r.chk, int(r.nchk)), _flag(r.kno, int(r.nkno))])
    for v in out.values():
        v.sort(key=lambda x: (x[2], x[3] if x[3] is not None else math.inf))
    return out


def _picture(puzzle: str, g: pd.DataFrame) -> tuple[str, str]:
    good = g[(g["status"] == "solved") & g["ok"] & g["checked"].eq(True) & g["grid"].notna()]
    found = g["instance_file"] if "instance_file" in g else g["instance_path"]
    path = next((str(f) for f in found if isinstance(f, str) and f), None)
    if len(good):
        row = good.sort_values("time_s").iloc[0]
        known = {True: "; it agrees with the known solution (.sol)",
                 False: "; it differs from the known solution (.sol)"}.get(row["known"], "")
        note = f"The solution of {row['pair']}, passed by the rule verifier{known}."
        try:
            return pictures.svg(puzzle, row["grid"], path, str(row["instance"])), note
        except (ValueError, TypeError, IndexError, KeyError):
            pass
    rows, cols = int(g["rows"].iloc[0]), int(g["cols"].iloc[0])
    clues = pictures.clues_svg(puzzle, path, rows, cols, str(g["instance"].iloc[0]))
    if clues:
        return clues, "No checked solution: the puzzle's givens."
    return "", "No picture: no checked solution, and the instance file is not readable here."


def _sol_line(g: pd.DataFrame) -> str:
    """How one instance's answers compare with its known solution, and how many answers the
    rule verifier rejected (those are never compared with the .sol)."""
    known = g["known"].dropna()
    sol = ("no known solution (.sol) to compare with" if known.empty else
           f"{int(known.astype(bool).sum())} of {len(known)} answers agree with the known "
           "solution (.sol)")
    rejected = int(g["checked"].eq(False).sum()) if "checked" in g else 0
    if rejected:
        sol += (f"; {rejected} answer{'s' if rejected > 1 else ''} failed the rule verifier "
                "(wrong, not compared)")
    return sol


def data(t: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """The view of every instance of the prepared task rows ``t`` (rows name their pair)."""
    out: dict[str, dict[str, Any]] = {}
    group = "tier" if "tier" in t else "family"
    per_pair = rows(t)
    for (puzzle, inst), g in t.groupby(["puzzle", "instance"], sort=True):
        pic, note = _picture(str(puzzle), g)
        sol = _sol_line(g)
        out[f"{puzzle}/{inst}"] = {
            "puzzle": str(puzzle), "instance": str(inst), "group": str(g[group].iloc[0]),
            "size": f"{int(g['rows'].iloc[0])}x{int(g['cols'].iloc[0])}",
            "path": str(g["instance_path"].iloc[0] or ""), "pic": pic, "note": note,
            "sol": sol, "rows": per_pair[str(puzzle), str(inst)]}
    return out


def packed(views: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The file's form: ``{"pairs": [names], "views": {...}}`` with each row's pair name
    replaced by its index in ``pairs`` (a large run names each pair thousands of times)."""
    names = sorted({r[0] for v in views.values() for r in v["rows"]})
    index = {n: i for i, n in enumerate(names)}
    return {"pairs": names,
            "views": {k: {**v, "rows": [[index[r[0]], *r[1:]] for r in v["rows"]]}
                      for k, v in views.items()}}


def write(t: pd.DataFrame, out: Path) -> str:
    """Write ``instances.js`` into the report folder; its name."""
    text = json.dumps(packed(data(t)), separators=(",", ":"), ensure_ascii=False)
    # "</" never closes a script element here, but keep the file safe to inline too
    (out / FILE).write_text("window.PB_INSTANCES=" + text.replace("</", "<\\/") + ";\n",
                            encoding="utf-8")
    return FILE
