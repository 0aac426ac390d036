"""The virtual best per puzzle x tier and the ASlib export, on a small real run: Shikaku and
Nurikabe instances, two pairs each, and a GLPK pair whose 0.2 s limit makes the suite's
ladder rule leave two Nurikabe tasks not run. The export is read back with liac-arff (which
reads STRING attributes) and checked against the run's Parquet."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import arff
import pandas as pd
import pytest
import yaml

from bench.records import NOT_RUN
from bench.report import vbs, write_report
from bench.report.data import load_run, prepare
from bench.run.storage import consolidate
from bench.select import features
from tests.conftest import ROOT

FILES = ["shikaku/seed-10x10.txt", "shikaku/gen-shikaku-10x10-s1-0.txt",
         "nurikabe/gen-nurikabe-5x5-s1-0.txt", "nurikabe/gen-nurikabe-10x10-s1-0.txt",
         "nurikabe/gen-nurikabe-14x14-s1-0.txt"]
SUITE = ('[t]\nversion = 1\ndescription = "vbs test"\ntime_limit = 5\nladder_rule = true\n'
         'instances = ["shikaku/*.txt", "nurikabe/*.txt"]\n')


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PUZZLEBENCH_ROOT": str(root), "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                       text=True, env=env, cwd=root, timeout=300)
    assert "Traceback" not in p.stderr, p.stderr
    return p


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(project root, run folder)."""
    root = tmp_path_factory.mktemp("vbs") / "proj"
    for f in FILES:
        (root / "instances" / f).parent.mkdir(parents=True, exist_ok=True)
        (root / "instances" / f).write_text((ROOT / "instances" / f).read_text())
    (root / "instances" / "suites.toml").write_text(SUITE)
    a, b, run = root / "a", root / "b", root / "run"
    _cli(root, "run", "--suite", "t", "--out", str(a), "--formulation", "cpsat-cover",
         "--formulation", "sat-cover[card=seqcounter]", "--formulation",
         "sat-lazy[islands=lazy,wall=count]", "--formulation", "cpsat-tree",
         "--solver", "cpsat", "--solver", "cadical195")
    _cli(root, "run", "--suite", "t", "--out", str(b), "--formulation", "mip-flow",
         "--solver", "glpk", "--time-limit", "0.01")  # build alone exceeds it: a timeout
    run.mkdir()
    (run / "journal.jsonl").write_text((a / "journal.jsonl").read_text()
                                       + (b / "journal.jsonl").read_text())
    (run / "environment.json").write_text((a / "environment.json").read_text())
    consolidate(run)
    return root, run


def test_the_run_has_what_the_tests_need(project: tuple[Path, Path]) -> None:
    df = pd.read_parquet(project[1] / "results.parquet")
    assert df["message"].fillna("").str.startswith(NOT_RUN).sum() == 2
    assert set(df["puzzle"]) == {"shikaku", "nurikabe"}
    assert df.groupby("puzzle")["formulation"].nunique().min() >= 2


def test_virtual_best_is_the_least_par2_among_the_pairs_that_ran(
        project: tuple[Path, Path]) -> None:
    df = pd.read_parquet(project[1] / "results.parquet")
    t = prepare(load_run(project[1]).df)
    nk = t[t["puzzle"] == "nurikabe"]
    s = vbs.summary(nk).set_index("tier")
    # computed here from the raw columns: build + solve where answered, else 2 x the limit
    raw = df[(df["puzzle"] == "nurikabe")
             & ~df["message"].fillna("").str.startswith(NOT_RUN)].copy()
    raw["p"] = (raw["build_s"].fillna(0) + raw["solve_s"].fillna(0)).where(
        raw["status"].isin(["solved", "infeasible"]), 2 * raw["time_limit"])
    best = raw.groupby("instance")["p"].min()
    assert s.loc["generated", "instances"] == 3
    assert s.loc["generated", "vbs_par2_s"] == pytest.approx(best.sum())
    assert s.loc["generated", "vbs_solved"] == 3
    assert s.loc["generated", "par2_gap"] >= 1 and s.loc["generated", "sgm_gap"] >= 1
    # the single best ran every instance: never the GLPK pair that was not run on two
    assert "glpk" not in s.loc["generated", "single_best"]
    sbs = raw[raw["formulation"] + " / " + raw["solver"] == s.loc["generated", "single_best"]]
    assert s.loc["generated", "sbs_par2_s"] == pytest.approx(sbs["p"].sum())
    c = vbs.contributions(nk).set_index("pair")
    glpk = c.loc["mip-flow / glpk"]
    # not run is missing data: the GLPK pair ran one instance (its timeout), not three
    assert glpk["ran"] == 1 and glpk["solved"] == 0 and glpk["unique"] == 0
    assert glpk["par2_added_s"] == 0
    # what each pair adds: the rise of the VBS's PAR-2 sum without it, computed here too
    for pair, row in c.iterrows():
        key = raw["formulation"] + " / " + raw["solver"]
        without = raw[key != pair].groupby("instance")["p"].min()
        assert row["par2_added_s"] == pytest.approx((without - best).sum(), abs=1e-9)
    # the fastest pair per instance is counted once per instance it was fastest on
    assert c["fastest"].sum() >= 3


def test_unique_solves_count_instances_only_one_pair_answered(
        project: tuple[Path, Path]) -> None:
    t = prepare(load_run(project[1]).df)
    nk = t[t["puzzle"] == "nurikabe"]
    # keep one pair's answers and turn the others' into timeouts on one instance
    inst = "gen-nurikabe-10x10-s1-0"
    keep = "cpsat-tree / cpsat"
    lost = (nk["instance"] == inst) & (nk["pair"] != keep)
    nk = nk.assign(ok=nk["ok"] & ~lost,
                   par2_s=nk["par2_s"].where(~lost, 2 * nk["time_limit"]))
    c = vbs.contributions(nk).set_index("pair")
    assert c.loc[keep, "unique"] == 1
    assert (c.drop(index=keep)["unique"] == 0).all()
    assert c.loc[keep, "par2_added_s"] > 0


def test_the_report_shows_the_virtual_best(project: tuple[Path, Path],
                                           tmp_path: Path) -> None:
    out = write_report(project[1], tmp_path / "rep")
    md = (out / "summary.md").read_text()
    assert "virtual best" in md and "marginal contribution" in md
    assert "par2_gap" in md and "unique" in md
    assert "marginal contribution to the virtual best" in (out / "index.html").read_text()


def test_aslib_export_reads_back_and_matches_the_parquet(project: tuple[Path, Path]) -> None:
    root, run = project
    p = _cli(root, "aslib", str(run), "--out", str(root / "aslib"))
    assert p.returncode == 0, p.stderr
    df = pd.read_parquet(run / "results.parquet")
    df["pair"] = df["formulation"] + " / " + df["solver"]
    folders = sorted((root / "aslib").iterdir())
    assert [f.name for f in folders] == sorted(
        {f"{p}-{t}" for p, t in zip(df["puzzle"], df["tier"].replace("", "generated")
                                    .where(~df["instance"].str.startswith("seed-"), "seeds"),
                                    strict=True)})
    for folder in folders:
        puzzle = folder.name.split("-")[0]
        desc = yaml.safe_load((folder / "description.txt").read_text())
        runs = arff.load((folder / "algorithm_runs.arff").open())
        vals = arff.load((folder / "feature_values.arff").open())
        stat = arff.load((folder / "feature_runstatus.arff").open())
        assert [a[0] for a in runs["attributes"]][:5] == [
            "instance_id", "repetition", "algorithm", "runtime", "runstatus"]
        assert runs["attributes"][0][1] == "STRING"
        got = pd.DataFrame(runs["data"], columns=[a[0] for a in runs["attributes"]])
        mine = df[(df["puzzle"] == puzzle) & df["instance"].isin(set(got["instance_id"]))]
        assert len(got) == len(mine)
        assert desc["algorithm_cutoff_time"] == pytest.approx(mine["time_limit"].max())
        assert sorted(desc["algorithms_deterministic"]) == sorted(set(mine["pair"]))
        for (inst, pair), g in mine.groupby(["instance", "pair"]):
            lines = got[(got["instance_id"] == inst) & (got["algorithm"] == pair)]
            assert sorted(lines["repetition"]) == list(range(1, len(g) + 1))
            solved = g[g["status"] == "solved"]
            assert sorted(lines.loc[lines["runstatus"] == "ok", "runtime"]) == pytest.approx(
                sorted(solved["build_s"] + solved["solve_s"]))
            notrun = g["message"].fillna("").str.startswith(NOT_RUN)
            assert (lines["runtime"].isna()).sum() == notrun.sum()
            if notrun.any():
                assert set(lines.loc[lines["runtime"].isna(), "runstatus"]) == {"other"}
            if (g["status"] == "timeout").any() and not notrun.all():
                timed = lines.loc[lines["runstatus"] == "timeout", "runtime"]
                assert len(timed) and (timed == g["time_limit"].max()).all()
        fv = pd.DataFrame(vals["data"], columns=[a[0] for a in vals["attributes"]])
        assert [a[0] for a in vals["attributes"]][2:] == list(features.NAMES)
        assert set(fv["instance_id"]) == set(got["instance_id"])
        assert {s[2] for s in stat["data"]} == {"ok"}
        for _, row in fv.iterrows():
            path = mine.loc[mine["instance"] == row["instance_id"], "instance_path"].iloc[0]
            want = features.of_file(root / path)
            assert [row[n] for n in features.NAMES] == pytest.approx(
                [want[n] for n in features.NAMES])
            assert row["cells"] == row["rows"] * row["cols"]


def test_features_of_real_instances() -> None:
    sk = features.of_file(ROOT / "instances/shikaku/gen-shikaku-10x10-s1-0.txt")
    assert sk["cells"] == 100 and sk["marks"] == 0
    assert sk["number_cover"] == 1.0  # Shikaku's rectangles cover the grid exactly
    nk = features.of_file(ROOT / "instances/nurikabe/gen-nurikabe-5x5-s1-0.txt")
    assert nk["clues"] == 5 and nk["number_max"] == 5 and nk["ones_share"] == pytest.approx(0.2)
    ss = features.of_file(ROOT / "instances/shakashaka/seed-p01.txt")
    assert ss["marks"] > 0 and 0 < ss["mark_share"] < 1
    assert not math.isnan(ss["border_share"])


def test_aslib_on_bad_input_is_one_line(tmp_path: Path) -> None:
    p = _cli(tmp_path, "aslib", str(tmp_path / "nothing"), "--out", str(tmp_path / "x"))
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "nothing" in p.stderr
    (tmp_path / "empty").mkdir()
    p = _cli(tmp_path, "aslib", str(tmp_path / "empty"), "--out", str(tmp_path / "x"))
    assert p.returncode == 2 and p.stderr.strip().count("\n") == 0


def test_auto_learned_on_generated_and_judged_on_seeds(project: tuple[Path, Path],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.select import learn

    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(project[0]))
    out = learn.held_back(project[1], generated=("generated",), real="seeds")
    judged = {(j.puzzle, j.tier): (r, j) for r, j in out}
    rule, j = judged["shikaku", "seeds"]
    assert j.instances == 1 and j.missing == 0
    assert j.vbs_par2_s <= j.auto_par2_s and j.vbs_par2_s <= j.sbs_par2_s
    assert j.auto_solved == j.vbs_solved == 1
    # never an inexact pair, never the peer: every pair named ran every training instance
    assert {rule.low, rule.high} <= set(prepare(load_run(project[1]).df)["pair"])
