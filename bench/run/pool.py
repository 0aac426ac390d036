"""Run each planned task (:mod:`bench.run.plan`) in its own measured process and journal it."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from bench.backends import all_backends, get_backend
from bench.records import Limits, Result, Task
from bench.registry import builtin_modules, builtin_puzzles
from bench.run import cgroup
from bench.run.forkserver import (
    Template,
    TemplateError,
    Watchdog,
    fork_here,
    preload,
)
from bench.run.interrupt import TaskInterrupted
from bench.run.measure import ChildWaiter, ExitWatcher, Measured, run_measured, watch
from bench.run.outcome import STARTUP_S
from bench.run.outcome import task_result as _result
from bench.run.pin import Slots
from bench.run.task import DEADLINE

if TYPE_CHECKING:
    from bench.run.plan import Plan
    from bench.run.storage import Journal

log = logging.getLogger(__name__)

#: names re-exported from bench.run.plan, imported on first use (a one-task command plans none)
_FROM_PLAN = ("Plan", "Selection", "plan_tasks", "split_puzzle")


def __getattr__(name: str) -> Any:
    if name in _FROM_PLAN:
        from bench.run import plan

        return getattr(plan, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: seconds past the task's deadline (its limit from the start of its build) before the harness
#: kills its process group: no task runs more than this past its limit, whatever its solver
GRACE_S = 0.5
#: seconds a task's runner waits, after the task, for its template's next spare to be ready
SPARE_WAIT_S = 10.0
#: thread-count variables fixed for every task process (BLAS pools inside numpy, OpenMP)
THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
#: how a task or template process runs a harness module: ``-P`` keeps the working folder off
#: ``sys.path`` (``-m`` would put it first, where a ``bench/`` of another checkout would shadow
#: the harness this run started with); not inherited by what the task starts
SAFE_M = ("-P", "-m")


def task_env(threads: int, watchdog: Watchdog | None = None) -> dict[str, str]:
    env = watchdog.marked(dict(os.environ)) if watchdog else dict(os.environ)
    for var in THREAD_ENV:
        env[var] = str(threads)
    # the worker imports `bench` from wherever this process did (installed or source tree)
    here = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
    return env


def default_start() -> str:
    """Fork where the OS has it (Linux, macOS), else spawn."""
    return "fork" if hasattr(os, "fork") and sys.platform != "win32" else "spawn"


class Templates:
    """The run's fork-server templates, one per (solver's model kinds, threads), started on
    first use; each pre-imports the worker, the solve loop, the kind's backends and the
    built-in formulations of that kind. Close at the end of the run. ``prefork``: each
    template keeps a spare child forked ahead of time (:mod:`bench.run.forkserver`)."""

    def __init__(self, watchdog: Watchdog | None = None, prefork: bool = True) -> None:
        self._lock = threading.Lock()
        self._templates: dict[tuple[tuple[str, ...], int], Template] = {}
        self.watchdog = watchdog
        self.prefork = prefork

    def get(self, task: Task) -> Template:
        kinds = tuple(sorted(get_backend(task.solver).kinds))
        key = (kinds, task.threads)
        with self._lock:
            tpl = self._templates.get(key)
            if tpl is None or not tpl.alive():
                tpl = Template(preload_modules(kinds),
                               env=task_env(task.threads, self.watchdog), prefork=self.prefork)
                log.info("fork-server template for %s started in %.2f s (%.0f MB)",
                         "/".join(kinds), tpl.startup_s, tpl.rss / 2**20)
                self._templates[key] = tpl
            return tpl

    def close(self) -> None:
        with self._lock:
            for tpl in self._templates.values():
                tpl.close()
            self._templates.clear()

    def __enter__(self) -> Templates:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def preload_modules(kinds: Sequence[str]) -> list[str]:
    """What a template of these model kinds imports before forking tasks."""
    # numpy: what decoders (and a seeded SAT scramble) import on first use, loaded once here
    mods = ["bench.run.task", "bench.run.execute", "numpy",
            f"bench.run.task:warm:{','.join(kinds)}"]
    for b in all_backends():
        if set(b.kinds) & set(kinds) and b.available() is None:
            mods += [m for m in b.modules if m not in mods]
    for puzzle in builtin_puzzles():
        mods += builtin_modules(puzzle, kinds)
    return mods


def run_task(task: Task, grace_s: float = GRACE_S, templates: Templates | None = None,
             start: str = "spawn", watchdog: Watchdog | None = None,
             stop: threading.Event | None = None) -> Result:
    """Run one task in a fresh process under the outside limits; never raises for task faults.
    With ``templates`` the process is forked from a pre-imported template; else with
    ``start="fork"`` forked from this process (after importing what the task needs here: for
    one-task commands), else spawned (a fresh interpreter). ``watchdog`` (default: the
    templates') removes the task's folder if the harness dies mid-task. ``stop``: once set,
    the task is not started, or its process group is killed, and :class:`TaskInterrupted` is
    raised unless the task had already finished with its final result."""
    watchdog = watchdog or (templates.watchdog if templates else None)
    if stop is not None and stop.is_set():
        raise TaskInterrupted(task.key)
    with tempfile.TemporaryDirectory(prefix="puzzlebench-task-") as tmp, \
            cgroup.TaskGroup(Path(tmp), task.memory_limit_mb) as group:
        for guarded in (tmp, group.path):
            if guarded is not None and watchdog:
                watchdog.guard(guarded)
        out = Path(tmp) / "result.json"
        errlog = Path(tmp) / "stderr.txt"
        args = [json.dumps(task.to_dict()), str(out)]
        limits = Limits(time_limit_s=task.time_limit + STARTUP_S,
                        memory_limit_mb=task.memory_limit_mb, grace_s=grace_s,
                        deadline_file=Path(tmp) / DEADLINE, group=group.path)
        track = functools.partial(watchdog.track, tmp) if watchdog else None
        m = None
        try:
            if templates is not None:
                # the task's time starts when the template hands it to a ready child (or
                # starts forking one): the fork of a spare ahead of time is not the task's
                tpl = templates.get(task)
                child = tpl.fork("bench.run.task:main", args, stderr=errlog)
                exited = ExitWatcher(child.pid, child)
                try:
                    m = watch(child.pid, exited, child.t0, limits,
                              base_rss_mb=child.base_rss / 2**20, track=track, stop=stop)
                finally:
                    exited.close()
                _wait_spare(tpl, stop)
            elif start == "fork":
                m = _fork_here(task, args, errlog, limits, watchdog, track, stop)
        except Exception as e:
            if not isinstance(e, (TemplateError, KeyError, OSError)) and not _psutil_error(e):
                raise
            if stop is None or not stop.is_set():
                log.warning("fork failed (%s); spawning this task instead", e)
        if m is None and (stop is None or not stop.is_set()):
            m = run_measured([sys.executable, *SAFE_M, "bench.run.task", *args], limits,
                             env=task_env(task.threads, watchdog), stderr_path=errlog,
                             track=track, stop=stop)
        data = _read_json(out)
        stderr_tail = stderr_lines(errlog)
    for guarded in (tmp, group.path):
        if guarded is not None and watchdog:
            watchdog.release(guarded)
    if m is None or (stop is not None and stop.is_set() and not _finished(m, data)):
        raise TaskInterrupted(task.key)
    return _result(task, m, data, stderr_tail, grace_s, group.kills)


def _wait_spare(tpl: Template, stop: threading.Event | None) -> None:
    """Wait up to SPARE_WAIT_S for the template's next spare, but no longer than ``stop``
    stays unset: an interrupt ends the wait at once."""
    deadline = time.monotonic() + SPARE_WAIT_S
    while not (stop is not None and stop.is_set()) and time.monotonic() < deadline:
        if tpl.wait_spare(0.05):
            return


def stderr_lines(path: Path) -> list[str]:
    """The non-blank lines a task wrote to its stderr file; none when the file does not exist
    (a forked task killed, at a limit or by an interrupt, before it opened the file)."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    return [ln for ln in text.splitlines() if ln.strip()]


def _finished(m: Measured, data: dict[str, Any] | None) -> bool:
    """The task ended on its own with its final result (whatever the run does meanwhile)."""
    return not m.killed and m.returncode == 0 and bool(data and data.get("final"))


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _fork_here(task: Task, args: list[str], errlog: Path, limits: Limits,
               watchdog: Watchdog | None, track: Callable[[int, bytes], None] | None,
               stop: threading.Event | None) -> Measured:
    for var in THREAD_ENV:  # before the solver's libraries load, as in a spawned task
        os.environ[var] = str(task.threads)
    if watchdog:  # the solver children the task starts carry the run's marker
        os.environ.update(watchdog.marked({}))
    # one task: its worker and solver only (the task imports its own formulation before its
    # limit starts); a template's preload of every formulation would cost more than it saves
    preload(["bench.run.task", *get_backend(task.solver).modules])
    t0 = time.perf_counter()
    pid, base = fork_here("bench.run.task:main", args, stderr=errlog)
    waiter = ChildWaiter(pid)
    try:
        return watch(pid, waiter, t0, limits, base_rss_mb=base / 2**20, track=track,
                     stop=stop)
    finally:
        waiter.close()


def _psutil_error(e: BaseException) -> bool:
    """A psutil error (psutil is imported where it is used: none if it is not loaded)."""
    psutil = sys.modules.get("psutil")
    return psutil is not None and isinstance(e, psutil.Error)


def resume_conflict(journal: Journal, plan: Plan, memory_limits: Sequence[int] = (),
                    results: Sequence[Result] | None = None) -> str:
    """Why the plan cannot run into this journal's folder ("" if it can): the folder holds
    results (``results``: the folder's, default the journal's) of a tier run under another
    time limit than the plan gives that tier (any task's, not only the plan's: a report of
    the folder would mix limits; a suite's tiers may each have their own, and an untiered run
    is the tier ""), or its earlier runs ran under another memory limit."""
    results = journal.results() if results is None else results
    for tier, limit in sorted({(t.tier, t.time_limit) for t in plan.tasks}):
        other = sorted({r.time_limit for r in results if r.formulation != "-"
                        and r.tier == tier and r.time_limit != limit})
        if other:
            return (f"{journal.folder} holds results run with --time-limit {other[0]:g}, "
                    f"not {limit:g}: use another --out for this limit, or --time-limit "
                    f"{other[0]:g} to resume")
    want = {t.memory_limit_mb for t in plan.tasks}
    other_mb = sorted(set(memory_limits) - want)
    if other_mb and want and results:
        return (f"{journal.folder} holds results run with --memory-limit {other_mb[0]}, not "
                f"{min(want)}: use another --out, or the same limit to resume")
    return ""


class Progress:
    """Tasks done / total, failures, time left: a live line on a terminal, quiet otherwise."""

    def __init__(self, total: int, jobs: int, stream: TextIO | None = None) -> None:
        self.total, self.jobs = total, jobs
        self.done = self.failed = 0
        self.t0 = time.perf_counter()
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty() and not os.environ.get("CI")

    def update(self, res: Result) -> None:
        self.done += 1
        if res.status not in ("solved", "infeasible"):
            self.failed += 1
        if not self.live:
            return
        elapsed = time.perf_counter() - self.t0
        left = elapsed / self.done * (self.total - self.done)
        self.stream.write(
            f"\r[{self.done}/{self.total}] failures {self.failed}  "
            f"elapsed {elapsed:5.0f} s  left ~{left:5.0f} s  last: {res.status:<10}"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")


class Executor(Protocol):
    """Runs tasks elsewhere and hands back each result as it finishes."""

    def run(self, todo: Sequence[Task], finished: Callable[[Result], None]) -> None: ...


def run_plan(
    plan: Plan,
    journal: Journal,
    *,
    jobs: int = 1,
    on_result: Callable[[Result], None] | None = None,
    start: str | None = None,
    executor: Executor | None = None,
    provenance: dict[str, str] | None = None,
    pin: bool = False,
) -> list[Result]:
    """Run every task not already in the journal; append each result as it finishes.
    ``start``: "fork" (tasks forked from per-kind templates; the default where the OS forks)
    or "spawn" (a fresh interpreter per task). ``executor``: where the tasks run (default:
    ``jobs`` at a time here; :class:`bench.run.executors.DaskExecutor` on a cluster).
    ``provenance``: fields set on every result this run produces (``run``, ``harness``).
    ``pin``: local tasks on their slot's core (:mod:`bench.run.pin`; executors: not pinned)."""
    done = journal.keys()

    def own(res: Result) -> Result:
        """The result marked as this run's (its provenance fields)."""
        for k, v in (provenance or {}).items():
            setattr(res, k, v)
        return res

    for res in plan.errors:  # recorded, not run: they are this run's results too
        if res.key not in done:
            journal.append(own(res))
    todo = [t for t in plan.tasks if t.key not in done]
    if len(todo) < len(plan.tasks):
        log.info("resuming: %d of %d tasks already done", len(plan.tasks) - len(todo),
                 len(plan.tasks))
    progress = Progress(len(todo), jobs)
    lock = threading.Lock()
    results: list[Result] = []

    failed: list[BaseException] = []

    def finished(res: Result) -> None:
        own(res)
        with lock:
            try:
                journal.append(res)
            except OSError as e:
                failed.append(e)
                raise
            results.append(res)
            progress.update(res)
            if on_result:
                on_result(res)

    try:
        if executor is not None:
            executor.run(todo, finished)
        else:
            _run_here(todo, finished, jobs=jobs, start=start, failed=failed, pin=pin)
    finally:
        progress.close()
    return results


def _run_here(todo: Sequence[Task], finished: Callable[[Result], None], *, jobs: int,
              start: str | None, failed: list[BaseException], pin: bool = False) -> None:
    """The local pool: ``jobs`` tasks at a time, each forked from its kind's template (or
    spawned), under this run's watchdog. An interrupt (KeyboardInterrupt, :class:`Interrupted`)
    starts no further task, kills the running ones (not journaled: a resume runs them) and is
    raised again once they are gone. ``pin``: each task pinned to its worker slot's core."""
    watchdog = Watchdog()
    slots = Slots(jobs) if pin else None
    stop = threading.Event()
    templates = Templates(watchdog) if (start or default_start()) == "fork" else None

    def one(task: Task) -> None:
        if failed or stop.is_set():  # the journal cannot be written, or the run was stopped
            return
        if slots is not None:
            task = dataclasses.replace(task, pin=slots.core())
        try:
            res = run_task(task, templates=templates, watchdog=watchdog, stop=stop)
        except TaskInterrupted:
            return
        finished(res)

    try:
        if templates is not None:
            # started from this (main) thread: PR_SET_PDEATHSIG fires when the *thread* that
            # started a template ends, and pool threads end before the run does
            for task in todo:
                with contextlib.suppress(TemplateError, KeyError, OSError):
                    templates.get(task)
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [pool.submit(one, t) for t in todo]
            try:
                for fut in futures:
                    fut.result()
            except KeyboardInterrupt:
                stop.set()  # running tasks are killed at their next poll
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        stop.set()
        if templates is not None:
            templates.close()
        watchdog.close()
