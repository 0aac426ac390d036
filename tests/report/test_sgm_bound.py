"""A censored pair's SGM in the overview (and the ranking's interval beside it): a lower bound
with its unanswered instances at the limit, marked "≥", without a t-interval; an estimate
with its interval only where the pair answered every instance."""

from __future__ import annotations

import math

import numpy as np

from bench.report import tables as T
from bench.report import verdicts as V
from bench.report.data import SGM_SHIFT_S, per_instance
from bench.report.units import duration, duration_interval
from tests.report.test_verdicts import _time_out, frame

LIMIT = 3.0


def _run(timeouts: list[int]):
    """Two pairs on 8 instances under a 3 s limit: "a" at 0.5 to 0.85 s save ``timeouts``,
    "b" 4x slower and timing out where "a" does."""
    a = 0.5 + 0.05 * np.arange(8)
    x = np.vstack([a, 4 * a])
    t = frame(x, ["a", "b"], limit=LIMIT)
    _time_out(t, "a", timeouts, limit=LIMIT)
    _time_out(t, "b", timeouts, limit=LIMIT)
    return t


def _sgm(x: list[float]) -> float:
    return math.exp(float(np.mean(np.log(np.asarray(x) + SGM_SHIFT_S)))) - SGM_SHIFT_S


def test_a_best_with_timeouts_shows_a_lower_bound_at_the_limit_and_no_interval():
    t = _run([0, 1, 2])
    c = V.cell("shikaku", "ladder", per_instance(t))
    assert c.row["best"] == "a / cadical195"
    bound = _sgm([LIMIT] * 3 + list(0.5 + 0.05 * np.arange(3, 8)))  # at the limit, not 2x
    assert c.row["sgm"] == f"≥ {duration(bound)} (censored: 3 of 8 at the limit)"
    assert "[" not in str(c.row["sgm"])  # no t-interval: the old one reached past the limit
    assert bound < LIMIT
    r = T.ranking(t).set_index("pair")
    assert r.loc["a / cadical195", "interval"] == "censored"


def test_a_best_that_answered_everything_keeps_its_estimate_and_interval():
    c = V.cell("shikaku", "ladder", per_instance(_run([])))
    est, lo, hi = V.sgm_interval(0.5 + 0.05 * np.arange(8))
    assert c.row["sgm"] == duration_interval(est, lo, hi, V.TOO_FEW)
    assert "[" in str(c.row["sgm"]) and not str(c.row["sgm"]).startswith("≥")


def test_the_note_says_what_the_sgm_is():
    assert "a lower bound" in V.NOTE and "not PAR-2" in V.NOTE
    assert "at the limit" in V.NOTE


def test_the_sgm_interval_never_reaches_below_zero():
    """exp of the interval on log(t + shift) less the shift can fall below 0 on skewed times;
    a time cannot, so the lower end is clamped at 0."""
    est, lo, hi = V.sgm_interval(np.array([0.001] * 5 + [5.0]))
    assert lo == 0.0 and 0 < est < hi
    assert duration_interval(est, lo, hi, V.TOO_FEW) == "20.5 ms [0–411]"
    _, lo, _ = V.sgm_interval(0.5 + 0.05 * np.arange(8))
    assert lo > 0  # an interval away from 0 is as it was
