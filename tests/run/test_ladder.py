"""The ladder rule, end to end on real runs: a pair that timed out on a generated instance is
not run on the instances after it in its family (larger, or the same size with a later seed);
those tasks are recorded as not-run timeouts (counted unsolved) and a resumed run neither runs
nor repeats them; instances of another family, earlier rungs, or outside a family run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from bench.records import NOT_RUN, Result, Task
from bench.run.ladder import causes, steps
from bench.suites import family
from tests.cli.test_cli import cli
from tests.conftest import INSTANCES, SHIKAKU_SEEDS

SUITE = """[l]
version = 1
description = "ladder rule"
time_limit = 20
ladder_rule = true

[l.tiers.tiny]
time_limit = 0.001
instances = ["shikaku/f/gen-shikaku-10x10-s1-0.txt"]

[l.tiers.rest]
instances = ["shikaku/f/gen-shikaku-14x14-s*.txt", "shikaku/f/gen-shikaku-20x20-s1-0.txt",
             "shikaku/g/gen-shikaku-10x10-s2-0.txt", "shikaku/seed.txt"]
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    src = INSTANCES / "shikaku"
    for folder, names in (("f", ["gen-shikaku-10x10-s1-0", "gen-shikaku-14x14-s1-0",
                                 "gen-shikaku-14x14-s2-0", "gen-shikaku-20x20-s1-0"]),
                          ("g", ["gen-shikaku-10x10-s2-0"])):
        (root / "instances" / "shikaku" / folder).mkdir(parents=True)
        for n in names:
            shutil.copyfile(src / f"{n}.txt", root / "instances" / "shikaku" / folder / f"{n}.txt")
    shutil.copyfile(SHIKAKU_SEEDS[0], root / "instances" / "shikaku" / "seed.txt")
    (root / "instances" / "suites.toml").write_text(SUITE)
    return root


def test_a_pair_that_timed_out_is_recorded_not_run_on_larger_instances_of_its_family(tmp_path):
    root = project(tmp_path)
    out = tmp_path / "out"
    args = ("run", "--suite", "l", "--out", str(out), "--formulation", "cpsat-cover",
            "--solver", "cpsat", "--jobs", "1")
    p = cli(*args, env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode in (0, 1), p.stderr
    df = pd.read_parquet(out / "results.parquet")
    df["where"] = df["instance_path"].map(lambda s: f"{Path(s).parent.name}/{Path(s).stem}")
    got = df.set_index("where")
    assert len(df) == 6
    # the 10x10 of family f ran and timed out under its 1 ms limit
    assert got.at["f/gen-shikaku-10x10-s1-0", "status"] == "timeout"
    assert not got.at["f/gen-shikaku-10x10-s1-0", "message"].startswith(NOT_RUN)
    # its larger instances were not run: timeouts at their own limit, saying why
    for name in ("f/gen-shikaku-14x14-s1-0", "f/gen-shikaku-14x14-s2-0",
                 "f/gen-shikaku-20x20-s1-0"):
        row = got.loc[name]
        assert row["status"] == "timeout" and row["time_limit"] == 20.0, name
        assert row["message"].startswith(f"{NOT_RUN} timed out on gen-shikaku-10x10-s1-0 "
                                         "(10x10, limit 0.001 s)"), row["message"]
        assert pd.isna(row["wall_s"]) and row["tier"] == "rest"
        # recorded where the rule decided it: this machine's type, ranked with the rest
        assert row["cpu"] == got.at["shikaku/seed", "cpu"] and row["cores"] > 0
        assert row["identity"] and row["code"] == got.at["shikaku/seed", "code"]
        assert row["run"] == "out" == got.at["shikaku/seed", "run"]
    # another family's 10x10 and an instance outside any family ran and were solved
    assert got.at["g/gen-shikaku-10x10-s2-0", "status"] == "solved"
    assert got.at["shikaku/seed", "status"] == "solved"
    # a resumed run runs nothing again
    again = cli(*args, env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert again.returncode in (0, 1), again.stderr
    assert len(pd.read_parquet(out / "results.parquet")) == 6


def _task(path: str, rep: int = 0) -> Task:
    return Task(instance=path, formulation="f", solver="s", rep=rep,
                digest=f"d:{Path(path).name}")


def test_steps_follow_each_familys_sizes_and_the_rest_runs_first(tmp_path):
    paths = {n: str(tmp_path / d / f"{n}.txt") for d, n in
             (("a", "gen-x-10x10-s1-0"), ("a", "gen-x-10x10-s2-0"), ("a", "gen-x-20x20-s1-0"),
              ("b", "gen-x-6x6-s1-big1-0"), ("b", "gen-x-8x8-s1-big1-0"), ("c", "real-1"))}
    assert family(paths["gen-x-6x6-s1-big1-0"]) == (str(tmp_path / "b") + "/gen-x-*-big1-0.txt",
                                                    (36, 1))
    assert family(paths["gen-x-10x10-s2-0"]) == (str(tmp_path / "a") + "/gen-x-*-0.txt", (100, 2))
    assert family(paths["real-1"]) is None
    got = [[Path(t.instance).stem for t in s] for s in steps(_task(p) for p in paths.values())]
    assert got == [["gen-x-10x10-s1-0", "gen-x-6x6-s1-big1-0", "real-1"],
                   ["gen-x-10x10-s2-0", "gen-x-8x8-s1-big1-0"],
                   ["gen-x-20x20-s1-0"]]


def test_a_timeout_leaves_out_later_seeds_of_its_size_and_every_larger_size(tmp_path):
    from bench.run.ladder import left_out

    names = ["gen-shikaku-14x14-s1-0", "gen-shikaku-14x14-s2-0", "gen-shikaku-14x14-s3-0",
             "gen-shikaku-20x20-s1-0", "gen-shikaku-10x10-s4-0"]
    for n in names:
        shutil.copyfile(SHIKAKU_SEEDS[0], tmp_path / f"{n}.txt")
    tasks = [_task(str(tmp_path / f"{n}.txt")) for n in names]
    cause = Result(key=tasks[1].key, puzzle="shikaku", instance=names[1],
                   instance_path=f"elsewhere/{names[1]}.txt", rows=14, cols=14,
                   formulation="f", kind="sat", solver="s", solver_version="1",
                   status="timeout", time_limit=3.0)  # placed by its content, not its path
    keep, out = left_out(tasks, [cause], tasks)
    assert sorted(Path(t.instance).stem for t in keep) == sorted(
        [names[0], names[1], names[4]])  # an earlier seed, the cause itself, a smaller size
    why = {r.instance: r.message for r in out}
    assert why[names[2]].endswith("an earlier seed of the same size in its family")
    assert why[names[3]].endswith("a smaller instance of its family")
    assert all(m.startswith(f"{NOT_RUN} timed out on {names[1]} (14x14, limit 3 s)")
               for m in why.values())


def test_only_measured_first_run_timeouts_are_causes(tmp_path):
    def res(name: str, status: str, rep: int = 0, message: str = "") -> Result:
        return Result(key=_task(f"{name}.txt", rep).key, puzzle="x", instance=name,
                      instance_path=f"old/cwd/{name}.txt", rows=1, cols=1,
                      formulation="f", kind="sat", solver="s", solver_version="1",
                      status=status, rep=rep, message=message)  # type: ignore[arg-type]

    names = ["gen-x-10x10-s1", "gen-x-12x12-s1", "gen-x-14x14-s1", "gen-x-20x20-s1",
             "gen-x-12x12-s2"]
    planned = [_task(str(tmp_path / f"{n}.txt")) for n in names]
    fam = str(tmp_path) + "/gen-x-*.txt"
    assert causes([res("gen-x-10x10-s1", "memout"), res("gen-x-12x12-s1", "timeout", rep=1),
                   res("gen-x-14x14-s1", "timeout", message=f"{NOT_RUN} ...")],
                  planned) == {}
    got = causes([res("gen-x-20x20-s1", "timeout"), res("gen-x-12x12-s2", "timeout"),
                  res("gen-x-9x9-s1", "timeout")], planned)  # the 9x9: of no planned content
    assert got[(fam, "f", "s")][0] == (144, 2)


def test_the_dry_run_estimate_leaves_out_what_the_ladder_rule_would(tmp_path):
    from bench.records import instance_digest
    from bench.run.estimate import cost
    from bench.run.plan import Selection, plan_tasks

    names = ["gen-shikaku-10x10-s1-0", "gen-shikaku-14x14-s1-0", "gen-shikaku-20x20-s1-0"]
    for n in names:
        shutil.copyfile(INSTANCES / "shikaku" / f"{n}.txt", tmp_path / f"{n}.txt")
    plan = plan_tasks([str(tmp_path / f"{n}.txt") for n in names],
                      Selection((), ("cpsat-cover", "mip-cover"), ("cpsat", "highs")),
                      time_limit=10, memory_limit_mb=2000)
    # mip-cover / highs unanswered on the 14x14: the 20x20 is left out; cpsat answers all
    known = pd.DataFrame({"content": [instance_digest(tmp_path / f"{n}.txt") for n in names] * 2,
                          "formulation": ["cpsat-cover"] * 3 + ["mip-cover"] * 3,
                          "solver": ["cpsat"] * 3 + ["highs"] * 3,
                          "time_s": [0.1, 0.2, 0.3, 1.0, float("nan"), float("nan")],
                          "answered": [1.0, 1.0, 1.0, 1.0, 0.0, 0.0]})
    off, on = cost(plan, known), cost(plan, known, ladder=True)
    assert off.estimated_s == pytest.approx(0.6 + 1.0 + 20.0) and off.laddered == 0
    assert on.laddered == 1 and on.estimated_s == pytest.approx(0.6 + 1.0 + 10.0)


def test_tasks_recorded_not_run_are_never_reused(tmp_path):
    from bench.run.reuse import Sources

    root = project(tmp_path)
    out = tmp_path / "out"
    p = cli("run", "--suite", "l", "--out", str(out), "--formulation", "cpsat-cover",
            "--solver", "cpsat", "--jobs", "1", env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode in (0, 1), p.stderr
    df = pd.read_parquet(out / "results.parquet")
    not_run = df[df["message"].fillna("").str.startswith(NOT_RUN)]
    assert len(not_run) == 3 and not_run["identity"].astype(bool).all()
    src = Sources.load([out])
    assert not set(not_run["identity"]) & set(src.by_identity)
    assert len(src.by_identity) == len(df) - len(not_run)



def _by_where(folder: Path) -> pd.DataFrame:
    df = pd.read_parquet(folder / "results.parquet")
    df["where"] = df["instance_path"].map(lambda s: f"{Path(s).parent.name}/{Path(s).stem}")
    return df.set_index("where")


def test_reused_results_go_through_the_ladder_rule_and_take_the_plans_tier_and_name(tmp_path):
    """A run without the rule measured the whole family (its larger instances solved); a suite
    run reusing it records them not run, as a run without --reuse does, and a reused result
    takes its tier, instance name and path from this plan (a renamed copy of the suite's file
    measured elsewhere)."""
    root = project(tmp_path)
    f = root / "instances" / "shikaku" / "f"
    renamed = tmp_path / "elsewhere" / "renamed.txt"
    renamed.parent.mkdir()
    shutil.copyfile(root / "instances" / "shikaku" / "seed.txt", renamed)
    common = ("--formulation", "cpsat-cover", "--solver", "cpsat", "--jobs", "1")
    a1 = cli("run", str(f / "gen-shikaku-10x10-s1-0.txt"), "--time-limit", "0.001",
             "--out", str(tmp_path / "a1"), *common, cwd=tmp_path)
    assert a1.returncode in (0, 1), a1.stderr
    a2 = cli("run", *(str(f / f"gen-shikaku-{n}.txt") for n in
                      ("14x14-s1-0", "14x14-s2-0", "20x20-s1-0")), str(renamed),
             "--time-limit", "20", "--out", str(tmp_path / "a2"), *common, cwd=tmp_path)
    assert a2.returncode == 0, a2.stderr
    b = tmp_path / "b"
    p = cli("run", "--suite", "l", "--out", str(b), "--reuse", str(tmp_path / "a1"),
            str(tmp_path / "a2"), *common, env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode in (0, 1), p.stderr
    got = _by_where(b)
    assert len(got) == 6
    for name in ("f/gen-shikaku-14x14-s1-0", "f/gen-shikaku-14x14-s2-0",
                 "f/gen-shikaku-20x20-s1-0"):
        assert str(got.at[name, "message"]).startswith(NOT_RUN), name  # not a2's "solved"
        assert got.at[name, "run"] == "b"
    assert got.at["f/gen-shikaku-10x10-s1-0", "status"] == "timeout"
    assert got.at["f/gen-shikaku-10x10-s1-0", "run"] == "a1"
    assert got.at["f/gen-shikaku-10x10-s1-0", "tier"] == "tiny"
    assert "3 of the reusable results were not taken" in p.stdout, p.stdout
    seed = got.loc["shikaku/seed"]
    assert seed["run"] == "a2" and seed["status"] == "solved"
    assert seed["tier"] == "rest" and seed["instance"] == "seed"
    assert (tmp_path / seed["instance_path"]).resolve() == \
        (root / "instances" / "shikaku" / "seed.txt").resolve()  # the plan's path, cwd-relative
    assert got.at["g/gen-shikaku-10x10-s2-0", "run"] == "b"


def test_a_resume_after_the_suite_dropped_its_ladder_rule_runs_the_not_run_tasks(tmp_path):
    root = project(tmp_path)
    out = tmp_path / "out"
    args = ("run", "--suite", "l", "--out", str(out), "--formulation", "cpsat-cover",
            "--solver", "cpsat", "--jobs", "1")
    p = cli(*args, env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode in (0, 1), p.stderr
    assert _by_where(out)["message"].fillna("").str.startswith(NOT_RUN).sum() == 3
    suites = root / "instances" / "suites.toml"
    suites.write_text(suites.read_text().replace("ladder_rule = true", "ladder_rule = false")
                      .replace("version = 1", "version = 2"))
    p = cli(*args, env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode in (0, 1), p.stderr
    assert "3 results in" in p.stdout and "they run now" in p.stdout, p.stdout
    got = _by_where(out)
    assert len(got) == 6 and not got["message"].fillna("").str.startswith(NOT_RUN).any()
    for name in ("f/gen-shikaku-14x14-s1-0", "f/gen-shikaku-14x14-s2-0",
                 "f/gen-shikaku-20x20-s1-0"):
        assert got.at[name, "status"] == "solved", name
