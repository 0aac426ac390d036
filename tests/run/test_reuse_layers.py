"""Reuse never takes a stale result: in a copy of the source tree, editing one module of each
layer a task imports (a puzzle's rules, bench.grid, bench.instance, bench.registry, bench.models,
an encoding, a backend, a formulation) reruns exactly the tasks whose code imports it, and an
edit in the run layer reruns none. Real runs of four tasks (Shikaku and Nurikabe 5x5, a CP-SAT
and a SAT formulation of each), each run reusing the one before."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import INSTANCES, ROOT

SHIKAKU = INSTANCES / "shikaku" / "gen-shikaku-5x5-s1-0.txt"
NURIKABE = INSTANCES / "nurikabe" / "gen-nurikabe-5x5-s1-0.txt"
S_CP, S_SAT = ("shikaku", "cpsat-cover"), ("shikaku", "sat-cover[card=seqcounter]")
N_CP, N_SAT = ("nurikabe", "cpsat-tree"), ("nurikabe", "sat-tree")
ALL = {S_CP, S_SAT, N_CP, N_SAT}
#: (file edited in the copy, the tasks that must rerun), applied in this order
EDITS = [
    ("bench/puzzles/shikaku/rules.py", {S_CP, S_SAT}),
    ("bench/puzzles/nurikabe/rules.py", {N_CP, N_SAT}),
    ("bench/grid.py", ALL),
    ("bench/instance.py", ALL),
    ("bench/registry.py", ALL),
    ("bench/models.py", ALL),
    ("bench/encodings/cpsat.py", {S_CP, N_CP}),
    ("bench/backends/sat.py", {S_SAT, N_SAT}),
    ("formulations/shikaku/sat_cover.py", {S_SAT}),
    ("bench/run/measure.py", set()),  # the run layer: measures, answers nothing
]


def run(tree: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "bench.cli", "run", str(SHIKAKU), str(NURIKABE)]
    for puzzle, label in sorted(ALL):
        args += ["--formulation", f"{puzzle}:{label}"]
    p = subprocess.run([*args, "--solver", "cpsat", "--solver", "cadical195", "--time-limit",
                        "20", "--out", str(out), *extra], capture_output=True, text=True,
                       cwd=tree, env={**_env(), "PYTHONPATH": str(tree)}, timeout=600)
    assert p.returncode == 0, p.stderr
    return p


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def rows(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "journal.jsonl").read_text().splitlines() if x]


def ran_here(folder: Path) -> set[tuple[str, str]]:
    return {(r["puzzle"], r["formulation"]) for r in rows(folder) if r["run"] == folder.name}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    for part in ("bench", "formulations"):
        shutil.copytree(ROOT / part, root / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


def test_an_edit_in_each_layer_reruns_exactly_the_tasks_that_import_it(tree, tmp_path):
    base = tmp_path / "r0"
    run(tree, base)
    assert ran_here(base) == ALL and {r["status"] for r in rows(base)} == {"solved"}
    before = base
    for n, (module, expect) in enumerate(EDITS, 1):
        path = tree / module
        path.write_text(path.read_text() + "\n# edited\n")
        out = tmp_path / f"r{n}"
        p = run(tree, out, "--reuse", str(before))
        assert ran_here(out) == expect, (module, p.stdout)
        assert f"reused {4 - len(expect)} of 4 tasks" in p.stdout, (module, p.stdout)
        assert len(rows(out)) == 4 and {r["status"] for r in rows(out)} == {"solved"}
        before = out
