"""Run one task in this process: read, build, solve (with the lazy loop), decode, check.

This is what the worker process does; the runner wraps it with the outside time and memory
limits and the process-tree measurement. ``progress`` receives partial results (after the
build, after each solve) so a task killed from outside still reports what it got to.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from bench.backends import Outcome, SolveOptions, get_backend
from bench.instance import Instance, InstanceError, read_instance
from bench.models import Model
from bench.puzzles import SolutionGrid, get_puzzle
from bench.records import Result, Task, TaskStatus
from bench.registry import Formulation, get_formulation


def base_result(task: Task, inst: Instance | None, status: TaskStatus, message: str = "") -> Result:
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
    progress(res)
    try:
        backend = get_backend(task.solver)
        form = get_formulation(inst.puzzle, task.formulation, backend.kinds)
    except (KeyError, ValueError) as e:
        res.message = str(e.args[0] if e.args else e)
        return res
    res.formulation = form.label
    res.kind = form.kind
    res.exact = form.is_exact()
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
    clock = {"solve_s": 0.0, "solver_s": 0.0, "iterations": 0}
    rules = get_puzzle(inst.puzzle)

    def settle() -> Outcome:
        """Solve; for lazy formulations separate and re-solve until the solution stands."""
        while True:
            outcome = session.solve(deadline - time.perf_counter())
            clock["iterations"] += 1
            clock["solve_s"] += outcome.wall_s
            clock["solver_s"] += outcome.solver_s
            if outcome.value is None or not form.is_lazy():
                return outcome
            ts = time.perf_counter()
            added = form.separate(inst, model, outcome.value)
            clock["solve_s"] += time.perf_counter() - ts
            if added == 0:
                return outcome
            if time.perf_counter() >= deadline:
                return Outcome("timeout", None, outcome.solver_s, outcome.wall_s)
            record(f"killed in lazy iteration {int(clock['iterations']) + 1}")
            progress(res)

    def record(message: str) -> None:
        res.iterations = int(clock["iterations"])
        res.solve_s, res.solver_s = clock["solve_s"], clock["solver_s"]
        res.constraints = model.size()["constraints"]
        res.message = message

    try:
        outcome = settle()
        record("")
        if outcome.value is not None:
            grid = form.decode(inst, model, outcome.value)
            problems = rules.check(inst, grid)
            res.grid = grid
            res.checked = not problems
            res.status = "solved" if not problems else "wrong"
            res.message = "; ".join(problems[:3])
            known = known_solution(task.instance)
            if known is not None and not problems:
                res.known = rules.same(inst, grid, known)
                if not res.known:
                    res.message = "differs from the known solution (.sol)"
            if task.count and not problems:
                count_more(task, form, inst, model, grid, settle, res)
                record(res.message)
        elif outcome.status == "infeasible":
            res.status = "infeasible"
            res.count = 0 if task.count else None
            if known_solution(task.instance) is not None:  # an inexact model cut it off
                res.known = False
                res.message = "infeasible, but the instance has a known solution (.sol)"
        elif outcome.status == "timeout":
            res.status, res.message = "timeout", f"no solution within {task.time_limit:g} s"
        else:
            res.status, res.message = "error", f"solver stopped with status {outcome.status}"
    finally:
        session.close()
    return res


def known_solution(instance_path: str) -> SolutionGrid | None:
    """The known solution stored beside an instance (``NAME.sol``, a JSON grid), if any."""
    sol = Path(instance_path).with_suffix(".sol")
    if not sol.exists():
        return None
    try:
        grid = json.loads(sol.read_text())
    except (OSError, ValueError):
        return None
    return grid if isinstance(grid, list) else None


def count_more(task: Task, form: Formulation, inst: Instance, model: Model, grid: SolutionGrid,
               settle: Callable[[], Outcome], res: Result) -> None:
    """Count solutions up to ``task.count``, each excluded by ``form.block`` (projected onto the
    puzzle's cell values), each decoded one checked. ``res.count`` is the number found; fewer
    than ``task.count`` means that is all there are."""
    rules = get_puzzle(inst.puzzle)
    found = 1
    while found < task.count:
        if not form.block(inst, model, grid):
            res.status, res.message = "error", f"{form.name} cannot count solutions"
            return
        outcome = settle()
        if outcome.value is None:
            if outcome.status != "infeasible":
                res.message = f"counting stopped by {outcome.status} after {found}"
                res.status = "timeout"
            break
        grid = form.decode(inst, model, outcome.value)
        problems = rules.check(inst, grid)
        if problems:
            res.status, res.checked = "wrong", False
            res.message = f"solution {found + 1}: " + "; ".join(problems[:3])
            return
        found += 1
    res.count = found
