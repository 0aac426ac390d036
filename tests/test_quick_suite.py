"""Every formulation (its default variant) x one solver of its kind on the quick suite's
instances beyond the seeds (the conformance test has the seeds): the real and generated small
puzzles of every puzzle. Exact formulations must solve each with a grid the checker accepts
and, where the instance has one, its known solution; inexact ones may say infeasible, never
return a wrong grid. MIP formulations run on the puzzle's smallest such instance only."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.instance import read_instance
from bench.records import Task
from bench.registry import formulations
from bench.run.execute import execute
from bench.suites import load_suites
from bench.variants import variants
from tests.test_conformance import TIME_LIMIT, solver_for


def instances(puzzle: str) -> list[Path]:
    quick = [Path(p) for p in load_suites()["quick"].instances()]
    found = [p for p in quick if not p.name.startswith("seed-")
             and read_instance(p).puzzle == puzzle]
    return sorted(found, key=lambda p: (read_instance(p).cells, p.name))


def cases() -> list[pytest.param]:
    out = []
    for cls in formulations():
        form = variants(cls)[0]
        backend = solver_for(form)
        found = instances(cls.puzzle)
        if form.kind == "mip":
            found = found[:1]
        for path in found:
            missing = cls.available() or (None if backend else f"no {form.kind} solver")
            out.append(pytest.param(form, backend, path, id=f"{form.label}/{path.stem}",
                                    marks=[pytest.mark.skip(reason=missing)] if missing else []))
    return out


@pytest.mark.parametrize(("form", "backend", "path"), cases())
def test_a_quick_suite_instance(form, backend, path):
    res = execute(Task(str(path), form.label, backend.name, time_limit=TIME_LIMIT))
    assert res.status != "wrong" and res.checked is not False, (res.status, res.message)
    if form.is_exact():
        assert res.status == "solved", (res.status, res.message)
        assert res.known is not False  # agrees with the .sol beside the instance, if any
    else:
        assert res.status in ("solved", "infeasible"), (res.status, res.message)
