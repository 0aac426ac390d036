"""The task processes import the harness the run was started with, whatever the working folder
holds: ``python -m`` puts the working folder first on ``sys.path``, so a ``bench/`` there (an
older checkout) would shadow it, and every task would fail the check that its code is the code
planned (they run with ``python -P``: :data:`bench.run.pool.SAFE_M`). One real run of one small
Shikaku instance on CP-SAT, started from a folder holding an edited copy of ``bench/``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import INSTANCES, ROOT


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_a_bench_folder_in_the_working_folder_does_not_shadow_the_tasks_harness(
        tmp_path: Path, start: str):
    here = tmp_path / "here"
    shutil.copytree(ROOT / "bench", here / "bench",
                    ignore=shutil.ignore_patterns("__pycache__"))
    with open(here / "bench" / "judge.py", "a") as f:
        f.write("# another checkout\n")
    out = tmp_path / "run"
    p = subprocess.run(
        # -P: the command itself imports the harness from PYTHONPATH, not from `here`
        [sys.executable, "-P", "-m", "bench.cli", "run",
         str(INSTANCES / "shikaku" / "gen-shikaku-5x5-s1-0.txt"), "--formulation",
         "cpsat-cover", "--solver", "cpsat", "--time-limit", "10", "--start", start,
         "--out", str(out)],
        capture_output=True, text=True, cwd=here, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = [json.loads(x) for x in (out / "journal.jsonl").read_text().splitlines() if x]
    assert [r["status"] for r in lines] == ["solved"], (p.stderr, lines)
    assert p.returncode == 0, p.stderr
