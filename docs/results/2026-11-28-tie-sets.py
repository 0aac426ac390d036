"""Compare the best-or-tie sets of two runs of one suite, cell by cell (puzzle x tier, and the
pooled row): a cell changed when the best pair of one run is outside the other run's best-or-tie
set. Usage, from the repository root: ``python docs/results/2026-11-28-tie-sets.py RUN_A RUN_B``
(run folders or report folders: anything holding ``results.parquet``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.report.data import load_run, prepare
from bench.report.verdicts import compare, per_instance


def sets(folder: str) -> dict[tuple[str, str], tuple[str, set[str]]]:
    """(puzzle, tier) -> (best pair, best-or-tie set), as the report's verdict matrix has it."""
    t = prepare(load_run(folder).df)
    out = {}
    for puzzle, g in t.groupby("puzzle", sort=True):
        pi = per_instance(g)
        tiers = [x for x in dict.fromkeys(g["tier"]) if x]
        groups = [(x, pi[pi["tier"] == x]) for x in tiers] + [("pooled", pi)]
        for tier, sub in groups:
            r = compare(sub)
            if len(r) and r.at[0, "verdict"] == "best":
                tied = set(r[r["verdict"].isin(["best", "≈ best"])]["pair"])
                out[(str(puzzle), str(tier))] = (str(r.at[0, "pair"]), tied)
    return out


a, b = sets(sys.argv[1]), sets(sys.argv[2])
changed = 0
for key in sorted(set(a) | set(b)):
    if key not in a or key not in b:
        print(f"{key[0]} {key[1]}: in one run only")
        changed += 1
        continue
    (best_a, tied_a), (best_b, tied_b) = a[key], b[key]
    same_best = best_a == best_b
    inside = best_b in tied_a and best_a in tied_b
    changed += not inside
    print(f"{key[0]:<10} {key[1]:<7} best {'same' if same_best else 'differs'}"
          f"{'' if same_best else f' ({best_a} -> {best_b})'}; tie sets {len(tied_a)} / "
          f"{len(tied_b)}; {'within the tie sets' if inside else 'CHANGED outside the tie sets'}")
print(f"{changed} cell(s) changed outside the tie sets, of {len(set(a) | set(b))}")
