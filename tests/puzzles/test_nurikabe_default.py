"""Nurikabe's declared default is the selector ``robust``: the robust pair (the lowest PAR-2
over the hard tier and the real puzzles) with an escape to ``frontier`` where few clues cover
the grid. In its evidence run, the hard suite, the pairs it picks answer every instance where
the robust pair alone does not; `solve` without a pair answers both kinds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench.instance import read_instance
from bench.puzzles import get_puzzle
from bench.registry import get_formulation
from bench.select.rules import FALLBACK, ROBUST, resolve
from bench.solve import default_choice

ROOT = Path(__file__).resolve().parents[2]
#: the run that chose the robust pair among the pairs of that time
PAIR_EVIDENCE = ROOT / "results/robust-nurikabe-20261127"


def par2(results: pd.DataFrame) -> pd.Series:
    """Mean PAR-2 time per ``formulation / solver`` over the instances (build + solve if solved,
    else twice the time limit), each instance once."""
    t = results.drop_duplicates(["formulation", "solver", "instance_path"])
    time = (t["build_s"] + t["solve_s"]).where(t["status"] == "solved", 2 * t["time_limit"])
    return time.groupby(t["formulation"] + " / " + t["solver"]).mean()


def test_the_selectors_pair_has_the_lowest_par2_of_the_run_that_chose_it():
    results = pd.read_parquet(PAIR_EVIDENCE / "results.parquet")
    results = results[results["puzzle"] == "nurikabe"]
    scores = par2(results)
    assert len(scores) >= 2  # a choice among pairs, not a run of the default alone
    assert scores.idxmin() == FALLBACK["nurikabe"]
    hard = results["instance_path"].str.contains("/big/|/sparse/")
    assert hard.any() and (~hard).any()  # the hard tier and the real puzzles together


def test_in_its_evidence_run_the_picks_answer_every_instance_the_pair_alone_does_not():
    default = get_puzzle("nurikabe").default
    assert default is not None and (default.formulation, default.solver) == ("robust", "robust")
    rows = pd.read_parquet(ROOT / default.evidence / "results.parquet")
    rows["pair"] = rows["formulation"] + " / " + rows["solver"]
    picked, alone = [], []
    for path, g in rows.groupby("instance_path"):
        form, solver, _ = resolve(read_instance(ROOT / str(path)), "robust")
        ok = g.set_index("pair")["status"].eq("solved")
        picked.append(bool(ok[f"{get_formulation('nurikabe', form).label} / {solver}"]))
        alone.append(bool(ok[FALLBACK["nurikabe"]]))
    assert len(picked) == 20 and all(picked)
    assert sum(alone) < len(alone)  # the escape is needed: the pair alone misses some


def test_default_choice_is_the_selector_and_every_pair_it_picks_is_exact():
    assert default_choice("nurikabe") == ("robust", "robust")
    for pair in ROBUST["nurikabe"].pairs():
        form, _ = pair.rsplit(" / ", 1)
        assert get_formulation("nurikabe", form).is_exact(), pair


@pytest.mark.slow
@pytest.mark.parametrize(("name", "pair"), [
    ("big/gen-nurikabe-20x20-s1-big1-0.txt", ("sat-hybrid[", "cadical195")),
    ("two/gen-nurikabe-10x10-s1-clues2-0.txt", ("frontier", "external")),
])
def test_solve_without_a_pair_answers_a_big_island_and_a_two_clue_puzzle(name, pair):
    """`solve` with no pair named runs the selector's pick and says which pair it was: the
    robust pair on big islands, `frontier` on two clues covering most of a 10x10 (which the
    robust pair leaves at a timeout in the evidence run)."""
    path = ROOT / "instances/nurikabe" / name
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(path), "--json",
                        "--time-limit", "60"], capture_output=True, text=True, check=False,
                       cwd=ROOT)
    out = json.loads(p.stdout)
    assert out["status"] == "solved", out.get("message")
    assert out["formulation"].startswith(pair[0]) and out["solver"] == pair[1]
    assert out["auto"]["selector"] == "robust"
