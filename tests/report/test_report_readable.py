"""Report items a newcomer reads without the code: the effort table's headers and caption
(bench/report/efforts.py), thousands separators in prose numbers, and the Environment table of
a run without a suite (bench/report/__init__.py)."""

from __future__ import annotations

import pandas as pd

from bench.report import environment, figures, machines


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
