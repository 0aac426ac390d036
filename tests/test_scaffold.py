"""`puzzlebench new-formulation`: every template writes a plugin whose formulation passes the
conformance checks as generated (imported from its folder here; installed with pip into a
virtual environment in the slow test), and a request without a template is a one-line error
naming where to start. `puzzlebench new-puzzle`: the puzzle package it writes passes the same
checks and this repository's lint as generated."""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

import bench.registry
import bench.scaffold
from bench.check import check_variant, solver_for
from bench.cli import main
from bench.instance import read_instance
from bench.puzzles import Puzzle, get_puzzle, puzzle_names
from bench.puzzles import registry as puzzle_registry
from bench.registry import formulations, get_formulation
from bench.scaffold import MAX_NAME, TEMPLATES, ScaffoldError, write_plugin
from bench.scaffold.puzzle import FILES, write_puzzle
from bench.scaffold.puzzle import MAX_NAME as PUZZLE_MAX_NAME
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
    assert "check_variant" in text and 'get_formulation("shikaku", NAME)' in text
    assert 'NAME = "scaffold-t"' in text


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
    # the page's sequence under a name of its own: a reader of the page may have `mine`
    run = [sys.executable, "-m", "bench.cli", "new-formulation", "shikaku", "sat",
           "scaffold-pip", "--out", str(plugin)]
    assert subprocess.run(run, env=env, cwd=ROOT, timeout=60).returncode == 0
    pip = subprocess.run([python, "-m", "pip", "install", "--no-deps",
                          "-e", str(plugin)], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    check = subprocess.run([python, "-m", "bench.cli", "check", "scaffold-pip"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count("PASS") == 4
    listed = subprocess.run([python, "-m", "bench.cli", "list"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=120)
    assert "[plugin: puzzlebench-scaffold-pip]" in listed.stdout


def test_the_templates_are_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["bench"]
    shipped = {p for pattern in patterns for p in (ROOT / "bench").glob(pattern)}
    folder = ROOT / "bench" / "scaffold" / "templates"
    used = {folder / f"{f}.tmpl" for files in TEMPLATES.values() for f in files}
    used |= {folder / f"{f}.tmpl" for f in ("pyproject.toml", "README.md", "test.py")}
    used |= {folder / f"puzzle_{f}.tmpl" for f in FILES}
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


@pytest.mark.skipif(shutil.which("ruff") is None, reason="no ruff (the lint extra)")
@pytest.mark.parametrize(("puzzle", "kind"), sorted(TEMPLATES))
def test_the_longest_name_passes_this_repositorys_ruff(tmp_path: Path, puzzle: str, kind: str):
    """Copied into ``formulations/`` (the in-tree route), the module meets this repository's
    lint rules, its line length included, whatever the name's length."""
    write_plugin(puzzle, kind, "n" * MAX_NAME, tmp_path)
    p = subprocess.run(["ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
                        "."], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_readme_links_nowhere_false(tmp_path: Path):
    write_plugin("shikaku", "sat", "scaffold-readme", tmp_path)
    assert "](https://github.com/)" not in (tmp_path / "README.md").read_text()


def test_no_template_names_the_puzzles_own_formulations_and_their_files(tmp_path: Path):
    with pytest.raises(ScaffoldError) as e:
        write_plugin("nurikabe", "sat", "x", tmp_path / "a")
    message = str(e.value)
    assert "start from one of nurikabe's sat formulations" in message
    assert f"sat-lazy ({Path('formulations', 'nurikabe', 'sat_lazy.py')})" in message
    assert "built-in" not in message  # a plugin puzzle's formulations are not built in


def test_no_template_for_a_puzzle_without_formulations_says_where_to_begin(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    class Toy(Puzzle):
        name = "toy"

    puzzle_names()
    monkeypatch.setitem(puzzle_registry._PUZZLES, "toy", Toy())
    with pytest.raises(ScaffoldError) as e:
        write_plugin("toy", "sat", "x", tmp_path / "a")
    assert "toy has no formulation yet" in str(e.value)
    assert "docs/adding-a-puzzle.md" in str(e.value)


@pytest.fixture
def registries(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The puzzle and formulation registries put back after the test, and the modules of the
    packages it wrote forgotten."""
    puzzle_names()
    formulations()
    for module, names in ((puzzle_registry, ("_PUZZLES", "_modules")),
                          (bench.registry, ("_FORMULATIONS", "_imported"))):
        for name in names:
            monkeypatch.setattr(module, name, type(getattr(module, name))(getattr(module, name)))
    yield
    for name in [m for m in sys.modules if m.startswith("puzzlebench_scaffold")]:
        del sys.modules[name]


def test_the_generated_puzzle_passes_check_as_generated(tmp_path: Path, registries: None,
                                                        monkeypatch: pytest.MonkeyPatch):
    files = write_puzzle("scaffold_toy", tmp_path)
    package = tmp_path / "puzzlebench_scaffold_toy"
    assert {f.relative_to(tmp_path).as_posix() for f in files} >= {
        "pyproject.toml", "puzzlebench_scaffold_toy/rules.py", "puzzlebench_scaffold_toy/tiny.py",
        "puzzlebench_scaffold_toy/sat_direct.py", "tests/test_scaffold_toy.py"}
    project = tomllib.loads((tmp_path / "pyproject.toml").read_text())["project"]
    assert project["entry-points"] == {
        "puzzlebench.puzzles": {"scaffold_toy": "puzzlebench_scaffold_toy"},
        "puzzlebench.formulations": {
            "scaffold_toy.sat.sat-direct": "puzzlebench_scaffold_toy.sat_direct"}}
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("puzzlebench_scaffold_toy.rules")
    importlib.import_module("puzzlebench_scaffold_toy.sat_direct")
    rules = get_puzzle("scaffold_toy")
    assert rules.folder() == package
    assert [p.name for p in rules.check_instances()] == ["scaffold_toy-6x6.txt"]
    assert [p.name for p in rules.infeasible_instances()] == ["scaffold_toy-2x2.txt"]
    inst = read_instance(rules.check_instances()[0])
    assert rules.verify(inst, [[0] * inst.cols for _ in range(inst.rows)])
    form = get_formulation("scaffold_toy", "sat-direct")
    backend = solver_for(form)
    assert backend is not None
    results = list(check_variant(form, backend))
    assert [c.status for c in results] == ["pass"] * 4, [c.line() for c in results]
    assert rules.draw([[0, 1]], [[0, None]]) is not None


@pytest.mark.skipif(shutil.which("ruff") is None, reason="no ruff (the lint extra)")
def test_the_generated_puzzle_passes_ruff_in_and_out_of_this_repository(tmp_path: Path):
    write_puzzle("p" * PUZZLE_MAX_NAME, tmp_path)
    for config in (["--config", str(ROOT / "pyproject.toml")],
                   ["--isolated", "--extend-select", "I"]):
        p = subprocess.run(["ruff", "check", "--no-cache", *config, "."], cwd=tmp_path,
                           capture_output=True, text=True, check=False)
        assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize(("name", "error"), [
    ("Bad-Name", "puzzle name 'Bad-Name': lower-case letters, digits and '_'"),
    ("nurikabe", "puzzle name 'nurikabe' is taken"),
    ("p" * 41, "puzzle name of 41 characters: at most 40"),
    ("instance", "its class Instance would shadow a name the generated modules use"),
    ("none", "its class None would shadow a name the generated modules use"),
    ("value_error", "its class ValueError would shadow a name the generated modules use"),
])
def test_a_bad_puzzle_name_is_one_line_and_writes_nothing(tmp_path: Path, name: str,
                                                          error: str):
    p = subprocess.run([sys.executable, "-m", "bench.cli", "new-puzzle", name, "--out",
                        str(tmp_path / "p")], capture_output=True, text=True, cwd=ROOT,
                       timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert error in p.stderr and list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_pip_installs_the_new_puzzle_and_check_passes_from_the_command(tmp_path: Path):
    """The sequence of docs/adding-a-puzzle.md on the package as generated: pip install -e,
    puzzlebench check, list, solve, run on its instances, report, and its own test."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = str(env_dir / "bin" / "python")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    plugin = tmp_path / "plugin"
    # the page's sequence under a name of its own: a reader of the page may have `mypuzzle`
    new = [sys.executable, "-m", "bench.cli", "new-puzzle", "scaffold_pip", "--out",
           str(plugin)]
    assert subprocess.run(new, env=env, cwd=ROOT, timeout=60).returncode == 0
    pip = subprocess.run([python, "-m", "pip", "install", "--no-deps", "-e", str(plugin)],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([python, "-m", "bench.cli", *args], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=300)

    check = cli("check", "scaffold_pip:sat-direct")
    assert check.returncode == 0 and check.stdout.count("PASS") == 4, check.stdout + check.stderr
    assert "[plugin: puzzlebench-scaffold-pip]" in cli("list").stdout
    data = plugin / "puzzlebench_scaffold_pip" / "data"
    solved = cli("solve", str(data / "scaffold_pip-6x6.txt"))
    assert solved.returncode == 0 and "sat-direct / " in solved.stdout, solved.stderr
    ran = cli("run", "--out", "results", str(data), "--formulation", "sat-direct",
              "--solver", "cadical195", "--jobs", "1")
    assert ran.returncode == 0 and "solved 1" in ran.stdout, ran.stdout + ran.stderr
    report = cli("report", "results", "--out", "report")
    assert report.returncode == 0, report.stdout + report.stderr
    assert "scaffold_pip" in (tmp_path / "report" / "summary.md").read_text()
    own = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                         capture_output=True, text=True, env=env, cwd=plugin, timeout=300)
    assert own.returncode == 0 and "2 passed" in own.stdout, own.stdout + own.stderr


def test_the_generated_readmes_run_the_tests_with_the_environments_pytest(tmp_path: Path):
    """A bare `pytest` may be another environment's, which does not see the package."""
    write_puzzle("scaffold_readme", tmp_path / "puzzle")
    write_plugin("shikaku", "sat", "scaffold-readme", tmp_path / "formulation")
    for readme in (tmp_path / "puzzle" / "README.md", tmp_path / "formulation" / "README.md"):
        commands = [line.split("#")[0].strip() for line in readme.read_text().splitlines()
                    if line.startswith("    ")]
        assert "python -m pytest tests" in commands, readme
        assert "pytest tests" not in commands, readme


def test_the_module_shown_in_writing_a_formulation_is_what_the_command_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    page = (ROOT / "docs" / "writing-a-formulation.md").read_text()
    shown = page[page.index("from __future__"):]
    shown = shown[:shown.index("```")]
    # a reader who followed the page has a plugin `mine` installed: the name is not refused here
    monkeypatch.setattr(bench.scaffold, "_not_taken", lambda puzzle, name: None)
    write_plugin("shikaku", "sat", "mine", tmp_path)
    written = (tmp_path / "puzzlebench_mine" / "sat_mine.py").read_text()
    assert written.endswith(shown)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="no ruff (the lint extra)")
@pytest.mark.parametrize("what", ["formulation", "puzzle"])
def test_a_generated_folder_lints_by_its_own_pyproject_as_this_repository_does(
        tmp_path: Path, what: str):
    """Linted where it lies with its own ``pyproject.toml`` (what a newcomer runs), the
    generated code meets this repository's line length, and its test functions are annotated
    (as ``mypy --strict`` asks)."""
    if what == "puzzle":
        write_puzzle("p" * PUZZLE_MAX_NAME, tmp_path)
    else:
        write_plugin("shikaku", "sat", "n" * MAX_NAME, tmp_path)
    own = tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["ruff"]
    ours = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]
    assert own["line-length"] == ours["line-length"]
    p = subprocess.run(["ruff", "check", "--no-cache", "."], cwd=tmp_path,
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    tests = list((tmp_path / "tests").glob("test_*.py"))
    assert tests
    for path in tests:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                assert node.returns is not None, f"{path.name}: {node.name} has no return type"
