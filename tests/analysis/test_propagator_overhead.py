"""The propagator's callback overhead measurement (:mod:`bench.analysis.propagator_overhead`) on
a real Nurikabe puzzle: one JSON line with the solver's and the propagator's counters, the model
found within the budget judged valid by the rule verifier."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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


def lever_row(path: Path, levers: str, conflicts: int) -> dict[str, Any]:
    from bench.analysis.propagator_overhead import measure

    return measure(str(path), argparse.Namespace(
        conflicts=conflicts, formulation="sat-propagate", solver="cadical300", digest=False,
        per_callback=False, configure="", levers=levers))


def test_levers_schedule_the_search_and_keep_clauses() -> None:
    """``--levers``: with no bound every due articulation search runs; ``cutlevel=3`` leaves
    out those due deeper (a schedule that were ignored would run them all); ``keep=cut`` hands
    articulation reasons over as clauses; both answers of a solved puzzle are valid."""
    few = INSTANCES / "nurikabe" / "few" / "gen-nurikabe-10x10-s1-cover70-0.txt"
    every = lever_row(few, "cutlevel=-1", 1000)
    assert every["cut_searches"] == every["cut_eligible"] > 0 and every["kept_clauses"] == 0
    shallow = lever_row(few, "cutlevel=3", 1000)
    assert 0 < shallow["cut_searches"] < shallow["cut_eligible"]
    assert shallow["levers"] == "cutlevel=3"
    small = INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt"
    for levers in ("cutlevel=0,cutevery=2,cutbackoff=4", "keep=cut,keeplen=40"):
        row = lever_row(small, levers, 0)
        assert row["answer"] == "sat" and row["valid"] is True
    kept = lever_row(few, "keep=all", 1000)
    assert kept["kept_clauses"] > 0


def test_an_unknown_lever_is_refused() -> None:
    from bench.analysis.propagator_overhead import levers_of

    assert levers_of("cutlevel=20,keep=cut")["cutlevel"] == 20
    with pytest.raises(SystemExit, match="unknown lever 'cutlvl'"):
        levers_of("cutlvl=20")
