"""Numbers and times as a person writes them (bench/report/units.py): a time with its unit, ms
below one second and s from one second, 3 significant figures, never an exponent; every time
the report prints (the matrix's SGM, intervals, table columns, sentences) follows the rule,
and censored bounds keep their marks."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from bench.report import write_report
from bench.report.render import Table
from bench.report.units import (
    duration,
    duration_interval,
    duration_range,
    interval,
    number,
    p_value,
)
from bench.report.wording import factor
from tests.conftest import ROOT

SMALL = ROOT / "tests" / "data" / "run-small"
#: a number in scientific notation ("5.23e+03", "7.4E-05")
EXPONENT = re.compile(r"(?<![\w.-])\d+(\.\d+)?[eE][+-]\d+\b")


def test_the_rule():
    assert [duration(x) for x in (7.38e-05, 0.0123, 0.5, 0.9996, 5.234, 60, 1234.5)] == [
        "0.0738 ms", "12.3 ms", "500 ms", "1 s", "5.23 s", "60 s", "1,230 s"]
    assert duration(0.0) == "0 ms" and duration(2e-7) == "< 0.001 ms"
    assert duration(-5e-7) == "> -0.001 ms" and duration(-0.0123) == "-12.3 ms"
    assert duration(float("nan")) == "–" == duration(None)  # type: ignore[arg-type]
    assert [number(x) for x in (7.38e-05, 0.000999, 12.34, 999.7, 5230.0, 2.0)] == [
        "0.0000738", "0.000999", "12.3", "1,000", "5,230", "2"]
    assert duration_interval(5.23, 2.0, 13.6, "too few") == "5.23 s [2–13.6]"
    assert duration_interval(0.00523, 0.002, 0.0136, "too few") == "5.23 ms [2–13.6]"
    assert duration_interval(5.25, float("nan"), float("nan"), "too few") == "5.25 s (too few)"
    assert duration_range(0.5, 1.6) == "[0.5–1.6] s"
    assert duration_range(0.5, 1.6, 0.9) == "[500–1,600] ms"  # in the estimate's unit


def test_a_censored_factor_keeps_its_mark_without_an_exponent():
    row = {"ratio": 1234.5, "ratio_lo": 0.00005, "ratio_hi": float("nan"), "common": 6}
    assert factor(pd.Series({**row, "censored": "other"})) == "≥ 1,230x (censored: no interval)"
    assert factor(pd.Series({**row, "ratio_lo": 3.5, "ratio_hi": 12345.0, "censored": ""})) \
        == "1,230x [3.5–12,400]"  # the high end rounded up


def test_interval_ends_round_outward_and_never_collapse():
    """[0.79996, 1.2503] against the 1.25 margin must not read [0.8–1.25]; a tight interval
    keeps two ends; an interval equal in fact stays so."""
    assert interval(0.79996, 1.2503) == "[0.799–1.26]"
    assert duration_interval(0.5, 0.4999, 0.5001, "too few") == "500 ms [499–501]"
    assert duration_interval(0.5, 0.5, 0.5, "too few") == "500 ms [500–500]"
    assert interval(0.8, 1.25) == "[0.8–1.25]"  # exact ends stay as they are
    row = {"ratio": 1.0, "ratio_lo": 0.79996, "ratio_hi": 1.2503, "common": 8, "censored": ""}
    assert factor(pd.Series(row)) == "1x [0.799–1.26]"
    assert factor(pd.Series({**row, "ratio": 1.0049, "censored": "other"})) \
        == "≥ 1x (censored: no interval)"  # a bound rounds away from the true factor
    assert factor(pd.Series({**row, "ratio": 1.0049, "censored": "best"})) \
        == "≤ 1.01x (censored: no interval)"


def test_a_p_below_alpha_never_prints_as_alpha():
    assert p_value(50 / 1001) == "0.049" and p_value(0.05) == "0.05"
    assert p_value(0.0501) == "0.051" and p_value(1.0) == "1" and p_value(2 / 64) == "0.031"
    t = Table.of(pd.DataFrame({"pair": ["a", "b"], "p": [50 / 1001, 0.0501]}))
    assert [r[1] for r in t.rows] == ["0.049", "0.051"]


def test_the_verdict_sentence_prints_p_like_the_column(monkeypatch: pytest.MonkeyPatch):
    from bench.report import verdicts as V
    from bench.report.data import per_instance
    rows = [{"puzzle": "shikaku", "form": f, "formulation": f, "solver": "s", "kind": "sat",
             "pair": f"{f} / s", "instance": f"i{j}", "family": "generated", "tier": "ladder",
             "cells": 100.0, "status": "solved", "ok": True, "wrong": False,
             "disagree": False, "time_s": (1 + j) * k, "par2_s": (1 + j) * k,
             "time_limit": 100.0, "mem_mb": 1.0, "constraints": 1, "variables": 1, "rep": 0,
             "seed": 0, "iterations": 1, "setup_s": math.nan}
            for f, k in (("a", 1.0), ("b", 1.3)) for j in range(12)]
    analyse = V.analyse

    def near_alpha(*a, **k):
        g = analyse(*a, **k)
        g.table.loc[1, "p"] = 50 / 1001
        return g
    monkeypatch.setattr(V, "analyse", near_alpha)
    cell = V.cell("shikaku", "ladder", per_instance(pd.DataFrame(rows)))
    assert "p = 0.049)" in cell.lines[0], cell.lines[0]


def test_the_page_prints_times_by_the_same_rule(tmp_path: Path):
    """page.js's dur and durRange (run by node): a negative time keeps its sign, a range
    reads like the report's intervals."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    js = (ROOT / "bench" / "report" / "templates" / "page.js").read_text(encoding="utf-8")
    start = js.index("  function num(v)")
    end = js.index("\n\n", js.index("  function durRange("))
    script = tmp_path / "u.js"
    script.write_text(js[start:end] + "\nconsole.log(JSON.stringify([dur(-5e-7), dur(5e-7), "
                      "durRange(0.4999, 0.5001), durRange(0.4, 1.6)]));\n", encoding="utf-8")
    out = subprocess.run([node, str(script)], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == ["> -0.001 ms", "< 0.001 ms", "[499–501] ms",
                                      "[0.4–1.6] s"]


def test_time_columns_print_with_their_unit_and_sort_by_the_value():
    t = Table.of(pd.DataFrame({"formulation": ["a", "b"], "sgm_s": [5230.0, 7.38e-05],
                               "x_best": [1.0, 0.0000123]}))
    assert [r[1] for r in t.rows] == ["5,230 s", "0.0738 ms"]  # Markdown
    assert [c[1][:2] for c in t.cells()] == [("5,230 s", repr(5230.0)),
                                            ("0.0738 ms", repr(7.38e-05))]
    assert t.rows[1][2] == "0.0000123"


def _visible(html: str) -> str:
    """The page's text without its scripts and tag attributes (sort keys are numbers)."""
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    return re.sub(r"<[^>]*>", " ", html)


@pytest.fixture(scope="module")
def slow_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/data/run-small with solves 100x slower (seconds) and builds 100x faster
    (microseconds to a millisecond): both ends of the rule in one run folder."""
    out = tmp_path_factory.mktemp("numbers") / "run"
    shutil.copytree(SMALL, out, ignore=shutil.ignore_patterns("journal.jsonl"))
    t = pd.read_parquet(out / "results.parquet")
    t["solve_s"] = t["solve_s"] * 100
    t["build_s"] = t["build_s"] / 100
    t.to_parquet(out / "results.parquet")
    return out


def test_the_report_prints_no_exponent_and_every_time_with_its_unit(slow_run: Path,
                                                                   tmp_path: Path):
    out = write_report(slow_run, tmp_path / "rep")
    md = (out / "summary.md").read_text(encoding="utf-8")
    page = _visible((out / "index.html").read_text(encoding="utf-8"))
    assert not EXPONENT.search(md), EXPONENT.search(md)
    assert not EXPONENT.search(page), EXPONENT.search(page)
    matrix = next(line for line in md.splitlines() if line.startswith("| shikaku |"))
    sgm = matrix.split(" | ")[8]  # the matrix's SGM: above a second, in seconds
    assert re.fullmatch(r"\d+(\.\d+)? s \(too few\)", sgm), sgm
    head = next(line for line in md.splitlines() if line.startswith("| formulation | solver"))
    cols = [c.strip() for c in head.strip("|").split("|")]
    rows = [line for line in md.splitlines() if line.startswith("| sat-cover")
            or line.startswith("| cpsat-cover")]
    for line in rows[:7]:
        cells = dict(zip(cols, [c.strip() for c in line.strip("|").split("|")], strict=False))
        for col in ("par2_s", "sgm_s", "median_s"):
            assert re.fullmatch(r"[\d,]+(\.\d+)? (ms|s)", cells[col]), (col, cells[col])
        assert re.fullmatch(r"\[[\d.,]+–[\d.,]+\] (ms|s)|too few", cells["interval"])
    # the same-solver view's build column: microseconds, in ms without an exponent
    assert re.search(r"\| 0\.\d+ ms \|", md)
    assert ">SGM</th>" in (out / "index.html").read_text(encoding="utf-8")
