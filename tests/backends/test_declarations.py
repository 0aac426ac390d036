"""What the backends declare, and the harness's solver tables derived from it: the solvers that
take a seed, `check`'s preference, the effort counters a result keeps and the report's effort
tables; SCIP's repeats run as seeds (real runs, real files)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from bench.backends import (
    all_backends,
    backends_for,
    check_preference,
    effort_columns,
    get_backend,
    seeded_solvers,
)
from bench.effort import COUNTERS, labels, ranking
from bench.records import Result
from bench.run.execute import copy_stats
from bench.run.plan import apply_tiers
from bench.run.pool import Selection, plan_tasks
from bench.solve import SolveStats
from tests.cli.test_cli import cli
from tests.conftest import SHIKAKU_SEEDS

#: a SAT model's own propagator (IPASIR-UP), reported by the one backend that connects it
PROPAGATOR = ("propagator_calls", "propagator_s", "propagator_inferences", "propagator_clauses")

def test_the_derived_tables_equal_the_declarations():
    backends = all_backends()
    assert seeded_solvers() == {b.name for b in backends if b.seeding.use != "none"}
    ranked = sorted((b.check_rank, i, b.name) for i, b in enumerate(backends)
                    if b.check_rank is not None)
    assert check_preference() == tuple(n for _, _, n in ranked)
    declared = {c.name for b in backends for c in b.effort}
    assert set(effort_columns()) == declared


def test_the_derived_tables_keep_the_solver_facts_runs_relied_on():
    """The tables as they were written by hand, but SCIP, which passes its seed, now seeded."""
    import bench.report.efforts as efforts
    import bench.report.instances as instances

    sat = {b.name for b in backends_for("sat")}
    cpmpy = {"cpmpy:ortools", "cpmpy:pumpkin", "cpmpy:exact", "cpmpy:z3", "cpmpy:highs",
             "cpmpy:scip"}
    assert seeded_solvers() == {"cpsat", "highs", "scip"} | sat | cpmpy
    old = ("cadical195", "cpsat", "clingo", "glpk", "cbc", "scip", "highs")
    for kind in ("mip", "sat", "cpsat", "asp"):  # check takes the first available per kind
        names = {b.name for b in backends_for(kind)}
        assert [n for n in check_preference() if n in names] == [n for n in old if n in names]
    assert set(effort_columns()) == {"conflicts", "decisions", "propagations",
                                     "deterministic_time", "branches", "simplex_iterations",
                                     "nodes", "failures", *PROPAGATOR}
    assert instances.EFFORT == labels() == {
        "conflicts": "conflicts", "decisions": "decisions", "branches": "branches",
        "simplex_iterations": "simplex it.", "nodes": "nodes"}
    assert efforts.EFFORT == ranking() == {"sat": ("conflicts", "decisions"),
                                            "cpsat": ("conflicts", "branches"),
                                            "mip": ("simplex_iterations", "nodes")}


def test_the_counters_are_the_results_columns_and_rank_only_kinds_that_report_them():
    names = [c.name for c in COUNTERS]
    columns = {f.name for f in dataclasses.fields(Result)}
    assert set(names) <= columns and len(names) == len(set(names))
    documented = {"conflicts", "decisions", "propagations", "deterministic_time", "branches",
                  "simplex_iterations", "nodes", "failures", *PROPAGATOR}
    assert set(names) == documented
    for c in COUNTERS:
        assert c.meaning and c.unit
        for kind in c.ranks:
            assert any(c in b.effort for b in backends_for(kind)), (c.name, kind)


def test_a_result_keeps_the_declared_counters_and_no_other():
    res = Result(key="k", puzzle="p", instance="i", instance_path="i.txt", rows=1, cols=1,
                 formulation="f", kind="sat", solver="minisat22", solver_version="",
                 status="solved")
    stats = SolveStats()
    stats.effort = {**{c: 3.0 for c in effort_columns()}, "restarts": 9.0}
    copy_stats(res, stats, "")
    assert all(getattr(res, c) == 3.0 for c in effort_columns())
    assert not hasattr(res, "restarts")


def test_a_backend_reports_the_counters_it_declares():
    """A real solve: python-sat's MiniSat returns its declared counters and CP-SAT its own."""
    from bench.backends import SolveOptions
    from bench.models import CpsatModel, SatModel

    sat = SatModel()
    a, b = sat.var("a"), sat.var("b")
    sat.extend([[a, b], [-a, b], [a, -b]])
    out = get_backend("minisat22").start(sat, SolveOptions()).solve(10.0)
    assert out.status == "sat"
    assert {c.name for c in get_backend("minisat22").effort} <= set(out.stats)
    cp = CpsatModel.new()
    x = cp.model.new_bool_var("x")
    cp.model.add(x == 1)
    out = get_backend("cpsat").start(cp, SolveOptions()).solve(10.0)
    assert {c.name for c in get_backend("cpsat").effort} <= set(out.stats)


def test_scip_repeats_are_seeds_in_the_plan():
    path = str(SHIKAKU_SEEDS[0])
    plan = plan_tasks([path], Selection((), ("mip-cover",), ("scip", "glpk")), time_limit=20,
                      memory_limit_mb=2000)
    apply_tiers(plan, {path: "small"}, {"small": 3})
    by = {(t.solver, t.seed, t.rep) for t in plan.tasks}
    assert by == {("scip", 0, 0), ("scip", 1, 0), ("scip", 2, 0),
                  ("glpk", 0, 0), ("glpk", 0, 1), ("glpk", 0, 2)}


SUITE = """[t]
version = 1
description = "SCIP repeated"
time_limit = 30
solvers = ["scip"]

[t.tiers.small]
repeats = 3
instances = ["shikaku/a.txt"]
"""


def test_scip_repeats_run_with_different_seeds_recorded(tmp_path):
    root = tmp_path / "proj"
    (root / "instances" / "shikaku").mkdir(parents=True)
    (root / "instances" / "shikaku" / "a.txt").write_text(SHIKAKU_SEEDS[0].read_text())
    (root / "instances" / "suites.toml").write_text(SUITE)
    out = tmp_path / "out"
    p = cli("run", "--suite", "t", "--out", str(out), "--formulation", "mip-cover",
            env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(out / "results.parquet")
    assert list(df["solver"].unique()) == ["scip"]
    assert sorted(df["seed"]) == [0, 1, 2] and set(df["rep"]) == {0}
    assert set(df["status"]) == {"solved"} and df["checked"].all()
    assert Path(df["instance_path"].iloc[0]).name == "a.txt"

