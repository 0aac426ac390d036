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
from tests.report.origin_run import FRONTIER, SAT, results


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
