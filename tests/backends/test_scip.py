"""SCIP through Pyomo's scip_persistent interface: every MIP formulation (its default variant)
solves, checks and counts the smallest seed of its puzzle on SCIP, lazy loops included (cuts
added to the live SCIP model); an unsatisfiable instance is infeasible; a model with nothing
to decide is solved; the seed and the memory limit reach SCIP, and SCIP's own memory-limit
stop is a MemoryError (the task's ``memout``), not Pyomo's "unknown"."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench.backends import SolveOptions, get_backend
from bench.backends.scip import ScipSession, memory_limit_mb
from bench.instance import read_instance
from bench.records import Task
from bench.registry import Formulation, formulations, get_formulation
from bench.run.execute import execute
from tests.conftest import INSTANCES, ROOT
from tests.test_conformance import INFEASIBLE, seeds

MIP = [pytest.param(cls.puzzle, cls.name, id=f"{cls.puzzle}/{cls.name}")
       for cls in formulations() if cls.kind == "mip"]


@pytest.mark.parametrize(("puzzle", "name"), MIP)
def test_every_mip_formulation_solves_and_counts_the_smallest_seed_on_scip(puzzle, name):
    form = get_formulation(puzzle, name)
    counts = form.is_exact() and type(form).block is not Formulation.block
    res = execute(Task(str(seeds(puzzle)[0]), form.label, "scip", 60.0, count=2 if counts else 0))
    assert res.status == "solved", res.message
    assert res.checked
    if counts:
        assert res.count == 1
    assert res.nodes is not None and res.simplex_iterations is not None
    assert 0 < res.solver_s <= res.solve_s + 1e-6
    if form.is_lazy():
        assert res.iterations >= 2  # the count's re-solve at least, on the live model


@pytest.mark.parametrize(("puzzle", "name"), MIP)
def test_an_unsatisfiable_instance_is_infeasible_on_scip(puzzle, name):
    form = get_formulation(puzzle, name)
    paths = sorted(INFEASIBLE.glob(f"{puzzle}*.txt"))
    if not form.is_exact() or not paths:
        pytest.skip("inexact variant or no unsatisfiable instance")
    res = execute(Task(str(paths[0]), form.label, "scip", 60.0))
    assert res.status == "infeasible", res.message


def test_a_model_with_nothing_to_decide_is_solved(tmp_path):
    inst = tmp_path / "all-black.txt"
    inst.write_text("puzzle: shakashaka\n\n# # #\n# # #\n")
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(inst), "--json",
                        "--formulation", "mip-local", "--solver", "scip"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    out = json.loads(p.stdout)
    assert out["status"] == "solved", out
    assert out["grid"] == [["#"] * 3] * 2


def _session(seed: int = 0) -> tuple[ScipSession, object]:
    inst = read_instance(INSTANCES / "shakashaka" / "seed-p01.txt")
    form = get_formulation("shakashaka", "mip-local")
    session = get_backend("scip").start(form.build(inst), SolveOptions(seed=seed))
    assert isinstance(session, ScipSession)
    return session, form


def test_the_seed_reaches_scip():
    session, _ = _session(seed=7)
    assert session.solve(60.0).status == "optimal"
    assert session.opt._solver_model.getParam("randomization/randomseedshift") == 7


def test_scips_memory_limit_stop_is_a_memory_error():
    session, _ = _session()
    session.options_scip["limits/memory"] = 1.0  # MB: far below what the model needs
    with pytest.raises(MemoryError, match="limits/memory"):
        session.solve(60.0)


def test_the_memory_limit_follows_the_data_limit_the_worker_sets():
    code = ("import resource\n"
            "from bench.backends.scip import memory_limit_mb\n"
            "resource.setrlimit(resource.RLIMIT_DATA, (2000 * 2**20, resource.RLIM_INFINITY))\n"
            "print(memory_limit_mb())\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       timeout=60)
    assert float(p.stdout) == pytest.approx(1600.0)
    assert memory_limit_mb() is None or memory_limit_mb() > 0
