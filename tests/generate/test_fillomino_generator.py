"""The Fillomino generator: partitions without touching equal regions, reproducible output,
uniqueness re-proved by a second formulation (sat-lazy, in a worker process)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench.generate import get_generator, instance_from_grid
from bench.grid import neighbours
from bench.instance import format_instance, read_instance
from bench.puzzles import get_puzzle
from bench.puzzles.fillomino.generate import random_partition
from bench.puzzles.fillomino.rules import polyominoes
from bench.records import Task
from bench.run.pool import run_task
from tests.conftest import INSTANCES, ROOT


def test_partition_covers_the_grid_with_mixed_sizes_and_no_equal_regions_touching():
    for seed in range(5):
        regions = random_partition(12, 15, random.Random(seed))
        owner = {v: i for i, reg in enumerate(regions) for v in reg}
        assert len(owner) == 12 * 15 == sum(len(r) for r in regions)
        for v, i in owner.items():
            for w in neighbours(v, 12, 15):
                j = owner[w]
                assert i == j or len(regions[i]) != len(regions[j])
        sizes = {len(r) for r in regions}
        assert 1 in sizes and max(sizes) >= 6


def test_generator_uses_an_exact_formulation():
    gen = get_generator("fillomino")
    assert (gen.formulation, gen.solver) == ("sat-regions", "cadical195")


GENERATE = """
import json, sys
from bench.generate import generate_one
from bench.instance import format_instance
g = generate_one("fillomino", 5, 5, seed=3)
print(json.dumps([format_instance(g.instance), g.solution]))
"""


def generated_in_a_subprocess() -> tuple[str, list[list[int]]]:
    """In a fresh interpreter: the same seed must give the same instance from a clean start."""
    out = subprocess.run([sys.executable, "-c", GENERATE], capture_output=True, text=True,
                         check=True, env=os.environ | {"PYTHONPATH": str(ROOT)}).stdout
    text, solution = json.loads(out)
    return text, solution


def test_same_seed_same_instance_unique_by_a_second_formulation(tmp_path: Path):
    text, solution = generated_in_a_subprocess()
    assert generated_in_a_subprocess() == (text, solution)
    path = tmp_path / "gen.txt"
    path.write_text(text, encoding="utf-8")
    inst = read_instance(path)
    assert get_puzzle("fillomino").verify(inst, solution) == []
    res = run_task(Task(str(path), "sat-lazy", "cadical195", time_limit=60, count=2))
    assert res.status == "solved" and res.count == 1, res.message


def test_committed_generated_instances_hold_their_unique_solution():
    """instances/fillomino/generated/ is outside tests/test_instances_dir.py's glob."""
    files = sorted((INSTANCES / "fillomino" / "generated").glob("gen-*.txt"))
    assert files
    without_given = 0
    for path in files:
        inst = read_instance(path)
        solution = json.loads(path.with_suffix(".sol").read_text())
        assert get_puzzle("fillomino").verify(inst, solution) == [], path.name
        given = {(r, c) for r, c, _ in inst.clues()}
        without_given += sum(1 for _, cells in polyominoes(solution) if not given & set(cells))
    assert without_given > 0  # the issue asks for regions whose size no given tells


def test_the_warm_uniqueness_solver_answers_for_any_set_of_givens():
    from bench.puzzles.fillomino.generate import Warm

    solution = [[1, 3, 3, 3, 1], [2, 2, 10, 10, 10], [10, 10, 10, 10, 10], [10, 10, 2, 2, 1]]
    rules = get_puzzle("fillomino")
    warm = Warm(solution)
    try:
        everything = {(r, c) for r in range(4) for c in range(5)}
        assert warm.other(everything) is None
        for given in (set(), {(0, 0), (1, 2)}, {(0, 1), (3, 4), (2, 0)}):
            other = warm.other(given)  # cuts learnt for one set of givens stay for the next
            assert other is not None and other != solution
            text = "\n".join(" ".join(str(other[r][c]) if (r, c) in given else "."
                                      for c in range(5)) for r in range(4))
            inst = instance_from_grid("fillomino", [[other[r][c] if (r, c) in given else None
                                                     for c in range(5)] for r in range(4)])
            assert rules.verify(inst, other) == [], text
            assert all(other[r][c] == solution[r][c] for r, c in given)
        assert warm.other(everything - {(0, 0)}) is None  # the 1 in the corner is forced
        assert warm.other(everything - {(0, 2)}) is None  # joins the two given 3s
    finally:
        warm.close()


def committed(small: bool) -> list[Path]:
    files = sorted((INSTANCES / "fillomino" / "generated").glob("gen-*.txt"))
    return [p for p in files if (read_instance(p).cells <= 100) == small]


@pytest.mark.parametrize("path", committed(small=True), ids=lambda p: p.stem)
def test_committed_small_generated_instances_are_unique(path: Path):
    res = run_task(Task(str(path), "sat-regions", "cadical195", time_limit=60, count=2))
    assert res.status == "solved" and res.count == 1, res.message
    assert res.grid == json.loads(path.with_suffix(".sol").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("path", committed(small=False), ids=lambda p: p.stem)
def test_committed_large_generated_instances_are_unique(path: Path):
    res = run_task(Task(str(path), "sat-regions", "cadical195", time_limit=120, count=2))
    assert res.status == "solved" and res.count == 1, res.message
    assert res.grid == json.loads(path.with_suffix(".sol").read_text())


def test_the_fixed_givens_checker_answers_as_the_warm_solver():
    """Fixed (large grids) builds sat-regions for exactly the givens; it finds another
    solution exactly when the warm solver does, and a valid one."""
    from bench.puzzles.fillomino.generate import Fixed, Warm

    solution = [[1, 3, 3, 3, 1], [2, 2, 10, 10, 10], [10, 10, 10, 10, 10], [10, 10, 2, 2, 1]]
    everything = {(r, c) for r in range(4) for c in range(5)}
    warm, fixed = Warm(solution), Fixed(solution)
    try:
        for given in (everything, everything - {(0, 0)}, everything - {(0, 2)}, set(),
                      {(0, 0), (1, 2)}, {(0, 1), (3, 4), (2, 0)}, everything - {(1, 2), (2, 4)}):
            other = fixed.other(given)
            assert (other is None) == (warm.other(given) is None), sorted(given)
            if other is not None:
                inst = instance_from_grid("fillomino", [
                    [other[r][c] if (r, c) in given else None for c in range(5)]
                    for r in range(4)])
                assert other != solution and get_puzzle("fillomino").verify(inst, other) == []
    finally:
        warm.close()


def test_large_grids_lose_givens_in_batches_and_stay_unique(monkeypatch, tmp_path: Path):
    """The large-grid path (Fixed checks, batch removal) on an 8x8: far fewer givens than
    the start, reproducible, unique by a second formulation (sat-lazy)."""
    from bench.puzzles.fillomino import generate as generator

    monkeypatch.setattr(generator, "LARGE", 0)
    inst, solution = generator.FillominoGenerator().attempt(8, 8, random.Random(0))
    again, _ = generator.FillominoGenerator().attempt(8, 8, random.Random(0))
    assert again.grid == inst.grid
    assert len(list(inst.clues())) <= 40
    path = tmp_path / "gen.txt"
    path.write_text(format_instance(inst), encoding="utf-8")
    assert get_puzzle("fillomino").verify(read_instance(path), solution) == []
    res = run_task(Task(str(path), "sat-lazy", "cadical195", time_limit=60, count=2))
    assert res.status == "solved" and res.count == 1, res.message
