"""HiGHS' effort counters are counts: a model with no integer column left is an LP, for which
HiGHS reports ``mip_node_count`` -1 (its MIP solver did not run); the result records 0 nodes,
which a lazy loop's sum over its calls can add."""

from __future__ import annotations

import pytest

from bench.backends import SolveOptions, get_backend
from bench.backends.kinds import MipModel


def _lp() -> MipModel:
    import pyomo.environ as pyo

    mm = MipModel.new(objective=False)
    m = mm.model
    m.x, m.y = pyo.Var(bounds=(0, 2)), pyo.Var(bounds=(0, 5))
    m.cover = pyo.Constraint(expr=m.x + m.y >= 1.5)
    m.obj = pyo.Objective(expr=m.x + 2 * m.y)
    return mm


def test_an_lp_on_highs_counts_no_nodes():
    backend = get_backend("highs")
    if backend.available():
        pytest.skip(backend.available())
    session = backend.start(_lp(), SolveOptions())
    outcomes = [session.solve(30.0) for _ in range(2)]  # as a lazy loop's calls
    for outcome in outcomes:
        assert outcome.status == "optimal"
        assert outcome.stats["nodes"] == 0
        assert outcome.stats["simplex_iterations"] >= 0
