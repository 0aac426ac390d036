"""A report checks every row of ``results.parquet`` against the result schema, as ``merge``
and ``run --reuse`` do: a row that is no result (a missing value in a required field, a status
that is none, a value of the wrong type) is left out with a note in the report and on stderr
saying how many and why; a table of no readable row is one error line; beside a journal, the
journal is read instead."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench.report import load_run
from tests.conftest import ROOT


def _committed(source: Path, tmp_path: Path) -> Path:
    """A copy of the run as a committed folder keeps it: no journal."""
    run = tmp_path / "run"
    shutil.copytree(source, run)
    (run / "journal.jsonl").unlink()
    return run


def _damage(run: Path, col: str, value: object, rows: slice | int = 1) -> int:
    table = run / "results.parquet"
    df = pd.read_parquet(table)
    if isinstance(value, str) and df[col].dtype != object:
        df[col] = df[col].astype(object)
    elif isinstance(value, float) and df[col].dtype != float:
        df[col] = df[col].astype(float)
    df.loc[df.index[rows], col] = value
    df.to_parquet(table)
    return len(df)


def _report(run: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", "report", str(run), "--out",
                           str(out)], capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.parametrize(("col", "value", "why"), [
    ("rows", float("nan"), "no 'rows'"),
    ("status", "banana", "'status' is 'banana', not Literal["),
    ("rows", 2.5, "'rows' is 2.5, not int"),
])
def test_a_bad_row_is_left_out_with_a_note(repeat_run, tmp_path, col, value, why):
    run = _committed(repeat_run, tmp_path)
    n = _damage(run, col, value)
    loaded = load_run(run)
    assert len(loaded.df) == n - 1
    note = [w for w in loaded.warnings if "unreadable row(s) in results.parquet" in w]
    assert len(note) == 1, loaded.warnings
    assert note[0].startswith(f"1 unreadable row(s) in results.parquet skipped (the first: {why}")
    p = _report(run, tmp_path / "rep")
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert "1 unreadable row(s) in results.parquet skipped" in p.stderr, p.stderr
    summary = (tmp_path / "rep" / "summary.md").read_text(encoding="utf-8")
    assert f"Note: {note[0]}" in summary


def test_a_table_of_no_readable_row_is_one_line(repeat_run, tmp_path):
    run = _committed(repeat_run, tmp_path)
    n = _damage(run, "status", "banana", slice(None))
    p = _report(run, tmp_path / "rep")
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1, p.stderr
    assert f"{run}: no results" in p.stderr
    assert f"results.parquet unusable ({n} unreadable row(s), the first: 'status'" in p.stderr
    assert not (tmp_path / "rep").exists()


def test_a_bad_row_beside_a_journal_reads_the_journal(repeat_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(repeat_run, run)
    n = _damage(run, "status", "banana")
    loaded = load_run(run)
    assert len(loaded.df) == n and "banana" not in set(loaded.df["status"])
    assert any("1 unreadable row(s)" in w and "read journal.jsonl instead" in w
               for w in loaded.warnings), loaded.warnings


def test_the_table_is_read_once(repeat_run, tmp_path, monkeypatch):
    """The row check is of the frame the usability check read: ``results.parquet`` is read
    whole once (a large table costs its reading time again otherwise)."""
    run = _committed(repeat_run, tmp_path)
    reads: list[object] = []
    real = pd.read_parquet

    def counted(path, *args, **kwargs):
        if Path(path).name == "results.parquet" and not kwargs.get("columns"):
            reads.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(pd, "read_parquet", counted)
    assert not load_run(run).df.empty
    assert len(reads) == 1, reads
