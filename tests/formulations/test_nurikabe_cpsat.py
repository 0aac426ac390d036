"""Nurikabe CP-SAT formulations end to end: each task in its own worker process, checked."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bench.records import Task
from bench.run.pool import run_task

ROOT = Path(__file__).resolve().parent.parent.parent
SEEDS = sorted((ROOT / "instances" / "nurikabe").glob("seed-p*.txt"))
FORMULATIONS = ["cpsat-tree", "cpsat-lazy"]

# checked without importing: the tasks import OR-tools in their own processes, as the
# harness runs each task
pytestmark = pytest.mark.skipif(importlib.util.find_spec("ortools") is None,
                                reason="ortools is not installed")


def test_seeds_present() -> None:
    assert len(SEEDS) == 5


@pytest.mark.parametrize("formulation", FORMULATIONS)
@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_solves_seed(formulation: str, path: Path) -> None:
    res = run_task(Task(str(path), formulation, "cpsat", time_limit=30.0))
    assert res.status == "solved", res.message
    assert res.checked is True
    assert res.kind == "cpsat"
    assert res.iterations is not None and res.iterations >= 1
    if formulation == "cpsat-tree":
        assert res.iterations == 1
    grid = res.grid
    assert len(grid) == res.rows and all(len(row) == res.cols for row in grid)
    assert {ch for row in grid for ch in row} <= {"#", "."}


# The two black cells touch only diagonally: the islands and the 2x2 rule are satisfiable,
# black connectivity is not (the lazy loop must end with a cut that makes it infeasible).
UNSAT = "puzzle: nurikabe\n\n1 .\n. 1\n"


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_infeasible(formulation: str, tmp_path: Path) -> None:
    p = tmp_path / "unsat.txt"
    p.write_text(UNSAT)
    res = run_task(Task(str(p), formulation, "cpsat", time_limit=30.0))
    assert res.status == "infeasible", res.message
    assert res.grid is None
