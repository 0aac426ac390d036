"""Every Shikaku formulation x every solver of its kind on both seeds, checked by the rules."""

from __future__ import annotations

import pytest

from bench.backends import backends_for
from bench.records import Task
from bench.registry import formulations, variants
from bench.runner import Plan, run_plan
from bench.storage import Journal
from tests.conftest import SHIKAKU_SEEDS

PAIRS = [(cls.name, b.name) for cls in formulations("shikaku") for b in backends_for(cls.kind)]


@pytest.fixture(scope="module")
def seed_results(tmp_path_factory):
    tasks = [Task(str(p), f, s, time_limit=60) for p in SHIKAKU_SEEDS for f, s in PAIRS]
    tasks += [Task(str(p), v.label, "cadical195", time_limit=60) for p in SHIKAKU_SEEDS
              for cls in formulations("shikaku") if cls.kind == "sat" for v in variants(cls)]
    results = run_plan(Plan(tasks), Journal(tmp_path_factory.mktemp("run")), jobs=2)
    return {(r.instance_path, r.formulation, r.solver): r for r in results}


def test_pairs_cover_every_kind():
    assert {s for _, s in PAIRS} >= {"glpk", "cbc", "highs", "cpsat", "cadical195", "kissat404"}


@pytest.mark.parametrize("seed", SHIKAKU_SEEDS, ids=lambda p: p.stem)
@pytest.mark.parametrize(("form", "solver"), PAIRS)
def test_solves_seed_and_passes_checker(seed_results, seed, form, solver):
    matches = [r for (i, f, s), r in seed_results.items()
               if i == str(seed) and f.split("[")[0] == form and s == solver]
    assert matches
    for r in matches:
        assert r.status == "solved", r.message
        assert r.checked is True


@pytest.fixture
def infeasible(write):
    # every clue fits, but the areas sum to 5 on a 2x3 grid
    return write("infeasible.txt", "puzzle: shikaku\n\n2 . .\n. 3 .\n")


def test_infeasible_everywhere(tmp_path, infeasible):
    tasks = [Task(str(infeasible), f, s, time_limit=30) for f, s in PAIRS]
    results = run_plan(Plan(tasks), Journal(tmp_path / "run"), jobs=2)
    assert {(r.formulation.split("[")[0], r.solver): r.status for r in results} == {
        p: "infeasible" for p in PAIRS}
