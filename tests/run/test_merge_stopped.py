"""What ``puzzlebench merge`` and a report of the merged folder say of an input whose latest
run stopped before its end (bench/run/merge.py ``_stopped_in``, bench/report/stopped.py
``merged_stopped``): how many of its planned tasks have no result in that input, counted at
merge time, not a vague "may be missing". One real run of one small Shikaku instance on
CP-SAT; its environment record is then edited into a stopped run's (no closing calibration)
that planned more tasks than it has results."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.report.data import load_run
from bench.run.storage import ENVIRONMENT
from tests.conftest import INSTANCES, ROOT

HEAD = "merged from 1 run folder(s) whose latest run stopped before its end (each as it was " \
    "when merged): "


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of one task."""
    out = tmp_path_factory.mktemp("run") / "r"
    p = cli("run", str(INSTANCES / "shikaku" / "gen-shikaku-5x5-s1-0.txt"), "--formulation",
            "cpsat-cover", "--solver", "cpsat", "--time-limit", "5", "--out", str(out))
    assert p.returncode == 0, p.stderr
    return out


def stopped_copy(finished: Path, to: Path, tasks: int) -> Path:
    """A copy of the finished run whose record says it planned ``tasks`` tasks and stopped
    before its end (no closing calibration)."""
    shutil.copytree(finished, to)
    records = json.loads((to / ENVIRONMENT).read_text())
    records[-1]["tasks"] = tasks
    del records[-1]["calibration"]["end_s"]
    (to / ENVIRONMENT).write_text(json.dumps(records))
    return to


def test_a_merge_says_how_many_planned_tasks_of_a_stopped_input_have_no_result(
        finished, tmp_path):
    a = stopped_copy(finished, tmp_path / "a", 3)
    p = cli("merge", str(a), "--out", str(tmp_path / "m"))
    assert p.returncode == 0, p.stderr
    assert (f"puzzlebench: {a}: its latest run stopped before its end: 2 of its 3 planned "
            "tasks have no result\n") in p.stderr
    note = load_run(tmp_path / "m").warnings[0]
    assert note == f"{HEAD}{a}: 2 of its 3 planned tasks have no result"
    assert "may be missing" not in note
    # a merge of that merge names the inner input and keeps what the first merge counted
    p = cli("merge", str(tmp_path / "m"), "--out", str(tmp_path / "m2"))
    assert p.returncode == 0, p.stderr
    assert load_run(tmp_path / "m2").warnings[0] == \
        f"{HEAD}{tmp_path / 'm'}: {a}: 2 of its 3 planned tasks have no result"


def test_a_stopped_input_whose_tasks_all_have_results_is_said_to_miss_none(
        finished, tmp_path):
    a = stopped_copy(finished, tmp_path / "a", 1)
    assert cli("merge", str(a), "--out", str(tmp_path / "m")).returncode == 0
    assert load_run(tmp_path / "m").warnings[0] == (
        f"{HEAD}{a}: each of its 1 planned tasks had a result: none is missing, but the run "
        "has no closing calibration (its machine's speed at the end is not known)")


def test_with_other_inputs_the_count_is_said_to_be_the_inputs_own(finished, tmp_path):
    a = stopped_copy(finished, tmp_path / "a", 3)
    p = cli("merge", str(a), str(finished), "--out", str(tmp_path / "m"))
    assert p.returncode == 0, p.stderr
    assert load_run(tmp_path / "m").warnings[0] == (
        f"{HEAD}{a}: 2 of its 3 planned tasks have no result (counted in that input alone: "
        "another input may hold results of those tasks)")


def test_a_merge_that_recorded_nothing_of_its_stopped_inputs_says_so(finished, tmp_path):
    a = stopped_copy(finished, tmp_path / "a", 3)
    assert cli("merge", str(a), "--out", str(tmp_path / "m")).returncode == 0
    records = json.loads((tmp_path / "m" / ENVIRONMENT).read_text())
    del records[0]["stopped"]  # as a merge made before merges recorded it
    (tmp_path / "m" / ENVIRONMENT).write_text(json.dumps(records))
    assert load_run(tmp_path / "m").warnings[0] == (
        f"{HEAD}{a}: how many of its planned tasks have no result was not recorded by the "
        "merge")


def test_a_finished_input_gets_no_note(finished, tmp_path):
    p = cli("merge", str(finished), "--out", str(tmp_path / "m"))
    assert p.returncode == 0 and "stopped" not in p.stderr, p.stderr
    assert not any("stopped" in w for w in load_run(tmp_path / "m").warnings)
