"""The ``external`` kind as a plugin point: a user's own solver (here a pure-Python backtracking
Shikaku solver in an out-of-tree package, declared ``shikaku.external.<name>``) runs as any
task: own process, the time limit, its grid checked by the rules and the .sol, its one-time
set-up recorded apart (``setup_s``)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pandas as pd
import pytest

from bench.backends import get_backend
from bench.backends.external import External
from bench.backends.kinds import ExternalAnswer, ExternalModel
from bench.instance import read_instance
from bench.puzzles import get_puzzle
from tests.conftest import ROOT, SHIKAKU_SEEDS, plugin_package

#: the plugin module, written as a user would (no harness internals beyond the public API)
BRUTE = '''
from __future__ import annotations

import time

from bench.backends.kinds import ExternalAnswer, ExternalModel
from bench.instance import Instance
from bench.models import Value
from bench.puzzles import SolutionGrid
from bench.puzzles.shikaku.rules import Rect, candidate_rectangles
from bench.registry import Formulation, formulation


def backtrack(inst: Instance, limit: float) -> ExternalAnswer:
    deadline = time.perf_counter() + limit
    options: dict[int, list[Rect]] = {k: [] for k in range(len(inst.clues()))}
    for rect in candidate_rectangles(inst):
        options[rect.clue].append(rect)
    order = sorted(options, key=lambda k: len(options[k]))
    used: set[tuple[int, int]] = set()
    owner: dict[tuple[int, int], float] = {}

    def go(i: int) -> bool:
        if time.perf_counter() > deadline:
            raise TimeoutError
        if i == len(order):
            return len(used) == inst.rows * inst.cols
        for rect in options[order[i]]:
            cells = set(rect.cells())
            if cells & used:
                continue
            used.update(cells)
            owner.update(dict.fromkeys(cells, float(rect.clue)))
            if go(i + 1):
                return True
            used.difference_update(cells)
        return False

    try:
        found = go(0)
    except TimeoutError:
        return ExternalAnswer("timeout")
    return ExternalAnswer("sat", dict(owner)) if found else ExternalAnswer("infeasible")


@formulation
class ExternalBrute(Formulation[ExternalModel]):
    puzzle = "shikaku"
    name = "brute"
    kind = "external"
    description = "a user's backtracking solver"
    peer = "brute-pkg"  # its distribution: the task records its version

    def setup(self) -> float:
        time.sleep(0.3)  # stands for a solver's one-time start-up
        return 0.3

    def build(self, inst: Instance) -> ExternalModel:
        return ExternalModel.new(lambda limit, threads, seed: backtrack(inst, limit))

    def decode(self, inst: Instance, model: ExternalModel, value: Value) -> SolutionGrid:
        return [[int(value((r, c))) for c in range(inst.cols)] for r in range(inst.rows)]
'''


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return plugin_package(tmp_path_factory.mktemp("external"), "brute-pkg", "0.2",
                          {"external_brute": BRUTE},
                          {"shikaku.external.brute": "brute_pkg.external_brute"})


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)


def test_a_plugin_solver_is_listed_and_runs_as_a_task(plugin_env, tmp_path):
    listed = json.loads(cli(plugin_env, "list", "--json").stdout)
    brute = [f for f in listed["formulations"] if f["name"] == "brute"]
    assert brute and brute[0]["kind"] == "external" and brute[0]["solvers"] == ["external"]
    assert brute[0]["available"] is True
    out = tmp_path / "run"
    res = cli(plugin_env, "run", "--suite", "quick", "--out", str(out), "--puzzle", "shikaku",
              "--formulation", "brute", "--time-limit", "3", "--jobs", "1")
    assert res.returncode == 0, res.stderr
    df = pd.read_parquet(out / "results.parquet")
    assert len(df) >= len(SHIKAKU_SEEDS)
    # naive backtracking solves the 10x10 seed and runs out of time on the 36x20
    assert set(df["status"]) <= {"solved", "timeout"}
    solved = df[df["status"] == "solved"]
    assert "seed-10x10" in set(solved["instance"]) and solved["checked"].all()
    # the in-process limit stopped it: about 3 s of solve, the set-up not counted against it
    timeouts = df[df["status"] == "timeout"]
    assert (timeouts["solve_s"].between(2.9, 6.0)).all()
    assert set(df["solver"]) == {"external"} and set(df["kind"]) == {"external"}
    assert df["solver_version"].str.contains("brute-pkg 0.2").all()
    # the one-time set-up is apart: recorded, and neither in build_s nor in solve_s
    assert (df["setup_s"] >= 0.3).all()
    assert (df["build_s"] + df["solve_s"] < df["wall_s"] - 0.25).all()


def test_a_plugin_solver_out_of_time_is_a_timeout(plugin_env):
    # the 36x20 seed is far beyond naive backtracking in 0.5 s
    big = max(SHIKAKU_SEEDS, key=lambda p: read_instance(p).cells)
    out = json.loads(cli(plugin_env, "solve", str(big), "--json", "--formulation", "brute",
                         "--solver", "external", "--time-limit", "0.5").stdout)
    assert out["status"] in ("timeout", "solved"), out
    if out["status"] == "solved":  # a fast machine: then the grid must be right
        assert get_puzzle("shikaku").verify(read_instance(big), out["grid"]) == []


def session_answer(answer: ExternalAnswer, infeasible: bool = False):
    calls: list[tuple[float, int, int]] = []

    def run(limit: float, threads: int, seed: int) -> ExternalAnswer:
        calls.append((limit, threads, seed))
        return answer

    model = ExternalModel.new(run)
    if infeasible:
        model.post_infeasible()
    from bench.backends import SolveOptions

    session = External().start(model, SolveOptions(threads=1, seed=7))
    return session.solve(5.0), calls


def test_the_session_passes_limit_threads_seed_and_reads_values():
    outcome, calls = session_answer(ExternalAnswer("feasible", {(0, 0): 3.0}, 0.25,
                                                   {"conflicts": 4.0}))
    assert calls == [(5.0, 1, 7)]
    assert outcome.status == "feasible" and outcome.value is not None
    assert outcome.value((0, 0)) == 3.0
    assert outcome.solver_s == 0.25 and outcome.stats == {"conflicts": 4.0}


def test_the_session_rejects_what_no_solver_may_answer():
    with pytest.raises(RuntimeError, match="status 'solved'"):
        session_answer(ExternalAnswer("solved", {}))
    with pytest.raises(RuntimeError, match="without values"):
        session_answer(ExternalAnswer("optimal", None))


def test_post_infeasible_answers_without_calling_the_solver():
    outcome, calls = session_answer(ExternalAnswer("sat", {}), infeasible=True)
    assert outcome.status == "infeasible" and outcome.value is None and calls == []


def test_the_backend_is_listed_and_times_its_call():
    backend = get_backend("external")
    assert backend.kinds == ("external",) and backend.available() is None

    def slow(limit: float, threads: int, seed: int) -> ExternalAnswer:
        time.sleep(0.2)
        return ExternalAnswer("infeasible")

    from bench.backends import SolveOptions

    outcome = backend.start(ExternalModel.new(slow), SolveOptions()).solve(1.0)
    assert outcome.status == "infeasible" and outcome.wall_s >= 0.2
    assert outcome.solver_s == outcome.wall_s  # no own time reported: the call is timed


def test_the_environment_lists_the_peers_the_formulations_declare(tmp_path):
    """The backend's version (the run's environment record) names each installed peer package
    that an external formulation declares, built-in or a loaded plugin's (a run loads the
    plugins it plans): here a plugin whose formulation calls another installed distribution
    (pandas) as its solver."""
    import importlib.metadata

    from bench.registry import formulations

    calls_pandas = BRUTE.replace('peer = "brute-pkg"', 'peer = "pandas"')
    env = plugin_package(tmp_path, "pandas-brute", "0.1", {"external_brute": calls_pandas},
                         {"shikaku.external.brute": "pandas_brute.external_brute"})
    shown = subprocess.run([sys.executable, "-c", "from bench.registry import load_plugins; "
                            "load_plugins(); from bench.backends.external import External; "
                            "print(External().version())"], capture_output=True,
                           text=True, env=env, cwd=ROOT, timeout=120, check=True).stdout
    listed = set(shown.strip().split(", "))
    assert f"pandas {importlib.metadata.version('pandas')}" in listed, shown
    assert "pandas-brute 0.1" in listed, shown  # the plugin's own distribution
    for cls in formulations():
        if cls.peer and cls.available() is None:
            assert f"{cls.peer} {importlib.metadata.version(cls.peer)}" in listed, (cls, shown)
