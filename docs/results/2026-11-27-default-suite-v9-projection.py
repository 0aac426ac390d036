"""The default suite v9's task time and timeout share, projected from measured results (no run
of the whole suite): run from the repository root,

    python docs/results/2026-11-27-default-suite-v9-projection.py CANDIDATE_RUN...

- the v8 run (results/default-20261127-215656/results.parquet), its Shikaku 40x40s moved from
  the hard tier (10 s) to the ladder (3 s: bench.report.budget shortens their limit);
- the new hard instances: every (instance, default pair) measured in the candidate runs at
  10 s keeps its result; every pair not measured there is counted as a timeout at 10 s plus
  that pair's median start-up in v8 (pessimistic);
- bench.report.budget.project with the ladder rule.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from bench.report.budget import project
from bench.report.data import load_run
from bench.suites import get_suite

v8 = load_run("results/default-20261127-215656").df
v8.loc[v8["instance_path"].str.contains("gen-shikaku-40x40"), "tier"] = "ladder"
cand = pd.concat([load_run(f).df for f in sys.argv[1:]], ignore_index=True)
cand["instance_path"] = cand["instance_path"].map(
    lambda p: str(Path(p).resolve().relative_to(Path.cwd().resolve())))
suite = get_suite("default")
hard = {Path(p).resolve() for p, t in suite.tier_of().items() if t == "hard"}
known = {Path(p).resolve() for p in v8["instance_path"]}
new = sorted(str(p.relative_to(Path.cwd().resolve())) for p in hard - known)
pairs = v8.groupby(["puzzle", "formulation", "solver", "kind"])["overhead_s"].median()
rows = []
for path in new:
    puzzle = Path(path).name.split("-")[1]
    for (pz, form, solver, kind), over in pairs.items():
        if pz != puzzle:
            continue
        got = cand[(cand["instance_path"] == path) & (cand["formulation"] == form)
                   & (cand["solver"] == solver)]
        if len(got):
            rows.append(got.iloc[0].to_dict() | {"tier": "hard"})
        else:
            rows.append({"instance_path": path, "formulation": form, "solver": solver,
                         "kind": kind, "puzzle": puzzle, "status": "timeout", "rep": 0,
                         "tier": "hard", "time_limit": 10.0, "build_s": None,
                         "solve_s": 10.0, "overhead_s": over, "wall_s": 10.0 + over})
df = pd.concat([v8, pd.DataFrame(rows)], ignore_index=True)
measured = sum(1 for r in rows if r.get("key"))
print(f"{len(new)} new hard instances, {len(rows)} tasks ({measured} measured, "
      f"{len(rows) - measured} counted as timeouts)")
for ladder in (False, True):
    p = project(df, {"ladder": 3.0}, ladder=ladder)
    print(f"ladder rule {'on ' if ladder else 'off'}: {p.tasks} tasks, {p.task_s:.0f} task-s, "
          f"timeouts {p.timeouts} = {p.timeout_s:.0f} task-s ({p.share:.1%}), "
          f"not run {p.not_run}")
