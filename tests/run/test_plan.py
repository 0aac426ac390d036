"""A suite's plan before it runs: tiers, declared repeats (seeds or repetitions), tier time
limits, default variants, and `run --dry-run` (real processes, real files)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bench.instance import read_instance
from bench.records import instance_digest
from bench.run.estimate import cost
from bench.run.plan import Selection, apply_tiers, default_variants, plan_tasks
from bench.suites import load_suites
from tests.cli.test_cli import cli
from tests.conftest import SHIKAKU_SEEDS

SUITE = """[t]
version = 1
description = "test"
time_limit = 20
variants = "default"
solvers = ["cpsat", "glpk"]

[t.tiers.small]
repeats = 3
time_limit = 4
instances = ["shikaku/a.txt"]

[t.tiers.big]
instances = ["shikaku/b.txt"]
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "instances" / "shikaku").mkdir(parents=True)
    for name, seed in (("a.txt", SHIKAKU_SEEDS[0]), ("b.txt", SHIKAKU_SEEDS[1])):
        (root / "instances" / "shikaku" / name).write_text(seed.read_text())
    (root / "instances" / "suites.toml").write_text(SUITE)
    return root


def test_a_tiered_suite_loads_its_tiers(tmp_path, monkeypatch):
    root = project(tmp_path)
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    s = load_suites()["t"]
    tiers = {Path(p).name: t for p, t in s.tier_of().items()}
    assert tiers == {"a.txt": "small", "b.txt": "big"}
    assert [Path(p).name for p in s.instances()] == ["a.txt", "b.txt"]
    assert s.repeats_of() == {"small": 3, "big": 1} and s.limits_of() == {"small": 4.0}


def test_repeats_are_seeds_for_seeded_solvers_and_repetitions_for_the_others(tmp_path):
    path = str(SHIKAKU_SEEDS[0])
    plan = plan_tasks([path], Selection((), ("mip-cover", "cpsat-cover"), ("glpk", "cpsat")),
                      time_limit=20, memory_limit_mb=2000)
    apply_tiers(plan, {path: "small"}, {"small": 3}, limits_of={"small": 4.0})
    by = {(t.solver, t.seed, t.rep) for t in plan.tasks}
    assert by == {("cpsat", 0, 0), ("cpsat", 1, 0), ("cpsat", 2, 0),
                  ("glpk", 0, 0), ("glpk", 0, 1), ("glpk", 0, 2)}
    assert {t.tier for t in plan.tasks} == {"small"} and {t.time_limit for t in plan.tasks} == {4}
    assert len({t.key for t in plan.tasks}) == 6  # every repetition its own journal key
    # a run given --repeat/--seeds keeps its own repetitions
    plan = plan_tasks([path], Selection((), ("cpsat-cover",), ("cpsat",)), time_limit=20,
                      memory_limit_mb=2000, repeat=2)
    apply_tiers(plan, {path: "small"}, {"small": 3}, repeat=False)
    assert len(plan.tasks) == 2 and {t.tier for t in plan.tasks} == {"small"}


def test_cost_counts_measured_times_and_the_rest_at_the_limit():
    path = str(SHIKAKU_SEEDS[0])
    plan = plan_tasks([path], Selection((), ("mip-cover", "cpsat-cover"), ("cpsat", "highs")),
                      time_limit=10, memory_limit_mb=2000)
    known = pd.DataFrame({"content": [instance_digest(path)] * 2,
                          "formulation": ["cpsat-cover", "mip-cover"],
                          "solver": ["cpsat", "highs"], "time_s": [0.5, float("nan")],
                          "answered": [1.0, 0.0]})
    c = cost(plan, known)
    assert (c.tasks, c.worst_s, c.known) == (2, 20.0, 2)
    assert c.estimated_s == 10.5 and c.timeouts_s == 10.0 and c.unknown_s == 0


def test_dry_run_prints_the_plan_and_runs_nothing(tmp_path):
    root = project(tmp_path)
    out = tmp_path / "out"
    p = cli("run", "--suite", "t", "--dry-run", "--jobs", "2", env={
        "PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert not out.exists() and not any(tmp_path.glob("*/journal.jsonl"))
    # default variants only, the suite's two solvers: 4 pairs, each 3x on a.txt and 1x on b.txt
    assert "shikaku: 16 tasks (small 12, big 4), 4 pairs" in p.stdout
    assert "cpsat-cover / cpsat: 4" in p.stdout  # 3 seeds on a.txt, 1 on b.txt
    assert "mip-cover / glpk: 4" in p.stdout  # 3 repetitions on a.txt, 1 on b.txt
    assert " sat-cover" not in p.stdout and "mip-sugar[propagate=root]" not in p.stdout
    # worst case: 12 tasks at the small tier's 4 s and 4 at the suite's 20 s = 128 s
    assert "worst case (every task at its limit) 2.1 task-min, 1.1 min wall with --jobs 2" \
        in p.stdout
    bad = cli("run", "--suite", "t", "--dry-run", "--estimate", str(tmp_path / "nowhere"),
              env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert bad.returncode == 2 and "nowhere: no such run folder" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_quick_suite_is_small():
    s = load_suites()["quick"]
    plan = plan_tasks(s.instances(), Selection((), default_variants(), s.solvers),
                      time_limit=s.time_limit, memory_limit_mb=2000)
    assert 50 <= len(plan.tasks) <= 300  # v5: over 1,400 tasks


def test_the_default_suite_has_15_instances_a_puzzle_and_a_ladder_of_4_sizes():
    s = load_suites()["default"]
    tiers = s.tier_of()
    assert [t.name for t in s.tiers] == ["real", "ladder", "hard"]
    per: dict[str, list[tuple[str, int]]] = {}
    for path, tier in tiers.items():
        inst = read_instance(path)
        per.setdefault(inst.puzzle, []).append((tier, inst.rows * inst.cols))
    assert set(per) == {"shikaku", "nurikabe", "yinyang", "shakashaka", "fillomino"}
    for puzzle, rows in per.items():
        assert len(rows) >= 15, puzzle
        assert len({c for t, c in rows if t == "ladder"}) >= 4, puzzle


def test_the_selection_rule_by_hand():
    from bench.run.tiers import rule

    assert rule(0.5, float("nan"), 2, 5) == "hard"  # in range, some pair does not answer
    assert rule(0.5, 6.0, 0, 5) == "hard"  # in range, one pair 12x slower
    assert rule(0.5, 4.0, 0, 5) == "hard (flat)"  # in range, no pair 10x slower
    assert rule(12.0, 30.0, 0, 5) == "too hard"
    assert rule(0.01, 0.15, 0, 5) == "trivial"  # every pair under 0.2 s
    assert rule(0.01, 0.5, 0, 5) == "easy"
    assert rule(float("nan"), float("nan"), 5, 0) == "unsolved"


def test_a_tiered_run_records_the_tier_and_repeats_only_fast_tasks(tmp_path):
    root = project(tmp_path)
    suite = (root / "instances" / "suites.toml").read_text()
    (root / "instances" / "suites.toml").write_text(
        suite.replace('variants = "default"', 'variants = "default"\nrepeat_under = 1.0'))
    out = tmp_path / "out"
    p = cli("run", "--suite", "t", "--out", str(out), "--formulation", "cpsat-cover",
            "--formulation", "mip-sugar[propagate=none]", "--solver", "cpsat", "--solver",
            "glpk", env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(out / "results.parquet")
    assert dict(zip(df["instance_path"].map(lambda s: Path(s).name), df["tier"],
                    strict=True)) == {"a.txt": "small", "b.txt": "big"}
    a = df[df["instance_path"].str.endswith("a.txt")]
    assert set(a["time_limit"]) == {4.0} and set(df.loc[df["tier"] == "big", "time_limit"]) \
        == {20.0}
    for (form, solver), g in a.groupby(["formulation", "solver"]):
        first = g[(g["rep"] == 0) & (g["seed"] == 0)].iloc[0]
        fast = first["status"] == "solved" and first["build_s"] + first["solve_s"] < 1.0
        assert len(g) == (3 if fast else 1), (form, solver, len(g))
        if fast and solver == "cpsat":
            assert sorted(g["seed"]) == [0, 1, 2]  # CP-SAT repeats by seed
        elif fast:
            assert sorted(g["rep"]) == [0, 1, 2]  # GLPK by repetition


def test_an_unavailable_formulation_no_selected_solver_runs_is_not_reported_skipped(
        monkeypatch, caplog):
    # a formulation whose package is missing is skipped with a warning only where a selected
    # solver would have run it; with no solver of its kind selected it plans nothing, silently
    from bench.registry import formulations

    path = str(SHIKAKU_SEEDS[0])
    cls = next(c for c in formulations("shikaku") if c.kind == "cpmpy")
    monkeypatch.setattr(cls, "requires", ("no_such_package_here",))
    with caplog.at_level("WARNING"):
        plan = plan_tasks([path], Selection((), (), ("cpsat",)), time_limit=5,
                          memory_limit_mb=1024)
    assert plan.tasks and not plan.skipped and "skipping formulation" not in caplog.text
    with caplog.at_level("WARNING"):
        plan = plan_tasks([path], Selection((), (), ("cpmpy:ortools",)), time_limit=5,
                          memory_limit_mb=1024)
    assert not plan.tasks and f"shikaku/{cls.name}" in " ".join(plan.skipped)
    assert "skipping formulation" in caplog.text


def test_an_unavailable_solver_is_said_once_a_plan(caplog):
    # Gurobi through CPMpy is never benchmarked (its pip licence is size-limited): over two
    # instances and every CPMpy formulation variant, one warning
    pytest.importorskip("cpmpy")
    with caplog.at_level("WARNING"):
        plan = plan_tasks([str(p) for p in SHIKAKU_SEEDS[:2]],
                          Selection((), (), ("cpmpy:gurobi", "cpmpy:ortools")), time_limit=5,
                          memory_limit_mb=1024)
    assert caplog.text.count("skipping solver cpmpy:gurobi") == 1, caplog.text
    assert "cpmpy:gurobi" in plan.unavailable and plan.tasks


def test_two_files_of_one_content_are_one_instance_and_the_plan_says_so(tmp_path, caplog):
    """A task is known by its instance's content: a copy under another name is planned once,
    as the first path, with a warning naming both; the same file spelt twice is no copy."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(SHIKAKU_SEEDS[0].read_text())
    b.write_text(SHIKAKU_SEEDS[0].read_text())
    sel = Selection((), ("cpsat-cover",), ("cpsat",), False)
    with caplog.at_level("WARNING", logger="bench.run.plan"):
        plan = plan_tasks([str(a), str(b), str(tmp_path / "." / "a.txt"),
                           str(tmp_path / "." / "b.txt")], sel, time_limit=5,
                          memory_limit_mb=1024)
    assert {t.instance for t in plan.tasks} == {str(a)}
    assert plan.same == {str(b): str(a)}
    said = [r.getMessage() for r in caplog.records]
    assert said == [f"{b} has the same content as {a}: one instance, planned (and reported) "
                    f"as {a}"], said


def test_each_code_digest_is_computed_once_a_plan(monkeypatch):
    """A digest reads and hashes source files: once per formulation and backend class, not once
    per task."""
    import bench.run.plan as plan_module

    calls: list[type] = []
    for name in ("formulation_code", "backend_code"):
        real = getattr(plan_module, name)
        monkeypatch.setattr(plan_module, name,
                            lambda cls, real=real: calls.append(cls) or real(cls))
    plan = plan_tasks(SHIKAKU_SEEDS[:2], Selection((), ("mip-cover", "cpsat-cover"),
                                                   ("highs", "cpsat")),
                      time_limit=20, memory_limit_mb=2048, repeat=3, seeds=2)
    assert len(plan.tasks) == 2 * 2 * 3 * 2
    assert len(calls) == len(set(calls)) == 4  # two formulations, two backends
    assert len({t.backend_code for t in plan.tasks}) == 2


def test_an_empty_path_is_not_the_working_directory():
    from bench.run.plan import expand_paths

    with pytest.raises(FileNotFoundError, match="empty path"):
        expand_paths([""])
