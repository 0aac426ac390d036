"""Every Nurikabe SAT formulation solves the seed instances (checked) and proves a tiny
unsolvable instance infeasible, each task in its own process through the runner; every
parameter variant solves one seed and agrees with brute force on tiny random grids (in
process: python-sat only)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.instance import Instance, read_instance
from bench.puzzles import get_puzzle
from bench.records import Task
from bench.registry import formulations
from bench.run.execute import execute
from bench.run.pool import run_task
from bench.variants import variants

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "instances" / "nurikabe").glob("seed-p0*.txt"))
#: every class name and old name kept as an alias (sat-tree: sat-lazy[islands=eager,wall=tree])
NAMES = [n for cls in formulations("nurikabe") if cls.kind == "sat"
         for n in (cls.name, *cls.aliases)]

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


@pytest.mark.parametrize("label", [v.label for cls in formulations("nurikabe")
                                   if cls.kind == "sat" for v in variants(cls)])
def test_every_variant_solves_one_seed(label: str) -> None:
    res = execute(Task(str(SEEDS[-1]), label, "cadical195", time_limit=30))
    assert res.status == "solved" and res.checked, res.message


def brute_force_feasible(inst: Instance) -> bool:
    rules = get_puzzle("nurikabe")
    n = inst.rows * inst.cols
    for bits in range(1 << n):
        grid = [["#" if bits >> (r * inst.cols + c) & 1 else "." for c in range(inst.cols)]
                for r in range(inst.rows)]
        if not rules.verify(inst, grid):
            return True
    return False


@pytest.mark.parametrize("label", [v.label for cls in formulations("nurikabe")
                                   if cls.kind == "sat" for v in variants(cls)])
def test_exact_on_tiny_random_instances(label: str, tmp_path: Path) -> None:
    """Solved / infeasible agrees with brute force on small random grids (both outcomes)."""
    rnd = random.Random(7)
    outcomes = set()
    for i in range(25):
        rows, cols = rnd.choice([(2, 2), (2, 3), (3, 3), (3, 2), (2, 4)])
        cells = rnd.sample([(r, c) for r in range(rows) for c in range(cols)], rnd.randint(1, 3))
        grid = [["."] * cols for _ in range(rows)]
        for r, c in cells:
            grid[r][c] = str(rnd.randint(1, rows * cols // len(cells)))
        path = tmp_path / f"tiny-{i}.txt"
        path.write_text("puzzle: nurikabe\n\n" + "\n".join(" ".join(row) for row in grid) + "\n")
        feasible = brute_force_feasible(read_instance(path))
        res = execute(Task(str(path), label, "cadical195", time_limit=30))
        assert res.status == ("solved" if feasible else "infeasible"), (path.read_text(), res)
        assert res.checked is (True if feasible else None)
        outcomes.add(feasible)
    assert outcomes == {True, False}
