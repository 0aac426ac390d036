"""Runs on a Dask cluster, with nothing lost and nothing mixed up. Real clusters
only: a ``LocalCluster`` the run starts (``--executor dask``) and a standing one started here
with the ``dask scheduler`` / ``dask worker`` commands (``--scheduler``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest

from tests.conftest import ROOT, plugin_package

pytest.importorskip("distributed", reason="the dask extra is not installed")

#: 2 Shikaku and 3 Nurikabe seeds x every variant of a SAT and a CP-SAT formulation each
INSTANCES = [str(ROOT / "instances" / "shikaku" / f"seed-{s}.txt") for s in ("10x10", "36x20")] \
    + [str(ROOT / "instances" / "nurikabe" / f"seed-p0{i}.txt") for i in (1, 2, 3)]
SELECT = ["--formulation", "sat-cover", "--formulation", "cpsat-cover", "--formulation",
          "sat-lazy", "--formulation", "cpsat-lazy", "--solver", "cadical195", "--solver",
          "cpsat"]

#: a formulation that SIGKILLs the Dask worker running it (the first ancestor that is not a
#: puzzlebench task or template process): always, or only the first time (KILL_ONCE marker)
KILLER = '''
import os, signal, time
from pathlib import Path
import psutil
from bench.registry import formulation
from formulations.shikaku.sat_cover import SatCover


@formulation
class SatKiller(SatCover):
    name = "sat-killer"

    def build(self, inst):
        once = os.environ.get("KILL_ONCE")
        if once is None or not Path(once).exists():
            if once:
                Path(once).write_text("killed")
            p = psutil.Process()
            while any("bench." in part for part in p.cmdline()):
                p = p.parent()
            os.kill(p.pid, signal.SIGKILL)
            time.sleep(60)
        return super().build(inst)
'''


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return plugin_package(tmp_path_factory.mktemp("killer"), "killer-pkg", "0.1",
                          {"sat_killer": KILLER},
                          {"shikaku.sat.sat-killer": "killer_pkg.sat_killer"})


def run(env: dict[str, str], out: Path, *args: str, instances: list[str] = INSTANCES
        ) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", *instances, "--out", str(out),
                        "--time-limit", "30", *args], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=300)
    assert "Traceback" not in p.stderr, p.stderr
    return p


def journal(out: Path) -> list[dict]:
    return [json.loads(ln) for ln in (out / "journal.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def local_run(env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local") / "run"
    assert run(env, out, *SELECT).returncode == 0
    return out


def test_a_local_cluster_run_gives_what_a_local_run_gives(env, local_run, tmp_path):
    out = tmp_path / "run"
    p = run(env, out, *SELECT, "--executor", "dask")  # no --jobs: one worker per core
    assert p.returncode == 0, p.stderr
    here, there = journal(local_run), journal(out)
    assert len(there) == len(here) > 20
    assert outcome(out) == outcome(local_run)  # the same statuses and grids
    assert all(r["host"] and r["start"] == "fork" for r in there)
    env_rec = json.loads((out / "environment.json").read_text())[-1]
    assert env_rec["executor"] == "dask"
    workers = env_rec["workers"]
    assert len(workers) == (os.cpu_count() or 1)
    assert all(w["cpu"] and w["cores"] for w in workers.values())
    df = pd.read_parquet(out / "results.parquet")
    assert len(df) == len(here) and set(df["host"]) == {r["host"] for r in there}


def test_a_run_resumes_across_executors_each_task_once(env, local_run, tmp_path):
    out = tmp_path / "run"
    assert run(env, out, *SELECT[:4], *SELECT[-4:], instances=INSTANCES[:2]).returncode == 0
    first = journal(out)
    assert 0 < len(first) < len(journal(local_run))
    assert run(env, out, *SELECT, "--executor", "dask", "--jobs", "2").returncode == 0
    both = journal(out)
    assert both[:len(first)] == first  # untouched
    keys = [r["key"] for r in both]
    assert len(keys) == len(set(keys)) == len(journal(local_run))


def test_a_worker_lost_mid_task_reruns_it_elsewhere_counted_once(env, tmp_path):
    out = tmp_path / "run"
    mark = tmp_path / "killed-once"
    p = run({**env, "KILL_ONCE": str(mark)}, out, "--formulation", "sat-killer[card=seqcounter]",
            "--solver", "cadical195", "--executor", "dask", "--jobs", "2",
            instances=INSTANCES[:1])
    assert p.returncode == 0, p.stderr
    assert mark.read_text() == "killed"  # the first attempt took its worker down
    rows = journal(out)
    assert len(rows) == 1 and rows[0]["status"] == "solved"


def test_a_task_that_kills_its_worker_twice_is_an_error_with_the_reason(env, tmp_path):
    out = tmp_path / "run"
    p = run(env, out, "--formulation", "sat-killer[card=seqcounter]", "--formulation",
            "sat-cover[card=seqcounter]", "--solver",
            "cadical195", "--executor", "dask", "--jobs", "2", instances=INSTANCES[:1])
    assert p.returncode == 1, p.stderr  # a run with an error result exits 1
    rows = {r["formulation"]: r for r in journal(out)}
    killer, cover = rows["sat-killer[card=seqcounter]"], rows["sat-cover[card=seqcounter]"]
    assert killer["status"] == "error" and "took its Dask worker down" in killer["message"]
    assert cover["status"] == "solved"  # the run went on


def start_standing_cluster(env: dict[str, str], tmp_path: Path, workers: int
                           ) -> tuple[str, list[subprocess.Popen[bytes]]]:
    """``dask scheduler`` and ``dask worker --nthreads 1 --nworkers N`` started by hand on
    127.0.0.1 (free ports), as the README says; returns the address and the processes."""
    sched_file = tmp_path / "scheduler.json"
    procs = [subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", "0", "--no-dashboard", "--scheduler-file", str(sched_file)], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
    deadline = time.monotonic() + 60
    while not sched_file.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    address = json.loads(sched_file.read_text())["address"]
    procs.append(subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
         "--nworkers", str(workers), "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True))
    return address, procs


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def gone(proc: psutil.Process, timeout: float = 10) -> bool:
    """The process died (a zombie its parent has not reaped yet counts)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def outcome(out: Path) -> dict[str, tuple[str, object]]:
    """Per task key: its status and grid."""
    return {r["key"]: (r["status"], r.get("grid")) for r in journal(out)}


def test_a_sweep_on_a_standing_cluster_with_a_worker_killed_mid_run(tmp_path):
    """The sweep suite's Shikaku puzzles (every SAT variant, CaDiCaL: over 100 tasks) on a
    standing cluster of two workers, one of which is SIGKILLed from outside once results come
    in: the run finishes with every task exactly once, and the same statuses and grids as a
    local run of the same selection."""
    # without the module's killer plugin: the suite selects every SAT variant
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")])}
    select = ["--suite", "sweep", "--puzzle", "shikaku", "--solver", "cadical195"]
    here = tmp_path / "local"
    assert run(env, here, *select, instances=[]).returncode == 0
    address, procs = start_standing_cluster(env, tmp_path, workers=2)
    try:
        out = tmp_path / "cluster"
        cmd = [sys.executable, "-m", "bench.cli", "run", *select, "--out", str(out),
               "--time-limit", "30", "--executor", "dask", "--scheduler", address]
        client = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        lines = out / "journal.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (
                lines.exists() and len(lines.read_text().splitlines()) >= 5):
            time.sleep(0.05)
        nannies = psutil.Process(procs[1].pid).children()
        victims = [w for n in nannies for w in n.children() if "bench." not in
                   " ".join(w.cmdline())]
        assert victims, "no worker process found"
        assert client.poll() is None, "the run ended before a worker could be killed"
        victims[0].send_signal(signal.SIGKILL)
        assert gone(victims[0])  # dead (its nanny starts a new one)
        done_at_kill = len(lines.read_text().splitlines())
        _, err = client.communicate(timeout=300)
        assert client.returncode == 0, err
        assert "Traceback" not in err, err
        there = journal(out)
        assert len(there) == len({r["key"] for r in there}) == len(journal(here)) > 50
        assert outcome(out) == outcome(here)
        assert done_at_kill < len(there)  # the kill came mid-run
        env_rec = json.loads((out / "environment.json").read_text())[-1]
        assert env_rec["scheduler"] == address
    finally:
        stop(procs)


def test_scheduler_without_dask_executor_is_a_one_line_error(env, tmp_path):
    p = run(env, tmp_path / "run", *SELECT, "--scheduler", "tcp://127.0.0.1:1")
    assert p.returncode == 2
    assert p.stderr.strip() == "puzzlebench: --scheduler needs --executor dask"


def test_ctrl_c_cancels_what_is_left_and_keeps_the_journal(env, tmp_path):
    """SIGINT while slow tasks run on the cluster: exit 130, every journal line whole and
    once; the same command then finishes the rest."""
    slow = str(ROOT / "instances" / "nurikabe" / "gen-nurikabe-28x28-s1-0.txt")
    args = [sys.executable, "-m", "bench.cli", "run", *INSTANCES[:2], slow, "--out",
            str(tmp_path / "run"), "--time-limit", "3", "--formulation",
            "sat-cover[card=seqcounter]", "--formulation", "mip-seed[root=model]",
            "--solver", "cadical195", "--solver", "glpk", "--executor", "dask", "--jobs", "2"]
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    # a session of its own, signalled as a whole: a terminal's Ctrl-C reaches every process
    # of the foreground group, the local cluster's too
    proc = subprocess.Popen(args, env={**env, "TMPDIR": str(scratch)}, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    journal_file = tmp_path / "run" / "journal.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (
            journal_file.exists() and len(journal_file.read_text().splitlines()) >= 2):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted (SIGINT)" in err and "to resume" in err, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert (tmp_path / "run" / "results.parquet").exists()
    assert not list(scratch.glob("dask-scratch-space*")), list(scratch.iterdir())
    first = journal(tmp_path / "run")
    keys = [r["key"] for r in first]
    assert 2 <= len(keys) == len(set(keys))
    done = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    rows = journal(tmp_path / "run")
    assert rows[:len(first)] == first
    assert len({r["key"] for r in rows}) == len(rows) > len(first)


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGQUIT])
def test_a_hangup_or_quit_of_the_group_stops_a_dask_run_quietly(env, tmp_path, signum):
    """SIGHUP (a closed terminal) or SIGQUIT (Ctrl-\\) sent to the whole process group while
    tasks run on a local cluster: the harness stops the run (128 + the signal), and no process
    the cluster started dies noisily (a traceback, a core dump)."""
    slow = str(ROOT / "instances" / "nurikabe" / "gen-nurikabe-28x28-s1-0.txt")
    out = tmp_path / "run"
    args = [sys.executable, "-m", "bench.cli", "run", INSTANCES[0], slow, "--out", str(out),
            "--time-limit", "3", "--formulation", "sat-cover[card=seqcounter]",
            "--formulation", "mip-seed[root=model]", "--solver", "cadical195", "--solver",
            "glpk", "--executor", "dask", "--jobs", "1"]
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out / "journal.jsonl").exists():
        time.sleep(0.2)
    os.killpg(proc.pid, signum)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, err
    assert f"terminated ({signal.Signals(signum).name})" in err, err
    assert "Traceback" not in err and "died unexpectedly" not in err, err
