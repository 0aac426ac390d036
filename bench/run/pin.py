"""``run --pin``: each task process on a core of its own, as BenchExec gives each run its own
cpuset (Beyer, Löwe & Wendler 2019, "Reliable benchmarking: requirements and solutions",
STTT 21).

The local pool runs ``jobs`` tasks at a time, one per worker thread; worker slot ``i`` (the
``i``-th thread to ask, :class:`Slots`) gets the ``i``-th core of the cores this process may
use (:func:`usable_cores`: its affinity mask, which a container or ``taskset`` may narrow), so
two tasks running at once never share a core and a task does not migrate between cores. The
task process pins itself first thing (:func:`pin_self`, ``os.sched_setaffinity``), before it
reads its instance or imports its formulation, so its build, its solve and every solver child
it starts (which inherit the mask) run on that core; its start (a fork from a template or an
interpreter's start) runs before, on any core. The result records the core the process
read back from its own mask (``pinned_cpu``; None when unpinned or not confirmed).

Pinning is refused, with one line, when ``jobs`` exceeds the usable cores (:func:`problem`):
two tasks on one core would measure each other. Linux only (``os.sched_setaffinity``);
elsewhere :func:`problem` says so. Tasks on a Dask cluster are not pinned (each worker owns
its machine's cores; the run says so)."""

from __future__ import annotations

import logging
import os
import threading

log = logging.getLogger(__name__)


def supported() -> bool:
    """The OS sets a process's CPU affinity (Linux)."""
    return hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity")


def usable_cores() -> list[int]:
    """The logical CPUs this process may run on, ascending (its affinity mask)."""
    if not supported():
        return list(range(os.cpu_count() or 1))
    return sorted(os.sched_getaffinity(0))


def problem(jobs: int) -> str:
    """Why ``jobs`` tasks at a time cannot each have a core ("" when they can)."""
    if not supported():
        return "--pin needs os.sched_setaffinity (Linux); this OS has none"
    cores = usable_cores()
    if jobs > len(cores):
        return (f"--pin gives every task a core of its own: --jobs {jobs} exceeds the "
                f"{len(cores)} usable cores ({', '.join(map(str, cores))})")
    return ""


def cores_for(jobs: int) -> list[int]:
    """The core of each worker slot 0 .. jobs-1."""
    return usable_cores()[:jobs]


class Slots:
    """Worker slots by thread: the first thread to ask is slot 0, the next slot 1, ...; each
    slot's core is fixed (:func:`cores_for`). Thread-safe."""

    def __init__(self, jobs: int) -> None:
        self.cores = cores_for(jobs)
        self._lock = threading.Lock()
        self._slot: dict[int, int] = {}

    def core(self) -> int:
        """The calling thread's core."""
        me = threading.get_ident()
        with self._lock:
            slot = self._slot.setdefault(me, len(self._slot))
        return self.cores[slot % len(self.cores)]


def pin_self(core: int | None) -> int | None:
    """Pin this process (and the children it starts later) to ``core``; the core read back
    from its own mask, or None (``core`` None, or the OS refused: logged)."""
    if core is None or not supported():
        return None
    try:
        os.sched_setaffinity(0, {core})
        got = os.sched_getaffinity(0)
    except OSError as e:
        log.warning("cannot pin the task to core %d: %s", core, e)
        return None
    return core if got == {core} else None


def pin_record(pin: bool, jobs: int, executor: str = "local") -> dict[str, object] | None:
    """The environment record's ``pin``: None unpinned; else ``cores`` (worker slot i on
    ``cores[i]``) or, on a Dask cluster, ``cores`` None and why."""
    if not pin:
        return None
    if executor != "local":
        return {"cores": None, "why": "tasks on a Dask cluster are not pinned"}
    return {"cores": cores_for(jobs), "usable": usable_cores()}
