"""Per puzzle: our best formulation vs puzzlekit (solved, PAR-2, per-instance ratios)."""
import sys

import numpy as np
import pandas as pd

for folder in sys.argv[1:]:
    df = pd.read_parquet(f"{folder}/results.parquet")
    df["t"] = df["build_s"].fillna(0) + df["solve_s"].fillna(0)
    for puzzle, d in df.groupby("puzzle"):
        limit = d["time_limit"].max()
        print(f"## {puzzle} ({folder}, {d['instance'].nunique()} instances, limit {limit:g} s)")
        par = {}
        for (form, solver), g in d.groupby(["formulation", "solver"]):
            ok = g["status"].eq("solved") & g["checked"].fillna(False).astype(bool)
            p2 = np.where(ok, g["t"], 2 * limit).mean()
            known = g["known"].dropna()
            # per instance: the median over repetitions (run --repeat) of the solved ones
            par[form] = g["t"].where(ok).groupby(g["instance"]).median()
            st = g["status"].value_counts().to_dict()
            setup = g["setup_s"]
            print(f"- {form} / {solver}: solved {ok.sum()}/{len(g)} {st}, PAR-2 {p2:.3f} s, "
                  f"median t {g['t'][ok].median():.4f} s, "
                  f"known agree {int(known.sum())}/{len(known)}"
                  + (f", setup_s median {setup.median():.2f} "
                     f"(min {setup.min():.2f}, max {setup.max():.2f})"
                     if setup.notna().any() else "")
                  + f", wall_s median {g['wall_s'].median():.2f}")
        peer = par.pop("puzzlekit")
        (ours_name, ours), = par.items()
        both = pd.concat([peer, ours], axis=1, keys=["peer", "ours"]).dropna()
        r = both["peer"] / both["ours"]
        q = r.quantile([0, .25, .5, .75, 1]).round(1).tolist()
        print(f"- ratio puzzlekit / {ours_name} (build+solve, {len(r)} instances both solved): "
              f"min {q[0]}, q1 {q[1]}, median {q[2]}, q3 {q[3]}, max {q[4]}, "
              f"geomean {np.exp(np.log(r).mean()):.1f}x")
        print()
