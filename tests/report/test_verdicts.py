"""The verdicts' statistics on synthetic results with a known truth (no timing).

Noise model: 20 instances whose base times spread log-uniformly over three orders of magnitude
(1 ms to 1 s), each pair's time = base x pair factor x log-normal noise with a 10 % coefficient
of variation, 3 repetitions folded to their median; fixed seeds.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.report import paired
from bench.report import tables as T
from bench.report import verdicts as V
from bench.report.data import SGM_SHIFT_S, did_not_run, per_instance, prepare, ran

ROOT = Path(__file__).resolve().parents[2]

DRAWS, INSTANCES, REPS, CV = 400, 20, 3, 0.10
SIGMA = math.sqrt(math.log(1 + CV**2))


def times(rng: np.random.Generator, factors: list[float], draws: int = DRAWS) -> np.ndarray:
    """(draws, pairs, instances): the median over REPS of base x factor x noise."""
    base = 10 ** rng.uniform(-3, 0, (draws, 1, INSTANCES, 1))
    f = np.asarray(factors)[None, :, None, None]
    noise = rng.lognormal(-SIGMA**2 / 2, SIGMA, (draws, len(factors), INSTANCES, REPS))
    return np.median(base * f * noise, axis=-1)


def frame(x: np.ndarray, names: list[str], wrong: dict[tuple[str, int], bool] | None = None,
          limit: float = 10.0) -> pd.DataFrame:
    """Prepared-like task rows (one repetition per (pair, instance)) from a (pairs, instances)
    array of times."""
    rows = []
    for i, name in enumerate(names):
        for j in range(x.shape[1]):
            bad = bool((wrong or {}).get((name, j)))
            rows.append({"puzzle": "shikaku", "form": name, "formulation": name,
                         "solver": "cadical195", "kind": "sat", "pair": f"{name} / cadical195",
                         "instance": f"i{j:02d}", "family": "generated", "tier": "ladder",
                         "cells": 100.0 * (1 + j % 4), "status": "wrong" if bad else "solved",
                         "ok": not bad, "wrong": bad, "disagree": False,
                         "time_s": np.nan if bad else x[i, j],
                         "par2_s": 2 * limit if bad else x[i, j], "time_limit": limit,
                         "mem_mb": 1.0, "constraints": 1, "variables": 1, "rep": 0, "seed": 0,
                         "iterations": 1, "setup_s": np.nan})
    return pd.DataFrame(rows)


def test_a_pair_with_one_wrong_answer_and_the_lowest_times_is_not_best_and_is_named():
    x = times(np.random.default_rng(3), [0.5, 1.0, 1.5], draws=1)[0]
    t = frame(x, ["fast", "b", "c"], wrong={("fast", 4): True})
    r = V.compare(per_instance(t))
    assert r.loc[0, "pair"] == "b / cadical195" and r.loc[0, "verdict"] == "best"
    assert r.set_index("pair").loc["fast / cadical195", "verdict"] == "wrong answers"
    cell = V.cell("shikaku", "ladder", per_instance(t))
    assert cell.row["best"].startswith("b / cadical195")
    assert any("fast / cadical195 gave 1 wrong" in s for s in cell.lines)
    rank = T.ranking(t)
    assert rank.loc[0, "pair"] == "b / cadical195" and bool(rank.loc[0, "best"])
    assert not rank.set_index("pair").loc["fast / cadical195", "best"]
    assert "fast / cadical195 (1)" in T.verdict("shikaku", t, rank)


def growth(statuses: dict[float, str], pair: str = "p / s") -> pd.DataFrame:
    """Per-instance rows of one pair, one instance per size (cells) with the given status."""
    rows = []
    for cells, status in statuses.items():
        ok = status == "solved"
        rows.append({"puzzle": "shikaku", "form": "p", "formulation": "p", "solver": "s",
                     "kind": "sat", "pair": pair, "instance": f"i{cells:g}",
                     "family": "generated", "tier": "ladder", "cells": cells,
                     "status": status, "ok": ok, "wrong": status == "wrong",
                     "disagree": False, "time_s": cells / 1000 if ok else np.nan,
                     "par2_s": cells / 1000 if ok else 20.0, "time_limit": 10.0,
                     "mem_mb": 1.0, "constraints": 1, "variables": 1})
    return per_instance(pd.DataFrame(rows))


def test_two_sizes_give_no_slope():
    sl = T.slopes(growth({100.0: "solved", 400.0: "solved"}), ["p / s"])
    assert sl.loc[0, "slope"] == "n/a" and sl.loc[0, "sizes"] == 2
    sl = T.slopes(growth({100.0: "solved", 400.0: "solved", 1600.0: "solved"}), ["p / s"])
    assert float(sl.loc[0, "slope"]) == pytest.approx(1.0)


def test_errors_and_memouts_are_never_censored_timeouts():
    pi = growth({100.0: "solved", 200.0: "solved", 400.0: "solved", 800.0: "timeout",
                 1600.0: "memout", 3200.0: "error", 6400.0: "wrong"})
    row = T.slopes(pi, ["p / s"]).iloc[0]
    assert (row["censored"], row["memout"], row["error"], row["wrong"]) == (1, 1, 1, 1)
    assert row["instances"] == 4  # three answered and the timeout at the limit
    # with no timeout at all there is nothing censored, whatever failed
    pi = growth({100.0: "solved", 200.0: "solved", 400.0: "solved", 1600.0: "memout",
                 3200.0: "error"})
    row = T.slopes(pi, ["p / s"]).iloc[0]
    assert (row["censored"], row["memout"], row["error"]) == (0, 1, 1)
    assert row["note"] == "" and float(row["slope"]) == pytest.approx(1.0)


def _time_out(t: pd.DataFrame, name: str, instances: list[int], limit: float = 10.0) -> None:
    """Make ``name``'s tasks on ``instances`` timeouts (in place)."""
    hit = (t["form"] == name) & t["instance"].isin([f"i{j:02d}" for j in instances])
    t.loc[hit, ["status", "ok", "time_s", "par2_s"]] = ["timeout", False, np.nan, 2 * limit]


def test_a_not_run_timeout_has_its_own_letter():
    x = times(np.random.default_rng(29), [1.0, 2.0], draws=1)[0]
    t = frame(x, ["a", "b"])
    t["message"] = ""
    _time_out(t, "b", [3, 4])
    t.loc[(t["form"] == "b") & (t["instance"] == "i04"), "message"] = "not run: timed out on i03"
    m = T.status_matrix(t).set_index("instance")
    assert m.at["i03", "b / cadical195"] == "T" and m.at["i04", "b / cadical195"] == "N"
    assert m.at["i04", "a / cadical195"] == "S"


# --- what did not run is missing -------------------------------------------------------------

#: the committed v11 default-suite run (its Parquet file): the first of these that exists
V11 = [ROOT / "results" / "default-20261128-182223" / "results.parquet",
       ROOT / "tests" / "data" / "default-20261128-182223" / "results.parquet",
       ROOT / "reports" / "default-20261128-182223" / "results.parquet"]
VERDICT = ["puzzle", "tier", "limit", "instances", "best", "answered", "sgm", "lead",
           "separated", "equivalent", "inconclusive", "separable"]


def _v11() -> pd.DataFrame:
    path = next((p for p in V11 if p.is_file()), None)
    if path is None:
        pytest.skip("the v11 run's results.parquet is not in this checkout")
    return prepare(pd.read_parquet(path))


def test_deleting_every_not_run_row_of_v11_changes_no_verdict():
    t = _v11()
    gone = did_not_run(t)
    assert int(gone.sum()) == 192  # the ladder rule's tasks in v11
    full, lines = V.matrix(t)
    kept, kept_lines = V.matrix(t[~gone])
    pd.testing.assert_frame_equal(full[VERDICT], kept[VERDICT])
    assert [x for x in lines if "not run" not in x] == kept_lines
    assert full["not run"].astype(int).sum() == 192 and set(kept["not run"]) == {0}
    hard = full.set_index(["puzzle", "tier"]).loc[("fillomino", "hard")]
    assert hard["answered"] == "8/8" and "cpsat-tree / cpsat" in hard["lead"]
    assert "(1 of 8 run)" in hard["lead"] and hard["separated"] == "0 of 1"
    assert "7 pair(s) ran none" in hard["note"]
    line = next(x for x in lines if x.startswith("fillomino, hard:"))
    assert "cpsat-tree / cpsat (0 of 1)" in line
    # Shakashaka hard: mip-local on HiGHS, about 54x the best over 6 instances, is separated
    sh = V.compare(per_instance(ran(t[(t["puzzle"] == "shakashaka") & (t["tier"] == "hard")])))
    row = sh.set_index("pair").loc["mip-local / highs"]
    assert row["verdict"] == V.SEPARATED and row["ratio_lo"] > 40


def test_a_not_run_task_is_in_no_count_and_the_instance_view_says_why():
    x = times(np.random.default_rng(23), [1.0, 2.0], draws=1)[0]
    t = frame(x, ["a", "b"])
    t["message"] = ""
    _time_out(t, "b", [3, 4, 5])
    nr = (t["form"] == "b") & t["instance"].isin(["i04", "i05"])
    t.loc[nr, "message"] = "not run: timed out on i03 (10x10, limit 10 s)"
    r = T.ranking(t).set_index("pair")
    assert r.loc["b / cadical195", "instances"] == 18 and r.loc["b / cadical195", "timeout"] == 1
    assert r.loc["b / cadical195", "verdict"].endswith("(18 of 20 run)")
    _, lines = V.matrix(t)
    assert lines[-1] == ("shikaku: 2 task(s) not run (the suite's ladder rule (timed out on an "
                         "earlier instance of its family)); left out of every count, time and "
                         "test: b / cadical195 (2).")
    d = V.design(t).iloc[0]
    assert (d["tasks run"], d["not run"], d["instances run"]) == (38, 2, 20)
    from bench.report.instances import rows
    t = t.assign(checked=True, known=None, peak_rss_mb=1.0)
    view = {r[0]: r for r in rows(t)[("shikaku", "i04")]}
    assert view["b / cadical195"][1] == "N" and view["b / cadical195"][6] == 0
    assert view["b / cadical195"][7].startswith("not run: timed out on i03")


# --- the test against the best: synthetic runs with known factors ----------------------------

SPREAD, CENSORED, PAIRS = 0.4, 0.10, 7


def draw(rng: np.random.Generator, n: int, factors: list[float]) -> tuple[np.ndarray, float]:
    """(pairs, instances) times: base times log-uniform over 2.5 decades, each pair's time =
    base x factor x log-normal noise (log-scale spread SPREAD), and the limit at which
    CENSORED of all times are cut."""
    base = 10 ** rng.uniform(-2, 0.5, (1, n))
    t = base * np.asarray(factors)[:, None] * np.exp(rng.normal(0, SPREAD, (len(factors), n)))
    return t, float(np.quantile(t, 1 - CENSORED))


def separated_rate(draws: int, n: int, factors: list[float],
                   seed: int) -> tuple[np.ndarray, float]:
    """Per pair, the share of draws in which the max-T test separates it from the best; and
    the share of draws in which it separates some pair."""
    rng = np.random.default_rng(seed)
    hits, some = np.zeros(len(factors)), 0
    for _ in range(draws):
        t, limit = draw(rng, n, factors)
        sep = np.nan_to_num(paired.maxt(np.log(np.minimum(t, limit) + SGM_SHIFT_S)).p,
                            nan=1.0) < V.ALPHA
        hits += sep
        some += bool(sep.any())
    return hits / draws, some / draws


def test_all_pairs_equal_are_rarely_separated_quick():
    # 400 draws: a share's standard error is 1.1 points, so the quick bound is 8 % (the test
    # is exact at 5 %: 5.0 % over 5,000 draws at 8 instances)
    for n in (8, 12):
        assert separated_rate(400, n, [1.0] * PAIRS, seed=1000 + n)[1] <= 0.08


def test_one_pair_2x_slower_is_separated_at_12_instances_quick():
    assert separated_rate(100, 12, [1.0] * (PAIRS - 1) + [2.0], seed=3)[0][-1] >= 0.80


@pytest.mark.slow
@pytest.mark.parametrize("n", [8, 12])
def test_all_pairs_equal_are_separated_in_at_most_6_percent(n):
    # family-wise: some pair separated in a draw (the best is re-chosen in every draw)
    assert separated_rate(1000, n, [1.0] * PAIRS, seed=100 + n)[1] <= 0.06


@pytest.mark.slow
def test_one_pair_2x_slower_is_separated_in_80_percent_at_12_instances():
    assert separated_rate(1000, 12, [1.0] * (PAIRS - 1) + [2.0], seed=200)[0][-1] >= 0.80


def test_8_of_8_against_7_of_8_with_one_differing_instance_is_not_separated():
    rng = np.random.default_rng(31)
    for pairs in (2, PAIRS):
        x = np.repeat(times(rng, [1.0], draws=1)[0][:, :8], pairs, axis=0)
        x = x * np.exp(rng.normal(0, 0.02, x.shape))  # alike up to timer noise
        t = frame(x, [f"p{k}" for k in range(pairs)])
        _time_out(t, "p1", [3])
        r = V.compare(per_instance(t)).set_index("pair")
        assert r.loc["p1 / cadical195", "verdict"] in (V.INCONCLUSIVE, V.EQUIVALENT), r
        assert r.loc["p1 / cadical195", "solved"] == 7
        assert V.cell("shikaku", "ladder", per_instance(t)).row["separated"] == \
            f"0 of {pairs - 1}"


def test_a_54x_pair_is_never_equivalent():
    rng = np.random.default_rng(54)
    for _ in range(40):
        x = times(rng, [1.0, 54.0, 1.0], draws=1)[0][:, :8]
        r = V.compare(per_instance(frame(x, ["a", "slow", "c"]))).set_index("pair")
        assert r.loc["slow / cadical195", "verdict"] == V.SEPARATED
        assert r.loc["slow / cadical195", "ratio_lo"] > V.MARGIN
    # whatever its test says, an interval outside the margin is never "equivalent"
    assert not paired.equivalent(52.0, 58.0, 8, False)
    assert not paired.equivalent(1.1, 1.3, 8, False)  # reaches past 1.25
    assert not paired.equivalent(0.9, 1.1, 8, True)  # censored: a bound, no estimate
    assert not paired.equivalent(0.9, 1.1, 4, False)  # too few
    assert paired.equivalent(0.9, 1.1, 8, False)


def test_seven_pairs_3x_slower_over_8_instances_are_separated_not_forced_ties():
    x = times(np.random.default_rng(5), [1.0] + [3.0] * 7, draws=1)[0][:, :8]
    c = V.cell("shikaku", "ladder", per_instance(frame(x, list("abcdefgh"))))
    assert c.row["separated"] == "7 of 7" and c.row["best"] == "a / cadical195"
    assert c.lines[0].startswith("shikaku, ladder: a / cadical195 is best (8 of 8 answered); "
                                 "the runner-up ")


def test_answered_count_gaps_are_decided_by_the_test_not_by_a_rule():
    # 20 instances alike, b times out on 2 of them: not separated by its answered count ...
    x = times(np.random.default_rng(13), [1.0, 1.0], draws=1)[0]
    t = frame(x, ["a", "b"])
    _time_out(t, "b", [0, 1])
    r = V.compare(per_instance(t)).set_index("pair")
    assert r.loc["b / cadical195", "solved"] == 18
    assert r.loc["b / cadical195", "verdict"] == V.INCONCLUSIVE
    assert r.loc["b / cadical195", "censored"] == "other"
    # ... and a pair 3x faster where it answers, timing out on 2 of 20, is the best
    x = times(np.random.default_rng(13), [3.0, 1.0], draws=1)[0]
    t = frame(x, ["slow", "fast"])
    _time_out(t, "fast", [0, 1])
    r = V.compare(per_instance(t))
    assert r.loc[0, "pair"] == "fast / cadical195"
    assert r.set_index("pair").loc["slow / cadical195", "verdict"] == V.SEPARATED


def test_too_few_instances_print_no_interval_and_decide_nothing():
    x = times(np.random.default_rng(5), [1.0, 3.0], draws=1)[0][:, :4]
    c = V.cell("shikaku", "seeds", per_instance(frame(x, ["a", "b"])))
    assert "(too few)" in str(c.row["sgm"]) and "(too few: 4)" in str(c.row["lead"])
    assert "inconclusive" in str(c.row["lead"]) and c.row["separable"] == "–"


def test_the_matrix_pools_only_tiers_of_one_limit():
    x = times(np.random.default_rng(1), [1.0, 1.5], draws=1)[0]
    t = frame(x, ["a", "b"])
    t.loc[t["instance"] < "i06", "tier"] = "seeds"
    m, lines = V.matrix(t)
    assert sorted(m["tier"]) == ["ladder", "pooled", "seeds"]
    assert set(m["answered"]) == {"14/14", "6/6", "20/20"}
    t.loc[t["tier"] == "seeds", "time_limit"] = 3.0
    m, lines = V.matrix(t)
    assert "pooled" not in set(m["tier"])
    assert "shikaku: no pooled row: its tiers have different time limits (3 s, 10 s)." in lines


# --- intervals that hold their coverage ------------------------------------------------------

def coverage(draws: int, n: int, seed: int) -> tuple[float, float]:
    """Shares of draws whose 95 % intervals cover the true ratio (a pair 1.5x slower) and the
    true SGM, over n instances drawn like :func:`draw` without censoring; the truths from a
    million instances."""
    rng = np.random.default_rng(seed)
    big, _ = draw(np.random.default_rng(0), 1_000_000, [1.5, 1.0])
    lb = np.log(big + SGM_SHIFT_S)
    true_ratio = math.exp(float((lb[0] - lb[1]).mean()))
    true_sgm = math.exp(float(lb[1].mean())) - SGM_SHIFT_S
    ratio = sgm = 0
    for _ in range(draws):
        t, _ = draw(rng, n, [1.5, 1.0])
        _, lo, hi = V.ratio_interval(t[0], t[1])
        ratio += lo <= true_ratio <= hi
        _, lo, hi = V.sgm_interval(t[1])
        sgm += lo <= true_sgm <= hi
    return ratio / draws, sgm / draws


def test_intervals_hold_their_coverage_at_8_instances_quick():
    # 400 draws: a share's standard error is 1.1 points, so the quick bound is 91 %
    r, s = coverage(400, 8, seed=1)
    assert r >= 0.91 and s >= 0.91


@pytest.mark.slow
def test_intervals_hold_93_percent_coverage_at_8_instances():
    r, s = coverage(1000, 8, seed=88)
    assert r >= 0.93 and s >= 0.93


def test_the_environment_records_scipy_whose_version_the_verdicts_depend_on():
    import scipy

    from bench.run.environment import package_versions
    assert package_versions()["scipy"] == scipy.__version__


def test_the_sgm_range_compares_repetitions_on_the_instances_all_of_them_ran():
    x = np.array([[0.1, 0.2, 0.3, 5.0]])
    seed0 = frame(x, ["a"])
    seed1 = frame(x, ["a"]).assign(seed=1).iloc[:3]  # the same times, not the slow instance
    r = T._rep_sgms(pd.concat([seed0, seed1], ignore_index=True))
    assert r.loc["a / cadical195", "min"] == pytest.approx(r.loc["a / cadical195", "max"])


def test_the_design_table_shows_seeds_a_task_and_seed_beside_instance_spread():
    """Three seeds of one pair differ by 1.1x on an instance, instances by 10x: the design
    table says 3 seeds a task and shows the seed spread far below the instance spread; a
    capped pair's not-run tasks are named with their reason."""
    rng = np.random.default_rng(5)
    x = times(rng, [1.0, 3.0], draws=1)[0]
    seeded = []
    for s, f in enumerate([1.0, 1.1, 1.0 / 1.1]):
        part = frame(x * f, ["a", "b"])
        part["seed"] = s
        seeded.append(part)
    t = pd.concat(seeded, ignore_index=True)
    t["message"] = ""
    cap = (t["form"] == "b") & t["instance"].isin(["i18", "i19"]) & (t["seed"] == 0)
    t.loc[cap, "status"] = "timeout"
    t.loc[cap, "ok"] = False
    t.loc[cap, "time_s"] = np.nan
    t.loc[cap, "message"] = "not run: capped: hopeless in the suite's pilot"
    t = t[~((t["form"] == "b") & t["instance"].isin(["i18", "i19"]) & (t["seed"] > 0))]
    d = V.design(t).iloc[0]
    assert d["seeds a task"] == 3 and d["seeds"] == "3 (0–2)"
    seed_sd, inst_sd = V.spread(ran(t))
    # the sd of log(t) over the three seeds is log 1.1; the 10 ms shift can only shrink it
    assert 0.5 * math.log(1.1) < seed_sd <= math.log(1.1) + 1e-9
    assert inst_sd > 5 * seed_sd
    assert d["seed spread"] == f"×{math.exp(seed_sd):.2f}"
    assert d["why not run"] == "2: the suite's cap on a pair its pilot showed hopeless"
    assert "unit of analysis is the instance" in V.DESIGN_NOTE


def test_the_threshold_is_the_least_null_value_whose_p_is_below_the_level():
    null = np.random.default_rng(2).normal(size=1000)
    v = paired.threshold(null, 1000)
    p = [(1 + np.sum(null >= x - 1e-9)) / 1001 for x in np.sort(null)]
    k = int(np.searchsorted(np.sort(null), v))
    assert p[k] < paired.ALPHA <= p[k - 1]
    assert math.isnan(paired.threshold(np.full(1000, -np.inf), 1000))


@pytest.mark.parametrize(("n", "separable"), [(5, V.NONE_SEPARABLE), (6, V.ALL_SEPARATED)])
def test_no_factor_is_separable_where_no_arrangement_of_the_data_reaches_the_level(
        n: int, separable: str):
    """Two pairs, one 2-3x slower on every instance: on 5 instances the exact p of the most
    extreme of the 32 sign patterns (taken twice: the best is chosen again) is 2/32, and with
    these data's permutations nothing is separated and the separable column says so; on 6
    (2/64) the difference is separated, and with no pair left in the last step the separable
    column says so (its threshold would only echo the separated pair's own factor)."""
    slow = np.linspace(2.0, 3.0, n)
    t = frame(np.vstack([np.ones(n), slow]), ["a", "b"])
    c = V.cell("shikaku", "hard", per_instance(t))
    assert str(c.row["separable"]).startswith(separable)
    assert ("separated" in str(c.row["lead"])) == (n == 6)
    g = V.analyse(per_instance(t))
    assert math.isinf(g.separable) == (n == 5)


def test_a_group_whose_main_test_compared_no_pair_has_no_separable_figure():
    """The best ran 8 instances, the only other pair 6 of them: it is tested apart, the main
    max-T test compares nothing, and the separable column is "–" (not "none at this size")."""
    n = 8
    t = frame(np.vstack([np.ones(n), np.linspace(2, 3, n)]), ["a", "b"])
    t = t[~((t["form"] == "b") & t["instance"].isin(["i00", "i01"]))]
    c = V.cell("shikaku", "hard", per_instance(t))
    assert "separated" in str(c.row["lead"]) and c.row["separable"] == "–"
    assert math.isnan(V.analyse(per_instance(t)).separable)


def test_a_small_step_takes_every_arrangement_and_its_p_is_the_exact_one():
    """Two pairs on 8 instances: 2^8 arrangements, fewer than the draws, so the p is the
    share of sign patterns at least as extreme (brute force here), and on 5 instances no
    data set of two pairs can be separated (the exact p is at least 2/32)."""
    import itertools

    rng = np.random.default_rng(1)
    y = rng.normal(size=(2, 8))
    y[1] += 0.8
    d = y[1] - y[0]
    extreme = sum(abs(np.dot(s, d)) >= abs(d.sum()) - 1e-9
                  for s in itertools.product([1, -1], repeat=8))
    assert paired.maxt(y).p[1] == extreme / 256
    assert len(paired.arrangements(y.T, 1000)) == 256
    assert paired.arrangements(np.zeros((4, 3)), 1000) is None  # 6^4 = 1296 > 1000
    for k in range(50):
        five = np.random.default_rng(k).normal(size=(2, 5))
        five[1] = five[0] + np.abs(five[1]) + 0.1  # slower on every instance
        m = paired.maxt(five)
        assert m.p[1] == 2 / 32 and math.isnan(m.critical)


def test_a_ranking_over_tiers_does_not_call_pairs_equivalent_that_one_tier_shows_apart():
    """Two tiers of 20 instances: "b" takes 0.7x the best's time on one and 1.45x on the
    other, so pooled its interval lies inside 1/1.25..1.25, while on each tier alone it lies
    wholly outside: the pooled ranking and the matrix's pooled row call it inconclusive,
    naming the first such tier; so do they for a "b" that ran 39 of the 40 instances."""
    rng = np.random.default_rng(11)
    base = 10 ** rng.uniform(-2, 0, INSTANCES)
    a = np.stack([base, base * 0.7])  # on "real", b takes 0.7x the best's time
    c = np.stack([base, base * 1.45])  # on "hard", 1.45x
    t = pd.concat([frame(a, ["best", "b"]).assign(tier="real"),
                   frame(c, ["best", "b"]).assign(tier="hard",
                                                 instance=lambda d: "h" + d["instance"])],
                  ignore_index=True)
    pooled = V.compare(per_instance(t)).set_index("pair")
    b = pooled.loc["b / cadical195"]
    assert 1 / paired.MARGIN < b["ratio_lo"] < b["ratio_hi"] < paired.MARGIN  # the average
    assert (b["verdict"], b["apart"]) == (V.INCONCLUSIVE, "real")
    r = T.ranking(t).set_index("pair")
    assert r.loc["b / cadical195", "verdict"] == (
        f"{V.INCONCLUSIVE} (equivalent pooled, not on the real tier)")
    assert not r.loc["b / cadical195", "tie"]
    m, _ = V.matrix(t)
    row = m[m["tier"] == "pooled"].iloc[0]
    assert (row["best"], row["equivalent"], row["inconclusive"]) == ("best / cadical195", "0",
                                                                      "1"), row.to_dict()
    fewer = t[(t["form"] != "b") | (t["instance"] != "i00")]  # b ran 39 of the 40
    r = T.ranking(fewer).set_index("pair")
    assert r.loc["b / cadical195", "verdict"] == (
        f"{V.INCONCLUSIVE} (equivalent pooled, not on the real tier) (39 of 40 run)")
    assert not r.loc["b / cadical195", "tie"]
    one = T.ranking(t[t["tier"] == "real"]).set_index("pair")  # one tier: not judged by tiers
    assert not one.loc[:, "verdict"].str.contains("pooled").any()


def _slope_of(first_s: float, status: str) -> pd.Series:
    """One pair at 25/100/400/1600 cells taking 0.1/0.2/0.4 s on the three largest, the
    smallest ``status`` at ``first_s`` (a timeout at a 3 s limit: censored there)."""
    pi = growth({25.0: status, 100.0: "solved", 400.0: "solved", 1600.0: "solved"})
    pi["time_limit"] = 3.0
    pi.loc[pi["cells"] > 25, "time_s"] = [0.1, 0.2, 0.4]
    pi.loc[pi["cells"] == 25, "time_s"] = first_s
    pi["par2_s"] = pi["time_s"]
    return T.slopes(pi, ["p / s"]).iloc[0]


def _fit(sizes: list[float], times: list[float]) -> float:
    return float(np.polyfit(np.log(sizes), np.log(times), 1)[0])


@pytest.mark.parametrize(("censored", "word"), [([0], "upper bound"), ([3], "lower bound"),
                                                ([0, 3], "censored: no bound")])
def test_a_censored_slope_is_a_bound_only_in_the_direction_raising_it_moves_it(censored, word):
    """Raising a censored time (the true time is at least the limit) moves the slope the way
    the note claims: below the mean log size it lowers it (an upper bound), above it raises it
    (a lower bound); with censored points on both sides no direction holds."""
    sizes = [25.0, 100.0, 400.0, 1600.0]
    times = [3.0 if i in censored else 0.1 * 2**i for i in range(4)]
    note = T.censored_slope(np.log(sizes), np.array([i in censored for i in range(4)]))
    assert note.startswith(word)
    at_limit = _fit(sizes, times)
    moves = [_fit(sizes, [t * 10 if i == c else t for i, t in enumerate(times)]) - at_limit
             for c in censored]
    if word == "upper bound":
        assert moves[0] < 0
    elif word == "lower bound":
        assert moves[0] > 0
    else:
        assert moves[0] < 0 < moves[1]  # one raises the slope, the other lowers it


def test_the_growth_slope_of_a_pair_timing_out_on_its_smallest_instance_is_an_upper_bound():
    row = _slope_of(3.0, "timeout")
    assert float(row["slope"]) == pytest.approx(-0.386, abs=1e-3)
    assert row["note"].startswith("upper bound")
    # the fit over a true time of 30 s there (an answer above the limit is itself censored)
    assert _fit([25.0, 100.0, 400.0, 1600.0], [30.0, 0.1, 0.2, 0.4]) < float(row["slope"])
