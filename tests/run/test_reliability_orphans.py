"""A harness killed with SIGKILL mid-task leaves no process and no task
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

from bench.run import cgroup
from tests.conftest import plugin_package

ROOT = Path(__file__).resolve().parents[2]
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


def groups(folders: list[Path]) -> list[Path]:
    """The task memory cgroups (named after the task folders) that still exist."""
    own = cgroup.own_group()
    return [] if own is None else [own[0] / f.name for f in folders if (own[0] / f.name).exists()]


def kill_harness(harness: subprocess.Popen[bytes], token: str, tmp_path: Path) -> None:
    """SIGKILL the harness's process group mid-task; then no process carrying ``token``, no
    task folder and no task memory cgroup may survive."""
    folders = list(tmp_path.glob("puzzlebench-task-*"))
    os.killpg(harness.pid, signal.SIGKILL)
    harness.wait()
    assert wait_for(lambda: not marked(token), 10), f"survivors: {marked(token)}"
    assert wait_for(lambda: not list(tmp_path.glob("puzzlebench-task-*")), 5)
    assert wait_for(lambda: not groups(folders), 5), groups(folders)


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
        folders = list(tmp_path.glob("puzzlebench-task-*"))
        assert folders
        if cgroup.own_group() is not None:  # glpsol runs inside the task's memory cgroup
            glpsol = [p for p, c in marked(token).items() if "glpsol" in c]
            assert all(folders[0].name in Path(f"/proc/{p}/cgroup").read_text()
                       for p in glpsol), glpsol
        time.sleep(0.5)
        kill_harness(harness, token, tmp_path)
    finally:
        for p in marked(token):
            os.kill(p, signal.SIGKILL)


#: a formulation whose build leaves a grandchild in a session of its own that never execs (so
#: it has neither the task's process group, nor PDEATHSIG, nor an exec-time environment of its
#: own), then keeps the task busy
ESCAPE = '''
import os, time
from bench.models import SatModel
from bench.registry import Formulation, formulation


@formulation
class SatEscape(Formulation[SatModel]):
    puzzle = "shikaku"
    name = "sat-escape"
    kind = "sat"
    description = "leaves a setsid grandchild behind, then sleeps"

    def build(self, inst):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:  # the grandchild: re-parented once its parent exits
                time.sleep(600)
            os._exit(0)
        time.sleep(600)
        return SatModel()
'''


@pytest.fixture(scope="module")
def escape_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return plugin_package(tmp_path_factory.mktemp("escape"), "escape-pkg", "0.1",
                          {"sat_escape": ESCAPE},
                          {"shikaku.sat.sat-escape": "escape_pkg.sat_escape"})


def escapees(token: str) -> dict[int, str]:
    """The marked processes that are not the harness's own (the sleeping grandchildren)."""
    return {p: c for p, c in marked(token).items() if "bench.cli" not in c}


@pytest.mark.parametrize("command,start", [("solve", None), ("run", "fork"), ("run", "spawn")])
def test_a_setsid_grandchild_that_never_execs_dies_with_the_harness(tmp_path, escape_env,
                                                                    command, start):
    token = uuid.uuid4().hex
    env = {**escape_env, "W4_TEST": token, "TMPDIR": str(tmp_path)}
    seed = ROOT / "instances" / "shikaku" / "seed-10x10.txt"
    args = [sys.executable, "-m", "bench.cli", command, str(seed)]
    if command == "run":
        args += ["--out", str(tmp_path / "run"), "--start", start]
    args += ["--formulation", "sat-escape", "--solver", "cadical195", "--time-limit", "120"]
    harness = subprocess.Popen(args, env=env, cwd=ROOT, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # the task, its detached child's child, and (run) the template or worker
        assert wait_for(lambda: any(len(c) for c in escapees(token).values())
                        and len(marked(token)) >= 3, 60), f"no task: {marked(token)}"
        time.sleep(1.0)
        kill_harness(harness, token, tmp_path)
    finally:
        for p in marked(token):
            os.kill(p, signal.SIGKILL)


def test_the_time_limit_also_reaps_a_setsid_grandchild(tmp_path, escape_env):
    token = uuid.uuid4().hex
    env = {**escape_env, "W4_TEST": token, "TMPDIR": str(tmp_path)}
    seed = ROOT / "instances" / "shikaku" / "seed-10x10.txt"
    try:
        out = subprocess.run(
            [sys.executable, "-m", "bench.cli", "solve", str(seed), "--json", "--formulation",
             "sat-escape", "--solver", "cadical195", "--time-limit", "1"],
            env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert '"timeout"' in out.stdout, out.stdout + out.stderr
        assert wait_for(lambda: not marked(token), 10), f"survivors: {marked(token)}"
    finally:
        for p in marked(token):
            os.kill(p, signal.SIGKILL)
