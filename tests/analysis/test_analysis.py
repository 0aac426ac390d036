"""The analysis modules on a small real run: Shikaku's seed puzzles and a generated 10x10, one
MIP formulation on HiGHS and GLPK and a SAT formulation on CaDiCaL, made by ``puzzlebench run``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench.analysis import mip_solvers, tie_sets
from tests.conftest import INSTANCES, ROOT, SHIKAKU_SEEDS

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("analysis") / "run"
    paths = [*map(str, SHIKAKU_SEEDS), str(INSTANCES / "shikaku" / "gen-shikaku-10x10-s1-0.txt")]
    subprocess.run([sys.executable, "-m", "bench.cli", "run", *paths, "--formulation",
                    "mip-cover", "--formulation", "sat-cover[card=seqcounter]", "--solver",
                    "highs", "--solver", "glpk", "--solver", "cadical195", "--time-limit", "20",
                    "--out", str(out)], check=True, env=ENV, capture_output=True, cwd=ROOT)
    return out


def test_mip_solvers_per_tier_and_pooled(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n_seeds = len(SHIKAKU_SEEDS)
    assert mip_solvers.main([str(run)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == list(mip_solvers.HEADER)
    by_tier = {row.split(" | ")[2]: row for row in lines[2:]}
    assert set(by_tier) == {"seeds", "generated"}  # the tiers the run's instances carry
    seeds = by_tier["seeds"].strip("| ").split(" | ")
    assert seeds[:5] == ["shikaku", "`mip-cover`", "seeds", str(n_seeds), f"{n_seeds}/{n_seeds}"]
    assert seeds[5] == seeds[6] == "–"  # SCIP and CBC did not run
    assert seeds[7].startswith(f"{n_seeds}/{n_seeds}, ") and f" on {n_seeds}, p " in seeds[7]
    assert mip_solvers.main([str(run), "--pooled"]) == 0
    pooled = capsys.readouterr().out.splitlines()[2:]
    assert len(pooled) == 1 and f" | pooled | {n_seeds + 1} | " in pooled[0]
    assert mip_solvers.rows(pd.read_parquet(run / "results.parquet"), ["seeds"]) == [
        by_tier["seeds"]]


def test_tie_sets_same_run_and_a_changed_one(run: Path, tmp_path: Path) -> None:
    same = tie_sets.changes(str(run), str(run))
    assert [c.cell for c in same] == [("shikaku", "generated"), ("shikaku", "pooled"),
                                      ("shikaku", "seeds")]
    assert not any(c.changed for c in same)
    best = same[1].a.best  # type: ignore[union-attr]
    # the other run: the same results without the pooled best pair, so its best is another
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(run / "environment.json", other)
    df = pd.read_parquet(run / "results.parquet")
    keep = df["formulation"] + " / " + df["solver"] != best
    assert 0 < (~keep).sum() < len(df)
    df[keep].to_parquet(other / "results.parquet")
    found = {c.cell: c for c in tie_sets.changes(str(run), str(other))}
    assert found[("shikaku", "pooled")].changed
    assert found[("shikaku", "pooled")].b.best != best  # type: ignore[union-attr]
    assert "CHANGED outside the tie sets" in found[("shikaku", "pooled")].line()


def test_run_as_modules_and_bad_input(run: Path, tmp_path: Path) -> None:
    """``python -m`` runs each; a folder that is not a run is one line naming it, exit 2."""
    ok = subprocess.run([sys.executable, "-m", "bench.analysis.tie_sets", str(run), str(run)],
                        env=ENV, capture_output=True, text=True, cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[-1] == "0 cell(s) changed outside the tie sets, of 3"
    for module in ("tie_sets", "mip_solvers"):
        args = [str(tmp_path / "nope")] * (2 if module == "tie_sets" else 1)
        bad = subprocess.run([sys.executable, "-m", f"bench.analysis.{module}", *args],
                             env=ENV, capture_output=True, text=True, cwd=tmp_path)
        assert bad.returncode == 2
        nope = tmp_path / "nope"
        assert bad.stderr.strip().splitlines() == [f"error: {nope}: no such run folder"]


def test_tie_sets_leaves_out_tasks_that_did_not_run_and_lists_relabelled_pairs(
        run: Path, tmp_path: Path) -> None:
    from bench.records import NOT_RUN

    df = pd.read_parquet(run / "results.parquet")
    pair = df["formulation"] + " / " + df["solver"]
    victim = sorted(set(pair))[0]
    rows = (pair == victim) & (df.index % 2 == 0)
    # one run: those tasks recorded not run (timeouts without a measurement); the other: gone
    marked, gone = tmp_path / "marked", tmp_path / "gone"
    for folder in (marked, gone):
        folder.mkdir()
        shutil.copy(run / "environment.json", folder)
    m = df.copy()
    m.loc[rows, "status"] = "timeout"
    m.loc[rows, "message"] = f"{NOT_RUN} capped: test"
    m.to_parquet(marked / "results.parquet")
    df[~rows].to_parquet(gone / "results.parquet")
    found = tie_sets.changes(str(marked), str(gone))
    assert found and all(not c.relabelled() and not c.changed for c in found)
    # a run without the victim pair: its labels are listed as gone
    (tmp_path / "without").mkdir()
    shutil.copy(run / "environment.json", tmp_path / "without")
    df[pair != victim].to_parquet(tmp_path / "without" / "results.parquet")
    moved = [x for c in tie_sets.changes(str(run), str(tmp_path / "without"))
             for x in c.relabelled()]
    assert moved and all(x.startswith(f"{victim}: ") and x.endswith(" -> –") for x in moved)
