"""What runs on a Dask worker (imported only there and by the Dask executor; needs the
``dask`` extra): each task exactly as in a local run, through :func:`bench.run.pool.run_task`
(its own process forked from the worker's templates, the same limits and measurements), with
a per-worker watchdog and fork-server templates held by a worker plugin."""

from __future__ import annotations

from typing import Any

from distributed import WorkerPlugin, get_worker

from bench.records import Result, Task
from bench.run.environment import environment
from bench.run.forkserver import Watchdog
from bench.run.pool import Templates, run_task

PLUGIN = "puzzlebench-tasks"


class TaskProcesses(WorkerPlugin):
    """The worker's watchdog (its tasks' processes die with the worker) and, for
    ``start="fork"``, its fork-server templates; closed when the worker closes."""

    name = PLUGIN

    def __init__(self, start: str) -> None:
        self.start = start
        self.watchdog: Watchdog | None = None
        self.templates: Templates | None = None

    def setup(self, worker: Any) -> None:
        self.watchdog = Watchdog()
        self.templates = Templates(self.watchdog) if self.start == "fork" else None

    def teardown(self, worker: Any) -> None:
        if self.templates is not None:
            self.templates.close()
        if self.watchdog is not None:
            self.watchdog.close()


def run_on_worker(task: Task) -> Result:
    """One task on this worker; the result records the worker's host."""
    plugin = get_worker().plugins[PLUGIN]
    assert isinstance(plugin, TaskProcesses)
    return run_task(task, templates=plugin.templates, watchdog=plugin.watchdog,
                    start=plugin.start)


def worker_environment() -> dict[str, Any]:
    """This worker machine's environment (CPU, cores, memory, package and solver versions)."""
    return environment()
