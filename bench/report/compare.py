"""``puzzlebench compare RUN_A RUN_B``: a diff of two runs by task key.

Results are paired by task key (the instance's content, the formulation variant, the solver,
the seed, the solution count and the repetition; :func:`bench.records.task_key`), so a moved
instance file or a renamed run still pairs. For every paired task the diff says which parts of
its identity differ between the runs (formulation code, backend code, solver version, limits,
machine; :func:`bench.identity.differing_parts`; a result written before identities were
recorded shows "identity unknown") and whether its status or time changed. Every sample's
identity counts, not only the first's: a key whose samples in a merged run were made by
different code or under different limits differs from a run that has only one of them.

Noise, per task: a task's samples (a merged run's further samples of one key) are folded to
their median PAR-2 time; a time change counts when the factor B/A lies outside
1/``noise`` .. ``noise``, ``noise`` the larger of NOISE_FACTOR and either side's max/min spread
of samples, and the times differ by more than NOISE_FLOOR_S (timer and process noise on
millisecond tasks). A change of status always counts.

Noise, per pair: over the tasks both runs answered, the SGM ratio B/A with its seeded bootstrap
interval and the two-sided Wilcoxon signed-rank test of the log times, Holm-adjusted over the
pairs (:mod:`bench.report.verdicts`); a pair is "slower" or "faster" when the adjusted p is
below ALPHA, else "within noise". A pair with a task whose status changed is never "within
noise": its verdict is "status changed" (with the time verdict beside it when that is not
noise), whatever the times of the tasks both runs answered say.
Machines: the two runs' speed (each one's fastest calibration loop) is compared, and a factor
beyond :data:`bench.run.noise.SLOWER` either way is said with the factor; a run whose
machine was disturbed during it (:func:`bench.run.noise.disturbance`) is named with why.
A task skipped by its formulation in both runs has no time on either side and is left out;
skipped in one run only is a status change ("now skipped", "no longer skipped").
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench.identity import differing_parts
from bench.report.data import load_run, prepare
from bench.report.render import Table
from bench.report.verdicts import ALPHA, holm, ratio_interval, signed_rank_p

NOISE_FACTOR = 1.5
NOISE_FLOOR_S = 0.01


CSV_COLUMNS = ["puzzle", "pair", "instance", "key", "status_a", "status_b", "par2_s_a",
               "par2_s_b", "factor", "noise", "significant", "change", "differs"]


IDENTITY_COLUMNS = ["code", "backend_code", "solver_version", "time_limit", "memory_limit_mb",
                    "threads", "cpu", "cores", "memory_gb", "python", "identity"]


def _identities(t: pd.DataFrame) -> list[str]:
    """Per row its identity columns as JSON text ("" for a row without an identity)."""
    cols = [c for c in IDENTITY_COLUMNS if c in t]
    if "identity" not in cols:
        return [""] * len(t)
    recs = t[cols].astype(object).where(t[cols].notna(), None).to_dict("records")
    return [json.dumps(r, sort_keys=True, default=str) if r.get("identity") else ""
            for r in recs]


def per_key(t: pd.DataFrame) -> pd.DataFrame:
    """One row per task key: the median PAR-2 time of its samples, ``ok`` when at least half
    answered, its status (``a/b`` when samples disagree), ``spread`` max/min, ``samples``, the
    first sample's identity columns and ``idents``, the distinct identities of its samples
    (JSON texts of their identity columns; samples without one left out)."""
    ident = IDENTITY_COLUMNS
    t = t.assign(_ident=_identities(t))
    g = t.groupby("key", sort=False)
    out = g.agg(puzzle=("puzzle", "first"), pair=("pair", "first"),
                instance=("instance", "first"), par2_s=("par2_s", "median"),
                ok=("ok", "mean"), lo=("par2_s", "min"), hi=("par2_s", "max"),
                samples=("par2_s", "size"),
                status=("status", lambda s: "/".join(sorted(set(s)))),
                idents=("_ident", lambda s: tuple(sorted({x for x in s if x}))),
                **{c: (c, "first") for c in ident if c in t}).reset_index()
    out["ok"] = out["ok"] >= 0.5
    out["spread"] = out["hi"] / out["lo"].where(out["lo"] > 0)
    return out


def _differs(row: pd.Series) -> str:
    """The identity parts in which any sample of A differs from any sample of B, in words."""
    if not row["idents_a"] or not row["idents_b"]:
        return "identity unknown"
    out: list[str] = []
    for a in row["idents_a"]:
        for b in row["idents_b"]:
            for part in differing_parts({"key": row["key"], **json.loads(a)},
                                        {"key": row["key"], **json.loads(b)}):
                if part not in out:
                    out.append(part)
    return ", ".join(out)


def compare(run_a: str | Path, run_b: str | Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(changes, per_pair): per task key in both runs the times, factor B/A, the identity parts
    that differ, the status change and whether it exceeds the noise; per pair its SGM factor
    with interval and Holm-adjusted signed-rank verdict over the tasks both answered."""
    a, b = (per_key(prepare(load_run(r).df)) for r in (run_a, run_b))
    m = a.merge(b.drop(columns=["puzzle", "pair", "instance"]), on="key", suffixes=("_a", "_b"))
    if m.empty:
        return m.assign(significant=pd.Series(dtype=bool)), pd.DataFrame()
    m["differs"] = m.apply(_differs, axis=1)
    both_skipped = (m["status_a"] == "skipped") & (m["status_b"] == "skipped")
    m = m[~both_skipped].copy()  # no time on either side: nothing to compare
    if m.empty:
        return m.assign(significant=pd.Series(dtype=bool)), pd.DataFrame()
    m["factor"] = m["par2_s_b"] / m["par2_s_a"].where(m["par2_s_a"] > 0)
    noise = np.maximum(NOISE_FACTOR, np.fmax(m["spread_a"].fillna(1), m["spread_b"].fillna(1)))
    m["noise"] = noise
    big = (m["factor"] > noise) | (m["factor"] < 1 / noise)
    above_floor = (m["par2_s_b"] - m["par2_s_a"]).abs() > NOISE_FLOOR_S
    m["status_change"] = np.where(
        m["status_a"] == m["status_b"], "",
        np.where(m["status_b"] == "skipped", "now skipped",
                 np.where(m["status_a"] == "skipped", "no longer skipped",
                          m["status_a"] + " → " + m["status_b"])))
    m["significant"] = (big & above_floor) | (m["status_change"] != "")
    m["change"] = np.where(~m["significant"], "within noise",
                           np.where(m["factor"] > 1, "slower", "faster"))
    m.loc[m["status_change"] != "", "change"] = m["status_change"]
    pairs = _pairs(m)
    changes = m.sort_values(["significant", "factor"], ascending=[False, False])
    return changes.reset_index(drop=True), pairs


def _pairs(m: pd.DataFrame) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    for (puzzle, pair), g in m.groupby(["puzzle", "pair"], sort=True):
        both = g[g["ok_a"] & g["ok_b"]]
        ta, tb = both["par2_s_a"].to_numpy(float), both["par2_s_b"].to_numpy(float)
        ratio, lo, hi = ratio_interval(tb, ta) if len(both) else (math.nan,) * 3
        p = float(signed_rank_p(tb, ta)) if len(both) else math.nan
        parts = Counter(x for d in g["differs"] for x in d.split(", ") if x)
        rows.append({"puzzle": puzzle, "pair": pair, "tasks": len(g), "both answered":
                     len(both), "factor": ratio, "factor_lo": lo, "factor_hi": hi, "p": p,
                     "status changes": int((g["status_change"] != "").sum()),
                     "tasks beyond noise": int(g["significant"].sum()),
                     "identity differs": "; ".join(f"{k} ({n})" for k, n in parts.items())
                     or "nothing"})
    out = pd.DataFrame(rows)
    out["p_holm"] = holm(out["p"].to_numpy(float))
    timing = np.where(~(out["p_holm"] < ALPHA), "within noise",
                      np.where(out["factor"] > 1, "slower", "faster"))
    changed = out["status changes"] > 0
    out["verdict"] = np.where(~changed, timing, np.where(
        timing == "within noise", "status changed", "status changed; " + timing))
    return out


def _summary(changes: pd.DataFrame, speed_differs: bool = False) -> list[str]:
    """Sentences: which identity parts differ in how many tasks."""
    parts = Counter(x for d in changes["differs"] for x in d.split(", ") if x)
    if not parts:
        if speed_differs:
            return ["Every paired task has the same identity in both runs (same formulation "
                    "code, backend code, solver version, limits and machine type), but the "
                    "machine's speed differed between the runs (below)."]
        return ["Every paired task has the same identity in both runs (same formulation "
                "code, backend code, solver version, limits and machine)."]
    return [f"- {k}: {n} of {len(changes)} tasks" for k, n in parts.most_common()]


def _environment(folder: str | Path) -> dict[str, Any]:
    """The run's latest environment record that holds a calibration ({} if none)."""
    from bench.run.storage import load_environment

    recs = [r for r in load_environment(folder) if isinstance(r.get("calibration"), dict)]
    return recs[-1] if recs else {}


def machine_lines(run_a: str | Path, run_b: str | Path) -> tuple[list[str], bool]:
    """Sentences on the two runs' machines: their speed (the fastest calibration loop of each
    run, :func:`bench.run.noise.speed`) and whether it differs by more than
    :data:`bench.run.noise.SLOWER` either way, with the factor; each run whose machine
    was disturbed (:func:`bench.run.noise.disturbance`) and why. And whether the speed
    differs."""
    from bench.run.noise import SLOWER, disturbance, speed

    env_a, env_b = _environment(run_a), _environment(run_b)
    sa, sb = speed(env_a), speed(env_b)
    lines: list[str] = []
    differs = False
    if sa and sb:
        factor = sb / sa
        differs = factor > SLOWER or factor < 1 / SLOWER
        if differs:
            which = (f"B's machine was {factor:.1f}x slower" if factor > 1
                     else f"B's machine was {1 / factor:.1f}x faster")
            lines.append(f"**The machines differ in speed**: the calibration loop took "
                         f"{sb:.3f} s in B against {sa:.3f} s in A ({which}); time changes "
                         "of about that factor are the machine's, not the code's.")
        else:
            lines.append(f"Machine speed: the calibration loop took {sa:.3f} s in A and "
                         f"{sb:.3f} s in B (within {SLOWER:g}x).")
    else:
        lines.append("Machine speed: unknown (a run without a calibration figure).")
    for name, env in (("A", env_a), ("B", env_b)):
        why = disturbance(env)
        if why:
            lines.append(f"**Run {name} was disturbed**: {'; '.join(why)}; its times are "
                         "slower than its machine's.")
    return lines, differs


def compare_markdown(run_a: str | Path, run_b: str | Path, limit: int | None = 50,
                     csv: str | Path | None = None) -> str:
    """The comparison as Markdown; ``limit``: at most this many changed tasks listed (None:
    all), the rest counted with how to see them; ``csv``: also write every paired task
    (changed or not) to this CSV file (OSError if it cannot be written)."""
    changes, pairs = compare(run_a, run_b)
    if csv is not None:
        with open(csv, "w", newline="", encoding="utf-8") as f:
            changes[[c for c in CSV_COLUMNS if c in changes]].to_csv(f, index=False)
    if changes.empty:
        return (f"# compare {run_a} -> {run_b}\n\nNo task key is in both runs.\n")
    machine, speed_differs = machine_lines(run_a, run_b)
    sig = changes[changes["significant"]]
    md = [f"# compare {run_a} -> {run_b}", "",
          f"{len(changes)} tasks (by task key) in both runs; {len(sig)} changed status or time "
          f"beyond the noise (factor B/A outside 1/{NOISE_FACTOR:g} .. {NOISE_FACTOR:g}, or "
          f"the samples' spread if larger, and more than {NOISE_FLOOR_S * 1000:g} ms). Times "
          "are PAR-2 build + solve seconds.", "", "## Identity parts that differ", "",
          *_summary(changes, speed_differs), "", "## Machines", "", *machine, "",
          "## Per pair (over the tasks both runs answered: SGM factor B/A with its 95 % "
          f"bootstrap interval; Wilcoxon signed-rank, Holm-adjusted, verdict at {ALPHA:g})", "",
          Table.of(pairs).markdown(), ""]
    if len(sig):
        cols = ["puzzle", "pair", "instance", "par2_s_a", "par2_s_b", "factor", "noise",
                "change", "differs"]
        shown = sig if limit is None else sig.head(limit)
        md += ["## Tasks that changed beyond the noise", "",
               Table.of(shown, cols).markdown(), ""]
        if len(shown) < len(sig):
            md += [f"({len(sig) - len(shown)} more rows: `puzzlebench compare --all` lists "
                   "every one; `--csv FILE` writes every paired task to a CSV file)", ""]
    return "\n".join(md)
