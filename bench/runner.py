"""Plan tasks from a suite and a selection, run each in its own measured process, journal them."""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bench.backends import backends_for
from bench.execute import base_result
from bench.instance import InstanceError, read_instance
from bench.measure import RSS_METHOD, run_measured
from bench.records import Result, Task
from bench.registry import Formulation, formulations, parse_label, variants
from bench.storage import Journal

log = logging.getLogger(__name__)

#: seconds past the task's time limit before the process is killed from outside (the worker
#: also needs to start Python and import its solver, which the in-process limit does not see)
GRACE_S = 10.0
#: thread-count variables fixed for every task process (BLAS pools inside numpy, OpenMP)
THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@dataclass(frozen=True)
class Selection:
    puzzles: Sequence[str] = ()
    formulations: Sequence[str] = ()  # a name selects every variant; a label just that one
    solvers: Sequence[str] = ()

    def wants(self, form: Formulation) -> bool:
        """A bare name selects every variant; ``name[k=v]`` the variants with those values."""
        if not self.formulations:
            return True
        for want in self.formulations:
            name, params = parse_label(want)
            if name == form.name and all(str(form.params.get(k)) == v for k, v in params.items()):
                return True
        return False


@dataclass
class Plan:
    tasks: list[Task] = field(default_factory=list)
    #: instances that could not be read: recorded as `error` results, the rest goes on
    errors: list[Result] = field(default_factory=list)


def plan_tasks(
    instances: Iterable[str],
    selection: Selection,
    *,
    time_limit: float,
    memory_limit_mb: int,
    seed: int = 0,
    threads: int = 1,
    count: int = 0,
) -> Plan:
    plan = Plan()
    for path in instances:
        try:
            inst = read_instance(path)
        except InstanceError as e:
            task = Task(path, "-", "-", time_limit, memory_limit_mb, seed, threads, count)
            plan.errors.append(base_result(task, None, "error", str(e)))
            continue
        if selection.puzzles and inst.puzzle not in selection.puzzles:
            continue
        for cls in formulations(inst.puzzle):
            for form in variants(cls):
                if not selection.wants(form):
                    continue
                for b in backends_for(cls.kind):
                    if selection.solvers and b.name not in selection.solvers:
                        continue
                    if b.available() is not None:
                        log.warning("skipping solver %s: %s", b.name, b.available())
                        continue
                    plan.tasks.append(
                        Task(path, form.label, b.name, time_limit, memory_limit_mb, seed, threads,
                             count)
                    )
    return plan


def task_env(threads: int) -> dict[str, str]:
    env = dict(os.environ)
    for var in THREAD_ENV:
        env[var] = str(threads)
    # the worker imports `bench` from wherever this process did (installed or source tree)
    here = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
    return env


def run_task(task: Task, grace_s: float = GRACE_S) -> Result:
    """Run one task in a fresh process under the outside limits; never raises for task faults."""
    with tempfile.TemporaryDirectory(prefix="puzzlebench-task-") as tmp:
        out = Path(tmp) / "result.json"
        errlog = Path(tmp) / "stderr.txt"
        m = run_measured(
            [sys.executable, "-m", "bench.worker", json.dumps(task.to_dict()), str(out)],
            time_limit_s=task.time_limit + grace_s,
            memory_limit_mb=task.memory_limit_mb,
            env=task_env(task.threads),
            stderr_path=errlog,
        )
        data = json.loads(out.read_text()) if out.exists() else None
        stderr_tail = [ln for ln in errlog.read_text(errors="replace").splitlines() if ln.strip()]
    if data is not None:
        res = Result.from_dict(data)
        children = float(data.get("children_maxrss_mb") or 0.0)
    else:
        try:
            inst = read_instance(task.instance)
        except InstanceError:
            inst = None
        res = base_result(task, inst, "error")
        children = 0.0
    if m.killed:
        res.status = m.killed
        limit = f"{task.time_limit + grace_s:g} s" if m.killed == "timeout" else \
            f"{task.memory_limit_mb} MB"
        res.message = f"killed by the harness at {limit}" + (f" ({res.message})" if res.message
                                                            else "")
        res.grid, res.checked = None, None
    elif data is None or m.returncode != 0:
        res.status = "error"
        res.message = (stderr_tail[-1] if stderr_tail else f"worker exited with {m.returncode}")
    res.wall_s = m.wall_s
    res.peak_rss_mb = max(m.peak_tree_rss_mb, m.hwm_mb, children)
    res.rss_method = RSS_METHOD
    return res


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


def run_plan(
    plan: Plan,
    journal: Journal,
    *,
    jobs: int = 1,
    on_result: Callable[[Result], None] | None = None,
) -> list[Result]:
    """Run every task not already in the journal; append each result as it finishes."""
    done = journal.keys()
    for res in plan.errors:
        if res.key not in done:
            journal.append(res)
    todo = [t for t in plan.tasks if t.key not in done]
    if len(todo) < len(plan.tasks):
        log.info("resuming: %d of %d tasks already done", len(plan.tasks) - len(todo),
                 len(plan.tasks))
    progress = Progress(len(todo), jobs)
    lock = threading.Lock()
    results: list[Result] = []

    def one(task: Task) -> None:
        res = run_task(task)
        with lock:
            journal.append(res)
            results.append(res)
            progress.update(res)
            if on_result:
                on_result(res)

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for fut in [pool.submit(one, t) for t in todo]:
                fut.result()
    finally:
        progress.close()
    return results
