"""SCIP on a Pyomo-written LP file, later rows added to the live model: every MIP formulation
(its default variant) solves, checks and counts the smallest seed of its puzzle on SCIP, lazy
loops included, with the status and objective HiGHS finds; a model with every kind of bound,
row and objective constant solves to HiGHS' optimum before and after rows (and a column) are
added and after a row is deactivated; an unsatisfiable instance is infeasible; a model with
nothing to decide is solved; the seed and the memory limit reach SCIP, and SCIP's own
memory-limit stop is a MemoryError (the task's ``memout``); a Ctrl-C SCIP catches is a
KeyboardInterrupt, not a timeout."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from bench.backends import SolveOptions, get_backend
from bench.backends.kinds import MipModel
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


def _objective(model: MipModel) -> float:
    import pyomo.environ as pyo

    obj = next(model.model.component_data_objects(pyo.Objective, active=True))
    return float(pyo.value(obj))


@pytest.mark.parametrize(("puzzle", "name"), MIP)
def test_scip_finds_highs_status_and_objective_on_every_mip_formulation(puzzle, name):
    form = get_formulation(puzzle, name)
    inst = read_instance(seeds(puzzle)[0])
    found = {}
    for solver in ("scip", "highs"):
        model = form.build(inst)
        out = get_backend(solver).start(model, SolveOptions()).solve(60.0)
        found[solver] = (out.status, _objective(model) if out.value is not None else None)
    assert found["scip"][0] == found["highs"][0] == "optimal"
    assert found["scip"][1] == pytest.approx(found["highs"][1], abs=1e-6)


def _exact_model() -> MipModel:
    """A maximisation with an objective constant, negative and fixed bounds, every domain,
    equality, range and one-sided rows: its optimum (x=5, y=1, z=2.5) is 26.5."""
    import pyomo.environ as pyo

    mm = MipModel.new(objective=False)
    m = mm.model
    m.x = pyo.Var(domain=pyo.Integers, bounds=(-3, 5))
    m.y = pyo.Var(domain=pyo.Binary)
    m.z = pyo.Var(bounds=(None, 10))
    m.f = pyo.Var(bounds=(0, 9))
    m.f.fix(2)
    m.obj = pyo.Objective(expr=2 * m.x + 3 * m.y + 4 * m.z + 1.5 + m.f, sense=pyo.maximize)
    m.eq = pyo.Constraint(expr=m.z - 0.5 * m.x == m.f - 2)
    m.range = pyo.Constraint(expr=pyo.inequality(-1, m.x + m.y + m.f, 8))
    m.upper = pyo.Constraint(expr=m.x + 2 * m.z <= 10.0 + m.f)
    return mm


def _both(mm_scip: MipModel, mm_highs: MipModel, s_scip, s_highs) -> tuple:
    a, b = s_scip.solve(60.0), s_highs.solve(60.0)
    return ((a.status, _objective(mm_scip) if a.value else None),
            (b.status, _objective(mm_highs) if b.value else None))


def test_bounds_rows_and_objective_constant_are_kept_and_later_rows_reach_scip():
    import pyomo.environ as pyo

    mms = _exact_model(), _exact_model()
    sessions = [get_backend(s).start(mm, SolveOptions())
                for s, mm in zip(("scip", "highs"), mms, strict=True)]
    scip, highs = _both(*mms, *sessions)
    assert scip == highs
    assert scip == ("optimal", pytest.approx(26.5))
    assert pyo.value(mms[0].model.x) == pytest.approx(5)
    for mm in mms:  # a row and a column after the first solve: x + w <= 3, w integer >= 1
        m = mm.model
        m.w = pyo.Var(domain=pyo.NonNegativeIntegers, bounds=(1, None))
        m.cut = pyo.ConstraintList()
        m.cut.add(m.x + m.w <= 3)
    scip, highs = _both(*mms, *sessions)
    assert scip == highs
    assert scip == ("optimal", pytest.approx(2 * 2 + 3 + 4 * 1 + 1.5 + 2))
    assert len(sessions[0].scip.getVars()) == 5  # the writer's constant column, x y z, and w
    for mm in mms:  # a row left: the whole model again
        mm.model.cut.deactivate()
    scip, highs = _both(*mms, *sessions)
    assert scip == highs == ("optimal", pytest.approx(26.5))
    for mm in mms:  # a row no solution meets
        mm.model.cut2 = pyo.Constraint(expr=mm.model.x + mm.model.y >= 7)
    scip, highs = _both(*mms, *sessions)
    assert scip == highs == ("infeasible", None)


def test_a_later_row_without_columns_is_kept_or_makes_the_model_infeasible():
    import pyomo.environ as pyo

    mm = MipModel.new()
    m = mm.model
    m.x = pyo.Var(domain=pyo.Binary)
    m.f = pyo.Var()
    m.f.fix(2)
    m.c = pyo.Constraint(expr=m.x >= 0)
    session = get_backend("scip").start(mm, SolveOptions())
    assert session.solve(60.0).status == "optimal"
    m.met = pyo.Constraint(expr=m.f >= 1)  # the fixed column is a constant: 2 >= 1
    assert session.solve(60.0).status == "optimal"
    m.unmet = pyo.Constraint(expr=m.f >= 5)
    assert session.solve(60.0).status == "infeasible"


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
    assert session.scip.getParam("randomization/randomseedshift") == 7


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


def test_a_ctrl_c_during_scips_solve_is_a_keyboard_interrupt_not_a_timeout():
    """SCIP catches SIGINT itself and stops as "userinterrupt": the session raises the user's
    KeyboardInterrupt, not a status. A market split SCIP cannot finish in its limit."""
    code = ("import time\n"
            "from bench.backends import SolveOptions, get_backend\n"
            "from tests.backends.test_mip_time_limit import market_split\n"
            "session = get_backend('scip').start(market_split(4, 40), SolveOptions())\n"
            "print('solving', flush=True)\n"
            "try:\n"
            "    print('returned', session.solve(30.0).status, flush=True)\n"
            "except KeyboardInterrupt:\n"
            "    print('KeyboardInterrupt', flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                         cwd=ROOT)
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == "solving"
        time.sleep(1.5)  # into SCIP's search (the model is translated in milliseconds)
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=60)
    finally:
        p.kill()
    assert out.strip().splitlines()[-1] == "KeyboardInterrupt", out
