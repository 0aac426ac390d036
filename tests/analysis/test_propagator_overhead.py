"""The propagator's callback overhead measurement (:mod:`bench.analysis.propagator_overhead`) on
a real Nurikabe puzzle: one JSON line with the solver's and the propagator's counters, the model
found within the budget judged valid by the rule verifier."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import INSTANCES, ROOT

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}


def test_counters_of_a_solved_puzzle() -> None:
    path = INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt"
    got = subprocess.run([sys.executable, "-m", "bench.analysis.propagator_overhead",
                          "--conflicts", "5000", str(path)], capture_output=True, text=True,
                         env=ENV, cwd=ROOT, timeout=300)
    assert got.returncode == 0, got.stderr
    (line,) = got.stdout.splitlines()
    row = json.loads(line)
    assert row["file"] == path.name and row["answer"] == "sat" and row["valid"] is True
    # the propagator was called, and judged the complete model at least once
    assert row["callbacks"] > 0 and row["model_checks"] >= 1
    assert row["formulation"].startswith("sat-propagate")
