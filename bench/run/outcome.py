"""A task's result from what its process left (its result file, its stderr) and what the
harness measured from outside (exit, kills at the limits, time, memory): the status a killed
or crashed task gets, and the measured columns of every result."""

from __future__ import annotations

import datetime as dt
import functools
import socket
from typing import Any

from bench.backends import get_backend
from bench.failure import died_of
from bench.identity import identity, machine
from bench.instance import InstanceError, read_instance
from bench.records import OURS, Result, Task
from bench.run.execute import base_result
from bench.run.measure import RSS_METHOD, Measured

#: seconds a task process may take to start (a spawned interpreter imports its solver) before
#: it reports its deadline; one-time set-up, measured apart (overhead_s) and not in the limit
STARTUP_S = 10.0


#: what a task says when an allocation failed under its RLIMIT_DATA (the messages of OpenBLAS
#: in cbc, a solver's thread stack, C++ new, Python's allocator, Rust's allocator in Pumpkin:
#: "memory allocation of N bytes failed" before it aborts, MiniSat's and Glucose's
#: ``OutOfMemoryException``)
OUT_OF_MEMORY = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory",
                 "Memory allocation", "can't start new thread", "memory allocation of",
                 "OutOfMemoryException")


#: the last lines of a failed task's stderr searched for why it failed (a fatal error's
#: first line stands above its stack dump: up to 100 frames a thread)
STDERR_SEEN = 400


#: a task that died of SIGSEGV (itself, or a solver child whose failure it reported) with its
#: measured peak at least this fraction of its memory limit is a ``memout``. Under RLIMIT_DATA
#: the kernel refuses an allocation when the process's reserved data (thread stacks and malloc
#: arenas included) reaches the limit, while the harness measures resident memory, which is
#: lower: CBC that dereferences a refused allocation dies with its tree's resident peak at
#: about half to two thirds of the limit; a genuine crash far below the limit stays ``error``
SEGV_AT_LIMIT = 0.5


def memory_crash(returncode: int | None, said: list[str], peak_mb: float,
                 limit_mb: float | None) -> bool:
    """Whether a failed task died of SIGSEGV at its memory limit (:data:`SEGV_AT_LIMIT`):
    ``returncode`` the task process's exit, ``said`` its message and the end of its stderr
    (where a solver child's signal is named, :func:`bench.failure.died_of`)."""
    if not limit_mb or peak_mb < SEGV_AT_LIMIT * limit_mb:
        return False
    text = "\n".join(said)
    return died_of(returncode) == "SIGSEGV" or "SIGSEGV" in text or "Segmentation fault" in text


def task_result(task: Task, m: Measured, data: dict[str, Any] | None, stderr_tail: list[str],
            grace_s: float, killed_by_kernel: int = 0) -> Result:
    if data is not None:
        res = Result.from_dict(data)
        # the worker's own bounds: its finished children's ru_maxrss, and its own VmHWM at
        # its end (exact for the worker process itself, even when it ended between two polls)
        children = max(float(data.get("children_maxrss_mb") or 0.0),
                       float(data.get("own_hwm_mb") or 0.0))
    else:
        try:
            inst = read_instance(task.instance)
        except InstanceError:
            inst = None
        res = base_result(task, inst, "error")
        children = 0.0
    final = bool(data and data.get("final"))
    if m.killed == "interrupted":  # the runner raises TaskInterrupted instead of this result
        res.status, res.message = "error", "killed when the run was interrupted"
        res.grid, res.checked = None, None
    elif m.killed:
        res.status = m.killed
        limit = (f"{grace_s:g} s past the {task.time_limit:g} s limit"
                 if m.deadline is not None else
                 f"{task.time_limit + STARTUP_S:g} s (the task never started its build)") \
            if m.killed == "timeout" else f"{task.memory_limit_mb} MB"
        res.message = f"killed by the harness at {limit}" + (f" ({res.message})" if res.message
                                                            else "")
        res.grid, res.checked = None, None
    elif m.returncode != 0 or not final:
        res.status = "error"
        res.message = stderr_tail[-1] if stderr_tail else (
            f"worker exited with {m.returncode}" + ("" if final else " before writing its result"))
        res.grid, res.checked = None, None
    peak = max(m.peak_tree_rss_mb, m.hwm_mb, children)
    _memory_status(res, task, m, stderr_tail, peak, killed_by_kernel)
    res.rep = task.rep
    res.wall_s = m.wall_s
    if not res.kind and len(kinds := _kinds(task.solver)) == 1:
        res.kind = kinds[0]  # killed before the task resolved its formulation
    if m.killed == "timeout" and m.deadline is not None and m.end is not None:
        # killed in the build or the solve: all after the limit's start is build + solve
        res.overhead_s = m.deadline - task.time_limit - (m.end - m.wall_s)
    else:
        res.overhead_s = m.wall_s - (res.build_s or 0.0) - (res.solve_s or 0.0)
    res.overshoot_s = m.overshoot_s
    res.peak_rss_mb = peak
    res.base_rss_mb = m.base_rss_mb
    res.cpu_s = m.cpu_s
    res.start = "spawn" if m.base_rss_mb is None else "fork"
    res.host = socket.gethostname()
    res.rss_method = RSS_METHOD
    return stamp(res, task)  # its identity on the machine that ran it


def _memory_status(res: Result, task: Task, m: Measured, stderr_tail: list[str], peak: float,
                   killed_by_kernel: int) -> None:
    """Make a failed task ``memout`` where memory ended it: an allocation refused under its
    limit that the task or its solver said (:data:`OUT_OF_MEMORY`), a SIGSEGV at its limit
    (:func:`memory_crash`), or the kernel's kill in its memory cgroup."""
    # the whole tail: a fatal error's dump (one line per frame) ends far below its first line
    said = [res.message, *stderr_tail[-STDERR_SEEN:]]
    if res.status == "error" and any(s in ln for ln in said for s in OUT_OF_MEMORY):
        res.status = "memout"
        res.message = (f"an allocation was refused under the {task.memory_limit_mb} MB limit "
                       f"({res.message[:120]})")
    if res.status == "error" and not m.killed and memory_crash(
            m.returncode, said, peak, task.memory_limit_mb):
        res.status = "memout"
        res.message = (f"died of SIGSEGV with its peak at {peak:.0f} MB of the "
                       f"{task.memory_limit_mb} MB limit: an allocation refused under the "
                       f"limit ({res.message[:120]})")
        res.grid, res.checked = None, None
    if killed_by_kernel and res.status != "memout" and m.killed != "timeout":
        res.status = "memout"
        res.message = (f"killed by the kernel at the {task.memory_limit_mb} MB limit of the "
                       f"task's memory cgroup ({killed_by_kernel} process(es); "
                       f"{res.message[:120]})")
        res.grid, res.checked = None, None


def _kinds(solver: str) -> tuple[str, ...]:
    try:
        return tuple(get_backend(solver).kinds)
    except KeyError:
        return ()


@functools.cache
def solver_version(solver: str, origin: str = "") -> str:
    """The version of a solver as its backend reports it here for a formulation of ``origin``
    (:attr:`bench.records.Task.origin`; its peer's version on the external backend, "" unknown:
    the backend's own listing); "" for an unknown solver."""
    try:
        backend = get_backend(solver)
    except KeyError:
        return ""
    return backend.version_of(None if origin == OURS else origin) if origin else \
        backend.version()


def stamp(res: Result, task: Task) -> Result:
    """Fill a task's result with its identity on this machine (where it ran) and the time;
    a task killed before it reported its solver's version or its formulation's origin gets
    the task's origin and the version installed here."""
    if not res.origin and res.formulation != "-":
        res.origin = task.origin
    if not res.solver_version and res.formulation != "-":
        res.solver_version = solver_version(task.solver, task.origin)
    res.code, res.backend_code = task.code, task.backend_code
    res.memory_limit_mb = task.memory_limit_mb
    for k, v in machine().items():
        setattr(res, k, v)
    res.finished = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    res.identity = identity(res.to_dict())
    return res
