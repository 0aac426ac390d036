"""Run one task in this process: read, build, solve (with the lazy loop), decode, check.

This is what the worker process does; the runner wraps it with the outside time and memory
limits and the process-tree measurement. ``progress`` receives partial results (after the
build, after each solve) so a task killed from outside still reports what it got to.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from bench.backends import SolveOptions, get_backend
from bench.instance import Instance, InstanceError, read_instance
from bench.puzzles import get_puzzle
from bench.records import Result, Task, TaskStatus
from bench.registry import get_formulation

log = logging.getLogger(__name__)


def base_result(task: Task, inst: Instance | None, status: TaskStatus, message: str = "") -> Result:
    from pathlib import Path

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
    )


def execute(task: Task, progress: Callable[[Result], None] = lambda r: None) -> Result:
    try:
        inst = read_instance(task.instance)
    except InstanceError as e:
        return base_result(task, None, "error", str(e))
    res = base_result(task, inst, "error")
    try:
        form = get_formulation(inst.puzzle, task.formulation)
        backend = get_backend(task.solver)
    except (KeyError, ValueError) as e:
        res.message = str(e.args[0] if e.args else e)
        return res
    res.formulation = form.label
    res.kind = form.kind
    res.exact = form.exact
    res.solver_version = backend.version()
    if form.kind not in backend.kinds:
        res.message = f"solver {backend.name} does not take {form.kind} models"
        return res
    reason = backend.available()
    if reason:
        res.message = f"solver {backend.name} unavailable: {reason}"
        return res

    backend.preload()
    t0 = time.perf_counter()
    model = form.build(inst)
    res.build_s = time.perf_counter() - t0
    size = model.size()
    res.variables, res.constraints = size["variables"], size["constraints"]
    res.status, res.message = "timeout", "killed during the first solve"
    progress(res)

    session = backend.start(model, SolveOptions(threads=task.threads, seed=task.seed))
    deadline = t0 + task.time_limit
    solve_s = solver_s = 0.0
    iterations = 0
    try:
        while True:
            outcome = session.solve(deadline - time.perf_counter())
            iterations += 1
            solve_s += outcome.wall_s
            solver_s += outcome.solver_s
            if outcome.value is None or not form.lazy:
                break
            ts = time.perf_counter()
            added = form.separate(inst, model, outcome.value)
            solve_s += time.perf_counter() - ts
            if added == 0:
                break
            if time.perf_counter() >= deadline:
                outcome.value, outcome.status = None, "timeout"
                break
            res.iterations, res.solve_s, res.solver_s = iterations, solve_s, solver_s
            res.constraints = model.size()["constraints"]
            res.message = f"killed in lazy iteration {iterations + 1}"
            progress(res)
        res.iterations, res.solve_s, res.solver_s = iterations, solve_s, solver_s
        res.constraints = model.size()["constraints"]
        if outcome.value is not None:
            grid = form.decode(inst, model, outcome.value)
            problems = get_puzzle(inst.puzzle).check(inst, grid)
            res.grid = grid
            res.checked = not problems
            res.status = "solved" if not problems else "wrong"
            res.message = "; ".join(problems[:3])
        elif outcome.status == "infeasible":
            res.status, res.message = "infeasible", ""
        elif outcome.status == "timeout":
            res.status, res.message = "timeout", f"no solution within {task.time_limit:g} s"
        else:
            res.status, res.message = "error", f"solver stopped with status {outcome.status}"
    finally:
        session.close()
    return res


def result_json(res: Result) -> dict[str, Any]:
    return res.to_dict()
