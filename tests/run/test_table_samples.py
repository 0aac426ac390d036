"""A ``results.parquet`` holds one row per sample: copies of one row are one result wherever the
table is read (report, merge, ``run --reuse``), and two different rows of one sample make the
table unusable, said in one line naming the sample and the file. A table without
``time_limit``, a row without a usable limit, and a negative or non-finite time are no results
either (never a limit of 0 s, never a negative time)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.records import Result
from bench.report.data import ReportError, load_run
from bench.run.storage import JOURNAL, TABLE, Journal, consolidate, table_results
from tests.cli.test_cli import cli

ROOT = Path(__file__).resolve().parents[2]
#: a committed run's folder written before results carried sample ids (journal and table)
SMALL = ROOT / "tests" / "data" / "run-small"


def _result(n: int) -> Result:
    return Result(key=f"sha256:{n:016x}|cpsat-cover|cpsat|seed=0", puzzle="shikaku",
                  instance=f"i{n}", instance_path=f"i{n}.txt", rows=5, cols=5,
                  formulation="cpsat-cover", kind="cpsat", solver="cpsat", solver_version="9",
                  status="solved", build_s=0.01, solve_s=0.02 * (n + 1), wall_s=0.2,
                  time_limit=10.0, finished=f"2026-12-01T00:00:0{n}+00:00")


def _folder(tmp_path: Path, kind: str) -> Path:
    """A run folder holding only its table: ``ids``, written from a journal of three results
    (each with its sample id); ``legacy``, a copy of a table written before sample ids;
    ``untimed``, that table without ``finished``."""
    out = tmp_path / kind
    if kind in ("legacy", "untimed"):
        out.mkdir()
        shutil.copy(SMALL / TABLE, out / TABLE)
        if kind == "untimed":  # written before results recorded when they finished
            _edit(out, lambda df: df.drop(columns=["finished"]))
        return out
    Journal(out).extend([_result(n) for n in range(3)])
    consolidate(out)
    (out / JOURNAL).unlink()
    return out


def _edit(folder: Path, edit) -> None:
    path = folder / TABLE
    df = edit(pd.read_parquet(path))
    df.to_parquet(path, index=False)


def _copies(status: str | None):
    """Two more copies of the table's first row; with ``status``, changed as a timeout."""
    def edit(df: pd.DataFrame) -> pd.DataFrame:
        row = df.iloc[[0]].copy()
        if status:
            row[["status", "build_s", "solve_s"]] = [status, np.nan, np.nan]
        return pd.concat([df, row, row], ignore_index=True)
    return edit


@pytest.mark.parametrize("kind", ["ids", "legacy", "untimed"])
def test_copies_of_one_row_are_one_result(tmp_path, kind):
    folder = _folder(tmp_path, kind)
    n = len(pd.read_parquet(folder / TABLE))
    _edit(folder, _copies(None))
    rows, bad = table_results(folder)
    assert (len(rows), bad) == (n, 0)
    assert len({(r.key, r.sample_id) for r in rows}) == n
    assert len(load_run(folder).df) == n


@pytest.mark.parametrize("kind", ["ids", "legacy"])
def test_different_rows_of_one_sample_make_the_table_unusable(tmp_path, kind):
    folder = _folder(tmp_path, kind)
    first = pd.read_parquet(folder / TABLE).iloc[0]
    _edit(folder, _copies("timeout"))
    with pytest.raises(ValueError) as e:  # bench.run.storage.UnusableTable
        table_results(folder)
    said = str(e.value)
    assert "\n" not in said and str(folder / TABLE) in said and first["key"] in said
    if kind == "ids":
        assert first["sample_id"] in said
    with pytest.raises(ReportError) as report:  # no journal to fall back to
        load_run(folder)
    assert str(folder / TABLE) in str(report.value) and "one sample" in str(report.value)


def test_a_conflicting_table_beside_its_journal_falls_back_to_the_journal(tmp_path):
    folder = tmp_path / "small"
    shutil.copytree(SMALL, folder)
    _edit(folder, _copies("timeout"))
    run = load_run(folder)
    assert len(run.df) == 14 and set(run.df["status"]) == {"solved"}
    assert "unusable" in run.warnings[0] and "one sample" in run.warnings[0], run.warnings


def test_report_merge_and_reuse_refuse_a_conflicting_table(tmp_path):
    """The reviewer's case through the command line: a non-zero exit naming the file, where
    the report once counted the copies as repeats and a timeout."""
    folder = _folder(tmp_path, "ids")
    _edit(folder, _copies("timeout"))
    table = str(folder / TABLE)
    report = cli("report", str(folder), "--out", str(tmp_path / "page"))
    assert report.returncode != 0 and table in report.stderr, report.stderr
    assert not (tmp_path / "page").exists()
    other = _folder(tmp_path, "legacy")  # a copy: merge locks its inputs
    merge = cli("merge", str(folder), str(other), "--out", str(tmp_path / "m"))
    assert merge.returncode != 0 and table in merge.stderr and "one sample" in merge.stderr
    from bench.run.reuse import SourceError, Sources

    with pytest.raises(SourceError, match="one sample"):
        Sources.load([folder])


def test_a_table_without_time_limits_is_unusable(tmp_path):
    folder = _folder(tmp_path, "legacy")
    _edit(folder, lambda df: df.drop(columns=["time_limit"]))
    with pytest.raises(ValueError, match="no 'time_limit' column") as e:
        table_results(folder)
    assert str(folder / TABLE) in str(e.value)
    with pytest.raises(ReportError, match="time_limit"):
        load_run(folder)


@pytest.mark.parametrize(("column", "value", "said"), [
    ("time_limit", np.nan, "'time_limit'"),
    ("time_limit", 0.0, "no usable time limit"),
    ("time_limit", -30.0, "no usable time limit"),
    ("solve_s", -5.0, "'solve_s' is -5.0"),
    ("build_s", np.inf, "'build_s' is inf"),
    ("peak_rss_mb", -1.0, "'peak_rss_mb' is -1.0"),
])
def test_a_row_without_a_usable_limit_or_time_is_skipped_with_a_note(tmp_path, column, value,
                                                                      said):
    folder = _folder(tmp_path, "legacy")

    def edit(df: pd.DataFrame) -> pd.DataFrame:
        df[column] = df[column].astype(float)
        df.loc[2, column] = value
        return df

    _edit(folder, edit)
    why: list[str] = []
    rows, bad = table_results(folder, why)
    assert (len(rows), bad) == (13, 1) and said in why[0], why
    assert all(r.time_limit == 30.0 for r in rows)
    run = load_run(folder)
    assert len(run.df) == 13 and said in run.warnings[0], run.warnings
    assert (run.df["solve_s"].dropna() >= 0).all()


def test_a_journal_line_without_a_usable_limit_or_time_is_skipped(tmp_path):
    journal = Journal(tmp_path)
    sound, zero, negative = _result(0), _result(1), _result(2)
    zero.time_limit = 0.0
    negative.solve_s = -5.0
    journal.extend([sound, zero, negative])
    assert [r.key for r in journal.results()] == [sound.key] and journal.skipped == 2


def test_rows_without_a_sample_id_or_finished_are_told_by_what_they_hold(tmp_path):
    """Such a row (written before results recorded when they finished) cannot be told one
    sample with another row of its task: only its copies are one."""
    folder = _folder(tmp_path, "untimed")
    _edit(folder, _copies("timeout"))
    rows, bad = table_results(folder)
    assert (len(rows), bad) == (15, 0)
