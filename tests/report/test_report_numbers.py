"""Numbers and times as a person writes them (bench/report/units.py): a time with its unit, ms
below one second and s from one second, 3 significant figures, never an exponent; every time
the report prints (the matrix's SGM, intervals, table columns, sentences) follows the rule,
and censored bounds keep their marks."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from bench.report import write_report
from bench.report.render import Table
from bench.report.units import duration, duration_interval, duration_range, number
from bench.report.wording import factor
from tests.conftest import ROOT

SMALL = ROOT / "tests" / "data" / "run-small"
#: a number in scientific notation ("5.23e+03", "7.4E-05")
EXPONENT = re.compile(r"(?<![\w.-])\d+(\.\d+)?[eE][+-]\d+\b")


def test_the_rule():
    assert [duration(x) for x in (7.38e-05, 0.0123, 0.5, 0.9996, 5.234, 60, 1234.5)] == [
        "0.0738 ms", "12.3 ms", "500 ms", "1 s", "5.23 s", "60 s", "1,230 s"]
    assert duration(0.0) == "0 ms" and duration(2e-7) == "< 0.001 ms"
    assert duration(float("nan")) == "–" == duration(None)  # type: ignore[arg-type]
    assert [number(x) for x in (7.38e-05, 0.000999, 12.34, 999.7, 5230.0, 2.0)] == [
        "0.0000738", "0.000999", "12.3", "1,000", "5,230", "2"]
    assert duration_interval(5.23, 2.0, 13.6, "too few") == "5.23 s [2–13.6]"
    assert duration_interval(0.00523, 0.002, 0.0136, "too few") == "5.23 ms [2–13.6]"
    assert duration_interval(5.25, float("nan"), float("nan"), "too few") == "5.25 s (too few)"
    assert duration_range(0.5, 1.6) == "0.5 .. 1.6 s"


def test_a_censored_factor_keeps_its_mark_without_an_exponent():
    row = {"ratio": 1234.5, "ratio_lo": 0.00005, "ratio_hi": float("nan"), "common": 6}
    assert factor(pd.Series({**row, "censored": "other"})) == "≥ 1,230x [≥ 0.00005]"
    assert factor(pd.Series({**row, "ratio_lo": 3.5, "ratio_hi": 12345.0, "censored": ""})) \
        == "1,230x [3.5–12,300]"


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
        assert re.fullmatch(r"[\d.,]+ \.\. [\d.,]+ (ms|s)|too few", cells["interval"])
    # the same-solver view's build column: microseconds, in ms without an exponent
    assert re.search(r"\| 0\.\d+ ms \|", md)
    assert ">SGM</th>" in (out / "index.html").read_text(encoding="utf-8")
