"""The lazy loop: solve, separate, add cuts, re-solve (warm where the backend is incremental)."""

from __future__ import annotations

import pytest

from bench.instance import Instance
from bench.models import Model, SatModel, Value
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku.rules import candidate_rectangles, cells_to_rects, grid_from_rects
from bench.records import Task
from bench.registry import Formulation, formulation
from bench.run.execute import execute
from tests.conftest import SHIKAKU_SEEDS


class LazyCover(Formulation):
    """Shikaku cover that starts with at-most-one per cell and adds at-least-one lazily."""

    puzzle = "shikaku"
    name = "test-lazy-cover"
    kind = "sat"
    description = "test only: coverage clauses added on demand"
    lazy = True

    def build(self, inst: Instance) -> Model:
        m = SatModel()
        rects = candidate_rectangles(inst)
        x = [m.var(i) for i in range(len(rects))]
        cover = cells_to_rects(inst, rects)
        for lits in cover.values():
            m.extend([-x[a], -x[b]] for i, a in enumerate(lits) for b in lits[i + 1:])
        m.handles.update(rects=rects, x=x, cover=cover)
        return m

    def separate(self, inst: Instance, model: Model, value: Value) -> int:
        assert isinstance(model, SatModel)
        x, cover = model.handles["x"], model.handles["cover"]
        missing = [lits for lits in cover.values() if not any(value(x[i]) for i in lits)]
        for lits in missing[:3]:  # a few cuts per round, so the loop really iterates
            model.add([x[i] for i in lits])
        return min(len(missing), 3)

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        rects, x = model.handles["rects"], model.handles["x"]
        return grid_from_rects(inst, (r for r, v in zip(rects, x, strict=True) if value(v)))


@pytest.fixture(autouse=True)
def registered():
    """Registered for this module's tests only (other tests enumerate the real table)."""
    from bench import registry

    formulation(LazyCover)
    yield
    del registry._FORMULATIONS[(LazyCover.puzzle, LazyCover.name)]


@pytest.mark.parametrize("solver", ["minisat22", "cadical195", "kissat404"])
def test_lazy_loop_converges_to_a_checked_solution(solver):
    res = execute(Task(str(SHIKAKU_SEEDS[0]), "test-lazy-cover", solver, time_limit=60))
    assert res.status == "solved" and res.checked is True
    assert res.iterations is not None and res.iterations > 3
    # the cuts are in the reported model size
    assert res.constraints is not None and res.constraints > 0


def test_incremental_session_feeds_only_new_clauses():
    from bench.backends import SolveOptions, get_backend

    inst_res = execute(Task(str(SHIKAKU_SEEDS[0]), "test-lazy-cover", "minisat22"))
    assert inst_res.status == "solved"
    m = SatModel()
    a, b = m.var("a"), m.var("b")
    m.add([a, b])
    session = get_backend("minisat22").start(m, SolveOptions())
    first = session.solve(10)
    assert first.status == "sat"
    solver = session.solver  # type: ignore[attr-defined]
    m.add([-a])
    m.add([-b])
    assert session.solve(10).status == "infeasible"
    assert session.solver is solver  # kept warm, not rebuilt
    session.close()


def test_solve_loop_reports_each_lazy_round_and_a_count():
    """bench.solve.solve directly: the round hook sees every re-solve; counting a lazy model
    that cannot block is an error, not a wrong count."""
    import time

    from bench.backends import get_backend
    from bench.instance import read_instance
    from bench.solve import solve

    inst = read_instance(SHIKAKU_SEEDS[0])
    rounds: list[tuple[int, str]] = []
    solved = solve(inst, LazyCover(), get_backend("minisat22"), time.perf_counter() + 60,
                   count=2, on_round=lambda stats, msg: rounds.append((stats.iterations, msg)))
    assert solved.status == "solved" and solved.problems == []
    assert solved.stats.iterations == len(rounds) + 1 > 3
    assert [msg for _, msg in rounds] == [
        f"killed in lazy iteration {i + 1}" for i, _ in rounds]
    assert (solved.count_status, solved.count) == ("error", None)
    assert solved.count_message.startswith("test-lazy-cover cannot count solutions: implement "
                                           "block(inst, model, grid) on LazyCover")


def test_a_long_lazy_loop_writes_its_progress_by_time_not_by_round():
    """A task's partial result (what a killed task leaves) is written at most every
    PROGRESS_S, not after every lazy round: a write per round cost 1-2 ms outside build and
    solve, seconds within the limit for loops of thousands of rounds (Yin-Yang without its
    implied rules)."""
    import time

    from bench.run.execute import PROGRESS_S
    from tests.conftest import ROOT

    hard = ROOT / "instances" / "yinyang" / "gen" / "gen-yinyang-14x14-s1-0.txt"
    writes: list[float] = []
    t0 = time.perf_counter()
    res = execute(Task(str(hard), "sat-lazy[implied=none]", "cadical195", time_limit=2.0),
                  progress=lambda r: writes.append(time.perf_counter()))
    took = time.perf_counter() - t0
    assert res.iterations is not None and res.iterations > 50  # a long loop
    assert len(writes) <= took / PROGRESS_S + 4, (len(writes), res.iterations)
    # nearly all of the limit went to build and solve, whatever the number of rounds
    assert (res.build_s or 0.0) + (res.solve_s or 0.0) > 0.8 * took
