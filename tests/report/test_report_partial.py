"""A report of a run folder that is not a whole run says so (bench/report/data.py
``unfinished``): while a run holds the folder's lock, after a run that stopped before its end
(an interrupt, an error of the harness) and for a merge of such a run; a finished run gets no
such note. Real processes, a real lock and a real interrupted run."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import threading

import pytest

from bench.report.data import load_run
from bench.run.lock import LOCK, RunLock, writer
from bench.run.plan import Plan, make_plan
from tests.conftest import ROOT, SHIKAKU_SEEDS
from tests.run.test_reliability_interrupt import RUN, start_run, wait_for_results

HOLD = ("import sys\nfrom bench.run.lock import RunLock\n"
        "with RunLock(sys.argv[1]):\n    print('held', flush=True)\n    sys.stdin.read()\n")


def test_a_folder_whose_lock_another_process_holds_is_reported_as_being_written(
        tmp_path, single_run):
    folder = single_run
    assert writer(folder) is None
    assert not any("writing this folder" in w for w in load_run(folder).warnings)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert writer(folder) == str(holder.pid)
        notes = load_run(folder).warnings
        assert notes and notes[0].startswith(f"a run (pid {holder.pid}) is writing this folder"), \
            notes
    finally:
        holder.communicate("", timeout=30)
    assert writer(folder) is None  # the kernel let the lock go with the process
    with RunLock(folder):  # and the reader let its own try go: a run may take the folder
        pass
    assert not any("writing this folder" in w for w in load_run(folder).warnings)


def test_a_lock_that_is_no_regular_file_is_no_run_and_never_blocks_the_report(tmp_path,
                                                                           single_run):
    folder = tmp_path / "run"
    shutil.copytree(single_run, folder)
    (folder / LOCK).unlink(missing_ok=True)
    os.mkfifo(folder / LOCK)  # opened plainly for reading, a FIFO waits for a writer
    signal.signal(signal.SIGALRM, signal.default_int_handler)
    signal.alarm(20)  # a reader that waits fails the test (KeyboardInterrupt) instead of hanging
    try:
        assert writer(folder) is None
        assert not any("writing this folder" in w for w in load_run(folder).warnings)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def test_a_run_starting_while_a_report_holds_the_lock_for_an_instant_takes_the_folder(
        tmp_path):
    folder = tmp_path / "r"
    folder.mkdir()
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # as a report's try holds it
    release = threading.Timer(0.03, fcntl.flock, (fd, fcntl.LOCK_UN))
    release.start()
    try:
        with RunLock(folder):
            pass
    finally:
        release.join()
        os.close(fd)


def test_a_run_whose_task_loop_ends_on_an_error_is_reported_as_stopped(tmp_path, monkeypatch):
    """An error of the harness (not of a task, which is a result) ends the loop after one of
    two tasks: the record gets no closing calibration, and the report says so."""
    import bench.run.session as session

    def one_then_fail(plan: Plan, under: float, run, *args: object, **kw: object) -> None:
        run(Plan(tasks=plan.tasks[:1]))
        raise RuntimeError("a fault of the harness")

    monkeypatch.setattr(session, "run_gated", one_then_fail)
    planned = make_plan(None, [str(p) for p in SHIKAKU_SEEDS[:2]], formulations=["cpsat-cover"],
                        solvers=["cpsat"], time_limit=20.0)
    with pytest.raises(RuntimeError, match="a fault of the harness"):
        session.run_session(planned, tmp_path / "r")
    run = load_run(tmp_path / "r")
    assert len(run.df) == 1 and "end_s" not in run.env["calibration"]
    assert run.warnings[0].startswith("the latest run into this folder stopped before its end")


def test_a_run_stopped_before_its_end_is_reported_as_such_until_a_resume_finishes_it(tmp_path):
    out = tmp_path / "r"
    proc = start_run(out)
    wait_for_results(out, 1, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    notes = load_run(out).warnings
    assert notes and notes[0].startswith("the latest run into this folder stopped before its "
                                         "end"), notes
    p = subprocess.run([sys.executable, "-m", "bench.cli", "report", str(out), "--out",
                        str(tmp_path / "page")], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    assert "stopped before its end" in p.stderr, p.stderr  # said where the command is run
    assert "stopped before its end" in (tmp_path / "page" / "summary.md").read_text()
    p = subprocess.run([sys.executable, "-m", "bench.cli", "merge", str(out), "--out",
                        str(tmp_path / "merged")], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    # what the input's report said of it, counted at merge time (no resume advice: nothing
    # ran into the merged folder)
    known = load_run(out).warnings[0].split(" (interrupted, killed or ended by an error)")[1]
    known = known.removeprefix(": ").removeprefix(" after ").split("; the same `puzzlebench")[0]
    notes = load_run(tmp_path / "merged").warnings
    assert notes[0] == ("merged from 1 run folder(s) whose latest run stopped before its end "
                        f"(each as it was when merged): {out}: {known}"), notes
    p = subprocess.run([sys.executable, "-m", "bench.cli", "merge", str(tmp_path / "merged"),
                        "--out", str(tmp_path / "merged2")], cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    notes = load_run(tmp_path / "merged2").warnings  # a merge of a merge: the inner input
    assert notes[0] == ("merged from 1 run folder(s) whose latest run stopped before its end "
                        f"(each as it was when merged): {tmp_path / 'merged'}: {out}: {known}"), \
        notes
    p = subprocess.run([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert not any("stopped before" in w for w in load_run(out).warnings)


def test_a_table_older_than_its_journal_in_content_is_not_read_whatever_its_time(tmp_path):
    """A run that journaled results and died before its table write leaves the table behind
    the journal; a copy of the folder (``cp -r``) makes the table look as new as the journal.
    The table says which journal it was written from, so the report reads the journal, and
    keeps a row only the table holds (a journal line lost since)."""
    import pandas as pd

    from bench.run.storage import JOURNAL, TABLE, Journal, load_results

    fast = ("--formulation", "sat-cover[card=seqcounter]", "--solver", "minisat22")
    out = tmp_path / "run"
    for seed in SHIKAKU_SEEDS[:2]:
        p = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(seed), "--out",
                            str(out), *fast], capture_output=True, text=True, cwd=ROOT,
                           timeout=300)
        assert p.returncode == 0, p.stderr
        if seed == SHIKAKU_SEEDS[0]:
            shutil.copy(out / TABLE, tmp_path / "first.parquet")
    shutil.copy(tmp_path / "first.parquet", out / TABLE)  # the second run died before it
    os.utime(out / JOURNAL, (1_000_000_000, 1_000_000_000))  # the copy's times: table newer
    [lost] = [r for r in Journal(out).results() if r.instance == SHIKAKU_SEEDS[0].stem]
    lines = (out / JOURNAL).read_text().splitlines(keepends=True)
    kept = [ln for ln in lines if lost.sample_id not in ln]
    (out / JOURNAL).write_text("".join(kept))  # the first result's line lost since
    os.utime(out / JOURNAL, (1_000_000_000, 1_000_000_000))
    for frame in (load_run(out).df, load_results(out)):
        assert sorted(frame["instance"]) == sorted(p.stem for p in SHIKAKU_SEEDS[:2])
    assert len(pd.read_parquet(out / TABLE)) == 1
