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
    assert f"{TASKS} results" in p.stdout and f"{TASKS} met twice" in p.stdout, p.stdout
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
    for part in (row["key"], row["sample_id"], str(measured_run), str(forged), "solve_s",
                 "reuse one of the two folders"):
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


def _lines(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "journal.jsonl").read_text().splitlines() if x]


def test_the_merged_verdict_is_the_current_one_whatever_the_order(measured_run, tmp_path):
    """A copy whose verdict was taken against another ``.sol`` (a line appended, as a resume
    appends a verdict taken again) merges to the verdict of the ``.sol`` as it is now, in
    either order; a sample met in two inputs is counted once, however many lines of it one
    input holds."""
    judged = tmp_path / "judged"
    shutil.copytree(measured_run, judged)
    rows = _lines(judged)
    solved = next(r for r in rows if r["status"] == "solved")
    again = {**solved, "known": not solved["known"],
             "message": "differs from the known solution (.sol)"}
    with (judged / "journal.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps(again) + "\n")
    verdicts = []
    for order in ((measured_run, judged), (judged, measured_run)):
        out = tmp_path / f"M{len(verdicts)}"
        p = cli("merge", *map(str, order), "--out", str(out))
        assert p.returncode == 0, p.stderr
        assert f"{TASKS} met twice" in p.stdout, p.stdout
        df = pd.read_parquet(out / "results.parquet").set_index("sample_id")
        verdicts.append(df.loc[solved["sample_id"], ["known", "message"]].tolist())
    assert verdicts[0] == verdicts[1] == [solved["known"], solved["message"]]


def test_a_conflict_counts_its_samples_and_prefer_keeps_one_inputs_copies(
        measured_run, tmp_path):
    forged = tmp_path / "forged"
    shutil.copytree(measured_run, forged)
    for i in (0, 1):
        _rewrite(forged, {"solve_s": 123.5 + i}, i)
    out = tmp_path / "M"
    p = cli("merge", str(measured_run), str(forged), "--out", str(out))
    assert p.returncode == 2, p.stdout
    assert "2 samples conflict in all" in p.stderr and "--prefer INPUT" in p.stderr, p.stderr
    for keep, solve in ((forged, {123.5, 124.5}), (measured_run, set())):
        out = tmp_path / f"M-{keep.name}"
        p = cli("merge", str(measured_run), str(forged), "--out", str(out),
                "--prefer", str(keep))
        assert p.returncode == 0, p.stderr
        df = pd.read_parquet(out / "results.parquet")
        assert len(df) == TASKS and set(df["solve_s"]) & {123.5, 124.5} == solve
    p = cli("merge", str(measured_run), str(forged), "--out", str(tmp_path / "X"),
            "--prefer", str(tmp_path))
    assert p.returncode == 2 and "not one of the inputs" in p.stderr, p.stderr


def test_the_reuse_check_takes_the_folders_as_loaded(measured_run, tmp_path, monkeypatch):
    from bench.run import merge
    from bench.run.reuse import Sources

    forged = tmp_path / "forged"
    shutil.copytree(measured_run, forged)
    _rewrite(forged, {"solve_s": 123.5})
    sources = Sources.load([measured_run, forged])
    monkeypatch.setattr(merge, "stored_results", None, raising=False)  # read no folder again
    why = merge.folders_conflict(sources.read)
    assert str(forged) in why and "the one sample that conflicts" in why


def test_prefer_finds_the_conflicts_once_and_a_conflict_it_does_not_hold_stays(
        measured_run, tmp_path, monkeypatch):
    """``--prefer B`` over A, B (sample 0 forged, sample 1 missing) and C (sample 1 forged):
    sample 0 is B's, sample 1 still conflicts between A and C and is refused; the inputs'
    conflicts are found once, in one pass over them."""
    from bench.run import merge

    b, c = tmp_path / "b", tmp_path / "c"
    for folder in (b, c):
        shutil.copytree(measured_run, folder)
    _rewrite(b, {"solve_s": 123.5}, 0)
    rows = _lines(b)
    (b / "journal.jsonl").write_text("".join(json.dumps(r) + "\n" for i, r in enumerate(rows)
                                             if i != 1), encoding="utf-8")
    (b / "results.parquet").unlink()
    second = _rewrite(c, {"solve_s": 124.5}, 1)
    calls = []
    real = merge.conflicts

    def counted(inputs):
        calls.append(len(inputs))
        return real(inputs)

    monkeypatch.setattr(merge, "conflicts", counted)
    with pytest.raises(merge.MergeError) as e:
        merge.merge_runs([measured_run, b, c], tmp_path / "M", prefer=b)
    assert second["sample_id"] in str(e.value) and f"{measured_run} and {c}" in str(e.value)
    assert "it is the one sample that conflicts" in str(e.value)
    assert calls == [3]
    calls.clear()
    merged = merge.merge_runs([measured_run, b], tmp_path / "M2", prefer=b)
    assert calls == [2] and merged.results == TASKS
    assert 123.5 in set(pd.read_parquet(merged.table)["solve_s"])
