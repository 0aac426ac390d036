"""`puzzlebench new-formulation`: every template writes a plugin whose formulation passes the
conformance checks as generated (imported from its folder here; installed with pip into a
virtual environment in the slow test), and a request without a template is a one-line error."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from bench.check import check_variant, solver_for
from bench.cli import main
from bench.registry import get_formulation
from bench.scaffold import TEMPLATES, write_plugin
from tests.conftest import ROOT


@pytest.mark.parametrize(("puzzle", "kind"), sorted(TEMPLATES))
def test_the_generated_formulation_passes_check(tmp_path: Path, puzzle: str, kind: str,
                                                monkeypatch: pytest.MonkeyPatch):
    name = f"scaffold-{puzzle}-{kind}"  # one module name per test: imports are cached
    ident = name.replace("-", "_")
    files = write_plugin(puzzle, kind, name, tmp_path / "plugin")
    assert {f.name for f in files} >= {"pyproject.toml", f"{kind}_{ident}.py",
                                       f"test_{ident}.py"}
    project = tomllib.loads((tmp_path / "plugin" / "pyproject.toml").read_text())
    entry = project["project"]["entry-points"]["puzzlebench.formulations"]
    module = f"puzzlebench_{ident}.{kind}_{ident}"
    assert entry == {f"{puzzle}.{kind}.{name}": module}
    monkeypatch.syspath_prepend(str(tmp_path / "plugin"))
    importlib.import_module(module)
    form = get_formulation(puzzle, name)
    backend = solver_for(form)
    assert backend is not None
    results = list(check_variant(form, backend))
    assert [c.status for c in results] == ["pass"] * 4, [c.line() for c in results]


def test_the_generated_test_calls_check(tmp_path: Path):
    write_plugin("shikaku", "sat", "scaffold-t", tmp_path)
    text = (tmp_path / "tests" / "test_scaffold_t.py").read_text()
    assert "check_variant" in text and 'get_formulation("shikaku", "scaffold-t")' in text


@pytest.mark.skipif(shutil.which("ruff") is None, reason="no ruff (the lint extra)")
def test_the_generated_plugin_passes_ruff_on_its_own(tmp_path: Path):
    """Out of tree, with ruff's default rules and import sorting (the plugin its own first
    party, puzzlebench a third party)."""
    write_plugin("shikaku", "sat", "scaffold-r", tmp_path)
    p = subprocess.run(["ruff", "check", "--isolated", "--extend-select", "I", "."],
                       cwd=tmp_path, capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout + p.stderr


def test_no_template_no_folder_and_a_taken_folder_are_errors(tmp_path: Path, capsys):
    assert main(["new-formulation", "nurikabe", "sat", "x", "--out", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert "no template for nurikabe sat" in err and "shikaku sat" in err
    assert not (tmp_path / "a").exists()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "keep.txt").write_text("mine")
    assert main(["new-formulation", "shikaku", "sat", "x", "--out", str(tmp_path / "b")]) == 2
    assert "not empty" in capsys.readouterr().err
    assert main(["new-formulation", "shikaku", "sat", "Bad_Name", "--out",
                 str(tmp_path / "c")]) == 2


@pytest.mark.slow
def test_pip_installs_the_plugin_and_check_passes_from_the_command(tmp_path: Path):
    """The closing sequence: new-formulation, pip install -e, puzzlebench check, list."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = str(env_dir / "bin" / "python")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    plugin = tmp_path / "plugin"
    run = [sys.executable, "-m", "bench.cli", "new-formulation", "shikaku", "sat", "mine",
           "--out", str(plugin)]
    assert subprocess.run(run, env=env, cwd=ROOT, timeout=60).returncode == 0
    pip = subprocess.run([python, "-m", "pip", "install", "--no-deps",
                          "-e", str(plugin)], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    check = subprocess.run([python, "-m", "bench.cli", "check", "mine"], capture_output=True,
                           text=True, env=env, cwd=tmp_path, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count("PASS") == 4
    listed = subprocess.run([python, "-m", "bench.cli", "list"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=120)
    assert "[plugin: puzzlebench-mine]" in listed.stdout


def test_the_templates_are_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["bench"]
    shipped = {p for pattern in patterns for p in (ROOT / "bench").glob(pattern)}
    folder = ROOT / "bench" / "scaffold" / "templates"
    used = {folder / f"{f}.tmpl" for files in TEMPLATES.values() for f in files}
    used |= {folder / f"{f}.tmpl" for f in ("pyproject.toml", "README.md", "test.py")}
    assert used <= shipped and all(p.is_file() for p in used)


def _new(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", "new-formulation", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_an_out_that_is_a_file_is_one_line_and_left_alone(tmp_path: Path):
    afile = tmp_path / "AFILE"
    afile.write_text("mine")
    p = _new("shikaku", "sat", "foo", "--out", str(afile))
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.strip().splitlines() == [f"puzzlebench: {afile} exists and is not a folder"]
    assert afile.read_text() == "mine" and sorted(tmp_path.iterdir()) == [afile]


def test_a_name_too_long_writes_nothing_and_a_rerun_works(tmp_path: Path):
    out = tmp_path / "plugin"
    p = _new("shikaku", "sat", "a" * 300, "--out", str(out))
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "300 characters: at most 64" in lines[0], lines
    assert list(tmp_path.iterdir()) == []  # not even the folder
    p = _new("shikaku", "sat", "scaffold-rerun", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert (out / "pyproject.toml").is_file()
    assert sorted(f.name for f in tmp_path.iterdir()) == ["plugin"]  # no temporary left


def test_a_folder_that_cannot_be_made_writes_nothing(tmp_path: Path):
    (tmp_path / "file").write_text("mine")
    p = _new("shikaku", "sat", "foo", "--out", str(tmp_path / "file" / "plugin"))
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert sorted(f.name for f in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize("name", ["sat-cover", "cpsat-cover", "mip-cover"])
def test_a_name_of_a_built_in_formulation_is_refused(tmp_path: Path, name: str):
    p = _new("shikaku", "sat", name, "--out", str(tmp_path / "plugin"))
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.strip().splitlines() == [
        f"puzzlebench: formulation name {name!r} is taken by the built-in shikaku formulation "
        f"{name} (formulations.shikaku.{name.split('-')[0]}_cover); choose another name"], \
        p.stderr
    assert list(tmp_path.iterdir()) == []
