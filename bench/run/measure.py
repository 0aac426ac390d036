"""Run a task process as its own process group under outside limits, measuring the tree.

The task process is either spawned here (``run_measured``) or forked by a template
(bench.run.forkserver) or by this process; ``watch`` measures both the same way.

Wall time (``perf_counter`` from just before the start to the exit, seen through a pidfd or
the template's exit notice) and the hard time limit are enforced by this (parent) process,
so solvers that cannot be interrupted are still stopped. CPU time is the kernel's
``wait4`` figure for the task process and every child it waited for (exact). Peak memory is
the larger of two lower bounds on the tree's true peak, both polled every ``poll_s``:

* the sum of RSS over the process tree (the worker and every descendant, such as glpsol or
  cbc, found through /proc/PID/task/TID/children): catches parent and child being large at
  the same time, but misses a spike shorter than the poll interval;
* the largest ``VmHWM`` (the kernel's exact high-water mark of one process's RSS) over the
  tree's processes: catches every spike of a process alive at a poll. A forked task resets
  its own (``/proc/self/clear_refs``) right after the fork, so it starts from the task's RSS,
  not the template's past peak.

The runner adds two bounds the worker reports itself at its end: the ``ru_maxrss`` of its
finished children, for a solver process that lived between two polls, and its own ``VmHWM``
(reset after a fork), for a task shorter than one poll interval.

A forked task's RSS counts the pages it shares with its template (the interpreter and the
solver's libraries) only as it touches them: ``fork`` copies the page-table entries of
anonymous memory but not those of shared file mappings, which the child faults in when it
first reads them. So a forked task's peak is below a spawned task's, which touched every page
its imports read. ``base_rss_mb`` records the task process's own RSS when its task began
(reported by the child once forked and started), and the task's own increase is
``peak - base``.

The worker's own ``ru_maxrss`` (from ``wait4``) is not used: on Linux it includes the
high-water mark of the process it was forked from, so it would report the harness's or the
template's size (tests/run/test_measure.py checks this on known workloads).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from bench.records import Limits
from bench.run import cgroup
from bench.run.watchdog import start_time

RSS_METHOD = ("max(sum of tree RSS, largest VmHWM in the tree) polled every 10 ms, "
              "children ru_maxrss, the worker's own VmHWM at its end; forked tasks count "
              "the template's shared pages they touch, from base_rss_mb (their RSS when the "
              "task began)")


@dataclass(frozen=True)
class Measured:
    returncode: int | None
    wall_s: float
    peak_tree_rss_mb: float  # sampled sum over the tree
    hwm_mb: float  # largest kernel high-water mark (VmHWM) of a single process in the tree
    #: the harness killed the task: past a limit, or "interrupted" when the run was stopped
    killed: Literal["timeout", "memout", "interrupted"] | None
    #: a forked task: the template's RSS when it forked (pages the task shares, not its own)
    base_rss_mb: float | None = None
    #: user + system CPU seconds of the task process and every descendant it waited for
    #: (kernel accounting via wait4: exact); None if it could not be read
    cpu_s: float | None = None
    #: the task's own deadline (``perf_counter`` clock, CLOCK_MONOTONIC: the same in every
    #: process), as the task reported it once its one-time set-up was done; None if it never did
    deadline: float | None = None
    #: when the task's process ended (same clock)
    end: float | None = None

    @property
    def overshoot_s(self) -> float | None:
        """Seconds the task process lived past its deadline (0 if it ended before)."""
        if self.deadline is None or self.end is None:
            return None
        return max(0.0, self.end - self.deadline)


def _status_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of one process in bytes from /proc/PID/status; (0, 0) if it is gone."""
    rss = hwm = 0
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    hwm = int(line.split()[1]) * 1024
                elif line.startswith(b"VmRSS:"):
                    rss = int(line.split()[1]) * 1024
                    break  # VmRSS follows VmHWM
    except (OSError, ValueError, IndexError):
        pass
    return rss, hwm


def vm_hwm_bytes(pid: int) -> int:
    """A process's RSS high-water mark since its exec (Linux /proc; 0 where unavailable)."""
    return _status_kb(pid)[1]


def _descendants(pid: int) -> list[int] | None:
    """``pid`` and its descendants from /proc/PID/task/TID/children (cheap: no scan of every
    process); None where the kernel does not offer that file."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{p}/task/{tid}/children", "rb") as f:
                    todo += [int(c) for c in f.read().split()]
            except FileNotFoundError:
                if p == pid and tid == str(pid) and os.path.exists(f"/proc/{p}"):
                    return None
            except OSError:
                pass
    return out


def tree_memory(pid: int) -> tuple[int, int, list[int]]:
    """(sum of RSS, largest VmHWM) over process ``pid`` and its descendants, in bytes, and
    their pids; nothing once the process is gone."""
    pids = _descendants(pid) if os.path.exists("/proc/self/status") else None
    if pids is not None:
        total = hwm = 0
        for p in pids:
            rss, top = _status_kb(p)
            total, hwm = total + rss, max(hwm, top)
        return total, hwm, pids
    import psutil  # where /proc has no children files: a scan of the process table

    total = hwm = 0
    try:
        proc = psutil.Process(pid)
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0, 0, []
    for q in procs:
        with contextlib.suppress(psutil.Error):  # a process may end while we sum
            total += q.memory_info().rss
            hwm = max(hwm, vm_hwm_bytes(q.pid))
    return total, hwm, [q.pid for q in procs]


def run_measured(
    cmd: Sequence[str],
    limits: Limits,
    *,
    poll_s: float = 0.01,
    env: dict[str, str] | None = None,
    stderr_path: Path | None = None,
    track: Callable[[int, bytes], None] | None = None,
    stop: threading.Event | None = None,
) -> Measured:
    """Run ``cmd`` (a fresh spawned process); kill its whole group past the ``limits``."""
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
    waiter = ChildWaiter(popen.pid)
    try:
        m = watch(popen.pid, waiter, t0, limits, poll_s=poll_s, track=track, stop=stop)
    finally:
        waiter.close()
    popen.returncode = m.returncode  # reaped here: keep Popen quiet
    return m


class Waiter(Protocol):
    """How ``watch`` learns that the task process ended, and its CPU time."""

    cpu_s: float | None  # user + system CPU of the process and the children it waited for

    def wait(self, timeout: float) -> int | None:
        """The exit code once the process ended, else None after at most ``timeout``."""
        ...


def _readable(fd: int, timeout: float) -> bool:
    """Whether ``fd`` (a pidfd: readable once its process exited) became readable within
    ``timeout`` seconds (``poll``, which takes any descriptor number, unlike ``select``)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(max(0.0, timeout) * 1000))


class ChildWaiter:
    """Waits for our own child: a pidfd where the kernel has one (wakes at the exit, so the
    wall time is not rounded up to the poll interval), else polling ``waitpid``."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.cpu_s: float | None = None
        self.fd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            self.fd = os.pidfd_open(pid)

    def wait(self, timeout: float) -> int | None:
        if self.fd is not None:
            _readable(self.fd, timeout)
        pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        if pid:
            self.cpu_s = usage.ru_utime + usage.ru_stime
            return os.waitstatus_to_exitcode(status)
        if self.fd is None:
            time.sleep(timeout)
        return None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


class ExitWatcher:
    """Waits for a process this one did not start (a template's child) through ``inner`` (its
    template's exit notice: exit code and CPU time), and sees its end itself through a pidfd
    where the kernel has one: ``ended`` is when the process exited, so its wall time does not
    include the template's reaping and the notice's way here."""

    def __init__(self, pid: int, inner: Waiter) -> None:
        self.inner = inner
        self.ended: float | None = None
        self.fd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            self.fd = os.pidfd_open(pid)

    @property
    def cpu_s(self) -> float | None:
        return self.inner.cpu_s

    @cpu_s.setter
    def cpu_s(self, value: float | None) -> None:
        self.inner.cpu_s = value

    def wait(self, timeout: float) -> int | None:
        if self.ended is None and self.fd is not None:
            start = time.perf_counter()
            if _readable(self.fd, timeout):
                self.ended = time.perf_counter()
            else:
                timeout = max(0.0, timeout - (time.perf_counter() - start))
        return self.inner.wait(timeout)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def watch(
    pid: int, waiter: Waiter, t0: float, limits: Limits, *, poll_s: float = 0.01,
    base_rss_mb: float | None = None, track: Callable[[int, bytes], None] | None = None,
    stop: threading.Event | None = None,
) -> Measured:
    """Poll the memory of the process group led by ``pid`` until ``waiter.wait(timeout)``
    returns its exit code; kill the group past a limit. Used for spawned and forked task
    processes alike.

    ``limits`` (:class:`~bench.records.Limits`, time from ``t0``): the task's own deadline,
    once written, replaces the start-up cap, so the limit is the same for every solver however
    it honours its own; the process joins ``limits.group`` (:func:`bench.run.cgroup.join_soon`).
    Every process seen in the tree is killed at the end, also one that left the group;
    ``track(pid, start_time)`` is told of each as it is first seen (the run's watchdog, which
    kills them if the harness dies: a process forked without exec in a session of its own
    carries neither the group nor the run's marker). ``stop``: once set (the run was
    interrupted), the group is killed at the next poll (``killed="interrupted"``)."""
    if limits.group is not None:
        cgroup.join_soon(limits.group, pid)
    seen: dict[int, bytes] = {}
    try:
        code, peak, hwm, killed, deadline = _poll(pid, waiter.wait, t0, limits, poll_s, seen,
                                                  track, stop)
    except BaseException:
        # the harness itself stops here (a Ctrl-C raised in its main thread): the task goes
        # first, so that it does not outlive the command nor keep its memory group busy
        kill_tree(pid, seen)
        _reap(waiter.wait)
        raise
    # when the process ended, as the waiter saw it (a pidfd), else now
    end = getattr(waiter, "ended", None) or time.perf_counter()
    # a group member that outlived the worker (an orphaned solver child) is stopped too
    kill_tree(pid, seen)
    if deadline is None and limits.deadline_file is not None:
        deadline = read_deadline(limits.deadline_file)
    return Measured(returncode=code, wall_s=end - t0, peak_tree_rss_mb=peak / 2**20,
                    hwm_mb=hwm / 2**20, killed=killed, base_rss_mb=base_rss_mb,
                    cpu_s=waiter.cpu_s, deadline=deadline, end=end)


Polled = tuple[int, int, int, Literal["timeout", "memout", "interrupted"] | None, float | None]


def _poll(pid: int, wait: Callable[[float], int | None], t0: float, limits: Limits,
          poll_s: float, seen: dict[int, bytes], track: Callable[[int, bytes], None] | None,
          stop: threading.Event | None) -> Polled:
    """:func:`watch`'s loop: the exit code, the peak tree RSS and VmHWM (bytes), why the
    group was killed (None: it was not) and the task's deadline as read so far; ``seen``
    collects every process of the tree (pid: start time)."""
    deadline_file = limits.deadline_file
    # the process is known by its pid alone: one that has already ended (a fast task, reaped
    # by its template before this call) is measured as ended, not taken for a failed start
    peak = hwm = 0
    killed: Literal["timeout", "memout", "interrupted"] | None = None
    kill_at, deadline = t0 + limits.time_limit_s, None
    code = wait(0)
    while code is None:
        rss, top, pids = tree_memory(pid)
        for p in pids:
            if p not in seen:
                seen[p] = start_time(p)
                if track and p != pid:
                    track(p, seen[p])
        peak, hwm = max(peak, rss), max(hwm, top)
        if deadline is None and deadline_file is not None:
            deadline = read_deadline(deadline_file)
            kill_at = kill_at if deadline is None else deadline + limits.grace_s
        if max(peak, hwm) > limits.memory_limit_mb * 2**20:
            killed = "memout"
        elif time.perf_counter() > kill_at:
            killed = "timeout"
        elif stop is not None and stop.is_set():
            killed = "interrupted"
        if killed:
            kill_tree(pid, seen)
            while code is None:
                code = wait(1.0)
            break
        code = wait(poll_s)
    return code, peak, hwm, killed, deadline


def _reap(wait: Callable[[float], int | None], timeout_s: float = 2.0) -> None:
    """Wait up to ``timeout_s`` for a killed task process to be reaped."""
    deadline = time.monotonic() + timeout_s
    with contextlib.suppress(Exception):
        while wait(0.05) is None and time.monotonic() < deadline:
            pass


def read_deadline(path: Path) -> float | None:
    try:
        return float(path.read_text())
    except (OSError, ValueError):
        return None


def kill_tree(pgid: int, seen: dict[int, bytes]) -> None:
    """SIGKILL the process group ``pgid`` and every process in ``seen`` (pid: start time)
    that is still alive with the same start time (so not a reused pid): a child that started
    its own session leaves the group, not the task; the leader too, which may not have made
    its group yet (a forked task killed before its ``setsid``)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    for p, started in seen.items():
        if p != os.getpid() and started and start_time(p) == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p, signal.SIGKILL)
