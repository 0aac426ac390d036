"""The suite's tier rule (:func:`bench.run.tiers.classify`) counts the pairs of ours, whatever
their kind: our own ``frontier`` (kind external) can be an instance's best pair, the peer
package puzzlekit never is, and an instance the frontier declined (``skipped``) is no failure
of it; rows written before ``origin`` was recorded read the same."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bench.report.data import load_run, prepare
from bench.run import tiers
from bench.run.storage import Journal
from tests.report.origin_run import FRONTIER, LIMIT, SAT, results


@pytest.mark.parametrize("legacy", [False, True], ids=["recorded", "legacy"])
def test_frontier_counts_in_the_tier_rule_and_its_decline_is_no_failure(
        tmp_path: Path, legacy: bool) -> None:
    rows = [dataclasses.replace(r, status="skipped", solve_s=0.0, checked=None,
                                message="frontier: 4 clues: at most 3")
            if r.formulation == "frontier" and r.instance == "i03" else r
            for r in results(legacy)]
    Journal(tmp_path).extend(rows)
    out = tiers.classify(prepare(load_run(tmp_path).df)).set_index("instance")
    assert list(out.loc[["i00", "i01", "i02"], "best"]) == [FRONTIER] * 3
    # each instance's pairs are the two of ours (the peer left out)
    assert (out.loc[["i00", "i01", "i02"], "pairs"] == 2).all()
    declined = out.loc["i03"]
    assert (declined["best"], declined["pairs"], declined["unanswered"]) == (SAT, 1, 0)


def test_a_pair_that_declined_the_chosen_instances_is_not_hopeless(tmp_path: Path) -> None:
    """The pilot's cap rule counts only the instances a pair attempted: ``frontier`` declined
    three of the four and timed out on the fourth, so it attempted fewer than
    :data:`~bench.run.tiers.MIN_SEEN` and is not called hopeless (counting its declines, it
    would have answered none of four)."""
    rows = [dataclasses.replace(r, status="skipped", solve_s=0.0, checked=None,
                                message="frontier: 4 clues: at most 3")
            if r.formulation == "frontier" and r.instance != "i00" else
            dataclasses.replace(r, status="timeout", solve_s=LIMIT, checked=None)
            if r.formulation == "frontier" else r
            for r in results()]
    Journal(tmp_path).extend(rows)
    t = prepare(load_run(tmp_path).df)
    every = tiers.classify(t).reset_index().assign(chosen=True)
    assert tiers.hopeless(t, every) == []
