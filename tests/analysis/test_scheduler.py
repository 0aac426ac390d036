"""The scheduler probe measures a known workload: the calibration loop's CPU time as the
process itself counts it, and a competitor of equal weight on the same core takes its share."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from bench.analysis import scheduler
from bench.run.noise import autogroup_enabled, calibrate
from tests.conftest import ROOT

LOOPS = 3_000_000

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux only")


def test_the_workloads_cpu_is_the_loops_cpu():
    core = max(os.sched_getaffinity(0))
    os_before = time.process_time()
    calibrate(LOOPS)
    own = time.process_time() - os_before
    got = scheduler.share(core, LOOPS)
    # the child also starts an interpreter and imports the loop: more CPU, never less
    assert own * 0.8 <= got["cpu_s"] <= own * 1.5 + 0.3, (own, got)
    assert 0 < got["share"] <= 1.05 and got["wall_s"] >= got["cpu_s"] * 0.95


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
    assert [line["condition"] for line in lines[1:]] == list(scheduler.CONDITIONS)
