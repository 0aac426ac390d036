"""The Fillomino generator: partitions without touching equal regions, reproducible output,
uniqueness re-proved by a second formulation (sat-lazy, in a worker process)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from bench.generate import get_generator
from bench.grid import neighbours
from bench.instance import read_instance
from bench.puzzles import get_puzzle
from bench.puzzles.fillomino.generator import random_partition
from bench.records import Task
from bench.runner import run_task
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
    assert (gen.formulation, gen.solver) == ("cpsat-tree", "cpsat")


GENERATE = """
import json, sys
from bench.generate import generate_one
from bench.instance import format_instance
g = generate_one("fillomino", 5, 5, seed=3)
print(json.dumps([format_instance(g.instance), g.solution]))
"""


def generated_in_a_subprocess() -> tuple[str, list[list[int]]]:
    """The generator proves with CP-SAT: OR-tools loaded in the test process would stop HiGHS
    loading in later tests (and the other way round)."""
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
    assert get_puzzle("fillomino").check(inst, solution) == []
    res = run_task(Task(str(path), "sat-lazy", "cadical195", time_limit=60, count=2))
    assert res.status == "solved" and res.count == 1, res.message


def test_committed_generated_instances_hold_their_unique_solution():
    """instances/fillomino/generated/ is outside tests/test_instances_dir.py's glob."""
    files = sorted((INSTANCES / "fillomino" / "generated").glob("gen-*.txt"))
    assert files
    for path in files:
        inst = read_instance(path)
        solution = json.loads(path.with_suffix(".sol").read_text())
        assert get_puzzle("fillomino").check(inst, solution) == [], path.name
