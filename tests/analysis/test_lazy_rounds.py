"""The lazy rounds measurement (:mod:`bench.analysis.lazy_rounds`) on a small sparse Nurikabe
whose wall takes over a hundred cuts: per seed it runs the rounds the harness runs (the seed's
scramble applied to the model and to every cut), its counters add up, the answer is judged
valid, and a solver option reaches the solver."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import INSTANCES, ROOT

ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
}
PATH = INSTANCES / "nurikabe" / "sparse" / "gen-nurikabe-14x14-s2-0.txt"
LABEL = "sat-hybrid[wall=cut]"


def run(*args: str) -> str:
    got = subprocess.run(
        [sys.executable, "-m", *args],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=ROOT,
        timeout=300,
    )
    assert got.returncode == 0, got.stderr
    return got.stdout


def test_rounds_are_the_harness_iterations_per_seed() -> None:
    out = run(
        "bench.analysis.lazy_rounds",
        "--formulation",
        LABEL,
        "--seeds",
        "0,1",
        "--configure",
        "elimreleff=10,stabilizeonly=1,subsumereleff=60",
        str(PATH),
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["seed"], r["configure"] != "") for r in rows] == [
        (0, False),
        (0, True),
        (1, True),
        (1, False),
    ]  # arms rotated from one seed to the next
    plain = {r["seed"]: r for r in rows if not r["configure"]}
    for seed, row in plain.items():
        harness = json.loads(
            run(
                "bench.cli",
                "solve",
                str(PATH),
                "--formulation",
                LABEL,
                "--solver",
                "cadical195",
                "--json",
                "--seed",
                str(seed),
            )
        )
        assert harness["status"] == "solved"
        # the same loop on the same scrambled formula: the same number of solver calls
        assert row["rounds"] == harness["iterations"] > 1, (seed, row, harness["iterations"])
    # the two seeds search differently (the scramble reached the solver and the cuts)
    assert plain[0]["rounds"] != plain[1]["rounds"]
    for r in rows:
        assert r["status"] == "solved" and r["valid"] is True
        assert r["first_conflicts"] + r["rest_conflicts"] == r["conflicts"]
        assert r["first_s"] + r["rest_s"] <= r["total_s"] + 0.02
    # the options reached the solver: another search on the same formula
    tuned = {r["seed"]: r for r in rows if r["configure"]}
    assert tuned[0]["conflicts"] != plain[0]["conflicts"]
