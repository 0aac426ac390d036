"""Small real runs for the report tests (session-scoped: each is a few `puzzlebench run`s).

- ``mixed_run``: Shikaku solved by two pairs; Nurikabe 5x5 solved and 40x40 timed out (GLPK,
  1 s limit: the 5x5 solves within it on a loaded machine) and memout (CaDiCaL sat-tree,
  130 MB limit);
- ``error_run``: every task errors (an out-of-tree CP-SAT formulation whose build raises);
- ``single_run``: one task.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.run.storage import consolidate
from tests.conftest import ROOT, plugin_package

#: a CP-SAT formulation whose build always raises: every task of it is an ``error``
BROKEN = '''
from bench.models import CpsatModel
from bench.registry import Formulation, formulation


@formulation
class CpsatBroken(Formulation[CpsatModel]):
    puzzle = "shikaku"
    name = "cpsat-broken"
    kind = "cpsat"
    description = "a build that always raises"
    exact = True

    def build(self, inst):
        raise RuntimeError("cpsat-broken: its build raises by design")

    def decode(self, inst, model, value):
        raise AssertionError("never built")
'''

SUITE = '[t]\nversion = 1\ndescription = "report test"\ntime_limit = 5\ninstances = [{}]\n'


def _root(tmp: Path, files: list[str]) -> Path:
    root = tmp / "proj"
    for f in files:
        dest = root / "instances" / f
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text((ROOT / "instances" / f).read_text())
    globs = sorted({f'"{Path(f).parent}/*.txt"' for f in files})
    (root / "instances" / "suites.toml").write_text(SUITE.format(", ".join(globs)))
    return root


def run(root: Path, out: Path, *args: str,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {}), "PUZZLEBENCH_ROOT": str(root)}
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", "--suite", "t", "--out",
                        str(out), *args], capture_output=True, text=True, env=env,
                       cwd=root, timeout=300)
    assert "Traceback" not in p.stderr, p.stderr
    return p


@pytest.fixture(scope="session")
def mixed_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("mixed")
    root = _root(tmp, ["shikaku/seed-10x10.txt", "nurikabe/gen-nurikabe-5x5-s1-0.txt",
                       "nurikabe/gen-nurikabe-40x40-s1-0.txt"])
    parts = [tmp / f"part{i}" for i in range(3)]
    run(root, parts[0], "--formulation", "cpsat-cover", "--formulation", "mip-cover",
        "--solver", "cpsat", "--solver", "highs")
    run(root, parts[1], "--formulation", "mip-flow", "--solver", "glpk", "--time-limit", "1")
    run(root, parts[2], "--formulation", "sat-tree", "--solver", "cadical195", "--memory-limit",
        "130")
    # one run folder of the three (a run folder refuses a resume with other limits): the
    # journals joined, the first run's environment; the report rebuilds the table from them
    out = tmp / "run"
    out.mkdir()
    (out / "journal.jsonl").write_text("".join((p / "journal.jsonl").read_text() for p in parts))
    (out / "environment.json").write_text((parts[0] / "environment.json").read_text())
    consolidate(out)
    return out


@pytest.fixture(scope="session")
def error_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("errors")
    root = _root(tmp, ["shikaku/seed-10x10.txt"])
    (tmp / "plugin").mkdir()
    env = plugin_package(tmp / "plugin", "broken-pkg", "0.1", {"cpsat_broken": BROKEN},
                         {"shikaku.cpsat.cpsat-broken": "broken_pkg.cpsat_broken"})
    run(root, tmp / "run", "--formulation", "cpsat-broken", env=env)
    return tmp / "run"


@pytest.fixture(scope="session")
def single_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("single")
    root = _root(tmp, ["shikaku/seed-10x10.txt"])
    run(root, tmp / "run", "--formulation", "cpsat-cover")
    return tmp / "run"


@pytest.fixture(scope="session")
def repeat_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("repeat")
    root = _root(tmp, ["shikaku/seed-10x10.txt"])
    run(root, tmp / "run", "--formulation", "cpsat-cover", "--formulation", "mip-cover",
        "--solver", "cpsat", "--solver", "highs", "--repeat", "3")
    return tmp / "run"
