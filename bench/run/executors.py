"""Where a run's tasks execute. The default is the local pool (:func:`bench.run.pool.run_plan`:
``--jobs`` tasks at a time on this machine); :class:`DaskExecutor` submits every task to a
Dask cluster (``run --executor dask [--scheduler ADDRESS]``), where a task runs exactly as it
does locally (:mod:`bench.run.dask_worker`). Results come back as each finishes and are journalled
here, on the client, so resume, Parquet and the report work the same across executors."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.judge import UNJUDGED, worker_failed
from bench.records import Result, Task
from bench.run.execute import base_result

log = logging.getLogger(__name__)

#: times a task may take its worker down before it is recorded as an error (Dask's
#: ``distributed.scheduler.allowed-failures``, set here for a cluster this run starts)
ALLOWED_FAILURES = 1


@dataclass
class DaskExecutor:
    """Runs tasks on the Dask scheduler at ``scheduler`` (``tcp://HOST:PORT``), or on a
    ``LocalCluster`` of ``workers`` single-threaded worker processes when none is given."""

    scheduler: str | None = None
    workers: int = 0  # LocalCluster workers (0: one per core)
    start: str = "fork"
    #: worker address -> that machine's environment, filled once connected
    environments: dict[str, Any] = field(default_factory=dict)

    def run(self, todo: Sequence[Task], finished: Callable[[Result], None]) -> None:
        """Submit every task; hand each result to ``finished`` as it arrives. A task that took its
        worker down more than ``allowed-failures`` times is recorded as an ``error`` with
        the reason; Ctrl-C cancels what is left (what was recorded stays)."""
        import dask
        from distributed import Client, KilledWorker, LocalCluster, as_completed

        from bench.run.dask_worker import TaskProcesses, run_on_worker, worker_environment

        logging.getLogger("distributed").setLevel(logging.WARNING)
        cluster = None
        # the local cluster's scratch space (and its lock files) go to a folder of this run's,
        # removed at its end, not to TMPDIR
        scratch = tempfile.TemporaryDirectory(prefix="puzzlebench-dask-")
        if self.scheduler is None:
            with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                                  "temporary-directory": scratch.name}), _stops_ignored():
                cluster = LocalCluster(n_workers=self.workers or os.cpu_count() or 1,
                                       threads_per_worker=1, processes=True,
                                       dashboard_address=None, local_directory=scratch.name)
        client = Client(cluster if cluster is not None else self.scheduler)
        futures: dict[Any, Task] = {}
        try:
            client.register_plugin(TaskProcesses(self.start))
            self.environments = client.run(worker_environment)
            log.info("Dask: %d workers (%s)", len(self.environments),
                     self.scheduler or "a local cluster")
            futures = {client.submit(run_on_worker, t, key=f"puzzlebench-{i}-{t.key}",
                                     pure=False): t for i, t in enumerate(todo)}
            for fut in as_completed(futures):
                task = futures[fut]
                try:
                    res = fut.result()
                except Exception as e:  # a task fault never stops the run
                    res = base_result(task, None, UNJUDGED)
                    worker_failed(res, e, isinstance(e, KilledWorker))
                fut.release()  # recorded: never recomputed if its worker dies later
                finished(res)
        except KeyboardInterrupt:
            client.cancel(list(futures))
            raise
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
            scratch.cleanup()


@contextlib.contextmanager
def _stops_ignored() -> Iterator[None]:
    """Every stop signal (:data:`bench.run.interrupt.STOPS`: SIGINT, SIGTERM, SIGHUP, SIGQUIT)
    ignored while the local cluster's processes start: they inherit that, so a signal sent to
    the whole process group (a terminal's Ctrl-C or ``Ctrl-\\``, a closed terminal's hangup, a
    ``kill`` of the group) reaches only the harness, which stops the run and closes the
    cluster, and no worker dies noisily (a traceback, a core dump). Left open: a stop that
    reaches the harness itself in that moment is ignored too."""
    from bench.run.interrupt import STOPS

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {n: signal.signal(n, signal.SIG_IGN) for n in STOPS}
    try:
        yield
    finally:
        for n, h in old.items():
            signal.signal(n, h)
