"""Stopping a run: the first Ctrl-C (SIGINT) or SIGTERM starts no further task, kills the
running ones without journaling them, writes the Parquet of what finished, says how to resume
and exits (130, 143) within a generous bound; a resume runs the interrupted tasks. A task
process killed before it created its stderr file is a result like any other."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from bench.records import Task
from bench.run.forkserver import Template, Watchdog
from bench.run.pool import Templates, preload_modules, run_task, task_env
from bench.run.storage import Journal
from tests.conftest import ROOT, SHIKAKU_SEEDS

#: the 28 tasks of the fault probe's reproducer (the quick suite's Shikaku and Fillomino, every
#: variant of their SAT formulations, on MiniSat)
RUN = ("run", "--suite", "quick", "--puzzle", "shikaku", "--puzzle", "fillomino", "--solver",
       "minisat22", "--formulation", "shikaku:sat-cover", "--formulation", "fillomino:sat-lazy",
       "--formulation", "fillomino:sat-regions", "--time-limit", "5")
#: generous: the goal is under 2 s on a quiet machine; tests share a loaded one
EXIT_BOUND_S = 15.0


def start_run(out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def journal_lines(out: Path) -> int:
    path = out / "journal.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0


def wait_for_results(out: Path, n: int, proc: subprocess.Popen[str]) -> None:
    """Until the run journaled ``n`` results (it is running tasks then, with more queued)."""
    deadline = time.monotonic() + 120
    while journal_lines(out) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run journaled nothing"
        time.sleep(0.02)


@pytest.mark.parametrize(("signum", "code", "word"), [(signal.SIGINT, 130, "interrupted"),
                                                      (signal.SIGTERM, 143, "terminated")])
def test_a_signal_stops_the_run_keeps_what_finished_and_a_resume_runs_the_rest(
        tmp_path, signum, code, word):
    out = tmp_path / "r"
    proc = start_run(out)
    wait_for_results(out, 2, proc)
    before = journal_lines(out)
    t0 = time.monotonic()
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    took = time.monotonic() - t0
    assert proc.returncode == code, err
    assert took < EXIT_BOUND_S, f"{took:.1f} s from the signal to the exit"
    assert "Traceback" not in err, err
    results = Journal(out).results()
    # no task started after the signal: at most the one running then finished in between
    assert before <= len(results) <= before + 1, (before, len(results))
    assert all(r.status == "solved" for r in results), [(r.status, r.message) for r in results]
    assert word in err and "to resume" in err, err
    df = pd.read_parquet(out / "results.parquet")
    assert sorted(df["key"]) == sorted(r.key for r in results)
    done = {r.key for r in results}
    p = subprocess.run([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    after = Journal(out).results()
    keys = [r.key for r in after]
    assert len(keys) == len(set(keys)) == 28  # every task exactly once
    assert done < set(keys)
    assert len(pd.read_parquet(out / "results.parquet")) == 28


def test_a_second_ctrl_c_journals_nothing_false(tmp_path):
    out = tmp_path / "r"
    proc = start_run(out)
    wait_for_results(out, 1, proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.3)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert all(r.status == "solved" for r in Journal(out).results())
    assert (out / "results.parquet").exists()


#: installed in a template by preload ("module:function:arg"): every task it forks stalls
#: before it opens its stderr file, so the harness kills it (memory limit) before it exists
STALL = "tests.run.test_reliability_interrupt:stall_before_stderr:"


def stall_before_stderr(_arg: str) -> None:
    real_open = os.open

    def stalling_open(path: str, *args: object, **kwargs: object) -> int:
        if str(path).endswith("stderr.txt"):
            time.sleep(60)
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    os.open = stalling_open  # type: ignore[assignment]


def test_a_task_killed_before_its_stderr_file_exists_is_a_memout(tmp_path):
    task = Task(str(SHIKAKU_SEEDS[0]), "sat-cover", "minisat22", time_limit=5,
                memory_limit_mb=1)
    watchdog = Watchdog()
    templates = Templates(watchdog)
    try:
        kinds = ("sat",)
        templates._templates[kinds, 1] = Template([*preload_modules(kinds), STALL],
                                                  env=task_env(1, watchdog))
        res = run_task(task, templates=templates)
    finally:
        templates.close()
        watchdog.close()
    assert res.status == "memout", res.message
    assert "1 MB" in res.message
    assert res.wall_s is not None and res.wall_s < 30  # killed at once, not after the stall
