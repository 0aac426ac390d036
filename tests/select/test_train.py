"""``auto`` judged on held-back data: the split by generator seed, the scores beside the VBS,
the training single best and the declared default (with the features' cost), and the verdict
on the declared default."""

from __future__ import annotations

import pandas as pd

from bench.select import matrices, train
from bench.select.auto import Rule

A, B = "sat-lazy / cadical195", "sat-hybrid / cadical195"


def test_the_split_is_by_generator_seed_not_by_instance() -> None:
    assert train.seed_of("gen-nurikabe-10x10-s905-1") == 905
    assert train.seed_of("gen-nurikabe-20x20-s901-big1-0") == 901
    assert train.seed_of("gen-yinyang-10x10-s902-keep_border0-min_percent30-1") == 902
    assert train.seed_of("nurikabe-10x10-26bd1eaa") is None
    assert train.seed_of("seed-p01") is None
    # every instance of a held-back seed is held back, whatever its size or index
    names = [f"gen-shikaku-{s}-s{seed}-{i}" for s in ("8x8", "20x20") for seed in (901, 905)
             for i in range(3)]
    held = [n for n in names if train.seed_of(n) in train.HELD_BACK]
    assert len(held) == 6 and all("-s905-" in n for n in held)


def _test() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.Series]:
    idx = ["small1", "small2", "big1", "big2"]
    par2 = pd.DataFrame({A: [0.01, 0.02, 20.0, 20.0], B: [0.05, 0.05, 1.0, 2.0]}, index=idx)
    ok = (par2 < 20).astype(float)
    feats = pd.DataFrame({"cells": [100.0, 100.0, 900.0, 900.0]}, index=idx)
    cost = pd.Series(0.001, index=idx)
    return par2, ok, feats, cost


def test_scores_sit_beside_the_vbs_and_charge_the_features_only_to_a_rule_that_reads_them(
        ) -> None:
    par2, ok, feats, cost = _test()
    rules = {"stump": Rule("nurikabe", A, B, "cells", 400.0), "tree": Rule("nurikabe", B, B)}
    t = train.judge_set("nurikabe", "real (r)", par2, ok, feats, cost, rules, B, A)
    assert t.instances == 4 and t.left_out == 0
    assert abs(t.vbs.par2_s - 3.03) < 1e-9 and t.vbs.solved == 4
    assert abs(t.scores["stump"].par2_s - (3.03 + 0.004)) < 1e-9  # the features' 4 ms
    assert abs(t.scores["tree"].par2_s - 3.1) < 1e-9  # one pair always: no feature read
    assert abs(t.scores["SBS"].par2_s - 3.1) < 1e-9 and t.scores["SBS"].lost == 0
    # the declared default (A) answers neither big instance: the SBS did, so it lost two
    assert t.scores["default"].solved == 2 and t.scores["default"].lost == 2
    assert t.scores["stump"].lost == 0 and abs(t.feature_s - 0.004) < 1e-9


def test_an_instance_a_compared_pair_did_not_run_is_left_out() -> None:
    par2, ok, feats, cost = _test()
    par2.loc["big2", B] = float("nan")  # not run (the ladder rule)
    rules = {"stump": Rule("nurikabe", A, B, "cells", 400.0), "tree": Rule("nurikabe", A, A)}
    t = train.judge_set("nurikabe", "hard (r)", par2, ok, feats, cost, rules, B, A)
    assert t.instances == 3 and t.left_out == 1


def _learned(stump_par2: float, lost: int = 0) -> train.Learned:
    rule = Rule("nurikabe", A, B, "cells", 400.0)
    res = train.Learned("nurikabe", 50, [A, B], B, B, rule, rule)
    for name in ("held back (seeds 905, 906)", "real (r)", "hard (r)"):
        t = train.Test("nurikabe", name, 4, 0, train.Score(1.0, 0.1, 4, 0))
        t.scores["SBS"] = t.scores["default"] = train.Score(2.0, 0.2, 4, 0)
        t.scores["stump"] = t.scores["tree"] = train.Score(
            stump_par2 if name != "held back (seeds 905, 906)" else 9.0, 0.1, 4 - lost, lost)
        res.tests.append(t)
    return res


def test_auto_earns_the_default_only_below_the_single_best_on_real_and_hard_losing_nothing(
        ) -> None:
    ok, why = train.verdict(_learned(1.5))
    assert ok, why  # the held-back seeds (9.0 s) are reported, not part of the verdict
    ok, why = train.verdict(_learned(2.0))
    assert not ok and "real (r): PAR-2 2.000 s not below the SBS's 2.000 s" in why
    ok, why = train.verdict(_learned(1.5, lost=1))
    assert not ok and "hard (r): 1 answers lost" in why


def test_the_vbs_is_the_portfolio_s_not_a_pair_auto_cannot_choose() -> None:
    par2, ok, feats, cost = _test()
    par2["puzzlekit / external"] = 0.001  # faster everywhere, but no candidate
    ok["puzzlekit / external"] = 1.0
    rules = {"stump": Rule("nurikabe", A, B, "cells", 400.0), "tree": Rule("nurikabe", B, B)}
    t = train.judge_set("nurikabe", "real (r)", par2, ok, feats, cost, rules, B, A, [A, B])
    assert abs(t.vbs.par2_s - 3.03) < 1e-9
    everything = train.judge_set("nurikabe", "real (r)", par2, ok, feats, cost, rules, B, A)
    assert abs(everything.vbs.par2_s - 0.004) < 1e-9


def test_a_task_a_default_run_capped_counts_unsolved_on_its_test_tier() -> None:
    from bench.report.data import load_run, prepare
    from tests.conftest import ROOT

    t = prepare(load_run(ROOT / "results" / "default-20261129-045741").df)
    hard = t[(t["puzzle"] == "nurikabe") & (t["tier"] == "hard")]
    par2, ok, gaps, _ = matrices.tier_matrix(hard)
    lazy = "sat-lazy[islands=lazy,wall=count] / cadical195"
    # the pilot capped sat-lazy to the first hard instance; the other five count unsolved
    assert par2[lazy].notna().all() and (ok[lazy] == 0).all()
    assert (par2[lazy] == 20.0).all() and gaps >= 5


def _nurikabe_rows() -> tuple[pd.DataFrame, pd.DataFrame]:
    from bench.select.rules import LADDER, TRAINING
    from tests.conftest import ROOT

    tr, la = train.training_rows([ROOT / r for r in TRAINING], [ROOT / r for r in LADDER])
    return tr[tr["puzzle"] == "nurikabe"], la[la["puzzle"] == "nurikabe"]


def test_the_candidates_are_judged_on_training_rows_only() -> None:
    """A pair's row on a held-back instance decides nothing: marked inexact there only, it
    stays a candidate."""
    g, lad = _nurikabe_rows()
    par2, pairs, _ = train.learning_set(g, lad)
    assert par2.index.is_unique and len(pairs) >= 2
    held = g["instance"].map(train.seed_of).isin(train.HELD_BACK)
    pair = pairs[0]
    g = g.copy()
    g.loc[held & (g["pair"] == pair), "exact"] = False
    par2b, pairs_b, _ = train.learning_set(g, lad)
    assert pairs_b == pairs and par2b.equals(par2)
    # marked inexact on a training instance, it is no candidate
    g.loc[~held & (g["pair"] == pair), "exact"] = False
    assert pair not in train.learning_set(g, lad)[1]


def test_an_instance_in_both_the_training_rows_and_the_ladder_is_refused() -> None:
    import pytest

    g, lad = _nurikabe_rows()
    one = lad[lad["instance"] == lad["instance"].iloc[0]]
    with pytest.raises(ValueError, match="both in the training run and the ladder tier"):
        train.learning_set(pd.concat([g, one]), one)


def _with_decliner(g: pd.DataFrame, lad: pd.DataFrame, takes: list[str]
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows plus a pair of ours that declines every instance but ``takes`` (answered in
    10 ms there): rows copied from sat-hybrid's, as a declining formulation records them."""
    hybrid = "sat-hybrid[wall=auto,islands=layers,enclose=3,card=rings] / cadical195"

    def add(rows: pd.DataFrame) -> pd.DataFrame:
        f = rows[rows["pair"] == hybrid].copy()
        took = f["instance"].isin(takes)
        f = f.assign(formulation="declines", solver="external", pair="declines / external",
                     form="declines", origin="ours", exact=True, message="")
        f["status"] = took.map({True: "solved", False: "skipped"})
        f["ok"] = took
        f["par2_s"] = f["time_s"] = took.map({True: 0.01, False: float("nan")})
        return pd.concat([rows, f], ignore_index=True)

    return add(g), add(lad)


def test_a_pair_that_declines_some_instances_is_a_candidate_unsolved_where_it_declined(
        ) -> None:
    """Declining is a result: a pair of ours tried on every training instance is a candidate
    even where it declined every ladder instance, each declined task at PAR-2 (2 x the
    limit), so it wins only a branch of the instances it takes."""
    g, lad = _nurikabe_rows()
    train_rows = g[~g["instance"].map(train.seed_of).isin(train.HELD_BACK)]
    takes = sorted(train_rows["instance"].unique())[:3]
    g2, lad2 = _with_decliner(g, lad, takes)
    par2, pairs, _ = train.learning_set(g2, lad2)
    assert "declines / external" in pairs
    col = par2["declines / external"]
    assert (col[takes] == 0.01).all()
    limits = pd.concat([train_rows, lad]).groupby("instance")["time_limit"].max()
    declined = col.drop(takes)
    assert (declined == 2 * limits.reindex(declined.index)).all()
    # never tried on one training instance (no row at all): no candidate
    mine = lad2["pair"] == "declines / external"
    gone = mine & (lad2["instance"] == lad2.loc[mine, "instance"].iloc[0])
    assert "declines / external" not in train.learning_set(g2, lad2[~gone])[1]


def test_test_sets_leave_out_what_was_trained_on_and_judge_a_suite_without_tiers_whole(
        ) -> None:
    from bench.report.data import load_run, prepare
    from tests.conftest import ROOT

    t = prepare(load_run(ROOT / "results" / "nurikabe-hard-20261129-planar").df)
    assert not t["tier"].isin(train.TEST_TIERS).any()
    sets = train.test_sets(t, frozenset())
    assert [n for n, _ in sets] == [train.SUITE] and sets[0][1]["instance"].nunique() == 20
    few = t[t["instance"].str.contains("cover70")]
    trained = train._learned(few.head(1))
    (name, rows), = train.test_sets(t, trained)
    assert name == train.SUITE
    assert rows["instance"].nunique() == 19
    assert few["instance"].iloc[0] not in set(rows["instance"])


def test_a_judged_rule_may_pick_a_pair_outside_the_candidates() -> None:
    """A further selector (the committed rule, learned with other candidates) picks a pair the
    candidates lack: judged at that pair's times, the pair in the VBS's portfolio."""
    par2, ok, feats, cost = _test()
    C = "frontier / external"
    par2[C], ok[C] = [0.001, 20.0, 20.0, 20.0], [1.0, 0.0, 0.0, 0.0]
    rules = {"stump": Rule("nurikabe", A, B, "cells", 400.0), "tree": Rule("nurikabe", B, B),
             "committed": Rule("nurikabe", C, B, "cells", 400.0)}
    t = train.judge_set("nurikabe", "real (r)", par2, ok, feats, cost, rules, B, A, [A, B])
    assert abs(t.scores["committed"].par2_s - (0.001 + 20.0 + 1.0 + 2.0 + 0.004)) < 1e-9
    assert t.scores["committed"].solved == 3 and abs(t.vbs.par2_s - 3.021) < 1e-9


def test_a_committed_rule_is_never_judged_on_instances_it_was_learned_on() -> None:
    """Learning on training-20261129 alone and judging the committed rules
    (:func:`bench.select.robust.candidates`) on training-20261130, which they were learned
    on: only the seeds they held back are judged, and nothing crashes on the committed
    Nurikabe rule's frontier, which training-20261129 never ran."""
    from bench.report.data import content_digests, load_run, prepare
    from bench.select import robust
    from bench.select.rules import LADDER
    from tests.conftest import ROOT

    test_run = ROOT / "results/training-20261130"
    res = train.learn_and_judge([ROOT / "results/training-20261129"],
                                [ROOT / r for r in LADDER], [test_run], extra=robust.candidates)
    nurikabe = next(r for r in res if r.puzzle == "nurikabe")
    suite = next(t for t in nurikabe.tests if t.test == "suite (training-20261130)")
    rows = prepare(load_run(test_run).df, test_run)
    rows = rows[rows["puzzle"] == "nurikabe"]
    learned = train.training_digests(held_back=False)
    fresh = rows.loc[~content_digests(rows).isin(learned), "instance"]
    assert 0 < suite.instances <= fresh.nunique() < rows["instance"].nunique()
    assert set(suite.times["committed"].index) <= set(fresh)
    assert all(train.seed_of(str(i)) in train.HELD_BACK for i in suite.times["committed"].index)


def test_a_run_whose_instance_file_is_gone_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    """The judges read every instance's features from its file: a run whose file was moved
    away is one line on stderr and exit 2 (``bench.select.train``, ``bench.select.robust``
    through :func:`bench.select.train.judged`, and ``bench.select.learn``), no traceback."""
    import os
    import shutil
    import subprocess
    import sys

    from bench.select import learn
    from bench.select.rules import LADDER, TRAINING
    from tests.conftest import ROOT

    inst = tmp_path / "moved-10x10.txt"
    shutil.copy(ROOT / "instances/shikaku/seed-10x10.txt", inst)
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(inst), "--formulation",
                        "cpsat-cover", "--solver", "cpsat", "--time-limit", "5", "--jobs", "1",
                        "--out", str(tmp_path / "run")], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert p.returncode == 0, p.stderr
    inst.unlink()
    run = str(tmp_path / "run")
    assert train.main([",".join(str(ROOT / r) for r in TRAINING),
                       ",".join(str(ROOT / r) for r in LADDER), run]) == 2
    assert learn.main([run]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"bench.select.train: {inst}: no such file",
                   f"bench.select.learn: {inst}: no such file"]
