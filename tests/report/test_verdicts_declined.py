"""A task its formulation declined (status ``skipped``, ASlib's ``not_applicable``) is no
measurement: it is neither a time nor a failure. The verdicts, the ranking and the matrix
compare a pair only on the instances it attempted, never rank it above a pair of another
instance set, and say how many it declined. Runs written as journals of real result records
(:mod:`tests.report.declined_run`), read by the report's own reader."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.report import tables as T
from bench.report import verdicts as V
from tests.report.declined_run import write

N = 14  # instances
DECLINED = 6  # the first DECLINED instances: "few" declines them
BASE = [0.05 * 1.3**i for i in range(N)]  # seconds: the instances' difficulty
NOISE = np.random.default_rng(7).lognormal(0.0, 0.05, (3, N))  # fixed, per pair and instance


def _plan() -> dict[str, list[str | float]]:
    """``all`` answers every instance; ``slow`` takes 1.5x its time everywhere; ``few``
    declines the first DECLINED instances (which ``all`` answers) and takes half the time of
    ``all`` on the others."""
    return {"all": [b * NOISE[0, i] for i, b in enumerate(BASE)],
            "slow": [1.5 * b * NOISE[1, i] for i, b in enumerate(BASE)],
            "few": ["skipped" if i < DECLINED else 0.5 * b * NOISE[2, i]
                    for i, b in enumerate(BASE)]}


def _pair(form: str) -> str:
    return f"{form} / cadical195"


def test_a_pair_faster_where_it_ran_is_not_ranked_slower_for_what_it_declined(
        tmp_path: Path) -> None:
    t = write(tmp_path / "run", _plan())
    r = T.ranking(t).set_index("pair")
    few, best = r.loc[_pair("few")], r.iloc[0]
    # the best is among the pairs that attempted every instance
    assert best.name == _pair("all") and bool(best["best"])
    # few is compared on the 8 instances it attempted: about half the best's time there
    assert few["ratio"] < 0.6 and few["x_best"] < 0.6
    # in the max-T family, two-sided: faster where both ran, not merely "not shown slower"
    assert str(few["verdict"]).startswith(V.FASTER) and few["p"] < V.ALPHA
    assert str(few["verdict"]).endswith(f"({N - DECLINED} of {N} run, {DECLINED} declined)")
    assert few["attempted"] == f"{N - DECLINED}/{N}" and few["declined"] == DECLINED
    assert (few["instances"], few["solved"], few["timeout"]) == (N - DECLINED, N - DECLINED, 0)
    # its times are over the instances it attempted: no PAR-2 penalty for a declined one
    mine = [x for x in _plan()["few"] if not isinstance(x, str)]
    assert few["par2_s"] == pytest.approx(float(np.mean(mine)), rel=1e-6)
    # slow attempted every instance: it is ranked (separated, 1.5x); few follows it, in the
    # block of pairs that attempted fewer instances, never ranked above a pair of another set
    order = list(r.index)
    assert order == [_pair("all"), _pair("slow"), _pair("few")]
    assert str(r.loc[_pair("slow"), "verdict"]) == V.SEPARATED
    # the status grid keeps the K of each declined task
    m = T.status_matrix(t).set_index("instance")
    assert (m[_pair("few")] == "K").sum() == DECLINED


def test_the_matrix_counts_declined_instances_and_tests_only_what_ran(tmp_path: Path) -> None:
    t = write(tmp_path / "run", _plan())
    m, lines = V.matrix(t)
    row = m.set_index("tier").loc["hard"]
    assert row["declined"] == DECLINED and row["not run"] == 0 and row["instances"] == N
    assert row["best"].startswith(_pair("all")) and row["answered"] == f"{N}/{N}"
    # of the two pairs against the best only slow is separated: few's declines are no failure
    assert row["separated"] == "1 of 2"
    # few, faster where both ran, is counted: in the row's note and the group's sentence
    assert f"1 pair(s) of another instance set {V.FASTER}" in row["note"]
    assert any(f"{V.FASTER}: {_pair('few')}" in x for x in lines)
    assert any(x.startswith(f"nurikabe: {DECLINED} instance(s) declined by their formulation")
               and f"{_pair('few')} ({DECLINED})" in x for x in lines)
    d = V.design(t).set_index("tier").loc["hard"]
    assert d["tasks declined"] == DECLINED and d["tasks run"] == 3 * N - DECLINED


def test_deleting_the_declined_rows_changes_no_verdict_of_the_pairs(tmp_path: Path) -> None:
    t = write(tmp_path / "run", _plan())
    full = T.ranking(t)
    kept = T.ranking(t[t["status"] != "skipped"])
    cols = ["pair", "solved", "par2_s", "sgm_s", "x_best", "ratio", "p"]
    pd.testing.assert_frame_equal(full[cols], kept[cols])
    assert list(full["declined"]) == [0, 0, DECLINED] and set(kept["declined"]) == {0}


def test_a_pair_that_declines_everything_is_shown_and_ranked_nowhere(tmp_path: Path) -> None:
    plan = _plan()
    plan["none"] = ["skipped"] * N
    t = write(tmp_path / "run", plan)
    r = T.ranking(t)
    last = r.iloc[-1]
    assert last["pair"] == _pair("none") and last["verdict"] == "declined all"
    assert last["attempted"] == f"0/{N}" and last["declined"] == N and not last["best"]
    assert r.iloc[0]["pair"] == _pair("all")
    m, _ = V.matrix(t)
    assert "1 pair(s) ran none" in str(m.set_index("tier").loc["hard", "note"])


def test_the_same_solver_view_says_what_a_pair_declined(tmp_path: Path) -> None:
    from bench.report import views

    t = write(tmp_path / "run", _plan())
    (view,) = views.same_solver(t)
    row = view.table.set_index("pair").loc[_pair("few")]
    assert row["answered_run"] == f"{N - DECLINED}/{N - DECLINED}"
    assert row["verdict"].endswith(f"({N - DECLINED} of {N} run, {DECLINED} declined)")
    assert not row["verdict"].startswith(V.SEPARATED)


def test_a_pair_that_declined_some_but_answered_is_best_when_the_full_pairs_answered_none(
        tmp_path: Path) -> None:
    # both pairs that attempted every instance time out everywhere; few declines the first
    # DECLINED and answers the rest: it is the best, not "no pair answered"
    plan: dict[str, list[str | float]] = {
        "all": ["timeout"] * N, "slow": ["timeout"] * N,
        "few": ["skipped" if i < DECLINED else 0.5 * b for i, b in enumerate(BASE)]}
    t = write(tmp_path / "run", plan)
    ranked = T.ranking(t)
    r = ranked.set_index("pair")
    assert r.index[0] == _pair("few") and bool(r.iloc[0]["best"])
    assert str(r.loc[_pair("all"), "verdict"]).startswith(V.SEPARATED)
    # all attempted more instances than the best: its label says what it shares with it
    assert str(r.loc[_pair("all"), "verdict"]).endswith(
        f"({N} run, {N - DECLINED} in common with the best's {N - DECLINED})")
    assert "no formulation" not in T.verdict("nurikabe", t, ranked)


def test_two_pairs_declining_other_instances_are_not_ranked_on_different_sets(
        tmp_path: Path) -> None:
    # a and b attempt as many instances but not the same ones: a declines the easiest, b the
    # hardest; b takes 1.2x a's time on every instance both attempted. Compared on their own
    # sets b would look faster (it left out the hardest); on the instances both attempted a
    # is the best and b is compared with it there.
    plan: dict[str, list[str | float]] = {
        "a": ["skipped", *BASE[1:]],
        "b": [1.2 * b for b in BASE[:-1]] + ["skipped"]}
    t = write(tmp_path / "run", plan)
    r = T.ranking(t).set_index("pair")
    assert r.index[0] == _pair("a")
    b = r.loc[_pair("b")]
    assert b["ratio"] > 1.1 and b["common"] == N - 2
    assert str(b["verdict"]).endswith("1 declined)")


def test_a_pair_of_another_set_slower_where_both_ran_is_separated(tmp_path: Path) -> None:
    """The two-sided test of a pair tested apart also shows it slower: ``few`` at twice the
    best's time on the instances it attempted is separated, never "faster"."""
    plan = _plan()
    plan["few"] = ["skipped" if i < DECLINED else 2.0 * b * NOISE[2, i]
                   for i, b in enumerate(BASE)]
    r = T.ranking(write(tmp_path / "run", plan)).set_index("pair")
    few = r.loc[_pair("few")]
    assert few["ratio"] > 1.5 and str(few["verdict"]).startswith(V.SEPARATED)
    assert few["p"] < 0.05


def test_a_factor_over_a_best_with_censored_times_is_a_bound() -> None:
    """Where only the best has unanswered (censored) instances in common, the factor is an
    upper bound ("≤"); where only the pair has, a lower bound ("≥")."""
    row = {"ratio": 0.078, "ratio_lo": 0.034, "ratio_hi": 0.18, "common": 6}
    assert V.factor(pd.Series({**row, "censored": "best"})).startswith("≤ 0.078x")
    assert V.factor(pd.Series({**row, "censored": "other"})).startswith("≥ 0.078x")
    assert V.factor(pd.Series({**row, "censored": ""})).startswith("0.078x")


def test_an_inconclusive_pair_of_another_set_is_counted():
    """The clause on inconclusive pairs counts those of another instance set, tested (in the
    same max-T family) only on the instances they share with the best."""
    import pandas as pd

    from bench.report.verdicts import _inconclusive

    inc = pd.DataFrame({"apart": ["", ""], "run": ["6 run, 6 in common with the best's 8", ""]})
    said = _inconclusive(inc, "", False)
    assert said == ("; 2 pair(s) inconclusive (1 of another instance set, tested only on the "
                    "instances in common)")


def test_a_pair_of_another_set_left_out_of_the_test_is_not_said_to_be_tested():
    """A pair of another instance set with fewer than MIN_INTERVAL instances in common with the
    best is left out of the max-T family (no p): the clause says it was not tested, apart from
    one tested on the instances in common."""
    import pandas as pd

    from bench.report.verdicts import _inconclusive

    inc = pd.DataFrame({"apart": ["", "", ""], "p": [0.3, float("nan"), float("nan")],
                        "run": ["6 run, 6 in common with the best's 8", "1 of 8 run",
                                "1 of 8 run"]})
    said = _inconclusive(inc, "", False)
    assert said == ("; 3 pair(s) inconclusive (1 of another instance set, tested only on the "
                    "instances in common; 2 of another instance set with fewer than 5 "
                    "instances in common with the best, not tested)")
