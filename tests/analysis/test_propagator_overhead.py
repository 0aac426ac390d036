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


def test_timing_counts_and_times_a_known_workload() -> None:
    import time

    from bench.analysis.propagator_overhead import timing

    class Sleeper:
        def propagate(self) -> list[int]:
            time.sleep(0.01)
            return [1]

        def on_backtrack(self, to: int) -> None:
            pass

    per: dict[str, list[float]] = {}
    timed = timing(Sleeper, per)()
    assert [timed.propagate() for _ in range(5)] == [[1]] * 5
    timed.on_backtrack(3)
    assert per["propagate"][0] == 5 and 0.05 <= per["propagate"][1] < 0.5
    assert per["on_backtrack"][0] == 1 and per["on_backtrack"][1] < 0.01
    assert "on_assignment" not in per  # a callback the class does not define is not added


def test_per_callback_calls_add_up_to_the_propagators_own_count() -> None:
    path = INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt"
    got = subprocess.run([sys.executable, "-m", "bench.analysis.propagator_overhead",
                          "--conflicts", "5000", "--per-callback", "--configure", "elim=0",
                          str(path)], capture_output=True, text=True, env=ENV, cwd=ROOT,
                         timeout=300)
    assert got.returncode == 0, got.stderr
    row = json.loads(got.stdout)
    per = row["per_callback"]
    assert row["valid"] is True and row["configure"] == "elim=0"
    # the propagator counts every callback but decide; the wrapper saw each of them
    assert sum(v["calls"] for k, v in per.items()
               if k != "decide" and ":" not in k) == row["callbacks"]
    # the steps of propagate are timed inside it
    steps = [v["s"] for k, v in per.items() if k.startswith("propagate:")]
    assert per["propagate:_wall"]["calls"] >= 1 and sum(steps) <= per["propagate"]["s"]
    assert per["on_assignment"]["calls"] > 0 and per["check_model"]["calls"] >= 1
