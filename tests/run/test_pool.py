"""The runner: each task in its own process, outside limits, journal and resume."""

from __future__ import annotations

import json

import pytest

from bench.records import Task
from bench.run.execute import base_result
from bench.run.plan import Plan, Selection, plan_tasks
from bench.run.pool import resume_conflict, run_plan, run_task
from bench.run.storage import Journal, consolidate, load_results
from tests.conftest import ROOT, SHIKAKU_SEEDS

SEED10 = str(SHIKAKU_SEEDS[0])


def test_task_runs_in_its_own_process_and_is_measured():
    res = run_task(Task(SEED10, "cpsat-cover", "cpsat", time_limit=30))
    assert res.status == "solved" and res.checked is True
    assert res.kind == "cpsat" and res.solver_version.startswith("9.")
    assert res.variables and res.constraints and res.iterations == 1
    # the process (interpreter, imports) costs more than build + solve, and is measured apart
    assert res.wall_s > res.build_s + res.solve_s
    assert 30 < res.peak_rss_mb < 2000
    assert res.rss_method


def test_unreadable_instance_is_an_error_result(write):
    p = write("bad.txt", "puzzle: shikaku\n\n2 x\n")
    res = run_task(Task(str(p), "sat-cover", "cadical195"))
    assert res.status == "error"
    assert res.message == f"{p}:3: column 1: illegal token 'x' (expected '.' or a positive " \
        "integer clue)"


def test_unknown_formulation_and_incompatible_solver_are_errors():
    assert "no formulation 'nope'" in run_task(Task(SEED10, "nope", "cpsat")).message
    res = run_task(Task(SEED10, "sat-cover", "highs"))
    assert res.status == "error" and "does not take sat models" in res.message


def test_harness_kills_a_task_past_its_limit():
    # a 0.2 s limit from the start of the build, no grace: glpsol's limit is whole seconds,
    # so the harness kills it; the start-up (spawn, imports) is not in the limit. The seed
    # model as written keeps GLPK busy for far longer than that (README: timeout at 20 s)
    res = run_task(Task(str(SHIKAKU_SEEDS[1]), "mip-sugar[propagate=none]", "glpk",
                        time_limit=0.2), grace_s=0.0)
    assert res.status == "timeout"
    assert "killed by the harness at 0 s past the 0.2 s limit" in res.message
    assert res.overshoot_s is not None and res.overshoot_s < 0.3


def test_memout_is_recorded():
    res = run_task(Task(SEED10, "mip-cover", "highs", memory_limit_mb=20))
    # refused by the kernel (RLIMIT_DATA) or killed by the harness's polling
    assert res.status == "memout" and "20 MB" in res.message


def test_plan_selection_and_bad_instances(write):
    bad = write("ragged.txt", "puzzle: shikaku\n\n2 .\n.\n")
    plan = plan_tasks([SEED10, str(bad)], Selection(formulations=("sat-cover[card=ladder]",),
                                                     solvers=("minisat22", "glucose4")),
                      time_limit=10, memory_limit_mb=1000)
    assert sorted((t.formulation, t.solver) for t in plan.tasks) == [
        ("sat-cover[card=ladder]", "glucose4"), ("sat-cover[card=ladder]", "minisat22")]
    assert len(plan.errors) == 1 and "ragged grid" in plan.errors[0].message
    every = plan_tasks([SEED10], Selection(formulations=("sat-cover",), solvers=("minisat22",)),
                       time_limit=10, memory_limit_mb=1000)
    assert len(every.tasks) == 6  # every encoding variant


def test_plan_selection_may_name_the_puzzle():
    seeds = [str(ROOT / "instances" / p / "seed-p01.txt") for p in ("nurikabe", "shakashaka")]
    plan = plan_tasks(seeds, Selection(formulations=("nurikabe:mip-seed[exact=true]",),
                                       solvers=("glpk",)),
                      time_limit=10, memory_limit_mb=1000)
    assert {(t.formulation, t.solver) for t in plan.tasks} == {
        ("mip-seed[root=model,patterns=seed,exact=true]", "glpk"),
        ("mip-seed[root=model,patterns=none,exact=true]", "glpk"),
        ("mip-seed[root=hint,patterns=seed,exact=true]", "glpk"),
        ("mip-seed[root=hint,patterns=none,exact=true]", "glpk")}
    assert all("nurikabe" in t.instance for t in plan.tasks)


def test_a_solver_may_be_named_for_one_puzzle_only():
    seeds = [str(ROOT / "instances" / "nurikabe" / "seed-p01.txt"), SEED10]
    plan = plan_tasks(seeds, Selection(formulations=("mip-flow", "mip-cover"),
                                       solvers=("highs", "shikaku:scip")),
                      time_limit=10, memory_limit_mb=1000)
    got = {(t.instance.split("/")[-2], t.formulation, t.solver) for t in plan.tasks}
    assert got == {("nurikabe", "mip-flow", "highs"), ("shikaku", "mip-cover", "highs"),
                   ("shikaku", "mip-cover", "scip")}


def test_plan_selects_an_alias_as_its_variant_with_its_old_label():
    seed = str(ROOT / "instances" / "nurikabe" / "seed-p01.txt")
    plan = plan_tasks([seed], Selection(formulations=("sat-tree", "cpsat-lazy"),
                                        solvers=("cadical195", "cpsat")),
                      time_limit=10, memory_limit_mb=1000)
    assert sorted((t.formulation, t.solver) for t in plan.tasks) == [
        ("cpsat-lazy", "cpsat"), ("sat-tree", "cadical195")]


def test_journal_resume_and_parquet(tmp_path, write):
    bad = write("ragged.txt", "puzzle: shikaku\n\n2 .\n.\n")
    sel = Selection(formulations=("cpsat-cover", "sat-cover[card=pairwise]"),
                    solvers=("cpsat", "minisat22"))
    plan = plan_tasks([SEED10, str(bad)], sel, time_limit=20, memory_limit_mb=2000)
    journal = Journal(tmp_path / "run")
    first = run_plan(plan, journal, jobs=2)
    assert sorted(r.status for r in first) == ["solved", "solved"]
    # a crash mid-write leaves a cut line: it is skipped, everything before it kept
    with open(journal.path, "a") as f:
        f.write('{"key": "cut sho')
    again = run_plan(plan, journal, jobs=2)
    assert again == []  # every task was already in the journal
    df = load_results(tmp_path / "run")
    assert set(df["status"]) == {"solved", "error"} and len(df) == 3
    table = consolidate(tmp_path / "run")
    import pandas as pd

    back = pd.read_parquet(table)
    assert len(back) == 3
    grid = json.loads(back[back["status"] == "solved"]["grid"].iloc[0])
    assert len(grid) == 10 and len(grid[0]) == 10


class _Tty:
    def __init__(self, tty: bool) -> None:
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, s: str) -> None:
        self.text += s

    def flush(self) -> None:
        pass


def test_progress_live_on_a_terminal_quiet_otherwise(monkeypatch):
    from bench.records import Result
    from bench.run.pool import Progress

    monkeypatch.delenv("CI", raising=False)
    done = Result("k", "shikaku", "i", "p", 1, 1, "f", "sat", "s", "v", "solved")
    failed = Result("k", "shikaku", "i", "p", 1, 1, "f", "sat", "s", "v", "timeout")
    tty, log = _Tty(True), _Tty(False)
    for stream in (tty, log):
        p = Progress(3, 1, stream=stream)  # type: ignore[arg-type]
        p.update(done)
        p.update(failed)
        p.close()
    assert "[2/3] failures 1" in tty.text and "left ~" in tty.text
    assert log.text == ""
    monkeypatch.setenv("CI", "true")
    assert not Progress(1, 1, stream=_Tty(True)).live  # type: ignore[arg-type]


def test_known_solution_is_compared(tmp_path):
    inst = tmp_path / "small.txt"
    inst.write_text("puzzle: shikaku\n\n2 . 4 .\n. . . 2\n")
    sol = tmp_path / "small.sol"
    sol.write_text("[[5, 7, 7, 9], [5, 7, 7, 9]]")  # the solution, other ids
    res = run_task(Task(str(inst), "sat-cover", "minisat22"))
    assert res.status == "solved" and res.known is True
    sol.write_text("[[5, 5, 7, 7], [9, 9, 7, 7]]")  # a different (invalid) grid
    res = run_task(Task(str(inst), "sat-cover", "minisat22"))
    assert res.status == "solved" and res.known is False and "differs" in res.message
    assert "breaks the rules" in res.message  # and the note says why
    sol.write_text("[[5, 7, 7")  # unreadable: reported, not silently ignored
    res = run_task(Task(str(inst), "sat-cover", "minisat22"))
    assert res.status == "solved" and res.known is None
    assert "known solution not used" in res.message and "not JSON" in res.message
    sol.unlink()
    sol.mkdir()  # not a regular file
    res = run_task(Task(str(inst), "sat-cover", "minisat22"))
    assert res.known is None and "not a regular file" in res.message
    sol.rmdir()
    assert run_task(Task(str(inst), "sat-cover", "minisat22")).known is None


def test_forked_tasks_cost_little_more_than_their_solve():
    """Tasks forked from a pre-imported template: same results, a small overhead, the
    template's share of memory recorded apart."""
    from statistics import median

    from bench.run.pool import Templates

    with Templates() as templates:
        runs = [run_task(Task(SEED10, "sat-cover", "minisat22", time_limit=30, rep=i),
                         templates=templates) for i in range(5)]
    for res in runs:
        assert res.status == "solved" and res.checked is True and res.start == "fork"
        assert res.base_rss_mb and res.base_rss_mb > 10 and res.peak_rss_mb > 5
        assert res.cpu_s is not None and res.cpu_s > 0
        assert res.overhead_s == pytest.approx(res.wall_s - res.build_s - res.solve_s)
    assert [r.rep for r in runs] == [0, 1, 2, 3, 4]
    assert len({r.key for r in runs}) == 5 and runs[1].key.endswith("|rep=1")
    # a spawned task pays an interpreter and the imports; a forked one does not: measured side
    # by side, so the comparison holds on a loaded machine (absolute figures: nox -s microbench)
    spawned = run_task(Task(SEED10, "sat-cover", "minisat22", time_limit=30, rep=5))
    assert spawned.status == "solved" and spawned.start != "fork"
    assert median(r.overhead_s for r in runs) < spawned.overhead_s / 2


def test_forked_task_is_killed_at_its_limit_and_errors_are_results():
    from bench.run.pool import Templates

    with Templates() as templates:
        res = run_task(Task(SEED10, "mip-cover", "glpk", time_limit=0.01), grace_s=0.0,
                       templates=templates)
        assert res.status == "timeout" and res.start == "fork"
        # a timeout at its limit whoever stopped it: glpsol's own clock, its session at the
        # deadline, or the harness's kill (tests/run/test_reliability_limits.py times that)
        assert res.wall_s < 2 and "0.01 s" in res.message, res.message
        res = run_task(Task(SEED10, "sat-cover", "highs"), templates=templates)
        assert res.status == "error" and "does not take sat models" in res.message


def test_repeat_and_seeds_expand_the_plan():
    plan = plan_tasks([SEED10], Selection(formulations=("sat-cover[card=ladder]",),
                                          solvers=("minisat22",)),
                      time_limit=10, memory_limit_mb=1000, seed=7, repeat=3, seeds=2)
    assert sorted((t.seed, t.rep) for t in plan.tasks) == [
        (7, 0), (7, 1), (7, 2), (8, 0), (8, 1), (8, 2)]
    assert len({t.key for t in plan.tasks}) == 6


def test_a_suites_tiers_keep_their_own_time_limits_in_one_folder(tmp_path):
    """A tiered suite runs its tiers under their own limits into one folder and resumes there;
    a tier's results under another limit than the plan's are still refused."""
    real = Task(str(SHIKAKU_SEEDS[0]), "f", "s", 3.0, tier="real")
    hard = Task(str(SHIKAKU_SEEDS[1]), "f", "s", 10.0, tier="hard")
    journal = Journal(tmp_path)
    for t in (real, hard):
        journal.append(base_result(t, None, "timeout"))
    plan = Plan()
    plan.tasks = [real, hard]
    assert resume_conflict(journal, plan) == ""
    plan.tasks = [real, Task(hard.instance, "f", "s", 5.0, tier="hard")]
    assert "holds results run with --time-limit 10, not 5" in resume_conflict(journal, plan)
