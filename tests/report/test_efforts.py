"""The effort table (bench/report/efforts.py): among one solver's pairs, an effort counter
ranked beside time, and a sentence where the two orders differ."""

from __future__ import annotations

import numpy as np
import pandas as pd

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


def test_a_cpmpy_solvers_pairs_are_ranked_by_the_counter_it_reports():
    """The cpmpy kind runs MIP and CP solvers alike: cpmpy:highs's formulations are ranked by
    simplex iterations, cpmpy:ortools's by conflicts."""
    x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 10.0]]) / 100
    highs = frame(x, ["a", "b"]).assign(kind="cpmpy", solver="cpmpy:highs")
    highs["pair"] = highs["form"] + " / cpmpy:highs"
    highs["simplex_iterations"] = np.where(highs["form"] == "a", 500.0, 100.0)
    highs["nodes"] = 3.0
    ortools = highs.assign(solver="cpmpy:ortools", pair=highs["form"] + " / cpmpy:ortools",
                           simplex_iterations=np.nan, nodes=np.nan, conflicts=7.0)
    tab, lines = E.effort(pd.concat([highs, ortools], ignore_index=True))
    assert dict(zip(tab["solver"], tab["metric"], strict=True)) == {
        "cpmpy:highs": "simplex_iterations", "cpmpy:ortools": "conflicts"}
    assert lines == ["shikaku, cpmpy:highs: time and simplex_iterations disagree over 5 common "
                     "instances: by time a < b; by simplex_iterations b < a."]
