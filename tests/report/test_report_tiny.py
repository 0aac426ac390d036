"""A tiny run folder (one instance; one pair; a pair with no answered task; only a task that
did not run) is reported without a single warning: each is cut from tests/data/run-cpmpy and
reported with every warning an error (a figure's log axis over one value, every task at the
limit, once set a singular range that matplotlib warned about and widened; a folder whose
tasks all did not run once failed on its empty ranking)."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pandas as pd
import pytest

from bench.records import NOT_RUN
from bench.report import write_report
from tests.conftest import ROOT

CPMPY = ROOT / "tests" / "data" / "run-cpmpy"


def _tiny(rows: pd.DataFrame, out: Path) -> Path:
    shutil.copytree(CPMPY, out)
    rows.to_parquet(out / "results.parquet")
    return out


def _cuts() -> dict[str, pd.DataFrame]:
    t = pd.read_parquet(CPMPY / "results.parquet")
    pair = t["formulation"] + " / " + t["solver"]
    late = t[t["status"] == "timeout"]
    lost = sorted(set(pair[late.index]))[0]  # a pair with timeouts: its unanswered rows
    first = t[pair == lost].sort_values("instance")["instance"].iloc[0]
    return {"one instance": t[t["instance"] == first],
            "one pair": t[pair == sorted(set(pair))[0]],
            "a pair with no answered task": late[pair[late.index] == lost],
            "one task, unanswered": late[pair[late.index] == lost].head(1),
            "one task that did not run": late.head(1).assign(
                message=f"{NOT_RUN} timed out on a smaller instance")}


@pytest.mark.parametrize("cut", list(_cuts()))
def test_a_tiny_folder_reports_without_a_warning(cut: str, tmp_path: Path):
    run = _tiny(_cuts()[cut], tmp_path / "run")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = write_report(run, tmp_path / "rep")
    assert (out / "index.html").is_file() and (out / "summary.md").is_file()
