"""Uniqueness: every Nurikabe formulation counts exactly one solution on each seed."""

from __future__ import annotations

from bench.records import Task
from bench.registry import get_formulation
from bench.run.pool import Plan, run_plan
from bench.run.storage import Journal
from tests.conftest import INSTANCES, builtin_formulations

SEEDS = sorted((INSTANCES / "nurikabe").glob("seed-*.txt"))
SOLVER = {"sat": "cadical195", "cpsat": "cpsat", "mip": "highs"}
#: each class's default variant and its aliases (sat-tree, cpsat-lazy), by result label; the
#: exact ones of the kinds above (the seed port counts in its own tests, the peers cannot count)
LABELS = {form.label: cls.kind for cls in builtin_formulations("nurikabe") if cls.kind in SOLVER
          for n in (cls.name, *cls.aliases)
          if (form := get_formulation("nurikabe", n)).is_exact()}


def test_each_seed_has_exactly_one_solution(tmp_path):
    tasks = [Task(str(p), label, SOLVER[kind], time_limit=60, count=2)
             for p in SEEDS for label, kind in LABELS.items()]
    results = run_plan(Plan(tasks), Journal(tmp_path / "run"), jobs=2)
    assert len(results) == len(tasks) >= 5 * 6
    for r in results:
        assert (r.status, r.checked, r.count) == ("solved", True, 1), (r.instance, r.formulation,
                                                                        r.message)


def test_a_puzzle_with_four_solutions_counts_four(tmp_path):
    # . . .    the 2's island is the centre and any one of its four neighbours; the other
    # . 2 .    seven cells form a connected wall with no 2x2 pool (each 2x2 block holds
    # . . .    the centre)
    p = tmp_path / "two.txt"
    p.write_text("puzzle: nurikabe\n\n. . .\n. 2 .\n. . .\n")
    tasks = [Task(str(p), label, SOLVER[kind], time_limit=60, count=10)
             for label, kind in LABELS.items()]
    results = run_plan(Plan(tasks), Journal(tmp_path / "run"), jobs=2)
    assert {r.formulation: (r.status, r.count) for r in results} == dict.fromkeys(
        LABELS, ("solved", 4))
