"""A factor or slope that censored times make a bound prints no interval end as a bound that a
larger censored time would break: on run folders written through the real writers
(:func:`tests.report.test_compare_pairs.write`), the interval is recomputed with every
censored time at 2, 5 and 10 times the limit, and every end the words print must still hold
(the t-interval's ends move either way as a censored time grows, so none is printed)."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.report import growth, paired, wording
from bench.report import tables as T
from bench.report import verdicts as V
from bench.report.compare import compare
from bench.report.data import SGM_SHIFT_S, load_run, per_instance, prepare
from tests.report.test_compare_pairs import PAIRS, result, write

LIMIT = 10.0
#: the censored times' multiples of the limit the printed bounds must survive
GROWN = (1.0, 2.0, 5.0, 10.0)
N = 8
#: the best's times, and the other pair's factor over them where it answered
BASE = [0.3 + 0.4 * ((i * 3) % N) / (N - 1) for i in range(N)]
FACTOR = [1.2, 1.4, 1.3, 1.5, 1.25, 1.35, 1.45, 1.3]


def _run(folder: Path, out: list[int], faster: bool = False) -> Path:
    """Two pairs on N instances at a 10 s limit: sat-a / cadical195 (the best) in BASE, and
    cpsat-a / cpsat in BASE x FACTOR (``faster``: BASE / FACTOR), timed out on ``out``."""
    (fa, sa, ka), (fb, sb, kb) = PAIRS[0], PAIRS[1]
    rows = [result(fa, sa, ka, f"real-{i:02d}", t, limit=LIMIT) for i, t in enumerate(BASE)]
    for i, (t, f) in enumerate(zip(BASE, FACTOR, strict=True)):
        x = f"real-{i:02d}"
        rows.append(result(fb, sb, kb, x, LIMIT, status="timeout", limit=LIMIT) if i in out
                    else result(fb, sb, kb, x, t / f if faster else t * f, limit=LIMIT))
    return write(folder, rows)


def _grown(d: np.ndarray, up: np.ndarray, down: np.ndarray) -> list[tuple[float, float, float]]:
    """(estimate, lo, hi) of exp(mean d) with its t-interval, for every censored time at each
    multiple of the limit in GROWN: ``up`` the differences whose censored time is the
    numerator's, ``down`` the denominator's."""
    out = []
    for k in GROWN:
        g = np.log(k * LIMIT + SGM_SHIFT_S) - np.log(LIMIT + SGM_SHIFT_S)
        out.append(paired.log_interval(d + g * up - g * down))
    return out


def _number(s: str) -> float:
    return float(s.replace(",", ""))


def _holds(text: str, grown: list[tuple[float, float, float]]) -> None:
    """Every bound ``text`` prints on the factor ("≥ f") and on an interval end ("[≥ a]",
    "[≤ b]", "[a–b]") holds at every multiple in GROWN."""
    head = re.match(r"([≥≤]) ([\d,.]+)x", text)
    if head:
        f = _number(head[2])
        assert all((e >= f) if head[1] == "≥" else (e <= f) for e, _, _ in grown), (text, grown)
    for mark, v in re.findall(r"\[([≥≤]) ([\d,.]+)\]", text):
        assert all((lo >= _number(v)) if mark == "≥" else (hi <= _number(v))
                   for _, lo, hi in grown), (text, grown)
    for a, b in re.findall(r"\[([\d,.]+)–([\d,.]+)\]", text):
        assert all(lo >= _number(a) and hi <= _number(b) for _, lo, hi in grown), (text, grown)


def _verdict(folder: Path) -> tuple[pd.Series, str, np.ndarray, np.ndarray, np.ndarray]:
    """The other pair's verdict row, its ranking's vs_best, and per instance its log ratio
    over the best with which side is censored."""
    t = prepare(load_run(folder).df)
    pi = per_instance(t)
    row = V.compare(pi).set_index("pair").loc["cpsat-a / cpsat"]
    r = T.ranking(t).set_index("pair")
    y, ok = V.censored_log(pi)
    d = (y["cpsat-a / cpsat"] - y["sat-a / cadical195"]).to_numpy(float)
    return (row, str(r.at["cpsat-a / cpsat", "vs_best"]), d,
            ~ok["cpsat-a / cpsat"].to_numpy(bool), ~ok["sat-a / cadical195"].to_numpy(bool))


def test_a_lower_bound_factor_prints_no_interval_end_that_larger_timeouts_break(tmp_path):
    row, vs_best, d, up, down = _verdict(_run(tmp_path / "run", out=[2, 5]))
    assert row["censored"] == "other" and up.sum() == 2 and not down.any()
    grown = _grown(d, up, down)
    assert grown[1][1] < grown[0][1]  # the t-interval's lower end falls as the timeouts grow
    for text in (V.factor(row), vs_best):
        _holds(text, grown)
        assert text.startswith("≥ ") and text.endswith(f"x ({wording.NO_INTERVAL})"), text


def test_an_upper_bound_factor_prints_no_interval_end_that_larger_timeouts_break(tmp_path):
    # the best times out on 2 instances the other pair answers, 4-8x slower elsewhere
    (fa, sa, ka), (fb, sb, kb) = PAIRS[0], PAIRS[1]
    rows = [result(fa, sa, ka, f"real-{i:02d}", LIMIT, status="timeout", limit=LIMIT)
            if i in (1, 6) else result(fa, sa, ka, f"real-{i:02d}", t, limit=LIMIT)
            for i, t in enumerate(BASE)]
    rows += [result(fb, sb, kb, f"real-{i:02d}", 8.0 if i in (1, 6) else t * f * 4,
                    limit=LIMIT) for i, (t, f) in enumerate(zip(BASE, FACTOR, strict=True))]
    row, vs_best, d, up, down = _verdict(write(tmp_path / "run", rows))
    assert row["censored"] == "best" and down.sum() == 2 and not up.any()
    grown = _grown(d, up, down)
    assert grown[-1][2] > grown[0][2]  # the t-interval's upper end rises as the timeouts grow
    for text in (V.factor(row), vs_best):
        _holds(text, grown)
        assert text.startswith("≤ ") and text.endswith(f"x ({wording.NO_INTERVAL})"), text


def test_compare_prints_no_interval_end_of_a_censored_change(tmp_path):
    (f, s, k) = PAIRS[2]
    a = write(tmp_path / "a", [result(f, s, k, f"real-{i:02d}", t, limit=LIMIT)
                               for i, t in enumerate(BASE)])
    b = write(tmp_path / "b", [result(f, s, k, f"real-{i:02d}", LIMIT, status="timeout",
                                      limit=LIMIT) if i in (2, 5) else
                               result(f, s, k, f"real-{i:02d}", t * q, limit=LIMIT)
                               for i, (t, q) in enumerate(zip(BASE, FACTOR, strict=True))])
    _, pairs = compare(a, b)
    row = pairs.iloc[0]
    assert row["verdict"] == "changed" and row["bound"] == "≥", row
    out = np.array([i in (2, 5) for i in range(N)])
    tb = np.where(out, LIMIT, np.array(BASE) * np.array(FACTOR))
    d = np.log(tb + SGM_SHIFT_S) - np.log(np.array(BASE) + SGM_SHIFT_S)
    grown = _grown(d, out, np.zeros(N, bool))
    assert grown[1][1] < grown[0][1]
    _holds(row["label"].removeprefix("changed: "), grown)
    assert row["label"].startswith("changed: ≥ ") and wording.NO_INTERVAL in row["label"]
    # the pair table's interval columns hold no end either
    assert math.isnan(row["factor_lo"]) and math.isnan(row["factor_hi"]), row


@pytest.mark.parametrize("times", [[0.1, 0.2, 0.4, 0.8, 50.0], [50.0, 0.2, 0.4, 0.8, 1.6]])
def test_a_censored_slope_prints_no_range_end_that_a_larger_timeout_breaks(times):
    cells = np.array([100.0, 200.0, 400.0, 800.0, 1600.0])
    ok = np.array(times) < LIMIT
    pi = pd.DataFrame(dict(pair="a / s", family="generated", cells=cells, ok=ok,
                           timeouts=(~ok).astype(int), n=1, memouts=0, errors=0, wrong=0,
                           time_s=np.where(ok, times, np.nan), time_limit=LIMIT))
    row = growth.slopes(pi, ["a / s"]).iloc[0]
    x = np.log(cells)
    fits = [growth.fit(x, np.log(np.where(ok, times, k * LIMIT))) for k in GROWN]
    lower = row["note"].startswith(growth.LOWER)
    for mark, v in re.findall(r"\[([≥≤]) ([-\d,.]+)\]", row["range"]):
        assert all((lo >= _number(v)) if mark == "≥" else (hi <= _number(v))
                   for _, lo, hi in fits), (row["range"], fits)
    assert row["note"].startswith((growth.LOWER, growth.UPPER))
    assert row["range"] == wording.NO_INTERVAL
    # the slope moves one way, the range's bounding end the other
    assert all((b[0] >= a[0]) if lower else (b[0] <= a[0]) for a, b in itertools.pairwise(fits))
    assert (fits[2][1] < fits[0][1]) if lower else (fits[2][2] > fits[0][2])
