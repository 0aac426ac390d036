"""Adding a formulation: the README's worked example (tests/examples/) as an out-of-tree plugin.

Entry points are declared ``<puzzle>.<kind>.<formulation-name> = module``: a task imports only
the plugin module of its formulation, and a module registering what it did not declare is
skipped with an error while the harness goes on.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHIKAKU_SEEDS, plugin_package

EXAMPLE = ROOT / "tests" / "examples" / "shikaku" / "cpsat_mine.py"

#: a plugin whose decode records what the task process has imported
PROBE = '''
import json, os, sys
from bench.registry import formulation
from mine_pkg.cpsat_mine import CpsatMine


@formulation
class CpsatProbe(CpsatMine):
    name = "cpsat-probe"

    def decode(self, inst, model, value):
        with open(os.environ["PROBE_OUT"], "w") as f:
            json.dump(sorted(sys.modules), f)
        return super().decode(inst, model, value)
'''

SPY = '''
from bench.models import SatModel
from bench.registry import Formulation, formulation


@formulation
class SatSpy(Formulation[SatModel]):
    puzzle = "shikaku"
    name = "sat-spy"
    kind = "sat"
    description = "must not be imported by a cpsat task"
'''

#: an exact formulation that wrongly finds no solution: it forbids every rectangle
WRONG = '''
from bench.registry import formulation
from mine_pkg.cpsat_mine import CpsatMine


@formulation
class CpsatNone(CpsatMine):
    name = "cpsat-none"

    def build(self, inst):
        m = super().build(inst)
        m.model.add(sum(m.handles["x"]) == 0)
        return m
'''

LIAR = SPY.replace("SatSpy", "CpsatLiar").replace('"sat-spy"', '"cpsat-other"') \
    .replace('kind = "sat"', 'kind = "cpsat"')


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("plugins")
    env = plugin_package(
        root, "mine-pkg", "0.1",
        {"cpsat_mine": EXAMPLE.read_text(), "cpsat_probe": PROBE, "sat_spy": SPY,
         "cpsat_liar": LIAR, "cpsat_none": WRONG},
        {"shikaku.cpsat.cpsat-mine": "mine_pkg.cpsat_mine",
         "shikaku.cpsat.cpsat-probe": "mine_pkg.cpsat_probe",
         "shikaku.sat.sat-spy": "mine_pkg.sat_spy",
         "shikaku.cpsat.cpsat-liar": "mine_pkg.cpsat_liar",
         "shikaku.cpsat.cpsat-none": "mine_pkg.cpsat_none",
         "badly-named": "mine_pkg.sat_spy"})
    return {**env, "PROBE_OUT": str(root / "probe.json")}


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


def test_list_loads_every_plugin_and_skips_the_ones_that_lie(plugin_env):
    res = cli(plugin_env, "list", "--json")
    assert res.returncode == 0, res.stderr
    names = {f["name"] for f in json.loads(res.stdout)["formulations"] if f["puzzle"] == "shikaku"}
    assert {"cpsat-mine", "cpsat-probe", "sat-spy", "sat-cover"} <= names
    assert "cpsat-other" not in names  # registered what its entry point did not declare
    assert "cpsat-liar" in res.stderr and "declare" in res.stderr
    assert "badly-named" in res.stderr


def test_the_readme_example_solves_as_a_plugin(plugin_env):
    for seed in SHIKAKU_SEEDS:
        out = json.loads(cli(plugin_env, "solve", str(seed), "--json",
                             "--formulation", "cpsat-mine").stdout)
        assert out["status"] == "solved", out
        assert out["solver"] == "cpsat"


def test_solve_json_says_error_where_the_known_solution_contradicts_infeasible(plugin_env,
                                                                                 tmp_path):
    """An exact formulation's ``infeasible`` against a ``.sol`` beside the instance is an
    error saying so, not the contract's ``infeasible``; without the ``.sol`` it stands."""
    seed = SHIKAKU_SEEDS[0]
    alone = tmp_path / seed.name
    alone.write_text(seed.read_text())
    out = json.loads(cli(plugin_env, "solve", str(alone), "--json",
                         "--formulation", "cpsat-none", "--solver", "cpsat").stdout)
    assert out["status"] == "infeasible", out
    solved = json.loads(cli(plugin_env, "solve", str(alone), "--json").stdout)
    alone.with_suffix(".sol").write_text(json.dumps(solved["grid"]))
    out = json.loads(cli(plugin_env, "solve", str(alone), "--json",
                         "--formulation", "cpsat-none", "--solver", "cpsat").stdout)
    assert out["status"] == "error" and "known one (.sol)" in out["message"], out


def test_a_task_imports_only_its_own_plugin_module_and_kind(plugin_env):
    out = json.loads(cli(plugin_env, "solve", str(SHIKAKU_SEEDS[0]), "--json",
                         "--formulation", "cpsat-probe", "--solver", "cpsat").stdout)
    assert out["status"] == "solved", out
    loaded = set(json.loads(Path(plugin_env["PROBE_OUT"]).read_text()))
    assert {"mine_pkg.cpsat_probe", "mine_pkg.cpsat_mine", "ortools"} <= loaded
    assert not {"mine_pkg.sat_spy", "mine_pkg.cpsat_liar"} & loaded
    assert not any(m == "pyomo" or m.startswith(("pyomo.", "highspy", "pysat")) for m in loaded)
    assert not any(m.startswith(("formulations.shikaku.mip_", "formulations.shikaku.sat_"))
                   for m in loaded)


@pytest.mark.parametrize("tool", [["ruff", "check"], ["mypy"]])
def test_the_readme_example_passes_the_project_checks(tool):
    exe = shutil.which(tool[0])
    if exe is None:
        pytest.skip(f"{tool[0]} is not installed")
    res = subprocess.run([exe, *tool[1:], str(EXAMPLE)], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr


ORPHAN = SPY.replace("SatSpy", "CpsatOrphan").replace('"sat-spy"', '"cpsat-orphan"') \
    .replace('kind = "sat"', 'kind = "cpsat"').replace('puzzle = "shikaku"', 'puzzle = "shikaku2"')

#: two entry points into one module, whose second class was never decorated
PAIR = SPY.replace("SatSpy", "CpsatOne").replace('"sat-spy"', '"cpsat-one"') \
    .replace('kind = "sat"', 'kind = "cpsat"') + '''

class CpsatTwo(CpsatOne):
    name = "cpsat-two"
'''


@pytest.fixture(scope="module")
def mistaken_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return plugin_package(
        tmp_path_factory.mktemp("mistaken"), "mistaken-pkg", "0.1",
        {"cpsat_orphan": ORPHAN, "cpsat_pair": PAIR},
        {"shikaku2.cpsat.cpsat-orphan": "mistaken_pkg.cpsat_orphan",
         "shikaku.cpsat.cpsat-one": "mistaken_pkg.cpsat_pair",
         "shikaku.cpsat.cpsat-two": "mistaken_pkg.cpsat_pair"})


def test_a_plugin_of_an_unknown_puzzle_or_an_undecorated_class_is_named_once(mistaken_env):
    listed = cli(mistaken_env, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    names = {(f["puzzle"], f["name"]) for f in json.loads(listed.stdout)["formulations"]}
    assert ("shikaku", "cpsat-one") in names
    assert not {("shikaku2", "cpsat-orphan"), ("shikaku", "cpsat-two")} & names
    assert "no puzzle 'shikaku2' is registered" in listed.stderr
    assert "registered no formulation cpsat-two for shikaku" in listed.stderr
    for name, needle in (("cpsat-orphan", "shikaku2"), ("cpsat-two", "cpsat-two for")):
        checked = cli(mistaken_env, "check", name)
        assert checked.returncode != 0 and "Traceback" not in checked.stderr, checked.stderr
        assert sum(needle in line and "ERROR" in line
                   for line in checked.stderr.splitlines()) <= 1, checked.stderr
    solved = cli(mistaken_env, "solve", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-two",
                 "--json")
    assert json.loads(solved.stdout)["status"] == "error"
    assert solved.stderr.count("registered no formulation cpsat-two for shikaku") == 1, \
        solved.stderr


TYPO = SPY.replace("SatSpy", "SatTypo").replace('"sat-spy"', '"sat-typo"')


def test_a_formulation_declared_under_a_misspelt_puzzle_is_said_with_its_entry_point(tmp_path):
    """An entry point ``shikak.sat.sat-typo`` for a module registering Shikaku's ``sat-typo``:
    ``check``, ``solve`` and ``run`` naming it for Shikaku say which entry point declares it
    and for what, not only that no such formulation exists."""
    (tmp_path / "plugin").mkdir()
    env = plugin_package(tmp_path / "plugin", "typo-pkg", "0.1", {"sat_typo": TYPO},
                         {"shikak.sat.sat-typo": "typo_pkg.sat_typo"})
    seed = str(SHIKAKU_SEEDS[0])
    for args in (("check", "shikaku:sat-typo"),
                 ("solve", seed, "--formulation", "sat-typo"),
                 ("run", seed, "--formulation", "sat-typo", "--out", str(tmp_path / "run"))):
        res = cli(env, *args)
        assert res.returncode != 0, (args, res.stdout, res.stderr)
        assert "the entry point shikak.sat.sat-typo = typo_pkg.sat_typo (distribution " \
            "typo-pkg) names the puzzle 'shikak', not 'shikaku'" in res.stderr, (args, res.stderr)
