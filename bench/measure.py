"""Run a command as its own process group under outside limits, measuring the whole tree.

Wall time and the hard time limit are enforced by this (parent) process, so solvers that
cannot be interrupted are still stopped. Peak memory is the larger of two lower bounds on the
tree's true peak, both polled every ``poll_s``:

* the sum of RSS over the process tree (the worker and every descendant, such as glpsol or
  cbc): catches parent and child being large at the same time, but misses a spike shorter
  than the poll interval;
* the largest ``VmHWM`` (the kernel's exact high-water mark of one process's RSS since its
  exec) over the tree's processes: catches every spike of a process alive at a poll.

The runner adds a third bound the worker reports itself: the ``ru_maxrss`` of its finished
children, for a solver process that lived between two polls.

The worker's own ``ru_maxrss`` (from ``wait4``) is not used: on Linux it includes the
high-water mark of the process it was forked from, the harness, so it would report the
harness's own size (tests/test_measure.py checks this on known workloads).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import psutil

RSS_METHOD = ("max(sum of tree RSS, largest VmHWM in the tree) polled every 10 ms, "
              "children ru_maxrss")


@dataclass(frozen=True)
class Measured:
    returncode: int | None
    wall_s: float
    peak_tree_rss_mb: float  # sampled sum over the tree
    hwm_mb: float  # largest kernel high-water mark (VmHWM) of a single process in the tree
    killed: Literal["timeout", "memout"] | None


def vm_hwm_bytes(pid: int) -> int:
    """A process's RSS high-water mark since its exec (Linux /proc; 0 where unavailable)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def tree_memory(proc: psutil.Process) -> tuple[int, int]:
    """(sum of RSS, largest VmHWM) over ``proc`` and its descendants, in bytes."""
    total = hwm = 0
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0, 0
    for p in procs:
        with contextlib.suppress(psutil.Error):  # a process may end while we sum
            total += p.memory_info().rss
            hwm = max(hwm, vm_hwm_bytes(p.pid))
    return total, hwm


def run_measured(
    cmd: Sequence[str],
    *,
    time_limit_s: float,
    memory_limit_mb: float,
    poll_s: float = 0.01,
    env: dict[str, str] | None = None,
    stderr_path: Path | None = None,
) -> Measured:
    """Run ``cmd``; kill its whole process group past the time or memory limit."""
    err = open(stderr_path, "wb") if stderr_path else subprocess.DEVNULL  # noqa: SIM115
    try:
        t0 = time.perf_counter()
        popen = subprocess.Popen(
            list(cmd), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
            env=env, start_new_session=True,
        )
    finally:
        if stderr_path:
            err.close()  # type: ignore[union-attr]
    proc = psutil.Process(popen.pid)
    peak = hwm = 0
    killed: Literal["timeout", "memout"] | None = None
    status = None
    while True:
        pid, status = os.waitpid(popen.pid, os.WNOHANG)
        if pid:
            break
        rss, top = tree_memory(proc)
        peak, hwm = max(peak, rss), max(hwm, top)
        if max(peak, hwm) > memory_limit_mb * 2**20:
            killed = "memout"
        elif time.perf_counter() - t0 > time_limit_s:
            killed = "timeout"
        if killed:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(popen.pid, signal.SIGKILL)
            _, status = os.waitpid(popen.pid, 0)
            break
        time.sleep(poll_s)
    wall = time.perf_counter() - t0
    popen.returncode = os.waitstatus_to_exitcode(status)  # reaped here: keep Popen quiet
    # a group member that outlived the worker (an orphaned solver child) is stopped too
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)
    return Measured(
        returncode=popen.returncode,
        wall_s=wall,
        peak_tree_rss_mb=peak / 2**20,
        hwm_mb=hwm / 2**20,
        killed=killed,
    )
