"""Run a command as its own process group under outside limits, measuring the whole tree.

Wall time and the hard time limit are enforced by this (parent) process, so solvers that
cannot be interrupted are still stopped. Peak memory is the larger of

* the sampled sum of RSS over the process tree (the worker and every descendant, such as
  glpsol or cbc), polled every ``poll_s``;
* the kernel's high-water mark ``ru_maxrss`` from ``wait4``: the largest peak of any single
  process in the tree (Linux folds the peaks of waited-for descendants into it).

Sampling alone misses spikes shorter than the poll interval; the kernel mark alone misses
parent and child being large at the same time. Together they bound the peak from below
as tightly as either can (tests/test_measure.py checks both on a known workload).
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

RSS_METHOD = "max(tree RSS sampled every 10 ms, wait4 ru_maxrss)"


@dataclass(frozen=True)
class Measured:
    returncode: int | None
    wall_s: float
    peak_tree_rss_mb: float  # sampled sum over the tree
    maxrss_mb: float  # kernel high-water mark: largest single process, descendants included
    killed: Literal["timeout", "memout"] | None


def tree_rss_bytes(proc: psutil.Process) -> int:
    total = 0
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0
    for p in procs:
        with contextlib.suppress(psutil.Error):  # a process may end while we sum
            total += p.memory_info().rss
    return total


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
    peak = 0
    killed: Literal["timeout", "memout"] | None = None
    status = None
    rusage = None
    while True:
        pid, status, rusage = os.wait4(popen.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, tree_rss_bytes(proc))
        if peak > memory_limit_mb * 2**20:
            killed = "memout"
        elif time.perf_counter() - t0 > time_limit_s:
            killed = "timeout"
        if killed:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(popen.pid, signal.SIGKILL)
            _, status, rusage = os.wait4(popen.pid, 0)
            break
        time.sleep(poll_s)
    wall = time.perf_counter() - t0
    popen.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4: keep Popen quiet
    # a group member that outlived the worker (an orphaned solver child) is stopped too
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)
    return Measured(
        returncode=popen.returncode,
        wall_s=wall,
        peak_tree_rss_mb=peak / 2**20,
        maxrss_mb=(rusage.ru_maxrss if rusage else 0) / 1024,
        killed=killed,
    )
