"""The watchdog program (bench/run/watchdog.py), driven as the harness drives it: a goodbye
kills nothing; stdin ending without one kills the tracked and the marked processes and removes
the guarded folders. Real processes, real folders."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from bench.run.forkserver import RUN_MARKER, Watchdog
from bench.run.watchdog import start_time


def sleeper(env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                            env=env, start_new_session=True)


def gone(proc: subprocess.Popen[bytes], timeout: float = 10) -> bool:
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return True


def test_a_goodbye_kills_nothing_and_removes_the_guarded_folders(tmp_path: Path):
    dog = Watchdog()
    task = sleeper(dog.marked(dict(os.environ)))
    folder = tmp_path / "task"
    folder.mkdir()
    dog.guard(folder)
    dog.track(folder, task.pid, start_time(task.pid))
    dog.close()
    assert not folder.exists()
    assert task.poll() is None
    task.kill()
    task.wait()


def test_the_harness_gone_kills_tracked_and_marked_processes(tmp_path: Path):
    dog = Watchdog()
    tracked, marked, other = sleeper(), sleeper(dog.marked(dict(os.environ))), sleeper()
    folder, released = tmp_path / "task", tmp_path / "done"
    folder.mkdir()
    released.mkdir()
    dog.guard(folder)
    dog.guard(released)
    dog.track(folder, tracked.pid, start_time(tracked.pid))
    dog.release(released)
    time.sleep(0.3)
    assert dog.proc.stdin is not None
    dog.proc.stdin.close()  # as when the harness dies: no goodbye
    assert dog.proc.wait(timeout=20) == 0
    assert gone(tracked) and gone(marked)
    assert not folder.exists() and released.exists()
    assert other.poll() is None and RUN_MARKER not in os.environ
    other.kill()
    other.wait()


def test_a_recycled_pid_is_not_taken_for_the_tracked_process():
    proc = sleeper()
    assert start_time(proc.pid) != b""
    proc.kill()
    proc.wait()
    assert start_time(proc.pid) == b""
