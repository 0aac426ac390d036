"""A task process that ended before the harness began to watch it (a fast task forked from a
template, reaped by the template at once) is measured as ended: the harness must not take it
for a failed start and run the task a second time."""

from __future__ import annotations

import subprocess
import time
from queue import Queue

from bench.records import Limits
from bench.run.forkserver import Forked
from bench.run.measure import watch


def test_a_process_gone_before_the_watch_is_measured_as_ended():
    p = subprocess.Popen(["true"])
    p.wait()  # ended and reaped: nothing at its pid any more, as with a template's fast child
    exits: Queue = Queue()
    exits.put((0, 0.001))  # the template's exit notice, already sent
    t0 = time.perf_counter()
    m = watch(p.pid, Forked(p.pid, 0, exits), t0, Limits(time_limit_s=10, memory_limit_mb=100))
    assert m.returncode == 0 and m.killed is None
    assert m.cpu_s == 0.001
    assert 0 <= m.wall_s < 5


def test_a_process_gone_between_polls_is_measured_until_its_exit_notice():
    """The exit notice comes after the process is gone: the polls in between find no
    process and no memory, and the watch ends at the notice."""
    p = subprocess.Popen(["true"])
    p.wait()
    exits: Queue = Queue()

    class Late(Forked):
        polls = 0

        def wait(self, timeout: float) -> int | None:
            Late.polls += 1
            if Late.polls == 3:
                exits.put((0, 0.0))
            return super().wait(timeout)

    m = watch(p.pid, Late(p.pid, 0, exits), time.perf_counter(),
              Limits(time_limit_s=10, memory_limit_mb=100), poll_s=0.001)
    assert m.returncode == 0 and m.killed is None and Late.polls >= 3
    assert m.peak_tree_rss_mb == 0
