"""How much of a core a harness task gets beside other work, by how that work is lowered.

Linux's scheduler with ``sched_autogroup`` on (``/proc/sys/kernel/sched_autogroup_enabled``,
the default of most desktop and many cloud kernels) first shares a core fairly between
*sessions* (each ``setsid`` makes one, and every harness task starts its own), then between the
processes within one. A process's nice value only ranks it within its session: a job started
under ``nice -n 19`` in another terminal still takes half of a core a task needs. Lowering the
other session's own weight (its autogroup's niceness, ``echo 19 > /proc/PID/autogroup``, see
``sched(7)``, "The autogroup feature") is what yields the core.

This measures it. A fixed pure-Python workload (the run's calibration loop, repeated) runs in a
session of its own, as a task does, on one core; beside it on the same core, in another session,
a busy loop runs: none, at nice 0, at nice 19, and with its session's autogroup at niceness 19.
The workload's share of the core is its CPU time over its wall time (``os.wait4``'s resource
usage): about 1.0 alone, 0.5 beside an equal competitor, near 1.0 when the competitor's weight
is the minimum (nice 19 weighs 15 against nice 0's 1024: 0.986). A last condition puts the
busy loop on *another* core: the share stays near 1.0, and the workload's CPU time beside the
"alone" one's shows what a task on one core pays for compute-bound work on another (on a
virtual machine, two virtual cores on one physical core would show here). The busy loop
barely touches memory: the cost of a second solver's cache and memory traffic is not what it
measures. One JSON line per condition.

    python -m bench.analysis.scheduler --core 1 --loops 20000000 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.run.noise import autogroup_enabled

#: the competitor's settings per condition: None (no competitor) or (process nice, autogroup
#: nice, on another core)
CONDITIONS: dict[str, tuple[int, int, bool] | None] = {
    "alone": None,
    "nice 0": (0, 0, False),
    "nice 19": (19, 0, False),
    "autogroup 19": (0, 19, False),
    "other core": (0, 0, True),
}

#: a busy loop pinned to a core, its nice and its session's autogroup niceness set first; it
#: ends when its parent (the probe) is gone, so a probe killed midway leaves no loop behind
HOG = """import os, sys
core, nice, group, parent = map(int, sys.argv[1:5])
os.sched_setaffinity(0, {core})
os.nice(nice)
if group:
    with open("/proc/self/autogroup", "w") as f:
        f.write(str(group))
print("ready", flush=True)
while os.getppid() == parent:
    for _ in range(100_000):
        pass
"""
#: the workload: the calibration loop, ``loops`` iterations, on one core
WORK = """import os, sys
from bench.run.noise import calibrate
os.sched_setaffinity(0, {int(sys.argv[1])})
calibrate(int(sys.argv[2]))
"""


def share(core: int, loops: int) -> dict[str, float]:
    """Run the workload in a session of its own on ``core``: its CPU and wall seconds and the
    share of the core it got (CPU over wall)."""
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get(
        "PYTHONPATH")]))}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", WORK, str(core), str(loops)],
                            start_new_session=True, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"the workload exited {proc.returncode}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3), "share": round(cpu / wall, 3)}


def measure(condition: str, core: int, loops: int) -> dict[str, Any]:
    """One workload run under ``condition`` (a key of :data:`CONDITIONS`)."""
    setting = CONDITIONS[condition]
    hog = None
    if setting is not None:
        nice, group, elsewhere = setting
        where = min(os.sched_getaffinity(0) - {core}) if elsewhere else core
        hog = subprocess.Popen([sys.executable, "-c", HOG, str(where), str(nice), str(group),
                                str(os.getpid())], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True, text=True)
        assert hog.stdout is not None
        if hog.stdout.readline().strip() != "ready":
            hog.kill()
            _, err = hog.communicate()
            raise RuntimeError(f"the competitor did not start under {condition!r}: "
                               + (err.strip().splitlines() or ["no message"])[-1])
    try:
        return {"condition": condition, "core": core, "load1": round(os.getloadavg()[0], 2),
                **share(core, loops)}
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()


def conditions() -> list[str]:
    """The conditions this machine can run: the autogroup one only where the kernel has
    autogroup (``/proc/self/autogroup`` to write), the other core's only with a second core
    to use."""
    return [c for c in CONDITIONS
            if (c != "autogroup 19" or autogroup_enabled() is not None)
            and (c != "other core" or len(os.sched_getaffinity(0)) > 1)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.analysis.scheduler",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--core", type=int, default=max(os.sched_getaffinity(0)),
                    help="the core the workload and its competitor share (default: the last)")
    ap.add_argument("--loops", type=int, default=20_000_000,
                    help="iterations of the calibration loop (the workload's size)")
    ap.add_argument("--rounds", type=int, default=3, help="the conditions' rounds, interleaved")
    args = ap.parse_args(argv)
    print(json.dumps({"sched_autogroup": autogroup_enabled()}), flush=True)
    for _ in range(args.rounds):
        for condition in conditions():
            print(json.dumps(measure(condition, args.core, args.loops)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
