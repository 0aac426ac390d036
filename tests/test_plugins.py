"""Adding a formulation: the README's worked example, in-tree style and as an entry point."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from tests.conftest import ROOT, SHIKAKU_SEEDS


def readme_example() -> str:
    text = (ROOT / "README.md").read_text()
    return re.search(r"```python\n# formulations/shikaku_mine.py\n(.*?)```", text, re.S).group(1)


def test_readme_example_registers_through_an_entry_point_and_solves(tmp_path):
    pkg = tmp_path / "mine_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "shikaku_mine.py").write_text(readme_example())
    dist = tmp_path / "mine_pkg-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mine-pkg\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[puzzlebench.formulations]\nmine = mine_pkg.shikaku_mine\n")
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT),
                                          os.environ.get("PYTHONPATH", "")])}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=120)

    listed = json.loads(cli("list", "--json").stdout)
    assert any(f["name"] == "cpsat-mine" and f["solvers"] == ["cpsat"]
               for f in listed["formulations"])
    for seed in SHIKAKU_SEEDS:
        out = json.loads(cli("solve", str(seed), "--json", "--formulation", "cpsat-mine").stdout)
        assert out["status"] == "solved", out
