"""The machine's state during a run (bench/run/environment.py): other processes' CPU share
measured with a real CPU hog running outside this process tree, and which samples mark a run
disturbed. The machine may be busy with other work while these run: every assertion holds on a
busy machine too (a hog can only add to what the sampler sees)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.run.noise import CpuShare, Monitor, disturbance, speed
from bench.run.session import Outcome

HOG = "import time\nend = time.time() + 30\nwhile time.time() < end: pass"


@pytest.fixture
def hogs():
    """One busy Python process per core, started by a shell that exits at once: they are
    nobody's children here (outside this process tree, as another user's jobs would be)."""
    cores = os.cpu_count() or 1
    # the hogs' output goes to /dev/null: a hog holding the captured pipe would keep
    # subprocess.run waiting until it ended
    line = " ".join(f"{sys.executable} -c '{HOG}' >/dev/null 2>&1 & echo $!;"
                    for _ in range(cores))
    pids = [int(x) for x in subprocess.run(["sh", "-c", line], capture_output=True, text=True,
                                           check=True).stdout.split()]
    yield pids
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_the_sampler_sees_a_cpu_hog_outside_the_run_as_other_processes_share(hogs):
    share = CpuShare()
    time.sleep(2.0)
    # every core busy with the hogs (and whatever else runs): the idle time is near nothing,
    # and none of it is this process tree's, which sleeps
    assert share.share() > 0.8
    monitor = Monitor(every=0.5).start()
    time.sleep(1.2)
    samples = monitor.stop()
    assert len(samples) >= 3
    assert max(s["others_cpu"] for s in samples[1:]) > 0.8
    assert "other processes took up to" in "; ".join(disturbance({"samples": samples,
                                                                  "jobs": 1}))


def test_this_process_trees_own_cpu_is_not_others_share():
    """A busy loop in this process is the run's own work, not another process's: the share
    left to others is at most what this process did not use of the machine."""
    share = CpuShare()
    t0, c0 = time.monotonic(), time.process_time()
    while time.process_time() - c0 < 0.5:
        pass
    own = (time.process_time() - c0) / ((time.monotonic() - t0) * (os.cpu_count() or 1))
    assert share.share() <= 1 - own + 0.05


def test_disturbance_names_each_reason_and_a_quiet_record_none():
    quiet = {"calibration": {"start_s": 0.064, "end_s": 0.066}, "jobs": 2,
             "samples": [{"calibration_s": 0.065, "load1": 2.4, "others_cpu": 0.05}]}
    assert disturbance(quiet) == [] and speed(quiet) == 0.064
    busy = {"calibration": {"start_s": 0.064, "end_s": 0.142}, "jobs": 1,
            "samples": [{"calibration_s": 0.07, "load1": 5.5, "others_cpu": 0.6}]}
    assert disturbance(busy) == [
        "the calibration loop took up to 0.142 s, 2.2x its 0.064 s at the start",
        "the load average reached 5.5 with 1 job",
        "other processes took up to 60% of the CPU"]
    assert disturbance({}) == [] and speed({}) is None


def test_a_run_filling_every_core_is_not_disturbed_by_its_own_tasks():
    # the samples of a quiet jobs-2 run on 2 cores (its committed environment.json): the loop
    # during the run shares a core with the run's tasks (1.7-2.2x slower), the machine is quiet
    # by the load and the others' share; the start and end agree
    own = {"calibration": {"start_s": 0.0515, "end_s": 0.0543}, "jobs": 2, "cores": 2,
           "samples": [{"calibration_s": 0.1123, "load1": 2.28, "others_cpu": 0.016},
                       {"calibration_s": 0.0906, "load1": 2.1, "others_cpu": 0.065}]}
    assert disturbance(own) == []
    # the same samples with a core to spare: the slow loop is the machine's, and it is said
    assert disturbance({**own, "cores": 4}) == [
        "the calibration loop took up to 0.112 s, 2.2x its 0.051 s at the start"]
    # a run that fills every core still sees a slow end and a busy machine
    slow_end = {**own, "calibration": {"start_s": 0.0515, "end_s": 0.09}}
    assert disturbance(slow_end) == [
        "the calibration loop took up to 0.090 s, 1.7x its 0.051 s at the start"]


def test_more_jobs_than_cores_is_said_to_be_oversubscribed():
    # a quiet machine by every sample: the load is the run's own 99 jobs, the loop is left out
    # where the jobs fill every core; only the jobs against the cores can show it
    quiet = {"calibration": {"start_s": 0.0515, "end_s": 0.0543}, "jobs": 99, "cores": 2,
             "samples": [{"calibration_s": 0.31, "load1": 60.0, "others_cpu": 0.01}]}
    assert disturbance(quiet) == ["the run was oversubscribed with 99 jobs on 2 cores, so its "
                                  "task times include waiting for a core"]
    # as many jobs as cores is not; nor a Dask run whose workers are elsewhere (its jobs are
    # not this machine's)
    assert disturbance({**quiet, "jobs": 2, "samples": []}) == []
    assert disturbance({**quiet, "scheduler": "tcp://head:8786"}) == []
    assert disturbance({**quiet, "cores": "?", "samples": []}) == []  # cores unknown
    # the run's own warning blames the run, not other load on the machine
    line = Outcome(Path("out"), disturbed=disturbance(quiet)).disturbed_line()
    assert line.startswith("warning: this run was disturbed (the run was oversubscribed with "
                           "99 jobs on 2 cores"), line
    assert "busy" not in line


def test_damaged_samples_are_read_as_none():
    for samples in (7, "x", {"load1": 9}, [None, 3, {"load1": "high", "others_cpu": None}]):
        env = {"calibration": {"start_s": "?"}, "samples": samples, "jobs": "two"}
        assert disturbance(env) == [] and speed(env) is None


def test_the_autogroup_switch_is_read_and_recorded(tmp_path, monkeypatch):
    from bench.run import noise
    from bench.run.environment import environment

    switch = tmp_path / "sched_autogroup_enabled"
    monkeypatch.setattr(noise, "AUTOGROUP_SWITCH", switch)
    assert noise.autogroup_enabled() is None  # no such file: not Linux, or no autogroup
    for text, expected in (("1\n", True), ("0\n", False)):
        switch.write_text(text)
        assert noise.autogroup_enabled() is expected
        assert environment()["sched_autogroup"] is expected
