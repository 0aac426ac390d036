"""Issue 15, item 2: a harness killed with SIGKILL mid-task leaves no process and no task
folder behind (the templates and tasks die by PDEATHSIG, solver children and folders by the
run's watchdog)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: a Nurikabe instance glpsol does not solve within seconds with the seed's model
SLOW = ROOT / "instances" / "nurikabe" / "gen-nurikabe-28x28-s1-0.txt"

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


def marked(token: str) -> dict[int, str]:
    """Every live process whose environment carries ``token``: pid -> command line."""
    out = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            env = Path(f"/proc/{p}/environ").read_bytes()
            comm = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if f"W4_TEST={token}".encode() in env.split(b"\0") and state != "Z":
            out[int(p)] = comm
    return out


def wait_for(pred, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.1)
    return pred()


@pytest.mark.parametrize("command", ["solve", "run"])
def test_sigkill_of_the_harness_mid_task_leaves_nothing(tmp_path, command):
    token = uuid.uuid4().hex
    env = {**os.environ, "W4_TEST": token, "TMPDIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    args = [sys.executable, "-m", "bench.cli", command]
    if command == "solve":
        args += [str(SLOW)]
    else:
        args += [str(SLOW), "--out", str(tmp_path / "run")]
    args += ["--formulation", "mip-seed", "--solver", "glpk", "--time-limit", "60"]
    harness = subprocess.Popen(args, env=env, cwd=ROOT, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: any("glpsol" in c and "model.lp" in c
                                    for c in marked(token).values()), 60), \
            f"glpsol never started: {marked(token)}"
        assert list(tmp_path.glob("puzzlebench-task-*"))
        time.sleep(0.5)
        os.killpg(harness.pid, signal.SIGKILL)
        harness.wait()
        assert wait_for(lambda: not marked(token), 10), f"survivors: {marked(token)}"
        assert wait_for(lambda: not list(tmp_path.glob("puzzlebench-task-*")), 5)
    finally:
        for p in marked(token):
            os.kill(p, signal.SIGKILL)
