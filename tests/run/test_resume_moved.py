"""A resumed run decides as an uninterrupted one even when its instance files were renamed
since, or when it is started from another working folder (the recorded paths then name no
file, or are relative to the old folder): the repetition gate finds a task's fast first run,
and the ladder rule a pair's timeout, by the instance's content (the task key's digest),
never by the path recorded (bench/run/session.py ``gate``, bench/run/ladder.py ``causes``).
Real runs of CP-SAT on small generated Shikaku instances; an interrupted run is the full
run's journal cut back to its first step, its table removed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench.records import NOT_RUN
from bench.run.session import run_suite
from bench.run.storage import JOURNAL, TABLE, Journal
from tests.conftest import INSTANCES

GATED = """[mini]
version = 1
description = "the repetition gate"
time_limit = 20
repeat_under = 1.0

[mini.tiers.real]
repeats = 3
instances = ["shikaku/*.txt"]
"""

LADDER = """[lad]
version = 1
description = "the ladder rule"
time_limit = 0.001
ladder_rule = true
instances = ["shikaku/*.txt"]
"""

SELECT = {"formulations": ["cpsat-cover"], "solvers": ["cpsat"]}


def _root(tmp_path: Path, suites: str, names: list[str]) -> Path:
    root = tmp_path / "root"
    (root / "instances" / "shikaku").mkdir(parents=True)
    for n in names:
        for ext in (".txt", ".sol"):
            if (INSTANCES / "shikaku" / f"{n}{ext}").is_file():
                shutil.copyfile(INSTANCES / "shikaku" / f"{n}{ext}",
                                root / "instances" / "shikaku" / f"{n}{ext}")
    (root / "instances" / "suites.toml").write_text(suites)
    return root


def _cut(out: Path, keep) -> int:
    """Cut the folder back to the journal lines ``keep`` takes, as a run stopped then left
    it (its table not yet written); how many lines are kept."""
    lines = [line for line in (out / JOURNAL).read_text(encoding="utf-8").splitlines()
             if keep(json.loads(line))]
    (out / JOURNAL).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    (out / TABLE).unlink()
    return len(lines)


@pytest.fixture
def gated(tmp_path, monkeypatch) -> tuple[Path, set[str]]:
    """A gated suite's run from ``tmp_path`` (every first run fast: 6 tasks, 2 instances x 3
    seeds), cut back to its first runs; the full run's keys."""
    root = _root(tmp_path, GATED, ["gen-shikaku-5x5-s1-0", "gen-shikaku-10x10-s1-0"])
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "runs" / "cut"
    full = run_suite("mini", out, **SELECT)
    assert full.results == 6 and not full.not_run_line()
    keys = {r.key for r in Journal(out).results()}
    assert _cut(out, lambda d: d["seed"] == 0) == 2
    return out, keys


def test_a_resume_after_an_instance_was_renamed_runs_every_further_seed(gated, tmp_path):
    out, keys = gated
    folder = tmp_path / "root" / "instances" / "shikaku"
    for ext in (".txt", ".sol"):
        (folder / f"gen-shikaku-5x5-s1-0{ext}").rename(folder / f"renamed-5x5{ext}")
    again = run_suite("mini", out, **SELECT)
    assert again.results == 6 and not again.not_run_line()
    assert {r.key for r in Journal(out).results()} == keys


def test_a_resume_from_another_working_folder_runs_every_further_seed(gated, tmp_path,
                                                                      monkeypatch):
    out, keys = gated
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    again = run_suite("mini", out, **SELECT)
    assert again.results == 6 and not again.not_run_line()
    assert {r.key for r in Journal(out).results()} == keys


def test_a_ladder_resume_from_another_working_folder_counts_the_earlier_timeout(
        tmp_path, monkeypatch):
    names = ["gen-shikaku-10x10-s1-0", "gen-shikaku-14x14-s1-0", "gen-shikaku-20x20-s1-0"]
    root = _root(tmp_path, LADDER, names)
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "runs" / "lad"
    run_suite("lad", out, **SELECT)
    first = [r for r in Journal(out).results() if r.instance == names[0]]
    assert [r.status for r in first] == ["timeout"]  # under its 1 ms limit
    assert _cut(out, lambda d: d["instance"] == names[0]) == 1  # stopped after step 0
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    again = run_suite("lad", out, **SELECT)
    assert again.results == 3 and again.not_run == {"ladder rule": 2}
    why = {r.instance: r.message for r in Journal(out).results()}
    for name in names[1:]:  # recorded not run because of the 10x10, as in one run
        assert why[name].startswith(f"{NOT_RUN} timed out on {names[0]} (10x10"), why
