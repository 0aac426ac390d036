"""Every registered formulation variant x one available solver of its kind, from the registry:
a new formulation is tested here without a test of its own.

On the puzzle's seed instances (the quick suite's when it has no seeds) a variant decodes a grid
the rule verifier accepts (exact variants must solve; inexact ones may say infeasible, never
return a wrong grid) and, where it implements ``block``, counts the unique seeds as 1; on the
puzzle's unsatisfiable instance in tests/data/infeasible/ an exact variant says infeasible.
MIP variants run on the smallest seed only, and every variant counts on the smallest seed only
(proving uniqueness is the slow part: the README example's weak at-most-one cover needs over
20 s on the 36x20 seed), to keep the whole test under a minute.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.examples.shikaku.cpsat_mine  # noqa: F401  (the README example joins the table)
from bench.backends import Backend, backends_for
from bench.instance import read_instance
from bench.records import Task
from bench.registry import Formulation, formulations
from bench.run.execute import execute
from bench.suites import load_suites
from bench.variants import variants
from tests.conftest import INSTANCES, ROOT

INFEASIBLE = ROOT / "tests" / "data" / "infeasible"
#: one solver per kind; never HiGHS here: highspy and OR-tools cannot share this process
PREFERRED = ("cadical195", "cpsat", "cbc", "glpk")
TIME_LIMIT = 20.0


def solver_for(form: Formulation) -> Backend | None:
    usable = [b for b in backends_for(form.kind) if b.available() is None and b.name != "highs"]
    usable.sort(key=lambda b: PREFERRED.index(b.name) if b.name in PREFERRED else len(PREFERRED))
    return usable[0] if usable else None


def seeds(puzzle: str) -> list[Path]:
    found = sorted((INSTANCES / puzzle).glob("seed-*.txt"))
    if not found:
        quick = load_suites()["quick"].instances()
        found = [Path(p) for p in quick if read_instance(p).puzzle == puzzle]
    return sorted(found, key=lambda p: (read_instance(p).cells, p.name))


def cases() -> list[pytest.param]:
    out = []
    for cls in formulations():
        for form in variants(cls):
            backend = solver_for(form)
            missing = cls.available()  # an optional extra (peers) not installed
            marks = ([pytest.mark.skip(reason=missing)] if missing else
                     [] if backend else [pytest.mark.skip(reason=f"no {form.kind} solver")])
            out.append(pytest.param(form, backend, id=f"{cls.puzzle}/{form.label}",
                                    marks=marks))
    return out


CASES = cases()
#: the variants that refuse every seed (they are for puzzles of at most three clues)
FOR_FEW_CLUES = {"nurikabe/frontier"}


def run(path: Path, form: Formulation, backend: Backend, count: int = 0):
    return execute(Task(str(path), form.label, backend.name, TIME_LIMIT, count=count))


@pytest.mark.parametrize(("form", "backend"), CASES)
def test_variant_solves_checks_and_counts_the_seeds(form: Formulation, backend: Backend):
    paths = seeds(form.puzzle)
    assert paths, f"no seed instances for {form.puzzle}"
    refused = {p: form.skip(read_instance(p)) for p in paths}
    if f"{form.puzzle}/{form.name}" in FOR_FEW_CLUES:
        # a variant for a kind of instance no seed is (its own tests solve such instances):
        # the harness skips the task with the variant's reason
        assert all(refused.values())
        res = run(paths[0], form, backend)
        assert res.status == "skipped" and str(refused[paths[0]]) in res.message, res.message
        return
    assert not any(refused.values()), refused  # every other variant takes every seed
    if form.kind == "mip":
        paths = paths[:1]
    counts = form.block.__func__ is not Formulation.block  # type: ignore[attr-defined]
    # inexact MIP variants (the seed ports) count in their own tests: proving uniqueness with
    # their big models is what they are slow at
    counts = counts and (form.is_exact() or form.kind != "mip")
    for i, path in enumerate(paths):  # counting (the slow part) on the smallest seed only
        res = run(path, form, backend, count=2 if counts and i == 0 else 0)
        assert res.status != "wrong", f"{path.name}: {res.message}"
        if form.is_exact() or res.status != "infeasible":
            assert res.status == "solved", f"{path.name}: {res.status} {res.message}"
            assert res.checked
            if counts and i == 0:
                assert res.count == 1, f"{path.name}: unique seed counted {res.count}"


@pytest.mark.parametrize(("form", "backend"), CASES)
def test_exact_variant_reports_an_unsatisfiable_instance_infeasible(form: Formulation,
                                                                   backend: Backend):
    paths = sorted(INFEASIBLE.glob(f"{form.puzzle}-*.txt"))
    if not paths:
        pytest.skip(f"no unsatisfiable {form.puzzle} instance in tests/data/infeasible")
    for path in paths:
        res = run(path, form, backend)
        assert res.status != "wrong", f"{path.name}: {res.message}"
        if form.is_exact():
            assert res.status == "infeasible", f"{path.name}: {res.status} {res.message}"
