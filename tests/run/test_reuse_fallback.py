"""``--reuse`` judges the start method by the source run's: a forking run's spawned fallback
(a task whose fork failed, run in a spawned process: bench.run.pool.run_task) is taken by a
forking run, as its own folder's resume takes it; a spawning run's results are not. Real
tasks of one Shikaku instance on CP-SAT; the fork is made to fail by the fork-server
templates raising an OSError, which a fork that fails raises."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.run import pool
from bench.run.reuse import Sources, matches
from bench.run.session import Options, run_suite
from bench.run.storage import Journal, load_environment
from tests.conftest import SHIKAKU_SEEDS

PATHS = [str(SHIKAKU_SEEDS[0])]
SELECT: dict[str, Any] = {"formulations": ["cpsat-cover"], "solvers": ["cpsat"],
                          "time_limit": 20.0}


def _no_fork(self: Any, task: Any) -> Any:
    raise OSError(11, "Resource temporarily unavailable (a fork that failed)")


@pytest.fixture
def fallback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A forking run whose one task fell back to a spawned process."""
    with monkeypatch.context() as m:
        m.setattr(pool.Templates, "get", _no_fork)
        run_suite(None, tmp_path / "a", PATHS, options=Options(start="fork"), **SELECT)
    [res] = Journal(tmp_path / "a").results()
    assert res.start == "spawn" and res.status == "solved" and res.base_rss_mb is None
    assert [r["start"] for r in load_environment(tmp_path / "a")] == ["fork"]
    return tmp_path / "a"


def test_a_forking_run_takes_another_forking_runs_spawned_fallback(fallback, tmp_path):
    [source] = Journal(fallback).results()
    taken = run_suite(None, tmp_path / "b", PATHS,
                      options=Options(start="fork", reuse=[fallback]), **SELECT)
    assert taken.reusable == 1 and sum(taken.reused.values()) == 1
    [res] = Journal(tmp_path / "b").results()  # the same sample, not measured again
    assert res.sample_id == source.sample_id and res.run == "a" and res.start == "spawn"
    assert res.solve_s == source.solve_s


def test_a_forking_run_does_not_take_a_spawning_runs_results(tmp_path):
    from bench.run.reuse import run_start

    run_suite(None, tmp_path / "s", PATHS, options=Options(start="spawn"), **SELECT)
    assert run_start(tmp_path / "s") == "spawn"
    fresh = run_suite(None, tmp_path / "b", PATHS,
                      options=Options(start="fork", reuse=[tmp_path / "s"]), **SELECT)
    assert fresh.reusable == 0
    [res] = Journal(tmp_path / "b").results()
    assert res.run == "b" and res.start == "fork"


def test_a_folder_of_runs_started_both_ways_is_judged_by_each_results_start(
        fallback, tmp_path):
    """Once a spawning run has recorded tasks into the folder, a result saying ``spawn`` may
    be its own: a forking run no longer takes it."""
    from bench.run.plan import make_plan
    from bench.run.reuse import run_start

    assert run_start(fallback) == "fork"
    run_suite(None, fallback, [str(SHIKAKU_SEEDS[1])], options=Options(start="spawn"),
              **SELECT)
    assert run_start(fallback) == ""
    tasks = make_plan(None, PATHS, **SELECT).plan.tasks
    assert matches(tasks, Sources.load([fallback]), start="fork") == []
    assert len(matches(tasks, Sources.load([fallback]), start="spawn")) == 1
