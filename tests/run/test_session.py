"""One library call runs a suite (bench/run/session.py): plan, reuse, run, Parquet, under the
folder's lock; real tasks of one Shikaku instance on CP-SAT."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from bench.run.lock import RunLock
from bench.run.plan import PlanError, make_plan
from bench.run.session import Options, SessionError, run_session, run_suite
from bench.run.storage import Journal
from tests.conftest import SHIKAKU_SEEDS

PATHS = [str(SHIKAKU_SEEDS[0])]
SELECT: dict[str, Any] = {"formulations": ["cpsat-cover"], "solvers": ["cpsat"],
                          "time_limit": 20.0}


def test_run_suite_plans_runs_and_writes_the_table_and_a_second_call_reuses_or_resumes(
        tmp_path):
    said: list[str] = []
    first = run_suite(None, tmp_path / "a", PATHS, say=said.append, **SELECT)
    assert first.signum == 0 and first.results == 1 and first.table is not None
    df = pd.read_parquet(first.table)
    assert list(df["status"]) == ["solved"] and list(df["run"]) == ["a"]
    again = run_suite(None, tmp_path / "a", PATHS, **SELECT)  # a resume: nothing to run
    assert again.results == 1 and len(Journal(tmp_path / "a").results()) == 1
    reused = run_suite(None, tmp_path / "b", PATHS, options=Options(reuse=[tmp_path / "a"]),
                       say=said.append, **SELECT)
    assert reused.reusable == 1 and dict(reused.reused) == {"a": 1}
    assert "reused 1 of 1 tasks (1 from a); 0 to run" in said
    assert list(pd.read_parquet(reused.out / "results.parquet")["run"]) == ["a"]


def test_a_bad_selection_or_a_locked_folder_raises_before_anything_runs(tmp_path):
    with pytest.raises(PlanError, match="selects no formulation variant"):
        make_plan(None, PATHS, formulations=["no-such-formulation"])
    with pytest.raises(PlanError, match="no instance file matches"):
        make_plan(None, [str(tmp_path / "missing.txt")])
    planned = make_plan(None, PATHS, **SELECT)
    with RunLock(tmp_path / "held"), pytest.raises(SessionError, match="another run"):
        run_session(planned, tmp_path / "held")
    assert not (tmp_path / "held" / "journal.jsonl").exists()
    with pytest.raises(SessionError, match="not a run folder"):
        run_session(planned, tmp_path / "c", Options(reuse=[tmp_path / "nothing"]))


def test_a_session_says_progress_samples_the_machine_and_counts_what_the_gate_did_not_run(
        tmp_path):
    """Three repetitions of one task under a repetition gate no first run passes: one runs,
    two are counted not run by the gate; progress lines come at the interval asked; the
    machine is sampled at the start and end (and between), and each result carries the load
    average of its moment."""
    from dataclasses import replace

    from bench.run.storage import load_environment

    planned = replace(make_plan(None, PATHS, repeat=3, **SELECT), under=1e-6)
    said: list[str] = []
    outcome = run_session(planned, tmp_path / "g", Options(progress_s=0.2, sample_s=0.3),
                          say=said.append)
    assert outcome.signum == 0 and outcome.results == 1
    assert outcome.planned == 3 and +outcome.not_run == {"repetition gate": 2}
    assert outcome.not_run_line().startswith("2 of 3 planned tasks were not run: 2 further "
                                             "repetitions or seeds left out by the repetition "
                                             "gate")
    progress = [line for line in said if line.startswith("progress: ")]
    assert progress and progress[-1].endswith(" s elapsed")
    assert " of 3 planned tasks done" in progress[-1]
    env = load_environment(tmp_path / "g")[-1]
    assert len(env["samples"]) >= 2
    assert all(s["calibration_s"] > 0 and 0 <= s["others_cpu"] <= 1 for s in env["samples"])
    assert env["disturbed"] == outcome.disturbed
    [res] = Journal(tmp_path / "g").results()
    assert res.load is not None and res.load >= 0


def test_a_run_that_ran_every_task_says_nothing_was_left_out(tmp_path):
    outcome = run_session(make_plan(None, PATHS, **SELECT), tmp_path / "q")
    assert outcome.not_run_line() == "" and outcome.planned == 1


def test_a_run_stopped_before_any_task_finished_names_no_journal_it_did_not_write(tmp_path):
    import signal

    from bench.run.session import Outcome

    none = Outcome(out=tmp_path, signum=signal.SIGINT).stopped()
    assert none.startswith("interrupted (SIGINT): no task had finished;")
    assert "journal" not in none and "resume" in none
    some = Outcome(out=tmp_path, results=2, signum=signal.SIGTERM).stopped()
    assert some.startswith(f"terminated (SIGTERM): 2 finished results kept in {tmp_path}")


def test_a_run_with_error_results_says_how_to_run_them_again(tmp_path):
    """An error result is kept by a resume; the session says so and names the way to run it
    again (a new ``--out`` with ``--reuse``), which runs it and takes the rest."""
    from dataclasses import replace

    planned = make_plan(None, [str(SHIKAKU_SEEDS[0]), str(SHIKAKU_SEEDS[1])], **SELECT)
    good = planned.plan.tasks[1]
    # the first task's code on disk is no longer the planned one: an error of that task
    planned.plan.tasks[0] = replace(planned.plan.tasks[0], code="code-0000000000000000")
    said: list[str] = []
    run_session(planned, tmp_path / "a", say=said.append)
    statuses = {r.key: r.status for r in Journal(tmp_path / "a").results()}
    assert statuses == {planned.plan.tasks[0].key: "error", good.key: "solved"}
    note = [s for s in said if "ended in error" in s]
    assert note == ["1 task(s) ended in error: 1 outside the solve (a crash, a kill from "
                    "outside, code changed since the plan)"]
    assert any(s.endswith(f"--out NEW_FOLDER --reuse {tmp_path / 'a'} (an error is never "
                          "reused, the other results are)") for s in said)
    said.clear()
    again = run_suite(None, tmp_path / "b", [str(SHIKAKU_SEEDS[0]), str(SHIKAKU_SEEDS[1])],
                      options=Options(reuse=[tmp_path / "a"]), say=said.append, **SELECT)
    assert dict(again.reused) == {"a": 1}
    assert {r.status for r in Journal(tmp_path / "b").results()} == {"solved"}
    assert not any("ended in error" in s for s in said)
