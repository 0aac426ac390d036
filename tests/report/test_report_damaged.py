"""A report reads the journal as the run wrote it and renders whatever the run holds: lines
split on "\\n" only, journal records checked against the result schema, an unusable Parquet
(another schema, no rows, a directory) replaced by the journal, a run of nothing but memouts; a
folder with a damaged table and no journal is one error line naming the damage."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench.report import load_run, write_report
from tests.conftest import ROOT


def _journal(run: Path) -> list[dict]:
    return [json.loads(ln) for ln in (run / "journal.jsonl").read_bytes().split(b"\n") if ln]


def _write_journal(run: Path, records: list[dict]) -> None:
    (run / "journal.jsonl").write_bytes(b"".join(
        json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records))


def test_an_instance_name_with_a_line_separator_is_reported(single_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(single_run, run)
    (run / "results.parquet").unlink()
    rec = _journal(run)[0]
    _write_journal(run, [rec, {**rec, "key": rec["key"] + "\u2028b",
                               "instance": "odd\u2028name"}])
    df = load_run(run).df
    assert sorted(df["instance"]) == sorted([rec["instance"], "odd\u2028name"])


@pytest.mark.parametrize("bad", [{"rows": "ten"}, {"wall_s": "fast"}, {"status": "banana"}])
def test_journal_records_of_the_wrong_types_are_skipped_with_a_warning(single_run, tmp_path,
                                                                       bad):
    run = tmp_path / "run"
    shutil.copytree(single_run, run)
    (run / "results.parquet").unlink()
    rec = _journal(run)[0]
    _write_journal(run, [rec, {**rec, "key": "other", **bad}])
    loaded = load_run(run)
    assert list(loaded.df["key"]) == [rec["key"]]
    assert "1 unreadable line(s) in journal.jsonl skipped" in loaded.warnings
    p = subprocess.run([sys.executable, "-m", "bench.cli", "report", str(run), "--out",
                        str(tmp_path / "rep")], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.count("skipping unreadable journal line") == 1, p.stderr


@pytest.mark.parametrize("damage", ["other-schema", "no-rows", "directory"])
def test_an_unusable_parquet_falls_back_to_the_journal(single_run, tmp_path, damage):
    run = tmp_path / "run"
    shutil.copytree(single_run, run)
    table = run / "results.parquet"
    table.unlink()
    if damage == "other-schema":
        pd.DataFrame({"a": [1, 2]}).to_parquet(table)
    elif damage == "no-rows":
        pd.read_parquet(single_run / "results.parquet").iloc[:0].to_parquet(table)
    else:
        table.mkdir()
    import os
    os.utime(table, (2e9, 2e9))  # newer than the journal: the table is tried first
    loaded = load_run(run)
    assert len(loaded.df) == len(_journal(run)) == 1
    assert any("read journal.jsonl instead" in w for w in loaded.warnings), loaded.warnings
    out = write_report(run, tmp_path / "rep")
    assert (out / "index.html").exists()


def test_a_damaged_table_without_a_journal_is_one_line_naming_the_damage(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.parquet").write_bytes(b"not parquet\n")
    p = subprocess.run([sys.executable, "-m", "bench.cli", "report", str(run), "--out",
                        str(tmp_path / "rep")], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1, p.stderr
    assert f"{run}: no results" in p.stderr and "results.parquet unreadable (" in p.stderr
    assert "no journal.jsonl" in p.stderr and "instead" not in p.stderr
    assert p.stderr.count(str(run)) == 1, p.stderr
    assert not (tmp_path / "rep").exists()


def test_a_run_of_nothing_but_memouts_renders(tmp_path):
    out = tmp_path / "run"
    seed = ROOT / "instances" / "shikaku" / "seed-10x10.txt"
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(seed), "--formulation",
                        "sat-cover", "--solver", "minisat22", "--memory-limit", "1", "--out",
                        str(out)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert "Traceback" not in p.stderr, p.stderr
    assert set(pd.read_parquet(out / "results.parquet")["status"]) == {"memout"}
    p = subprocess.run([sys.executable, "-m", "bench.cli", "report", str(out), "--out",
                        str(tmp_path / "rep")], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert (tmp_path / "rep" / "index.html").exists()


def test_a_file_of_a_run_folder_named_as_the_run_says_so(single_run, tmp_path):
    from bench.report.data import ReportError

    with pytest.raises(ReportError, match="not a run folder \\(a file: name the folder"):
        load_run(single_run / "results.parquet")
    with pytest.raises(ReportError, match="no such run folder"):
        load_run(tmp_path / "nowhere")
