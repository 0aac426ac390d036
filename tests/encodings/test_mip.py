"""The MIP encodings on tiny grids, counted by enumeration (solve, read the cells, add a
no-good on them) against brute force, with GLPK through Pyomo: glpsol runs in a child process,
so highspy never loads into the test process, where OR-tools runs (they cannot share one)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

import pytest

from bench.grid import Cell, all_cells, bfs_distances
from bench.models import MipModel
from tests.encodings.brute import connected_subsets, no_pool_subsets

pytestmark = pytest.mark.skipif(shutil.which("glpsol") is None,
                                reason="glpsol is not installed")


def solutions(rows: int, cols: int, post: Callable[[Any, dict[Cell, Any]], Any],
              lazy: dict[str, Any] | None = None) -> set[frozenset[Cell]]:
    import pyomo.environ as pyo

    from bench.encodings import mip

    m = MipModel.new().model
    cells = all_cells(rows, cols)
    m.x = pyo.Var(range(len(cells)), domain=pyo.Binary)
    member = {v: m.x[i] for i, v in enumerate(cells)}
    post(m, member)
    m.nogood = pyo.ConstraintList()
    m.a_row = pyo.Constraint(expr=m.x[0] <= 1)  # HiGHS says "unknown" on a model without rows
    solver = pyo.SolverFactory("glpk")  # a child process: no highspy in the test process
    found: set[frozenset[Cell]] = set()
    while True:
        res = solver.solve(m, load_solutions=False)
        if res.solver.termination_condition != pyo.TerminationCondition.optimal:
            return found
        m.solutions.load_from(res)
        on = frozenset(v for v, x in member.items() if (x.value or 0) > 0.5)
        if lazy is not None and mip.separate_connected(m, member, on.__contains__, **lazy):
            continue
        assert on not in found
        found.add(on)
        m.nogood.add(sum(1 - x if v in on else x for v, x in member.items()) >= 1)


def connected(**kw: Any) -> Callable[[Any, dict[Cell, Any]], Any]:
    from bench.encodings import mip

    return lambda m, x: mip.connected(m, x, **kw)


@pytest.mark.parametrize("kw", [{}, {"exact_size": True, "max_size": 3}])
def test_flow_counts_connected_sets(kw) -> None:
    want = connected_subsets(2, 3)
    if kw:  # with exact_size the set has exactly max_size cells (or none)
        want = {s for s in want if len(s) in (0, 3)}
    assert solutions(2, 3, connected(**kw)) == want


def test_flow_at_a_root_cell() -> None:
    def post(m: Any, x: dict[Cell, Any]) -> None:
        x[0, 1].setlb(1)
        connected(root=(0, 1))(m, x)

    assert solutions(2, 3, post) == connected_subsets(2, 3, containing=(0, 1))


@pytest.mark.parametrize("cut", ["component", "pair"])
def test_lazy_counts_connected_sets(cut) -> None:
    got = solutions(2, 3, connected(method="lazy"), {"cut": cut})
    assert got == connected_subsets(2, 3)


def test_no_2x2_and_cardinality() -> None:
    from bench.encodings import mip

    assert solutions(2, 3, lambda m, x: mip.no_2x2(m, x, 2, 3)) == no_pool_subsets(2, 3)
    assert len(solutions(1, 5, lambda m, x: mip.exactly(m, list(x.values()), 2))) == 10
    assert len(solutions(1, 5, lambda m, x: mip.at_most(m, list(x.values()), 2))) == 16
    assert solutions(1, 2, lambda m, x: mip.exactly(m, [], 1)) == set()  # a false row


def test_region_of_size_three() -> None:
    from bench.encodings import mip

    def post(m: Any, x: dict[Cell, Any]) -> None:
        reg = mip.region(m, (0, 1), 3, bfs_distances([(0, 1)], 2, 3, limit=2))
        mip.assign(m, x, [reg])

    want = {s for s in connected_subsets(2, 3, containing=(0, 1)) if len(s) == 3}
    assert solutions(2, 3, post) == want and len(want) == 7


def test_unsupported_methods_say_so() -> None:
    with pytest.raises(ValueError, match="method"):
        solutions(2, 2, connected(method="tree"))
    with pytest.raises(ValueError, match="root"):
        solutions(2, 2, connected(root="first"))
