"""The machine's state during a run: a calibration loop's time, the load average and other
processes' CPU share, sampled before, during and after a run (:class:`Monitor`), and the
judgments read from those samples: whether a run was disturbed (:func:`disturbance`) and the
machine's speed (:func:`speed`). Imports no solver library: the report and ``compare`` read
these judgments from a run's ``environment.json``."""

from __future__ import annotations

import datetime as dt
import os
import time
from pathlib import Path
from typing import Any

CALIBRATION_LOOPS = 1_000_000


def calibrate(loops: int = CALIBRATION_LOOPS) -> float:
    """Seconds for a fixed pure-Python loop, timed at the start and end of every run: the
    machine's speed and noise during the run (compare runs, or start against end)."""
    t0 = time.perf_counter()
    acc = 0
    for i in range(loops):
        acc = (acc + i * i) % 1_000_003
    return time.perf_counter() - t0




#: a calibration sample this much slower than the run's first one marks the run disturbed
SLOWER = 1.2
#: other processes' share of all cores above this marks the run disturbed
OTHERS_SHARE = 0.25
#: the 1-min load average above the run's jobs plus this marks the run disturbed (the run's
#: own tasks count in the load, its coordinating process barely does)
LOAD_MARGIN = 1.0


class CpuShare:
    """Other processes' share of the machine's CPU since the last call: the whole machine's
    busy CPU time (``psutil.cpu_times``, every process, short-lived ones too) less this
    process tree's (this process, its live descendants and the children each of them waited
    for), over the elapsed wall time times the cores; 0.0 to 1.0."""

    def __init__(self) -> None:
        self.last = self._now()

    @staticmethod
    def _now() -> tuple[float, float, float]:
        import psutil

        t = psutil.cpu_times()
        busy = sum(t) - t.idle - getattr(t, "iowait", 0.0)
        own = 0.0
        me = psutil.Process()
        for p in [me, *me.children(recursive=True)]:
            try:
                c = p.cpu_times()
            except psutil.Error:  # ended meanwhile: its parent's children times hold it
                continue
            own += c.user + c.system + c.children_user + c.children_system
        return time.monotonic(), busy, own

    def share(self) -> float:
        (t0, busy0, own0), (t1, busy1, own1) = self.last, self._now()
        self.last = (t1, busy1, own1)
        span = (t1 - t0) * (os.cpu_count() or 1)
        return min(1.0, max(0.0, ((busy1 - busy0) - (own1 - own0)) / span)) if span > 0 else 0.0


#: the kernel's switch for sharing the CPU between sessions first (Linux's autogroup)
AUTOGROUP_SWITCH = Path("/proc/sys/kernel/sched_autogroup_enabled")


def autogroup_enabled() -> bool | None:
    """Whether the kernel shares the CPU between sessions first, then within them (Linux's
    ``sched_autogroup``; ``sched(7)``): then a process's nice value ranks it only within its
    session, and another session's niced job still takes an equal share. None where it cannot
    be read (not Linux, or a kernel without autogroup)."""
    try:
        return AUTOGROUP_SWITCH.read_text().strip() == "1"
    except OSError:
        return None


def load1() -> float | None:
    """The machine's 1-min load average (None where the OS has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def machine_sample(share: CpuShare, loops: int = CALIBRATION_LOOPS) -> dict[str, Any]:
    """One sample of the machine's state: when, the calibration loop's seconds, the 1-min
    load average and other processes' CPU share since ``share``'s last call."""
    return {"at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "calibration_s": round(calibrate(loops), 4), "load1": load1(),
            "others_cpu": round(share.share(), 3)}


class Monitor:
    """A thread that, while a run runs, samples the machine every ``every`` s
    (:func:`machine_sample`), keeps the latest load average in ``live["load"]`` (updated every
    few seconds: a run sets it on each result it records) and, with ``progress`` > 0, calls
    ``tick()`` every ``progress`` s (a progress line). :meth:`stop` ends it and returns the
    samples, the first taken at :meth:`start`, the last at :meth:`stop`."""

    def __init__(self, every: float = 60.0, progress: float = 0.0,
                 tick: Any = None, live: dict[str, Any] | None = None) -> None:
        import threading

        self.every, self.progress, self.tick = every, progress, tick
        self.live = live if live is not None else {}
        self.samples: list[dict[str, Any]] = []
        self.share = CpuShare()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="machine-monitor", daemon=True)

    def start(self) -> Monitor:
        self.samples.append(machine_sample(self.share))
        self.live["load"] = load1()
        self._thread.start()
        return self

    def _loop(self) -> None:
        t0 = time.monotonic()
        next_sample, next_tick = t0 + self.every, t0 + self.progress
        step = min(5.0, self.every, self.progress or 5.0)
        while not self._stop.wait(step):
            now = time.monotonic()
            self.live["load"] = load1()
            if self.every > 0 and now >= next_sample:
                self.samples.append(machine_sample(self.share))
                next_sample = now + self.every
            if self.progress > 0 and self.tick is not None and now >= next_tick:
                self.tick()
                next_tick = now + self.progress

    def stop(self, last: bool = True) -> list[dict[str, Any]]:
        """End the thread; with ``last``, take a final sample."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        if last:
            self.samples.append(machine_sample(self.share))
        return self.samples


def samples_of(env: dict[str, Any]) -> list[dict[str, Any]]:
    """A record's machine samples (those that are records; none when ``samples`` is no list)."""
    samples = env.get("samples")
    return [s for s in samples if isinstance(s, dict)] if isinstance(samples, list) else []


def _calibrations(env: dict[str, Any]) -> list[float]:
    """A record's calibration figures in time order: start, samples, end."""
    cal = env.get("calibration")
    cal = cal if isinstance(cal, dict) else {}
    samples = samples_of(env)
    return [float(x) for x in [cal.get("start_s"), *(s.get("calibration_s") for s in samples),
                               cal.get("end_s")] if isinstance(x, int | float) and x > 0]


def disturbance(env: dict[str, Any]) -> list[str]:
    """Why a run's machine was disturbed, from its environment record (``calibration``'s
    start and end and the ``samples`` a :class:`Monitor` took; ``jobs``, ``cores``): a
    calibration loop more than :data:`SLOWER` times slower than the run's first (the samples
    during the run left out of this where the jobs fill every core: the loop then competes with
    the run's own tasks), a load average above the jobs
    plus :data:`LOAD_MARGIN`, other processes taking more than :data:`OTHERS_SHARE` of the
    CPU; and, from the record alone, more jobs than cores where the tasks ran on this machine
    (no Dask ``scheduler``): oversubscribed, the tasks wait for a core, which no threshold
    above can show, each being the run's own load. One phrase per
    reason; none: the samples show a quiet machine (or there are none) and the jobs fit the
    cores."""
    samples = samples_of(env)
    jobs = env["jobs"] if isinstance(env.get("jobs"), int) else 1
    cores = env["cores"] if isinstance(env.get("cores"), int) else None
    # with as many jobs as cores, the loop during the run shares a core with the run's own
    # tasks and is slower by design: then only the start and the end (no task running) are
    # compared, and the samples during the run judged by the load and the others' share
    own = cores is not None and jobs >= cores
    times = _calibrations({**env, "samples": []} if own else env)
    out = []
    if cores is not None and jobs > cores and not env.get("scheduler"):  # its tasks ran here
        out.append(f"the run was oversubscribed with {jobs} jobs on {cores} cores, so its task "
                   "times include waiting for a core")
    if len(times) > 1 and max(times) > SLOWER * times[0]:
        out.append(f"the calibration loop took up to {max(times):.3f} s, "
                   f"{max(times) / times[0]:.1f}x its {times[0]:.3f} s at the start")
    loads = [float(s["load1"]) for s in samples if isinstance(s.get("load1"), int | float)]
    if loads and max(loads) > jobs + LOAD_MARGIN:
        out.append(f"the load average reached {max(loads):.1f} with {jobs} job"
                   f"{'s' if jobs != 1 else ''}")
    others = [float(s["others_cpu"]) for s in samples
              if isinstance(s.get("others_cpu"), int | float)]
    if others and max(others) > OTHERS_SHARE:
        out.append(f"other processes took up to {max(others):.0%} of the CPU")
    return out


def speed(env: dict[str, Any]) -> float | None:
    """A run's machine speed as its calibration loop's seconds: the fastest figure of the run
    (the least disturbed); None without one."""
    times = _calibrations(env)
    return min(times) if times else None
