"""The depth-2 ``auto`` rule: how it chooses and says why, how it is learned (cost-sensitive,
each branch at least two training instances), and when it is kept over the stump."""

from __future__ import annotations

import pandas as pd

from bench.select import learn
from bench.select.auto import Rule, choose


def test_a_depth_two_rule_chooses_down_both_splits_and_says_each() -> None:
    inner = Rule("nurikabe", "sat-lazy / cadical195", "asp-reach / clingo", "ones_share", 0.3)
    r = Rule("nurikabe", inner, "sat-hybrid / cadical195", "cells", 400.0)
    c = choose(r, {"cells": 100.0, "ones_share": 0.5})
    assert c.pair == "asp-reach / clingo"
    assert c.why == "cells = 100 <= 400, ones_share = 0.5 > 0.3: asp-reach / clingo"
    assert choose(r, {"cells": 900.0, "ones_share": 0.5}).pair == "sat-hybrid / cadical195"
    assert r.depth() == 2 and inner.depth() == 1
    assert r.pairs() == {"sat-lazy / cadical195", "asp-reach / clingo",
                         "sat-hybrid / cadical195"}
    assert r.body() == ("(sat-lazy / cadical195 if ones_share <= 0.3, else asp-reach / clingo) "
                        "if cells <= 400, else sat-hybrid / cadical195")


def _xor() -> tuple[pd.DataFrame, pd.DataFrame]:
    """A is best on small grids with few ones and on large grids with many; B elsewhere: no
    single threshold separates them, two do."""
    rows = []
    for cells in (100.0, 120.0, 900.0, 1000.0):
        for ones in (0.1, 0.2, 0.6, 0.7):
            a_wins = (cells < 500) == (ones < 0.5)
            rows.append((cells, ones, 0.1 if a_wins else 4.0, 4.0 if a_wins else 0.1))
    idx = [f"i{k}" for k in range(len(rows))]
    par2 = pd.DataFrame({"A": [r[2] for r in rows], "B": [r[3] for r in rows]}, index=idx)
    feats = pd.DataFrame({n: [0.0] * len(rows) for n in learn.features.NAMES}, index=idx)
    feats["cells"] = [r[0] for r in rows]
    feats["ones_share"] = [r[1] for r in rows]
    return par2, feats


def test_the_tree_finds_the_two_splits_the_stump_cannot() -> None:
    par2, feats = _xor()
    st = learn.stump("p", par2, feats, ["A", "B"])
    assert not st.feature  # no one threshold saves anything: every split is half right
    t = learn.tree("p", par2, feats, ["A", "B"])
    assert t.depth() == 2
    picked = [choose(t, feats.loc[i].to_dict()).pair for i in par2.index]
    assert all(par2.at[i, p] == 0.1 for i, p in zip(par2.index, picked, strict=True))
    assert "stump" in t.evidence


def test_the_tree_is_the_stump_where_a_second_split_saves_nothing() -> None:
    par2, feats = _xor()
    feats["ones_share"] = 0.0  # the second feature says nothing
    assert learn.tree("p", par2, feats, ["A", "B"]) == learn.stump("p", par2, feats, ["A", "B"])


def test_no_branch_holds_fewer_than_the_least_leaf() -> None:
    idx = [f"i{k}" for k in range(6)]
    # only the largest instance favours B: a split off one instance is not allowed
    par2 = pd.DataFrame({"A": [0.1] * 5 + [9.0], "B": [1.0] * 5 + [0.1]}, index=idx)
    feats = pd.DataFrame({n: [0.0] * 6 for n in learn.features.NAMES}, index=idx)
    feats["cells"] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    r = learn.stump("p", par2, feats, ["A", "B"])
    # the best split cuts off the last instance alone (cells 5.5); the rule's cuts off two
    assert (r.feature, r.threshold, r.low, r.high) == ("cells", 4.5, "A", "B")
