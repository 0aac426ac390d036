"""``run --pin`` (:mod:`bench.run.pin`) with real processes: a pinned process and the children it
starts run on the chosen core only (the kernel's own ``Cpus_allowed_list``); a real run's task
processes each record the core they read back from their own affinity mask, the worker slot's
core among the cores the run may use (a narrowed mask included); ``--jobs`` beyond the usable
cores is refused with one line; results written before the column load."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import INSTANCES, ROOT

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"),
                                reason="CPU affinity is Linux's")
ONE = [str(INSTANCES / "shikaku" / "seed-10x10.txt"), str(INSTANCES / "shikaku" /
       "gen-shikaku-5x5-s1-0.txt"), "--formulation", "cpsat-cover", "--solver", "cpsat"]


def cli(*args: str, cores: set[int] | None = None) -> subprocess.CompletedProcess:
    """The CLI in a fresh process; ``cores``: the affinity mask it starts with (as
    ``taskset`` would set it)."""
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300,
                          preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None)


def test_a_pinned_process_and_its_children_run_on_the_core_alone():
    core = max(os.sched_getaffinity(0))
    code = ("import subprocess; from bench.run.pin import pin_self; "
            f"print(pin_self({core})); "
            "print([x for x in open('/proc/self/status') if x.startswith('Cpus_allowed_list')]"
            "[0].split()[1]); "
            "subprocess.run(['grep', 'Cpus_allowed_list', '/proc/self/status'])")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.split()
    assert lines[0] == str(core) and lines[1] == str(core)  # itself, from the kernel
    assert lines[-1] == str(core)  # a child it started afterwards inherits the mask
    # the control: unpinned, the same process may run on every usable core
    p = subprocess.run([sys.executable, "-c", "from bench.run.pin import pin_self; "
                        "import os; print(pin_self(None), sorted(os.sched_getaffinity(0)))"],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.stdout.split(maxsplit=1) == ["None", f"{sorted(os.sched_getaffinity(0))}\n"]


def test_a_run_with_pin_records_each_task_s_core(tmp_path):
    usable = sorted(os.sched_getaffinity(0))
    chosen = usable[-1]
    # the run starts on a narrowed mask (one core, the last): its one worker slot gets it
    p = cli("run", *ONE, "--pin", "--out", str(tmp_path / "pinned"), cores={chosen})
    assert p.returncode == 0, p.stderr
    env = json.loads((tmp_path / "pinned" / "environment.json").read_text())[-1]
    assert env["pin"] == {"cores": [chosen], "usable": [chosen]}
    res = pd.read_parquet(tmp_path / "pinned" / "results.parquet")
    assert len(res) == 2 and set(res["status"]) == {"solved"}
    assert list(res["pinned_cpu"]) == [chosen, chosen], res["pinned_cpu"]
    # the control: without --pin nothing is pinned or recorded as pinned
    p = cli("run", *ONE, "--out", str(tmp_path / "free"))
    assert p.returncode == 0, p.stderr
    res = pd.read_parquet(tmp_path / "free" / "results.parquet")
    assert res["pinned_cpu"].isna().all()
    assert json.loads((tmp_path / "free" / "environment.json").read_text())[-1]["pin"] is None


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two usable cores")
def test_two_jobs_pinned_run_on_two_cores_spawned_too(tmp_path):
    usable = sorted(os.sched_getaffinity(0))
    p = cli("run", *ONE, "--solver", "cadical195", "--formulation", "sat-cover", "--jobs", "2",
            "--pin", "--start", "spawn", "--out", str(tmp_path / "two"))
    assert p.returncode == 0, p.stderr
    res = pd.read_parquet(tmp_path / "two" / "results.parquet")
    assert set(res["pinned_cpu"]) <= set(usable[:2]) and res["pinned_cpu"].notna().all()
    assert set(res["start"]) == {"spawn"} and len(res) > 2
    env = json.loads((tmp_path / "two" / "environment.json").read_text())[-1]
    assert env["pin"]["cores"] == usable[:2]


def test_more_jobs_than_usable_cores_is_refused_with_one_line(tmp_path):
    n = len(os.sched_getaffinity(0))
    p = cli("run", *ONE, "--pin", "--jobs", str(n + 1), "--out", str(tmp_path / "x"))
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert f"--jobs {n + 1} exceeds the {n} usable cores" in p.stderr
    assert not (tmp_path / "x").exists()


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="needs dask")
def test_a_dask_run_is_not_pinned_and_says_why(tmp_path):
    p = cli("run", *ONE, "--executor", "dask", "--jobs", "1", "--pin", "--dry-run")
    assert p.returncode == 0, p.stderr
    assert "--pin: tasks on a Dask cluster are not pinned" in p.stderr
    from bench.run.pin import pin_record

    assert pin_record(True, 4, "dask") == {"cores": None,
                                          "why": "tasks on a Dask cluster are not pinned"}


def test_results_written_before_the_column_still_load(tmp_path):
    from bench.records import Result
    from bench.report.data import load_run
    from bench.run.storage import Journal, consolidate

    res = Result(key="sha256:00|cpsat-cover|cpsat|seed=0", puzzle="shikaku", instance="x",
                 instance_path="x.txt", rows=5, cols=5, formulation="cpsat-cover",
                 kind="cpsat", solver="cpsat", solver_version="1", status="solved",
                 build_s=0.01, solve_s=0.02, time_limit=5.0)
    Journal(tmp_path).append(res)
    table = consolidate(tmp_path)
    old = pd.read_parquet(table).drop(columns=["pinned_cpu"])
    old.to_parquet(table, index=False)
    os.utime(table)  # newer than the journal: the table is read
    df = load_run(tmp_path).df
    assert "pinned_cpu" in df and df["pinned_cpu"].isna().all() and len(df) == 1
    line = json.loads(Path(Journal(tmp_path).path).read_text().splitlines()[-1])
    del line["pinned_cpu"]
    assert Result.from_dict(line).pinned_cpu is None
