"""A Ctrl-C raised in the harness's main thread while it watches a task, or while a template
process preloads, takes that process down before the exception leaves: nothing the harness
started outlives the command or keeps its memory group busy. Real processes and real signals
throughout."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from bench.records import Limits
from bench.run.measure import ChildWaiter, watch
from tests.conftest import ROOT
from tests.run.test_forkserver_prefork import children
from tests.run.test_measure import alive


def interrupt_in(seconds: float) -> threading.Timer:
    """A SIGINT to this process after ``seconds``: Python raises KeyboardInterrupt in the
    main thread, wherever it is then."""
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.fixture(autouse=True)
def default_sigint():
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_while_a_task_is_watched_kills_the_task_before_it_propagates():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                            start_new_session=True)
    waiter = ChildWaiter(proc.pid)
    limits = Limits(time_limit_s=60, memory_limit_mb=4096, grace_s=1.0)
    timer = interrupt_in(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            watch(proc.pid, waiter, time.perf_counter(), limits)
        assert not alive(proc.pid), "the task outlived the interrupt"
    finally:
        timer.cancel()
        waiter.close()
        proc.kill()
        proc.wait()


#: a harness that starts a template whose preload takes long, is interrupted meanwhile and
#: then goes on (as a run writes its table): the template must be gone at once, and must not
#: print a broken pipe when its preload ends
HARNESS = textwrap.dedent("""
    import os, signal, sys, threading, time
    from bench.run.forkserver import Template
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    print(os.getpid(), flush=True)
    try:
        Template(["slowpreload"], env=dict(os.environ))
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    time.sleep(2.5)
""")


def test_a_ctrl_c_while_a_template_preloads_ends_the_template(tmp_path: Path):
    (tmp_path / "slowpreload.py").write_text("import time\ntime.sleep(1.5)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    harness = subprocess.Popen([sys.executable, "-c", HARNESS], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert harness.stdout is not None
        int(harness.stdout.readline())
        assert harness.stdout.readline() == "interrupted\n"
        assert children(harness.pid) == [], "the template outlived the interrupt"
        _, err = harness.communicate(timeout=30)  # past the preload's end
        assert "Traceback" not in err and "BrokenPipe" not in err, err
    finally:
        harness.kill()
        harness.wait()
