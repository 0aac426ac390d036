"""A task's result from what its process left (its result file, its stderr) and what the
harness measured from outside (exit, kills at the limits, time, memory): the measured columns
of every result, and the status a killed or crashed task gets by the judging rules
(:func:`bench.judge.ended`, :func:`bench.judge.memory_status`)."""

from __future__ import annotations

import datetime as dt
import functools
import socket
from typing import Any

from bench.backends import get_backend
from bench.identity import identity, machine
from bench.instance import InstanceError, read_instance
from bench.judge import UNJUDGED, ended, memory_status
from bench.records import OURS, Result, Task
from bench.run.execute import base_result
from bench.run.measure import RSS_METHOD, Measured

#: seconds a task process may take to start (a spawned interpreter imports its solver) before
#: it reports its deadline; one-time set-up, measured apart (overhead_s) and not in the limit
STARTUP_S = 10.0


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
        res = base_result(task, inst, UNJUDGED)
        children = 0.0
    final = bool(data and data.get("final"))
    limit = (f"{grace_s:g} s past the {task.time_limit:g} s limit" if m.deadline is not None
             else f"{task.time_limit + STARTUP_S:g} s (the task never started its build)") \
        if m.killed == "timeout" else f"{task.memory_limit_mb} MB"
    ended(res, m.killed, m.returncode, final, stderr_tail, limit)
    peak = max(m.peak_tree_rss_mb, m.hwm_mb, children)
    memory_status(res, task.memory_limit_mb, m.killed, m.returncode, stderr_tail, peak,
                  killed_by_kernel)
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
