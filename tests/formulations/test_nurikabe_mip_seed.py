"""The seed's GLPK model ported (``mip-seed``): it reproduces the seed's solutions, it is
stricter than the rules where its module docstring says, and ``exact=true`` is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.records import Task
from bench.run.pool import run_task

ROOT = Path(__file__).resolve().parent.parent.parent
SEEDS = sorted((ROOT / "instances" / "nurikabe").glob("seed-p*.txt"))
LWALL = ROOT / "tests" / "data" / "nurikabe-3x3-lwall.txt"
FAITHFUL = "mip-seed[root=hint,patterns=seed,exact=false]"


def solve(path: Path, formulation: str, solver: str = "glpk", count: int = 0):
    # a task process of its own, as the harness runs each task
    return run_task(Task(instance=str(path), formulation=formulation, solver=solver,
                        time_limit=120, count=count))


@pytest.mark.parametrize("formulation", [FAITHFUL, "mip-seed"])
@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_seed_puzzles_on_glpk_give_the_seed_models_solutions(path: Path, formulation: str):
    # the .sol beside each seed is the original model's answer (glpsol on nuri.mod)
    res = solve(path, formulation)
    assert res.status == "solved", res.message
    assert res.checked and res.known is True
    assert res.grid == json.loads(path.with_suffix(".sol").read_text())


def test_faithful_port_is_stricter_than_the_rules_on_an_l_shaped_wall():
    for formulation in (FAITHFUL.replace("hint", "model"),
                        "mip-seed[root=model,patterns=none,exact=false]"):
        res = solve(LWALL, formulation)
        assert res.status == "infeasible"
        assert res.known is False and "known solution" in res.message


@pytest.mark.parametrize("solver", ["glpk", "cbc", "highs"])
@pytest.mark.parametrize("patterns", ["seed", "none"])
def test_exact_variant_solves_the_l_shaped_wall_and_counts_one(solver: str, patterns: str):
    res = solve(LWALL, f"mip-seed[root=model,patterns={patterns},exact=true]", solver, count=2)
    assert res.status == "solved", res.message
    assert res.known is True and res.count == 1
    assert res.exact is True


def test_hint_variant_without_a_hint_skips_the_instance_saying_why():
    res = solve(LWALL, FAITHFUL)
    assert res.status == "skipped" and "black-root" in res.message


@pytest.mark.parametrize("solver", ["cbc", "highs"])
def test_default_variant_on_other_solvers(solver: str):
    res = solve(SEEDS[0], "mip-seed", solver, count=2)
    assert res.status == "solved" and res.known is True and res.count == 1
    assert res.exact is False
