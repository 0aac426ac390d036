"""Loading the built-in formulation modules: a module that raises at import is skipped in one
logged line with its registrations undone, naming one of its formulations says why it is
unavailable, and a module named after no model kind is reported instead of silently ignored.

The broken modules live in a temporary folder added to ``formulations.shikaku``'s search path
(in-process tests) or in a temporary copy of the tree (command-line tests), never in the
repository's own ``formulations/``."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHIKAKU_SEEDS

MISSING = "import foo_missing_pkg  # noqa: F401\n"

OK = '''
from bench.models import SatModel
from bench.registry import Formulation, formulation


@formulation
class SatZzOk(Formulation[SatModel]):
    name = "sat-zz-ok"
    description = "loads although a sibling module fails to import"
'''

#: registers a formulation, then raises: the registration must not stay
PARTIAL = '''
from bench.models import SatModel
from bench.registry import Formulation, formulation


@formulation
class SatFirst(Formulation[SatModel]):
    name = "sat-first"
    aliases = {"sat-first-old": {}}
    description = "registered before its module raises"


raise RuntimeError("boom")
'''

SYNTAX = "def broken(:\n"


def _clear_caches() -> None:
    import bench.registry as registry

    for module in (registry, sys.modules.get("bench.registry_load")):
        for attr in ("_builtin_module_names", "builtin_module_names"):
            cached = getattr(module, attr, None)
            if cached is not None:
                cached.cache_clear()


@pytest.fixture
def shikaku_extra(tmp_path: Path) -> Iterator[Callable[[str, str], None]]:
    """``add(module_name, source)``: a module of ``formulations.shikaku`` kept in ``tmp_path``;
    every trace of it (imports, registrations, skip records) is removed afterwards."""
    import formulations.shikaku as package
    from bench import registry

    added: list[str] = []

    def add(name: str, source: str) -> None:
        (tmp_path / f"{name}.py").write_text(source)
        added.append(f"formulations.shikaku.{name}")
        _clear_caches()

    package.__path__.append(str(tmp_path))
    try:
        yield add
    finally:
        package.__path__.remove(str(tmp_path))
        for module in added:
            sys.modules.pop(module, None)
        table = registry._FORMULATIONS
        for key in [k for k, c in table.items() if c.__module__ in added]:
            del table[key]
        load = sys.modules.get("bench.registry_load")
        for module in added:
            getattr(load, "_skipped", {}).pop(module, None)
        _clear_caches()


def _lines(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if text in r.getMessage()]


def test_a_module_failing_to_import_is_skipped_in_one_line_and_the_others_load(
        shikaku_extra, caplog):
    from bench.registry import _FORMULATIONS, builtin_modules, load_builtin

    shikaku_extra("sat_mine4", MISSING)
    shikaku_extra("sat_zz_ok", OK)
    caplog.set_level(logging.WARNING)
    load_builtin("shikaku", ["sat"])
    load_builtin("shikaku", ["sat", "cpsat"])  # asked again: not logged again
    assert {("shikaku", "sat-cover"), ("shikaku", "sat-zz-ok")} <= set(_FORMULATIONS)
    # not handed to a fork-server template to import again
    assert "formulations.shikaku.sat_mine4" not in builtin_modules("shikaku", ["sat"])
    assert _lines(caplog, "sat_mine4") == [
        "formulations/shikaku/sat_mine4.py: skipped "
        "(ModuleNotFoundError: No module named 'foo_missing_pkg' "
        "(formulations/shikaku/sat_mine4.py:1))"]
    assert all(r.name.startswith("bench.") for r in caplog.records)


def test_a_module_that_registered_then_raised_leaves_nothing_registered(shikaku_extra, caplog):
    from bench.registry import _FORMULATIONS, load_builtin

    shikaku_extra("sat_mine5", PARTIAL)
    shikaku_extra("sat_mine6", SYNTAX)
    caplog.set_level(logging.WARNING)
    load_builtin("shikaku", ["sat"])
    assert not {("shikaku", "sat-first"), ("shikaku", "sat-first-old")} & set(_FORMULATIONS)
    assert ("shikaku", "sat-cover") in _FORMULATIONS
    assert _lines(caplog, "sat_mine5") == [
        "formulations/shikaku/sat_mine5.py: skipped "
        "(RuntimeError: boom (formulations/shikaku/sat_mine5.py:13))"]
    [syntax] = _lines(caplog, "sat_mine6")
    assert syntax.startswith("formulations/shikaku/sat_mine6.py: skipped (SyntaxError: ")


def test_the_skipped_record_names_what_the_module_would_define(shikaku_extra):
    from bench.registry import Skipped, load_builtin, skipped

    shikaku_extra("sat_mine5", PARTIAL)
    shikaku_extra("sat_mine6", SYNTAX)
    load_builtin("shikaku", ["sat"])
    records = {s.path: s for s in skipped("shikaku")}
    assert records["formulations/shikaku/sat_mine5.py"] == Skipped(
        "formulations/shikaku/sat_mine5.py", "shikaku", ("sat-first", "sat-first-old"),
        "RuntimeError: boom (formulations/shikaku/sat_mine5.py:13)")
    assert records["formulations/shikaku/sat_mine6.py"].names == ("sat-mine6",)  # its file


def test_naming_a_skipped_formulation_says_why_it_is_unavailable(shikaku_extra, capsys):
    from bench.cli import main
    from bench.registry import get_formulation
    from bench.run.names import formulation_problem

    shikaku_extra("sat_mine4", MISSING)
    shikaku_extra("sat_mine5", PARTIAL)
    why = ("'sat-mine4' is unavailable: formulations/shikaku/sat_mine4.py failed to import "
           "(ModuleNotFoundError: No module named 'foo_missing_pkg' "
           "(formulations/shikaku/sat_mine4.py:1))")
    with pytest.raises(KeyError) as e:
        get_formulation("shikaku", "sat-mine4")
    assert e.value.args[0] == why
    with pytest.raises(KeyError) as e:
        get_formulation("shikaku", "sat-first-old[x=1]")  # an alias, read from its source
    assert e.value.args[0].startswith("'sat-first-old' is unavailable: "
                                      "formulations/shikaku/sat_mine5.py failed to import")
    assert formulation_problem("sat-mine4", ["shikaku"]) == why
    assert formulation_problem("shikaku:sat-first", []).startswith(
        "'sat-first' is unavailable: formulations/shikaku/sat_mine5.py failed to import "
        "(RuntimeError: boom (formulations/shikaku/sat_mine5.py:13))")
    assert main(["check", "sat-mine4"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == f"puzzlebench: {why}"


def test_a_module_named_after_no_kind_is_reported_once(shikaku_extra, caplog):
    from bench.registry import builtin_modules

    shikaku_extra("mysat_x", OK.replace("sat-zz-ok", "sat-mysat"))
    shikaku_extra("_mine_helper", "X = 1\n")
    caplog.set_level(logging.WARNING)
    assert "formulations.shikaku.mysat_x" not in builtin_modules("shikaku", ["sat"])
    builtin_modules("shikaku", ["cpsat"])
    [line] = _lines(caplog, "mysat_x")
    assert line.startswith("formulations/shikaku/mysat_x.py: never loaded")
    assert "mip_, cpsat_, sat_, asp_, external_, cpmpy_" in line
    assert _lines(caplog, "_mine_helper") == []


def test_the_modules_of_a_kind_are_those_named_kind_underscore(shikaku_extra):
    from bench.registry import builtin_modules

    shikaku_extra("satx_mine", "X = 1\n")  # "satx" is no kind: never a sat module
    assert "formulations.shikaku.satx_mine" not in builtin_modules("shikaku", ["sat"])
    assert "formulations.shikaku.sat_cover" in builtin_modules("shikaku", ["sat"])


# --- the command line, in a copy of the tree -----------------------------------------------


@pytest.fixture(scope="module")
def broken_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of bench/ and formulations/ with a Shikaku module that fails to import, sorted
    before sat_cover (it used to stop the modules after it)."""
    root = tmp_path_factory.mktemp("tree")
    for part in ("bench", "formulations"):
        shutil.copytree(ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root)
    (root / "formulations" / "shikaku" / "sat_aaa.py").write_text(
        '"""A formulation whose module does not parse."""\n'
        "from bench.registry import formulation\n\n"
        "class SatAaa:\n    name = 'sat-aaa'\n    def (\n")
    return root


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=root, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(root)})


def test_the_commands_go_on_without_the_broken_module(broken_tree):
    skipped = "WARNING bench.registry_load: formulations/shikaku/sat_aaa.py: skipped (SyntaxError: "
    p = cli(broken_tree, "list", "--json")
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    names = {f["name"] for f in json.loads(p.stdout)["formulations"] if f["puzzle"] == "shikaku"}
    assert "sat-cover" in names and "sat-aaa" not in names
    assert [line for line in p.stderr.splitlines() if "sat_aaa" in line] == [
        next(line for line in p.stderr.splitlines() if line.startswith(skipped))]
    p = cli(broken_tree, "solve", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-cover", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["status"] == "solved", p.stderr
    p = cli(broken_tree, "-v", "list", "--json")  # -v: the skip's traceback too
    assert p.returncode == 0 and "Traceback (most recent call last)" in p.stderr, p.stderr
    assert 'sat_aaa.py", line 6' in p.stderr


def test_the_commands_naming_the_broken_module_say_why(broken_tree, tmp_path):
    why = "'sat-aaa' is unavailable: formulations/shikaku/sat_aaa.py failed to import (SyntaxError"
    p = cli(broken_tree, "solve", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-aaa")
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert f"--formulation 'sat-aaa': {why}" in p.stderr.splitlines()[-1]
    p = cli(broken_tree, "run", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-aaa",
            "--out", str(tmp_path / "out"))
    assert p.returncode == 2, p.stderr
    assert p.stderr.splitlines()[-1] == ("puzzlebench: --formulation 'sat-aaa' selects no "
                                         f"formulation variant: {why}: invalid syntax "
                                         "(sat_aaa.py, line 6))")
    p = cli(broken_tree, "check", "sat-aaa")
    assert p.returncode == 2 and p.stderr.splitlines()[-1].startswith(f"puzzlebench: {why}")


def test_naming_a_formulation_of_a_plugin_module_that_failed_to_import_says_why(monkeypatch):
    from bench import registry
    from bench.registry import Plugin, get_formulation
    from bench.run.names import formulation_problem

    declared = [Plugin("shikaku", "sat", "sat-plugged", "nosuch_plugin_pkg.sat_mine"),
                Plugin("shikaku", "sat", "sat-plugged2", "nosuch_plugin_pkg.sat_mine")]
    monkeypatch.setattr(registry, "_plugins", declared)
    monkeypatch.setattr(registry, "_imported", set())
    monkeypatch.setattr(registry, "_judged", set())
    monkeypatch.setattr(registry, "_all_loaded", False)
    load = sys.modules["bench.registry_load"]
    monkeypatch.setattr(load, "_skipped", dict(load._skipped))
    why = ("is unavailable: nosuch_plugin_pkg.sat_mine failed to import "
           "(ModuleNotFoundError: No module named 'nosuch_plugin_pkg')")
    for name in ("sat-plugged", "sat-plugged2"):
        with pytest.raises(KeyError) as e:
            get_formulation("shikaku", name)
        assert e.value.args[0] == f"{name!r} {why}"
    assert formulation_problem("sat-plugged2", ["shikaku"]) == f"'sat-plugged2' {why}"


#: raises at import from a helper it calls, two lines into its file
NAMEERROR = "X = 1\n\n\ndef helper():\n    return x\n\n\nhelper()\n"


def test_the_skip_names_where_the_module_raised_and_logs_the_traceback_at_info(
        shikaku_extra, caplog):
    from bench.registry import load_builtin, skipped

    shikaku_extra("sat_mine7", NAMEERROR)
    shikaku_extra("sat_mine4", MISSING)
    caplog.set_level(logging.INFO)
    load_builtin("shikaku", ["sat"])
    records = {s.path: s.reason for s in skipped("shikaku")}
    assert records["formulations/shikaku/sat_mine7.py"] == (
        "NameError: name 'x' is not defined (formulations/shikaku/sat_mine7.py:5)")
    assert records["formulations/shikaku/sat_mine4.py"] == (
        "ModuleNotFoundError: No module named 'foo_missing_pkg' "
        "(formulations/shikaku/sat_mine4.py:1)")
    [traced] = [r for r in caplog.records if r.exc_info and "sat_mine7" in r.getMessage()]
    assert traced.levelno == logging.INFO
    assert "helper()" in caplog.text and 'return x' in caplog.text  # the full traceback
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING and "sat_mine" in
              r.getMessage()]
    assert all(r.exc_info is None for r in warned) and len(warned) == 2


def test_the_skip_names_the_innermost_frame_when_the_module_is_not_on_the_traceback():
    from bench.registry_load import where

    try:
        compile("x = (", "<string>", "exec")
    except SyntaxError as e:
        assert where(e, "formulations.shikaku.sat_nowhere") == ""  # its message says where
    try:
        json.loads("{")
    except ValueError as e:
        site = where(e, "formulations.shikaku.sat_nowhere")
    assert site.startswith(" (") and "json" in site and site.endswith(")")


def test_a_run_forking_its_tasks_from_templates_logs_each_skip_once(broken_tree, tmp_path):
    p = cli(broken_tree, "run", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-cover",
            "--solver", "cadical195", "--jobs", "2", "--start", "fork",
            "--out", str(tmp_path / "out"))
    assert p.returncode == 0, p.stderr
    assert [line for line in p.stderr.splitlines() if "sat_aaa" in line] == [
        "WARNING bench.registry_load: formulations/shikaku/sat_aaa.py: skipped "
        "(SyntaxError: invalid syntax (sat_aaa.py, line 6))"]


def test_a_process_takes_the_skips_of_the_one_that_started_it(shikaku_extra, monkeypatch,
                                                               caplog):
    from bench.registry import get_formulation, load_builtin
    from bench.registry_load import adopt_skipped, skipped_state

    load = sys.modules["bench.registry_load"]
    monkeypatch.setattr(load, "_skipped", dict(load._skipped))
    shikaku_extra("sat_mine5", PARTIAL)
    load_builtin("shikaku", ["sat"])
    state = skipped_state()
    before = load.skipped("shikaku")
    load._skipped.clear()  # a fresh process, handed the state
    adopt_skipped(state)
    assert load.skipped("shikaku") == before
    caplog.clear()
    caplog.set_level(logging.INFO)
    load_builtin("shikaku", ["sat"])  # neither imported nor logged again
    assert "formulations.shikaku.sat_mine5" not in sys.modules
    assert _lines(caplog, "sat_mine5") == []
    with pytest.raises(KeyError, match=r"sat_mine5\.py failed to import \(RuntimeError: boom"):
        get_formulation("shikaku", "sat-first")
