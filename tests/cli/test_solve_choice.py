"""`solve --solver SOLVER` without a formulation: which formulation runs is stable and said.
An installed formulation plugin whose name sorts first is never picked over the puzzle's
declared default or a built-in formulation of the solver's kind (real processes, a real
plugin distribution on the path)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.select.rules import FALLBACK
from tests.conftest import ROOT

NURIKABE = ROOT / "instances" / "nurikabe" / "seed-p01.txt"  # declared: robust, sat-hybrid
TOY = '''
from bench.registry import Formulation, formulation


@formulation
class {cls}(Formulation):
    puzzle = "nurikabe"
    name = "{name}"
    kind = "{kind}"
    description = "a toy plugin whose name sorts before every built-in of its kind"

    def build(self, inst):
        raise RuntimeError("the toy plugin ran")
'''


def _install_toys(site: Path) -> dict[str, str]:
    """A distribution declaring ``nurikabe.mip.mip-aaa`` and ``nurikabe.sat.sat-aaa``."""
    site.mkdir()
    points = []
    for kind in ("mip", "sat"):
        (site / f"toy_{kind}_aaa.py").write_text(
            TOY.format(cls=f"Toy{kind.title()}", name=f"{kind}-aaa", kind=kind))
        points.append(f"nurikabe.{kind}.{kind}-aaa = toy_{kind}_aaa")
    info = site / "toy_first-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-first\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[puzzlebench.formulations]\n" + "\n".join(points)
                                           + "\n")
    return {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{site}"}


def _solve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(NURIKABE), *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def test_a_plugin_sorting_first_does_not_displace_the_built_in_formulations(tmp_path):
    env = _install_toys(tmp_path / "site")
    listed = subprocess.run([sys.executable, "-m", "bench.cli", "list", "--json"],
                            capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    names = {f["name"] for f in json.loads(listed.stdout)["formulations"]
             if f.get("puzzle") == "nurikabe"}
    assert {"mip-aaa", "sat-aaa"} <= names, listed.stderr  # the plugin is installed and loads

    # the declared default's formulation (a selector's fallback pair's) where the solver
    # takes its kind
    p = _solve(env, "--solver", "cadical195", "--json")
    got = json.loads(p.stdout)
    hybrid = FALLBACK["nurikabe"].rsplit(" / ", 1)[0]  # sat-hybrid[...]
    assert got["status"] == "solved" and got["formulation"] == hybrid, got
    assert got["chosen"]["formulation"] == hybrid
    assert got["chosen"]["why"].startswith("the declared default of nurikabe"), got["chosen"]

    # else the first built-in formulation of the solver's kind by name, before any plugin
    p = _solve(env, "--solver", "glpk")
    assert p.returncode == 0, p.stderr
    assert p.stderr.splitlines()[0] == (
        "--solver glpk: formulation mip-flow: the first built-in mip formulation of nurikabe "
        f"by name that runs on glpk (the declared default {hybrid} is a sat model, which glpk "
        "does not take)"), p.stderr
    assert p.stdout.splitlines()[-1].startswith("mip-flow / glpk: "), p.stdout
