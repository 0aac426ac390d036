"""CBC's effort counters, on the real CBC: ``simplex_iterations`` counts the whole solve's
simplex iterations, the root LP relaxation's included, which CBC's own "Total iterations"
leaves out (0 on a puzzle model solved at the root); ``nodes`` counts branch-and-bound nodes.
The log's UTF-8 and ASCII phase markers (chosen by the locale) read alike."""

from __future__ import annotations

import pytest

from bench.backends import SolveOptions, get_backend
from bench.records import Task
from bench.run.execute import execute
from tests.backends.test_mip_effort import _lp
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
