"""The harness itself (`nox -s microbench`): task start-up per model kind (forked from a
template and spawned), the journal append, Parquet consolidation of 100k results, the report of
a 10k-task run, a lazy loop's separation rounds, and `puzzlebench solve` beside a bare import of
the solver library it uses (one group per puzzle: the command's start-up is the difference).
Marked slow, like the model-construction benchmarks."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from bench.backends.kinds import SatAssignment
from bench.instance import read_instance
from bench.records import Result, Task
from bench.registry import get_formulation
from bench.run.pool import Templates, run_task
from bench.run.storage import Journal, consolidate
from tests.conftest import INSTANCES, ROOT, SHIKAKU_SEEDS

SEED = str(SHIKAKU_SEEDS[0])
PAIRS = [("sat-cover", "minisat22"), ("cpsat-cover", "cpsat"), ("mip-cover", "highs")]


@pytest.fixture(scope="module")
def templates():
    with Templates() as t:
        yield t


@pytest.mark.slow
@pytest.mark.parametrize(("form", "solver"), PAIRS, ids=[s for _, s in PAIRS])
def test_task_start_forked(benchmark, templates, form, solver):
    """One whole task forked from its kind's template (the template's start is not timed)."""
    run_task(Task(SEED, form, solver, time_limit=30), templates=templates)  # start template
    res = benchmark.pedantic(run_task, args=(Task(SEED, form, solver, time_limit=30),),
                             kwargs={"templates": templates}, rounds=10, iterations=1)
    assert res.status == "solved" and res.start == "fork"
    benchmark.extra_info["overhead_s"] = res.overhead_s


@pytest.mark.slow
@pytest.mark.parametrize(("form", "solver"), PAIRS, ids=[s for _, s in PAIRS])
def test_task_start_spawned(benchmark, form, solver):
    res = benchmark.pedantic(run_task, args=(Task(SEED, form, solver, time_limit=30),),
                             rounds=3, iterations=1)
    assert res.status == "solved" and res.start == "spawn"


#: a lazy loop of 122 wall-cut rounds (sparse 50x50 seed 2, the default Nurikabe formulation)
LAZY = (INSTANCES / "nurikabe" / "sparse" / "gen-nurikabe-50x50-s2-0.txt",
        "sat-hybrid[wall=auto,islands=layers,enclose=3,card=auto]")


@pytest.mark.slow
def test_lazy_separation_rounds(benchmark):
    """Every separation of one lazy solve (components, boundaries, cut clauses), replayed on
    the solver's recorded assignments; the solve and the model builds are not timed."""
    from pysat.solvers import Solver

    inst, form = read_instance(LAZY[0]), get_formulation("nurikabe", LAZY[1])
    model, fed, rounds = form.build(inst), 0, []
    with Solver(name="cadical195") as solver:
        while True:
            solver.append_formula(model.clauses[fed:])
            fed = len(model.clauses)
            assert solver.solve()
            rounds.append(SatAssignment.of_model(solver.get_model()))
            if form.separate(inst, model, rounds[-1]) == 0:
                break

    def replay(fresh):
        return [form.separate(inst, fresh, value) for value in rounds]

    added = benchmark.pedantic(replay, setup=lambda: ((form.build(inst),), {}), rounds=5)
    assert len(added) > 50 and added[-1] == 0 and all(added[:-1])
    benchmark.extra_info["rounds"] = len(rounds)


def fake_results(n: int, seed: int = 1) -> list[Result]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        solver = rnd.choice(["cadical195", "minisat22", "cpsat", "highs"])
        form = rnd.choice(["sat-cover", "cpsat-cover", "mip-cover"])
        build, solve = rnd.random() / 10, rnd.random()
        status = rnd.choice(["solved"] * 8 + ["timeout", "error"])
        out.append(Result(
            key=f"instances/shikaku/i{i % 500}.txt|{form}|{solver}|seed=0|rep={i // 500}",
            puzzle="shikaku", instance=f"i{i % 500}", instance_path=f"i{i % 500}.txt",
            rows=10 + i % 20, cols=10 + i % 17, formulation=form, kind=form.split("-")[0],
            solver=solver, solver_version="1", status=status,  # type: ignore[arg-type]
            build_s=build, solve_s=solve, solver_s=solve * 0.9,
            wall_s=build + solve + 0.01, overhead_s=0.01, cpu_s=build + solve,
            peak_rss_mb=50 + rnd.random() * 100, base_rss_mb=40.0, start="fork",
            variables=1000, constraints=5000, iterations=1, exact=True, checked=True,
            rep=i // 500, grid=[[1, 2], [3, 4]] if status == "solved" else None))
    return out


@pytest.mark.slow
def test_journal_append(benchmark, tmp_path):
    journal = Journal(tmp_path / "run")
    res = fake_results(1)[0]
    benchmark(journal.append, res)
    assert journal.keys() == {res.key}


@pytest.mark.slow
def test_parquet_consolidation_of_100k_results(benchmark, tmp_path):
    import json

    folder = tmp_path / "run"
    folder.mkdir()
    with open(folder / "journal.jsonl", "w") as f:
        for r in fake_results(100_000):
            f.write(json.dumps(r.to_dict()) + "\n")
    path = benchmark.pedantic(consolidate, args=(folder,), rounds=1, iterations=1)
    import pandas as pd

    assert len(pd.read_parquet(path)) == 100_000


@pytest.mark.slow
def test_report_of_a_10k_task_run(benchmark, tmp_path):
    import json

    from bench.report import write_report

    folder = tmp_path / "run"
    folder.mkdir()
    with open(Journal(folder).path, "w") as f:
        for r in fake_results(10_000):
            f.write(json.dumps(r.to_dict()) + "\n")
    consolidate(folder)
    out = benchmark.pedantic(write_report, args=(folder, tmp_path / "report"), rounds=1,
                             iterations=1)
    assert (out / "summary.md").exists()


#: one instance per puzzle and the solver library its declared default uses
SOLVE = [("fillomino", "fillomino/fillomino-6x6-10a3b876.txt", "pysat.solvers"),
         ("nurikabe", "nurikabe/seed-p01.txt", "pysat.solvers"),
         ("shakashaka", "shakashaka/seed-p01.txt", "pysat.solvers"),
         ("shikaku", "shikaku/gen-shikaku-10x10-s1-0.txt", "ortools.sat.python.cp_model"),
         ("yinyang", "yinyang/seed-01.txt", "pysat.solvers")]


def _run(*argv: str) -> None:
    subprocess.run([sys.executable, *argv], check=True, stdout=subprocess.DEVNULL, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.slow
@pytest.mark.parametrize(("puzzle", "path", "module"), SOLVE, ids=[p for p, _, _ in SOLVE])
def test_solve_command(benchmark, puzzle, path, module):
    """The whole `puzzlebench solve FILE` (default pair): interpreter, imports, task, grid."""
    benchmark.group = f"solve {puzzle}"
    benchmark.pedantic(_run, args=("-m", "bench.cli", "solve", str(INSTANCES / path)),
                       rounds=5, iterations=1)


@pytest.mark.slow
@pytest.mark.parametrize(("puzzle", "path", "module"), SOLVE, ids=[p for p, _, _ in SOLVE])
def test_solver_import(benchmark, puzzle, path, module):
    """The floor `solve` is compared with: an interpreter importing the solver library."""
    benchmark.group = f"solve {puzzle}"
    benchmark.pedantic(_run, args=("-c", f"import {module}"), rounds=5, iterations=1)
