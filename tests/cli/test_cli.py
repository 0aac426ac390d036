"""The command line as users and other tools call it: real processes, real files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHIKAKU_SEEDS


def cli(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT, timeout: float = 600):
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, **(env or {})},
                          timeout=timeout)


def test_list_json_schema():
    out = json.loads(cli("list", "--json").stdout)
    forms = {(f["puzzle"], f["name"]): f for f in out["formulations"]}
    assert {"mip-sugar", "cpsat-sugar", "mip-cover", "cpsat-cover", "sat-cover"} <= {
        n for p, n in forms if p == "shikaku"}
    assert set(forms["shikaku", "sat-cover"]["solvers"]) >= {"cadical195", "minisat22"}
    solvers = {s["name"]: s for s in out["solvers"]}
    for name in ("glpk", "cbc", "highs", "cpsat", "cadical195", "glucose4", "kissat404",
                 "minisat22", "lingeling"):
        assert set(solvers[name]) >= {"name", "kinds", "version", "available"}
        assert solvers[name]["available"], name
    assert solvers["kissat404"]["incremental"] is False


def test_solve_json_contract():
    p = cli("solve", str(SHIKAKU_SEEDS[1]), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert {"puzzle", "instance", "formulation", "solver", "status", "grid", "build_s",
            "solve_s", "wall_s"} <= set(out)
    assert out["status"] == "solved" and out["instance"] == str(SHIKAKU_SEEDS[1])
    assert len(out["grid"]) == 20 and all(len(r) == 36 for r in out["grid"])


@pytest.mark.parametrize("extra", [(), ("--solver", "nosuch"), ("--formulation", "nosuch"),
                                   ("--formulation", "sat-hybrid[bogus=1]")])
def test_solve_json_names_every_contract_field_when_no_task_ran(write, extra):
    """The contract's fields are there, null, where no task ran (bad input: exit 2)."""
    inst = write("n.txt", "puzzle: nurikabe\n\n1 .\n. .\n")
    for path in (inst, inst.parent / "missing.txt") if extra else (inst.parent / "m.txt",):
        p = cli("solve", str(path), "--json", *extra)
        out = json.loads(p.stdout)
        assert p.returncode == 2 and out["status"] == "error"
        assert {"puzzle", "instance", "formulation", "solver", "status", "build_s", "solve_s",
                "wall_s"} <= set(out)


def test_solve_json_names_the_puzzle_of_a_file_refused_after_its_header(write):
    out = json.loads(cli("solve", str(write("big.txt", "puzzle: nurikabe\n\n9 .\n. .\n")),
                         "--json").stdout)
    assert out["status"] == "error" and "larger than the grid" in out["message"]
    assert out["puzzle"] == "nurikabe"
    out = json.loads(cli("solve", str(write("u.txt", "puzzle: sudoku\n\n9\n")), "--json").stdout)
    assert out["puzzle"] is None


@pytest.mark.parametrize("sol", [None, "[[1, 3], [3, 3]]"])
def test_solve_json_infeasible_only_when_proved(write, sol):
    """``mip-seed``'s default variant is not exact: finding no solution proves nothing, and
    the contract's ``infeasible`` would be a false claim (the instance has one)."""
    inst = write("f.txt", "puzzle: fillomino\n\n1 .\n. .\n")
    if sol:
        write("f.sol", sol)
    p = cli("solve", str(inst), "--json", "--formulation", "mip-seed", "--solver", "highs")
    out = json.loads(p.stdout)
    assert p.returncode == 1 and out["status"] == "error", out
    assert "not exact" in out["message"]
    solved = json.loads(cli("solve", str(inst), "--json").stdout)
    assert solved["status"] == "solved" and solved["grid"] == [[1, 3], [3, 3]]


def test_solve_with_chosen_formulation_and_solver_renders_text():
    p = cli("solve", str(SHIKAKU_SEEDS[0]), "--formulation", "mip-cover", "--solver", "highs")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("+-+") and "mip-cover / highs" in p.stdout


@pytest.mark.parametrize(
    ("content", "needle"),
    [("puzzle: shikaku\n\n2 .\n. . .\n", ":4: ragged grid"),
     ("puzzle: kakuro\n\n1\n", ":1: unknown puzzle"),
     (b"\x00\x00", "binary file")],
)
def test_bad_instance_one_line_error_nonzero_no_traceback(write, content, needle):
    p = write("bad.txt", content)
    text = cli("solve", str(p))
    assert text.returncode != 0 and "Traceback" not in text.stderr
    assert len(text.stderr.strip().splitlines()) == 1 and needle in text.stderr
    js = cli("solve", str(p), "--json")
    out = json.loads(js.stdout)
    assert js.returncode != 0 and out["status"] == "error" and str(p) in out["message"]
    assert "grid" not in out


def test_missing_file(tmp_path):
    p = cli("solve", str(tmp_path / "none.txt"), "--json")
    assert p.returncode != 0 and "no such file" in json.loads(p.stdout)["message"]


def test_an_unknown_solver_is_named_before_any_task_starts():
    for extra in ((), ("--json",)):
        p = cli("solve", str(SHIKAKU_SEEDS[0]), "--solver", "cadical", *extra)
        assert p.returncode == 2 and "Traceback" not in p.stderr
        assert "--solver 'cadical': unknown solver 'cadical' (did you mean cadical" in (
            p.stdout + p.stderr) and "(known: cpsat, " in p.stdout + p.stderr
        assert "fork failed" not in p.stderr and "WARNING" not in p.stderr, p.stderr


def test_an_unknown_formulation_names_no_solver_it_never_ran():
    p = cli("solve", str(SHIKAKU_SEEDS[0]), "--formulation", "nosuch", "--json")
    out = json.loads(p.stdout)
    assert p.returncode == 2 and out["status"] == "error" and out["solver"] is None
    assert out["message"].startswith("--formulation 'nosuch': no formulation 'nosuch' for "
                                     "shikaku; known: ")


def test_a_builtin_formulation_in_the_wrong_file_is_one_line_naming_the_right_one(tmp_path):
    import shutil

    for part in ("bench", "formulations"):
        shutil.copytree(ROOT / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "formulations" / "shikaku" / "sat_oops.py").write_text(
        "from bench.models import SatModel\n"
        "from bench.registry import Formulation, formulation\n\n\n"
        "@formulation\n"
        "class Oops(Formulation[SatModel]):\n"
        "    name = 'sat-oops'\n"
        "    kind = 'cpsat'\n"
        "    description = 'its kind is not its file name'\n")
    env = {"PYTHONPATH": str(tmp_path)}
    for args in (("list",), ("solve", str(SHIKAKU_SEEDS[0]), "--formulation", "sat-cover")):
        p = cli(*args, env=env, cwd=tmp_path)
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        assert p.stderr.strip().splitlines() == [
            "puzzlebench: Oops (shikaku, cpsat) is defined in formulations.shikaku.sat_oops; "
            "a built-in formulation must be in formulations/shikaku/cpsat_*.py"], p.stderr


def test_infeasible_instance_is_infeasible_not_error(write):
    p = write("inf.txt", "puzzle: shikaku\n\n2 . .\n. 3 .\n")  # areas sum to 5, not 6
    out = json.loads(cli("solve", str(p), "--json").stdout)
    assert out["status"] == "infeasible"


def test_run_records_a_bad_instance_and_goes_on(tmp_path):
    root = tmp_path / "proj"
    (root / "instances" / "shikaku").mkdir(parents=True)
    (root / "instances" / "shikaku" / "a.txt").write_text(SHIKAKU_SEEDS[0].read_text())
    (root / "instances" / "shikaku" / "b.txt").write_text("puzzle: shikaku\n\n2 y\n")
    (root / "instances" / "suites.toml").write_text(
        '[t]\nversion = 3\ndescription = "test"\ntime_limit = 20\ninstances = ["shikaku/*.txt"]\n')
    env = {"PUZZLEBENCH_ROOT": str(root)}
    p = cli("run", "--suite", "t", "--out", str(tmp_path / "out"), "--formulation", "cpsat-cover",
            env=env, cwd=tmp_path)
    assert p.returncode == 1  # one instance is malformed
    assert "b.txt:3: column 1: illegal token 'y'" in p.stderr and "Traceback" not in p.stderr
    import pandas as pd

    df = pd.read_parquet(tmp_path / "out" / "results.parquet")
    assert sorted(df["status"]) == ["error", "solved"]
    env_rec = json.loads((tmp_path / "out" / "environment.json").read_text())[0]
    assert env_rec["suite_version"] == 3 and env_rec["threads"] == 1
    assert {"cpu", "cores", "python", "git", "packages", "solvers", "time_limit"} <= set(env_rec)
    rep = cli("report", str(tmp_path / "out"), "--out", str(tmp_path / "rep"), "--instance", "a")
    assert rep.returncode == 0, rep.stderr
    md = (tmp_path / "rep" / "summary.md").read_text()
    assert "| cpsat-cover | cpsat | 1 | 1/1 | 0 | 1 |" in md and "illegal token" in md
    per = md[md.index("## Per instance (a)"):]  # a row per instance, a column per pair
    assert "cpsat-cover / cpsat" in per.split("\n")[2]
    assert re.search(r"^\| a \| [0-9.,]+ (ms|s) \|$", per, re.M), per  # a time with its unit
    assert (tmp_path / "rep" / "index.html").exists()
    assert (tmp_path / "rep" / "shikaku-cactus.png").stat().st_size > 1000


HEAVY = ("pandas", "pyarrow", "matplotlib", "seaborn", "pyomo", "ortools")


def test_solve_imports_only_what_a_sat_solve_needs():
    """`solve` with a SAT formulation and solver imports no pandas, pyarrow, matplotlib,
    seaborn, Pyomo or OR-tools (neither in the command nor in the task it forks)."""
    nurikabe = ROOT / "instances" / "nurikabe" / "seed-p05.txt"
    probe = (
        "import atexit, sys, runpy\n"
        "atexit.register(lambda: sys.__stderr__.write('MODULES ' + ' '.join(sorted({"
        "m.split('.')[0] for m in sys.modules})) + '\\n'))\n"
        "sys.argv = ['puzzlebench', *sys.argv[1:]]\n"
        "try:\n    runpy.run_module('bench.cli', run_name='__main__')\n"
        "except SystemExit:\n    pass\n")
    for start in ("fork", "spawn"):
        p = subprocess.run([sys.executable, "-c", probe, "solve", str(nurikabe), "--json",
                            "--solver", "cadical195", "--formulation", "sat-lazy", "--start",
                            start], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert json.loads(p.stdout)["status"] == "solved", p.stderr
        loaded = set(p.stderr.split("MODULES ", 1)[1].split())
        assert ("bench" in loaded and "pysat" in loaded) or start == "spawn"
        assert not loaded & set(HEAVY), (start, loaded & set(HEAVY))


def test_list_reads_the_plugin_table_without_loading_the_modelling_layers():
    """`list` imports every formulation module but none of pandas, pyarrow, matplotlib, seaborn
    or highspy, and Pyomo's and OR-tools' modelling modules stay unexecuted lazy proxies
    (`bench.models.lazy_module`); the listing still names every kind's formulations."""
    probe = (
        "import atexit, sys, runpy\n"
        "def report():\n"
        "    mods = {m.split('.')[0] for m in sys.modules}\n"
        "    lazy = {n: type(sys.modules[n]).__name__ for n in ('pyomo.environ', "
        "'ortools.sat.python.cp_model') if n in sys.modules}\n"
        "    sys.__stderr__.write('MODULES ' + ' '.join(sorted(mods)) + '\\n')\n"
        "    sys.__stderr__.write('LAZY ' + repr(lazy) + '\\n')\n"
        "atexit.register(report)\n"
        "sys.argv = ['puzzlebench', 'list']\n"
        "try:\n    runpy.run_module('bench.cli', run_name='__main__')\n"
        "except SystemExit:\n    pass\n")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                       timeout=120)
    assert "mip-cover" in p.stdout and "cpsat-cover" in p.stdout and "sat-cover" in p.stdout
    loaded = set(p.stderr.split("MODULES ", 1)[1].split("\n", 1)[0].split())
    assert "formulations" in loaded
    assert not loaded & {"pandas", "pyarrow", "matplotlib", "seaborn", "highspy"}
    lazy = p.stderr.split("LAZY ", 1)[1].split("\n", 1)[0]
    assert "'module'" not in lazy, lazy  # a loaded module's type is `module`


def test_a_lazy_module_loads_on_first_use_and_for_the_templates_preload():
    """What the fork-server templates rely on: importing a module that was bound lazily
    loads it for real, so forked tasks never pay the import."""
    probe = (
        "import importlib, sys\n"
        "from bench.models import lazy_module\n"
        "m = lazy_module('json.tool')\n"
        "print(type(sys.modules['json.tool']).__name__)\n"
        "importlib.import_module('json.tool')\n"
        "print(type(sys.modules['json.tool']).__name__, callable(m.main))\n"
        "print(lazy_module('json.tool') is m)\n")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                       timeout=60)
    assert p.stdout.split("\n")[:3] == ["_LazyModule", "module True", "True"], p.stderr


def test_run_repeat_seeds_calibration_and_constraints(tmp_path):
    root = tmp_path / "proj"
    (root / "instances" / "shikaku").mkdir(parents=True)
    (root / "instances" / "shikaku" / "a.txt").write_text(SHIKAKU_SEEDS[0].read_text())
    (root / "instances" / "suites.toml").write_text(
        '[t]\nversion = 1\ndescription = "t"\ntime_limit = 20\ninstances = ["shikaku/*.txt"]\n')
    env = {"PUZZLEBENCH_ROOT": str(root)}
    out = tmp_path / "out"
    args = ("run", "--suite", "t", "--out", str(out), "--formulation", "sat-cover[card=ladder]",
            "--solver", "minisat22", "--repeat", "2", "--seeds", "2")
    p = cli(*args, env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert ("harness overhead per task (median, slowest solver per kind; one-time set-up "
            "apart): sat ") in p.stdout
    import pandas as pd

    df = pd.read_parquet(out / "results.parquet")
    assert sorted(zip(df["seed"], df["rep"], strict=True)) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert set(df["start"]) == {"fork"} and df["overhead_s"].notna().all()
    assert (df["base_rss_mb"] > 0).all() and (df["cpu_s"] > 0).all()
    env_rec = json.loads((out / "environment.json").read_text())[-1]
    assert env_rec["repeat"] == 2 and env_rec["seeds"] == 2 and env_rec["start"] == "fork"
    assert 0 < env_rec["calibration"]["start_s"] < 10 and env_rec["calibration"]["end_s"] > 0
    pins = (out / "constraints.txt").read_text().splitlines()
    assert any(line.startswith("python-sat==") for line in pins)
    assert all("==" in line for line in pins)
    # resume: the same command finds every (seed, rep) done
    again = cli(*args, env=env, cwd=tmp_path)
    assert again.returncode == 0 and len(pd.read_parquet(out / "results.parquet")) == 4
    assert len((out / "journal.jsonl").read_text().splitlines()) == 4


@pytest.mark.parametrize("command, full", [
    ("solve", "--time-limit"), ("report", "--out"), ("merge", "--out"), ("compare", "--out"),
    ("check", "--time-limit"), ("generate", "--seed"), ("list", "--json"), ("run", "--suite"),
    ("import", "--out"), ("aslib", "--out"), ("new-puzzle", "--out")])
def test_no_command_takes_an_abbreviated_option(command, full):
    """Every command refuses a prefix of its options (`--time` for `--time-limit`): an option
    means one thing whatever options are added later, and to every wrapper reading the line."""
    from bench.cli import parser

    p = parser([command])
    sub = p._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    assert full in {s for a in sub._actions for s in a.option_strings}
    assert sub._parse_optional(full)[0] is not None  # the full name is the option
    assert sub._parse_optional(full[:-2])[0] is None  # a prefix names no option
    assert p._parse_optional("--verb")[0] is None  # nor at the top (`--verbose`)
