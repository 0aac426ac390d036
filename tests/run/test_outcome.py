"""What a task that died of SIGSEGV becomes: `memout` when its measured peak was at its memory
limit (a refused allocation dereferenced: CBC under a small limit), `error` when it crashed far
below it."""

from __future__ import annotations

import os
import sys

from bench.records import Limits, Task
from bench.run.measure import run_measured
from bench.run.outcome import task_result
from bench.run.pool import Templates, run_task
from tests.conftest import ROOT, SHIKAKU_SEEDS

NURIKABE_28 = str(ROOT / "instances" / "nurikabe" / "gen-nurikabe-28x28-s1-0.txt")


def test_cbc_dying_of_sigsegv_under_a_small_memory_limit_is_a_memout():
    # under about 167-173 MB, CBC's branch and bound dereferences a refused allocation (its
    # crash handler prints "Signal SIGSEGV caught" and aborts); below, it reports bad_alloc
    results = []
    with Templates() as templates:
        for limit in (168, 170, 172):
            results.append(run_task(Task(NURIKABE_28, "mip-flow", "cbc", time_limit=20,
                                         memory_limit_mb=limit), templates=templates))
    assert [r.status for r in results] == ["memout"] * 3, [r.message for r in results]
    segv = [r for r in results if "SIGSEGV" in r.message]
    assert segv, [r.message for r in results]
    assert all(r.grid is None and r.checked is None for r in segv)
    assert all(f"of the {r.memory_limit_mb} MB limit" in r.message for r in segv)


HOG_THEN_SEGV = """
import ctypes
from bench.run.task import limit_memory
limit_memory({limit})
hoard = []
try:
    while {hog}:
        hoard.append(bytearray(4 * 2**20))  # 4 MB, touched
except MemoryError:
    pass
ctypes.string_at(0)  # SIGSEGV: a null pointer read, as a refused allocation dereferenced
"""


def _died(limit: int, hog: bool, tmp_path) -> tuple:
    task = Task(str(SHIKAKU_SEEDS[0]), "sat-cover", "cadical195", memory_limit_mb=limit)
    m = run_measured([sys.executable, "-c", HOG_THEN_SEGV.format(limit=limit, hog=hog)],
                     Limits(30, limit), env={**os.environ, "PYTHONPATH": str(ROOT)})
    return m, task_result(task, m, None, [], 0.5)


def test_a_task_that_allocates_to_its_limit_and_dies_of_sigsegv_is_a_memout(tmp_path):
    m, res = _died(100, True, tmp_path)
    assert m.returncode == -11 and not m.killed, m
    assert max(m.peak_tree_rss_mb, m.hwm_mb) >= 50  # at least half the limit
    assert res.status == "memout", res.message
    assert res.message.startswith("died of SIGSEGV with its peak at"), res.message
    assert "of the 100 MB limit" in res.message


def test_a_sigsegv_far_below_the_limit_stays_an_error(tmp_path):
    m, res = _died(1000, False, tmp_path)
    assert m.returncode == -11 and not m.killed, m
    assert res.status == "error" and "worker exited with -11" in res.message, res.message


def test_a_fatal_error_above_a_long_stack_dump_at_the_limit_is_a_memout():
    """A forked task that dies of a fatal error at its limit (exit status 1, not a signal)
    and whose stderr ends in the fault handler's stack dump: the fatal error's first line,
    far above the last, still names SIGSEGV, so the task is a memout, not an error."""
    from bench.run.measure import Measured

    task = Task(str(SHIKAKU_SEEDS[0]), "sat-cover", "cadical195", memory_limit_mb=400)
    m = Measured(returncode=1, wall_s=4.2, peak_tree_rss_mb=358.0, hwm_mb=358.0, killed=None)
    dump = ["Fatal Python error: Segmentation fault", "", "Current thread 0x7f (most recent "
            "call first):", *[f'  File "m{i}.py", line {i} in f{i}' for i in range(30)], "",
            "Extension modules: numpy._core._multiarray_umath, pyscipopt.scip (total: 2)"]
    res = task_result(task, m, None, dump, 0.5)
    assert res.status == "memout", res.message
    far_below = task_result(task, Measured(1, 4.2, 100.0, 100.0, None), None, dump, 0.5)
    assert far_below.status == "error", far_below.message
