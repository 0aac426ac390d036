"""Every Nurikabe SAT formulation solves the seed instances (checked) and proves a tiny
unsolvable instance infeasible, each task in its own process through the runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.records import Task
from bench.registry import formulations
from bench.runner import run_task

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "instances" / "nurikabe").glob("seed-p0*.txt"))
NAMES = [cls.name for cls in formulations("nurikabe") if cls.kind == "sat"]

#: the two 1-islands leave two diagonal black cells, which can never be connected
UNSOLVABLE = "puzzle: nurikabe\nsource: test\n\n1 .\n. 1\n"


def test_seed_instances_present() -> None:
    assert len(SEEDS) == 5
    assert {"sat-lazy", "sat-tree"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_solves_seed(name: str, path: Path) -> None:
    res = run_task(Task(str(path), name, "cadical195", time_limit=30))
    assert res.status == "solved", res.message
    assert res.checked is True


@pytest.mark.parametrize("name", NAMES)
def test_unsolvable_is_infeasible(name: str, tmp_path: Path) -> None:
    path = tmp_path / "unsolvable.txt"
    path.write_text(UNSOLVABLE)
    res = run_task(Task(str(path), name, "cadical195", time_limit=30))
    assert res.status == "infeasible", res.message
