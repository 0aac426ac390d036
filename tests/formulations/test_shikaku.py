"""Every Shikaku formulation x every solver of its kind on both seeds, checked by the rules."""

from __future__ import annotations

import pytest

from bench.records import Task
from bench.run.pool import Plan, run_plan
from bench.run.storage import Journal
from bench.variants import variants
from tests.conftest import SHIKAKU_SEEDS, builtin_formulations, usable_backends

PAIRS = [(cls.name, b.name) for cls in builtin_formulations("shikaku")
         for b in usable_backends(cls.kind)]
#: the seed's model as written leaves GLPK and CBC without a solution of the 36x20 within
#: 60 s, and SCIP near that limit on a loaded machine (HiGHS solves it; propagate=root solves
#: it everywhere, and is what these pairs are tested on)
KNOWN_HARD = {("seed-36x20", "mip-sugar[propagate=none]", "glpk"),
              ("seed-36x20", "mip-sugar[propagate=none]", "cbc"),
              ("seed-36x20", "mip-sugar[propagate=none]", "scip")}


@pytest.fixture(scope="module")
def seed_results(tmp_path_factory):
    tasks = [Task(str(p), v.label, b.name, time_limit=60) for p in SHIKAKU_SEEDS
             for cls in builtin_formulations("shikaku") for v in variants(cls)
             for b in usable_backends(cls.kind)
             if cls.kind != "sat" or b.name == "cadical195" or v.params == cls().params
             if (p.stem, v.label, b.name) not in KNOWN_HARD]
    results = run_plan(Plan(tasks), Journal(tmp_path_factory.mktemp("run")), jobs=2)
    return {(r.instance_path, r.formulation, r.solver): r for r in results}


def test_pairs_cover_every_kind():
    assert {s for _, s in PAIRS} >= {"glpk", "cbc", "highs", "cpsat", "cadical195", "kissat404"}


@pytest.mark.parametrize("seed", SHIKAKU_SEEDS, ids=lambda p: p.stem)
@pytest.mark.parametrize(("form", "solver"), PAIRS)
def test_solves_seed_and_passes_checker(seed_results, seed, form, solver):
    matches = [r for (i, f, s), r in seed_results.items()
               if i == str(seed) and f.split("[")[0] == form and s == solver]
    if form == "mip-sugar" and (seed.stem, "mip-sugar[propagate=none]", solver) in KNOWN_HARD:
        assert [r.formulation for r in matches] == ["mip-sugar[propagate=root]"]
    assert matches
    for r in matches:
        assert r.status == "solved", r.message
        assert r.checked is True


@pytest.mark.parametrize("grid", [
    "2 . .\n. 3 .\n",  # every clue fits, but the areas sum to 5 on a 2x3 grid
    "3 . 3\n. . .\n",  # areas sum to 6, but the only 1x3 for either 3 holds both
], ids=["short-sum", "geometry"])
def test_infeasible_everywhere(tmp_path, write, grid):
    inst = write("infeasible.txt", "puzzle: shikaku\n\n" + grid)
    tasks = [Task(str(inst), v.label, b.name, time_limit=30)
             for cls in builtin_formulations("shikaku")
             for v in variants(cls) for b in usable_backends(cls.kind)
             if cls.kind != "sat" or v.params == cls().params]
    results = run_plan(Plan(tasks), Journal(tmp_path / "run"), jobs=2)
    assert {(r.formulation, r.solver): r.status for r in results} == {
        (t.formulation, t.solver): "infeasible" for t in tasks}


COUNTING = [("sat-cover", "minisat22"), ("sat-cover", "kissat404"), ("cpsat-cover", "cpsat"),
            ("cpsat-sugar", "cpsat"), ("mip-cover", "highs"), ("mip-cover", "glpk")]


def test_counting_projects_onto_cells(tmp_path, write):
    # 2 .   two solutions: two rows or two columns
    # . 2
    two = write("two.txt", "puzzle: shikaku\n\n2 .\n. 2\n")
    tasks = [Task(str(p), f, s, time_limit=30, count=5)
             for p in (two, *SHIKAKU_SEEDS) for f, s in COUNTING]
    results = run_plan(Plan(tasks), Journal(tmp_path / "run"), jobs=2)
    got = {(r.instance, r.formulation.split("[")[0], r.solver): (r.status, r.count)
           for r in results}
    for f, s in COUNTING:
        assert got["two", f, s] == ("solved", 2)
        for seed in SHIKAKU_SEEDS:  # real puzzles have exactly one solution
            assert got[seed.stem, f, s] == ("solved", 1)
