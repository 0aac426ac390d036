"""Where a run's task time goes, and what other tier limits or the ladder rule would have made
of it: ``python -m bench.report.budget FOLDER [--ladder] [--limit TIER=SECONDS ...]`` (FOLDER: a
run folder or a report folder with its ``results.parquet``).

The projection replays the run's own results, no new measurement:

- task time is each task's ``wall_s`` (the process, start-up included);
- a shorter limit ``L'`` for a tier: an answered task whose build + solve took at most ``L'``
  keeps its time, a slower one becomes a timeout costing ``L'`` plus its start-up
  (``overhead_s``), and a timeout costs ``L - L'`` less (a limit can only be shortened: the
  run says nothing of what a timed-out task would do with more time);
- with ``ladder``, :mod:`bench.run.ladder`'s rule: after each pair's earliest timeout in a
  generated family (by size, then seed), the family's instances after it cost nothing and
  count as not run (unsolved; ``not_run`` counts each (instance, pair) once, as the rule
  records its first run only), exactly as the rule run in steps of increasing rung decides.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from bench.suites import family


@dataclass(frozen=True)
class Projection:
    tasks: int
    task_s: float
    timeout_s: float
    timeouts: int
    not_run: int

    @property
    def share(self) -> float:
        return self.timeout_s / self.task_s if self.task_s else 0.0


def project(df: pd.DataFrame, limits: dict[str, float] | None = None,
            ladder: bool = False) -> Projection:
    """The run's results ``df`` (Result columns) replayed under ``limits`` (tier -> seconds,
    each at most the tier's own) and, with ``ladder``, the ladder rule."""
    t = df[df["formulation"].fillna("-") != "-"].copy()
    old = t["time_limit"].astype(float)
    new = t["tier"].map(limits or {}).astype(float).fillna(old)
    if (new > old + 1e-9).any():
        raise ValueError("a projected limit is longer than the limit the run used")
    own = t["build_s"].astype(float).fillna(0) + t["solve_s"].astype(float).fillna(0)
    answered = t["status"].isin(("solved", "infeasible"))
    timeout = t["status"].eq("timeout") | (answered & (own > new))
    wall = t["wall_s"].astype(float).fillna(0)
    t["w"] = np.where(answered & ~timeout, wall,
                      np.where(t["status"].eq("timeout"), np.maximum(wall - (old - new), 0),
                               np.where(timeout, new + t["overhead_s"].astype(float).fillna(0),
                                        wall)))
    t["to"] = timeout
    t["skip"] = False
    if ladder:
        fam = t["instance_path"].astype(str).map(family)
        t["fam"] = fam.map(lambda f: f[0] if f else None)
        t["cells"] = fam.map(lambda f: f[1][0] if f else np.nan)
        t["seed_n"] = fam.map(lambda f: f[1][1] if f else np.nan)
        first = t[t["to"] & t["rep"].eq(0) & t["fam"].notna()].sort_values(["cells", "seed_n"])
        cut = first.groupby(["fam", "formulation", "solver"])[["cells", "seed_n"]].first()
        at = t.join(cut.add_prefix("cut_"), on=["fam", "formulation", "solver"])
        t["skip"] = (at["cells"] > at["cut_cells"]) | (
            at["cells"].eq(at["cut_cells"]) & (at["seed_n"] > at["cut_seed_n"]))
        t.loc[t["skip"], ["w", "to"]] = [0.0, False]
    skipped = t.loc[t["skip"], ["instance_path", "formulation", "solver"]].drop_duplicates()
    return Projection(len(t), float(t["w"].sum()), float(t.loc[t["to"], "w"].sum()),
                      int(t["to"].sum()), len(skipped))


def main(argv: list[str] | None = None) -> int:
    from bench.report.data import ReportError, load_run

    ap = argparse.ArgumentParser(prog="python -m bench.report.budget", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--ladder", action="store_true", help="apply the ladder rule")
    ap.add_argument("--limit", action="append", default=[], metavar="TIER=SECONDS")
    a = ap.parse_args(argv)
    try:
        df = load_run(a.folder).df
        limits = {k: float(v) for k, v in (x.split("=", 1) for x in a.limit)}
        p = project(df, limits, a.ladder)
    except (ReportError, ValueError) as e:
        print(f"{a.folder}: {e}")
        return 2
    print(f"{p.tasks} tasks, {p.task_s:.0f} task-s; timeouts {p.timeouts}, {p.timeout_s:.0f} "
          f"task-s ({p.share:.1%}); not run by the ladder rule {p.not_run}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
