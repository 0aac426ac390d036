"""The per-method timing of the propagator (:mod:`bench.analysis.propagator_methods`) on a real
Nurikabe puzzle: each wrapped method's calls and seconds are counted (the wrapper runs), and
no method's time exceeds the propagator's whole Python time; an unknown method is one line and
a non-zero exit."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.analysis.test_propagator_overhead import ENV
from tests.conftest import INSTANCES, ROOT

PATH = INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.analysis.propagator_methods",
                           "--conflicts", "0", str(PATH), *args], capture_output=True,
                          text=True, env=ENV, cwd=ROOT, timeout=300)


def test_each_method_is_counted_within_the_propagators_time() -> None:
    got = run("_wall", "_close")
    assert got.returncode == 0, got.stderr
    row = json.loads(got.stdout)
    assert row["answer"] is True and row["callbacks"] > 0
    wall = row["methods"]["_wall"]
    # one relabelling a tallied relabel: the wrapper sees exactly the propagator's own count
    assert wall["calls"] == row["relabels"] > 0
    assert sum(m["s"] for m in row["methods"].values()) <= row["propagator_s"]


def test_an_unknown_method_is_one_line() -> None:
    got = run("_no_such_method")
    assert got.returncode != 0
    assert got.stderr.strip().splitlines() == [
        "NurikabePropagator has no method _no_such_method"]
