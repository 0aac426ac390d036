"""A template's task process is timed to its own exit (a pidfd), not to the template's exit
notice, which comes after the template reaped it: the wall time leaves out the notice's
delay; the exit code and CPU time are still the notice's."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from queue import Queue

import pytest

from bench.records import Limits
from bench.run.forkserver import Forked
from bench.run.measure import ExitWatcher, watch

LIVES_S, NOTICE_LATE_S = 0.3, 0.6


def late_notice(p: subprocess.Popen[bytes], exits: Queue) -> None:
    """The template's part, slow: reap the process, then send its exit notice late."""
    code = p.wait()
    time.sleep(NOTICE_LATE_S)
    exits.put((code, 0.004))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pidfd: Linux")
def test_the_wall_time_ends_at_the_exit_not_at_the_late_notice():
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({LIVES_S})"])
    exits: Queue = Queue()
    threading.Thread(target=late_notice, args=(p, exits), daemon=True).start()
    waiter = ExitWatcher(p.pid, Forked(p.pid, 0, exits))
    try:
        m = watch(p.pid, waiter, t0, Limits(time_limit_s=10, memory_limit_mb=1000))
    finally:
        waiter.close()
    done = time.perf_counter()
    assert m.returncode == 0 and m.killed is None
    assert m.cpu_s == 0.004  # the notice's
    assert done - t0 >= LIVES_S + NOTICE_LATE_S  # the watch waited for the notice
    assert LIVES_S <= m.wall_s < LIVES_S + NOTICE_LATE_S, m.wall_s
    assert m.end is not None and m.end == pytest.approx(t0 + m.wall_s)


def test_without_a_process_to_watch_the_notice_ends_the_wall_time():
    p = subprocess.Popen(["true"])
    p.wait()  # reaped: no pidfd can be opened
    exits: Queue = Queue()
    exits.put((0, 0.001))
    waiter = ExitWatcher(p.pid, Forked(p.pid, 0, exits))
    assert waiter.fd is None
    t0 = time.perf_counter()
    m = watch(p.pid, waiter, t0, Limits(time_limit_s=10, memory_limit_mb=100))
    waiter.close()
    assert m.returncode == 0 and m.cpu_s == 0.001 and 0 <= m.wall_s < 5
