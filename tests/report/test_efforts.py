"""The effort table (bench/report/efforts.py): among one solver's pairs, an effort counter
ranked beside time, and a sentence where the two orders differ."""

from __future__ import annotations

import numpy as np

from bench.report import efforts as E
from tests.report.test_verdicts import frame


def test_effort_and_time_disagreement_is_said():
    x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 10.0]]) / 100
    t = frame(x, ["a", "b"])
    t["conflicts"] = np.where(t["form"] == "a", 500.0, 100.0)  # a faster, b fewer conflicts
    tab, lines = E.effort(t)
    assert set(tab["effort_rank"]) == {1, 2}
    assert len(lines) == 1 and "by time a < b; by conflicts b < a" in lines[0]
    t["conflicts"] = np.where(t["form"] == "a", 100.0, 500.0)
    assert E.effort(t)[1] == []
