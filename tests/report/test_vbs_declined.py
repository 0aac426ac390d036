"""The virtual best, the single best and ``auto`` with declined tasks: a pair whose formulation
declined an instance is no candidate there (ASlib's ``not_applicable``), an instance every
pair declined has no virtual best, and the single best is chosen among the pairs that
attempted every instance (runs written as journals of real result records)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench.report import vbs
from bench.report.data import PAR_K, performance, ran
from tests.report.declined_run import LIMIT, write

N = 8


def _plan() -> dict[str, list[str | float]]:
    """``all`` times out on instances 0-2 and answers the rest in 1 s; ``few`` declines 0-2
    (where ``all`` fails) and answers the rest in 0.5 s; both decline instance 7."""
    return {"all": ["timeout"] * 3 + [1.0] * (N - 4) + ["skipped"],
            "few": ["skipped"] * 3 + [0.5] * (N - 4) + ["skipped"]}


def test_a_declining_pair_is_no_candidate_and_not_the_single_best(tmp_path: Path) -> None:
    t = write(tmp_path / "run", _plan())
    s = vbs.summary(t).set_index("tier").loc["hard"]
    # instance 7, declined by every pair, has no virtual best; the others all have one
    assert s["instances"] == N - 1 and s["vbs_solved"] == N - 4
    assert s["vbs_par2_s"] == 3 * PAR_K * LIMIT + (N - 4) * 0.5
    # few's PAR-2 sum is the smaller, but on the instances it attempted only: the single best
    # is the pair that attempted every instance
    assert s["single_best"] == "all / cadical195" and s["sbs_instances"] == N - 1
    c = vbs.contributions(t).set_index("pair")
    assert c.loc["few / cadical195", "ran"] == N - 4
    assert c.loc["few / cadical195", "declined"] == 4
    assert c.loc["all / cadical195", "declined"] == 1


def test_an_auto_pick_its_formulation_declined_counts_unanswered(tmp_path: Path) -> None:
    t = write(tmp_path / "run", _plan())
    par2, ok = performance(ran(t))
    assert set(par2.index) == {f"i{i:02d}" for i in range(N - 1)}
    assert par2["few / cadical195"].isna().sum() == 3  # declined: no value, not 2 x limit
    picks = pd.Series("few / cadical195", index=par2.index)
    limit = pd.Series(LIMIT, index=par2.index)
    r = vbs.auto_row(par2, ok, picks, limit, declined=vbs.declined_matrix(ran(t), par2))
    assert r["auto_declined"] == 3 and r["auto_not_run"] == 0 and r["auto_solved"] == N - 4
    assert r["auto_over"] == N - 1
    assert r["auto_par2_gap"] == 1.0  # the declined picks cost PAR-2, as the VBS does there


def test_the_single_best_of_equal_coverage_is_chosen_on_the_instances_both_attempted(
        tmp_path: Path) -> None:
    # a and b attempt N-1 instances each, not the same ones: a declines the first (easy), b
    # the last (a timeout for a); b takes 2x a's time on the instances both attempted. On
    # their own sets b's PAR-2 sum is the smaller (a carries the timeout): like with like,
    # a is the single best.
    plan: dict[str, list[str | float]] = {
        "a": ["skipped"] + [1.0] * (N - 2) + ["timeout"],
        "b": [1.0] + [2.0] * (N - 2) + ["skipped"]}
    t = write(tmp_path / "run", plan)
    s = vbs.summary(t).set_index("tier").loc["hard"]
    assert s["single_best"] == "a / cadical195"
