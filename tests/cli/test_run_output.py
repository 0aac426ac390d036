"""What ``puzzlebench run`` prints into a log file (stdout not a terminal): progress lines at
the interval asked, and a closing summary that counts the planned tasks it did not run and
why. A real run of a two-instance tiered suite on CP-SAT whose repetition gate no first run
passes."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.cli.test_cli import cli
from tests.run.test_plan import project


def test_run_into_a_log_file_prints_progress_and_counts_what_it_did_not_run(tmp_path):
    root = project(tmp_path)
    suites = root / "instances" / "suites.toml"
    # a gate no task passes: the small tier's two further seeds of each pair are not run
    suites.write_text(suites.read_text().replace('variants = "default"',
                                                 'variants = "default"\nrepeat_under = 1e-9'))
    log = tmp_path / "run.log"
    with open(log, "w") as f:
        p = subprocess.run([sys.executable, "-m", "bench.cli", "run", "--suite", "t", "--out",
                            str(tmp_path / "out"), "--formulation", "cpsat-cover", "--solver",
                            "cpsat", "--progress", "0.3"], stdout=f, stderr=subprocess.PIPE,
                           text=True, cwd=tmp_path, timeout=600,
                           env={**os.environ, "PUZZLEBENCH_ROOT": str(root)})
    assert p.returncode == 0, p.stderr
    text = log.read_text()
    progress = [line for line in text.splitlines() if line.startswith("puzzlebench: progress: ")]
    assert progress and " of 4 planned tasks done (" in progress[-1]
    assert ("puzzlebench: 2 of 4 planned tasks were not run: 2 further repetitions or seeds "
            "left out by the repetition gate") in text
    # --progress 0: none
    p = cli("run", "--suite", "t", "--out", str(tmp_path / "quiet"), "--formulation",
            "cpsat-cover", "--solver", "cpsat", "--progress", "0",
            env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert p.returncode == 0 and "progress:" not in p.stdout, p.stderr
