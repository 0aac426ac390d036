"""Run one task in this process: read, then :func:`bench.solve.solve` (build, solve with the
lazy loop, decode, check, count), then the task's result.

This is what the worker process does; the runner wraps it with the outside time and memory
limits and the process-tree measurement. ``progress`` receives partial results (after the
build, after each solve) so a task killed from outside still reports what it got to.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from bench.backends import Backend, SolveOptions, get_backend
from bench.effort import known
from bench.failure import describe
from bench.identity import changed_code
from bench.instance import Instance, InstanceError, read_instance
from bench.judge import (
    UNJUDGED,
    cannot_run,
    code_changed,
    conclude,
    failed,
    over_time_limit,
    solving,
    unreadable,
)
from bench.judge import (  # the judging rules; the names kept here are their old home
    Known as Known,
)
from bench.judge import (
    KnownSolutionError as KnownSolutionError,
)
from bench.judge import (
    checked_known as checked_known,
)
from bench.judge import (
    known_solution as known_solution,
)
from bench.judge import (
    read_known_solution as read_known_solution,
)
from bench.judge import (
    rejudged as rejudged,
)
from bench.records import Result, Task, TaskStatus, origin_of
from bench.registry import Formulation, get_formulation
from bench.run.pin import pin_self
from bench.solve import SolveStats, solve

log = logging.getLogger(__name__)

def base_result(task: Task, inst: Instance | None, status: TaskStatus, message: str = "",
                pinned_cpu: int | None = None) -> Result:
    return Result(
        key=task.key,
        puzzle=inst.puzzle if inst else "",
        instance=inst.name if inst else Path(task.instance).stem,
        instance_path=task.instance,
        rows=inst.rows if inst else 0,
        cols=inst.cols if inst else 0,
        formulation=task.formulation,
        kind="",
        solver=task.solver,
        solver_version="",
        status=status,
        message=message,
        seed=task.seed,
        threads=task.threads,
        time_limit=task.time_limit,
        tier=task.tier,
        pinned_cpu=pinned_cpu,
    )


#: the least time between two partial results written from a lazy loop
PROGRESS_S = 0.25


def execute(task: Task, progress: Callable[[Result], None] = lambda r: None,
            on_start: Callable[[float], None] = lambda d: None) -> Result:
    pinned = pin_self(task.pin)  # run --pin: on its core before anything is read or built
    inst = _read(task, pinned)
    if isinstance(inst, Result):
        return inst
    res = base_result(task, inst, UNJUDGED, pinned_cpu=pinned)
    progress(res)
    chosen = resolve(task, inst, res)
    if isinstance(chosen, str):
        cannot_run(res, chosen)
        return res
    backend, form = chosen
    changed = changed_code(task, type(form), type(backend))
    if changed:  # as an instance file changed since the plan (read_instance)
        code_changed(res, changed)
        return res
    try:
        res.setup_s = form.setup()  # before the deadline: not counted against the time limit
    except Exception as e:  # MemoryError is one too: the task process makes it a memout
        if isinstance(e, MemoryError):
            raise
        failed(res, describe(e, "setup", form))
        return res
    deadline = time.perf_counter() + task.time_limit
    on_start(deadline)  # the limit runs from here (build included); the harness enforces it

    predicted = form.predicted_size(inst)
    if predicted is not None:
        res.variables, res.constraints = predicted["variables"], predicted["constraints"]
        res.size_predicted = True
        progress(res)

    def built(stats: SolveStats) -> None:
        res.build_s = stats.build_s
        res.variables, res.constraints = stats.variables, stats.constraints
        res.size_predicted = False if predicted is not None else None
        solving(res)
        progress(res)

    last_write = [0.0]

    def round_(stats: SolveStats, message: str) -> None:
        # what a killed task leaves behind (iterations so far), written at most every
        # PROGRESS_S: a write per round, outside build and solve but inside the wall-clock
        # limit, would add up over lazy loops of thousands of rounds
        copy_stats(res, stats, message)
        now = time.perf_counter()
        if now - last_write[0] >= PROGRESS_S:
            last_write[0] = now
            progress(res)

    solved = solve(inst, form, backend, deadline, count=task.count or None,
                   options=SolveOptions(threads=task.threads, seed=task.seed),
                   on_built=built, on_round=round_)
    copy_stats(res, solved.stats, "")
    conclude(res, solved, task, inst)
    over_time_limit(res, task.time_limit)
    return res


def _read(task: Task, pinned: int | None) -> Instance | Result:
    """The task's instance, or, when it cannot be read or changed since the plan, the task's
    result as the judge records it (:func:`bench.judge.unreadable`)."""
    try:
        return read_instance(task.instance, task.digest)
    except InstanceError as e:
        res = base_result(task, None, UNJUDGED, pinned_cpu=pinned)
        unreadable(res, e)
        return res


def resolve(task: Task, inst: Instance, res: Result) -> tuple[Backend, Formulation] | str:
    """The task's backend and formulation, imported and checked (their columns written into
    ``res``); why not, in one line, when the task cannot run here (the judge's
    :func:`bench.judge.cannot_run` makes that its result)."""
    try:
        backend = get_backend(task.solver)
        form = get_formulation(inst.puzzle, task.formulation, backend.kinds)
    except (KeyError, ValueError) as e:
        return str(e.args[0] if e.args else e)
    res.formulation = form.label
    res.kind = form.kind
    res.exact = form.is_exact()
    res.origin = origin_of(form.peer)
    res.solver_version = backend.version_of(form.peer)
    if form.kind not in backend.kinds:
        return f"solver {backend.name} does not take {form.kind} models"
    reason = backend.available()
    if reason:
        return f"solver {backend.name} unavailable: {reason}"
    backend.preload()
    unavailable = form.available()
    if unavailable:
        return f"{form.label} unavailable: {unavailable}"
    return backend, form


def copy_stats(res: Result, stats: SolveStats, message: str) -> None:
    """The solve's statistics so far into the result."""
    res.iterations = stats.iterations
    res.solve_s, res.solver_s = stats.solve_s, stats.solver_s
    for key, value in stats.effort.items():  # the counters a result keeps (bench.effort)
        if known(key):
            setattr(res, key, value)
    res.constraints = stats.constraints
    res.message = message
