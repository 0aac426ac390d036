"""The task-time projection of bench.report.budget on a hand-made run with known sums."""

from __future__ import annotations

import pandas as pd
import pytest

from bench.report.budget import main, project


def run() -> pd.DataFrame:
    """One pair on a family of three sizes (it times out on the 14x14 under 3 s) and on a
    real puzzle; another pair answers everything."""
    rows = []
    for name, tier, a, b in (("f/gen-x-10x10-s1-0.txt", "ladder", 1.0, 0.1),
                             ("f/gen-x-14x14-s1-0.txt", "ladder", None, 0.2),
                             ("f/gen-x-20x20-s1-0.txt", "hard", None, 2.5),
                             ("real-x-5x5.txt", "real", 2.5, 0.1)):
        for form, t in (("slow", a), ("fast", b)):
            limit = 10.0 if tier == "hard" else 3.0
            rows.append({"instance_path": name, "formulation": form, "solver": "s", "rep": 0,
                         "tier": tier, "time_limit": limit,
                         "status": "solved" if t is not None else "timeout",
                         "build_s": 0.0, "solve_s": t if t is not None else limit,
                         "overhead_s": 0.5,
                         "wall_s": (t if t is not None else limit) + 0.5})
    return pd.DataFrame(rows)


def test_the_run_as_it_was():
    p = project(run())
    assert (p.tasks, p.timeouts, p.not_run) == (8, 2, 0)
    assert p.timeout_s == pytest.approx(3.5 + 10.5)
    assert p.task_s == pytest.approx(1.5 + 3.5 + 10.5 + 3.0 + 0.6 + 0.7 + 3.0 + 0.6)
    assert p.share == pytest.approx(14.0 / 23.4)


def test_the_ladder_rule_leaves_out_the_larger_size_only():
    p = project(run(), ladder=True)
    assert (p.timeouts, p.not_run) == (1, 1)  # the 20x20 of the slow pair is not run
    assert p.timeout_s == pytest.approx(3.5) and p.task_s == pytest.approx(23.4 - 10.5)


def test_the_ladder_rule_leaves_out_later_seeds_of_the_same_size():
    extra = run().iloc[2:4].assign(instance_path="f/gen-x-14x14-s2-0.txt", status="solved",
                                   solve_s=[2.0, 0.2], wall_s=[2.5, 0.7])
    earlier = extra.assign(instance_path="f/gen-x-14x14-s0-0.txt")
    p = project(pd.concat([run(), extra, earlier]), ladder=True)
    # the slow pair's 14x14 s2 (an answer, 2.5 s) and 20x20 are left out; its s0 runs
    assert (p.timeouts, p.not_run) == (1, 2)
    assert p.task_s == pytest.approx(23.4 - 10.5 + 0.7 + 2.5 + 0.7)


def test_a_shorter_limit_turns_slow_answers_into_timeouts():
    p = project(run(), {"real": 2.0, "ladder": 2.0})
    # the real 2.5 s answer becomes a timeout of 2 s + 0.5 s start-up; the 14x14 timeout
    # costs 1 s less
    assert p.timeouts == 3 and p.timeout_s == pytest.approx(2.5 + 2.5 + 10.5)
    with pytest.raises(ValueError, match="longer"):
        project(run(), {"hard": 20.0})


def test_the_command_reads_a_folder_and_names_a_bad_one(tmp_path, capsys):
    run().assign(key="k", puzzle="shikaku", instance="i", rows=1, cols=1, kind="sat",
                 solver_version="1").to_parquet(tmp_path / "results.parquet")
    assert main([str(tmp_path), "--ladder"]) == 0
    assert "not run by the ladder rule 1" in capsys.readouterr().out
    assert main([str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().out
