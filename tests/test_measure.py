"""The measurement itself, on workloads whose time and memory are known."""

from __future__ import annotations

import sys
import textwrap
import time

from bench.measure import run_measured

# allocates and touches MB megabytes, then (optionally) starts a child that does the same
WORKLOAD = textwrap.dedent("""
    import subprocess, sys, time
    mb, child_mb, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    block = bytearray(mb * 2**20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    if child_mb:
        subprocess.run([sys.executable, __file__ if False else "-c",
                        "import time\\nb = bytearray(%d * 2**20)\\n"
                        "for i in range(0, len(b), 4096): b[i] = 1\\n"
                        "time.sleep(%f)" % (child_mb, hold)])
    else:
        time.sleep(hold)
""")


def run(mb: int, child_mb: int, hold: float, **limits):
    return run_measured([sys.executable, "-c", WORKLOAD, str(mb), str(child_mb), str(hold)],
                        time_limit_s=limits.get("time", 30),
                        memory_limit_mb=limits.get("mem", 8192))


def test_peak_memory_of_a_process_and_its_child():
    base = run(0, 0, 0.3).peak_tree_rss_mb  # the interpreter alone
    m = run(200, 300, 0.5)
    assert m.killed is None and m.returncode == 0
    # parent holds 200 MB while the child holds 300 MB: the tree peaks near 500 MB + 2 runtimes
    assert 500 <= m.peak_tree_rss_mb <= 500 + 3 * base + 40, (m, base)
    # the largest single-process high-water mark is the 300 MB child
    assert 300 <= m.hwm_mb <= 300 + base + 40


def test_the_harness_own_size_does_not_leak_into_the_measurement():
    # on Linux a child's ru_maxrss starts from its parent's high-water mark at fork: a big
    # harness would make every task look big. VmHWM and RSS belong to the task alone.
    ballast = bytearray(400 * 2**20)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    m = run(20, 0, 0.3)
    assert 20 <= max(m.peak_tree_rss_mb, m.hwm_mb) < 100, m
    del ballast


def test_a_spike_between_polls_is_seen_by_the_high_water_mark():
    # 300 MB allocated, touched and freed well inside one 2 s poll interval
    spike = ("b = bytearray(300 * 2**20)\nfor i in range(0, len(b), 4096): b[i] = 1\n"
             "del b\nimport time; time.sleep(3)")
    m = run_measured([sys.executable, "-c", spike], time_limit_s=30, memory_limit_mb=8192,
                     poll_s=2.0)
    assert m.peak_tree_rss_mb < 100 <= 300 <= m.hwm_mb


def test_wall_time_of_a_known_sleep():
    m = run(0, 0, 1.0)
    assert 1.0 <= m.wall_s <= 1.6


def test_time_limit_kills_the_whole_tree():
    t0 = time.perf_counter()
    m = run(10, 10, 60, time=1.0)  # the child would sleep for a minute
    assert m.killed == "timeout"
    assert 1.0 <= m.wall_s <= 2.5 and time.perf_counter() - t0 < 5


def test_memory_limit_kills():
    m = run(600, 0, 5, mem=300)
    assert m.killed == "memout"
    assert m.wall_s < 4
