"""A solve that raises keeps the time it took: a solver backend whose solve runs for a while
and then raises (as a propagator's ``CheckLoop`` does inside python-sat) is an ``error`` whose
``solve_s`` and ``wall_s`` hold that time, in `puzzlebench solve --json` and in a run's
journal (a real plugin distribution on PYTHONPATH, real task processes); a lazy
formulation's separation that raises keeps its time as well."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from bench.instance import Instance
from bench.models import SatModel, Value
from bench.records import Task
from bench.registry import formulation
from bench.run.execute import execute
from tests.conftest import ROOT, SHIKAKU_SEEDS, plugin_package
from tests.test_check import Cover

#: how long the plugin's solve runs before it raises
SPENT = 0.4

RAISING = f'''
"""A SAT backend whose solve runs {SPENT} s, then raises."""

import time

from bench.backends.base import Backend, Session
from bench.models import SatModel


class Breaks(Session):
    def solve(self, time_limit):
        time.sleep({SPENT})
        raise RuntimeError("the solver broke mid-search")


class RaisingSat(Backend):
    name = "raise-sat"
    kinds = ("sat",)
    package = "raise-pkg"
    model_type = SatModel
    session = Breaks
'''


@pytest.fixture(scope="module")
def raising_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return plugin_package(tmp_path_factory.mktemp("raising"), "raise-pkg", "0.1",
                          {"backend": RAISING}, {"raise-sat": "raise_pkg.backend:RaisingSat"},
                          group="puzzlebench.backends")


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)


def test_solve_json_keeps_the_time_of_a_solve_that_raised(raising_env):
    res = cli(raising_env, "solve", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-cover",
              "--solver", "raise-sat", "--json")
    assert res.returncode == 1, res.stderr
    out = json.loads(res.stdout)
    assert out["status"] == "error" and "the solver broke mid-search" in out["message"]
    assert out["solve_s"] >= SPENT and out["solver_s"] >= SPENT
    assert out["wall_s"] >= out["build_s"] + out["solve_s"]


def test_a_run_keeps_the_time_of_a_solve_that_raised(raising_env, tmp_path):
    run = tmp_path / "run"
    res = cli(raising_env, "run", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-cover",
              "--solver", "raise-sat", "--jobs", "1", "--time-limit", "20", "--out", str(run))
    assert res.returncode == 1, res.stderr  # a run with errors says so
    rows = [json.loads(line) for line in (run / "journal.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r.get("solver") == "raise-sat")
    assert (row["status"], row["phase"]) == ("error", "solve")
    assert row["solve_s"] >= SPENT and row["iterations"] == 1
    assert row["wall_s"] >= row["build_s"] + row["solve_s"]
    assert row["overhead_s"] < row["wall_s"] - SPENT


class SlowBadSeparate(Cover):
    name = "test-slow-bad-separate"
    lazy = True

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        time.sleep(SPENT)
        raise RuntimeError("cut broke")


@pytest.fixture
def slow_bad_separate():
    """Registered for the test that uses it only (other tests enumerate the real table)."""
    from bench import registry

    formulation(SlowBadSeparate)
    yield
    del registry._FORMULATIONS[(SlowBadSeparate.puzzle, SlowBadSeparate.name)]


def test_a_separation_that_raised_keeps_its_time(slow_bad_separate):
    res = execute(Task(str(SHIKAKU_SEEDS[0]), SlowBadSeparate.name, "cadical195", 20.0))
    assert (res.status, res.phase) == ("error", "separate")
    assert res.solve_s is not None and res.solve_s >= SPENT
