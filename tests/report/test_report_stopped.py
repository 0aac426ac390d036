"""A report of a run killed before its end (SIGKILL: no closing record) says how many of the
run's planned tasks have no result where the folder shows it (bench/report/data.py
``stopped_note``), none missing when every one has a result, and a bound or "not known" where
other runs' results share the folder. Real runs of one Shikaku instance on CP-SAT, repeated,
killed with SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.report.data import load_run
from bench.run.storage import ENVIRONMENT, JOURNAL, Journal
from tests.conftest import ROOT, SHIKAKU_SEEDS

HEAD = ("the latest run into this folder stopped before its end (interrupted, killed or ended "
        "by an error)")
RESUME = "; the same `puzzlebench run` command resumes it"


def _args(repeat: int) -> list[str]:
    return [sys.executable, "-m", "bench.cli", "run", str(SHIKAKU_SEEDS[0]), "--formulation",
            "cpsat-cover", "--solver", "cpsat", "--time-limit", "20", "--repeat", str(repeat)]


def _killed_at(out: Path, repeat: int, lines: int) -> None:
    """Run ``repeat`` tasks into ``out`` and SIGKILL the run once its journal holds ``lines``
    more lines than before (polled every 2 ms)."""
    journal = out / JOURNAL
    before = journal.read_bytes().count(b"\n") if journal.exists() else 0
    proc = subprocess.Popen([*_args(repeat), "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not journal.exists() or journal.read_bytes().count(b"\n") < before + lines:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run journaled too little"
        time.sleep(0.002)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    last = json.loads((out / ENVIRONMENT).read_text())[-1]
    assert "end_s" not in last["calibration"], "the run ended before it was killed"


def _have(out: Path) -> int:
    return len({r.key for r in Journal(out).results()})


def test_a_run_killed_midway_says_how_many_of_its_planned_tasks_have_no_result(tmp_path):
    out = tmp_path / "r"
    _killed_at(out, 6, 1)
    have = _have(out)
    assert 1 <= have < 6
    assert load_run(out).warnings[0] == \
        f"{HEAD}: {6 - have} of its 6 planned tasks have no result{RESUME}"
    # killed again while resuming: the first run's results share the folder, and a run
    # records how many tasks it planned, not which: only a bound can be said
    _killed_at(out, 6, 1)
    have = _have(out)
    note = load_run(out).warnings[0]
    if have < 6:
        assert note == f"{HEAD}: at least {6 - have} of its 6 planned tasks have no result" \
            + RESUME
    else:
        assert note.startswith(f"{HEAD}: it planned 6 tasks and this folder holds results of "
                               "6 tasks") and "is not known" in note


def test_a_run_killed_after_its_last_result_says_none_is_missing(tmp_path):
    for attempt in range(3):  # the end record takes a calibration loop: the kill lands first
        out = tmp_path / f"r{attempt}"
        try:
            _killed_at(out, 2, 2)
        except AssertionError as e:
            if "ended before it was killed" not in str(e) or attempt == 2:
                raise
            continue
        break
    assert _have(out) == 2
    note = load_run(out).warnings[0]
    assert note == (f"{HEAD} after each of its 2 planned tasks had a result: none is missing, "
                    "but the run has no closing calibration (its machine's speed at the end is "
                    "not known)")
    assert "may be missing" not in note


def test_the_note_reads_the_record_it_has():
    """Without a recorded plan size nothing is said of it; the repetition gate's repetitions
    (they leave no row) make an alone run's count an upper bound; a capped suite's rows make
    it unknown; an unreadable instance's row is no task."""
    import pandas as pd

    from bench.report.stopped import stopped_note

    rows = pd.DataFrame({"key": ["a", "b", "c"], "formulation": ["f", "f", "-"]})
    assert "did not record how many tasks" in stopped_note([{}], rows)
    alone = stopped_note([{"tasks": 3, "tiers": {}}], rows)
    assert alone == f"{HEAD}: 1 of its 3 planned tasks has no result{RESUME}"
    gated = {"tasks": 5, "repeat_under": 1.0, "tiers": {"t": {"repeats": 3, "capped": []}}}
    note = stopped_note([gated], rows)
    assert note.startswith(f"{HEAD}: at most 3 of its 5 planned tasks have no result (the "
                           "count includes the further repetitions") and "1 s)" in note
    capped = {"tasks": 5, "tiers": {"t": {"repeats": 1, "capped": ["p:f/s"]}}}
    assert stopped_note([capped], rows) == f"{HEAD}: at least 3 of its 5 planned tasks have " \
        f"no result{RESUME}"
    both = {"tasks": 5, "repeat_under": 1.0, "tiers": {"t": {"repeats": 3, "capped": ["p:f/s"]}}}
    assert "is not known" in stopped_note([both], rows)
