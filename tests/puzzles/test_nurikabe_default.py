"""Nurikabe's declared default is the robust pair: the lowest PAR-2 over the hard tier and the
real puzzles in its evidence run, and `solve` without a pair answers a hard puzzle with it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench.puzzles import get_puzzle
from bench.registry import get_formulation
from bench.solve import default_choice

ROOT = Path(__file__).resolve().parents[2]


def par2(results: pd.DataFrame) -> pd.Series:
    """Mean PAR-2 time per ``formulation / solver`` over the instances (build + solve if solved,
    else twice the time limit), each instance once."""
    t = results.drop_duplicates(["formulation", "solver", "instance_path"])
    time = (t["build_s"] + t["solve_s"]).where(t["status"] == "solved", 2 * t["time_limit"])
    return time.groupby(t["formulation"] + " / " + t["solver"]).mean()


def test_the_default_has_the_lowest_par2_of_its_evidence_run():
    default = get_puzzle("nurikabe").default
    results = pd.read_parquet(ROOT / default.evidence / "results.parquet")
    results = results[results["puzzle"] == "nurikabe"]
    scores = par2(results)
    label = get_formulation("nurikabe", default.formulation).label
    assert len(scores) >= 2  # a choice among pairs, not a run of the default alone
    assert scores.idxmin() == f"{label} / {default.solver}"
    hard = results["instance_path"].str.contains("/big/|/sparse/")
    assert hard.any() and (~hard).any()  # the hard tier and the real puzzles together


def test_default_choice_is_an_exact_formulation():
    form, solver = default_choice("nurikabe")
    assert (form, solver) == ("sat-hybrid", "cadical195")
    assert get_formulation("nurikabe", form).is_exact()


@pytest.mark.slow
def test_solve_without_a_pair_answers_a_big_island_puzzle():
    """The big-island 20x20 (seed 1), which the earlier default left at a 20 s timeout in the
    evidence run: `solve` with no pair named runs the default and says which pair it was."""
    path = ROOT / "instances/nurikabe/big/gen-nurikabe-20x20-s1-big1-0.txt"
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(path), "--json",
                        "--time-limit", "60"], capture_output=True, text=True, check=False,
                       cwd=ROOT)
    out = json.loads(p.stdout)
    assert out["status"] == "solved", out.get("message")
    assert out["formulation"].startswith("sat-hybrid[") and out["solver"] == "cadical195"
