"""The verdicts' statistics on synthetic results with a known truth (no timing).

Noise model: 20 instances whose base times spread log-uniformly over three orders of magnitude
(1 ms to 1 s), each pair's time = base x pair factor x log-normal noise with a 10 % coefficient
of variation, 3 repetitions folded to their median; fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from bench.report import tables as T
from bench.report import verdicts as V
from bench.report.data import per_instance

DRAWS, INSTANCES, REPS, CV = 400, 20, 3, 0.10
SIGMA = math.sqrt(math.log(1 + CV**2))


def times(rng: np.random.Generator, factors: list[float], draws: int = DRAWS) -> np.ndarray:
    """(draws, pairs, instances): the median over REPS of base x factor x noise."""
    base = 10 ** rng.uniform(-3, 0, (draws, 1, INSTANCES, 1))
    f = np.asarray(factors)[None, :, None, None]
    noise = rng.lognormal(-SIGMA**2 / 2, SIGMA, (draws, len(factors), INSTANCES, REPS))
    return np.median(base * f * noise, axis=-1)


def separated(x: np.ndarray) -> np.ndarray:
    """(draws, pairs): each pair separated from the draw's best (lowest SGM) after Holm."""
    sg = np.exp(np.log(x + 0.01).mean(axis=-1))
    best = np.argmin(sg, axis=1)
    b = x[np.arange(len(x)), best][:, None, :]
    p = V.signed_rank_p(x, np.broadcast_to(b, x.shape))
    others = np.arange(x.shape[1])[None, :] != best[:, None]
    p = np.where(others, p, np.nan)
    return np.nan_to_num(V.holm(p), nan=1.0) < V.ALPHA


def test_the_same_factor_is_rarely_separated_and_1_5x_nearly_always():
    x = times(np.random.default_rng(2026), [1.0, 1.0, 1.5])
    sep = separated(x)
    assert sep[:, 1].mean() <= 0.10  # the twin of the best (or the best's twin) is tied
    assert sep[:, 2].mean() >= 0.90  # the 1.5x pair is separated


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


def test_compare_agrees_with_the_vectorised_decision_on_a_few_draws():
    x = times(np.random.default_rng(7), [1.0, 1.0, 1.5], draws=12)
    sep = separated(x)
    for d in range(len(x)):
        r = V.compare(per_instance(frame(x[d], ["a", "b", "c"]))).set_index("pair")
        for k, name in enumerate(["a", "b", "c"]):
            v = r.loc[f"{name} / cadical195", "verdict"]
            assert (v == "slower") == bool(sep[d, k]), (d, name, v)
        # SGMs with a 10 ms shift: the ratio is diluted below the true 1.5, never near 1
        assert 1.2 < r.loc["c / cadical195", "ratio_lo"] < r.loc["c / cadical195", "ratio"]
        assert r.loc["c / cadical195", "ratio"] < r.loc["c / cadical195", "ratio_hi"] < 1.8


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


def test_small_tiers_always_tie_and_say_so():
    x = times(np.random.default_rng(5), [1.0, 3.0], draws=1)[0][:, :5]
    c = V.cell("shikaku", "seeds", per_instance(frame(x, ["a", "b"])))
    assert "≈" in str(c.row["best"])  # 3x slower on all 5, still not separable
    assert V.FEW in str(c.row["note"]) and "ties forced" in str(c.row["note"])
    assert "not distinguishable" in c.lines[0] and "1x" not in c.lines[0][:10]


def test_holm_over_many_pairs_forces_ties_where_one_pair_would_separate():
    # 8 instances: one pair 3x slower on all of them is separated (exact p = 2/256) ...
    x = times(np.random.default_rng(5), [1.0] + [3.0] * 7, draws=1)[0][:, :8]
    one = V.cell("shikaku", "ladder", per_instance(frame(x[:2], ["a", "b"])))
    assert "≈" not in str(one.row["best"]) and "ties forced" not in str(one.row["note"])
    # ... seven such pairs are not: Holm's first step gives 7 x 2/256 >= 0.05
    seven = V.cell("shikaku", "ladder", per_instance(frame(x, list("abcdefgh"))))
    assert str(seven.row["best"]).count("≈") == 4 and seven.row["separated"] == "0 of 7"
    assert "7 pairs tested: Holm p >= 0.055, ties forced" in str(seven.row["note"])
    assert V.least_holm_p(9, 7) < V.ALPHA <= V.least_holm_p(8, 7)
    # where every other pair answered fewer, answered counts decide: nothing is forced
    fewer = frame(x, list("abcdefgh"))
    out = fewer["pair"].ne("a / cadical195") & fewer["instance"].eq("i00")
    fewer.loc[out, ["status", "ok", "time_s", "par2_s"]] = ["timeout", False, np.nan, 20.0]
    c = V.cell("shikaku", "ladder", per_instance(fewer))
    assert c.row["separated"] == "7 of 7" and "ties forced" not in str(c.row["note"])


def test_the_overview_sentence_names_margin_and_interval():
    x = times(np.random.default_rng(11), [1.0, 2.0], draws=1)[0]
    c = V.cell("shikaku", "ladder", per_instance(frame(x, ["a", "b"])))
    line = c.lines[0]
    assert line.startswith("shikaku, ladder: a / cadical195 leads b / cadical195 by ")
    assert "x [" in line and "separated (Holm p = " in line
    assert c.row["note"] == ""  # 20 instances, all answered


def test_holm_step_down_worked_by_hand():
    # Holm's rule: sorted p_(i) times (m - i + 1), running maximum, capped at 1:
    # 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> max(0.04, 0.06)
    got = V.holm(np.array([0.01, 0.04, 0.03, 0.005]))
    assert got == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert np.isnan(V.holm(np.array([np.nan, 0.01]))[0])


def test_holm_agrees_with_statsmodels():
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    rng = np.random.default_rng(0)
    p = rng.uniform(0, 0.2, (6, 7)) ** 2
    got = V.holm(p)
    for row, mine in zip(p, got, strict=True):
        assert mine == pytest.approx(multipletests(row, method="holm")[1])
    with_nan = p[0].copy()
    with_nan[[1, 4]] = np.nan
    keep = ~np.isnan(with_nan)
    assert V.holm(with_nan)[keep] == pytest.approx(
        multipletests(with_nan[keep], method="holm")[1])


def test_the_matrix_has_a_row_per_tier_and_a_pooled_row():
    x = times(np.random.default_rng(1), [1.0, 1.5], draws=1)[0]
    t = frame(x, ["a", "b"])
    t.loc[t["instance"] < "i06", "tier"] = "seeds"
    m, lines = V.matrix(t)
    assert list(m["tier"]) == ["ladder", "seeds", "pooled"] or \
        list(m["tier"]) == ["seeds", "ladder", "pooled"]
    assert set(m["solved"]) == {"14/14", "6/6", "20/20"}
    assert len(lines) == 3


def test_effort_and_time_disagreement_is_said():
    x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 10.0]]) / 100
    t = frame(x, ["a", "b"])
    t["conflicts"] = np.where(t["form"] == "a", 500.0, 100.0)  # a faster, b fewer conflicts
    tab, lines = V.effort(t)
    assert set(tab["effort_rank"]) == {1, 2}
    assert len(lines) == 1 and "by time a < b; by conflicts b < a" in lines[0]
    t["conflicts"] = np.where(t["form"] == "a", 100.0, 500.0)
    assert V.effort(t)[1] == []


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


def test_the_best_by_solved_count_slower_on_common_instances_is_said_so():
    """The best answers more instances but is 3x slower where both answered: the sentence and
    the lead name the runner-up as the faster pair there, with a ratio above 1."""
    x = times(np.random.default_rng(13), [3.0, 1.0], draws=1)[0]
    t = frame(x, ["slow", "fast"])
    _time_out(t, "fast", [0, 1])
    c = V.cell("shikaku", "ladder", per_instance(t))
    assert c.row["best"] == "slow / cadical195" and c.row["solved"] == "20/20"
    line = c.lines[0]
    assert " leads " not in line, line
    assert line.startswith("shikaku, ladder: slow / cadical195 answers 20 against 18 for "
                           "fast / cadical195, but on the 18 both answered fast / cadical195 "
                           "is faster, by "), line
    ratio = float(line.split("faster, by ")[1].split("x")[0])
    assert 2.0 < ratio < 4.0  # the true factor, 3, diluted by the 10 ms shift
    lo, hi = (float(v) for v in line.split("[")[1].split("]")[0].split("–"))
    assert lo <= ratio <= hi
    assert str(c.row["lead"]).startswith("+2 answered; fast / cadical195 ")
    assert "faster on 18 common" in str(c.row["lead"])


def test_the_best_by_solved_count_also_faster_on_common_instances_leads():
    x = times(np.random.default_rng(17), [1.0, 3.0], draws=1)[0]
    t = frame(x, ["a", "b"])
    _time_out(t, "b", [5])
    line = V.cell("shikaku", "ladder", per_instance(t)).lines[0]
    assert line.startswith("shikaku, ladder: a / cadical195 answers 20 against 19 for "
                           "b / cadical195, and on the 19 both answered leads it by "), line
    assert float(line.split("leads it by ")[1].split("x")[0]) > 2.0


def test_a_best_by_sgm_over_different_instances_names_the_faster_pair_on_common():
    """Same solved count, different instances: ``a`` (1.2x slower everywhere) misses the
    hardest instance and ``b`` the easiest, so ``a`` has the lower PAR-2 SGM over all 20 and is
    best; the sentence names ``b`` as faster on the 18 both answered instead of "leads ... by
    0.8x"."""
    x = times(np.random.default_rng(19), [1.0, 1.0], draws=1)[0]
    x[0, :] = x[1, :] * 1.2
    t = frame(x, ["a", "b"])
    _time_out(t, "a", [int(np.argmax(x[1]))])
    _time_out(t, "b", [int(np.argmin(x[1]))])
    c = V.cell("shikaku", "ladder", per_instance(t))
    assert c.row["best"] == "a / cadical195"
    assert c.lines[0].startswith(
        "shikaku, ladder: a / cadical195 has the lower SGM over all instances (PAR-2), but on "
        "the 18 both answered b / cadical195 is faster, by 1.1"), c.lines[0]
    assert "separated (Holm p = " in c.lines[0]
    assert c.row["lead"] == "b / cadical195 " + c.lines[0].split("faster, by ")[1].split(
        ":")[0] + " faster on 18 common"


def test_tasks_not_run_by_the_ladder_rule_are_named_per_pair():
    x = times(np.random.default_rng(23), [1.0, 2.0], draws=1)[0]
    t = frame(x, ["a", "b"])
    t["message"] = ""
    _time_out(t, "b", [3, 4, 5])
    t.loc[(t["form"] == "b") & t["instance"].isin(["i04", "i05"]), "message"] = \
        "not run: timed out on i03 (10x10, limit 10 s), a smaller instance of its family"
    _, lines = V.matrix(t)
    assert lines[-1] == ("shikaku: 2 task(s) not run by the suite's ladder rule (the pair had "
                         "timed out on an earlier instance of the same generated family: a "
                         "smaller one, or the same size with an earlier seed); counted as "
                         "timeouts, unsolved: b / cadical195 (2).")
    t["message"] = ""
    assert not any("ladder rule" in s for s in V.matrix(t)[1])


def test_a_not_run_timeout_has_its_own_letter():
    x = times(np.random.default_rng(29), [1.0, 2.0], draws=1)[0]
    t = frame(x, ["a", "b"])
    t["message"] = ""
    _time_out(t, "b", [3, 4])
    t.loc[(t["form"] == "b") & (t["instance"] == "i04"), "message"] = "not run: timed out on i03"
    m = T.status_matrix(t).set_index("instance")
    assert m.at["i03", "b / cadical195"] == "T" and m.at["i04", "b / cadical195"] == "N"
    assert m.at["i04", "a / cadical195"] == "S"
