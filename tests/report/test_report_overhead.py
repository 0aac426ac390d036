"""The report's harness-overhead section (overhead reported in every run and
report), from a real run: per kind, solver and start method, from the tasks' own figures."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bench.report import load_run, overhead, prepare, write_report


def test_the_table_is_the_tasks_own_overhead_per_kind_and_solver(mixed_run: Path) -> None:
    t = prepare(load_run(mixed_run).df)
    tab = overhead.table(t)
    assert set(tab["kind"]) == set(t["kind"].dropna())
    for _, row in tab.iterrows():
        g = t[(t["kind"] == row["kind"]) & (t["solver"] == row["solver"])
              & (t["start"] == row["start"])]
        assert row["tasks"] == g["overhead_s"].notna().sum()
        assert row["overhead_median_s"] == pytest.approx(g["overhead_s"].median())
        met = row["overhead_median_s"] < overhead.TARGET_S
        assert row["target"] == ("met" if met else "missed")


def test_setup_is_apart_and_the_verdict_names_the_kinds_over_target() -> None:
    t = pd.DataFrame({"kind": ["sat", "sat", "external", "external"],
                      "solver": ["cadical195", "cadical195", "external", "external"],
                      "start": ["fork"] * 4, "overhead_s": [0.010, 0.012, 1.030, 1.040],
                      "setup_s": [None, None, 1.0, 1.0]})
    tab = overhead.table(t)
    ext = tab[tab["kind"] == "external"].iloc[0]
    assert ext["overhead_median_s"] == pytest.approx(0.035)  # 1.035 s minus the 1 s set-up
    assert ext["setup_median_s"] == 1.0
    line = overhead.verdict(tab)
    assert "sat 11 ms" in line and "over the 10 ms aim: external, sat" in line


def test_every_report_has_the_section(mixed_run: Path, tmp_path: Path) -> None:
    out = write_report(mixed_run, tmp_path / "rep")
    md = (out / "summary.md").read_text()
    assert "## Time the harness adds to each task" in md and "overhead_median_s" in md
    table = md.split("## Time the harness adds to each task")[1].split("\n## ")[0]
    rows = [r for r in table.splitlines()
            if r.startswith("| ") and "overhead_median_s" not in r]
    assert rows and all(c.strip().endswith((" ms", " s", "–")) for r in rows
                        for c in r.split(" | ")[4:8]), rows  # every time with its unit
    html = (out / "index.html").read_text()
    assert 'id="overhead"' in html and 'href="#overhead"' in html
