"""The README's quick start runs exactly as written: its commands, in a fresh folder (where
they write), take under a minute and produce what the README says they do."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pandas as pd

from tests.docs._blocks import ROOT, blocks

MARKER = "<!-- quickstart"


def quickstart() -> list[str]:
    """The code block right after the README's quick-start marker, one command a line."""
    readme = ROOT / "README.md"
    lines = readme.read_text(encoding="utf-8").splitlines()
    marker = next(n for n, line in enumerate(lines, 1) if line.startswith(MARKER))
    block = next(b for f, b in blocks(readme) if f == marker + 2)
    return [line.strip() for line in block if line.strip()]


def test_quick_start_is_four_commands() -> None:
    cmds = quickstart()
    assert len(cmds) == 4, cmds
    assert cmds[0] == "pip install -e ."
    assert [shlex.split(c)[:2] for c in cmds[1:]] == [
        ["puzzlebench", "solve"], ["puzzlebench", "run"], ["puzzlebench", "report"]]


def test_quick_start_runs_as_written(tmp_path: Path) -> None:
    """Commands 2-4 run as written in a folder of their own (the instances linked in). Command
    1, the install, is what the test session itself did before this test could run (`nox -s
    tests` installs the package with `-e .`); it is checked by the console script being there."""
    cmds = quickstart()
    assert shutil.which("puzzlebench"), "the install (`pip install -e .`) made no console script"
    (tmp_path / "instances").symlink_to(ROOT / "instances")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")])}
    t0 = time.perf_counter()
    outs = []
    for cmd in cmds[1:]:  # the console script itself, this tree's code first on the path
        p = subprocess.run(shlex.split(cmd), cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=120)
        assert p.returncode == 0, f"{cmd}\n{p.stdout}\n{p.stderr}"
        outs.append(p.stdout)
    took = time.perf_counter() - t0
    assert took < 60, f"the quick start took {took:.0f} s, not under a minute"

    # the default pair named ("formulation / solver: build ..."), the grid drawn
    assert re.search(r"^\S+ / \S+: build", outs[0], re.M) and "+-" in outs[0], outs[0]
    results = pd.read_parquet(tmp_path / "results" / "quick-shikaku" / "results.parquet")
    assert set(results["puzzle"]) == {"shikaku"}
    assert {f.split("[")[0] for f in results["formulation"]} == {
        "sat-cover", "cpsat-cover", "mip-cover"}
    assert (results["status"] == "solved").all() and results["checked"].all()
    report = tmp_path / "reports" / "quick-shikaku" / "index.html"
    assert report.is_file() and "reports/quick-shikaku/index.html" in (
        ROOT / "README.md").read_text(encoding="utf-8")
