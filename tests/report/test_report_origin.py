"""Who wrote a pair decides whether the report compares it as a peer, never its kind: our own
``frontier`` runs on the external backend and is ranked as ours (our best pair, a default's
candidate), the peer package puzzlekit is the only peer; results written before ``origin`` was
recorded read the same (the built-in rule :func:`bench.records.row_origin`), the committed
runs among them."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bench.report import defaults as defaults_mod
from bench.report import load_run, peers, prepare, tables, write_report
from bench.report.data import origins, per_instance
from tests.conftest import ROOT
from tests.report.origin_run import FRONTIER, PEER, SAT, write

#: a committed run holding frontier and puzzlekit rows written before ``origin`` was recorded
COMMITTED = ROOT / "results" / "nurikabe-hard-20261129-faster"


@pytest.mark.parametrize("legacy", [False, True], ids=["recorded", "legacy"])
def test_frontier_is_ours_and_puzzlekit_the_only_peer(tmp_path: Path, legacy: bool) -> None:
    t = write(tmp_path / "run", legacy)
    v = peers.versus(per_instance(t), tables.ranking(t))
    assert set(v["peer"]) == {PEER}
    # the fastest pair of ours is the frontier: it is our side of the comparison
    assert set(v["ours"]) == {FRONTIER}
    row = v[v["scope"] == "all"].iloc[0]
    assert (row["ours_solved"], row["peer_solved"], row["only_ours"]) == (4, 3, 1)


def test_the_report_compares_only_against_puzzlekit(tmp_path: Path) -> None:
    write(tmp_path / "run", legacy=True)
    md = (write_report(tmp_path / "run", tmp_path / "rep") / "summary.md").read_text()
    assert f"Against {PEER} on 4 instances: ours ({FRONTIER})" in md
    assert f"Against {FRONTIER}" not in md


@pytest.mark.parametrize("legacy", [False, True], ids=["recorded", "legacy"])
def test_our_frontier_is_a_candidate_robust_default(tmp_path: Path, legacy: bool) -> None:
    t = write(tmp_path / "run", legacy)
    table, _ = defaults_mod.table(t)
    # the SAT pair of ours answers every instance too, the frontier faster
    assert t[t["pair"] == SAT]["ok"].all()
    assert table.set_index("puzzle").loc["nurikabe", "robust"] == FRONTIER


def test_the_committed_run_compares_against_puzzlekit_only() -> None:
    """The committed run's frontier and puzzlekit rows carry no ``origin``: frontier reads as
    ours, puzzlekit as the peer, every other pair as ours."""
    t = prepare(load_run(COMMITTED).df)
    by_form = t.groupby("form")["origin"].agg(set).to_dict()
    assert by_form.pop("puzzlekit") == {"puzzlekit"}
    assert by_form.pop("frontier") == {"ours"}
    assert by_form and all(o == {"ours"} for o in by_form.values())
    v = peers.versus(per_instance(t), tables.ranking(t))
    assert set(v["peer"]) == {"puzzlekit / external"}


@pytest.mark.parametrize("order", [1, -1], ids=["new-first", "legacy-first"])
def test_a_pair_with_rows_of_two_rules_is_one_origin_whatever_their_order(order: int) -> None:
    """A plugin's external formulation that did not declare a peer records ``ours`` now, while
    its rows written before origins were recorded would read as a peer by the rule of their
    time: the recorded origin holds for every row of the pair, in whichever order they come,
    so the peers section, the robust default, the learner and the tier rule agree."""
    rows = pd.DataFrame({"puzzle": ["nurikabe"] * 3, "pair": ["mine / external"] * 3,
                         "formulation": ["mine"] * 3, "solver": ["external"] * 3,
                         "kind": ["external"] * 3, "origin": ["ours", "", None]})[::order]
    assert list(origins(rows)) == ["ours"] * 3
    assert peers.pair_origins(rows, rows) == {"mine / external": "ours"}
    # two recorded origins (a formulation that declared a peer since): the peer holds
    rows = rows.assign(origin=["ours", "mine-pkg", ""])
    assert list(origins(rows)) == ["mine-pkg"] * 3
