"""The ``auto`` rule's candidates are the exact pairs of ours that ran every training instance,
whoever's backend they run on: our own ``frontier`` (kind external) is one, the peer package
puzzlekit never is; rows written before ``origin`` was recorded read the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.report.data import performance
from bench.select import learn
from tests.report.origin_run import FRONTIER, PEER, SAT, write


@pytest.mark.parametrize("legacy", [False, True], ids=["recorded", "legacy"])
def test_frontier_is_a_candidate_puzzlekit_is_not(tmp_path: Path, legacy: bool) -> None:
    t = write(tmp_path / "run", legacy)
    par2, _ = performance(t)
    assert set(par2.columns) == {SAT, FRONTIER, PEER}  # each ran every instance
    pairs = learn.candidates(t, par2)
    assert sorted(pairs) == sorted([SAT, FRONTIER])
    assert learn.sbs(par2, pairs) == FRONTIER
