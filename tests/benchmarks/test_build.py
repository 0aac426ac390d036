"""Model construction per formulation on fixed instances (`nox -s microbench`).

Marked slow: the quick test run skips them; the microbench session saves each run under
results/microbench/ and compares with the last saved one (failing on a median regression > 50 %).
"""

from __future__ import annotations

import pytest

from bench.instance import read_instance
from bench.registry import formulations
from bench.variants import variants
from tests.conftest import INSTANCES, SHIKAKU_SEEDS

# fixed instances: the Shikaku seeds, the largest Nurikabe seed and a real 24x14 Nurikabe
FIXED = [*SHIKAKU_SEEDS, INSTANCES / "nurikabe" / "seed-p05.txt",
         INSTANCES / "nurikabe" / "nurikabe-24x14-a7cfddbb.txt"]
CASES = [
    (path, form)
    for path in FIXED
    for cls in formulations(read_instance(path).puzzle)
    for form in variants(cls)
]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "form"), CASES,
                         ids=[f"{s.stem}-{f.label}" for s, f in CASES])
def test_build(benchmark, seed, form):
    inst = read_instance(seed)
    model = benchmark(form.build, inst)
    assert model.size()["variables"] > 0
