"""CBC's effort counters, on the real CBC: ``simplex_iterations`` counts the whole solve's
simplex iterations, the root LP relaxation's included, which CBC's own "Total iterations"
leaves out (0 on a puzzle model solved at the root); ``nodes`` counts branch-and-bound nodes.
The log's UTF-8 and ASCII phase markers (chosen by the locale) read alike. Only a whole log
counts: CBC killed at the deadline printed lower bounds only (the root LP's iterations, the
branch-and-bound table's node counts so far), which give no counters.

CBC takes no seed: on a puzzle model that branches, neither of CBC's seed options
(``-randomCbcSeed``, Clp's ``-randomSeed``), the clock's seed 0 included, changes the nodes, the
iterations or the solution, so it is declared unseeded and runs with its defaults (a task's
repeats are timing-noise repeats, not other searches)."""

from __future__ import annotations

import re
import subprocess

import pytest

from bench.backends import SolveOptions, get_backend, seeded_solvers
from bench.instance import read_instance
from bench.records import Task
from bench.registry import get_formulation
from bench.run.execute import execute
from tests.backends.test_mip_effort import _lp
from tests.backends.test_mip_time_limit import market_split
from tests.conftest import INSTANCES


@pytest.fixture
def cbc():
    backend = get_backend("cbc")
    if backend.available():
        pytest.skip(backend.available())
    return backend


def test_a_puzzle_model_solved_at_the_root_counts_its_root_lp_iterations(cbc):
    # CBC's log: the root LP relaxation "Iters: 138", then "Enumerated nodes: 0" and
    # "Total iterations: 0" (a heuristic solved the preprocessed model at the root)
    inst = INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt"
    res = execute(Task(str(inst), "mip-flow", "cbc", 60.0))
    assert res.status == "solved", res.message
    assert res.nodes == 0
    assert res.simplex_iterations is not None and res.simplex_iterations > 0


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_an_lp_counts_its_iterations_and_no_nodes_in_either_log_alphabet(cbc, monkeypatch,
                                                                         locale):
    # a model with no integer column is an "LP solve" to CBC, with no branch and cut
    monkeypatch.setenv("LC_ALL", locale)
    outcome = cbc.start(_lp(), SolveOptions()).solve(30.0)
    assert outcome.status == "optimal"
    assert outcome.stats["nodes"] == 0
    assert outcome.stats["simplex_iterations"] > 0


def test_cbc_is_unseeded_and_its_command_names_no_seed(tmp_path):
    cbc = get_backend("cbc")
    assert cbc.seeding.use == "none" and not cbc.seeding.takes
    assert "cbc" not in seeded_solvers()
    lp, sol = tmp_path / "model.lp", tmp_path / "solution.txt"
    commands = [cbc.command(lp, sol, 10.0, SolveOptions(seed=seed)) for seed in (0, 1, 5)]
    assert commands[0] == commands[1] == commands[2]
    assert not {"-randomCbcSeed", "-randomSeed"} & set(commands[0])


#: CBC branches on it: 8 nodes, about 2,700 simplex iterations, in about a second
BRANCHING = ("yinyang", "gen/gen-yinyang-6x6-s2-0.txt", "mip-flow[implied=none]")


def test_no_seed_option_changes_cbcs_search_on_a_model_that_branches(cbc, tmp_path):
    puzzle, name, label = BRANCHING
    model = get_formulation(puzzle, label).build(read_instance(INSTANCES / puzzle / name))
    lp = tmp_path / "model.lp"
    model.model.write(str(lp), io_options={"symbolic_solver_labels": False})
    searches = []
    for seeds in ([], ["-randomCbcSeed", "7"], ["-randomSeed", "7"],
                  ["-randomCbcSeed", "0", "-randomSeed", "0"]):  # 0: seeded from the clock
        sol = tmp_path / f"solution{len(searches)}.txt"
        cmd = cbc.command(lp, sol, 60.0, SolveOptions())
        cmd[cmd.index("-solve"):cmd.index("-solve")] = seeds
        log = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
        searches.append((cbc.effort_of(log), sol.read_text()))
    assert searches[0][0]["nodes"] > 0, searches[0][0]  # it branched
    assert all(s == searches[0] for s in searches), [s[0] for s in searches]


#: a row of CBC's branch-and-bound table: nodes, on tree, depth, ...
NODES_ROW = re.compile(r"^\s+(\d+)\s+\d+\s+\d+\s", re.M)


def _log(cbc, tmp_path, limit: float, kill: float | None) -> str:
    """CBC's log on a market split it cannot finish, given ``limit`` seconds (``-sec``) and
    killed after ``kill`` seconds (None: never, it stops at its own limit)."""
    lp, sol = tmp_path / "model.lp", tmp_path / "solution.txt"
    market_split().model.write(str(lp), io_options={"symbolic_solver_labels": False})
    cmd = cbc.command(lp, sol, limit, SolveOptions())
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=kill or 60).stdout
    except subprocess.TimeoutExpired as e:  # killed (SIGKILL), as the session kills it
        out = e.stdout or b""
        return out.decode(errors="replace") if isinstance(out, bytes) else out


def test_a_log_cut_short_at_the_deadline_gives_no_counters_not_its_lower_bounds(cbc, tmp_path):
    log = _log(cbc, tmp_path, 60.0, kill=1.5)
    assert "Branch and bound" in log and "Total time" not in log, log[-2000:]
    # what the log states so far: the root LP's iterations and the nodes of the table's rows
    root = int(re.findall(r"Iters: (\d+)", log)[0])
    rows = [int(n) for n in NODES_ROW.findall(log.split("Branch and bound", 1)[1])]
    assert root > 0 and rows, log[-2000:]
    assert cbc.effort_of(log) == {}


def test_cbc_stopped_by_its_own_limit_counts_its_whole_search(cbc, tmp_path):
    log = _log(cbc, tmp_path, 1.0, kill=None)
    assert "Stopped on time" in log and "Total time" in log, log[-2000:]
    effort = cbc.effort_of(log)
    nodes = int(re.findall(r"^Enumerated nodes:\s+(\d+)", log, re.M)[0])
    rows = [int(n) for n in NODES_ROW.findall(log.split("Branch and bound", 1)[1])]
    assert effort["nodes"] == nodes > 0 and nodes >= max(rows)
    # the whole search's iterations, far beyond the root LP's
    assert effort["simplex_iterations"] > 10 * int(re.findall(r"Iters: (\d+)", log)[0])
