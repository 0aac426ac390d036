"""The default suite's selection rule, applied to run folders: which tier each instance
qualifies for by its measured times (``python -m bench.run.tiers RUN_DIR [RUN_DIR ...] [--suite
default]``; the rule is written beside the suite in ``instances/suites.toml``).

Per instance, over the built-in pairs (external peers left out) and the tasks that ran, each
pair's median build + solve over its repetitions (unanswered: no time). A task that did not run
(a timeout recorded by a suite's ladder rule, message starting :data:`bench.records.NOT_RUN`, or
an error recorded without a process; :func:`bench.report.verdicts.did_not_run`) is missing, not
a timeout: a pair that ran no task on an instance is not counted there.

- ``hard``: the best pair needs :data:`HARD_LO`-:data:`HARD_HI` s and some pair is at least
  :data:`SPREAD` x slower or does not answer;
- ``easy``: the best pair needs under :data:`HARD_LO` s and some pair needs at least
  :data:`TRIVIAL` s or does not answer (not trivial for every pair: a ladder or real
  candidate);
- ``trivial``: every pair answers under :data:`TRIVIAL` s (separates nothing);
- ``too hard``: the best pair needs over :data:`HARD_HI` s; ``unsolved``: no pair answers;
- ``hard (flat)``: the best in the hard range, but no pair :data:`SPREAD` x slower.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HARD_LO, HARD_HI, SPREAD, TRIVIAL = 0.2, 10.0, 10.0, 0.2


def classify(t: pd.DataFrame) -> pd.DataFrame:
    """Per instance of prepared rows (:func:`bench.report.data.prepare`): ``best`` pair and
    ``best_s``, ``slowest_s`` (NaN when some pair that ran did not answer), ``unanswered``
    pairs, ``pairs`` that ran and ``rule`` (the tier the instance qualifies for). Tasks that did
    not run are left out before anything is counted."""
    from bench.report.data import per_instance
    from bench.report.verdicts import ran

    pi = per_instance(ran(t[t["kind"] != "external"]))
    rows = []
    for (puzzle, inst), g in pi.groupby(["puzzle", "instance"], sort=True):
        ok = g[g["ok"]]
        unanswered = int((~g["ok"]).sum())
        best_s = float(ok["par2_s"].min()) if len(ok) else np.nan
        slowest = float(ok["par2_s"].max()) if len(ok) and not unanswered else np.nan
        best = str(ok.sort_values("par2_s")["pair"].iloc[0]) if len(ok) else ""
        rows.append({"puzzle": puzzle, "instance": inst, "cells": float(g["cells"].iloc[0]),
                     "pairs": len(g), "best": best, "best_s": best_s, "slowest_s": slowest,
                     "unanswered": unanswered,
                     "rule": rule(best_s, slowest, unanswered, len(ok))})
    return pd.DataFrame(rows)


def rule(best_s: float, slowest_s: float, unanswered: int, answered: int) -> str:
    """The tier an instance qualifies for (see the module docstring)."""
    if not answered:
        return "unsolved"
    if best_s > HARD_HI:
        return "too hard"
    spread = bool(unanswered) or slowest_s >= SPREAD * best_s
    if best_s >= HARD_LO:
        return "hard" if spread else "hard (flat)"
    return "easy" if unanswered or slowest_s >= TRIVIAL else "trivial"


def main(argv: list[str] | None = None) -> int:
    from bench.report.data import ReportError, load_run, prepare
    from bench.suites import get_suite

    ap = argparse.ArgumentParser(prog="python -m bench.run.tiers", description=__doc__.split(
        "\n")[0])
    ap.add_argument("runs", nargs="+", metavar="RUN_DIR")
    ap.add_argument("--suite", help="also show each instance's tier in this suite")
    args = ap.parse_args(argv)
    try:
        t = pd.concat([prepare(load_run(r).df) for r in args.runs], ignore_index=True)
        suite = get_suite(args.suite).tier_of() if args.suite else {}
    except (ReportError, KeyError, FileNotFoundError) as e:
        print(f"bench.run.tiers: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    out = classify(t)
    if suite:
        by_name = {Path(p).stem: tier for p, tier in suite.items()}
        out["suite"] = out["instance"].map(by_name).fillna("-")
    with pd.option_context("display.width", 200, "display.max_rows", None):
        print(out.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
