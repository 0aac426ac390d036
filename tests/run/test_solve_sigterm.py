"""SIGTERM of `puzzlebench solve` stops it as Ctrl-C does: the task's process tree killed and
reaped before the command leaves, its memory cgroup removed, one line said and 143 (128 +
SIGTERM) returned. A real command on a slow instance, a real signal."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.run.interrupt import STOPS, Interrupted, stop_on_signals
from tests.conftest import ROOT
from tests.run.test_forkserver_prefork import children
from tests.run.test_interrupt import deliver, handlers  # noqa: F401 (a fixture)
from tests.run.test_measure import alive

#: 37 s for the declared default (sat-hybrid on CaDiCaL) on a loaded machine: it runs on
#: when the signal comes
SLOW = ROOT / "instances" / "nurikabe" / "big" / "gen-nurikabe-50x50-s1-big2-0.txt"
#: generous: the goal is under 0.5 s on a quiet machine; tests share a loaded one
EXIT_BOUND_S = 5.0


def test_a_nested_stop_takes_the_signals_its_outer_one_does_not():
    """The command line takes Ctrl-C alone; `solve` takes SIGTERM too, with the same stop,
    until it leaves: then SIGTERM is as before, or ignored once a signal fired (deaf)."""
    before = signal.getsignal(signal.SIGTERM)
    with stop_on_signals((signal.SIGINT,)) as outer:
        with stop_on_signals(STOPS, deaf=True) as inner:
            assert inner is outer and signal.getsignal(signal.SIGTERM) == outer.handle
        assert signal.getsignal(signal.SIGTERM) is before  # nothing fired
        with pytest.raises(Interrupted) as e, stop_on_signals(STOPS, deaf=True):
            deliver(signal.SIGTERM)
        assert e.value.signum == outer.fired == signal.SIGTERM
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) == outer.handle  # the outer one's, still


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _memory_group(pid: int) -> Path | None:
    """The memory cgroup folder ``pid`` is in (v1 or v2), None where there is none."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            return Path("/sys/fs/cgroup/memory" + path)
        if controllers == "":
            return Path("/sys/fs/cgroup" + path)
    return None


@contextlib.contextmanager
def solving(*options: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A real `puzzlebench solve` of :data:`SLOW` in a session of its own, and its task's
    process id once the task runs; both killed on leaving if still there."""
    cmd = [sys.executable, "-m", "bench.cli", "solve", str(SLOW), "--time-limit", "60", *options]
    harness = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    tasks: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while not tasks and time.monotonic() < deadline and harness.poll() is None:
            # the task, forked from the command (the watchdog runs `python -S -I`)
            tasks = [c for c in children(harness.pid) if " -S -I " not in _cmdline(c)]
            time.sleep(0.05)
        assert tasks, "no task process started"
        yield harness, tasks[0]
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()
        for pid in tasks:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_sigterm_kills_the_task_removes_its_group_and_ends_with_143():
    with solving() as (harness, task):
        tasks = [task]
        time.sleep(2.0)  # the task solves meanwhile (in its memory cgroup where there is one)
        own = _memory_group(os.getpid())
        group = _memory_group(tasks[0])
        group = group if group != own else None
        started = children(harness.pid)
        t0 = time.perf_counter()
        harness.send_signal(signal.SIGTERM)
        harness.wait(timeout=60)  # its output is a line or two: no pipe fills
        took = time.perf_counter() - t0
        left = [pid for pid in tasks if alive(pid)]  # at the command's exit, not later
        _, err = harness.communicate(timeout=60)
        assert harness.returncode == 143, (harness.returncode, err)
        assert err.splitlines()[-1] == "puzzlebench: interrupted", err
        assert "Traceback" not in err, err
        assert took < EXIT_BOUND_S, took
        assert left == [], "the task outlived the command"
        assert group is None or not group.exists(), f"the task's memory cgroup {group} is left"
        time.sleep(0.5)  # the watchdog, told the command ended, is gone too
        assert [pid for pid in started if alive(pid)] == []


def _caught(pid: int) -> int:
    """The signal mask ``pid`` catches with a handler (``SigCgt`` of /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    raise AssertionError(f"no SigCgt for {pid}")


def test_the_task_forked_by_solve_does_not_keep_its_stop_handlers():
    """The command's stop handlers are not the task's: a SIGTERM sent to the task alone ends
    it at once (a Python handler would wait for the solver's C call to return, and then
    ignore a second one)."""
    with solving("--json") as (harness, task):
        time.sleep(1.0)  # in the solver's call by now (the build takes about 0.5 s)
        caught = _caught(task)
        # SIGINT left out: python-sat catches it itself during a solver's call
        assert [s for s in STOPS if s != signal.SIGINT and caught >> (s - 1) & 1] == []
        t0 = time.perf_counter()
        os.kill(task, signal.SIGTERM)
        while alive(task) and time.perf_counter() - t0 < 30:
            time.sleep(0.01)
        assert time.perf_counter() - t0 < EXIT_BOUND_S
        out, _ = harness.communicate(timeout=60)
        assert '"status": "error"' in out and "-15" in out, out
