"""The template's spare child (bench.run.forkserver): forked ahead of time, handed the next
task, its time starting at the hand-off; measured like any forked task (wall, CPU, peak
memory on known workloads); never left behind (template closed or killed, harness killed,
a run's end, an interrupted run). Real processes throughout."""

from __future__ import annotations

import json
import mmap
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.records import Limits, Task
from bench.run.forkserver import Template
from bench.run.measure import Measured, watch
from bench.run.pool import Templates, run_task
from tests.conftest import ROOT, SHIKAKU_SEEDS
from tests.run.test_measure import SELF, alive, close

#: what a workload child reports about itself: its first and last moment (perf_counter, the
#: same clock in every process), its own RSS before it allocates
REPORT = SELF


#: what the harness's interval and the kernel's CPU figure hold beyond the workload's own
#: readings: the interpreter's exit after its last reading (finalisation, unmapping), up to
#: about 10 ms on a loaded 2-core machine
EXIT_S = 0.02

def children(pid: int) -> list[int]:
    """The live (not zombie) children of ``pid``."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return [c for c in out if alive(c)]


def wait_for(cond: Callable[[], object], timeout: float = 10.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.01)
    return cond()


def spare_of(tpl: Template, other_than: int = 0) -> int:
    """The template's idle child (its spare), waiting for one that is not ``other_than``."""
    got = wait_for(lambda: [c for c in children(tpl.proc.pid) if c != other_than])
    assert got, f"template {tpl.proc.pid} has no spare child"
    assert isinstance(got, list) and len(got) == 1, got
    return got[0]


def start_of(child: object, requested: float) -> float:
    """When the harness counts the child's time from: the template's hand-off where it says
    (``t0``), else the moment of the request."""
    return float(getattr(child, "t0", requested))


def workload(body: str, report: Path) -> str:
    return REPORT + f"REPORT = {str(report)!r}\n" + textwrap.dedent(body)


@pytest.fixture
def template():
    tpl = Template(["bench.run.task"])
    yield tpl
    tpl.close()


def test_the_template_keeps_a_spare_and_hands_it_the_next_task(template):
    first = spare_of(template)
    child = template.fork("time:sleep", [0.05])
    assert child.pid == first
    assert child.wait(10) == 0
    # a new spare once that task ended, said ready to the runner, and the next task goes to it
    assert template.wait_spare(10)
    second = spare_of(template, other_than=first)
    assert second != first
    child = template.fork("time:sleep", [0])
    assert child.pid == second and child.wait(10) == 0


def map_private(n: str) -> list[mmap.mmap]:
    """``n`` private file mappings of one page each, each written (an anonymous copy): a
    process with many mappings, whose fork copies each one (a template that preloaded a
    solver of many shared libraries, in the extreme)."""
    fd, path = tempfile.mkstemp()
    try:
        os.write(fd, b"\0" * 4096 * 2 * int(n))
        maps = []
        for i in range(int(n)):  # every other page: neighbours do not merge
            m = mmap.mmap(fd, 4096, flags=mmap.MAP_PRIVATE,
                          prot=mmap.PROT_READ | mmap.PROT_WRITE, offset=4096 * 2 * i)
            m[0] = 1
            maps.append(m)
    finally:
        os.close(fd)
        os.unlink(path)
    KEEP.extend(maps)
    return maps


KEEP: list[mmap.mmap] = []
MAPPINGS = 8000


def fork_time() -> float:
    """The least of three forks of this process: from before ``fork`` to the child's first
    moment."""
    times = []
    for _ in range(3):
        r, w = os.pipe()
        t = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os.write(w, repr(time.perf_counter()).encode())
            os._exit(0)
        os.close(w)
        times.append(float(os.read(r, 64)) - t)
        os.close(r)
        os.waitpid(pid, 0)
    return min(times)


def test_the_fork_of_a_large_template_is_not_in_the_task_time(tmp_path):
    """A template with thousands of mappings takes milliseconds to fork; a task handed to
    its spare starts within a fraction of that after its time starts, and its wall time is
    its own interval plus its exit, not a fork."""
    maps = map_private(str(MAPPINGS))
    try:
        fork_s = fork_time()
    finally:
        for mapping in maps:
            mapping.close()
        KEEP.clear()
    tpl = Template(["bench.run.task", f"tests.run.test_forkserver_prefork:map_private:"
                                      f"{MAPPINGS}"])
    try:
        starts = []
        for i in range(3):
            time.sleep(0.5)  # the next spare forked and ready: a run's tasks are this far apart
            report = tmp_path / f"self{i}.json"
            requested = time.perf_counter()
            child = tpl.fork("builtins:exec", [workload("time.sleep(0.1); done()", report),
                                               {}])
            t0 = start_of(child, requested)
            m = watch(child.pid, child, t0, Limits(30, 8192))
            me = json.loads(report.read_text())
            assert m.returncode == 0 and m.killed is None
            assert m.wall_s >= me["t1"] - me["t0"] >= 0.1
            assert t0 <= me["t0"]
            starts.append(me["t0"] - t0)
    finally:
        tpl.close()
    # the old way a task started after a whole fork (>= fork_s); a hand-off is a pipe write
    assert min(starts) < 0.6 * fork_s, (starts, fork_s)


@pytest.mark.parametrize(("name", "body"), [
    ("sleep", "time.sleep(0.3); done()"),
    ("burn", "burn(0.3); done()"),
])
def test_wall_and_cpu_of_known_workloads_in_a_spare(tmp_path, template, name, body):
    """The spare's time: the harness's interval contains the workload's own and exceeds it by
    the hand-off and the exit only; CPU is the kernel's figure for the task."""
    spare = spare_of(template)
    report = tmp_path / "self.json"
    requested = time.perf_counter()
    child = template.fork("builtins:exec", [workload(body, report), {}])
    assert child.pid == spare
    m = watch(child.pid, child, start_of(child, requested), Limits(30, 8192),
              base_rss_mb=child.base_rss / 2**20)
    me = json.loads(report.read_text())
    assert m.returncode == 0 and m.killed is None
    own = me["t1"] - me["t0"]
    assert 0 <= m.wall_s - own < 0.05, (m, me)
    assert m.cpu_s is not None and close(m.cpu_s, me["cpu"], 0.02, EXIT_S), (m, me)
    if name == "burn":
        assert m.cpu_s >= 0.3
    else:
        assert m.cpu_s < 0.15


def test_a_known_allocation_in_a_spare_shows_in_its_peak(tmp_path, template):
    """200 MB allocated by the task handed to the spare: its peak is its RSS plus 200 MB,
    its increase over the template's RSS at the spare's fork is the 200 MB, and the spare's
    idle time (the template's past) adds nothing."""
    spare = spare_of(template)
    report = tmp_path / "self.json"
    body = "r = rss_mb(); b = hold(200); time.sleep(0.3); done(want=r + 200, own=r)"
    requested = time.perf_counter()
    child = template.fork("builtins:exec", [workload(body, report), {}])
    assert child.pid == spare
    m = watch(child.pid, child, start_of(child, requested), Limits(30, 8192),
              base_rss_mb=child.base_rss / 2**20)
    me = json.loads(report.read_text())
    peak = max(m.peak_tree_rss_mb, m.hwm_mb)
    assert m.base_rss_mb is not None and m.base_rss_mb > 5
    assert close(peak, me["want"], 0.03, 0), (m, me)
    assert close(peak - m.base_rss_mb, me["want"] - me["own"], 0.03, 3), (m, me)


def test_a_spare_that_died_is_replaced_by_a_fork(template):
    spare = spare_of(template)
    os.kill(spare, signal.SIGKILL)
    wait_for(lambda: not alive(spare))
    child = template.fork("time:sleep", [0])
    assert child.pid != spare and child.wait(10) == 0


def test_two_tasks_at_once_one_in_the_spare_one_forked(template):
    """jobs > 1 share a template: the second request finds no spare and is forked; both
    run, each timed from its own start."""
    spare_of(template)
    got: list[Measured] = []

    def one() -> None:
        requested = time.perf_counter()
        child = template.fork("time:sleep", [0.2])
        m = watch(child.pid, child, start_of(child, requested), Limits(30, 8192))
        got.append(m)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(got) == 2
    for m in got:
        assert m.returncode == 0 and 0.2 <= m.wall_s < 1.0


def test_no_spare_outlives_its_template():
    """Closed: the template kills its idle spare. Killed (SIGKILL): the kernel kills the
    spare (its death signal)."""
    tpl = Template(["bench.run.task"])
    spare = spare_of(tpl)
    tpl.close()
    assert wait_for(lambda: not alive(spare)), "spare left running after close"
    tpl = Template(["bench.run.task"])
    spare = spare_of(tpl)
    tpl.proc.kill()
    tpl.proc.wait()
    try:
        assert wait_for(lambda: not alive(spare)), "spare left running after a kill"
    finally:
        tpl.close()


def test_no_spare_outlives_a_killed_harness(tmp_path):
    pids = tmp_path / "pids"
    harness = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import time
        from bench.run.forkserver import Template
        from tests.run.test_forkserver_prefork import spare_of
        tpl = Template(["bench.run.task"])
        open({str(pids)!r}, "w").write(f"{{tpl.proc.pid}} {{spare_of(tpl)}}")
        time.sleep(60)
    """)], cwd=ROOT)
    try:
        assert wait_for(lambda: pids.exists() and pids.read_text(), 30)
        template_pid, spare = map(int, pids.read_text().split())
        assert alive(spare)
    finally:
        harness.kill()
        harness.wait()
    assert wait_for(lambda: not alive(template_pid) and not alive(spare))


def test_a_real_task_in_a_spare_is_measured(tmp_path):
    """A SAT task through the runner: handed to the spare of its kind's template, solved,
    its overhead (wall minus build and solve) positive and below the wall; its peak memory
    as when its template forks it on request (a fork's RSS starts from the template's
    anonymous pages either way, file pages as the child touches them)."""
    task = Task(str(SHIKAKU_SEEDS[0]), "sat-cover", "cadical195", time_limit=30,
                memory_limit_mb=4096)
    with Templates() as templates:
        tpl = templates.get(task)
        spare = spare_of(tpl)
        res = run_task(task, templates=templates)
        assert not alive(spare)  # the task ran in it, and ended
        spare_of(tpl, other_than=spare)
    with Templates(prefork=False) as templates:
        forked = run_task(task, templates=templates)
    for r in (res, forked):
        assert r.status == "solved" and r.start == "fork", r.message
        assert r.wall_s is not None and r.overhead_s is not None
        assert r.build_s is not None and r.solve_s is not None
        assert 0 < r.overhead_s < r.wall_s
        assert r.wall_s >= r.build_s + r.solve_s
        assert r.peak_rss_mb is not None and r.base_rss_mb is not None
        assert r.peak_rss_mb > 5 and r.base_rss_mb > 5
    assert res.peak_rss_mb == pytest.approx(forked.peak_rss_mb, rel=0.1, abs=3)
    assert res.base_rss_mb == pytest.approx(forked.base_rss_mb, rel=0.1, abs=3)


def marked(token: str) -> list[int]:
    """Live processes whose environment carries ``PREFORK_TEST=token``."""
    needle = f"PREFORK_TEST={token}".encode()
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if needle in env and alive(int(name)):
            out.append(int(name))
    return out


RUN = ("run", "--suite", "quick", "--puzzle", "shikaku", "--puzzle", "nurikabe",
       "--solver", "minisat22", "--solver", "cpsat", "--time-limit", "5")


@pytest.mark.parametrize("interrupt", [False, True])
def test_no_process_is_left_after_a_run(tmp_path, interrupt):
    """A run with templates of two kinds (each with its spare): once it ended, or once it
    exited after Ctrl-C in the middle, no process it started is left."""
    token = uuid.uuid4().hex
    out = tmp_path / "r"
    proc = subprocess.Popen([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)],
                            cwd=ROOT, env={**os.environ, "PREFORK_TEST": token},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if interrupt:
            journal = out / "journal.jsonl"
            assert wait_for(lambda: journal.exists() and journal.read_bytes().count(b"\n"),
                            120), proc.poll()
            assert len(marked(token)) > 2  # the harness, its templates, their spares
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == (130 if interrupt else 0), err
    left = wait_for(lambda: not marked(token), 5)
    assert left, f"left running: {marked(token)}"


def test_a_forked_tasks_base_is_its_own_rss_when_its_task_began():
    """``base_rss_mb`` is the task process's RSS as its task began, so the task's own increase
    ``peak - base`` is not negative; the template's RSS would not do: a forked child faults in
    the template's shared library pages only as it touches them, and a CP-SAT task touches
    far fewer of OR-Tools' pages than the template mapped. On every fork path: the standing
    spare, a child forked on request, and a one-task command forking from its own process."""
    task = Task(str(SHIKAKU_SEEDS[0]), "cpsat-cover", "cpsat", time_limit=30,
                memory_limit_mb=4096)
    results = []
    for prefork in (True, False):
        with Templates(prefork=prefork) as templates:
            results += [run_task(task, templates=templates) for _ in range(2)]
    results.append(run_task(task, start="fork"))
    for r in results:
        assert r.status == "solved" and r.start == "fork", r.message
        assert r.peak_rss_mb is not None and r.base_rss_mb is not None
        assert 5 < r.base_rss_mb <= r.peak_rss_mb, r


def hang_children(_: str) -> None:
    """In a template: every child it forks hangs after its start-up, before its task (before
    saying ready)."""
    from bench.run import spare

    prepare = spare._prepare

    def hang(parent: int) -> None:
        prepare(parent)
        time.sleep(600)

    spare._prepare = hang


def test_a_template_that_does_not_answer_in_time_is_ended_with_its_children(monkeypatch):
    """Past the harness's wait for a fork the caller runs the task another way, so the template
    must not start it late: it is killed, and its children with it (none left carrying the
    test's marker)."""
    from bench.run import forkserver

    monkeypatch.setattr(forkserver, "FORK_TIMEOUT_S", 2.0)
    token = uuid.uuid4().hex
    tpl = Template(["bench.run.task", "tests.run.test_forkserver_prefork:hang_children:"],
                   env={**os.environ, "PREFORK_TEST": token, "PYTHONPATH": str(ROOT)})
    try:
        with pytest.raises(forkserver.TemplateError):
            tpl.fork("time:sleep", [0])
        assert wait_for(lambda: not tpl.alive())
        assert wait_for(lambda: not marked(token)), marked(token)
    finally:
        tpl.close()
