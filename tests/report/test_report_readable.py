"""Report items a newcomer reads without the code: the effort table's headers and caption
(bench/report/efforts.py), thousands separators in prose numbers, and the Environment table of
a run without a suite (bench/report/__init__.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.report import efforts as E
from bench.report import environment, figures, machines
from tests.report.test_verdicts import frame


def _two_pairs() -> pd.DataFrame:
    x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 10.0]]) / 100
    t = frame(x, ["a", "b"])
    t["conflicts"] = np.where(t["form"] == "a", 500.0, 100.0)
    return t


def test_the_effort_table_has_readable_headers_and_a_caption():
    """summary.md and the page show "counter", "effort (SGM, shift 1)", ... in place of the
    data's names, and one line saying what the numbers are; the frame keeps its names."""
    (x,) = E.extra("shikaku", _two_pairs())
    md = x["table"].markdown().splitlines()[0]
    assert md == ("| puzzle | solver | formulation / solver | counter | effort (SGM, shift 1) | "
                  "time (SGM, shift 10 ms) | instances | effort rank | time rank |")
    assert x["table"].header("effort") == (
        "effort (SGM, shift 1)", "shifted geometric mean of the counter over the instances, "
        "shift 1")
    assert x["table"].header("time_s")[0] == "time (SGM, shift 10 ms)"
    assert "shifted geometric mean" in x["caption"] and "shift 1," in x["caption"]
    assert "\n" not in x["caption"]
    # the cells keep their units and the frame its column names
    assert x["table"].rows[0][5].endswith("ms")
    assert list(E.effort(_two_pairs())[0].columns) == [
        "puzzle", "solver", "pair", "metric", "effort", "time_s", "common", "effort_rank",
        "time_rank"]


def test_the_results_count_has_thousands_separators():
    t = pd.DataFrame({"formulation": ["m"] * 2986, "run": "r", "finished": "2026-12-03T07:00"})
    assert machines.provenance(t, "r") == ["All 2,986 results were produced in this run."]
    t.loc[:1499, "run"] = "old"
    assert [x[:30] for x in machines.provenance(t, "r")] == [
        "1,500 of 2,986 results reused ", "1,486 of 2,986 results produce"]


def test_the_memory_line_has_thousands_separators():
    peaks = pd.DataFrame({"pair": ["m / x"] * 3, "instance": ["i", "j", "k"],
                          "peak_rss_mb": [29.0, 1324.0, 782.0]})
    assert "29 to 1,324 MB, median 782 MB" in figures.memory_line(peaks)


def test_a_run_without_a_suite_says_so():
    rows = dict(environment([{"suite": "", "suite_version": 0}], 1).rows)
    assert rows["suite"] == "none (instances named on the command line)"
    assert "suite version" not in rows
    rows = dict(environment([{"suite": "default", "suite_version": 5}], 1).rows)
    assert rows["suite"] == "default" and rows["suite version"] == "5"
