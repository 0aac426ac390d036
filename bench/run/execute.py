"""Run one task in this process: read, then :func:`bench.solve.solve` (build, solve with the
lazy loop, decode, check, count), then the task's result.

This is what the worker process does; the runner wraps it with the outside time and memory
limits and the process-tree measurement. ``progress`` receives partial results (after the
build, after each solve) so a task killed from outside still reports what it got to.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path

from bench.backends import Backend, SolveOptions, get_backend
from bench.effort import known
from bench.failure import Failure, describe
from bench.instance import Instance, InstanceError, read_instance
from bench.puzzles import SolutionGrid, get_puzzle
from bench.records import Result, Task, TaskStatus, origin_of
from bench.registry import Formulation, get_formulation
from bench.run.pin import pin_self
from bench.solve import Solved, SolveStats, solve

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
    try:
        inst = read_instance(task.instance, task.digest)
    except InstanceError as e:
        return base_result(task, None, "error", str(e), pinned)
    res = base_result(task, inst, "error", pinned_cpu=pinned)
    progress(res)
    chosen = resolve(task, inst, res)
    if chosen is None:
        return res
    backend, form = chosen
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
        res.status, res.message = "timeout", "killed during the first solve"
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
    took = (res.build_s or 0.0) + (res.solve_s or 0.0)
    # the same limit for every solver
    if took > task.time_limit and res.status not in ("error", "skipped"):
        res.status, res.grid, res.checked = "timeout", None, None
        res.message = f"build + solve took {took:.2f} s, past the {task.time_limit:g} s limit"
    return res


def resolve(task: Task, inst: Instance, res: Result) -> tuple[Backend, Formulation] | None:
    """The task's backend and formulation, imported and checked; None (with ``res.message``
    saying why) when the task cannot run here."""
    try:
        backend = get_backend(task.solver)
        form = get_formulation(inst.puzzle, task.formulation, backend.kinds)
    except (KeyError, ValueError) as e:
        res.message = str(e.args[0] if e.args else e)
        return None
    res.formulation = form.label
    res.kind = form.kind
    res.exact = form.is_exact()
    res.origin = origin_of(form.peer)
    res.solver_version = backend.version_of(form.peer)
    if form.kind not in backend.kinds:
        res.message = f"solver {backend.name} does not take {form.kind} models"
        return None
    reason = backend.available()
    if reason:
        res.message = f"solver {backend.name} unavailable: {reason}"
        return None
    backend.preload()
    unavailable = form.available()
    if unavailable:
        res.message = f"{form.label} unavailable: {unavailable}"
        return None
    return backend, form


def failed(res: Result, failure: Failure) -> None:
    """An error of the formulation or its solver: status, one-line message, phase, traceback."""
    res.status, res.message = "error", failure.message
    res.phase, res.traceback = failure.phase, failure.traceback
    res.grid, res.checked = None, None


def copy_stats(res: Result, stats: SolveStats, message: str) -> None:
    """The solve's statistics so far into the result."""
    res.iterations = stats.iterations
    res.solve_s, res.solver_s = stats.solve_s, stats.solver_s
    for key, value in stats.effort.items():  # the counters a result keeps (bench.effort)
        if known(key):
            setattr(res, key, value)
    res.constraints = stats.constraints
    res.message = message


def conclude(res: Result, solved: Solved, task: Task, inst: Instance) -> None:
    """The task's status and message from what :func:`bench.solve.solve` found, the known
    solution (``.sol``) compared."""
    rules = get_puzzle(inst.puzzle)
    if solved.failure is not None and solved.grid is None:
        failed(res, solved.failure)
        return
    if solved.status == "skipped":
        res.status, res.message = "skipped", solved.message
        return
    if solved.grid is not None:
        problems = solved.problems
        res.grid = solved.grid
        res.checked = not problems
        res.status = "solved" if not problems else "wrong"
        res.message = "; ".join(problems[:3])
        known, note = checked_known(task.instance, inst)
        if known is not None and not problems:
            res.known = not note and rules.same(inst, solved.grid, known)
            if not res.known:
                res.message = "differs from the known solution (.sol)"
        if note:
            res.message = "; ".join(filter(None, [res.message, note]))
        if solved.count_status:
            res.status, res.message = solved.count_status, solved.count_message
            if solved.failure is not None:
                res.phase, res.traceback = solved.failure.phase, solved.failure.traceback
            if solved.count_status == "wrong":
                res.checked = False
        res.count = solved.count
    elif solved.status == "infeasible":
        res.status = "infeasible"
        res.count = 0 if task.count else None
        known, note = checked_known(task.instance, inst)
        if known is not None and not note:  # an inexact model cut it off
            res.known = False
            res.message = "infeasible, but the instance has a known solution (.sol)"
        elif note:
            res.message = note
    elif solved.status == "timeout":
        res.status, res.message = "timeout", f"no solution within {task.time_limit:g} s"
    elif solved.status == "error":
        res.status, res.message = "error", solved.message
    else:
        res.status, res.message = "error", f"solver stopped with status {solved.status}"


class KnownSolutionError(ValueError):
    """A ``NAME.sol`` beside an instance that cannot serve as its known solution; one line."""


def read_known_solution(instance_path: str) -> SolutionGrid | None:
    """The known solution stored beside an instance (``NAME.sol``, a JSON grid), None when
    there is none; :class:`KnownSolutionError` when there is one that cannot be read."""
    sol = Path(instance_path).with_suffix(".sol")
    if not sol.exists():
        return None
    if not sol.is_file():  # a FIFO would hang the task
        raise KnownSolutionError(f"{sol}: not a regular file")
    try:
        grid = json.loads(sol.read_text(encoding="utf-8"))
    except OSError as e:
        raise KnownSolutionError(f"{sol}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise KnownSolutionError(f"{sol}: not UTF-8 text (byte {e.start})") from None
    except ValueError as e:
        raise KnownSolutionError(f"{sol}: not JSON ({str(e).splitlines()[0]})") from None
    if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
        raise KnownSolutionError(f"{sol}: not a JSON list of rows")
    return grid


def known_solution(instance_path: str) -> SolutionGrid | None:
    """:func:`read_known_solution`, None for a ``.sol`` that cannot be read."""
    try:
        return read_known_solution(instance_path)
    except KnownSolutionError:
        return None


def checked_known(instance: str, inst: Instance) -> tuple[SolutionGrid | None, str]:
    """The known solution of the ``instance`` file and a one-line note on what is wrong with
    it ("" when nothing): an unreadable ``.sol`` is not used (None); one that breaks the rules
    is still compared (a solved grid then differs from it), and the note says so."""
    try:
        known = read_known_solution(instance)
    except KnownSolutionError as e:
        log.warning("%s", e)
        return None, f"known solution not used: {e}"
    if known is None:
        return None, ""
    problems = get_puzzle(inst.puzzle).verify(inst, known)
    if problems:
        note = f"known solution {Path(instance).with_suffix('.sol')} breaks the rules " \
               f"({problems[0]})"
        log.warning("%s", note)
        return known, note
    return known, ""


#: an instance path -> the instance and its known solution with the note on it, or None
Known = dict[str, tuple[Instance, SolutionGrid | None, str] | None]


def rejudged(res: Result, cache: Known | None = None) -> Result:
    """``res`` with its verdict against the known solution taken again from the ``.sol``
    beside its instance as that file is now, as :func:`conclude` takes it: a solved grid that
    passed the rules is compared with it, and an infeasible answer is wrong where one exists.
    The verdict is no measurement: a ``.sol`` added, corrected or removed since the task ran
    changes it, and a result kept or reused must not carry the old one. ``res`` itself when
    the verdict is unchanged or nothing decides it (another status, an instance that cannot be
    read now). ``cache``: the instances and known solutions read so far, by path."""
    solved = res.status == "solved" and res.grid is not None and bool(res.checked)
    if not (solved or res.status == "infeasible"):
        return res
    cache = {} if cache is None else cache
    if res.instance_path not in cache:
        try:
            inst = read_instance(res.instance_path)
            cache[res.instance_path] = (inst, *checked_known(res.instance_path, inst))
        except InstanceError:
            cache[res.instance_path] = None
    if (found := cache[res.instance_path]) is None:
        return res
    inst, known, note = found
    if solved:
        same = (known is not None and not note and res.grid is not None
                and get_puzzle(inst.puzzle).same(inst, res.grid, known))
        verdict = None if known is None else same
        message = "; ".join(filter(None, ["" if verdict is not False else
                                          "differs from the known solution (.sol)", note]))
    else:
        verdict = False if known is not None and not note else None
        message = ("infeasible, but the instance has a known solution (.sol)"
                   if verdict is False else note)
    if (verdict, message) == (res.known, res.message):
        return res
    return dataclasses.replace(res, known=verdict, message=message)
