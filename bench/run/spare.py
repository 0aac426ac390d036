"""A forked task child's side of the fork server (:mod:`bench.run.forkserver`): what a child
does after ``fork`` and before its task (its own session, the death signal, its memory
high-water mark reset, stdin and stdout on /dev/null), the *spare* that does it ahead of time
and then waits for its task on a pipe, and the hand-off of a task to it.

A spare says it is ready on a pipe of its own with its RSS at that moment (what its task
starts from: ``base_rss_mb``), then reads its task's request to the end of its request pipe
and runs it; end-of-file without a request means its template ended or dropped it.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import importlib
import json
import os
import select
import signal
import sys
from collections.abc import Sequence
from typing import Any

from bench.run.interrupt import STOPS

PR_SET_PDEATHSIG = 1


_prctl: list[Any] = []  # libc's prctl, looked up once: a template's children inherit it


def die_with_parent(parent: int) -> None:
    """Be killed (SIGKILL) when the parent thread/process exits (Linux; no-op elsewhere)."""
    with contextlib.suppress(OSError, AttributeError):
        if not _prctl:
            _prctl.append(ctypes.CDLL(None, use_errno=True).prctl)
        _prctl[0](PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def reset_peak_rss() -> bool:
    """Reset this process's VmHWM to its current RSS (Linux >= 4.0, ``clear_refs`` value 5):
    a forked child inherits the template's high-water mark, which is not the task's."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


#: set in a forked child whose VmHWM could not be reset (it is the template's, not the task's)
HWM_INHERITED = "PUZZLEBENCH_HWM_INHERITED"


def _prepare(parent: int) -> None:
    """In a forked child, before its task: new session, death signal, the template's signal
    set-up undone (also the stop handlers of a command that forked it: a stop signal sent to
    the task ends it at once, as one sent to a task started afresh; one ignored stays ignored),
    VmHWM reset, stdin and stdout on /dev/null."""
    os.setsid()
    die_with_parent(parent)
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for signum in STOPS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
    if not reset_peak_rss():  # VmHWM still holds the template's peak: the task must not use it
        os.environ[HWM_INHERITED] = "1"
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)


def _run(req: dict[str, Any]) -> int:
    """In a prepared child: stderr to the task's file, then the target; its exit code."""
    err = os.open(req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644) \
        if req.get("stderr") else os.open(os.devnull, os.O_WRONLY)
    os.dup2(err, 2)
    os.close(err)
    module, func = req["target"].split(":")
    return int(getattr(importlib.import_module(module), func)(*req["args"]) or 0)


def child_main(req: dict[str, Any], parent: int) -> None:
    """In a child forked for ``req``: prepare, run the target, exit without cleanup."""
    code = 1
    try:
        _prepare(parent)
        code = _run(req)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:  # report and exit; never return into the template
        _report()
    finally:
        _flush_exit(code)


def _spare(parent: int, tasks: int, ready: int) -> None:
    """In a spare child: prepare, say so on ``ready``, wait for the task's request on
    ``tasks`` (the whole pipe, to its end), run it, exit without cleanup. End-of-file without
    a request (the template ended or dropped this spare): exit 0."""
    code = 1
    try:
        _prepare(parent)
        os.write(ready, b"r" + rss_bytes().to_bytes(8, "little"))
        os.close(ready)
        data = b""
        while chunk := os.read(tasks, 65536):
            data += chunk
        os.close(tasks)
        if not data:
            code = 0
            return
        code = _run(json.loads(data))
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:  # report and exit; never return into the template
        _report()
    finally:
        _flush_exit(code)


def _report() -> None:
    import traceback

    traceback.print_exc()


def _flush_exit(code: int) -> None:
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    os._exit(code)


@dataclasses.dataclass
class Spare:
    """The template's pre-forked child: its pid, the write end of its request pipe, the read
    end of its ready pipe, its RSS (the template's when it forked it, then the spare's own RSS
    as it said ready: what its task starts from), and whether it said ready."""

    pid: int
    tasks: int
    ready: int
    rss: int
    is_ready: bool = False

    def close(self) -> None:
        for fd in (self.tasks, self.ready):
            with contextlib.suppress(OSError):
                os.close(fd)

    def wait_ready(self, timeout: float) -> bool:
        """Whether the spare said ready within ``timeout`` s (False: it died or hangs)."""
        if not self.is_ready and readable([self.ready], timeout):
            try:
                said = os.read(self.ready, 9)
            except OSError:
                said = b""
            self.is_ready = len(said) == 9 and said[:1] == b"r"
            if self.is_ready:
                self.rss = int.from_bytes(said[1:], "little")
        return self.is_ready

    def hand(self, data: bytes) -> bool:
        """Write the request and close the pipe (the spare reads to its end); False if the
        spare is gone."""
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.tasks, view):]
            return True
        except OSError:
            return False
        finally:
            self.close()


def fork_spare(parent: int) -> Spare:
    """Fork a spare child (:func:`_spare`) from this process (the template)."""
    rss = rss_bytes()
    tasks_r, tasks_w = os.pipe()
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(tasks_w)
        os.close(ready_r)
        _spare(parent, tasks_r, ready_w)
    os.close(tasks_r)
    os.close(ready_w)
    SPARES.add(pid)
    return Spare(pid, tasks_w, ready_r, rss)


#: the template's spares that were handed no task (alive, or not yet reaped)
SPARES: set[int] = set()


def readable(fds: Sequence[int], timeout: float | None) -> list[int]:
    """Which of ``fds`` are readable (or closed) within ``timeout`` s (None: wait); ``poll``,
    which takes any descriptor number, unlike ``select``."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    try:
        events = poller.poll(None if timeout is None else timeout * 1000)
    except InterruptedError:  # pragma: no cover - PEP 475 retries; kept for safety
        return []
    return [fd for fd, _ in events]


#: seconds the template waits for its spare to say ready before it forks a child instead
SPARE_READY_S = 5.0
