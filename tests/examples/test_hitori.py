"""Adding a puzzle: Hitori (examples/hitori/), a puzzle package with two formulations found
through entry points, with no file under bench/ naming it.

In this process the package is made visible as pip leaves it (its folder on sys.path and a
``.dist-info`` declaring the entry points of its pyproject.toml), the registries' caches put
back after each test; the slow test installs it with pip into a virtual environment and drives
the commands: generate, check, run, report.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

import bench.generate
import bench.registry
from bench.check import check_variant, solver_for
from bench.check.tiny import solutions, tiny_cases
from bench.generate import generate_one, generator_names
from bench.instance import parse_instance
from bench.puzzles import get_puzzle, puzzle_names, registry
from bench.registry import formulations
from bench.report.pictures import svg
from bench.variants import variants
from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "hitori"
PROJECT = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]


@pytest.fixture
def hitori(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Hitori visible to the registries, as ``pip install -e examples/hitori`` leaves it; after
    the test the registries are as before and its modules forgotten (imported afresh next)."""
    puzzle_names()  # the built-ins registered before the registries are copied
    generator_names()
    formulations()
    info = tmp_path / "puzzlebench_hitori-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: puzzlebench-hitori\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())
        for group, eps in PROJECT["entry-points"].items()))
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.syspath_prepend(str(tmp_path))
    for module, names in ((registry, ("_PUZZLES", "_modules")),
                          (bench.registry, ("_FORMULATIONS", "_imported")),
                          (bench.generate, ("_GENERATORS",))):
        for name in names:
            monkeypatch.setattr(module, name, type(getattr(module, name))(getattr(module, name)))
    monkeypatch.setattr(registry, "_packages", None)
    monkeypatch.setattr(bench.registry, "_plugins", None)
    monkeypatch.setattr(bench.registry, "_all_loaded", False)
    yield
    for name in [m for m in sys.modules if m.split(".")[0] == "puzzlebench_hitori"]:
        del sys.modules[name]


def hitori_instance(text: str):
    return parse_instance(f"puzzle: hitori\n\n{text}\n", "h.txt")


def test_no_file_under_bench_names_hitori():
    named = [p for p in (ROOT / "bench").rglob("*") if p.is_file()
             and p.suffix in (".py", ".txt", ".toml", ".j2", ".js", ".tmpl")
             and "hitori" in p.read_text(encoding="utf-8", errors="replace").lower()]
    assert named == []


def test_hitori_is_a_puzzle_with_its_folder(hitori: None):
    assert "hitori" in puzzle_names()
    rules = get_puzzle("hitori")
    assert rules.package == "puzzlebench_hitori"
    assert [p.name for p in rules.infeasible_instances()] == ["hitori-2x2.txt"]
    assert len(rules.check_instances()) == 2
    assert "hitori" in generator_names()
    assert {f.name for f in formulations("hitori")} == {"sat-tree", "cpsat-tree"}


def test_the_rules_reject_each_broken_rule(hitori: None):
    inst = hitori_instance("1 1 2\n2 3 1\n3 2 2")
    rules = get_puzzle("hitori")
    good = [["#", ".", "."], [".", ".", "."], [".", ".", "#"]]
    assert rules.verify(inst, good) == []
    assert any("adjacent" in p for p in
               rules.verify(inst, [["#", ".", "."], ["#", ".", "."], [".", ".", "#"]]))
    assert any("white more than once" in p for p in
               rules.verify(inst, [[".", ".", "."], [".", ".", "."], [".", ".", "#"]]))
    assert any("groups" in p for p in
               rules.verify(inst, [[".", "#", "."], ["#", ".", "."], [".", ".", "#"]]))
    found = solutions(inst)  # brute force: 7 ways, extra black cells where they fit
    assert good in found and len(found) == 7 and all(rules.verify(inst, g) == [] for g in found)
    with pytest.raises(Exception, match="every Hitori cell holds a number"):
        hitori_instance("1 .\n1 1")


def test_tiny_boards_have_several_one_and_no_solution(hitori: None):
    counts = [len(c.solutions) for c in tiny_cases("hitori")]
    assert len(counts) == 4 and max(counts) >= 2 and 0 in counts and 1 in counts


def test_every_variant_passes_check(hitori: None):
    for cls in formulations("hitori"):
        for form in variants(cls):
            backend = solver_for(form)
            assert backend is not None
            results = list(check_variant(form, backend))
            assert {c.status for c in results} == {"pass"}, [c.line() for c in results]


@pytest.mark.filterwarnings("ignore:Puzzle.check_cells is renamed:DeprecationWarning")
def test_a_plugin_with_the_old_hook_names_still_passes_check(
        hitori: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Hitori as written for 0.1 (its rules define ``check`` and call ``check_cells``) loads
    with a DeprecationWarning naming ``verify`` and passes ``check`` unchanged (until 0.3)."""
    old = tmp_path / "old" / "puzzlebench_hitori"
    shutil.copytree(EXAMPLE / "puzzlebench_hitori", old)
    rules_py = old / "rules.py"
    text = rules_py.read_text()
    assert "def verify(" in text and "self.verify_cells(" in text
    rules_py.write_text(text.replace("def verify(", "def check(")
                        .replace("self.verify_cells(", "self.check_cells("))
    monkeypatch.syspath_prepend(str(old.parent))
    with pytest.warns(DeprecationWarning, match="check: the puzzle hook 'check' is renamed "
                      "'verify'"):
        rules = get_puzzle("hitori")
    assert "def check(" in Path(sys.modules[type(rules).__module__].__file__ or "").read_text()
    inst = hitori_instance("1 1 2\n2 3 1\n3 2 2")
    with pytest.warns(DeprecationWarning, match="Puzzle.check_cells is renamed"):
        assert rules.verify(inst, [["#", ".", "."], ["#", ".", "."], [".", ".", "#"]])
    cls = next(c for c in formulations("hitori") if c.name == "sat-tree")
    form = variants(cls)[0]
    backend = solver_for(form)
    assert backend is not None
    results = list(check_variant(form, backend))
    assert {c.status for c in results} == {"pass"}, [c.line() for c in results]


def test_the_generator_makes_a_unique_reproducible_puzzle(hitori: None):
    a = generate_one("hitori", 6, 7, seed=3)
    b = generate_one("hitori", 6, 7, seed=3)
    assert a.instance.grid == b.instance.grid and a.solution == b.solution
    assert get_puzzle("hitori").verify(a.instance, a.solution) == []
    other = generate_one("hitori", 6, 7, seed=4)
    assert other.instance.grid != a.instance.grid


def test_the_picture_fills_the_black_cells(hitori: None, tmp_path: Path):
    path = tmp_path / "h.txt"
    path.write_text("puzzle: hitori\n\n1 1 2\n2 3 1\n3 2 2\n")
    picture = svg("hitori", [["#", ".", "."], [".", ".", "."], [".", ".", "#"]], str(path))
    assert picture.count('fill="#222"/>') == 2 and picture.count("<text") == 9


@pytest.mark.slow
def test_pip_installs_hitori_and_it_goes_through_generate_check_run_and_report(tmp_path: Path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = str(env_dir / "bin" / "python")
    pip = subprocess.run([python, "-m", "pip", "install", "--no-deps", "-e", str(EXAMPLE)],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        res = subprocess.run([python, "-m", "bench.cli", *args], capture_output=True,
                             text=True, env=env, cwd=tmp_path, timeout=600)
        assert res.returncode == 0, res.stdout + res.stderr
        return res

    cli("generate", "hitori", "--size", "7x7", "--seed", "1", "--count", "2",
        "--out", str(tmp_path / "instances"))
    assert cli("check", "hitori:sat-tree[*]").stdout.count("PASS") == 9
    assert cli("check", "hitori:cpsat-tree").stdout.count("PASS") == 4
    cli("run", "--out", str(tmp_path / "run"), str(tmp_path / "instances"),
        "--formulation", "sat-tree", "--formulation", "cpsat-tree", "--time-limit", "20")
    results = pd.read_parquet(tmp_path / "run" / "results.parquet")
    assert set(results["puzzle"]) == {"hitori"} and set(results["status"]) == {"solved"}
    assert set(results["formulation"].str.split("[").str[0]) == {"sat-tree", "cpsat-tree"}
    cli("report", str(tmp_path / "run"), "--out", str(tmp_path / "report"))
    assert "hitori" in (tmp_path / "report" / "summary.md").read_text()
    pictures = sorted((tmp_path / "report").glob("hitori-*.svg"))
    assert pictures and 'fill="#222"/>' in pictures[0].read_text()
    listed = json.loads(cli("list", "--json").stdout)["formulations"]
    assert {f["name"] for f in listed if f["puzzle"] == "hitori"} == {"sat-tree", "cpsat-tree"}


def test_solve_names_no_declared_default_for_a_puzzle_without_one(hitori: None):
    """Hitori declares no default: `solve --solver` says its pick is the first registered
    formulation, never "the declared default"."""
    from bench.cli.solve import formulation_for
    from bench.solve import default_choice

    first = default_choice("hitori")[0]
    for solver in ("cpsat", "cadical195"):
        _, why = formulation_for("hitori", solver, first)
        assert why and "declared default" not in why.replace("no declared default", ""), why
        assert "first registered formulation (no declared default)" in why, why
