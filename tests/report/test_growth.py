"""The growth table (:mod:`bench.report.growth`): repetitions folded as the verdicts fold them,
a t-interval on the slope, and no range for a censored slope."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from bench.report import growth
from bench.report.data import per_instance
from bench.report.growth import slopes

LIMIT = 10.0


def _tasks(reps: dict[float, list[str]], pair: str = "p / s") -> pd.DataFrame:
    """Per-instance rows of one pair, one instance per size (cells) with one task per status
    in its list (its repetitions); a solved task takes cells / 1000 s."""
    rows = []
    for cells, statuses in reps.items():
        for status in statuses:
            ok = status == "solved"
            rows.append({"puzzle": "shikaku", "form": "p", "formulation": "p", "solver": "s",
                         "kind": "sat", "pair": pair, "instance": f"i{cells:g}",
                         "family": "generated", "tier": "ladder", "cells": cells,
                         "status": status, "ok": ok, "wrong": status == "wrong",
                         "disagree": False, "time_s": cells / 1000 if ok else np.nan,
                         "par2_s": cells / 1000 if ok else 2 * LIMIT, "time_limit": LIMIT,
                         "mem_mb": 1.0, "constraints": 1, "variables": 1})
    return per_instance(pd.DataFrame(rows))


S3 = ["solved"] * 3


def test_an_instance_mostly_timed_out_is_censored_at_the_limit_not_wrong():
    """1 solved + 2 timeouts of 3: the median of the fold is above the limit, so the instance
    is unanswered and its true time at least the limit (as the verdicts read it), not a wrong
    answer left out of the fit."""
    pi = _tasks({100.0: S3, 200.0: S3, 400.0: S3, 800.0: S3,
                 1600.0: ["solved", "timeout", "timeout"]})
    row = slopes(pi, ["p / s"]).iloc[0]
    assert (row["wrong"], row["memout"], row["error"]) == (0, 0, 0)
    assert (row["censored"], row["instances"], row["sizes"]) == (1, 5, 4)
    assert row["note"].startswith("lower bound")


def test_the_reviewers_hand_built_frame_censors_its_mixed_instance():
    c = np.array([36, 64, 100, 144, 196.0])
    t = 1e-4 * c**1.5
    pi = pd.DataFrame(dict(pair="a / s", family="generated", cells=c, ok=[True] * 4 + [False],
                           timeouts=[0] * 4 + [2], n=[3] * 5, memouts=0, errors=0,
                           time_s=np.r_[t[:4], np.nan], time_limit=LIMIT))
    row = slopes(pi, ["a / s"]).iloc[0]
    assert (row["wrong"], row["censored"], row["instances"]) == (0, 1, 5)


def test_an_instance_mostly_answered_is_a_point_at_its_median_and_failures_count_as_tasks():
    """2 solved + 1 timeout: answered, a measured point at the median time; a minority wrong
    answer or memout is one task in its column, the instance still measured."""
    pi = _tasks({100.0: S3, 200.0: ["solved", "solved", "timeout"],
                 400.0: ["solved", "solved", "wrong"], 800.0: ["solved", "solved", "memout"]})
    row = slopes(pi, ["p / s"]).iloc[0]
    assert (row["censored"], row["instances"], row["sizes"]) == (0, 4, 4)
    assert (row["wrong"], row["memout"]) == (1, 1)
    assert float(row["slope"]) == pytest.approx(1.0) and row["note"] == ""


def test_unanswered_with_a_memout_wrong_answer_or_only_errors_is_out_of_the_fit():
    pi = _tasks({100.0: S3, 200.0: S3, 400.0: S3, 800.0: ["solved", "timeout", "memout"],
                 1600.0: ["wrong", "wrong", "solved"], 3200.0: ["error"] * 3})
    row = slopes(pi, ["p / s"]).iloc[0]
    assert (row["instances"], row["censored"]) == (3, 0)
    assert (row["memout"], row["wrong"], row["error"]) == (1, 2, 3)


def _pi(cells: list[float], times: list[float], limit: float = LIMIT) -> pd.DataFrame:
    ok = [t < limit for t in times]
    answered = [t if o else np.nan for t, o in zip(times, ok, strict=True)]
    return pd.DataFrame(dict(pair="a / s", family="generated", cells=cells, ok=ok,
                             timeouts=[int(not o) for o in ok], n=1, memouts=0, errors=0,
                             wrong=0, time_s=answered,
                             time_limit=limit))


def _by_hand(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """The slope and its t-interval (N - 2 degrees of freedom), by hand."""
    b, a = np.polyfit(x, y, 1)
    r = y - (a + b * x)
    se = math.sqrt((r @ r) / (len(x) - 2) / ((x - x.mean()) ** 2).sum())
    half = float(stats.t.ppf(0.975, len(x) - 2)) * se
    return float(b), float(b) - half, float(b) + half


@pytest.mark.parametrize("per_size", [1, 2])
def test_the_slope_range_is_a_t_interval_with_n_minus_2_degrees_of_freedom(per_size):
    """Over the points, not the sizes: two instances at each of 3 sizes give 4 degrees of
    freedom; one each gives 1 (t = 12.7, not 1.96)."""
    cells = np.repeat([100.0, 400.0, 1600.0], per_size)
    times = list(1e-3 * cells * np.array([1.3, 0.8, 1.1, 0.9, 1.2, 0.7][:len(cells)]))
    x, y = np.log(cells), np.log(times)
    _, lo, hi = _by_hand(x, y)
    row = slopes(_pi(list(cells), times), ["a / s"]).iloc[0]
    a, b = (float(v) for v in row["range"].strip("[]").split("–"))
    assert a <= lo < a + 0.01 and b - 0.01 < hi <= b
    assert growth.fit(x, y) == pytest.approx(_by_hand(x, y))


@pytest.mark.parametrize(("times", "sign"), [
    ([0.1, 0.2, 0.4, 0.8, 50.0], "≥"),   # the largest timed out: a lower bound
    ([50.0, 0.2, 0.4, 0.8, 1.6], "≤"),   # the smallest timed out: an upper bound
    ([50.0, 0.2, 0.4, 0.8, 50.0], "")])  # both: no bound
def test_a_censored_slope_prints_no_range(times, sign):
    """A bound's range would have no end that bounds the slope (as a censored time grows the
    fit's residuals grow: :mod:`bench.report.growth`): the note says which bound, the range
    says why there is none."""
    cells = [100.0, 200.0, 400.0, 800.0, 1600.0]
    row = slopes(_pi(cells, times), ["a / s"]).iloc[0]
    assert row["censored"] > 0
    if not sign:
        assert row["note"].startswith("censored: no bound") and row["range"] == "–"
        return
    assert row["note"].startswith(growth.LOWER if sign == "≥" else growth.UPPER)
    assert row["range"] == "censored: no interval"
