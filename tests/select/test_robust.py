"""The robust-default verdict (:mod:`bench.select.robust`): no answer lost, more answers on
some set, and a one-sided Wilcoxon signed-rank test that the selector is within 10 % of the
declared default's per-instance PAR-2 on every set; small or undecided sets are not earned."""

from __future__ import annotations

import pandas as pd

from bench.select import robust, train
from bench.select.auto import Rule

D = "sat-hybrid / cadical195"


def _test(name: str, s: list[float], d: list[float], s_ok: list[bool], d_ok: list[bool]
          ) -> train.Test:
    idx = [f"i{k}" for k in range(len(s))]
    t = train.Test("nurikabe", name, len(s), 0, train.Score(0.0, 0.0, 0, 0))
    t.times = {"escape": pd.Series(s, index=idx), "default": pd.Series(d, index=idx)}
    t.answered = {"escape": pd.Series(s_ok, index=idx), "default": pd.Series(d_ok, index=idx)}
    return t


def _learned(*tests: train.Test) -> train.Learned:
    rule = Rule("nurikabe", D, D)
    res = train.Learned("nurikabe", 10, [D], D, D, rule, rule, extra={"escape": rule})
    res.tests.extend(tests)
    return res


def test_the_same_times_plus_the_features_cost_and_more_answers_somewhere_earn_it() -> None:
    same = _test("real (r)", [1.001] * 6, [1.0] * 6, [True] * 6, [True] * 6)
    more = _test("suite (h)", [2.0] * 6, [120.0] * 3 + [2.0] * 3, [True] * 6,
                 [False] * 3 + [True] * 3)
    ok, why = robust.verdict(_learned(same, more), "escape")
    assert ok, why
    assert robust.checks(_learned(same), "escape")[0].p == 1 / 64  # exact: every r below


def test_no_more_answers_anywhere_is_not_earned() -> None:
    same = _test("real (r)", [1.001] * 6, [1.0] * 6, [True] * 6, [True] * 6)
    ok, why = robust.verdict(_learned(same), "escape")
    assert not ok and "answers no more than the default" in why


def test_a_lost_answer_is_not_earned_whatever_the_time() -> None:
    more = _test("suite (h)", [2.0] * 6, [120.0] * 3 + [2.0] * 3, [True] * 6,
                 [False] * 3 + [True] * 3)
    lost = _test("hard (r)", [0.5] * 5 + [120.0], [1.0] * 6, [True] * 5 + [False], [True] * 6)
    ok, why = robust.verdict(_learned(more, lost), "escape")
    assert not ok and "hard (r): 1 answers lost" in why


def test_twenty_percent_slower_or_too_few_instances_is_inconclusive_not_earned() -> None:
    more = _test("suite (h)", [2.0] * 6, [120.0] * 3 + [2.0] * 3, [True] * 6,
                 [False] * 3 + [True] * 3)
    slow = _test("hard (r)", [1.2] * 8, [1.0] * 8, [True] * 8, [True] * 8)
    ok, why = robust.verdict(_learned(more, slow), "escape")
    assert not ok and "hard (r): not shown within 10%" in why
    # four instances, all faster: the smallest one-sided exact p is 1/16 > 0.05
    few = _test("hard (r)", [0.5] * 4, [1.0] * 4, [True] * 4, [True] * 4)
    ok, why = robust.verdict(_learned(more, few), "escape")
    assert not ok and "inconclusive" in why


IDX = [f"i{k}" for k in range(6)]


def _declining(pair: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A training matrix (PAR-2, features) where ``pair`` wins the three few-clue instances
    and the default ``D`` the three many-clue ones."""
    from bench.select import features

    par2 = pd.DataFrame({D: [10.0, 10.0, 10.0, 0.1, 0.1, 0.1],
                         pair: [1.0, 1.0, 1.0, 10.0, 10.0, 10.0]}, index=IDX)
    feats = pd.DataFrame({n: 0.0 for n in features.NAMES}, index=IDX)
    feats["clues"] = [2.0, 2.0, 3.0, 30.0, 40.0, 50.0]
    return par2, feats


def _declined(pair: str) -> pd.DataFrame:
    """``pair``'s rows declining the three many-clue instances."""
    return pd.DataFrame({"pair": [pair] * 3, "instance": IDX[3:], "status": ["skipped"] * 3,
                         "message": [""] * 3})


def test_the_candidates_are_the_committed_rule_the_escape_and_the_acceptance_rule() -> None:
    """On a training matrix where the declined pair wins the few-clue instances: ``escape`` is
    learned on the default and that pair only, ``accepts`` is the pair's own clue limit."""
    f = "frontier / external"
    c = robust.candidates("nurikabe", *_declining(f), [D, f], D, _declined(f))
    assert set(c) == {"committed", "escape", "accepts"}
    assert c["escape"].pairs() == {D, f} and c["escape"].feature == "clues"
    assert (c["accepts"].feature, c["accepts"].threshold) == ("clues", 3.5)
    assert (c["accepts"].low, c["accepts"].high) == (f, D)


def test_a_declining_pair_that_is_not_exact_is_no_escape() -> None:
    """Only exact pairs escape: ``mip-seed`` (``exact=false`` by default) declining the same
    instances as ``frontier`` above gives neither ``escape`` nor ``accepts``."""
    m = "mip-seed / highs"
    assert set(robust.candidates("nurikabe", *_declining(m), [D, m], D,
                                 _declined(m))) == {"committed"}
