"""The default suite's selection rule, applied to run folders: which tier each instance
qualifies for by its measured times (``python -m bench.run.tiers RUN_DIR [RUN_DIR ...] [--suite
default]``; the rule is written beside the suite in ``instances/suites.toml``).

Per instance, over our own pairs (peer packages left out: a result's ``origin``, not its
kind) and the tasks that ran, each pair's median build + solve over its repetitions
(unanswered: no time). A task that did not run (a timeout recorded by a suite's ladder rule,
message starting :data:`bench.records.NOT_RUN`, or an error recorded without a process;
:func:`bench.report.data.did_not_run`) or that its formulation declined (``skipped``, such as
the frontier's on a grid of many clues; :func:`bench.report.data.attempted`) is missing, not a
timeout: a pair that ran no task on an instance is not counted there.

- ``hard``: the best pair needs :data:`HARD_LO`-:data:`HARD_HI` s and some pair is at least
  :data:`SPREAD` x slower or does not answer;
- ``easy``: the best pair needs under :data:`HARD_LO` s and some pair needs at least
  :data:`TRIVIAL` s or does not answer (not trivial for every pair: a ladder or real
  candidate);
- ``trivial``: every pair answers under :data:`TRIVIAL` s (separates nothing);
- ``too hard``: the best pair needs over :data:`HARD_HI` s; ``unsolved``: no pair answers;
- ``hard (flat)``: the best in the hard range, but no pair :data:`SPREAD` x slower.

The pilot rule (``--pilot``), applied to a pilot run of candidate hard instances (every pair of
the suite, one run each on a solver seed outside the measured runs' seeds, so the measured run
does not confirm its own selection):

- the hard tier of a puzzle: its candidates ruled ``hard`` or ``hard (flat)`` (the flat ones
  are where pairs are close), at most :data:`MAX_HARD` of them (the slowest best first); a
  puzzle with fewer than :data:`MIN_HARD` such instances is filled up with its slowest-best
  ``easy`` candidates, so that every cell can hold the instances a paired test needs;
- a hopeless pair: one that attempted at least :data:`MIN_SEEN` of its puzzle's chosen instances
  in the pilot and answered at most a fifth of them (:data:`HOPELESS`: none of 3 or 4, one
  of 5 to 9; it timed out on most); the suite caps it (``capped``, ``cap =``
  :data:`CAP`): it runs on the first :data:`CAP` instances of the tier only, the rest recorded
  as not run (``k of n run`` in the report, never scored).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from bench.records import OURS

HARD_LO, HARD_HI, SPREAD, TRIVIAL = 0.2, 10.0, 10.0, 0.2
#: the pilot rule: instances a puzzle's hard tier holds (at most, at least), the chosen
#: instances a pair must have run on before it can be called hopeless, and a hopeless pair's cap
MAX_HARD, MIN_HARD, MIN_SEEN, CAP = 6, 5, 3, 1
#: a pair answering at most this share of the chosen instances it ran on is hopeless
HOPELESS = 0.2


def classify(t: pd.DataFrame) -> pd.DataFrame:
    """Per instance of prepared rows (:func:`bench.report.data.prepare`): ``best`` pair and
    ``best_s``, ``slowest_s`` (NaN when some pair that ran did not answer), ``unanswered``
    pairs, ``pairs`` that ran and ``rule`` (the tier the instance qualifies for), over the pairs
    of ours. Tasks that did not run or were declined are left out before anything is
    counted."""
    from bench.report.data import attempted, origins, per_instance

    pi = per_instance(attempted(t[origins(t) == OURS]))
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


def choose(out: pd.DataFrame) -> pd.DataFrame:
    """The pilot rule's hard tier from :func:`classify`'s rows: per puzzle, the ``hard`` and
    ``hard (flat)`` instances (at most :data:`MAX_HARD`, the slowest best first), filled up to
    :data:`MIN_HARD` with the slowest-best ``easy`` ones; a ``chosen`` column marks them."""
    out = out.copy()
    out["chosen"] = False
    for _, g in out.groupby("puzzle", sort=True):
        hard = g[g["rule"].isin(["hard", "hard (flat)"])].sort_values("best_s", ascending=False)
        pick = list(hard.index[:MAX_HARD])
        if len(pick) < MIN_HARD:
            easy = g[g["rule"] == "easy"].sort_values("best_s", ascending=False)
            pick += list(easy.index[:MIN_HARD - len(pick)])
        out.loc[pick, "chosen"] = True
    return out


def hopeless(t: pd.DataFrame, chosen: pd.DataFrame) -> list[str]:
    """The pairs (``PUZZLE:FORMULATION/SOLVER``, sorted) the pilot shows hopeless on the chosen
    instances (:func:`choose`): each attempted at least :data:`MIN_SEEN` of its puzzle's and
    answered at most :data:`HOPELESS` of those. Tasks that did not run and instances a
    formulation declined (not applicable: neither a time nor a failure) are left out before
    anything is counted."""
    from bench.report.data import attempted

    picked = set(zip(chosen.loc[chosen["chosen"], "puzzle"],
                     chosen.loc[chosen["chosen"], "instance"], strict=True))
    r = attempted(t)
    r = r[[(p, i) in picked for p, i in zip(r["puzzle"], r["instance"], strict=True)]]
    out = []
    for (puzzle, form, solver), g in r.groupby(["puzzle", "formulation", "solver"]):
        tried = g["instance"].nunique()
        answered = g.loc[g["ok"], "instance"].nunique()
        if tried >= MIN_SEEN and answered <= HOPELESS * tried:
            out.append(f"{puzzle}:{form}/{solver}")
    return sorted(out)


def snippet(chosen: pd.DataFrame, capped: list[str], paths: dict[str, str]) -> str:
    """The hard tier's ``instances``, ``cap`` and ``capped`` as TOML lines for
    ``instances/suites.toml`` (``paths``: instance name -> its path under ``instances/``)."""
    names = chosen.loc[chosen["chosen"]].sort_values(["puzzle", "instance"])["instance"]
    files = [paths.get(str(n), str(n)) for n in names]
    lines = ["instances = ["] + [f'    "{f}",' for f in files] + ["]"]
    if capped:
        lines += [f"cap = {CAP}", "capped = ["] + [f'    "{c}",' for c in capped] + ["]"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from bench.report.data import ReportError, load_run, prepare
    from bench.suites import get_suite

    ap = argparse.ArgumentParser(prog="python -m bench.run.tiers", description=__doc__.split(
        "\n")[0])
    ap.add_argument("runs", nargs="+", metavar="RUN_DIR")
    ap.add_argument("--suite", help="also show each instance's tier in this suite")
    ap.add_argument("--pilot", action="store_true",
                    help="apply the pilot rule: the hard tier and its capped pairs, as TOML")
    args = ap.parse_args(argv)
    try:
        t = pd.concat([prepare(load_run(r).df, r) for r in args.runs], ignore_index=True)
        suite = get_suite(args.suite).tier_of() if args.suite else {}
    except (ReportError, KeyError, FileNotFoundError, ValueError) as e:
        print(f"bench.run.tiers: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    out = classify(t)
    if args.pilot:
        from bench.suites import instances_dir

        out = choose(out)
        base = instances_dir().resolve()
        paths = {}
        for p in t.get("instance_path", pd.Series(dtype=str)).dropna().unique():
            try:
                paths[Path(p).stem] = str(Path(p).resolve().relative_to(base))
            except ValueError:
                paths[Path(p).stem] = str(p)
        with pd.option_context("display.width", 200, "display.max_rows", None):
            print(out.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
        print()
        print(snippet(out, hopeless(t, out), paths))
        return 0
    if suite:
        by_name = {Path(p).stem: tier for p, tier in suite.items()}
        out["suite"] = out["instance"].map(by_name).fillna("-")
    with pd.option_context("display.width", 200, "display.max_rows", None):
        print(out.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
