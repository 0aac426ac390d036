"""How a verdict row says what it rests on: a factor capped by censored times is printed as a
bound without an interval (no end of it is a bound), and marked where both pairs have
censored times; no pair is "separated" on fewer instances than an interval
needs; the overview sentence never reads "separates factors –"; the puzzle's headline says
when its best is not separated from the runner-up, with why its tasks did not run."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.records import NOT_RUN
from bench.report import paired
from bench.report import tables as T
from bench.report import verdicts as V
from bench.report.data import per_instance
from tests.report.test_verdicts import _time_out, frame, times


def _slower(n: int, factors: list[float], seed: int = 5) -> pd.DataFrame:
    return frame(times(np.random.default_rng(seed), factors, draws=1)[0][:, :n],
                 [chr(ord("a") + i) for i in range(len(factors))])


def test_a_censored_factor_is_a_bound_without_an_interval_and_both_censored_is_marked():
    t = _slower(12, [1.0, 3.0])
    _time_out(t, "b", [0, 1, 2])  # only the other pair censored: a lower bound
    row = V.compare(per_instance(t)).set_index("pair").loc["b / cadical195"]
    text = V.factor(row)
    assert text.startswith("≥ ") and text.endswith("x (censored: no interval)"), text
    assert "[" not in text and "–" not in text, text
    _time_out(t, "a", [3])  # the best censored too: neither estimate nor bound
    row = V.compare(per_instance(t)).set_index("pair").loc["b / cadical195"]
    assert row["censored"] == "both"
    text = V.factor(row)
    assert text.endswith("x (both censored)") and not text.startswith(("≥", "≤")), text


def test_no_pair_is_separated_on_fewer_instances_than_an_interval_needs():
    # eight pairs on 2 instances, one 6x slower on both: the label permutations over eight
    # pairs can give it p < 0.05, but 2 instances are too few to call it separated
    t = _slower(2, [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 6.0])
    v = V.compare(per_instance(t)).set_index("pair")
    slow = v.loc["h / cadical195"]
    assert slow["p"] < V.ALPHA, slow  # the test alone would separate it
    assert set(v["verdict"]) <= {"best", V.INCONCLUSIVE}, v["verdict"]
    c = V.cell("shikaku", "hard", per_instance(t))
    assert c.row["separated"] == "0 of 7"
    assert "separates factors –" not in c.lines[0], c.lines[0]
    assert f"fewer than {paired.MIN_INTERVAL} instances separate no pair" in c.lines[0]
    # every pair ran the best's instances: no clause about pairs of another instance set
    assert "another instance set" not in c.lines[0], c.lines[0]


def test_the_headline_names_a_best_not_separated_from_the_runner_up_and_why_it_did_not_run():
    t = _slower(8, [1.0, 1.05])
    t["message"] = ""
    _time_out(t, "b", [6, 7])
    gone = (t["form"] == "b") & t["instance"].isin(["i06", "i07"])
    t.loc[gone, "message"] = f"{NOT_RUN} timed out on a smaller instance"
    t.loc[gone, ["wall_s", "start"]] = [np.nan, ""]
    kept = t[~gone]
    line = T.verdict("shikaku", kept, T.ranking(kept), t)
    assert "(best, not separated from b / cadical195: " in line, line
    assert "(6 of 8 run); 2 of its tasks not run: " + NOT_RUN in line, line


def test_the_headline_never_calls_a_pair_that_declined_every_instance_not_separated():
    from bench.report.tables import _not_apart

    r = pd.DataFrame([{"pair": "a / s", "clean": True, "verdict": "best"},
                      {"pair": "b / s", "clean": True, "verdict": "declined all"}])
    t = pd.DataFrame({"pair": ["a / s", "b / s"], "status": ["solved", "skipped"],
                      "message": ["", "declines"], "formulation": ["a", "b"]})
    assert _not_apart(r, t) == ""
