"""The cpmpy backend family on the real CPMpy solvers installed here: every CPMpy solver is
listed with its version and availability (the ones missing a package or an executable with the
reason); listing imports no cpmpy; a solve on each available solver gives the known solution
(.sol), with the solver's declared effort counters; a seeded solver takes another seed; a
solver stopped by the time limit says timeout; a lazy formulation runs its rounds on the live
solver (Choco rebuilt); Pumpkin's refusal at an infeasible root is an infeasible answer; running
out of memory under the harness's limit is a memout."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from typing import Any

import pytest

from bench.backends import SolveOptions, all_backends, get_backend
from bench.backends.cpmpy import SOLVERS, CpmpySession, CpmpySolver
from bench.instance import read_instance
from bench.records import Task
from bench.registry import get_formulation
from bench.run.execute import execute
from tests.conftest import INSTANCES, ROOT

pytestmark = pytest.mark.skipif(importlib.util.find_spec("cpmpy") is None,
                                reason="cpmpy is not installed (the cpmpy extra)")

NAMES = [f"cpmpy:{spec.solver}" for spec in SOLVERS]
#: pindakaas translates the tree models (integer depths) slowly: it runs Shikaku's cover only
SHIKAKU = INSTANCES / "shikaku" / "gen-shikaku-10x10-s1-0.txt"
NURIKABE = INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt"
HARD = INSTANCES / "fillomino" / "generated" / "gen-fillomino-20x20-s1-0.txt"
SPARSE = INSTANCES / "nurikabe" / "sparse" / "gen-nurikabe-50x50-s1-0.txt"


def usable(name: str) -> Any:
    reason = get_backend(name).available()
    return pytest.param(name, id=name, marks=[pytest.mark.skip(reason=reason)] if reason else [])


def test_every_cpmpy_solver_is_listed_with_its_version_and_availability():
    listed = {b.name: b for b in all_backends() if "cpmpy" in b.kinds}
    assert list(listed) == NAMES
    for name, b in listed.items():
        assert isinstance(b, CpmpySolver)
        assert "cpmpy" in b.version()
        reason = b.available()
        missing = [m for m in b.spec.needs if importlib.util.find_spec(m) is None]
        if b.spec.solver not in ("minizinc", "gurobi"):
            assert (reason is None) == (not missing), (name, reason)
    if importlib.util.find_spec("pypblib") is None:
        assert "pypblib" in (listed["cpmpy:pysat"].available() or "")
    if shutil.which("minizinc") is None:
        assert "2.8.2" in (listed["cpmpy:minizinc"].available() or "")
    assert "licence" in (listed["cpmpy:gurobi"].available() or "")


def test_listing_shows_each_cpmpy_solver_version_and_imports_no_cpmpy():
    code = ("import json, sys\n"
            "from bench.backends import all_backends\n"
            "from bench.registry import formulations\n"
            "formulations()\n"
            "out = {b.name: (b.version(), b.available()) for b in all_backends()}\n"
            "print(json.dumps({'cpmpy_imported': 'cpmpy' in sys.modules, 'solvers': out}))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    out = json.loads(p.stdout)
    assert not out["cpmpy_imported"]
    for name in NAMES:
        version, _reason = out["solvers"][name]
        assert re.search(r"[(,] ?cpmpy \d", version), version


@pytest.mark.parametrize("name", [usable(n) for n in NAMES])
def test_a_solve_on_each_available_solver_gives_the_known_solution(name):
    backend = get_backend(name)
    res = execute(Task(str(SHIKAKU), "cpmpy-cover", name, 60.0))
    assert res.status == "solved", res.message
    assert res.checked and res.known
    assert res.kind == "cpmpy" and res.solver_version == backend.version()
    assert res.variables and res.constraints
    for counter in backend.effort:  # the counters it declares are kept
        assert getattr(res, counter.name) is not None, counter.name


@pytest.mark.parametrize("name", [usable(n) for n in NAMES
                                  if n != "cpmpy:pindakaas"])
def test_a_tree_model_solves_on_each_solver(name):
    res = execute(Task(str(NURIKABE), "cpmpy-islands[wall=tree]", name, 120.0))
    assert res.status == "solved", res.message
    assert res.known


@pytest.mark.parametrize("name", [usable(n) for n in NAMES
                                  if get_backend(n).seeding.takes])
def test_a_seeded_solver_takes_another_seed(name):
    res = execute(Task(str(SHIKAKU), "cpmpy-cover", name, 60.0, seed=3))
    assert res.status == "solved", res.message
    assert res.known and res.seed == 3


@pytest.mark.parametrize("name", [usable(n) for n in NAMES
                                  if n != "cpmpy:pindakaas"])
def test_a_solver_stopped_by_the_time_limit_says_timeout(name):
    backend = get_backend(name)
    inst = read_instance(HARD)
    model = get_formulation(inst.puzzle, "cpmpy-tree", backend.kinds).build(inst)
    session = backend.start(model, SolveOptions())
    assert isinstance(session, CpmpySession)
    session.translate()  # before the clock: the solver alone is timed
    t0 = time.perf_counter()
    out = session.solve(0.5)
    took = time.perf_counter() - t0
    assert out.status == "timeout" and out.value is None
    # stopped by CPMpy's time_limit (Exact finishes its preprocessing first), long before a
    # solve of this model would end
    assert took < 0.5 + 5.0


@pytest.mark.parametrize("name", [usable(n) for n in NAMES
                                  if n != "cpmpy:pindakaas"])
def test_a_lazy_formulation_runs_its_rounds_on_each_solver(name):
    res = execute(Task(str(NURIKABE), "cpmpy-islands[wall=lazy]", name, 120.0, count=2))
    assert res.status == "solved", res.message
    assert res.known and res.count == 1
    assert res.iterations is not None and res.iterations >= 2


def test_incremental_solvers_keep_the_live_solver_and_choco_is_rebuilt():
    inst = read_instance(NURIKABE)
    for name, kept in (("cpmpy:ortools", True), ("cpmpy:choco", False)):
        backend = get_backend(name)
        if backend.available():
            continue
        model = get_formulation(inst.puzzle, "cpmpy-islands[wall=lazy]",
                                backend.kinds).build(inst)
        session = backend.start(model, SolveOptions())
        assert isinstance(session, CpmpySession)
        assert session.solve(60.0).status in ("feasible", "optimal")
        first = session.solver
        import cpmpy as cp

        model.model += cp.BoolVal(False)
        assert session.solve(60.0).status == "infeasible"
        assert (session.solver is first) == kept


def test_pumpkin_refusing_constraints_at_an_infeasible_root_is_infeasible():
    backend = get_backend("cpmpy:pumpkin")
    if backend.available():
        pytest.skip(str(backend.available()))
    import cpmpy as cp

    from bench.models import CpmpyModel

    m = CpmpyModel.new()
    x = cp.boolvar(shape=3, name="x")
    m.model += cp.sum(x) >= 1
    session = backend.start(m, SolveOptions())
    assert session.solve(10.0).status == "feasible"
    m.model += [~x[0], ~x[1], ~x[2], x[0] | x[1]]  # infeasible at the root, then one more
    assert session.solve(10.0).status == "infeasible"


@pytest.mark.parametrize("name", [usable(n) for n in ("cpmpy:pumpkin", "cpmpy:ortools")])
def test_running_out_of_memory_is_a_memout(name):
    """Under the harness's RLIMIT_DATA: OR-tools' std::bad_alloc is a MemoryError, Pumpkin's
    Rust allocator aborts after saying "memory allocation of N bytes failed"; both memout."""
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(SPARSE), "--formulation",
                        "cpmpy-islands[wall=tree]", "--solver", name, "--memory-limit", "300",
                        "--time-limit", "120", "--json"], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=400)
    out = json.loads(p.stdout[p.stdout.index("{"):])
    assert out["status"] == "memout", out["message"]


def _native_totals(name: str, solver: Any) -> dict[str, float]:
    """The live solver's own counters, as they stand after its calls."""
    if name == "cpmpy:z3":
        st = solver.z3_solver.statistics()
        listed = set(st.keys())  # Z3 lists only the counters that are not zero
        return {k: float(st.get_key_value(k)) if k in listed else 0.0
                for k in ("conflicts", "decisions", "propagations")}
    return {k: float(v) for k, v in solver.xct_solver.getStats()
            if k in ("conflicts", "decisions", "propagations")}


@pytest.mark.parametrize("name", [usable(n) for n in ("cpmpy:z3", "cpmpy:exact")])
def test_effort_over_a_live_solvers_calls_adds_up_to_the_solvers_own_count(name):
    """Z3's and Exact's counters count over every call of a live solver: each call reports
    its own share, so that the lazy loop's sum is the solver's total, not more."""
    backend = get_backend(name)
    inst = read_instance(NURIKABE)
    form = get_formulation(inst.puzzle, "cpmpy-islands[wall=lazy]", backend.kinds)
    model = form.build(inst)
    session = backend.start(model, SolveOptions())
    assert isinstance(session, CpmpySession)
    summed: dict[str, float] = {}
    calls = 0
    while True:
        out = session.solve(60.0)
        calls += 1
        for k, v in out.stats.items():
            summed[k] = summed.get(k, 0.0) + v
        if out.value is None or form.separate(inst, model, out.value) == 0:
            break
    assert calls >= 2
    totals = _native_totals(name, session.solver)
    assert totals["propagations"] > 0
    assert summed == totals


#: a session on a model Choco does not solve in 5 s, translated, then solved with a
#: sub-millisecond limit (prints the status and the seconds the solve took)
_CHOCO_TINY = """
import sys, time
from bench.backends import SolveOptions, get_backend
from bench.instance import read_instance
from bench.registry import get_formulation
backend = get_backend("cpmpy:choco")
inst = read_instance(sys.argv[1])
model = get_formulation(inst.puzzle, "cpmpy-tree", backend.kinds).build(inst)
session = backend.start(model, SolveOptions())
session.translate()
t0 = time.perf_counter()
out = session.solve(float(sys.argv[2]))
print(out.status, time.perf_counter() - t0)
"""


@pytest.mark.parametrize("left", [0.0005, 0.00005])
def test_choco_under_a_millisecond_left_stops_at_once(left):
    """CPMpy hands Choco ``f"{seconds}s"``: 0.0005 s left stopped the task process with a
    fatal Java NumberFormatException, 0.00005 s ("5e-05s") ran 5 s."""
    if get_backend("cpmpy:choco").available():
        pytest.skip(str(get_backend("cpmpy:choco").available()))
    p = subprocess.run([sys.executable, "-c", _CHOCO_TINY, str(HARD), str(left)],
                       capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    status, took = p.stdout.split()[-2:]
    assert status == "timeout"
    assert float(took) < 2.0


def test_z3_given_more_than_2_to_the_32_milliseconds_is_not_stopped_at_once():
    """CPMpy gives Z3 ``int(seconds * 1000)``, an unsigned 32-bit parameter: 4294967.316 s
    wrapped to 20 ms and the solve stopped there as a timeout."""
    backend = get_backend("cpmpy:z3")
    if backend.available():
        pytest.skip(str(backend.available()))
    inst = read_instance(NURIKABE)
    model = get_formulation(inst.puzzle, "cpmpy-islands[wall=tree]", backend.kinds).build(inst)
    session = backend.start(model, SolveOptions())
    session.translate()
    out = session.solve(2**32 / 1000 + 0.02)
    assert out.status == "feasible"


def test_z3_out_of_memory_is_a_memout_not_a_timeout():
    """Under the harness's RLIMIT_DATA Z3 gives up with "unknown" for the reason "out of
    memory" within two seconds: that was reported as a timeout ("no solution within 60 s")."""
    if get_backend("cpmpy:z3").available():
        pytest.skip(str(get_backend("cpmpy:z3").available()))
    inst = INSTANCES / "nurikabe" / "gen-nurikabe-20x20-s1-0.txt"
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(inst), "--formulation",
                        "cpmpy-islands[wall=tree]", "--solver", "cpmpy:z3", "--memory-limit",
                        "150", "--time-limit", "60", "--json"], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=400)
    out = json.loads(p.stdout[p.stdout.index("{"):])
    assert out["status"] == "memout", out.get("message")
