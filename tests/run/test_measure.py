"""The measurement itself, on workloads whose time and memory are known."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time

import pytest

from bench.records import Limits
from bench.run.forkserver import Template
from bench.run.measure import run_measured, vm_hwm_bytes, watch

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


#: what the harness's interval and the kernel's CPU figure hold beyond the workload's own
#: readings: the interpreter's exit after its last reading (finalisation, unmapping), up to
#: about 10 ms on a loaded 2-core machine
EXIT_S = 0.02

def run(mb: int, child_mb: int, hold: float, **limits):
    return run_measured([sys.executable, "-c", WORKLOAD, str(mb), str(child_mb), str(hold)],
                        Limits(limits.get("time", 30), limits.get("mem", 8192)))


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
    m = run_measured([sys.executable, "-c", spike], Limits(30, 8192), poll_s=2.0)
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


# ---------------------------------------------------------------- fidelity on known workloads
# Each workload reports what the kernel says about itself (its own wall interval on the
# system-wide monotonic clock, os.times() CPU including waited-for children, VmRSS before it
# allocates); the harness's figures, measured from outside, must agree within the tolerances.



SELF = textwrap.dedent("""
    import json, os, resource, subprocess, sys, time
    T0 = time.perf_counter()
    def rss_mb():
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    def burn(s):
        t = time.process_time()
        while time.process_time() - t < s:
            pass
    def hold(mb):
        b = bytearray(mb * 2**20)
        for i in range(0, len(b), 4096):
            b[i] = 1
        return b
    def done(**kw):
        me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                      resource.RUSAGE_CHILDREN))
        kw.update(t0=T0, cpu=me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime)
        with open(REPORT, "w") as f:
            f.write(json.dumps({**kw, "t1": time.perf_counter()}))
        os._exit(0)  # the workload ends here: no interpreter shutdown after it
""")

GRANDCHILD = "import subprocess, sys; proc = subprocess.run([sys.executable, '-c', {code!r}], " \
    "capture_output=True, text=True); extra = json.loads(proc.stdout or '{{}}')"


def workload(body: str, report) -> str:
    return SELF + f"REPORT = {str(report)!r}\n" + textwrap.dedent(body)


@pytest.fixture(scope="module")
def template():
    tpl = Template(["bench.run.task"])
    yield tpl
    tpl.close()


def measured(code: str, start: str, template, **kw):
    if start == "spawn":
        return run_measured([sys.executable, "-c", code], Limits(30, 8192), **kw)
    t0 = time.perf_counter()
    child = template.fork("builtins:exec", [code, {}])
    return watch(child.pid, child, t0, Limits(30, 8192), base_rss_mb=child.base_rss / 2**20,
                 **kw)


def close(got: float, want: float, rel: float, floor: float) -> bool:
    return abs(got - want) <= max(rel * want, floor)


@pytest.mark.parametrize("start", ["fork", "spawn"])
@pytest.mark.parametrize(
    ("name", "body"),
    [("sleep", "time.sleep(0.5); done()"),
     ("burn", "burn(0.5); done()"),
     ("grandchild sleeps", GRANDCHILD.format(code="import time; time.sleep(0.5)") + "; done()"),
     ("grandchild burns", GRANDCHILD.format(
         code="import time\nt = time.process_time()\nwhile time.process_time() - t < 0.5: pass")
      + "; done()")])
def test_wall_and_cpu_of_known_workloads(tmp_path, template, start, name, body):
    report = tmp_path / "self.json"
    t_before = time.perf_counter()
    m = measured(workload(body, report), start, template)
    me = json.loads(report.read_text())
    assert m.returncode == 0 and m.killed is None
    # wall: the harness's interval contains the workload's own, and exceeds it only by the
    # process start (interpreter start-up when spawned) and the exit notice
    startup = me["t0"] - t_before
    assert m.wall_s >= me["t1"] - me["t0"]
    assert close(m.wall_s - startup, me["t1"] - me["t0"], 0.02, EXIT_S), (m, me, startup)
    # CPU: the kernel's figure for the task (wait4) against the task's own (os.times)
    assert m.cpu_s is not None and close(m.cpu_s, me["cpu"], 0.02, EXIT_S), (m, me)
    if "burn" in name:
        assert m.cpu_s >= 0.5
    else:
        assert m.wall_s >= 0.5 and m.cpu_s < 0.25


MEMORY = [
    ("200 MB", "r = rss_mb(); b = hold(200); time.sleep(0.3); done(want=r + 200, own=r)"),
    ("grandchild 300 MB while the task holds 50 MB",
     "r = rss_mb(); b = hold(50); " + GRANDCHILD.format(
         code=SELF.replace("REPORT", "None") + "r = rss_mb(); b = hold(300); time.sleep(0.4); "
         "print(json.dumps({'rss': r}))") + "; done(want=r + 50 + extra['rss'] + 300, own=r)"),
    ("a short 300 MB spike", "r = rss_mb(); b = hold(300); del b; time.sleep(0.3); "
     "done(want=r + 300, own=r)"),
]


@pytest.mark.parametrize(("name", "body"), MEMORY)
def test_peak_memory_of_known_workloads(tmp_path, template, name, body):
    """Spawned: the whole tree's peak, exact where a process's VmHWM holds it (the spike is
    shorter than a 10 ms poll here only by luck: VmHWM keeps it either way)."""
    report = tmp_path / "self.json"
    m = run_measured([sys.executable, "-c", workload(body, report)], Limits(30, 8192))
    me = json.loads(report.read_text())
    peak = max(m.peak_tree_rss_mb, m.hwm_mb)
    assert close(peak, me["want"], 0.03, 0), (name, m, me)


@pytest.mark.parametrize(("name", "body"), MEMORY)
def test_peak_memory_of_forked_tasks(tmp_path, template, name, body):
    """Forked: the peak includes the pages shared with the template; its increase over the
    template's RSS at fork (base_rss_mb) is the task's own allocation."""
    report = tmp_path / "self.json"
    t0 = time.perf_counter()
    child = template.fork("builtins:exec", [workload(body, report), {}])
    m = watch(child.pid, child, t0, Limits(30, 8192), base_rss_mb=child.base_rss / 2**20)
    me = json.loads(report.read_text())
    peak = max(m.peak_tree_rss_mb, m.hwm_mb)
    assert m.base_rss_mb is not None and m.base_rss_mb > 5
    assert close(peak, me["want"], 0.03, 0), (name, m, me)
    # the increase over the template: the task's allocations, give or take the few MB of
    # library pages a child maps in again (file pages are not copied at fork)
    assert close(peak - m.base_rss_mb, me["want"] - me["own"], 0.03, 3), (name, m, me)


def test_a_forked_child_does_not_inherit_the_template_high_water_mark():
    """The template's own past peak (here: 300 MB allocated and freed before forking) must
    not show in its children: each child resets its VmHWM (clear_refs) after the fork."""
    spike = "b = bytearray(300 * 2**20)\nfor i in range(0, len(b), 4096): b[i] = 1\ndel b"
    tpl = Template(["bench.run.task", f"builtins:exec:{spike}"])
    try:
        t0 = time.perf_counter()
        child = tpl.fork("time:sleep", [0.2])
        m = watch(child.pid, child, t0, Limits(30, 8192))
        assert vm_hwm_bytes(tpl.proc.pid) > 300 * 2**20  # the template did peak
        assert m.returncode == 0 and m.hwm_mb < 100, m
    finally:
        tpl.close()


def test_template_and_its_children_die_with_the_harness(tmp_path):
    """kill -9 of the harness: the template (PR_SET_PDEATHSIG) and, through it, a running
    task child are killed by the kernel; nothing is left running."""
    pids = tmp_path / "pids"
    harness = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import time
        from bench.run.forkserver import Template
        tpl = Template(["bench.run.task"])
        child = tpl.fork("time:sleep", [60])
        open({str(pids)!r}, "w").write(f"{{tpl.proc.pid}} {{child.pid}}")
        time.sleep(60)
    """)])
    deadline = time.time() + 20
    while not (pids.exists() and pids.read_text()) and time.time() < deadline:
        time.sleep(0.05)
    template_pid, child_pid = map(int, pids.read_text().split())
    harness.kill()
    harness.wait()
    deadline = time.time() + 5
    while time.time() < deadline and any(alive(p) for p in (template_pid, child_pid)):
        time.sleep(0.05)
    assert not alive(template_pid) and not alive(child_pid)


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent to reap it is not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
