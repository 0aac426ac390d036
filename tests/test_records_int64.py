"""Integers beyond 64 bits in a journal (:func:`bench.records.schema_problem`): a results
table holds signed 64-bit integers only, so a line holding a larger one is no result. The
journal's readers skip it with a warning naming the journal and the line, and a run folder
poisoned by such a line (written by an older version, or edited) is readable again by `run`,
`report` and `merge` (real processes, a real run's journal)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.bounds import MAX_INT64, MIN_INT64
from bench.records import schema_problem
from tests.conftest import ROOT, SHIKAKU_SEEDS


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=600)


@pytest.fixture(scope="module")
def run_line(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A real run of one task: its folder and its journal line."""
    out = tmp_path_factory.mktemp("int64") / "run"
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--out", str(out),
            "--time-limit", "30")
    assert p.returncode == 0, p.stderr
    return out, json.loads((out / "journal.jsonl").read_text().splitlines()[0])


@pytest.mark.parametrize("field", ["rows", "seed", "memory_limit_mb", "variables", "count"])
def test_an_int_field_holds_a_signed_64_bit_integer(run_line, field):
    line = run_line[1]
    assert schema_problem(line) == ""
    for ok in (MAX_INT64, MIN_INT64, 0) if field != "memory_limit_mb" else (MAX_INT64, 0):
        assert schema_problem({**line, field: ok}) == "", ok  # a size >= 0: test_records_values
    for bad in (MAX_INT64 + 1, MIN_INT64 - 1, 2**70, 10**20):
        problem = schema_problem({**line, field: bad})
        assert problem.startswith(f"{field!r} is an integer of") and "beyond 64 bits" in problem


@pytest.mark.parametrize("field", ["wall_s", "conflicts", "time_limit"])
def test_a_float_field_holds_a_float_or_a_64_bit_integer(run_line, field):
    line = run_line[1]
    measured = field != "conflicts"  # a time or limit is finite and > 0: test_records_values
    for ok in (1.5, 1e300, MAX_INT64) if measured else (1.5, 1e300, float("inf"), MAX_INT64, -3):
        assert schema_problem({**line, field: ok}) == "", ok
    assert "beyond 64 bits" in schema_problem({**line, field: 2**70})
    assert "not float" in schema_problem({**line, field: True})


def _poison(folder: Path, line: dict) -> int:
    """Append a copy of ``line`` holding 2**70 (another sample); its line number."""
    journal = folder / "journal.jsonl"
    text = journal.read_text()
    journal.write_text(text + json.dumps({**line, "rows": 2**70, "sample_id": "poison"}) + "\n")
    return len(text.splitlines()) + 1


def _ok(p: subprocess.CompletedProcess[str]) -> None:
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "OverflowError" not in p.stderr


def _warned(p: subprocess.CompletedProcess[str], journal: Path, n: int) -> None:
    _ok(p)
    assert f"{journal}:{n}: skipping unreadable journal line ('rows' is an integer" in \
        p.stderr or f"{journal}: 1 unreadable line(s) skipped" in p.stderr, p.stderr


def test_a_poisoned_run_folder_is_readable_by_run_report_and_merge(run_line, tmp_path):
    src, line = run_line
    folder = tmp_path / "run"
    folder.mkdir()
    for name in ("journal.jsonl", "environment.json", "run-id", "constraints.txt"):
        if (src / name).exists():
            (folder / name).write_bytes((src / name).read_bytes())
    n = _poison(folder, line)
    journal = folder / "journal.jsonl"
    # a plain run into the folder: its task is already there, the table is written
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--out", str(folder),
            "--time-limit", "30")
    _warned(p, journal, n)
    assert f"{journal}:{n}:" in p.stderr
    assert (folder / "results.parquet").is_file()
    p = cli("report", str(folder), "--out", str(tmp_path / "rep"))
    _ok(p)  # from the table just written, which holds the readable line only
    assert (tmp_path / "rep" / "summary.md").is_file()
    assert (tmp_path / "rep" / "results.parquet").is_file()
    (folder / "results.parquet").unlink()  # merge and report read the journal alone
    p = cli("merge", str(folder), "--out", str(tmp_path / "merged"))
    _warned(p, journal, n)
    merged = (tmp_path / "merged" / "journal.jsonl").read_text().splitlines()
    assert len(merged) == 1 and json.loads(merged[0])["rows"] == line["rows"]
    p = cli("report", str(folder), "--out", str(tmp_path / "rep2"))
    _warned(p, journal, n)
    assert f"{journal}:{n}:" in p.stderr
