"""The time limit means the same for every solver. Build + solve past the
limit is a timeout whatever the solver returned (times kept); the harness kills a task at most
GRACE_S past its limit, which runs from the start of the build; a solver child that left the
task's process group dies with the task."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from bench.records import Limits, Task
from bench.run.execute import execute
from bench.run.measure import run_measured
from bench.run.pool import GRACE_S, Templates, run_task
from tests.conftest import ROOT, SHIKAKU_SEEDS

BIG = str(ROOT / "instances" / "nurikabe" / "gen-nurikabe-28x28-s1-0.txt")


def test_build_and_solve_past_the_limit_is_a_timeout_with_its_times_kept():
    # 1 microsecond: whatever the solver returns, the task took longer than its limit
    res = execute(Task(str(SHIKAKU_SEEDS[0]), "sat-cover[card=seqcounter]", "minisat22",
                       time_limit=1e-6))
    assert res.status == "timeout", res
    assert "past the 1e-06 s limit" in res.message
    assert res.build_s and res.build_s > 0 and res.solve_s is not None
    assert res.grid is None and res.checked is None


@pytest.mark.parametrize(("formulation", "solver"), [
    ("sat-tree", "cadical195"), ("mip-flow", "glpk"), ("mip-flow", "highs"),
    ("cpsat-islands", "cpsat"),
])
def test_no_task_runs_more_than_the_grace_past_its_limit(formulation, solver):
    with Templates() as templates:
        res = run_task(Task(BIG, formulation, solver, time_limit=1.0), templates=templates)
    assert res.status in ("timeout", "solved"), res.message
    assert res.overshoot_s is not None
    # the kill comes at the first 10 ms poll past deadline + GRACE_S; slack for a loaded host
    assert res.overshoot_s < GRACE_S + 0.25, (res.status, res.message, res.overshoot_s)
    if res.status == "solved":
        assert (res.build_s or 0) + (res.solve_s or 0) <= 1.0


ESCAPE = """
import subprocess, sys, time
p = subprocess.Popen(["sleep", "300"], start_new_session=True)
print(p.pid, flush=True)
time.sleep(0.3)
"""


def test_a_child_in_its_own_session_dies_with_the_task(tmp_path):
    out = tmp_path / "out.txt"

    m = run_measured([sys.executable, "-c", ESCAPE.replace("print(p.pid, flush=True)",
                      f"open({str(out)!r}, 'w').write(str(p.pid))")],
                     Limits(30, 4096))
    assert m.returncode == 0
    pid = int(out.read_text())
    time.sleep(0.1)
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True,
                           text=True).stdout.strip()
    assert state == "" or state.startswith("Z"), f"sleep {pid} survived its task: {state}"


HOG = """
from bench.run.task import limit_memory
limit_memory(50)
hoard = []
try:
    while True:
        hoard.append(bytearray(4 * 2**20))  # 4 MB, touched
except MemoryError:
    print(len(hoard))
"""


def test_the_kernel_refuses_allocations_past_the_memory_limit():
    # sampling every 10 ms let a fast hog reach 50-78 MB past a 50 MB limit; RLIMIT_DATA
    # stops it at the allocation that crosses the limit
    m = run_measured([sys.executable, "-c", HOG], Limits(30, 4096),
                     env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert m.returncode == 0
    # within 2 MB: file pages mapped after the limit was set (lazily loaded code)
    assert m.peak_tree_rss_mb <= 52 and m.hwm_mb <= 52, (m.peak_tree_rss_mb, m.hwm_mb)


def test_an_allocation_refused_in_a_solver_is_a_memout():
    # HiGHS cannot start its threads under 64 MB of data (measured: "can't start new thread")
    with Templates() as templates:
        res = run_task(Task(str(SHIKAKU_SEEDS[0]), "mip-cover", "highs", time_limit=20,
                            memory_limit_mb=64), templates=templates)
    assert res.status == "memout", res.message
