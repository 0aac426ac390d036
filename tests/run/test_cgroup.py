"""The memory limit held by the kernel over a task's whole process tree, through a
memory cgroup per task where the machine lets the harness create one (root with a writable
cgroup v1 memory controller, or v2 with the memory controller). Real processes, real kernel;
skipped with the reason where no group can be created."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

from bench.records import Task
from bench.run import cgroup
from bench.run.measure import Measured
from bench.run.pool import _result
from tests.conftest import SHIKAKU_SEEDS

ALLOCATE = "import sys; x = bytearray(int(sys.argv[1]) * 2**20); print(len(x))"


@pytest.fixture
def group():
    g = cgroup.create(f"puzzlebench-test-{uuid.uuid4().hex[:8]}", 64)
    if g is None:
        pytest.skip("no memory cgroup can be created here (needs root and a writable "
                    "memory controller)")
    yield g
    cgroup.remove(g)
    assert not g.exists()


def in_group(g, mb: int) -> subprocess.CompletedProcess[str]:
    """A fresh process that joins ``g`` and then allocates ``mb`` MB (each page touched)."""
    code = f"from bench.run import cgroup; from pathlib import Path; " \
           f"assert cgroup.join(Path({str(g)!r})); " + ALLOCATE
    return subprocess.run([sys.executable, "-c", code, str(mb)], capture_output=True,
                          text=True, timeout=60)


def test_a_process_past_the_group_limit_is_killed_and_counted(group):
    assert (group / "cgroup.procs").exists()
    p = in_group(group, 200)
    assert p.returncode == -9, (p.returncode, p.stdout, p.stderr)  # SIGKILL by the kernel
    assert cgroup.oom_kills(group) == 1
    peak = cgroup.peak_mb(group)
    assert peak is not None and peak <= 64 * 1.01


def test_a_process_within_the_group_limit_runs_and_nothing_is_counted(group):
    p = in_group(group, 16)
    assert p.returncode == 0 and p.stdout.strip() == str(16 * 2**20)
    assert cgroup.oom_kills(group) == 0


def test_a_kill_by_the_kernel_is_recorded_as_memout():
    """How the harness reads a task whose group saw an OOM kill: `memout` saying so, no grid
    (whatever the task process managed to report)."""
    task = Task(str(SHIKAKU_SEEDS[0]), "sat-cover", "cadical195", memory_limit_mb=100)
    m = Measured(returncode=-9, wall_s=0.5, peak_tree_rss_mb=90.0, hwm_mb=90.0, killed=None)
    res = _result(task, m, None, [], 0.5, killed_by_kernel=1)
    assert res.status == "memout" and res.grid is None
    assert "killed by the kernel at the 100 MB limit of the task's memory cgroup" in res.message
    assert _result(task, m, None, [], 0.5).status == "error"  # no kill: as before
