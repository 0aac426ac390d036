"""Nurikabe MIP formulations end to end: each task in its own worker process, checked.

Every (formulation, solver) pair runs on every seed: all of them solve each seed in well under
a second (measured: at most ~0.6 s of solve time, GLPK on p05), so no pair is restricted to p01.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bench.records import Task
from bench.run.pool import run_task

ROOT = Path(__file__).resolve().parent.parent.parent
SEEDS = sorted((ROOT / "instances" / "nurikabe").glob("seed-p*.txt"))
FORMULATIONS = ["mip-flow", "mip-lazy", "mip-lazy[cut=anchor]"]
SOLVERS = ["glpk", "cbc", "highs"]

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pyomo") is None,
                                reason="pyomo is not installed")


def _skip_unavailable(solver: str) -> None:
    from bench.backends import get_backend

    reason = get_backend(solver).available()
    if reason:
        pytest.skip(reason)


def test_seeds_present() -> None:
    assert len(SEEDS) == 5


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_solves_seed(formulation: str, solver: str, path: Path) -> None:
    _skip_unavailable(solver)
    res = run_task(Task(str(path), formulation, solver, time_limit=30.0))
    assert res.status == "solved", res.message
    assert res.checked is True
    assert res.kind == "mip"
    assert res.iterations is not None and res.iterations >= 1
    if formulation == "mip-flow":
        assert res.iterations == 1
    grid = res.grid
    assert len(grid) == res.rows and all(len(row) == res.cols for row in grid)
    assert {ch for row in grid for ch in row} <= {"#", "."}


UNSAT = {
    # The two black cells touch only diagonally (the base model already rules this out: a
    # black cell of a wall of two or more needs a black neighbour).
    "diagonal": "puzzle: nurikabe\n\n1 .\n. 1\n",
    # The islands, the 2x2 rule and "a black cell has a black neighbour" are satisfiable, the
    # wall's connectivity is not: mip-lazy must find a disconnected wall, cut it, and end
    # infeasible (checked against brute force over all 2^8 shadings).
    "split-wall": "puzzle: nurikabe\n\n. . 3 . .\n. 1 . . .\n",
}


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
@pytest.mark.parametrize("case", sorted(UNSAT))
def test_infeasible(case: str, formulation: str, solver: str, tmp_path: Path) -> None:
    _skip_unavailable(solver)
    p = tmp_path / "unsat.txt"
    p.write_text(UNSAT[case])
    res = run_task(Task(str(p), formulation, solver, time_limit=30.0))
    assert res.status == "infeasible", res.message
    assert res.grid is None
    if formulation.startswith("mip-lazy") and case == "split-wall":
        assert res.iterations is not None and res.iterations >= 2
