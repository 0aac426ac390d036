"""`puzzlebench report --out` where the report cannot be written (real processes, a real run):
one line naming the path and the problem, exit 2, no traceback, as `merge` says it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
