"""A memory cgroup per task, where the machine lets the harness create one: the kernel then
holds the task's whole process tree (the task process, glpsol/cbc children, anything they
start) to the memory limit at once, between the harness's 10 ms polls too.

Linux cgroup v1's memory controller (``/sys/fs/cgroup/memory``), a group created inside the
group this process already belongs to (so a container's own limit still applies above it):
``memory.limit_in_bytes`` and ``memory.memsw.limit_in_bytes`` (no swapping past the limit) set
to the task's limit. The harness moves the task process into the group as it starts it, from
a thread (a move waits for an RCU grace period, about 11 ms here, which the task must not
pay); the processes the task starts inherit the group. Past the limit the kernel reclaims
what it can and then OOM-kills a process of the group (SIGKILL); ``memory.oom_control``
counts those kills (``oom_kill``), which the harness records as ``memout``. A cgroup v2
memory controller (``memory.max``) is used the same way where it is enabled
(``memory.events`` counts ``oom_kill``).

What the group holds: a forked task's pages shared with its template stay charged to the
template's group, so the group's usage is the task's own increase (and files it writes to a
tmpfs); the limit it enforces is therefore never stricter than the harness's polling of the
tree's RSS against the same limit, only faster. Where no group can be created (not root, no
memory controller, a read-only hierarchy), :func:`create` returns None and the limit rests on
RLIMIT_DATA and the polling, as before.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from pathlib import Path

log = logging.getLogger(__name__)

V1 = Path("/sys/fs/cgroup/memory")
V2 = Path("/sys/fs/cgroup")


def own_group(pid: str = "self") -> tuple[Path, str] | None:
    """This process's memory cgroup folder and its version ("v1"/"v2"), or None."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _id, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            return V1 / path.lstrip("/"), "v1"
    for line in lines:
        if line.startswith("0::"):
            folder = V2 / line[3:].lstrip("/")
            ctl = folder / "cgroup.subtree_control"
            with contextlib.suppress(OSError):
                if "memory" in ctl.read_text().split():
                    return folder, "v2"
    return None


def create(name: str, limit_mb: int) -> Path | None:
    """A new memory group ``name`` below this process's own, limited to ``limit_mb``; None
    where the machine does not allow it."""
    own = own_group()
    if own is None:
        return None
    parent, version = own
    group = parent / name
    limit = str(int(limit_mb) * 2**20)
    try:
        group.mkdir()
    except OSError as e:
        log.debug("no memory cgroup for tasks (%s: %s)", group, e)
        return None
    try:
        if version == "v1":
            (group / "memory.limit_in_bytes").write_text(limit)
            swap = group / "memory.memsw.limit_in_bytes"
            if swap.exists():
                swap.write_text(limit)
        else:
            (group / "memory.max").write_text(limit)
            with contextlib.suppress(OSError):
                (group / "memory.swap.max").write_text("0")
    except OSError as e:
        log.debug("cannot limit the memory cgroup %s: %s", group, e)
        remove(group)
        return None
    return group


def join(group: Path, pid: int | None = None) -> bool:
    """Move ``pid`` (default: this process) into ``group``; its later children follow."""
    try:
        (group / "cgroup.procs").write_text(str(pid or os.getpid()))
    except OSError as e:
        log.debug("cannot join the memory cgroup %s: %s", group, e)
        return False
    return True


def join_soon(group: Path, pid: int) -> None:
    """Move ``pid`` into ``group`` from a thread of its own: a move waits for an RCU grace
    period (about 11 ms here when no other move just happened), which the task must not
    spend; what the task starts after the move is in the group too."""
    threading.Thread(target=join, args=(group, pid), daemon=True, name="cgroup-join").start()


def oom_kills(group: Path) -> int:
    """How many processes of the group the kernel killed at its limit."""
    for name in ("memory.oom_control", "memory.events"):
        with contextlib.suppress(OSError):
            for line in (group / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
    return 0


def peak_mb(group: Path) -> float | None:
    """The group's high-water mark (v1 ``memory.max_usage_in_bytes``, v2 ``memory.peak``)."""
    for name in ("memory.max_usage_in_bytes", "memory.peak"):
        with contextlib.suppress(OSError, ValueError):
            return int((group / name).read_text()) / 2**20
    return None


def remove(group: Path, wait_s: float = 2.0) -> bool:
    """Remove the group once its processes are gone (the kernel refuses while any is left)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            group.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError as e:
            if time.monotonic() >= deadline:
                log.warning("memory cgroup %s left behind: %s", group, e)
                return False
            time.sleep(0.01)


def for_task(folder: Path, limit_mb: int) -> Path | None:
    """A group for the task whose folder this is, named after it; None where the machine
    offers none."""
    return create(folder.name, limit_mb)


def close(group: Path) -> int:
    """At the task's end: how many processes the kernel killed at the group's limit; the
    group removed."""
    kills = oom_kills(group)
    remove(group)
    return kills


class TaskGroup:
    """The group of one task as a context: ``path`` (None where the machine offers none)
    inside; on leaving, however it is left, ``kills`` holds :func:`close`'s count and the
    group is gone."""

    def __init__(self, folder: Path, limit_mb: int) -> None:
        self.folder, self.limit_mb = folder, limit_mb
        self.path: Path | None = None
        self.kills = 0

    def __enter__(self) -> TaskGroup:
        self.path = for_task(self.folder, self.limit_mb)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.path is not None:
            self.kills = close(self.path)
