"""`puzzlebench report --out` where the report cannot be written (real processes, a real run):
one line naming the path and the problem, exit 2, no traceback, as `merge` says it; and an
``--out`` that is a run folder (the run itself or another) refused the same way, the folder
left as it was."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import ROOT


def report(run: Path, out: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", "report", str(run), "--out",
                           str(out)], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)


def one_line(p: subprocess.CompletedProcess[str]) -> str:
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    lines = [x for x in p.stderr.splitlines() if not x.startswith("WARNING")]
    assert len(lines) == 1, p.stderr
    return lines[0]


@pytest.mark.parametrize(("where", "problem"), [
    ("afile", "File exists"),  # an existing file
    ("afile/sub", "Not a directory"),  # a path under a file
    ("/proc/nosuch", "No such file or directory"),  # a folder the kernel will not make
    ("/sys/nosuch", "Operation not permitted"),  # sysfs: refused even to root
])
def test_an_out_that_cannot_be_made_is_one_line(single_run, tmp_path, where, problem):
    (tmp_path / "afile").write_text("not a folder")
    out = where if where.startswith("/") else str(tmp_path / where)
    line = one_line(report(single_run, out))
    assert line == f"puzzlebench: cannot write {out}: {problem}; no report written"
    assert (tmp_path / "afile").read_text() == "not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_an_out_under_a_read_only_parent_is_one_line(single_run, tmp_path):
    parent = tmp_path / "ro"
    parent.mkdir()
    parent.chmod(0o555)
    try:
        line = one_line(report(single_run, parent / "rep"))
    finally:
        parent.chmod(0o755)
    assert line == f"puzzlebench: cannot write {parent / 'rep'}: Permission denied; no " \
        "report written"


def test_a_report_file_that_cannot_be_written_is_one_line(single_run, tmp_path):
    out = tmp_path / "rep"
    (out / "index.html").mkdir(parents=True)  # a folder where the page goes
    line = one_line(report(single_run, out))
    assert line == (f"puzzlebench: cannot write {out / 'index.html'}: Is a directory; the "
                    "report is incomplete")


def test_a_writable_out_still_gets_the_report(single_run, tmp_path):
    p = report(single_run, tmp_path / "a" / "b")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "a" / "b" / "index.html").is_file()


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_an_out_that_is_another_run_folder_is_refused_and_left_as_it_was(single_run, repeat_run,
                                                                          tmp_path):
    other = tmp_path / "other"
    shutil.copytree(repeat_run, other)
    before = _files(other)
    line = one_line(report(single_run, other))
    assert line == (f"puzzlebench: {other}: a run folder (it holds journal.jsonl); writing the "
                    "report there would destroy its results (name another folder); no report "
                    "written")
    assert _files(other) == before
    (tmp_path / "link").symlink_to(other)  # a link to a run folder is that folder
    assert "a run folder" in one_line(report(single_run, tmp_path / "link"))
    assert _files(other) == before


def test_the_run_folder_itself_is_refused_as_out(single_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(single_run, run)
    (run / "journal.jsonl").unlink()  # a committed run: its table and records alone
    before = _files(run)
    line = one_line(report(run, run))
    assert line == (f"puzzlebench: {run}: the run folder being reported on; writing the report "
                    "there would destroy its results (name another folder); no report written")
    assert _files(run) == before


@pytest.mark.parametrize("mark", ["run-id", ".lock"])
def test_a_folder_with_a_runs_id_or_lock_is_a_run_folder(single_run, tmp_path, mark):
    out = tmp_path / "out"
    out.mkdir()
    (out / mark).write_text("x")
    assert one_line(report(single_run, out)) == (
        f"puzzlebench: {out}: a run folder (it holds {mark}); writing the report there would "
        "destroy its results (name another folder); no report written")
    assert sorted(p.name for p in out.iterdir()) == [mark]


def test_a_committed_run_folder_is_a_run_folder_but_a_report_folder_is_not(single_run,
                                                                             repeat_run,
                                                                             tmp_path):
    committed = tmp_path / "results" / "other"
    shutil.copytree(repeat_run, committed)
    for name in ("journal.jsonl", "run-id", ".lock"):  # its table and records alone
        (committed / name).unlink(missing_ok=True)
    assert (committed / "results.parquet").is_file()
    before = _files(committed)
    assert one_line(report(single_run, committed)) == (
        f"puzzlebench: {committed}: a run folder (it holds results.parquet and no report "
        "page); writing the report there would destroy its results (name another folder); no "
        "report written")
    assert _files(committed) == before
    # a report's own folder holds the table beside its pages: it is written again
    out = tmp_path / "rep"
    for _ in range(2):
        p = report(single_run, out)
        assert p.returncode == 0, p.stderr


def test_the_default_out_is_rendered_again_in_place(single_run, tmp_path):
    for _ in range(2):  # the second report writes over the first's folder
        p = subprocess.run([sys.executable, "-m", "bench.cli", "report", str(single_run)],
                           capture_output=True, text=True, cwd=tmp_path, timeout=300,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 0, p.stderr
    out = tmp_path / "reports" / single_run.name
    assert {"index.html", "results.parquet", "environment.json"} <= set(_files(out))


def test_rows_that_make_no_table_are_copied_under_a_name_no_run_folder_has(single_run, tmp_path,
                                                                           monkeypatch):
    from bench.report import JOURNAL_COPY, write_report

    def refuse(*args, **kwargs):
        raise ValueError("no column type holds this")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", refuse)
    out = tmp_path / "rep"
    for _ in range(2):  # the folder stays a report folder: rendering it again works
        write_report(single_run, out)
    assert (out / JOURNAL_COPY).read_bytes() == (single_run / "journal.jsonl").read_bytes()
    assert not (out / "journal.jsonl").exists() and not (out / "results.parquet").exists()
    assert f"[{JOURNAL_COPY}]({JOURNAL_COPY})" in (out / "summary.md").read_text()
