"""Every name a report reads from a run folder is data: a puzzle outside the known puzzles is
refused with one line naming the file, an instance name with "/" or HTML gives a file inside
--out and escaped Markdown, a journal that is a directory is one line (report and compare), and
an interrupted report says what is true of a report."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import ROOT


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=timeout)


def _journal(run: Path) -> list[dict]:
    return [json.loads(ln) for ln in (run / "journal.jsonl").read_bytes().split(b"\n") if ln]


def _copy(single_run: Path, tmp_path: Path, **changes: str) -> Path:
    """The one-task run with its journal line changed (the Parquet table removed: the report
    reads the journal)."""
    run = tmp_path / "run"
    shutil.copytree(single_run, run)
    (run / "results.parquet").unlink()
    rec = {**_journal(run)[0], **changes}
    (run / "journal.jsonl").write_text(json.dumps(rec) + "\n", encoding="utf-8")
    return run


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")} if folder.exists() else set()


@pytest.mark.parametrize("source", ["journal.jsonl", "results.parquet"])
def test_a_puzzle_that_is_a_path_is_refused_and_nothing_is_written(single_run, tmp_path,
                                                                     source):
    target = tmp_path / "p"
    target.mkdir()
    evil = "../" * 20 + str(target / "EVIL4").lstrip("/")
    run = _copy(single_run, tmp_path, puzzle=evil)
    if source == "results.parquet":
        pd.DataFrame(_journal(run)).to_parquet(run / "results.parquet", index=False)
    p = cli("report", str(run), "--out", str(tmp_path / "rep"))
    assert p.returncode != 0 and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and str(run / source) in lines[0], p.stderr
    assert "is not a known puzzle" in lines[0], p.stderr
    assert not list(target.iterdir()), list(target.iterdir())  # nothing beside the run
    assert not (tmp_path / "rep").exists()


def test_compare_refuses_an_unknown_puzzle_with_one_line(single_run, tmp_path):
    run = _copy(single_run, tmp_path, puzzle="../../etc/x")
    p = cli("compare", str(run), str(single_run))
    assert p.returncode != 0 and "Traceback" not in p.stderr, p.stderr
    assert "is not a known puzzle" in p.stderr and str(run / "journal.jsonl") in p.stderr


def test_an_instance_name_with_a_slash_gives_a_picture_inside_the_report(single_run,
                                                                         tmp_path):
    name = "../../odd/na me<x>"
    run = _copy(single_run, tmp_path, instance=name)
    out = tmp_path / "rep"
    p = cli("report", str(run), "--out", str(out))
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert all(f.parent == out for f in _files(out)), sorted(_files(out))  # no sub-folders
    assert _files(tmp_path) - _files(out) - _files(run) - {out, run} == set()
    svgs = [f.name for f in out.glob("*.svg")]
    assert len(svgs) == 1 and svgs[0].startswith("shikaku-.._.._odd_na_me_x-"), svgs
    assert f'src="{svgs[0]}"' in (out / "index.html").read_text(encoding="utf-8")


def test_summary_md_escapes_html_in_names(single_run, tmp_path):
    run = _copy(single_run, tmp_path, instance="<img src=x onerror=alert(1)>",
                formulation="<script>alert(1)</script>")
    out = tmp_path / "rep"
    p = cli("report", str(run), "--out", str(out))
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "&lt;script>alert(1)&lt;/script>" in md, md
    assert "&lt;img src=x onerror=alert(1)>" in md, md
    assert "<script" not in md.lower() and "<img" not in md.lower(), md
    assert "p >= " in md or ">=" not in md  # a ">" that starts no HTML is left as written


@pytest.mark.parametrize("parquet", [False, True])
@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_journal_that_is_a_directory_is_one_line(single_run, tmp_path, command, parquet):
    run = tmp_path / "run"
    shutil.copytree(single_run, run)
    if not parquet:
        (run / "results.parquet").unlink()
    (run / "journal.jsonl").unlink()
    (run / "journal.jsonl").mkdir()
    args = ([str(run), "--out", str(tmp_path / "rep")] if command == "report"
            else [str(run), str(single_run)])
    p = cli(command, *args)
    assert p.returncode != 0 and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{run / 'journal.jsonl'}: not a regular file" in lines[0], lines


#: ``puzzlebench`` whose report waits two seconds once its folder is made, so that a signal
#: sent when the folder appears comes while the report is being written, on any machine
SLOW_REPORT = """
import sys, time
import bench.report as report
from bench.cli import main
made = report._make_folder
def slow(*args, **kwargs):
    folder = made(*args, **kwargs)
    time.sleep(2)
    return folder
report._make_folder = slow
sys.argv[0] = "puzzlebench"
sys.exit(main())
"""


def test_an_interrupted_report_says_what_is_true_of_a_report(mixed_run, tmp_path):
    out = tmp_path / "rep"
    before = (mixed_run / "journal.jsonl").read_bytes()
    proc = subprocess.Popen([sys.executable, "-c", SLOW_REPORT, "report", str(mixed_run),
                             "--out", str(out)], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 120
    while not out.exists() and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)  # the report folder exists: the report is being written
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "finished results are in the journal" not in err, err
    assert "Traceback" not in err, err
    assert "report interrupted" in err and "incomplete report" in err, err
    assert f"the run folder {mixed_run} is unchanged" in err, err
    assert (mixed_run / "journal.jsonl").read_bytes() == before
