"""The seed's Fillomino ILP (``mip-seed``): solves a real puzzle, and shows both ways it is not
exact: its Nmax rule, and k-blocks split into pieces whose sizes add up to k."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.instance import read_instance
from bench.records import Result, Task
from bench.registry import get_formulation
from bench.run.pool import run_task
from formulations.fillomino.mip_seed import model_size

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"
REAL = ROOT / "instances" / "fillomino" / "fillomino-6x6-10a3b876.txt"


def solve(path: Path, formulation: str = "mip-seed", solver: str = "highs",
          count: int = 0) -> Result:
    # a task process of its own, as the harness runs each task
    return run_task(Task(instance=str(path), formulation=formulation, solver=solver,
                        time_limit=120, count=count))


def test_solves_a_real_puzzle_uniquely():
    res = solve(REAL, solver="highs", count=2)
    assert res.status == "solved", res.message
    assert res.checked and res.count == 1 and res.exact is False


def test_nmax_rule_cuts_off_a_block_larger_than_the_largest_given_plus_one():
    res = solve(DATA / "fillomino-1x5-nmax.txt", solver="glpk")
    assert res.status == "infeasible"
    assert res.known is False and "known solution" in res.message


@pytest.mark.parametrize("pairs", ["near", "all"])
def test_a_block_split_in_two_pieces_passes_the_seed_and_fails_the_checker(pairs: str):
    res = solve(DATA / "fillomino-3x3-split.txt", f"mip-seed[pairs={pairs}]", solver="glpk")
    assert res.status == "wrong"
    assert res.grid == [[6, 6, 6], [1, 2, 2], [6, 6, 6]]
    assert "region of 6s" in res.message


@pytest.mark.parametrize("pairs", ["near", "all"])
def test_model_size_is_predicted_exactly_without_building(pairs: str):
    form = get_formulation("fillomino", f"mip-seed[pairs={pairs}]")
    for path in (REAL, DATA / "fillomino-3x3-split.txt", DATA / "fillomino-1x5-nmax.txt"):
        inst = read_instance(path)
        assert model_size(inst, pairs) == form.build(inst).size()
