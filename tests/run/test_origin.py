"""A task's origin and solver version on the external backend, from real runs: our own
``frontier`` records ``origin`` ours and a version naming no package; a plugin's external
formulation declaring its peer distribution records that distribution and its version; a
reused run takes the frontier task whatever the peer's version, and runs the peer's task again
once its package changed (its version is part of the task's identity, :mod:`bench.run.reuse`).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from bench.records import Result, Task
from bench.run.execute import execute
from bench.run.storage import Journal
from tests.conftest import ROOT, plugin_package

#: the recorded origin of our own formulations and the external backend's version of them
OURS, OWN = "ours", "own code"
EIGHT = ROOT / "instances" / "nurikabe" / "two" / "gen-nurikabe-8x8-s1-clues2-0.txt"
#: a plugin's external formulation calling its own package (the frontier's solver, renamed)
PLUGIN = '''
from bench.registry import formulation
from formulations.nurikabe.external_frontier import FrontierNurikabe


@formulation
class PeerFrontier(FrontierNurikabe):
    puzzle = "nurikabe"
    kind = "external"
    name = "peer-frontier"
    peer = "peer-pkg"
    description = "a peer's solver (the frontier programme, packaged as peer-pkg)"
'''


def test_a_frontier_task_records_ours_and_no_package_version() -> None:
    res = execute(Task(str(EIGHT), "frontier", "external", time_limit=60))
    assert res.status == "solved", res.message
    assert res.origin == OURS
    assert res.solver_version == OWN and "puzzlekit" not in res.solver_version


@pytest.mark.skipif(importlib.util.find_spec("puzzlekit") is None,
                    reason="the peers extra (puzzlekit) is not installed")
def test_a_puzzlekit_task_records_puzzlekit_and_its_version() -> None:
    import importlib.metadata

    res = execute(Task(str(EIGHT), "puzzlekit", "external", time_limit=60))
    assert res.status == "solved", res.message
    assert res.origin == "puzzlekit"
    assert res.solver_version == f"puzzlekit {importlib.metadata.version('puzzlekit')}"


def _run(env: dict[str, str], out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(EIGHT), "--formulation",
                        "nurikabe:frontier", "--formulation", "nurikabe:peer-frontier",
                        "--solver", "external", "--time-limit", "30", "--out", str(out),
                        *extra], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return p


def _rows(out: Path) -> dict[str, Result]:
    return {r.formulation: r for r in Journal(out).results()}


def test_reuse_keeps_the_frontier_task_and_reruns_the_peer_s_once_its_package_changed(
        tmp_path: Path) -> None:
    (tmp_path / "plug").mkdir()
    env = plugin_package(tmp_path / "plug", "peer-pkg", "0.1", {"solver": PLUGIN},
                         {"nurikabe.external.peer-frontier": "peer_pkg.solver"})
    _run(env, tmp_path / "first")
    first = _rows(tmp_path / "first")
    assert first["frontier"].status == first["peer-frontier"].status == "solved"

    # nothing changed: both taken over
    _run(env, tmp_path / "same", "--reuse", str(tmp_path / "first"))
    assert {f: r.run for f, r in _rows(tmp_path / "same").items()} == {
        "frontier": "first", "peer-frontier": "first"}

    # the peer package upgraded (its code the same): its task runs again, ours is taken over
    meta = tmp_path / "plug" / "peer_pkg-0.1.dist-info" / "METADATA"
    meta.write_text(meta.read_text().replace("Version: 0.1", "Version: 0.2"))
    _run(env, tmp_path / "upgraded", "--reuse", str(tmp_path / "first"))
    after = _rows(tmp_path / "upgraded")
    assert after["frontier"].run == "first"
    assert after["peer-frontier"].run == "upgraded"
    # what each recorded: the frontier no package, the peer's task its distribution
    assert (first["frontier"].origin, first["frontier"].solver_version) == (OURS, OWN)
    assert (first["peer-frontier"].origin,
            first["peer-frontier"].solver_version) == ("peer-pkg", "peer-pkg 0.1")
    assert after["peer-frontier"].solver_version == "peer-pkg 0.2"


def test_a_reused_result_written_before_origins_takes_the_tasks_origin() -> None:
    """Reuse copies a source result whole, but a result without a recorded origin (written
    before the column) takes the planned task's (its identity matched: the same formulation);
    a recorded origin is kept."""
    from bench.run.reuse import adopt

    task = Task(str(EIGHT), "puzzlekit", "external", time_limit=60, origin="puzzlekit")
    old = Result(key="k", puzzle="nurikabe", instance="x", instance_path="x.txt", rows=8,
                 cols=8, formulation="puzzlekit", kind="external", solver="external",
                 solver_version="puzzlekit 0.3.4", status="solved")
    assert adopt(old, task).origin == "puzzlekit"
    assert adopt(dataclasses.replace(old, origin="ours"), task).origin == "ours"
