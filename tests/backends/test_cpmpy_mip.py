"""CPMpy's MIP solvers, HiGHS and SCIP (``cpmpy:highs``, ``cpmpy:scip``), on the real solvers:
every puzzle's CPMpy model solves to an answer the rules accept; a seed fixes the search
(the same seed, the same effort) and another seed changes it; SCIP's counters are read before
CPMpy frees its transformed problem; HiGHS's run time, which adds up over a live solver's
runs, is each call's own; a live SCIP solver given no time limit after a short one is not
stopped at the old one; the live solver is kept over a lazy formulation's rounds; running
out of memory is a memout. (Their time limit on a model that cannot finish is
``test_cpmpy.py``'s, for every CPMpy solver.)"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from bench.backends import SolveOptions, get_backend
from bench.backends.cpmpy import CpmpySession
from bench.instance import read_instance
from bench.records import Task
from bench.registry import get_formulation
from bench.run.execute import execute
from tests.conftest import INSTANCES, ROOT

pytestmark = pytest.mark.skipif(importlib.util.find_spec("cpmpy") is None,
                                reason="cpmpy is not installed (the cpmpy extra)")

NAMES = ("cpmpy:highs", "cpmpy:scip")
NURIKABE = INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt"
#: a small instance of each puzzle with its CPMpy formulation
EACH_PUZZLE = [
    (INSTANCES / "shikaku" / "gen-shikaku-10x10-s1-0.txt", "cpmpy-cover"),
    (NURIKABE, "cpmpy-islands[wall=tree]"),
    (INSTANCES / "yinyang" / "gen" / "gen-yinyang-6x6-s1-0.txt", "cpmpy-trees[implied=all]"),
    (INSTANCES / "shakashaka" / "gen" / "gen-shakashaka-10x10-s1-0.txt", "cpmpy-local"),
    (INSTANCES / "fillomino" / "gen-fillomino-4x4-s1-0.txt", "cpmpy-tree"),
]


def usable(name: str) -> Any:
    reason = get_backend(name).available()
    return pytest.param(name, id=name, marks=[pytest.mark.skip(reason=reason)] if reason else [])


def session_on(name: str, path: Any, formulation: str, seed: int = 0) -> CpmpySession:
    backend = get_backend(name)
    inst = read_instance(path)
    model = get_formulation(inst.puzzle, formulation, backend.kinds).build(inst)
    session = backend.start(model, SolveOptions(seed=seed))
    assert isinstance(session, CpmpySession)
    return session


@pytest.mark.parametrize("name", [usable(n) for n in NAMES])
@pytest.mark.parametrize(("path", "formulation"), EACH_PUZZLE,
                         ids=[p.name.split("-")[1] for p, _ in EACH_PUZZLE])
def test_each_puzzles_cpmpy_model_solves_and_the_rules_accept_it(name, path, formulation):
    res = execute(Task(str(path), formulation, name, 60.0))
    assert res.status == "solved", res.message
    assert res.checked and res.known
    assert res.nodes is not None and res.simplex_iterations is not None


@pytest.mark.parametrize("name", [usable(n) for n in NAMES])
def test_a_seed_fixes_the_search_and_another_changes_it(name):
    def effort(seed: int) -> tuple[float | None, float | None]:
        res = execute(Task(str(NURIKABE), "cpmpy-islands[wall=tree]", name, 60.0, seed=seed))
        assert res.status == "solved" and res.known, res.message
        return res.nodes, res.simplex_iterations

    first = effort(0)
    assert effort(0) == first
    assert any(effort(seed) != first for seed in (1, 2, 3))


def test_scips_counters_are_read_before_cpmpy_frees_its_transformed_problem():
    """CPMpy frees SCIP's transformed problem as its solve ends; read then, SCIP counts no
    node and no LP iteration."""
    if get_backend("cpmpy:scip").available():
        pytest.skip(str(get_backend("cpmpy:scip").available()))
    out = session_on("cpmpy:scip", NURIKABE, "cpmpy-islands[wall=tree]").solve(60.0)
    assert out.status == "feasible"
    assert out.stats["nodes"] > 0 and out.stats["simplex_iterations"] > 0


def test_highs_run_time_is_each_calls_own():
    """HiGHS's run time adds up over a live solver's runs: a call reports its own share."""
    if get_backend("cpmpy:highs").available():
        pytest.skip(str(get_backend("cpmpy:highs").available()))
    session = session_on("cpmpy:highs", NURIKABE, "cpmpy-islands[wall=tree]")
    first = session.solve(60.0)
    second = session.solve(60.0)  # nothing new: HiGHS finds its solution again at once
    assert first.status == second.status == "feasible"
    assert second.solver_s <= second.wall_s < first.solver_s


def test_scip_given_no_time_limit_after_a_short_one_is_not_stopped_at_it():
    """CPMpy sets SCIP's ``limits/time`` only when given a time limit: a live solver given
    none kept the last call's and stopped there."""
    if get_backend("cpmpy:scip").available():
        pytest.skip(str(get_backend("cpmpy:scip").available()))
    session = session_on("cpmpy:scip", NURIKABE, "cpmpy-islands[wall=tree]")
    session.translate()
    assert session.solve(0.02).status == "timeout"
    assert session.solve(1e7).status == "feasible"  # past 1e6 s no limit is handed over


@pytest.mark.parametrize("name", [usable(n) for n in NAMES])
def test_the_live_solver_is_kept_over_a_lazy_formulations_rounds(name):
    inst = read_instance(NURIKABE)
    backend = get_backend(name)
    form = get_formulation(inst.puzzle, "cpmpy-islands[wall=lazy]", backend.kinds)
    model = form.build(inst)
    session = backend.start(model, SolveOptions())
    assert isinstance(session, CpmpySession)
    out = session.solve(60.0)
    first, rounds = session.solver, 1
    while out.value is not None and form.separate(inst, model, out.value) > 0:
        out = session.solve(60.0)
        rounds += 1
        assert session.solver is first
    assert rounds >= 2 and out.status == "feasible"


@pytest.mark.slow  # the solvers must reach their search on a large model
@pytest.mark.parametrize(("name", "memory"), [("cpmpy:highs", 300), ("cpmpy:scip", 600)])
def test_running_out_of_memory_is_a_memout(name, memory):
    """Under the harness's RLIMIT_DATA HiGHS stops with the model status kMemoryLimit, which
    CPMpy reports as ERROR (was an error, "solver stopped with status unknown"); SCIP stops
    at its ``limits/memory``, the status "memlimit", which CPMpy reports as UNKNOWN (was a
    timeout). With 600 MB SCIP reaches its search and stops there."""
    if get_backend(name).available():
        pytest.skip(str(get_backend(name).available()))
    inst = INSTANCES / "nurikabe" / "sparse" / "gen-nurikabe-50x50-s1-0.txt"
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(inst), "--formulation",
                        "cpmpy-islands[wall=tree]", "--solver", name, "--memory-limit", str(memory),
                        "--time-limit", "120", "--json"], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=400)
    out = json.loads(p.stdout[p.stdout.index("{"):])
    assert out["status"] == "memout", out.get("message")
    assert "memory limit" in out["message"]


def test_scips_version_is_scips_own_beside_pyscipopts():
    backend = get_backend("cpmpy:scip")
    if backend.available() is not None:
        pytest.skip(str(backend.available()))
    import importlib.metadata

    import pyscipopt

    scip = pyscipopt.Model().version()
    wrapper = importlib.metadata.version("pyscipopt")
    assert str(scip) != wrapper  # else the test could not tell them apart
    assert backend.version().startswith(f"scip {scip} (pyscipopt {wrapper}, cpmpy ")
