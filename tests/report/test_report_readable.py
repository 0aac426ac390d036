"""Report items a newcomer reads without the code: the effort table's headers and caption
(bench/report/efforts.py), thousands separators in prose numbers, and the Environment table of
a run without a suite (bench/report/__init__.py)."""

from __future__ import annotations

from bench.report import environment


def test_a_run_without_a_suite_says_so():
    rows = dict(environment([{"suite": "", "suite_version": 0}], 1).rows)
    assert rows["suite"] == "none (instances named on the command line)"
    assert "suite version" not in rows
    rows = dict(environment([{"suite": "default", "suite_version": 5}], 1).rows)
    assert rows["suite"] == "default" and rows["suite version"] == "5"
