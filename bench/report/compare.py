"""``puzzlebench compare RUN_A RUN_B``: per pair and instance, the factor between two runs and
which changes exceed the noise.

Noise: where a run has repeats (``--repeat``/``--seeds``), a task's own max/min spread; never
less than NOISE_FACTOR, and differences below NOISE_FLOOR_S are not changes (timer and
process noise on millisecond tasks). A change of outcome (answered <-> not, skipped by the
formulation <-> not) always counts; a pair and instance skipped in both runs is left out.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from bench.report.data import load_run, per_instance, prepare, sgm
from bench.report.render import Table

NOISE_FACTOR = 1.5
NOISE_FLOOR_S = 0.01


def compare(run_a: str | Path, run_b: str | Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(changes, per_pair): per (puzzle, pair, instance) the times, factor B/A and whether it
    exceeds the noise; per pair the SGM factor over the instances both runs have."""
    a = per_instance(prepare(load_run(run_a).df))
    b = per_instance(prepare(load_run(run_b).df))
    keys = ["puzzle", "pair", "instance"]
    cols = [*keys, "par2_s", "ok", "spread", "skipped"]
    m = a[cols].merge(b[cols], on=keys, suffixes=("_a", "_b"))
    skip_a, skip_b = m["skipped_a"] > 0, m["skipped_b"] > 0
    m = m[~(skip_a & skip_b)].copy()  # no time on either side: nothing to compare
    skip_a, skip_b = m["skipped_a"] > 0, m["skipped_b"] > 0
    m["factor"] = m["par2_s_b"] / m["par2_s_a"].where(m["par2_s_a"] > 0)
    noise = np.maximum(NOISE_FACTOR, np.fmax(m["spread_a"].fillna(1), m["spread_b"].fillna(1)))
    m["noise"] = noise
    big = (m["factor"] > noise) | (m["factor"] < 1 / noise)
    above_floor = (m["par2_s_b"] - m["par2_s_a"]).abs() > NOISE_FLOOR_S
    m["outcome"] = np.where(skip_b & ~skip_a, "now skipped",
                            np.where(skip_a & ~skip_b, "no longer skipped",
                                     np.where(m["ok_a"] == m["ok_b"], "",
                                              np.where(m["ok_b"], "now answered",
                                                       "no longer answered"))))
    m["significant"] = (big & above_floor) | (m["outcome"] != "")
    m["change"] = np.where(~m["significant"], "within noise",
                           np.where(m["factor"] > 1, "slower", "faster"))
    m.loc[m["outcome"] != "", "change"] = m["outcome"]
    rows = []
    for (puzzle, pair), g in m.groupby(["puzzle", "pair"]):
        sa, sb = sgm(g["par2_s_a"]), sgm(g["par2_s_b"])
        rows.append({"puzzle": puzzle, "pair": pair, "instances": len(g), "sgm_a_s": sa,
                     "sgm_b_s": sb, "factor": sb / sa if sa > 0 else math.nan,
                     "slower": int((g["change"] == "slower").sum()),
                     "faster": int((g["change"] == "faster").sum()),
                     "outcome_changes": int((g["outcome"] != "").sum())})
    changes = m.sort_values(["significant", "factor"], ascending=[False, False])
    return changes.reset_index(drop=True), pd.DataFrame(rows)


def compare_markdown(run_a: str | Path, run_b: str | Path, limit: int = 50) -> str:
    changes, pairs = compare(run_a, run_b)
    if changes.empty:
        return (f"# compare {run_a} -> {run_b}\n\nNo (pair, instance) is in both runs.\n")
    sig = changes[changes["significant"]]
    md = [f"# compare {run_a} -> {run_b}", "",
          f"{len(changes)} (pair, instance) tasks in both runs; {len(sig)} changed beyond the "
          f"noise (factor B/A outside 1/{NOISE_FACTOR:g} .. {NOISE_FACTOR:g}, or the repeats' "
          f"spread if larger, and more than {NOISE_FLOOR_S * 1000:g} ms; or a changed "
          "outcome). Times are PAR-2 build + solve seconds.", "",
          "## Per pair (SGM over the common instances)", "", Table.of(pairs).markdown(), ""]
    if len(sig):
        cols = ["puzzle", "pair", "instance", "par2_s_a", "par2_s_b", "factor", "noise",
                "change"]
        md += ["## Changes beyond the noise", "", Table.of(sig, cols, limit=limit).markdown(),
               ""]
    return "\n".join(md)
