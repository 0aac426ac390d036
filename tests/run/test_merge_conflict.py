"""One sample (task key and sample id) is one measurement: two inputs of ``merge`` (or two
``run --reuse`` folders) holding different measurements of one sample are refused in one line
naming the sample and both folders, and nothing is written; copies of a sample that differ
only in what a copy may change (its folder, tier, instance name and path, origin, verdict
against the known solution), or only in how a table stores a value, merge to one row."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from bench.run.storage import consolidate
from tests.cli.test_cli import cli
from tests.run.test_merge import SELECTION, TASKS


@pytest.fixture(scope="module")
def measured_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("conflict") / "a"
    p = cli("run", *SELECTION, "--out", str(out))
    assert p.returncode == 0, p.stderr
    return out


def _rewrite(folder: Path, change: dict, line: int = 0) -> dict:
    """Change fields of the journal's line ``line`` (the table left as it was); the line."""
    path = folder / "journal.jsonl"
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    rows[line].update(change)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return rows[line]


@pytest.mark.parametrize("table_only", [False, True], ids=["journal", "table"])
def test_two_inputs_with_different_measurements_of_one_sample_are_refused(
        measured_run, tmp_path, table_only):
    forged = tmp_path / "forged"
    shutil.copytree(measured_run, forged)
    row = _rewrite(forged, {"solve_s": 123.5, "status": "timeout"})
    if table_only:  # the forged copy is a committed run: its table alone
        consolidate(forged)
        (forged / "journal.jsonl").unlink()
    out = tmp_path / "M"
    p = cli("merge", str(measured_run), str(forged), "--out", str(out))
    assert p.returncode == 2, p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    for part in (row["key"], row["sample_id"], str(measured_run), str(forged), "solve_s",
                 "status"):
        assert part in lines[0], (part, lines[0])
    assert not out.exists() or not any(out.iterdir())


def test_copies_of_one_sample_merge_to_one_row_whatever_a_copy_may_change(
        measured_run, tmp_path):
    copied = tmp_path / "copied"
    shutil.copytree(measured_run, copied)
    rows = [json.loads(x) for x in (copied / "journal.jsonl").read_text().splitlines() if x]
    solved = next(i for i, r in enumerate(rows) if r["status"] == "solved")
    for i in range(len(rows)):  # what a reuse or merge rewrites on its copy
        _rewrite(copied, {"run": "elsewhere", "tier": "hard", "origin": "",
                          "instance": "moved", "instance_path": "/moved/x.txt",
                          "harness": "0.0.0 (deadbeef)"}, i)
    # a verdict taken again (a .sol added since): known and its note
    _rewrite(copied, {"known": False, "message": "differs from the known solution (.sol)"},
             solved)
    committed = tmp_path / "committed"  # the table alone: numbers as Parquet holds them
    shutil.copytree(measured_run, committed)
    (committed / "journal.jsonl").unlink()
    out = tmp_path / "M"
    p = cli("merge", str(measured_run), str(copied), str(committed), "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert f"{TASKS} results" in p.stdout and f"{2 * TASKS} met twice" in p.stdout, p.stdout
    assert len(pd.read_parquet(out / "results.parquet")) == TASKS


def test_two_reuse_folders_with_different_measurements_of_one_sample_are_refused(
        measured_run, tmp_path):
    forged = tmp_path / "forged"
    shutil.copytree(measured_run, forged)
    row = _rewrite(forged, {"solve_s": 0.001})
    out = tmp_path / "new"
    p = cli("run", *SELECTION, "--out", str(out), "--reuse", str(measured_run), str(forged))
    assert p.returncode == 2, p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    for part in (row["key"], row["sample_id"], str(measured_run), str(forged), "solve_s"):
        assert part in lines[0], (part, lines[0])
    assert not (out / "journal.jsonl").exists()
    # one folder, or a folder and its faithful copy, is reused as before
    same = tmp_path / "same"
    shutil.copytree(measured_run, same)
    p = cli("run", *SELECTION, "--out", str(out), "--reuse", str(measured_run), str(same))
    assert p.returncode == 0 and f"reused {TASKS} of {TASKS} tasks" in p.stdout, p.stderr


def test_what_the_sample_check_compares():
    from bench.records import Result
    from bench.run.merge import sample_conflict

    def result(**change: object) -> Result:
        base = Result("k", "shikaku", "i", "p", 1, 1, "f", "sat", "s", "v", "solved",
                      solve_s=3, finished="2026-12-01T00:00:00+00:00", sample_id="s1")
        for k, v in change.items():
            setattr(base, k, v)
        return base

    assert sample_conflict([("a", [result()]), ("b", [result(solve_s=3.0)])]) == ""
    assert sample_conflict([("a", [result(build_s=float("nan"))]), ("b", [result()])]) == ""
    why = sample_conflict([("a", [result()]), ("b", [result(solve_s=3.5)])])
    assert why.startswith("task k (i, f / s), sample s1: a and b hold") and "solve_s" in why
    # within one input the latest line is the sample; another key or id is another sample
    assert sample_conflict([("a", [result(solve_s=9), result()]), ("b", [result()])]) == ""
    assert sample_conflict([("a", [result()]), ("b", [result(solve_s=9, key="k2")])]) == ""
    # a line written before results recorded their time: its fallback id is its key's
    assert sample_conflict([("a", [result(finished="")]),
                            ("b", [result(finished="", solve_s=9)])]) == ""
