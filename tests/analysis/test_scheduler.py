"""The scheduler probe measures a known workload: four times the loop takes more CPU than
once, the CPU is the workload's (not more than its wall time), a competitor of equal weight on
the same core takes its share, and a probe killed midway leaves no busy loop behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from bench.analysis import scheduler
from bench.run.noise import autogroup_enabled
from tests.conftest import ROOT

LOOPS = 3_000_000

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux only")


def test_the_workloads_cpu_grows_with_its_loop_and_is_within_its_wall_time():
    core = max(os.sched_getaffinity(0))
    once, four = scheduler.share(core, LOOPS), scheduler.share(core, 4 * LOOPS)
    # the CPU time of one loop varies (up to 1.8x on a shared virtual machine), not 4x
    assert four["cpu_s"] > once["cpu_s"], (once, four)
    for got in (once, four):
        assert 0 < got["share"] <= 1.05 and got["wall_s"] >= got["cpu_s"] * 0.95, got


def test_an_equal_competitor_on_the_core_takes_its_share():
    core = max(os.sched_getaffinity(0))
    got = scheduler.measure("nice 0", core, LOOPS)
    # one busy loop of equal weight on the same core: about half, less if more work is there
    assert got["share"] < 0.75, got


def test_the_command_prints_one_line_per_condition_and_the_switch():
    done = subprocess.run([sys.executable, "-m", "bench.analysis.scheduler", "--loops", "200000",
                           "--rounds", "1"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0] == {"sched_autogroup": autogroup_enabled()}
    assert [line["condition"] for line in lines[1:]] == scheduler.conditions()


def test_a_probe_killed_midway_leaves_no_busy_loop():
    probe = subprocess.Popen([sys.executable, "-m", "bench.analysis.scheduler", "--loops",
                              "30000000", "--rounds", "1"], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True)
    assert probe.stdout is not None
    for _ in range(2):  # the switch, then "alone": the competitor of "nice 0" starts next
        probe.stdout.readline()
    deadline = time.monotonic() + 60
    hogs: list[psutil.Process] = []
    while not hogs and time.monotonic() < deadline:
        hogs = [p for p in psutil.Process(probe.pid).children() if "ready" in " ".join(
            p.cmdline())]
        time.sleep(0.05)
    assert hogs, "no competitor started"
    work = [p for p in psutil.Process(probe.pid).children() if p not in hogs]
    probe.send_signal(signal.SIGKILL)
    probe.wait()
    for p in work:  # the workload ends by itself; not left to run here
        p.kill()
    _, alive = psutil.wait_procs(hogs, timeout=10)
    for p in alive:
        p.kill()
    assert not alive, "the busy loop outlived its probe"
