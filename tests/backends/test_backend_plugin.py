"""An out-of-tree solver backend registered through a ``puzzlebench.backends`` entry point: a
family of python-sat solvers under names of their own (one available, one whose solver this
python-sat lacks), seen by `puzzlebench list` and run by `puzzlebench run` in task processes;
a broken entry point and one taking a built-in's name are logged and left out (a real
distribution on PYTHONPATH, real solvers, real processes)."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from tests.conftest import ROOT, SHIKAKU_SEEDS, plugin_package

FAMILY = '''
"""python-sat solvers under a "plug-" name: one class, several solver names."""

from bench.backends.sat import SatBackend
from bench.effort import CONFLICTS, DECISIONS


class PlugSat(SatBackend):
    incremental = True

    def __init__(self, pysat_name: str) -> None:
        self.name = f"plug-{pysat_name}"
        self.pysat_name = pysat_name
        self.solver_version = f"{pysat_name} (plug)"
        self.description = f"python-sat's {pysat_name}, registered by plug-pkg"
        self.effort = (CONFLICTS, DECISIONS)


def solvers():
    return [PlugSat("glucose3"), PlugSat("nosuch")]


class Clash(SatBackend):
    name = "cpsat"  # a built-in's name: refused
    pysat_name = "glucose3"
    solver_version = "Glucose 3"


class Miscounted(SatBackend):
    name = "plug-miscounted"
    pysat_name = "glucose3"
    solver_version = "Glucose 3"
    effort = ("conflicts",)  # names, not bench.effort.Counter: refused
'''


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return plugin_package(
        tmp_path_factory.mktemp("backends"), "plug-pkg", "0.3", {"family": FAMILY},
        {"plug": "plug_pkg.family:solvers", "cpsat": "plug_pkg.family:Clash",
         "plug-miscounted": "plug_pkg.family:Miscounted",
         "broken": "plug_pkg.missing:Nothing"},
        group="puzzlebench.backends")


def cli(env: dict[str, str], *args: str, cwd=ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def test_list_shows_the_family_with_each_names_availability(plugin_env):
    res = cli(plugin_env, "list", "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    solvers = {s["name"]: s for s in out["solvers"]}
    plug, missing = solvers["plug-glucose3"], solvers["plug-nosuch"]
    assert plug["available"] and plug["plugin"] == "plug-pkg" and plug["kinds"] == ["sat"]
    assert plug["seed"]["use"] == "scramble"
    assert [c["name"] for c in plug["effort"]] == ["conflicts", "decisions"]
    assert not missing["available"] and "nosuch" in missing["reason"]
    # the built-ins come first, in their declared order, and keep their names
    names = list(solvers)
    assert names.index("external") < names.index("plug-glucose3")
    assert solvers["cpsat"]["kinds"] == ["cpsat"] and solvers["cpsat"]["plugin"] == ""
    # a formulation of the kind lists the available plugin solver, not the missing one
    cover = next(f for f in out["formulations"]
                 if (f["puzzle"], f["name"]) == ("shikaku", "sat-cover"))
    assert "plug-glucose3" in cover["solvers"] and "plug-nosuch" not in cover["solvers"]
    assert "'cpsat' is taken" in res.stderr
    assert "plug-miscounted" not in solvers and "not a tuple of bench.effort.Counter" in res.stderr
    assert "broken" in res.stderr and "plug_pkg.missing" in res.stderr
    text = cli(plugin_env, "list")
    assert text.returncode == 0, text.stderr
    line = next(ln for ln in text.stdout.splitlines() if ln.strip().startswith("plug-glucose3"))
    assert "[plugin: plug-pkg]" in line and "seeded" in line


def test_a_run_uses_the_plugin_solver_in_task_processes(plugin_env, tmp_path):
    out = tmp_path / "out"
    res = cli(plugin_env, "run", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-cover",
              "--solver", "plug-glucose3", "--solver", "plug-nosuch", "--seeds", "2",
              "--out", str(out), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "plug-nosuch" in res.stderr  # skipped, with its reason
    df = pd.read_parquet(out / "results.parquet")
    assert set(df["solver"]) == {"plug-glucose3"} and len(df) >= 2
    for _, g in df.groupby("formulation"):  # a seeded solver: --seeds gives two searches
        assert sorted(g["seed"]) == [0, 1]
    assert set(df["status"]) == {"solved"} and df["checked"].all() and df["known"].all()
    assert set(df["solver_version"]) == {"glucose3 (plug) (python-sat "
                                         + df["solver_version"].iloc[0].split("python-sat ")[1]}
    assert df["conflicts"].notna().all()  # its declared counters are kept


def installed_copy(root, entry_points: str) -> dict[str, str]:
    """This puzzlebench laid out as a wheel installs it: the packages and a ``.dist-info``
    with ``entry_points``, and no pyproject.toml beside them (an environment importing it)."""
    import os
    import shutil

    for package in ("bench", "formulations"):
        shutil.copytree(ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    dist = root / "puzzlebench-0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: puzzlebench\nVersion: 0.0\n")
    (dist / "entry_points.txt").write_text(entry_points)
    return {**os.environ, "PYTHONPATH": str(root), "PUZZLEBENCH_ROOT": str(ROOT)}


def test_an_installed_puzzlebench_finds_its_backends_in_its_metadata(tmp_path):
    import tomllib

    group = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][
        "puzzlebench.backends"]
    lines = "".join(f"{k} = {v}\n" for k, v in group.items())
    env = installed_copy(tmp_path / "site", "[puzzlebench.formulations]\nbuiltin = formulations\n"
                         "[puzzlebench.backends]\n" + lines)
    res = cli(env, "list", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    from bench.backends import all_backends

    # the same solvers in the same order as the source checkout (a family entry, such as
    # cpmpy, stands for several solver names)
    assert [s["name"] for s in out["solvers"]] == [b.name for b in all_backends()]
    assert all(s["plugin"] == "" for s in out["solvers"])


def test_an_install_without_backend_entry_points_says_to_reinstall(tmp_path):
    env = installed_copy(tmp_path / "site", "[puzzlebench.formulations]\nbuiltin = formulations\n")
    res = cli(env, "list", "--json", cwd=tmp_path)
    assert json.loads(res.stdout)["solvers"] == []
    assert "puzzlebench.backends" in res.stderr and "reinstall" in res.stderr


MISTAKES = '''
"""Two mistakes a new solver plugin makes, and the fix of the second."""

from bench.backends.sat import SatBackend


class Misnamed(SatBackend):
    name = "plug-misnamed"  # declared under another entry-point name: refused
    pysat_name = "glucose3"
    solver_version = "Glucose 3"


class Cadical153(SatBackend):
    name = "plug-cadical153"  # left interruptible: python-sat cannot interrupt CaDiCaL
    pysat_name = "cadical153"
    solver_version = "CaDiCaL 1.5.3"
    incremental = True


class Cadical153Fixed(Cadical153):
    name = "plug-cadical153-fixed"
    interruptible = False
'''


@pytest.fixture(scope="module")
def mistaken_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return plugin_package(
        tmp_path_factory.mktemp("mistaken-backends"), "oops-pkg", "0.1",
        {"mistakes": MISTAKES},
        {"misnamed": "oops_pkg.mistakes:Misnamed",
         "plug-cadical153": "oops_pkg.mistakes:Cadical153",
         "plug-cadical153-fixed": "oops_pkg.mistakes:Cadical153Fixed"},
        group="puzzlebench.backends")


def test_a_solver_entry_point_named_unlike_its_solver_is_refused_in_one_line(mistaken_env):
    listed = cli(mistaken_env, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    names = {s["name"] for s in json.loads(listed.stdout)["solvers"]}
    assert not {"misnamed", "plug-misnamed"} & names  # neither spelling: it is one or the other
    errors = [ln for ln in listed.stderr.splitlines() if "misnamed" in ln]
    assert len(errors) == 1 and "Traceback" not in listed.stderr, listed.stderr
    assert "'misnamed'" in errors[0] and "name the entry point plug-misnamed" in errors[0]
    # the spelling the user reads in the plugin's pyproject.toml says why it is unknown
    solved = cli(mistaken_env, "solve", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-cover",
                 "--solver", "misnamed", "--json")
    out = json.loads(solved.stdout)
    assert out["status"] == "error" and "name the entry point plug-misnamed" in out["message"]


def test_an_interruptible_solver_python_sat_cannot_interrupt_is_skipped_not_failed(
        mistaken_env, tmp_path):
    listed = json.loads(cli(mistaken_env, "list", "--json").stdout)
    solvers = {s["name"]: s for s in listed["solvers"]}
    wrong, fixed = solvers["plug-cadical153"], solvers["plug-cadical153-fixed"]
    assert not wrong["available"] and "interruptible = False" in wrong["reason"]
    assert fixed["available"]
    out = tmp_path / "out"
    res = cli(mistaken_env, "run", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-cover",
              "--solver", "plug-cadical153", "--solver", "plug-cadical153-fixed",
              "--out", str(out), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    said = [ln for ln in res.stderr.splitlines() if "plug-cadical153:" in ln or
            "plug-cadical153 " in ln]
    assert len(said) == 1 and "interruptible = False" in said[0], res.stderr
    df = pd.read_parquet(out / "results.parquet")
    assert set(df["solver"]) == {"plug-cadical153-fixed"}  # no task of the refused one ran
    assert set(df["status"]) == {"solved"} and df["checked"].all()
