"""The recorded model size is the model's as solved: an ASP program's ground atoms and rules
are known only after grounding, so a result must carry them, not the count of facts."""

from __future__ import annotations

import time

from bench.backends import get_backend
from bench.instance import read_instance
from bench.registry import get_formulation
from bench.solve import solve
from tests.conftest import INSTANCES


def test_an_asp_result_records_the_ground_programs_atoms_and_rules():
    inst = read_instance(INSTANCES / "nurikabe" / "seed-p01.txt")
    form = get_formulation("nurikabe", "asp-reach")
    facts = len(form.build(inst).facts)
    res = solve(inst, form, get_backend("clingo"), time.perf_counter() + 60)
    assert res.status == "solved"
    assert res.stats.variables > facts  # ground atoms, not the facts given
    assert res.stats.constraints > 0
