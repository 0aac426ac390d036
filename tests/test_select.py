"""The ``auto`` rule: a decision stump on cheap features, how it says why, how it is learned
and judged against the virtual best and the single best pair."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bench.select import learn
from bench.select.auto import Rule, choose


def test_choose_names_the_pair_the_value_and_the_branch() -> None:
    r = Rule("nurikabe", "sat-lazy / cadical195", "sat-hybrid / cadical195", "cells", 400.0)
    small = choose(r, {"cells": 100.0})
    big = choose(r, {"cells": 900.0})
    assert small.pair == "sat-lazy / cadical195" and "cells = 100 <= 400" in small.why
    assert big.pair == "sat-hybrid / cadical195" and "cells = 900 > 400" in big.why
    always = choose(Rule("shikaku", "cpsat-cover / cpsat", "cpsat-cover / cpsat"), {})
    assert always.pair == "cpsat-cover / cpsat" and "every shikaku instance" in always.why


def _matrix() -> tuple[pd.DataFrame, pd.DataFrame]:
    """A: fast on small grids, times out on large; B: steady; C: never best."""
    idx = [f"i{k}" for k in range(6)]
    cells = [25.0, 100.0, 196.0, 400.0, 900.0, 1600.0]
    par2 = pd.DataFrame({"A": [0.01, 0.02, 0.03, 10.0, 10.0, 10.0],
                         "B": [0.5, 0.5, 0.6, 0.7, 0.8, 0.9],
                         "C": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]}, index=idx)
    feats = pd.DataFrame({n: [0.0] * 6 for n in learn.features.NAMES}, index=idx)
    feats["cells"] = cells
    return par2, feats


def test_stump_splits_where_it_saves_and_stays_constant_where_not() -> None:
    par2, feats = _matrix()
    r = learn.stump("p", par2, feats, ["A", "B", "C"])
    assert (r.feature, r.low, r.high) == ("cells", "A", "B") and 196 < r.threshold < 400
    # the split's training cost is below the single best's, as its evidence says
    assert float(par2.loc[:"i2", "A"].sum() + par2.loc["i3":, "B"].sum()) < par2["B"].sum()
    flat = learn.stump("p", par2[["B", "C"]], feats, ["B", "C"])
    assert not flat.feature and flat.low == "B" and "no threshold" in flat.evidence


def test_judge_is_bounded_by_the_virtual_best() -> None:
    par2, feats = _matrix()
    ok = par2 < 5
    j = learn.judge("p", "test", learn.stump("p", par2, feats, ["A", "B"]), "B", par2,
                    ok.astype(float), feats)
    assert j.vbs_par2_s <= j.auto_par2_s < j.sbs_par2_s
    assert j.auto_solved == j.sbs_solved == j.vbs_solved == 6 and j.missing == 0


def test_a_pair_missing_on_a_test_instance_is_left_out_not_failed() -> None:
    par2, feats = _matrix()
    par2.loc["i5", "B"] = float("nan")  # not run
    j = learn.judge("p", "t", Rule("p", "B", "B"), "B", par2, (par2 < 5).astype(float), feats)
    assert j.instances == 5 and j.missing == 1


def test_run_folder_prefers_results_then_reports(tmp_path: Path) -> None:
    for d in ("reports", "results"):
        (tmp_path / d / "r1").mkdir(parents=True)
        (tmp_path / d / "r1" / "results.parquet").write_bytes(b"")
    assert learn.run_folder("r1", tmp_path) == tmp_path / "results" / "r1"
    (tmp_path / "results" / "r1" / "results.parquet").unlink()
    assert learn.run_folder("r1", tmp_path) == tmp_path / "reports" / "r1"
    with pytest.raises(FileNotFoundError, match="r2"):
        learn.run_folder("r2", tmp_path)
